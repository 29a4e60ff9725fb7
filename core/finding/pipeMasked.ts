/**
 * An earlier stage that failed without stopping the build (helper ux10; core since helper ux11): its command
 * piped its output into `tee` (`make all 2>&1 | tee build.log`), a pipeline's exit status is its last
 * command's, and Jenkins' `sh` runs `/bin/sh -xe` without `pipefail`; so the stage passed, and a later step
 * failed on what the stage should have made (`./build/app: No such file or directory`). Read from the `-x`
 * trace (each command of a pipeline echoed on its own `+ ` line, the last one `+ tee ...`) and the stage's
 * own output.
 *
 * The finding (`withMaskedStage`): a later step's failure of the kind a missing build output makes (the
 * shell's, a missing file or program) is the consequence; the finding is the masked stage's first error
 * (its class and place), its evidence ending with the pipe's lines and the later step's line, which say the
 * masking (the answers' sentence: backend/answer/local/pipeMasked.ts).
 */
import type { Finding, FindingClass, LogExcerpt } from '../../protocol/types.js';

/** A line of the log by its number (1-based), without CI marks. */
export type LineText = (line: number) => string | undefined;

export interface MaskedStage {
  stage: string;
  stageLine: number;
  /** The `+ tee ...` trace line, and the pipeline's first command's. */
  tee: { line: number; text: string };
  command: { line: number; text: string };
  /** The command's own failure status (`make: *** [...] Error 1`) and the stage's first error line. */
  status: { line: number; text: string };
  first: { line: number; text: string };
}

const STAGE_START = /^\[Pipeline\] \{ \((.+)\)$/;
const STAGE_END = /^\[Pipeline\] \/\/ stage$/;
/** A tool's line that says the command failed (its exit status would have been non-zero). */
const FAILED_STATUS = /^(?:g?make(?:\[\d+\])?: \*\*\* .*\bError \d+|npm ERR! code |BUILD FAILED\b|\[ERROR\] BUILD FAILURE|error: could not compile\b|ninja: build stopped\b|FAILURE: Build failed\b)/;
/** A line that states an error (the first one of the stage is where to start). */
const ERROR_LINE = /^(?:\S+?:\d+(?::\d+)?: (?:fatal )?error\b|error(?:\[E\d+\])?: |npm ERR! |\[ERROR\] |FAILED\b|Traceback \(most recent call last\))|^g?make(?:\[\d+\])?: \*\*\*/;
/** How far above the failing line the stages are read. */
const REACH = 3000;

const strip = (t: string): string => t.replace(/^\[\d{4}-\d\d-\d\dT[\d:.]+Z\] /, '').trimEnd();

/** The last stage before the one `line` is in that printed a failure into a `| tee` pipeline and still passed. */
export function maskedStageBefore(lineText: LineText | undefined, line: number): MaskedStage | undefined {
  if (!lineText) return undefined;
  // The failing line's own stage: where the search for earlier ones starts.
  let n = line;
  for (; n >= 1 && n > line - REACH; n--) if (STAGE_START.test(strip(lineText(n) ?? ''))) break;
  const from = Math.max(1, line - REACH);
  let end: number | undefined;
  for (let k = n - 1; k >= from; k--) {
    const t = strip(lineText(k) ?? '');
    if (STAGE_END.test(t)) end ??= k;
    const start = STAGE_START.exec(t);
    if (!start || end === undefined) continue;
    const found = maskedIn(lineText, start[1] as string, k, end);
    if (found) return found;
    end = undefined;
  }
  return undefined;
}

/**
 * The masked stage a finding rests on: the one before its last evidence line (the later step's line, when
 * `withMaskedStage` made the finding the stage's own error; else its message's stage).
 */
export function maskedStageOf(lineText: LineText | undefined, f: Pick<Finding, 'message_line' | 'evidence'>): MaskedStage | undefined {
  return maskedStageBefore(lineText, Math.max(f.message_line, ...f.evidence));
}

function maskedIn(lineText: LineText, stage: string, from: number, to: number): MaskedStage | undefined {
  let tee: { line: number; text: string } | undefined;
  let command: { line: number; text: string } | undefined;
  let status: { line: number; text: string } | undefined;
  let first: { line: number; text: string } | undefined;
  for (let k = from + 1; k < to; k++) {
    const t = strip(lineText(k) ?? '');
    const traced = /^\++ (.*)$/.exec(t);
    if (traced) {
      // `+ make all` over `+ tee build.log`: the pipeline's commands, echoed one per line as they start.
      const prev = /^\++ (.*)$/.exec(strip(lineText(k - 1) ?? ''));
      if (/^tee\b/.test(traced[1] as string) && prev && !tee) {
        tee = { line: k, text: traced[1] as string };
        command = { line: k - 1, text: prev[1] as string };
      }
      continue;
    }
    if (!tee) continue;
    if (!first && ERROR_LINE.test(t)) first = { line: k, text: t };
    if (FAILED_STATUS.test(t)) status = { line: k, text: t };
  }
  return tee && command && status && first ? { stage, stageLine: from, tee, command, status, first } : undefined;
}

/** The later step's failures that a build output the masked stage did not make explains. */
const CONSEQUENCE: ReadonlySet<FindingClass> = new Set<FindingClass>(['ci-script', 'missing-tool', 'unknown']);

/**
 * The masked stage's first error in place of a later step's failure on what that stage should have made.
 * `findingIn` reads a window of the log (index.ts's `findingOf`). Its evidence: the stage's, then its failure
 * status, the `| tee` line, and the later step's line.
 */
export function withMaskedStage(
  f: Finding,
  bodyAt: (i: number) => string,
  findingIn: (window: Pick<LogExcerpt, 'start_line' | 'end_line'>) => Finding,
): Finding {
  if (!CONSEQUENCE.has(f.class)) return f;
  const s = maskedStageBefore((n) => bodyAt(n - 1), f.message_line);
  if (!s) return f;
  const own = findingIn({ start_line: s.first.line, end_line: s.status.line });
  if (own.class === 'unknown' || CONSEQUENCE.has(own.class)) return f;
  const evidence = [...own.evidence];
  for (const n of [s.status.line, s.tee.line, f.message_line]) if (!evidence.includes(n)) evidence.push(n);
  return { ...own, evidence };
}
