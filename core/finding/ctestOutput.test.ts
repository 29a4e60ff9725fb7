import { describe, expect, it } from '@jest/globals';
import { analyze } from '../../test/helpers/rulesReading.js';
import type { Finding } from '../../protocol/types.js';

/**
 * ctest's verdict on a test program takes its class from the program's own output (ctestOutput.ts; docs/notes/analyzer.md,
 * "Round 17 tuning (helper t18)"), with `ctest -V` (the output above the row, each line prefixed with the test's number)
 * and `--output-on-failure` (below it). Made-up logs of other projects.
 */
const top = (text: string): Finding | undefined => analyze(text)[0]?.finding;

/** A `ctest -V` run: test 1 passes, test 2 prints `out` and ends as `verdict`. */
const verbose = (out: string[], verdict: string, listed = 'Failed'): string =>
  [
    '+ ctest --test-dir build -V',
    'UpdateCTestConfiguration  from :/src/geo/build/DartConfiguration.tcl',
    'test 1',
    '    Start 1: parse_empty',
    '',
    '1: Test command: /src/geo/build/geo_tests "parse_empty"',
    '1: Working Directory: /src/geo/build',
    '1: parse_empty: ok',
    '1/2 Test #1: parse_empty ......................   Passed    0.01 sec',
    'test 2',
    '    Start 2: parse_point',
    '',
    '2: Test command: /src/geo/build/geo_tests "parse_point"',
    '2: Working Directory: /src/geo/build',
    '2: Test timeout computed to be: 1500',
    ...out.map((l) => `2: ${l}`),
    `2/2 Test #2: parse_point ......................${verdict}    0.02 sec`,
    '',
    '50% tests passed, 1 tests failed out of 2',
    '',
    'Total Test time (real) =   0.05 sec',
    '',
    'The following tests FAILED:',
    `\t  2 - parse_point (${listed})`,
    'Errors while running CTest',
    '##[error]Process completed with exit code 8.',
  ].join('\n');

describe("ctest's verdict read by the test program's output", () => {
  it("a CHECK macro's `failed: got, want` above the `***Failed` row is the test's assertion, at its place", () => {
    const f = top(verbose(['/src/geo/tests/point_test.cpp:31: CHECK_EQ(parse("1,2").y, 2) failed: got 0, want 2', '/src/geo/tests/point_test.cpp:32: CHECK_EQ(parse("1,2").x, 1) failed: got 2, want 1'], '***Failed  '));
    expect([f?.class, f?.confidence, f?.message, f?.location?.file, f?.location?.line, f?.test?.name]).toEqual([
      'test-assertion', 'medium', '/src/geo/tests/point_test.cpp:31: CHECK_EQ(parse("1,2").y, 2) failed: got 0, want 2', '/src/geo/tests/point_test.cpp', 31, 'parse_point',
    ]);
  });

  it("C's assert() over `Subprocess aborted` is the test's assertion", () => {
    const f = top(verbose(["geo_tests: /src/geo/tests/point_test.c:17: test_point: Assertion `p.y == 2' failed."], 'Subprocess aborted***Exception: ', 'Subprocess aborted'));
    expect([f?.class, f?.location?.line, f?.test?.name]).toEqual(['test-assertion', 17, 'parse_point']);
    expect(f?.message).toContain("Assertion `p.y == 2' failed.");
  });

  it("C++'s terminate over `Subprocess aborted` is a test error, its exception named", () => {
    const f = top(verbose(["terminate called after throwing an instance of 'std::length_error'", '  what():  basic_string::_M_create'], 'Subprocess aborted***Exception: ', 'Subprocess aborted'));
    expect([f?.class, f?.message, f?.exception]).toEqual(['test-error', "terminate called after throwing an instance of 'std::length_error'", 'std::length_error']);
  });

  it("an error the program met is the test error's message; a crash with nothing said is the program's runtime exception", () => {
    const met = top(verbose(['parse_point: cannot open data/points.csv: No such file or directory'], '***Failed  '));
    expect([met?.class, met?.message]).toEqual(['test-error', 'parse_point: cannot open data/points.csv: No such file or directory']);
    const crash = top(verbose(['parse_point: start'], '***Exception: SegFault', 'SEGFAULT'));
    expect([crash?.class, crash?.confidence, crash?.test?.name]).toEqual(['runtime-exception', 'medium', 'parse_point']);
    expect(crash?.message).toMatch(/^2\/2 Test #2: parse_point \.+\*\*\*Exception: SegFault/);
  });

  it('--output-on-failure: the output printed below the row', () => {
    const log = [
      '+ ctest --output-on-failure',
      'Test project /src/geo/build',
      '    Start 1: load_fixture',
      '1/3 Test #1: load_fixture .....................***Failed    0.00 sec',
      'load_fixture: cannot create /src/geo/build/tmp/fixture.db: No such file or directory',
      '',
      '    Start 2: query_one',
      '2/3 Test #2: query_one ........................   Passed    0.00 sec',
      '',
      '67% tests passed, 1 tests failed out of 3',
      'The following tests FAILED:',
      '\t  1 - load_fixture (Failed)',
      'Errors while running CTest',
    ].join('\n');
    const f = top(log);
    expect([f?.class, f?.message, f?.test?.name]).toEqual(['test-error', 'load_fixture: cannot create /src/geo/build/tmp/fixture.db: No such file or directory', 'load_fixture']);
  });

  it('counter-example: a program that printed nothing and failed (no signal) stays the verdict at low', () => {
    const f = top(verbose(['parse_point: start'], '***Failed  '));
    expect([f?.class, f?.confidence]).toEqual(['test-error', 'low']);
  });
});
