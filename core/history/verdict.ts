/**
 * New, recurring, flaky or back (issue 29): a failed build's fingerprint against the job's
 * recent builds. Pure: the records come from the controller's history index; every verdict
 * names the builds it rests on, and there is no verdict without them.
 *
 * Rules (ABORTED, NOT_BUILT and running builds are neither a pass nor a failure and are skipped;
 * only SUCCESS is a pass):
 * - `new`: no earlier build of the window showed the fingerprint.
 * - `flaky`: a build that passed on the same commit as a build that failed this way; or a pass
 *   between two such failures with no change recorded in between (the pass and the failure
 *   after it built no new commits); or at least four flips between this failure and a pass.
 * - `fixed-and-back`: it failed this way before, a later build passed, and it is back (after a
 *   change: otherwise the rule above calls it flaky).
 * - `recurring`: it failed this way before and no build passed since it first did.
 */
import type { BuildHistory, HistoryVerdict, TestHistory } from '../../protocol/types.js';

/** What the history index keeps of one build. */
export interface BuildRecord {
  number: number;
  /** SUCCESS, UNSTABLE, FAILURE, ABORTED, NOT_BUILT; null while it runs. */
  result: string | null;
  commit?: string;
  /** Epoch milliseconds. */
  timestamp?: number;
  /** How many commits this build recorded as new (its changelog); undefined when unknown. */
  changes?: number;
  /** The failure's fingerprint id (failed and unstable builds whose failure was recognised). */
  fingerprint?: string;
  /** The normalised message and class behind the fingerprint, to say what it is. */
  message?: string;
  class?: string;
  /** Failed test names from the build's test report. */
  failedTests?: string[];
  /** The build has a test report: a test it does not list as failed ran and passed. */
  testsReported?: boolean;
}

const FLIPS_FOR_FLAKY = 4;

const counted = (r: BuildRecord): boolean => r.result === 'SUCCESS' || r.result === 'FAILURE' || r.result === 'UNSTABLE';
const passed = (r: BuildRecord): boolean => r.result === 'SUCCESS';

/**
 * The history of the failure of `current` among `records` (any order; those after `current`
 * are ignored), or undefined when `current` has no fingerprint (nothing recognised to compare).
 */
export function historyOf(records: readonly BuildRecord[], current: number): BuildHistory | undefined {
  const window = [...records].filter((r) => r.number <= current).sort((a, b) => a.number - b.number);
  const me = window.find((r) => r.number === current);
  if (!me?.fingerprint) return undefined;
  const fp = me.fingerprint;
  const considered = window.filter(counted);
  const same = (r: BuildRecord): boolean => r.fingerprint === fp && !passed(r);
  const occurrences = considered.filter(same);
  const earlier = occurrences.filter((r) => r.number < current);
  const first = occurrences[0] ?? me;
  const base = {
    fingerprint: fp,
    ...(me.message ? { message: me.message } : {}),
    ...(me.class ? { class: me.class } : {}),
    window: window.length,
    firstBuildLooked: window[0]?.number ?? current,
    seenInLast: occurrences.length,
    firstSeen: first.number,
  };
  const run = currentRun(considered, current, same);
  const runInfo = {
    failingSince: run[0]?.number ?? current,
    streak: run.length,
    ...(run[0]?.commit ? { firstAfterCommit: run[0].commit } : {}),
  };
  const tests = testHistories(window, me);
  const withTests = tests.length > 0 ? { tests } : {};

  const passesSince = considered.filter((r) => passed(r) && r.number > first.number && r.number < current);
  const flaky = flakyEvidence(considered, same, passesSince);
  if (flaky) return { ...base, ...runInfo, verdict: 'flaky', evidenceBuilds: flaky.builds, passedBetween: passesSince.map((r) => r.number), reason: flaky.reason, ...withTests };
  if (earlier.length === 0) {
    const looked = window.length - 1;
    const reason =
      looked === 0
        ? `#${current} is the first build of the job that was looked at: there is no earlier build to compare with.`
        : `None of the ${looked} earlier builds looked at (#${window[0]?.number}-#${window[window.length - 2]?.number}) failed this way.`;
    return { ...base, ...runInfo, verdict: 'new', evidenceBuilds: [current], passedBetween: [], reason, ...withTests };
  }
  if (passesSince.length > 0) {
    const lastPass = passesSince[passesSince.length - 1] as BuildRecord;
    const before = [...earlier].reverse().find((r) => r.number < lastPass.number) ?? first;
    const evidence = uniqueSorted([before.number, lastPass.number, runInfo.failingSince]);
    const reason = `It failed this way in #${before.number}, #${lastPass.number} passed, and it is back since #${runInfo.failingSince}${run[0]?.commit ? ` (commit ${short(run[0].commit)})` : ''}.`;
    return { ...base, ...runInfo, verdict: 'fixed-and-back', evidenceBuilds: evidence, passedBetween: passesSince.map((r) => r.number), reason, ...withTests };
  }
  const evidence = uniqueSorted([first.number, ...earlier.slice(-3).map((r) => r.number), current]);
  const reason = `It has failed this way in every counted build since #${runInfo.failingSince} (${run.length} builds)${run[0]?.commit ? `, first with commit ${short(run[0].commit)}` : ''}.`;
  return { ...base, ...runInfo, verdict: 'recurring', evidenceBuilds: evidence, passedBetween: [], reason, ...withTests };
}

