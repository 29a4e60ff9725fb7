import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { analyze } from '../log/analyze.js';
import { REALFAIL_ROOT, TUNED_CASES } from '../../test/helpers/realfail.js';
import type { Finding } from '../../protocol/types.js';

/**
 * Session 47 (helper t22; docs/notes/analyzer.md "Session 47 (helper t22)"): the failed command's own diagnostic,
 * by the shell tools' grammar (a program names itself, a script its path, a checker the place), over the CI's exit
 * line that no rule read. Real logs of the data set (tuning cases) and made-up ones, with counter-examples.
 */
const top = (text: string): Finding | undefined => analyze(text)[0]?.finding;
const real = (id: string): Finding | undefined => {
  expect(TUNED_CASES).toContain(id);
  return top(readFileSync(path.join(REALFAIL_ROOT, id, 'fail.log'), 'utf8'));
};
const step = (command: string, ...out: string[]): string =>
  ['Started by user admin', '[Pipeline] sh', '+ echo building', 'building', `+ ${command}`, ...out, '[Pipeline] }', '[Pipeline] // stage', '[Pipeline] End of Pipeline', 'ERROR: script returned exit code 1', 'Finished: FAILURE'].join('\n');

describe("the failed command's own words over the CI's exit line", () => {
  it('real log (round 8, sox-mp3-no-handler): sox names itself (`sox FAIL formats: ...`), the exit line was the message', () => {
    expect(real('sox-mp3-no-handler')?.message).toBe("sox FAIL formats: no handler for file extension `mp3'");
  });

  it('real log (round 8, zsh-nomatch-glob): the script names its own path and line', () => {
    const f = real('zsh-nomatch-glob');
    expect([f?.message, f?.location?.file, f?.location?.line]).toEqual(['scripts/publish.zsh:6: no matches found: out/*.sha256', 'scripts/publish.zsh', 6]);
  });

  it("real log (round 15, go-mod-toolchain-directive-old-go): a heading that ends in a colon gives way to its detail's place line", () => {
    expect(real('go-mod-toolchain-directive-old-go')?.message).toBe('/tmp/b15b/ws/go-mod-toolchain-directive-old-go/go.mod:5: unknown directive: toolchain');
  });

  it("real log (round 15, git-diff-check-trailing-whitespace): a checker's place (a diff's `+  text` line is no traced command), read as lint under `--check`", () => {
    const f = real('git-diff-check-trailing-whitespace');
    expect([f?.class, f?.message, f?.location?.file, f?.location?.line]).toEqual(['lint', 'docs/usage.md:7: trailing whitespace.', 'docs/usage.md', 7]);
  });

  it('a program that names itself POSIX-style (`prog: message`), words no rule reads (made-up)', () => {
    expect(top(step('hugo --minify', 'Start building sites …', 'hugo: no content directory in themes/x'))?.message).toBe('hugo: no content directory in themes/x');
  });

  it('counter-examples: a program that printed only data, or nothing, leaves the exit line (real: round 2 python-silent-exit, round 1 shell-silent-exit)', () => {
    expect(real('python-silent-exit')?.message).toBe('ERROR: script returned exit code 1');
    expect(real('shell-silent-exit')?.message).toBe('ERROR: script returned exit code 1');
    expect(top(step('python3 tools/sizes.py', 'app.js        64.5 kB', 'site.css      27.3 kB'))?.message).toBe('ERROR: script returned exit code 1');
    // Another program's name at the start is not the command's own word.
    expect(top(step('python3 tools/sizes.py', 'rsync: 3 files'))?.message).toBe('ERROR: script returned exit code 1');
  });
});
