/**
 * The labelled Jenkins console logs of issue 26 (test/fixtures/jenkins-console) are consistent:
 * every index entry names a log with that many lines, its cause ranges lie inside the log, ids are
 * unique, held-out rounds carry their round, and round 3's real consoles (round3/*.txt) are the
 * generated logs byte for byte with only the cause marks taken out. Data only: the analyzer is not
 * imported, so a held-out set can be checked without being measured.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

const DIR = path.join(process.cwd(), 'test/fixtures/jenkins-console');
interface Entry {
  id: string;
  split: string;
  round?: number;
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

test('round3/*.txt are the generated logs, byte for byte, without the cause marks', () => {
  const files = readdirSync(path.join(DIR, 'round3')).filter((f) => f.endsWith('.txt'));
  expect(files.length).toBeGreaterThan(0);
  for (const f of files) {
    const text = readFileSync(path.join(DIR, 'round3', f), 'utf8');
    const body = text.slice(text.indexOf('\n---\n') + 5);
    const marked = body.split('\n').filter((l) => l.startsWith('\u00a7')).length;
    const log = readFileSync(path.join(DIR, 'logs', f.replace(/\.txt$/, '.log')), 'utf8');
    expect(body.replace(/^\u00a7/gm, '')).toBe(log);
    const entry = INDEX.find((e) => `${e.id}.txt` === f);
    expect(entry?.causes.reduce((n, [a, b]) => n + b - a + 1, 0)).toBe(marked);
  }
});
