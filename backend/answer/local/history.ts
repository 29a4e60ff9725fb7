/**
 * Answers from the job's failure history (issue 29, `buildDetails.history`, made by the
 * controller from the job's last builds): "is this flaky?", "since when does this fail?", "did
 * this happen before?", and the sentence the "why did it fail?" answer adds. Every sentence
 * names the builds it rests on (the history's evidence); without a history these answers say
 * that the context does not hold one.
 */
import type { BuildHistory, CiContext, HistoryVerdict } from '../../../protocol/types.js';
import { clip, inlineCode } from '../logtext.js';
import { ReplyBuilder, notSaid, type AnswerGroup, type Composer, type Reply } from './reply.js';

const VERDICTS: readonly HistoryVerdict[] = ['new', 'recurring', 'flaky', 'fixed-and-back'];
const isInt = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n);
const ints = (v: unknown): number[] => (Array.isArray(v) ? v.filter(isInt) : []);

/** The context's history when it has the shape the controller sends (a client may send anything). */
export function historyIn(ci: CiContext): BuildHistory | undefined {
  const h = ci.buildDetails?.history as Partial<BuildHistory> | null | undefined;
  if (!h || typeof h !== 'object' || typeof h.fingerprint !== 'string') return undefined;
  if (!VERDICTS.includes(h.verdict as HistoryVerdict) || !isInt(h.window) || !isInt(h.seenInLast) || !isInt(h.firstSeen)) return undefined;
  const evidence = ints(h.evidenceBuilds);
  if (evidence.length === 0) return undefined;
  return {
    ...(h as BuildHistory),
    evidenceBuilds: evidence,
    passedBetween: ints(h.passedBetween),
    failingSince: isInt(h.failingSince) ? h.failingSince : h.firstSeen,
    streak: isInt(h.streak) ? h.streak : 1,
    firstBuildLooked: isInt(h.firstBuildLooked) ? h.firstBuildLooked : h.firstSeen,
    reason: typeof h.reason === 'string' ? h.reason : '',
  };
}

const builds = (ns: readonly number[]): string => ns.map((n) => `#${n}`).join(', ');
const shortCommit = (c: string): string => (/^[0-9a-f]{12,}$/i.test(c) ? c.slice(0, 10) : c);

/** One line for the "why" answer: new here, failing since, flaky or back, with its builds. */
export function historySentence(h: BuildHistory): string {
  const since = h.failingSince === h.firstBuildLooked && h.window > 1 ? `at least #${h.failingSince} (the oldest build looked at)` : `#${h.failingSince}`;
  switch (h.verdict) {
    case 'new':
      return h.window > 1
        ? `**New:** none of the ${h.window - 1} earlier builds looked at failed this way (first seen in #${h.firstSeen}).`
        : `**First build looked at:** there is no earlier build of the job to compare with.`;
    case 'recurring':
      return `**Failing since ${since}** (${h.streak} build${h.streak === 1 ? '' : 's'} in a row)${h.firstAfterCommit ? `, first with commit ${inlineCode(shortCommit(h.firstAfterCommit))}` : ''}; seen in ${h.seenInLast} of the last ${h.window} builds (${builds(h.evidenceBuilds)}).`;
    case 'flaky':
      return `**Flaky:** failed this way in ${h.seenInLast} of the last ${h.window} builds. ${h.reason} (builds ${builds(h.evidenceBuilds)})`;
    case 'fixed-and-back':
      return `**Back again:** ${h.reason}`;
    default: {
      const never: never = h.verdict;
      return never;
    }
  }
}

