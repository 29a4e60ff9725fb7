import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { analyze } from '../log/analyze.js';
import { recipeDiagnostic } from './ownWords.js';

/**
 * Session 55 (helper ux17; docs/notes/analyzer.md "Session 55 (helper ux17)"): a recipe's command that a GNU tool
 * refused as a usage error (coreutils' `missing ... operand`, `Try 'cp --help'`) is the script's error (ci-script),
 * and its own words, not make's `make: *** [Makefile:N: target] Error N`, are the message of every excerpt, make's
 * verdict's too. Read from real output made on this machine by test/fixtures/grammar/make.sh (GNU make 4.3,
 * coreutils, bash 5), never written by hand.
 */
const DIR = path.join(process.cwd(), 'test', 'fixtures', 'grammar');
const excerpts = (id: string) => analyze(readFileSync(path.join(DIR, `${id}.log`), 'utf8'));

describe("a GNU tool's usage error, under make and under `bash -xe`: the script's error, in the tool's words", () => {
  it.each([
    ['make-cp-missing-dest', 'cp', "cp: missing destination file operand after 'out/etc/'"],
    ['make-mv-missing-dest', 'mv', "mv: missing destination file operand after 'dist/'"],
    ['make-install-missing-dest', 'install', "install: missing destination file operand after 'stage/bin/'"],
    ['make-ln-missing-operand', 'ln', 'ln: missing file operand'],
    ['make-mkdir-missing-operand', 'mkdir', 'mkdir: missing operand'],
    // GNU sed's `-i` with its files' variable empty.
    ['make-sed-no-input-files', 'sed', 'sed: no input files'],
    ['bash-cp-missing-dest', 'cp', "cp: missing destination file operand after 'conf/app.conf'"],
    ['bash-mkdir-missing-operand', 'mkdir', 'mkdir: missing operand'],
  ])('%s', (id, tool, message) => {
    const all = excerpts(id);
    expect(all[0]?.finding).toMatchObject({ class: 'ci-script', confidence: 'high', tool, message });
    // make's verdict and Jenkins' exit say the same: no excerpt is left with make's wrapper as its message.
    for (const e of all) expect(e.finding?.message).toBe(message);
  });

  it("make's verdict names the recipe's line as the place", () => {
    expect(excerpts('make-cp-missing-dest')[0]?.finding?.location).toMatchObject({ file: 'Makefile', line: 5 });
  });

  it("an option the tool does not take, with its `Try 'ln --help'` line", () => {
    expect(excerpts('make-ln-invalid-option')[0]?.finding).toMatchObject({ class: 'ci-script', confidence: 'high', tool: 'ln', message: "ln: invalid option -- 'q'" });
  });

  it("without the usage line under it an unknown option is not sure (the general usage evidence's medium), and an operand in a sentence is none", () => {
    const finding = (said: string) => analyze(['+ ./deploy.sh --fast', said, 'ERROR: script returned exit code 1'].join('\n'))[0]?.finding;
    expect(finding("deploy: unrecognized option '--fast'")?.confidence).not.toBe('high');
    expect(finding("report: missing operand in formula 'a+'")?.class).toBe('unknown');
  });
});

describe("make's verdict under the recipe command's own words: those words", () => {
  it("a script the recipe runs names itself: its line is the message of make's verdict's excerpt too", () => {
    for (const e of excerpts('make-script-own-words')) expect(e.finding?.message).toBe('gen-version.sh: VERSION is empty or missing');
  });

  const at = (lines: string[]) => recipeDiagnostic(lines.length - 1, (i) => lines[i] ?? '');
  it('a line that opens with a program an echoed line runs, or with make or a shell', () => {
    expect(at(['+ make all', 'for f in a b; do cp  out/; done', "cp: missing destination file operand after 'out/'", 'make: *** [Makefile:2: all] Error 1'])).toBe(2);
    expect(at(['+ make all', './gen.sh --out x', 'make: ./gen.sh: No such file or directory', 'make: *** [Makefile:2: all] Error 127'])).toBe(2);
    expect(at(['+ make all', 'gen', '/bin/sh: 1: gen: not found', 'make: *** [Makefile:2: all] Error 127'])).toBe(2);
  });
  it("not an echoed line's words, make's own directory lines, a warning, nor a program no echoed line runs", () => {
    expect(at(['+ make all', 'echo "gen: VERSION is empty" >&2; exit 3', 'gen: VERSION is empty', 'make: *** [Makefile:2: all] Error 3'])).toBeUndefined();
    expect(at(['+ make all', "make[1]: Entering directory '/ws/sub'", 'false', "make[1]: Leaving directory '/ws/sub'", 'make: *** [Makefile:2: all] Error 2'])).toBeUndefined();
    expect(at(['+ make all', 'cc -c x.c', 'cc: warning: x.c: unused', 'make: *** [Makefile:2: all] Error 1'])).toBeUndefined();
  });
});
