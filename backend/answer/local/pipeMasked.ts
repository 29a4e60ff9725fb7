/**
 * An earlier stage that failed without stopping the build (helper ux10): its command piped its output
 * into `tee` (`make all 2>&1 | tee build.log`), so the stage passed, and a later step failed on what the
 * stage should have made. The detection, and the finding made the stage's own error, are core's
 * (core/finding/pipeMasked.ts); here the diagnosis's sentence (the fix's step in pipeMaskedStep.ts); every
 * quote is from a line it cites.
 */
import { at, clip, inlineCode } from '../logtext.js';
import type { MaskedStage } from '../../../core/finding/pipeMasked.js';

export { maskedStageBefore, maskedStageOf, type MaskedStage } from '../../../core/finding/pipeMasked.js';
export { at };

/** The diagnosis's sentence: the earlier stage's failure that the pipe hid, and where to start. */
export function maskedSentence(s: MaskedStage): string {
  const first = s.first.line === s.status.line ? '' : ` Its first error: ${inlineCode(clip(s.first.text, 160))} ${at(s.first.line)}.`;
  return `An earlier stage failed without stopping the build: stage **${s.stage}** ${at(s.stageLine)} printed ${inlineCode(clip(s.status.text, 120))} ${at(s.status.line)}, but its command ${inlineCode(clip(s.command.text, 80))} ${at(s.command.line)} pipes its output into ${inlineCode(clip(s.tee.text, 60))} ${at(s.tee.line)}, and a pipeline's exit status is its last command's (\`tee\`), so the stage passed and the build went on to a step that needed what it should have made.${first}`;
}