/** Adds the history line (and its fact) to a reply. */
export function addHistory(out: ReplyBuilder, ci: CiContext): void {
  const h = historyIn(ci);
  if (!h) return;
  out.fact('buildDetails.history');
  out.line(historySentence(h));
  for (const t of h.tests?.slice(0, 5) ?? []) {
    if (t.verdict === 'flaky') {
      out.line(`- Test ${inlineCode(t.name)} is flaky: it failed in ${builds(t.failedIn)} and passed in ${builds(t.passedIn.slice(-5))}${t.sameCommitPass !== undefined ? `, #${t.sameCommitPass} on a commit it also failed on` : ''}.`);
    }
  }
  for (const o of h.otherJobs?.slice(0, 5) ?? []) out.line(`- The same failure in ${inlineCode(o.job)}: ${builds(o.builds)} (a shared dependency or agent?).`);
}

/**
 * "Since when does it fail?" / "Did this happen before?" from the history, or undefined without one. `lasting`: for
 * "is it flaky?", the first error's verdict when its kind does not pass on a re-run (a compile error): a new failure
 * then gets it, not "re-run it without changes" (ux8).
 */
export function historyAnswer(out: ReplyBuilder, ci: CiContext, asked: 'since' | 'before' | 'flaky', lasting?: string): boolean {
  const h = historyIn(ci);
  if (!h) return false;
  out.fact('buildDetails.history');
  if (asked === 'flaky') {
    if (h.verdict === 'flaky') out.line(`**Yes, it looks flaky.** ${h.reason} It failed this way in ${h.seenInLast} of the last ${h.window} builds (evidence: ${builds(h.evidenceBuilds)}).`);
    else if (h.verdict === 'recurring') out.line(`**No sign of flakiness:** it has failed the same way in every build since ${h.failingSince} (${h.streak} in a row, ${builds(h.evidenceBuilds)}); no build passed in between.`);
    else if (h.verdict === 'new' && lasting) out.line(lasting).line(`The job's history cannot settle it yet: this failure is new (first seen in #${h.firstSeen}); none of the ${h.window - 1} earlier builds looked at failed this way.`);
    else if (h.verdict === 'new') out.line(`**Can't tell yet:** this failure is new (first seen in #${h.firstSeen}); none of the ${h.window - 1} earlier builds looked at failed this way, and none passed on the same commit. Re-run it without changes: a pass would make it flaky.`);
    else out.line(`**Not flaky by the evidence, but it came back:** ${h.reason} The builds in between changed the code, so this looks like a regression rather than chance.`);
  } else if (asked === 'since') {
    if (h.verdict === 'new') out.line(`**Since this build:** #${h.firstSeen} is the first of the last ${h.window} builds to fail this way.`);
    else out.line(historySentence(h));
    if (h.verdict !== 'new' && h.firstSeen !== h.failingSince) out.line(`It was first seen in #${h.firstSeen} among the last ${h.window} builds; builds that passed since then: ${builds(h.passedBetween) || 'none'}.`);
  } else {
    if (h.verdict === 'new') out.line(`**No:** none of the ${h.window - 1} earlier builds looked at (from #${h.firstBuildLooked}) failed this way.`);
    else out.line(`**Yes:** it failed this way in ${h.seenInLast} of the last ${h.window} builds, first in #${h.firstSeen} (${builds(h.evidenceBuilds)}). ${historySentence(h)}`);
  }
  for (const t of h.tests?.slice(0, 5) ?? []) {
    out.line(`- Test ${inlineCode(t.name)}: ${t.verdict === 'fixed-and-back' ? 'fixed and back' : t.verdict}; failed in ${builds(t.failedIn)}${t.passedIn.length ? `, passed in ${builds(t.passedIn.slice(-5))}` : ''}.`);
  }
  for (const o of h.otherJobs?.slice(0, 5) ?? []) out.line(`- The same failure in ${inlineCode(o.job)}: ${builds(o.builds)}.`);
  return true;
}

const HISTORY_HOWTO = 'Ask through the controller (it reads the job\'s history from JENKINS_HOME) or run `cichat history <job>`.';

/** Without a history: why, when the controller said (`buildDetails.historyError`), else that the context holds none. */
function noHistory(ci: CiContext, cannotTell: string): Reply {
  const error = ci.buildDetails?.historyError;
  if (!error) return notSaid(`the job's earlier builds, so I can't tell ${cannotTell}`, HISTORY_HOWTO);
  const out = new ReplyBuilder();
  out.fact('buildDetails.historyError');
  out.line(`**I can't tell ${cannotTell}:** the controller could not read the job's earlier builds: ${clip(error, 300)}`);
  out.line();
  out.line('Once that is fixed, ask again (the next context upload reads the history), or run `cichat history <job>`.');
  return out.reply();
}

const failingSince: Composer = ({ ci }) => {
  const out = new ReplyBuilder();
  return historyAnswer(out, ci, 'since') ? out.reply() : noHistory(ci, 'since when this fails');
};

const seenBefore: Composer = ({ ci }) => {
  const out = new ReplyBuilder();
  return historyAnswer(out, ci, 'before') ? out.reply() : noHistory(ci, 'whether this failure happened before');
};

export const historyAnswers: AnswerGroup = { name: 'history', composers: { failingSince, seenBefore } };
