/** How a build ended, who started it and when: small readings of the build facts. */
import type { BuildCause, CiContext } from '../../../protocol/types.js';
import { inlineCode } from '../logtext.js';

type Outcome = 'passed' | 'failed' | 'unstable' | 'aborted' | 'not built' | 'running' | 'unknown';

export function outcomeOf(ci: CiContext): { outcome: Outcome; raw?: string } {
  const build = ci.buildDetails;
  if (build?.building === true) return { outcome: 'running' };
  const raw = typeof build?.result === 'string' ? build.result.toUpperCase() : undefined;
  switch (raw) {
    case 'SUCCESS':
      return { outcome: 'passed', raw };
    case 'FAILURE':
      return { outcome: 'failed', raw };
    case 'UNSTABLE':
      return { outcome: 'unstable', raw };
    case 'ABORTED':
      return { outcome: 'aborted', raw };
    case 'NOT_BUILT':
      return { outcome: 'not built', raw };
    case 'IN_PROGRESS':
      return { outcome: 'running' };
    case undefined:
      return { outcome: 'unknown' };
    default:
      return { outcome: 'unknown', raw };
  }
}

export const OUTCOME_PHRASE: Record<Outcome, string> = {
  passed: 'passed',
  failed: 'failed',
  unstable: 'is unstable',
  aborted: 'was aborted',
  'not built': 'was not built',
  running: 'is still running',
  unknown: 'ended',
};

/**
 * How the build ended, for the "why did it fail?" answer: a failed build is said to have ended with the CI
 * server's own word (`ended \`FAILURE\``), not "failed": the word is also a tool's verdict (pytest's and
 * tcltest's `FAILED`, unittest's `FAILED (failures=1)`, go's `[build failed]` for a package that did not
 * compile), and a build whose tests passed before a later command broke never had that verdict.
 */
export function endedAs(outcome: Outcome, raw: string | undefined): string {
  if (outcome === 'failed' && raw) return `ended ${inlineCode(raw)}`;
  return `${OUTCOME_PHRASE[outcome]}${raw ? ` (${inlineCode(raw)})` : ''}`;
}

export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "Started by user Alice" from a cause, whichever fields it has. */
export function describeCause(cause: BuildCause): string {
  if (cause.userName || cause.userId) {
    const who = cause.userName ?? cause.userId ?? '';
    const id = cause.userName && cause.userId && cause.userId !== cause.userName ? ` (${inlineCode(cause.userId)})` : '';
    return `started by **${who}**${id}`;
  }
  const text = cause.shortDescription.trim();
  return text ? text.charAt(0).toLowerCase() + text.slice(1) : 'started for an unrecorded reason';
}

export function timestampOf(ci: CiContext): Date | undefined {
  const raw: unknown = ci.buildDetails?.timestamp;
  if (typeof raw !== 'string' && typeof raw !== 'number') return undefined;
  const date = new Date(raw);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

export function formatTime(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

