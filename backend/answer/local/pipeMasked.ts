/**
 * An earlier stage that failed without stopping the build (helper ux10): its command piped its output
 * into `tee` (`make all 2>&1 | tee build.log`), a pipeline's exit status is its last command's, and Jenkins'
 * `sh` runs `/bin/sh -xe` without `pipefail`; so the stage passed, and a later step failed on what the
 * stage should have made (`./build/app: No such file or directory`). The error to fix is the earlier
 * stage's (the diagnosis's sentence here; the fix's step in pipeMaskedStep.ts). Read from the `-x` trace (each command of a pipeline echoed on its own `+ ` line, the last one
 * `+ tee ...`) and the stage's own output; every quote is from a line it cites.
 */
import { cite, clip, inlineCode } from '../logtext.js';

/** A line of the log by its number (findingText.ts's `LineText`; not imported: findingText.ts imports this module). */
type LineText = (line: number) => string | undefined;
/** findingText.ts's `at`, for the same reason. */
export const at = (line: number): string => cite({ start_line: line, end_line: line });

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

const strip = (t: string): string => t.replace(/^\[\d{4}-\d\d-\d\dT[\d:.]+Z\] /, '').replace(/\s+$/, '');

/** The last stage before the one `line` is in that printed a failure into a `| tee` pipeline and still passed. */
export function maskedStageBefore(lineText: LineText | undefined, line: number): MaskedStage | undefined {
  if (!lineText) return undefined;
  // The failing line's own stage: where the search for earlier ones starts.
  let n = line;
  for (; n >= 1 && n > line - 3000; n--) if (STAGE_START.test(strip(lineText(n) ?? ''))) break;
  const from = Math.max(1, line - 3000);
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

/** The diagnosis's sentence: the earlier stage's failure that the pipe hid, and where to start. */
export function maskedSentence(s: MaskedStage): string {
  const first = s.first.line === s.status.line ? '' : ` Its first error: ${inlineCode(clip(s.first.text, 160))} ${at(s.first.line)}.`;
  return `An earlier stage failed without stopping the build: stage **${s.stage}** ${at(s.stageLine)} printed ${inlineCode(clip(s.status.text, 120))} ${at(s.status.line)}, but its command ${inlineCode(clip(s.command.text, 80))} ${at(s.command.line)} pipes its output into ${inlineCode(clip(s.tee.text, 60))} ${at(s.tee.line)}, and a pipeline's exit status is its last command's (\`tee\`), so the stage passed and the build went on to a step that needed what it should have made.${first}`;
}
