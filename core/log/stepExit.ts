/**
 * A step's exit line: the CI's own line saying that a build step ended non-zero, nothing of why. One reading for
 * the log's blocks (core/log/blocks.ts: the line's role `exit-fail`), the place of the step's error
 * (core/finding/places.ts) and the failed command's words (core/finding/scriptWords.ts), so that what one of them
 * takes for the step's ending the others do too (session 51, helper loc4; docs/notes/analyzer.md):
 * - Jenkins Pipeline: `ERROR: script returned exit code 1` (`-2` when the agent's process was lost);
 * - GitHub Actions: `##[error]Process completed with exit code 1.`, also without the marker, as the web page copies
 *   it (`Process completed with exit code 1.`);
 * - Jenkins freestyle: `Build step 'Execute shell' marked build as failure` (names no status);
 * - Travis: `The command "make test" exited with 2.` (blocks.ts reads Travis' lines first, `exited with 0` too).
 * The whole line, as the runner prints it at the line's start: an indented or quoted one is a program's output.
 */
export const STEP_EXIT =
  /^(?:ERROR: script returned exit code (-?\d+)|(?:##\[error\])?Process completed with exit code (-?\d+)\.?|Build step '.+' marked build as failure|The command ".+" exited with (-?\d+)\.?)$/;

/** The status a step exit line names: a number, null for one that names none (freestyle's), undefined for no exit line. */
export function stepExitStatus(line: string): number | null | undefined {
  const m = STEP_EXIT.exec(line);
  if (m === null) return undefined;
  const status = m[1] ?? m[2] ?? m[3];
  return status === undefined ? null : Number(status);
}

/** A runner's own line between a step's output and its exit: Jenkins' `[Pipeline] }`, GitHub Actions' `##[endgroup]`. */
export const RUNNER_MARK = /^\[Pipeline\]|^##\[(?:endgroup|group)\]/;