/** The unbroken run of builds failing like `current`, ending with it (oldest first). */
function currentRun(considered: readonly BuildRecord[], current: number, same: (r: BuildRecord) => boolean): BuildRecord[] {
  const at = considered.findIndex((r) => r.number === current);
  const run: BuildRecord[] = [];
  for (let i = at; i >= 0; i--) {
    const r = considered[i] as BuildRecord;
    if (!same(r)) break;
    run.unshift(r);
  }
  return run;
}

/** Why the failure is flaky, with the builds that show it, or undefined. */
function flakyEvidence(
  considered: readonly BuildRecord[],
  same: (r: BuildRecord) => boolean,
  passesSince: readonly BuildRecord[],
): { builds: number[]; reason: string } | undefined {
  const failures = considered.filter(same);
  // (a) passed on a commit that also failed this way
  for (const p of considered) {
    if (!passed(p) || !p.commit) continue;
    const f = failures.find((r) => r.commit === p.commit);
    if (f) {
      return { builds: uniqueSorted([f.number, p.number]), reason: `#${p.number} passed on commit ${short(p.commit)}, the same commit on which #${f.number} failed this way.` };
    }
  }
  // (b) a pass between two such failures, with no change in the pass nor in the failure after it
  for (const p of passesSince) {
    const before = [...failures].reverse().find((r) => r.number < p.number);
    const after = failures.find((r) => r.number > p.number);
    if (before && after && p.changes === 0 && after.changes === 0) {
      const between = considered.filter((r) => r.number > p.number && r.number < after.number);
      if (between.every((r) => r.changes === 0)) {
        return {
          builds: uniqueSorted([before.number, p.number, after.number]),
          reason: `#${before.number} failed this way, #${p.number} passed and #${after.number} failed again, with no change recorded in between.`,
        };
      }
    }
  }
  // (c) it keeps flipping between this failure and a pass
  let flips = 0;
  let last: boolean | undefined;
  const flipBuilds: number[] = [];
  for (const r of considered) {
    const state = passed(r) ? true : same(r) ? false : undefined;
    if (state === undefined) continue;
    if (last !== undefined && state !== last) {
      flips++;
      flipBuilds.push(r.number);
    }
    last = state;
  }
  if (flips >= FLIPS_FOR_FLAKY) {
    return {
      builds: flipBuilds.slice(-6),
      reason: `It went from failing this way to passing and back ${flips} times in the builds looked at (failed in ${failures.length} of ${considered.length}).`,
    };
  }
  return undefined;
}

/** Per failed test of the current build: where it failed and passed, and whether it is flaky. */
function testHistories(window: readonly BuildRecord[], me: BuildRecord): TestHistory[] {
  const out: TestHistory[] = [];
  for (const name of (me.failedTests ?? []).slice(0, 20)) {
    const failedIn: number[] = [];
    const passedIn: number[] = [];
    let sameCommitPass: number | undefined;
    for (const r of window) {
      if (!counted(r)) continue;
      if (r.failedTests?.includes(name)) failedIn.push(r.number);
      else if (r.testsReported) {
        passedIn.push(r.number);
        if (sameCommitPass === undefined && r.commit && window.some((f) => f.commit === r.commit && f.failedTests?.includes(name))) sameCommitPass = r.number;
      }
    }
    let flips = 0;
    let last: boolean | undefined;
    for (const r of window) {
      const state = r.failedTests?.includes(name) ? false : r.testsReported && counted(r) ? true : undefined;
      if (state === undefined) continue;
      if (last !== undefined && state !== last) flips++;
      last = state;
    }
    let verdict: HistoryVerdict;
    if (sameCommitPass !== undefined || flips >= FLIPS_FOR_FLAKY) verdict = 'flaky';
    else if (failedIn.length <= 1) verdict = 'new';
    else if (passedIn.some((p) => p > (failedIn[0] as number))) verdict = 'fixed-and-back';
    else verdict = 'recurring';
    out.push({ name, failedIn, passedIn: passedIn.slice(-10), verdict, ...(sameCommitPass !== undefined ? { sameCommitPass } : {}) });
  }
  return out;
}

function uniqueSorted(ns: readonly number[]): number[] {
  return [...new Set(ns)].sort((a, b) => a - b);
}

function short(commit: string): string {
  return /^[0-9a-f]{12,}$/i.test(commit) ? commit.slice(0, 10) : commit;
}
