import { describe, expect, it } from '@jest/globals';
import { analyze } from '../../test/helpers/rulesReading.js';
import type { Finding } from '../../protocol/types.js';
import { unseenAliasOf } from './unseenAlias.js';

/**
 * A `command not found` for the script's own alias (unseenAlias.ts; docs/notes/ux16.md). Made-up logs in bash's own
 * words: the scripts run on this machine with `bash -xe` (GNU bash 5), output copied.
 */
const top = (text: string): Finding | undefined => analyze(text)[0]?.finding;
const step = (...out: string[]): string => ['[Pipeline] sh', ...out, '[Pipeline] }', 'ERROR: script returned exit code 127', 'Finished: FAILURE'].join('\n');

describe("a name the script defines as an alias, which bash does not expand in a script", () => {
  it('is the script\'s error, not a tool to install, with the alias line as evidence', () => {
    const f = top(step("+ alias 'mk=make -s -C src'", '+ mk all', 'ci.sh: line 2: mk: command not found'));
    expect([f?.class, f?.symbol]).toEqual(['ci-script', 'mk']);
    expect(f?.evidence).toContain(2);
  });

  it('a tool the agent lacks stays missing-tool', () => {
    const f = top(step("+ alias 'mk=make -s -C src'", '+ yarn install', 'ci.sh: line 2: yarn: command not found'));
    expect([f?.class, f?.symbol]).toEqual(['missing-tool', 'yarn']);
  });

  it('an alias defined in another file (a sourced one, one `+` deeper) is not this', () => {
    const f = top(step('+ . ./env.sh', "++ alias 'mk=make -s -C src'", '+ mk all', 'ci.sh: line 2: mk: command not found'));
    expect(f?.class).toBe('missing-tool');
  });

  it('with `shopt -s expand_aliases` above the call it is not this', () => {
    const f = top(step('+ shopt -s expand_aliases', "+ alias 'mk=make -s -C src'", '+ mk all', 'ci.sh: line 3: mk: command not found'));
    expect(f?.class).toBe('missing-tool');
  });

  it('the answer reads the alias from the finding it made (its symbol and evidence), not from a second scan', () => {
    const lines = ['[Pipeline] sh', "+ alias 'mk=make -s -C src'", '+ mk all', 'ci.sh: line 2: mk: command not found'];
    const f = top(step(...lines.slice(1))) as Finding;
    expect(unseenAliasOf(f, (i) => lines[i] ?? '')).toEqual({ name: 'mk', line: 2, value: 'make -s -C src' });
    // Its evidence holds the alias line; another finding's (a tool the agent lacks) does not.
    expect(unseenAliasOf({ ...f, evidence: [f.message_line] }, (i) => lines[i] ?? '')).toBeUndefined();
    const lacked = top(step("+ alias 'mk=make -s -C src'", '+ yarn install', 'ci.sh: line 2: yarn: command not found')) as Finding;
    expect(unseenAliasOf(lacked, (i) => lines[i] ?? '')).toBeUndefined();
  });
});
