import { describe, expect, it } from '@jest/globals';
import { analyze } from '../log/analyze.js';
import type { Finding } from '../../protocol/types.js';

/**
 * git's push refused by the remote (families/git.ts): a refusal of the push (fetch first, a hook) is the script's; the
 * remote's failure to store it (`(unpacker error)`) is not, and its reason is the line above (docs/notes/analyzer.md,
 * "Round 17 tuning (helper t18)"). Made-up logs of other projects.
 */
const top = (text: string): Finding | undefined => analyze(text)[0]?.finding;
const push = (...out: string[]): string => ['+ git push origin HEAD:site', ...out, "error: failed to push some refs to 'ssh://git.example.org/srv/site.git'", 'ERROR: script returned exit code 1'].join('\n');

describe("git's push the remote did not store", () => {
  it('an object directory the remote could not create: credentials, medium, the reason its message', () => {
    const f = top(push('error: remote unpack failed: unable to create temporary object directory', 'To ssh://git.example.org/srv/site.git', ' ! [remote rejected] HEAD -> site (unpacker error)'));
    expect([f?.class, f?.confidence, f?.message]).toEqual(['permission-credentials', 'medium', 'error: remote unpack failed: unable to create temporary object directory']);
  });

  it('another unpack failure is not the script\'s error at high', () => {
    const f = top(push('error: remote unpack failed: index-pack abnormal exit', 'To ssh://git.example.org/srv/site.git', ' ! [remote rejected] HEAD -> site (unpacker error)'));
    expect([f?.class === 'ci-script' && f.confidence === 'high']).toEqual([false]);
  });

  it('counter-example: a push the remote refuses (a hook, fetch first) stays the script\'s, high', () => {
    const f = top(push('To ssh://git.example.org/srv/site.git', ' ! [remote rejected] HEAD -> site (pre-receive hook declined)'));
    expect([f?.class, f?.confidence]).toEqual(['ci-script', 'high']);
  });
});
