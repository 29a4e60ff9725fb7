/**
 * The fix's step for a step that failed on what an earlier stage should have made, that stage's failure
 * hidden by `| tee` (helper ux10; the detection and the diagnosis's sentence are pipeMasked.ts's).
 */
import { clip, inlineCode } from '../logtext.js';
import { at, maskedStageOf } from './pipeMasked.js';
import { rule, SHELL_SCRIPT_GENERAL, type RemedyRule } from './remedyShape.js';

export const PIPE_MASKED_REMEDIES: RemedyRule[] = [
  rule(
    'shell/pipe-masked-earlier-failure',
    'place',
    (i, out) => {
      const s = maskedStageOf(i.lineText, i.f);
      if (!s) return;
      out.push({
        text: `Fix the error of stage **${s.stage}** first${s.first.line === s.status.line ? ` (${inlineCode(clip(s.status.text, 120))} ${at(s.status.line)})` : `, ${inlineCode(clip(s.first.text, 160))} ${at(s.first.line)}`}: this step failed only because that stage went on after it ${at(s.status.line)}. Then make the stage fail when its command does: put \`set -o pipefail\` before the pipeline ${at(s.tee.line)} (bash, and dash from 0.5.11; \`sh\` steps run \`/bin/sh -xe\` without it), or write the log with a redirection and print it on failure (${inlineCode(`${clip(s.command.text.replace(/\s*2>&1\s*$/, ''), 60)} > build.log 2>&1 || { cat build.log; exit 1; }`)}).`,
        lines: [s.first.line, s.status.line, s.tee.line],
      });
    },
    { supersedes: [SHELL_SCRIPT_GENERAL] },
  ),
];
