/**
 * The real-failure data set of issue 25 (test/fixtures/realfail/) is what it says it is: every
 * case complete, its expected finding consistent with its own log, every class of the taxonomy
 * on at least two cases, at least 12 tool families, and the held-out split the one the seeded
 * rule of its README gives. The bench (`npm run bench -- findings`) measures on it.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { defaultRealfailDir, loadRealCases, messageRight, seenFinding, type RealCase } from '../bench/findings.js';
import { FINDING_CLASSES, type LogExcerpt } from '../protocol/types.js';

const dir = defaultRealfailDir();
const norm = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** The rule of the README: by class, then sha256("cichat-issue-25/" + id); every third held out. */
function splitByRule(plan: string[][]): Map<string, string> {
  const key = (id: string) => createHash('sha256').update(`cichat-issue-25/${id}`).digest('hex');
  const rows = [...plan].sort(
    (a, b) => FINDING_CLASSES.indexOf(a[2] as (typeof FINDING_CLASSES)[number]) - FINDING_CLASSES.indexOf(b[2] as (typeof FINDING_CLASSES)[number]) || key(a[0]!).localeCompare(key(b[0]!)),
  );
  return new Map(rows.map((r, i) => [r[0]!, i % 3 === 2 ? 'heldout' : 'dev']));
}

describe('the real-failure cases', () => {
  let cases: RealCase[];
  beforeAll(async () => {
    cases = await loadRealCases(dir);
  });

  it('holds at least 40 cases over at least 12 tool families, every class on at least 2', () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
    expect(new Set(cases.map((c) => c.expected.family)).size).toBeGreaterThanOrEqual(12);
    for (const cls of FINDING_CLASSES) {
      expect([cls, cases.filter((c) => c.expected.class === cls).length >= 2]).toEqual([cls, true]);
    }
  });

  it('has, per case, a failing and a passing log, the project, the breaking commit', () => {
    for (const c of cases) {
      const id = c.expected.id;
      expect([id, /Finished: FAILURE|##\[error\]Process completed with exit code [1-9]/.test(c.failLog)]).toEqual([id, true]);
      expect([id, /Finished: SUCCESS|^(?![\s\S]*##\[error\])/.test(c.passLog)]).toEqual([id, true]);
      expect([id, statSync(path.join(c.dir, 'project')).isDirectory(), readFileSync(path.join(c.dir, 'commit.diff'), 'utf8').startsWith('diff --git')]).toEqual([id, true, true]);
      expect([id, existsSync(path.join(c.dir, 'project', 'node_modules')), existsSync(path.join(c.dir, 'project', 'target'))]).toEqual([id, false, false]);
    }
  });

  it('expects a message the log prints and a location file the project holds', () => {
    for (const c of cases) {
      const e = c.expected;
      expect([e.id, norm(c.failLog).includes(norm(e.message))]).toEqual([e.id, true]);
      if (e.location) expect([e.id, existsSync(path.join(c.dir, 'project', e.location.file))]).toEqual([e.id, true]);
      // The expected fix itself passes the bench's "useful" test.
      const missing = e.fixMustMention.filter((t) => !e.fix.toLowerCase().includes(t.toLowerCase()));
      expect([e.id, missing]).toEqual([e.id, []]);
    }
  });

  it('splits a third held out, by the seeded rule over each planned list', () => {
    const rule = new Map<string, string>();
    for (const file of ['plan.tsv', 'plan2.tsv', 'plan3.tsv']) {
      const plan = readFileSync(path.join(dir, '_build', file), 'utf8')
        .trim()
        .split('\n')
        .map((l) => l.split('\t'));
      for (const [id, split] of splitByRule(plan)) rule.set(id, split);
    }
    for (const c of cases) expect([c.expected.id, c.expected.split]).toEqual([c.expected.id, rule.get(c.expected.id)]);
    const held = cases.filter((c) => c.expected.split === 'heldout').length;
    expect(Math.abs(held - cases.length / 3)).toBeLessThanOrEqual(1);
  });
});

describe('the bench scoring', () => {
  it('counts a message right only when it is the expected one or a substantial part of it', () => {
    expect(messageRight('cannot find symbol', 'src/A.java:8: error: cannot find symbol')).toBe(true);
    expect(messageRight("error TS2339: Property 'email' does not exist on type 'User'.", "Property 'email' does not exist on type 'User'.")).toBe(true);
    expect(messageRight('incompatible types: java.lang.String cannot be converted to int', 'error')).toBe(false);
    expect(messageRight('KeyError: \'env\'', undefined)).toBe(false);
    expect(messageRight('a  b\n c', 'a b c')).toBe(true);
  });

  it('reads the finding of the top excerpt, or none', () => {
    const bare: LogExcerpt = { start_line: 1, end_line: 1, score: 1, reason: 'x' };
    expect(seenFinding(bare)).toBeNull();
    expect(seenFinding(undefined)).toBeNull();
    const withFinding = {
      ...bare,
      finding: {
        class: 'test-error',
        message: 'KeyError: x',
        message_line: 3,
        confidence: 'high',
        evidence: [3],
        location: { file: 'a/b.py', line: 12, log_line: 2, frames: { raise: { file: 'a/b.py', line: 12, log_line: 2 }, project: { file: 'a/c.py', line: 4, log_line: 1 } } },
        test: { name: 't::x', log_line: 1 },
      },
    } as LogExcerpt;
    expect(seenFinding(withFinding)).toEqual({
      class: 'test-error',
      message: 'KeyError: x',
      file: 'a/b.py',
      line: 12,
      chain: [
        { file: 'a/b.py', line: 12 },
        { file: 'a/c.py', line: 4 },
      ],
      test: 't::x',
    });
  });
});
