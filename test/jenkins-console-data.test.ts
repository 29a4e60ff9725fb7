/**
 * The labelled Jenkins console logs of issue 26 (test/fixtures/jenkins-console) are consistent:
 * every index entry names a log with that many lines, its cause ranges lie inside the log, ids are
 * unique, held-out rounds carry their round, the sources of rounds 4 to 10 are new, and the real consoles of
 * rounds 3 to 10 (round3/*.txt ... round10/*.txt) are the generated logs byte for byte with only the
 * cause marks taken out. Data only: the analyzer is not imported, so a held-out set can be checked
 * without being measured.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

const DIR = path.join(process.cwd(), 'test/fixtures/jenkins-console');
interface Entry {
  id: string;
  split: string;
  round?: number;
  set?: string;
  origin?: string;
  source?: string;
  file: string;
  lines: number;
  causes: [number, number][];
}
const INDEX: Entry[] = readFileSync(path.join(DIR, 'index.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as Entry);

test('ids are unique and every log has the lines and causes its entry says', () => {
  expect(new Set(INDEX.map((e) => e.id)).size).toBe(INDEX.length);
  for (const e of INDEX) {
    const text = readFileSync(path.join(DIR, e.file), 'utf8');
    expect({ id: e.id, lines: text.split('\n').length - 1 }).toEqual({ id: e.id, lines: e.lines });
    expect(e.causes.length).toBeGreaterThan(0);
    let last = 0;
    for (const [a, b] of e.causes) {
      expect({ id: e.id, ok: a > last && a <= b && b <= e.lines }).toEqual({ id: e.id, ok: true });
      last = b;
    }
  }
});

test("round 3's held-out entries: split held, and every one not written names its source", () => {
  const round3 = INDEX.filter((e) => e.round === 3);
  expect(round3.length).toBeGreaterThanOrEqual(40);
  for (const e of round3) {
    expect(e.split).toBe('held');
    if (e.origin !== 'written') expect(e.source ?? '').toMatch(/^https:\/\//);
  }
});

test("round 4's held-out entries: split held, and every one not written names its source", () => {
  const round4 = INDEX.filter((e) => e.round === 4);
  expect(round4.length).toBeGreaterThanOrEqual(36);
  for (const e of round4) {
    expect(e.split).toBe('held');
    if (e.origin !== 'written') expect(e.source ?? '').toMatch(/^https:\/\//);
  }
  const real = round4.filter((e) => e.origin !== 'written');
  expect(real.length).toBeGreaterThanOrEqual(20);
  // none of round 4's sources was a source of rounds 2 and 3 (the same data set file may not come back)
  const earlier = new Set(INDEX.filter((e) => e.round === 2 || e.round === 3 || e.set !== undefined).map((e) => e.source ?? '').filter((x) => x !== ''));
  // and no repository of theirs either, apart from the CiDiff data set (other fail logs of it, at most 10)
  const repo = (u: string | undefined): string => /^https:\/\/github\.com\/([^/]+\/[^/]+)/.exec(u ?? '')?.[1] ?? (u ?? '');
  const earlierRepos = new Set([...earlier].map(repo));
  const CIDIFF = 'labri-progress/cidiff';
  for (const e of real) {
    expect({ id: e.id, reused: earlier.has(e.source ?? '') }).toEqual({ id: e.id, reused: false });
    if (repo(e.source) !== CIDIFF) expect({ id: e.id, repoReused: earlierRepos.has(repo(e.source)) }).toEqual({ id: e.id, repoReused: false });
  }
  expect(real.filter((e) => repo(e.source) === CIDIFF).length).toBeLessThanOrEqual(10);
});

/** A held-out round built after round 4: split held, real logs name their source, and no source or repository of it was used by any other round. */
function checkNewRound(round: number, min: { all: number; real: number; long?: number }): void {
  const logs = INDEX.filter((e) => e.round === round);
  expect(logs.length).toBeGreaterThanOrEqual(min.all);
  for (const e of logs) {
    expect(e.split).toBe('held');
    if (e.origin !== 'written') expect(e.source ?? '').toMatch(/^https:\/\//);
  }
  const real = logs.filter((e) => e.origin !== 'written');
  expect(real.length).toBeGreaterThanOrEqual(min.real);
  const repo = (u: string | undefined): string => /^https:\/\/github\.com\/([^/ ]+\/[^/ ]+)/.exec(u ?? '')?.[1] ?? (u ?? '');
  const earlier = INDEX.filter((e) => e.round !== round && e.source !== undefined);
  const earlierSources = new Set(earlier.map((e) => e.source ?? ''));
  const earlierRepos = new Set(earlier.map((e) => repo(e.source)));
  for (const e of real) {
    expect({ id: e.id, reused: earlierSources.has(e.source ?? ''), repoReused: earlierRepos.has(repo(e.source)) }).toEqual({ id: e.id, reused: false, repoReused: false });
  }
  // long logs (>= 130 lines)
  if (min.long !== undefined) expect(logs.filter((e) => e.lines >= 130).length).toBeGreaterThanOrEqual(min.long);
}

test("round 5's held-out entries: split held, sources and repositories never used by an earlier round", () => {
  checkNewRound(5, { all: 24, real: 10 });
});

test("round 6's held-out entries: split held, at least 15 real and 10 long, sources and repositories never used by another round", () => {
  checkNewRound(6, { all: 30, real: 15, long: 10 });
});

test("round 7's held-out entries: split held, at least 15 real and 10 long, sources and repositories never used by another round", () => {
  checkNewRound(7, { all: 30, real: 15, long: 10 });
});

test("round 8's held-out entries: split held, at least 19 real and 14 long, sources and repositories never used by another round", () => {
  checkNewRound(8, { all: 34, real: 19, long: 14 });
});

test("round 9's held-out entries: split held, at least 19 real and 14 long, sources and repositories never used by another round", () => {
  checkNewRound(9, { all: 34, real: 19, long: 14 });
});

test("round 10's held-out entries: split held, at least 12 real and 24 long, sources and repositories never used by another round", () => {
  checkNewRound(10, { all: 30, real: 12, long: 24 });
});

test.each(['round3', 'round4', 'round5', 'round6', 'round7', 'round8', 'round9', 'round10'])('%s/*.txt are the generated logs, byte for byte, without the cause marks', (sub) => {
  const files = readdirSync(path.join(DIR, sub)).filter((f) => f.endsWith('.txt'));
  expect(files.length).toBeGreaterThan(0);
  for (const f of files) {
    const text = readFileSync(path.join(DIR, sub, f), 'utf8');
    const body = text.slice(text.indexOf('\n---\n') + 5);
    const marked = body.split('\n').filter((l) => l.startsWith('\u00a7')).length;
    const log = readFileSync(path.join(DIR, 'logs', f.replace(/\.txt$/, '.log')), 'utf8');
    expect(body.replace(/^\u00a7/gm, '')).toBe(log);
    const entry = INDEX.find((e) => `${e.id}.txt` === f);
    expect(entry?.causes.reduce((n, [a, b]) => n + b - a + 1, 0)).toBe(marked);
  }
});
