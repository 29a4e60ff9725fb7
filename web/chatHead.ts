/** What the chat page says while its chat is read, kept apart from the page so that it is tested without a DOM. */
import { fullTime } from './time.js';

/**
 * The line under a chat's title: its job and build, or that its log has no job, or that it has
 * no log. Only when the chat's facts were read: with the backend unreachable it said "No job:
 * upload a build log" over a chat that has one (ux4); then it says nothing.
 */
export function aboutLine(facts: { job: string | null; build: number | null; uploadedAt: string | null; known: boolean }): string {
  if (facts.job) return `${facts.job}${facts.build != null ? ` #${facts.build}` : ''}`;
  if (facts.uploadedAt) return `A build log without a job, uploaded ${fullTime(facts.uploadedAt)}.`;
  return facts.known ? 'No job: upload a build log to ask about it.' : '';
}

/** "Loading…" while the pairs are not read and no error says why they are not (ux4: it stayed under the error). */
export function showsLoading(pairs: readonly unknown[] | null, problem: string | null): boolean {
  return pairs === null && !problem;
}

/**
 * A file source's chip: the path and the lines the answer quoted (`a.py:1-11`), as the terminal
 * shows them; the first line alone (`a.py:1`) read as if the answer pointed at line 1 (ux4).
 */
export function fileSourceLabel(s: { path: string; start_line?: number; end_line?: number }): string {
  if (!s.start_line) return s.path;
  return `${s.path}:${s.start_line}${s.end_line && s.end_line !== s.start_line ? `-${s.end_line}` : ''}`;
}
