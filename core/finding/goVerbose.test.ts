/**
 * `go test -v` with two failing tests (session 49, helper loc1; docs/notes/analyzer.md "Session 49 (helper loc1)"):
 * -v prints a test's output under its `=== RUN` line, before its `--- FAIL:` verdict, so a window that starts at the
 * first verdict held the next test's message first. Real go 1.19 output (realfail go-test-embed-fs-leading-dot-path,
 * go-test-v-date-layout-month-day-swapped-long, tuned rounds 20 and 22), with counter-examples.
 */
import { analyze } from '../log/analyze.js';

const findingOf = (log: string[]) => analyze(log.join('\n'))[0]?.finding;

const verbose = (first: string, second: string) => [
  '+ go test -count=1 -v ./...',
  '=== RUN   TestRenderWelcome',
  `    mailer_test.go:11: ${first}`,
  '--- FAIL: TestRenderWelcome (0.00s)',
  '=== RUN   TestRenderReset',
  `    mailer_test.go:21: ${second}`,
  '--- FAIL: TestRenderReset (0.00s)',
  'FAIL',
  'FAIL\texample.com/mailer/mailer\t0.004s',
  'FAIL',
];

describe('go test -v: the first failing test, not the next one', () => {
  it("gives the first test's message, line and name", () => {
    const f = findingOf(verbose('template: pattern matches no files: `./templates/welcome.txt`', 'template: pattern matches no files: `./templates/reset.txt`'));
    expect(f?.message).toContain('mailer_test.go:11: template: pattern matches no files: `./templates/welcome.txt`');
    expect(f?.location).toMatchObject({ file: 'mailer_test.go', line: 11 });
    expect(f?.test?.name).toBe('TestRenderWelcome');
  });

  it('reads a check as well as an error (got/want)', () => {
    const f = findingOf([
      '=== RUN   TestStamp',
      '    report_test.go:11: stamp: got 2024-15-03, want 2024-03-15',
      '--- FAIL: TestStamp (0.00s)',
      '=== RUN   TestFileName',
      '    report_test.go:18: file name: got ledger-2024-15-03.csv, want ledger-2024-03-15.csv',
      '--- FAIL: TestFileName (0.00s)',
      'FAIL',
      'FAIL\texample.com/ledger/report\t0.072s',
    ]);
    expect([f?.location?.line, f?.test?.name, f?.expected]).toEqual([11, 'TestStamp', '2024-03-15']);
  });

  it('without -v (the message under its verdict) reads as before', () => {
    const f = findingOf([
      '+ go test ./...',
      '--- FAIL: TestRenderWelcome (0.00s)',
      '    mailer_test.go:11: template: pattern matches no files: `./templates/welcome.txt`',
      '--- FAIL: TestRenderReset (0.00s)',
      '    mailer_test.go:21: template: pattern matches no files: `./templates/reset.txt`',
      'FAIL',
      'FAIL\texample.com/mailer/mailer\t0.004s',
    ]);
    expect([f?.location?.line, f?.test?.name]).toEqual([11, 'TestRenderWelcome']);
  });

  it("a parallel subtest's message under `=== CONT` keeps the subtest's name (its parent's verdict comes first)", () => {
    const f = findingOf([
      '=== RUN   TestRoundCents',
      '=== RUN   TestRoundCents/chf_down',
      '=== PAUSE TestRoundCents/chf_down',
      '=== CONT  TestRoundCents/chf_down',
      '    round_test.go:304: RoundCents(1999, 1) = "1999\\n", golden file has "1230\\n"',
      '--- FAIL: TestRoundCents (0.00s)',
      '    --- FAIL: TestRoundCents/chf_down (0.00s)',
      'FAIL',
      'FAIL\texample.com/money\t0.010s',
    ]);
    expect([f?.location?.line, f?.test?.name]).toEqual([304, 'TestRoundCents/chf_down']);
  });
});
