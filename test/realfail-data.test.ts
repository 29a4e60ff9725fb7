/**
 * The real-failure data set of issue 25 (test/fixtures/realfail/) is what it says it is: every
 * case complete, its expected finding consistent with its own log, every class of the taxonomy
 * on at least two cases, at least 12 tool families, and the held-out split the one its README
 * gives (the round-1 cases dev, the round-2 and round-3 plans held out, each case naming its round). The bench (`npm run bench -- findings`) measures on it.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { defaultRealfailDir, HELDOUT_ROUND, loadRealCases, messageRight, seenFinding, type RealCase } from '../bench/findings.js';
import { FINDING_CLASSES, type LogExcerpt } from '../protocol/types.js';
import { printsPlace } from './helpers/printedPlace.js';

const dir = defaultRealfailDir();
const norm = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** Cases whose class was relabelled after their plan (test/fixtures/realfail/README.md, "Relabels"): id -> [planned, now]. */
const RELABELLED = new Map<string, [string, string]>([
  // Warnings made fatal: a compiler's own are compile-error (decided 2026-11-28).
  ['maven-javac-werror-removal', ['lint', 'compile-error']],
  // The JVM's linkage errors of resolving a reference (NoSuchMethodError ...) are link-error (decided 2026-12-01, session 56).
  ['java-nosuchmethoderror-stale-jar', ['runtime-exception', 'link-error']],
  // NoClassDefFoundError (a class not on the run-time classpath) is link-error too (decided session 56, done in session 57).
  ['java-noclassdeffound-classpath', ['runtime-exception', 'link-error']],
]);

/** The rule of the README: by class, then sha256("cichat-issue-25/" + id); every third held out. */
function splitByRule(plan: string[][]): Map<string, string> {
  const key = (id: string) => createHash('sha256').update(`cichat-issue-25/${id}`).digest('hex');
  const rows = [...plan].sort(
    (a, b) => FINDING_CLASSES.indexOf(a[2] as (typeof FINDING_CLASSES)[number]) - FINDING_CLASSES.indexOf(b[2] as (typeof FINDING_CLASSES)[number]) || key(a[0]!).localeCompare(key(b[0]!)),
  );
  return new Map(rows.map((r, i) => [r[0]!, i % 3 === 2 ? 'heldout' : 'dev']));
}

