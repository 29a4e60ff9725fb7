import { Readable } from 'node:stream';
import { analyze } from './analyze.js';
import { Baseline, BaselineBuilder, baselineFromStream, baselineOf, normaliseLine } from './baseline.js';

describe('normaliseLine', () => {
  const same = (a: string, b: string): void => expect(normaliseLine(a)).toBe(normaliseLine(b));
  const differ = (a: string, b: string): void => expect(normaliseLine(a)).not.toBe(normaliseLine(b));

  it('sets aside timestamps: GitHub Actions ISO prefix, log4j stamps, clock times', () => {
    same('2026-11-23T10:00:00.1234567Z npm WARN deprecated har-validator@5.1.5', '2026-11-24T09:13:59.7654321Z npm WARN deprecated har-validator@5.1.5');
    same('2026-11-23 10:00:01,123 INFO Starting', '2026-11-22 23:59:59,999 INFO Starting');
    same('[12:00:01] Starting compile', '[09:41:17] Starting compile');
  });

  it('sets aside durations, counters, hex ids, hashes and temp dirs', () => {
    same('Ran 12 tests in 0.031s', 'Ran 13 tests in 1.5s');
    same('Total time:  3.412 s', 'Total time:  12.001 s');
    same('HEAD is now at 3f2a9c1 Fix the parser', 'HEAD is now at 9be07aa Fix the parser');
    same('container 4f1e2d3c4b5a6978 started', 'container 0a9b8c7d6e5f4a3b started');
    same('id 123e4567-e89b-12d3-a456-426614174000', 'id 9f0e8d7c-6b5a-4f3e-9d2c-1b0a99887766');
    same('cd /tmp/tmp.AbC123xy/project && make', 'cd /tmp/tmp.ZZq9/project && make');
    same('[ 3/10] Building CXX object foo.o', '[ 7/10] Building CXX object foo.o');
    same('done in 12ms', 'done in 1.5 s');
    same('Downloaded 1,024 kB from mirror-3', 'Downloaded 999 kB from mirror-12');
    same('pid 999999 exited', 'pid 1000000 exited');
    expect(normaliseLine('  2026-11-23T10:00:00.1234567Z   took 3 min  ')).toBe('# took #t');
    expect(normaliseLine('commit 3f2a9c1e8b7d lib12 x86_64')).toBe('commit # lib# x#_#');
  });

  it('sets aside ANSI colours and collapses blanks', () => {
    same('\u001b[31merror\u001b[0m:   boom', 'error: boom');
  });

  it('keeps what tells two errors apart', () => {
    differ("src/a.c:3:5: error: 'x' undeclared", "src/b.c:3:5: error: 'x' undeclared");
    differ('FAILED tests/test_math.py::test_add', 'PASSED tests/test_math.py::test_add');
    differ('bash: jq: command not found', 'bash: yq: command not found');
  });
});

