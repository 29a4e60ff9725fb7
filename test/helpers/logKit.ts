/**
 * Small builders for the analyzer's unit tests (core/log/analyze*.test.ts): logs from lines, build
 * chatter, line numbers, the top excerpt.
 */
import { analyze } from '../../core/log/analyze.js';
import type { LogExcerpt } from '../../protocol/types.js';

/** A log from lines, each ending in "\n" (as CI servers write them). */
export function log(...lines: string[]): string {
  return lines.map((l) => `${l}\n`).join('');
}

/** N lines of ordinary build chatter. */
export function chatter(n: number, prefix = 'Downloading artifact'): string[] {
  return Array.from({ length: n }, (_, i) => `${prefix} ${i + 1} of ${n}`);
}

/** The 1-based line number of the first line containing `needle`. */
export function lineOf(text: string, needle: string): number {
  const i = text.split('\n').findIndex((l) => l.includes(needle));
  if (i < 0) throw new Error(`no line contains ${needle}`);
  return i + 1;
}

export function top(text: string): LogExcerpt {
  const e = analyze(text)[0];
  if (e === undefined) throw new Error('no excerpt');
  return e;
}

export function covers(e: LogExcerpt, line: number): boolean {
  return e.start_line <= line && line <= e.end_line;
}


/** A Jenkins Pipeline console's opening lines (a build started by hand on one agent). */
export const PIPELINE_HEAD: readonly string[] = ['Started by user admin', '[Pipeline] Start of Pipeline', '[Pipeline] node', 'Running on agent-1 in /home/jenkins/workspace/app', '[Pipeline] {'];
/** A failed Pipeline console's closing lines: the node closes, then Jenkins' exit line and verdict. */
export const PIPELINE_END: readonly string[] = ['[Pipeline] }', '[Pipeline] // node', '[Pipeline] End of Pipeline', 'ERROR: script returned exit code 1', 'Finished: FAILURE'];
/** A Pipeline stage's lines around `body`. */
export const stage = (name: string, body: readonly string[]): string[] => ['[Pipeline] stage', `[Pipeline] { (${name})`, ...body, '[Pipeline] }', '[Pipeline] // stage'];

/** The top excerpt of a console given as lines (each ending in "\n"): its lines and reason. */
export function topOfLines(lines: readonly string[]): { start: number; end: number; reason: string } {
  const e = top(log(...lines));
  return { start: e.start_line, end: e.end_line, reason: e.reason };
}
