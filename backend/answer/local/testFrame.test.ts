import type { Finding } from '../../../protocol/types.js';
import type { LogSpan } from '../logtext.js';
import { testFrameOf } from './testFrame.js';

const span = (lines: string[]): LogSpan => ({ start_line: 1, end_line: lines.length, text: lines.join('\n') });
const finding = (over: Partial<Finding>): Finding => ({ class: 'test-error', message: 'x', message_line: 1, confidence: 'high', evidence: [1], ...over });

describe("testFrameOf: the test file's own frame on the stack of a test's error placed in the code", () => {
  const node = span([
    "not ok 1 - notes app",
    "  error: 'config.sessionSecret must be set'",
    '  stack: |-',
    '    createApp (file:///ci/ws/src/app.js:3:11)',
    '    SuiteContext.<anonymous> (file:///ci/ws/test/app.test.js:8:11)',
    '    TestHook.run (node:internal/test_runner/test:796:25)',
  ]);
  const placed = finding({ message_line: 2, location: { file: '/ci/ws/src/app.js', line: 3, log_line: 4 } });
  it('finds the test frame after the place, relative the way the workspace names the place', () => {
    expect(testFrameOf(node, placed, 'src/app.js')).toEqual({ file: 'test/app.test.js', line: 8, log_line: 5 });
    // Without the workspace's name for the place, the log's path as it is.
    expect(testFrameOf(node, placed)).toEqual({ file: '/ci/ws/test/app.test.js', line: 8, log_line: 5 });
  });
  it('says nothing when the place is itself a test file, the class is not a test one, or no stack holds the place', () => {
    expect(testFrameOf(node, finding({ message_line: 2, location: { file: '/ci/ws/test/app.test.js', line: 8, log_line: 5 } }), 'test/app.test.js')).toBeUndefined();
    expect(testFrameOf(node, { ...placed, class: 'runtime-exception' }, 'src/app.js')).toBeUndefined();
    expect(testFrameOf(node, finding({ message_line: 2, location: { file: '/ci/ws/src/other.js', line: 3, log_line: 4 } }), 'src/other.js')).toBeUndefined();
  });
  it("reads a Python traceback (printed outermost first) and matches a JVM frame's package path to the workspace's file", () => {
    const py = span([
      'Traceback (most recent call last):',
      '  File "/ci/ws/tests/test_fetcher.py", line 10, in test_first_try',
      '    self.assertEqual(fetch(), 1)',
      '  File "/ci/ws/fetcher/__init__.py", line 18, in fetch',
      '    return next(it)',
      'StopIteration',
    ]);
    expect(testFrameOf(py, finding({ message_line: 6, location: { file: 'fetcher/__init__.py', line: 18, log_line: 4 } }), 'fetcher/__init__.py')).toEqual({ file: 'tests/test_fetcher.py', line: 10, log_line: 2 });
    const jvm = span([
      'java.lang.NullPointerException: rate',
      '\tat net.x.RateTable.rate(RateTable.java:10)',
      '\tat net.x.RateTableTest.oversize(RateTableTest.java:22)',
      '\tat org.junit.runners.Foo.run(Foo.java:1)',
    ]);
    const jvmPlace = finding({ location: { file: 'net/x/RateTable.java', line: 10, log_line: 2 } });
    expect(testFrameOf(jvm, jvmPlace, undefined, ['src/test/java/net/x/RateTableTest.java'])?.file).toBe('src/test/java/net/x/RateTableTest.java');
  });
});