describe('Baseline', () => {
  it('answers whether a normalised line occurred, never keeps text, grows', () => {
    const b = new Baseline();
    for (let i = 0; i < 20000; i++) b.addLine(`unique line ${'abcdefghij'[i % 10]} ${String.fromCharCode(65 + (i % 26))}${String.fromCharCode(65 + ((i / 26) | 0) % 26)}${(i / 676) | 0}`);
    expect(b.lines).toBe(20000);
    expect(b.size).toBeGreaterThan(600);
    expect(b.hasLine('unique line a AA0')).toBe(true);
    expect(b.hasLine('unique line a AA 0')).toBe(false);
    expect(b.hasLine('   ')).toBe(true);
    // A table of fingerprints: 8 bytes a slot, at most twice the entries.
    expect(b.bytes).toBeLessThanOrEqual(8 * 4 * Math.max(b.size, 4096));
  });

  it('is the same built from pieces of any size, from a stream, or from the whole text', async () => {
    const text = 'alpha 1\nbeta\r\ngamma \u001b[1mbold\u001b[0m\nprogress 10%\rprogress 100%\nlast line without newline';
    const whole = baselineOf(text);
    const pieces = new BaselineBuilder();
    for (let i = 0; i < text.length; i += 3) pieces.push(text.slice(i, i + 3));
    const fromPieces = pieces.finish();
    const fromStream = await baselineFromStream(Readable.from([Buffer.from(text.slice(0, 11)), Buffer.from(text.slice(11))]));
    for (const probe of ['alpha 7', 'beta', 'gamma bold', 'progress 100%', 'last line without newline', 'delta']) {
      expect(fromPieces.hasLine(probe)).toBe(whole.hasLine(probe));
      expect(fromStream.hasLine(probe)).toBe(whole.hasLine(probe));
    }
    expect(whole.hasLine('delta')).toBe(false);
    expect(whole.hasLine('progress 55%')).toBe(true);
  });

  it('keeps only the start of a huge line between pieces (bounded memory)', () => {
    const b = new BaselineBuilder();
    const big = 'x'.repeat(100_000);
    for (let i = 0; i < 50; i++) b.push(big);
    b.push('\nnext\n');
    const base = b.finish();
    expect(base.hasLine('x'.repeat(5_000_000))).toBe(true);
    expect(base.hasLine('next')).toBe(true);
  });
});

const PASS = [
  '2026-11-23T10:00:00.0000001Z ##[group]Run npm test',
  '2026-11-23T10:00:00.0000002Z + npm test',
  '2026-11-23T10:00:01.0000003Z sh: 1: jq: not found',
  '2026-11-23T10:00:01.0000004Z npm WARN deprecated request@2.88.2: request has been deprecated',
  '2026-11-23T10:00:02.0000005Z Error: connect ECONNREFUSED 127.0.0.1:6379 (retrying in 1s)',
  '2026-11-23T10:00:03.0000006Z     at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16)',
  '2026-11-23T10:00:04.0000007Z PASS src/sum.test.js (1.2 s)',
  '2026-11-23T10:00:05.0000008Z Tests: 4 passed, 4 total',
  '2026-11-23T10:00:05.0000009Z ##[endgroup]',
].join('\n');

const FAIL = [
  '2026-11-24T08:00:00.0000001Z ##[group]Run npm test',
  '2026-11-24T08:00:00.0000002Z + npm test',
  '2026-11-24T08:00:01.0000003Z sh: 1: jq: not found',
  '2026-11-24T08:00:01.0000004Z npm WARN deprecated request@2.88.2: request has been deprecated',
  '2026-11-24T08:00:02.0000005Z Error: connect ECONNREFUSED 127.0.0.1:6379 (retrying in 2s)',
  '2026-11-24T08:00:03.0000006Z     at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16)',
  '2026-11-24T08:00:04.0000007Z FAIL src/sum.test.js (1.3 s)',
  '2026-11-24T08:00:04.0000008Z   ● sum › adds two numbers',
  '2026-11-24T08:00:04.0000009Z     expect(received).toBe(expected)',
  '2026-11-24T08:00:04.0000010Z     Expected: 4',
  '2026-11-24T08:00:04.0000011Z     Received: 5',
  '2026-11-24T08:00:05.0000012Z Tests: 1 failed, 3 passed, 4 total',
  '2026-11-24T08:00:05.0000013Z ##[error]Process completed with exit code 1.',
].join('\n');

