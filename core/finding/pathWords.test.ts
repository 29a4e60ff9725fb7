import { describe, expect, it } from '@jest/globals';
import { analyze } from '../log/analyze.js';
import type { Finding } from '../../protocol/types.js';
import { matchOutsidePaths } from './pathWords.js';

/**
 * A rule's words inside a path are a name the project chose (docs/notes/analyzer.md, "The line that carries the
 * error (helper msg3)"). Made-up logs of other projects: a directory named after the problem must not make a frame
 * that names it the message.
 */
const top = (text: string): Finding | undefined => analyze(text)[0]?.finding;

describe('error words inside a path are no evidence', () => {
  it('a traceback in a directory named `...-enospc`: the OSError line is the message, not the frame', () => {
    const log = [
      '+ python3 tools/archive.py',
      'Traceback (most recent call last):',
      '  File "/srv/ci/ws/nightly-enospc-retry/tools/archive.py", line 12, in <module>',
      '    out.write(chunk)',
      'OSError: [Errno 28] No space left on device',
      "Build step 'Execute shell' marked build as failure",
      'Finished: FAILURE',
    ].join('\n');
    const f = top(log);
    expect([f?.class, f?.message]).toEqual(['disk-full', 'OSError: [Errno 28] No space left on device']);
  });

  it('a frame whose path holds `permissionerror`: the exception line is the message', () => {
    const log = [
      '+ python3 -m loader.main',
      'Traceback (most recent call last):',
      '  File "/home/ci/work/loader-permissionerror-fix/loader/main.py", line 30, in <module>',
      '    os.makedirs(CACHE)',
      "PermissionError: [Errno 13] Permission denied: '/var/cache/loader'",
      'Finished: FAILURE',
    ].join('\n');
    const f = top(log);
    expect([f?.class, f?.message]).toEqual(['permission-credentials', "PermissionError: [Errno 13] Permission denied: '/var/cache/loader'"]);
  });

  it('the words outside the path still count on the same line; a path alone does not', () => {
    const re = /No space left on device|\bENOSPC\b/i;
    const line = "cp: error writing '/data/enospc-demo/out.bin': No space left on device";
    expect(matchOutsidePaths(re, line, re.exec(line) as RegExpExecArray)?.[0]).toBe('No space left on device');
    const alone = 'copying /data/enospc-demo/out.bin';
    expect(matchOutsidePaths(re, alone, re.exec(alone) as RegExpExecArray)).toBeNull();
    const word = 'Error: ENOSPC: no space left on device, write';
    expect(matchOutsidePaths(re, word, re.exec(word) as RegExpExecArray)?.[0]).toBe('ENOSPC');
  });
});
