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

describe("a Go runtime's fatal error: the project's frame, not the standard library's", () => {
  // Real go 1.19 output (realfail go-run-unlock-of-unlocked-mutex, tuned round 20): the excerpt starts inside the dump.
  const dump = [
    '+ ./bin/dedupe testdata/rows.csv',
    'fatal error: sync: unlock of unlocked mutex',
    '',
    'goroutine 1 [running]:',
    'sync.fatal({0x4a2813?, 0x0?})',
    '\t/usr/lib/go-1.19/src/runtime/panic.go:1031 +0x1e',
    'sync.(*Mutex).unlockSlow(0xc00008a2f0, 0xffffffff)',
    '\t/usr/lib/go-1.19/src/sync/mutex.go:229 +0x3c',
    'sync.(*Mutex).Unlock(0x46837d?)',
    '\t/usr/lib/go-1.19/src/sync/mutex.go:223 +0x29',
    'example.com/dedupe/cache.(*Seen).First(0xc00008a2f0, {0xc0000a8010, 0x0})',
    '\t/ws/dedupe/cache/cache.go:19 +0xc2',
    'main.main()',
    '\t/ws/dedupe/main.go:24 +0x1df',
    "Build step 'Execute shell' marked build as failure",
  ];

  it('gives cache.go:19 in every excerpt that gives a place', () => {
    const places = analyze(dump.join('\n')).flatMap((e) => (e.finding?.location ? [`${e.finding.location.file}:${e.finding.location.line}`] : []));
    expect(places.length).toBeGreaterThan(0);
    for (const p of places) expect(p).toBe('/ws/dedupe/cache/cache.go:19');
  });

  it('a dump wholly in the standard library gives no place of it', () => {
    const places = analyze([...dump.slice(0, 10), "Build step 'Execute shell' marked build as failure"].join('\n')).map((e) => e.finding?.location?.file ?? 'none');
    expect(places.every((f) => !f.startsWith('/usr/lib/go'))).toBe(true);
  });
});
