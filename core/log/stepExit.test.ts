import { RUNNER_MARK, STEP_EXIT, stepExitStatus } from './stepExit.js';

describe('a step exit line (one reading for blocks, places and the command words)', () => {
  it('reads each runner\'s line with its status, or none', () => {
    expect(stepExitStatus('ERROR: script returned exit code 1')).toBe(1);
    expect(stepExitStatus('ERROR: script returned exit code -2')).toBe(-2);
    expect(stepExitStatus('##[error]Process completed with exit code 127.')).toBe(127);
    expect(stepExitStatus('Process completed with exit code 3.')).toBe(3);
    expect(stepExitStatus("Build step 'Execute shell' marked build as failure")).toBeNull();
    expect(stepExitStatus('The command "make test" exited with 2.')).toBe(2);
  });

  it('is the whole line at its start: an indented, quoted or longer line is a program\'s output', () => {
    expect(stepExitStatus('  ERROR: script returned exit code 1')).toBeUndefined();
    expect(stepExitStatus('echo "ERROR: script returned exit code 1"')).toBeUndefined();
    expect(stepExitStatus('ERROR: script returned exit code 1 (retrying)')).toBeUndefined();
    expect(stepExitStatus('##[error]Process completed with exit code 1. See the log')).toBeUndefined();
    expect(STEP_EXIT.test('Finished: FAILURE')).toBe(false);
  });

  it('knows the runners\' own lines between a step\'s output and its exit', () => {
    expect(['[Pipeline] }', '[Pipeline] // stage', '##[endgroup]', '##[group]Run make'].every((l) => RUNNER_MARK.test(l))).toBe(true);
    expect(RUNNER_MARK.test('make: *** [all] Error 2')).toBe(false);
  });
});
