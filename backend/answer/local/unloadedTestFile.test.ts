import { unloadedTestFile } from './unloadedTestFile.js';

const reader = (lines: string[]) => (n: number): string | undefined => lines[n - 1];
const yaml = (failureType: string, exitCode: string): string[] => ['  ---', '  duration_ms: 12.5', `  failureType: '${failureType}'`, `  exitCode: ${exitCode}`, "  error: 'test failed'", '  ...'];

describe("unloadedTestFile: a test file node's runner reports as one failed test because it did not load", () => {
  it('is the file entry with no subtest, testCodeFailure and a non-zero exit code', () => {
    const lines = ['TAP version 13', '# Error: Cannot find module ./x', '# Subtest: /w/test/a.test.js', 'not ok 1 - /w/test/a.test.js', ...yaml('testCodeFailure', '1'), '1..1'];
    expect(unloadedTestFile(reader(lines), '/w/test/a.test.js', 4)).toEqual({ line: 4, failureType: 7, exitCode: 8 });
  });

  it("is not a file whose tests ran and failed, nor a test's own name, nor a file whose process exited 0", () => {
    const ran = ['# Subtest: /w/test/a.test.js', '    # Subtest: adds', '    not ok 1 - adds', '      ---', '      ...', 'not ok 1 - /w/test/a.test.js', ...yaml('testCodeFailure', '1')];
    expect(unloadedTestFile(reader(ran), '/w/test/a.test.js', 6)).toBeUndefined();
    const named = ['# Subtest: adds', 'not ok 1 - adds', ...yaml('testCodeFailure', '1')];
    expect(unloadedTestFile(reader(named), 'adds', 2)).toBeUndefined();
    const zero = ['# Subtest: /w/test/a.test.js', 'not ok 1 - /w/test/a.test.js', ...yaml('testCodeFailure', '0')];
    expect(unloadedTestFile(reader(zero), '/w/test/a.test.js', 2)).toBeUndefined();
  });
});
