import { describe, expect, it } from '@jest/globals';
import { analyze } from '../log/analyze.js';
import type { Finding } from '../../protocol/types.js';

/**
 * The tune5 cases' misses (issue 25; docs/notes/analyzer.md, "Eighth session (helper t10)"), each form on
 * a made-up log of another project, with a counter-example.
 */
const top = (text: string): Finding | undefined => analyze(text)[0]?.finding;

describe("go vet type-checks first: its `vet: file:line:col:` error is the compiler's", () => {
  it('a package that does not compile under go vet is a compile error', () => {
    const log = [
      '+ go vet ./...',
      '# example.com/ledger/cmd/post',
      'vet: cmd/post/main.go:27:14: undefined: ledger.PostEntry',
      "Build step 'Execute shell' marked build as failure",
    ].join('\n');
    const f = top(log);
    expect([f?.class, f?.location?.file, f?.location?.line]).toEqual(['compile-error', 'cmd/post/main.go', 27]);
  });

  it('counter-example: a vet finding stays lint', () => {
    const log = [
      '+ go vet ./...',
      '# example.com/ledger/cmd/post',
      'cmd/post/main.go:31:3: fmt.Printf format %d has arg name of wrong type string',
      "Build step 'Execute shell' marked build as failure",
    ].join('\n');
    expect(top(log)?.class).toBe('lint');
  });
});

describe('go test -v prints a test\'s message under `=== RUN` and above its `--- FAIL:`', () => {
  const passing = Array.from({ length: 30 }, (_, n) => [`=== RUN   TestRound/${n}`, `--- PASS: TestRound/${n} (0.00s)`]).flat();

  it('the `x_test.go:N:` line above the verdict is the message and the place', () => {
    const log = [
      '+ go test -v -count=1 ./...',
      '=== RUN   TestRound',
      ...passing,
      '--- PASS: TestRound (0.00s)',
      '=== RUN   TestSplit',
      '    money_test.go:41: Split(100, 3) = [33 33 33], want [34 33 33]',
      '--- FAIL: TestSplit (0.00s)',
      'FAIL',
      'FAIL\texample.com/money\t0.011s',
    ].join('\n');
    const f = top(log);
    expect([f?.class, f?.location?.file, f?.location?.line, f?.test?.name]).toEqual(['test-assertion', 'money_test.go', 41, 'TestSplit']);
    expect(f?.message).toContain('want [34 33 33]');
  });

  it("counter-example: another test's output above its own verdict is not this test's message", () => {
    const log = [
      '+ go test -v -count=1 ./...',
      '=== RUN   TestRound',
      '    money_test.go:12: rounding 2.5 with banker\'s rounding, want 2',
      '--- PASS: TestRound (0.00s)',
      '=== RUN   TestSplit',
      '--- FAIL: TestSplit (0.00s)',
      'FAIL',
      'FAIL\texample.com/money\t0.011s',
    ].join('\n');
    const f = top(log);
    expect(f?.message).not.toContain('rounding 2.5');
    expect(f?.location?.line).not.toBe(12);
  });
});

describe("pytest --tb=line names the raise site with the exception's words", () => {
  it('the `path:N: Exception: words` line just below the failure is the place', () => {
    const log = [
      '+ python -m pytest -q --tb=line tests',
      '.F..                                                                     [100%]',
      '=================================== FAILURES ===================================',
      "E   AssertionError: assert 'b-c' == 'b_c'",
      '      - b_c',
      '      + b-c',
      '/ci/ws/tests/test_names.py:22: AssertionError: assert \'b-c\' == \'b_c\'',
      '=========================== short test summary info ============================',
      "FAILED tests/test_names.py::test_underscore - AssertionError: assert 'b-c' == 'b_c'",
      '1 failed, 3 passed in 0.21s',
    ].join('\n');
    const f = top(log);
    expect([f?.class, f?.location?.file, f?.location?.line]).toEqual(['test-assertion', '/ci/ws/tests/test_names.py', 22]);
  });

  it("counter-example: Python's own warning line is no place", () => {
    const log = [
      '+ python tools/report.py',
      '/ci/ws/tools/report.py:4: DeprecationWarning: the imp module is deprecated',
      '  import imp',
      'Traceback (most recent call last):',
      '  File "/ci/ws/tools/report.py", line 19, in <module>',
      '    main()',
      '  File "/ci/ws/tools/report.py", line 15, in main',
      "    rows = load(path)['rows']",
      "KeyError: 'rows'",
    ].join('\n');
    const f = top(log);
    expect([f?.class, f?.location?.line]).toEqual(['runtime-exception', 15]);
  });
});