describe('analyze with a baseline', () => {
  it('without a baseline, behaves as before: no flag', () => {
    const plain = analyze(FAIL);
    expect(plain.length).toBeGreaterThan(0);
    for (const e of plain) expect(e).not.toHaveProperty('new_since_baseline');
  });

  it('ranks the excerpts that also occur in the passing log below the new ones, and says which is new', () => {
    const plain = analyze(FAIL);
    // Zero-shot, the `jq: not found` paragraph swallows the failing test printed under it.
    expect(plain[0]).toMatchObject({ start_line: 3, reason: 'shell: command not found' });
    const withBase = analyze(FAIL, { baseline: baselineOf(PASS) });
    const first = withBase[0];
    expect(first?.new_since_baseline).toBe(true);
    // The failing test is the first excerpt; the ECONNREFUSED retry and `jq: not found` that
    // the passing build printed too are old and come after every new one.
    expect(first).toMatchObject({ start_line: 7, end_line: 11, reason: 'Jest test failure' });
    const flags = withBase.map((e) => e.new_since_baseline);
    expect(flags.indexOf(false)).toBeGreaterThan(flags.lastIndexOf(true));
    const old = withBase.filter((e) => e.new_since_baseline === false).map((e) => e.start_line);
    expect(old).toEqual([3]);
    expect(withBase.find((e) => e.start_line === 3)).toMatchObject({ end_line: 6, reason: 'shell: command not found' });
  });

  it('marks the tail excerpt of a log with no recognisable failure', () => {
    const e = analyze('step one\nstep two\n', { baseline: baselineOf('step one\nstep two\n') });
    expect(e).toHaveLength(1);
    expect(e[0]?.new_since_baseline).toBe(false);
    const f = analyze('step one\nstep three\n', { baseline: baselineOf('step one\nstep two\n') });
    expect(f[0]?.new_since_baseline).toBe(true);
  });

  it('an excerpt whose finding is read back from above it is new only when the message line is (as the watcher reads it)', () => {
    const filler = Array.from({ length: 12 }, (_, i) => `step ${i} ok`);
    const green = ['+ ./ci.sh', "src/legacy.c:9:2: error: unknown type name 'u8'", ...filler, 'tests passed', 'Finished: SUCCESS'].join('\n');
    // The exit line is new, but what its finding names (the compile error above) the green build printed too.
    const old = analyze(['+ ./ci.sh', "src/legacy.c:9:2: error: unknown type name 'u8'", ...filler, 'ERROR: script returned exit code 1', 'Finished: FAILURE'].join('\n'), { baseline: baselineOf(green) });
    const readBack = old.filter((e) => e.finding?.message_line === 2 && e.start_line > 2);
    expect(readBack.length).toBeGreaterThan(0);
    for (const e of readBack) expect(e.new_since_baseline).toBe(false);
    // A new error read back the same way stays new, and every new excerpt still ranks first.
    const fresh = analyze(['+ ./ci.sh', "src/legacy.c:9:2: error: unknown type name 'word'", ...filler, 'ERROR: script returned exit code 1', 'Finished: FAILURE'].join('\n'), { baseline: baselineOf(green) });
    expect(fresh[0]).toMatchObject({ new_since_baseline: true, finding: { message_line: 2 } });
    const flags = fresh.map((e) => e.new_since_baseline);
    expect(flags.lastIndexOf(true)).toBeLessThan(flags.includes(false) ? flags.indexOf(false) : flags.length);
    // A check that printed nothing (`+ test -s x`) ran in the green build too, and passed there: still new.
    const check = analyze(['+ ./build.sh', '+ test -s dist/bundle.js', 'ERROR: script returned exit code 1', 'Finished: FAILURE'].join('\n'), { baseline: baselineOf(['+ ./build.sh', '+ test -s dist/bundle.js', 'bundle ok', 'Finished: SUCCESS'].join('\n')) });
    expect(check[0]).toMatchObject({ new_since_baseline: true, finding: { class: 'ci-script', message_line: 2 } });
  });

  it('an empty baseline makes every excerpt new and keeps the ranking', () => {
    const plain = analyze(FAIL);
    const withEmpty = analyze(FAIL, { baseline: baselineOf('') });
    expect(withEmpty.map(({ start_line, end_line, score }) => ({ start_line, end_line, score }))).toEqual(
      plain.map(({ start_line, end_line, score }) => ({ start_line, end_line, score })),
    );
    expect(withEmpty.every((e) => e.new_since_baseline === true)).toBe(true);
  });
});