const readPlan = (file: string): string[][] =>
  readFileSync(path.join(dir, '_build', file), 'utf8')
    .trim()
    .split('\n')
    .map((l) => l.split('\t'));

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
      expect([id, /Finished: (?:FAILURE|ABORTED)|##\[error\]Process completed with exit code [1-9]/.test(c.failLog)]).toEqual([id, true]);
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
      if (e.sourceLine) expect([e.id, existsSync(path.join(c.dir, 'project', e.sourceLine.file))]).toEqual([e.id, true]);
      // The expected fix itself passes the bench's "useful" test.
      const missing = e.fixMustMention.filter((t) => !e.fix.toLowerCase().includes(t.toLowerCase()));
      expect([e.id, missing]).toEqual([e.id, []]);
    }
  });

  // The README's definition: `location` is the file:line the tool names, null where the log names no source line
  // (decided 2026-11-30: a line the log never prints is `sourceLine`). Lenient on purpose (test/helpers/printedPlace.ts):
  // the file's basename and the line together on one line, under the file's heading, or in a diff hunk of the file.
  it('expects a location, and frames, that fail.log prints', () => {
    for (const c of cases) {
      const e = c.expected;
      const unprinted = [...(e.location ? [e.location] : []), ...(e.frames ?? [])]
        .filter((p) => !printsPlace(c.failLog, p.file, p.line))
        .map((p) => `${p.file}:${p.line}`);
      // A held-out round's labels are not printed on failure, only how many are unprinted (review rv1, session 51).
      expect([e.id, (e.round ?? 1) >= HELDOUT_ROUND ? unprinted.length : unprinted]).toEqual([e.id, (e.round ?? 1) >= HELDOUT_ROUND ? 0 : []]);
    }
  });

  it('splits by round: the round-1 lists are dev now, every planned case of rounds 2 on is held out, tuning cases (plan-tune3.tsv, plan-tune4.tsv, plan-tune5.tsv, plan-tune6.tsv, plan-tune7.tsv) are dev', () => {
    // Round 1: plan.tsv..plan3.tsv, split by the seeded rule; those cases are all dev now, the
    // ones the rule held out marked "rotated": "heldout-round1".
    const round1 = new Map<string, string>();
    for (const file of ['plan.tsv', 'plan2.tsv', 'plan3.tsv']) {
      for (const [id, split] of splitByRule(readPlan(file))) round1.set(id, split);
    }
    // Rounds 2 on (round N: plan{N+2}a.tsv / plan{N+2}b.tsv, round 2 = plan4a/b): each list fixed before
    // any of its cases was built; all held out, "round" naming the list's round. No id is planned twice.
    const later = new Map<string, { row: string[]; round: number }>();
    const planned = new Map<number, number>();
    // Every round's two plan files, round N = plan{N+2}a/b.tsv (a round whose plans are not there yet is skipped).
    const roundPlans = Array.from({ length: 40 }, (_, i) => i + 2).flatMap((n) => [[`plan${n + 2}a.tsv`, n], [`plan${n + 2}b.tsv`, n]] as const);
    for (const [file, round] of roundPlans) {
      if (!existsSync(path.join(dir, '_build', file))) continue;
      for (const row of readPlan(file)) {
        expect([row[0], round1.has(row[0]!), later.has(row[0]!)]).toEqual([row[0], false, false]);
        expect([row[0], (FINDING_CLASSES as readonly string[]).includes(row[2]!)]).toEqual([row[0], true]);
        later.set(row[0]!, { row, round });
        planned.set(round, (planned.get(round) ?? 0) + 1);
      }
    }
    // Tuning cases a tuner built on its own (plan-tune3.tsv, plan-tune4.tsv, plan-tune5.tsv, plan-tune6.tsv, plan-tune7.tsv): dev from the start, ids of no other plan.
    const tune3 = new Map<string, { row: string[]; origin: string }>();
    for (const [file, origin] of [['plan-tune3.tsv', 'tune3'], ['plan-tune4.tsv', 'tune4'], ['plan-tune5.tsv', 'tune5'], ['plan-tune6.tsv', 'tune6'], ['plan-tune7.tsv', 'tune7']] as const) {
      if (!existsSync(path.join(dir, '_build', file))) continue;
      for (const row of readPlan(file)) {
        expect([row[0], round1.has(row[0]!), later.has(row[0]!), tune3.has(row[0]!)]).toEqual([row[0], false, false, false]);
        tune3.set(row[0]!, { row, origin });
      }
    }
    for (const c of cases) {
      const e = c.expected;
      const t3 = tune3.get(e.id);
      if (t3 !== undefined) {
        expect([e.id, e.split, e.origin, e.round, e.rotated, e.family, e.class]).toEqual([e.id, 'dev', t3.origin, undefined, undefined, t3.row[1], t3.row[2]]);
        continue;
      }
      expect([e.id, e.origin]).toEqual([e.id, undefined]);
      const r1 = round1.get(e.id);
      const rn = later.get(e.id);
      expect([e.id, r1 !== undefined || rn !== undefined]).toEqual([e.id, true]);
      if (r1 !== undefined) {
        expect([e.id, e.split, e.rotated, e.round]).toEqual([e.id, 'dev', r1 === 'heldout' ? 'heldout-round1' : undefined, undefined]);
      } else {
        // A relabel (README, "Relabels") changes the class a plan fixed: the plan row stays as it was planned.
        const planned = RELABELLED.get(e.id)?.[0] === rn!.row[2] ? RELABELLED.get(e.id)![1] : rn!.row[2];
        expect([e.id, e.split, e.round, e.rotated, e.family, e.class]).toEqual([e.id, 'heldout', rn!.round, undefined, rn!.row[1], planned]);
      }
    }
    // Every round-1 case is still there (tuning data is not dropped); the round-2 plans held at
    // least a quarter of the cases planned up to them, and the plans of the round measured now
    // (the latest) hold at least 20 cases and 15% of all planned cases.
    const ids = new Set(cases.map((c) => c.expected.id));
    expect([...round1.keys()].filter((id) => !ids.has(id))).toEqual([]);
    const r2 = planned.get(2) ?? 0;
    expect(r2 / (round1.size + r2)).toBeGreaterThanOrEqual(0.25);
    // The benches hold out the latest planned round, or (once it is measured and opened for
    // tuning, before the next round is planned) the round after it, or (while the next rounds are
    // being built before the latest is measured: at most two rounds ahead, so that two unseen
    // rounds can be measured on the same code) one or two rounds before it: every round from
    // HELDOUT_ROUND on is left out of tuning (bench/findings.ts, TUNED_CASES).
    const latest = Math.max(...planned.keys());
    expect([latest - 2, latest - 1, latest, latest + 1]).toContain(HELDOUT_ROUND);
    const now = planned.get(latest) ?? 0;
    expect(now).toBeGreaterThanOrEqual(20);
    // Rounds 2-8 held 15 % or more; round 9 was briefed as two batches of about 25 cases on the
    // issue's own tool families (about 9 % of ~590 planned, 4.5 % while only one batch's plan has
    // landed), so the floor was 4 % from round 9 on; from round 24 one batch's plan of 35 is about 2 % of
    // ~1700 planned (the first batch's plan lands alone), so the floor is 2 %: the 20-case minimum above is
    // the real bar. From round 26 one batch's 35 are 1.98 % of the 1768 planned (b26a's plan landed alone), so 1.5 %.
    expect(now / (round1.size + later.size)).toBeGreaterThanOrEqual(latest >= 26 ? 0.015 : latest >= 24 ? 0.02 : latest >= 9 ? 0.04 : 0.15);
    // ...and the built held-out cases (rounds 2 to 5) are at least a quarter of all cases.
    expect(cases.filter((c) => c.expected.split === 'heldout').length / cases.length).toBeGreaterThanOrEqual(0.25);
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
      confidence: 'high',
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
