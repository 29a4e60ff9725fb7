import { describe, expect, it } from '@jest/globals';
import { failingStepOf } from './logtext.js';

/** The failing step's command (logtext.ts failingStepOf): the one that ended the step, not what ran after it or beside it. */
const span = (...lines: string[]) => ({ start_line: 1, end_line: lines.length, text: lines.join('\n') });
const commandAt = (errorLine: number, ...lines: string[]): string | undefined => failingStepOf(span(...lines), errorLine).command?.command;

describe('the command that failed, as the answer names it', () => {
  it("passes over an EXIT trap's cleanup that ran after the failure (`kill $SERVER`)", () => {
    const log = ['[Pipeline] sh', '+ node server.js', '+ SERVER_PID=31337', "+ trap 'kill $SERVER_PID' EXIT", '+ npx wait-on -t 5000 http://127.0.0.1:8080/ready', 'Error: Timed out waiting for: http://127.0.0.1:8080/ready', '+ kill 31337', 'ERROR: script returned exit code 1'];
    expect(commandAt(8, ...log)).toBe('npx wait-on -t 5000 http://127.0.0.1:8080/ready');
  });

  it('passes over a command started in the background (bash -x: `+ PID=...` from `$!` under it)', () => {
    const log = ['+ python3 -m http.server 9000', '+ SRV=4242', '+ sleep 1', 'Traceback (most recent call last):', '  File "/usr/lib/python3.11/http/server.py", line 1307, in <module>', 'OSError: [Errno 98] Address already in use'];
    expect(commandAt(6, ...log)).toBe('sleep 1');
    expect(commandAt(6, '+ ./serve.sh &', 'panic: listen tcp :9000: bind: address already in use')).toBeUndefined();
  });

  it('counter-example: the last command that printed the error is kept', () => {
    expect(commandAt(3, '+ make check', '+ ./run_tests', 'FAIL: test_ring (expected 3, got 4)')).toBe('./run_tests');
  });
});
