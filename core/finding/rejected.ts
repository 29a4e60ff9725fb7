/**
 * A `.resolves` matcher on a promise that rejected (round 9 opened; docs/notes/analyzer.md, "Round 9
 * opened (helper t9)"): vitest prints `AssertionError: promise rejected "Error: x…" instead of resolving`,
 * with the rejection cut short, and the error itself below it under `Caused by: Error: x` with its own
 * frames (`❯ fn src/a.js:6:9`). No value was compared: the code under test threw, so the cause's
 * words are the message and its first frame in the project is the place (tests.ts reads the class).
 */
import type { Finding } from '../../protocol/types.js';

type BodyAt = (i: number) => string;

/** The wrapper's words (vitest; jest's `Received promise rejected instead of resolved` names the error below it). */
export const REJECTED_NOT_RESOLVED = /^(?:AssertionError: )?promise rejected .* instead of resolving$|^Received promise rejected instead of resolved$/;
/** How far below the wrapper the cause and its frames are read. */
const REACH = 30;
/** A frame of vitest's (`❯ Module.signup src/signup.js:6:9`, `❯ src/a.ts:3:1`). */
const FRAME = /^❯ (?:\S+ )?((?!\/|node_modules\/)[^\s:]+\.[cm]?[jt]sx?):(\d+):(\d+)$/;

/** The finding with the rejection's cause as its message, and the cause's first project frame as its place. */
export function withRejection(found: Finding, lines: readonly string[], bodyAt: BodyAt): Finding {
  if (found.class !== 'test-error' || !REJECTED_NOT_RESOLVED.test(found.message)) return found;
  const from = found.message_line; // 0-based index of the line below the message
  const to = Math.min(lines.length, from + REACH);
  let cause: number | undefined;
  for (let k = from; k < to && cause === undefined; k++) if (/^Caused by: \S/.test(bodyAt(k).trim())) cause = k;
  if (cause === undefined) return found;
  const message = bodyAt(cause).trim().replace(/^Caused by: /, '');
  let frame: { file: string; line: number; column: number; log_line: number } | undefined;
  for (let k = cause + 1; k < Math.min(lines.length, cause + REACH) && !frame; k++) {
    const m = FRAME.exec(bodyAt(k).trim());
    if (m) frame = { file: m[1] as string, line: Number(m[2]), column: Number(m[3]), log_line: k + 1 };
  }
  const { exception: _wrapper, ...rest } = found;
  const exception = /^((?:[\w$]+\.)*\w*(?:Error|Exception))\b/.exec(message)?.[1];
  return {
    ...rest,
    message,
    message_line: cause + 1,
    ...(exception ? { exception } : {}),
    ...(frame ? { location: { ...frame, frames: { raise: frame, project: frame } } } : {}),
    evidence: [cause + 1, ...[...found.evidence, ...(frame ? [frame.log_line] : [])].filter((n, i, all) => n !== cause + 1 && all.indexOf(n) === i).sort((a, b) => a - b)],
  };
}
