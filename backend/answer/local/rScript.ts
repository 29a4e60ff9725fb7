/**
 * An error that stopped an R script (`Rscript report.R`): R prints `Error in <call> : <message>`,
 * then `Calls: main -> summarise_sales -> match.arg` (the calls it was in, outermost first) and
 * `Execution halted`: no file and line, unless the sources were kept (ux12, r-sales). What the
 * answer can say from those lines, and `match.arg`'s own grammar: `'arg' should be one of “a”, “b”`.
 */
import type { Finding } from '../../../protocol/types.js';
import { cite, clip, inlineCode } from '../logtext.js';
import type { LineText } from './findingText.js';

const R_CALL = /^Error in (.+?) ?: /;
const CALLS = /^Calls: (.+)$/;
const MATCH_ARG = /^match\.arg\((\w+)(?:,.*)?\)$/;
const ONE_OF = /'arg' should be one of (.+)$/;

const at = (n: number): string => cite({ start_line: n, end_line: n });

/** R's error steps: where it came from (the calls), a command that prints the lines, and `match.arg`'s choices. */
export function rErrorSteps(f: Finding, lineText: LineText | undefined, ciCommand: string | undefined): string[] | undefined {
  if (f.tool !== 'Rscript' || f.exception !== 'error') return undefined;
  const call = R_CALL.exec(f.message)?.[1];
  const callsLine = [1, 2].map((d) => f.message_line + d).find((n) => CALLS.test((lineText?.(n) ?? '').trim()));
  const calls = callsLine === undefined ? [] : (CALLS.exec((lineText?.(callsLine) ?? '').trim())?.[1] ?? '').split(' -> ').map((x) => x.trim()).filter((x) => x !== '...');
  const script = /^Rscript(?:\s+--?[\w-]+)*\s+(\S+\.R)\b/i.exec(ciCommand ?? '')?.[1];
  const steps: string[] = [];
  const caller = calls.length >= 2 ? calls[calls.length - 2] : undefined;
  const chain = callsLine !== undefined && calls.length > 0 ? `: ${inlineCode(calls.join(' -> '))} ${at(callsLine)}` : '';
  const run = script
    ? ` To see the lines, run it with its sources kept and a traceback on the error: ${inlineCode(`Rscript -e 'options(keep.source = TRUE, error = function() { traceback(2); quit(status = 1) }); source("${script}")'`)} (each call then shows \`at file.R#line\`).`
    : ' To see the lines, `source()` the script with `options(keep.source = TRUE)` and call `traceback()` after the error.';
  steps.push(`R names no file and line for this error, only the calls it was in${chain}${call ? `; it came from ${inlineCode(call)} ${at(f.message_line)}${caller ? `, in ${inlineCode(caller)}` : ''}` : ''}.${run}`);
  // match.arg(x) checks x against the choices the function's definition lists for it.
  const arg = call ? MATCH_ARG.exec(call)?.[1] : undefined;
  const choices = ONE_OF.exec(f.message)?.[1];
  if (arg && choices) {
    steps.push(
      `${inlineCode(`match.arg(${arg})`)} accepts only the choices the function's definition lists for ${inlineCode(arg)} (here ${choices}), or a unique prefix of one ${at(f.message_line)}, ` +
        `so ${caller ? inlineCode(caller) : 'the function'} was called with another value for ${inlineCode(arg)}. Pass one of them where it is called${calls.length >= 3 ? ` (from ${inlineCode(calls[calls.length - 3] as string)})` : ''}, or add the value to the choices in its definition.`,
    );
  }
  return steps;
}

/** Tcl errorInfo's frame of a procedure, `    (procedure "rates::quote" line 3)`, and the command quoted above it. */
const TCL_PROC_FRAME = /^\s+\(procedure "([^"]+)" line (\d+)\)\s*$/;

/**
 * Where Tcl's errorInfo under the message at `f.message_line` places the error when it names no file
 * (ux14, tcl-rates): the innermost procedure and the line of its body, with the command it was executing;
 * a sentence for the remedy's first step, or undefined when errorInfo names no procedure.
 */
export function tclProcedureStep(f: Finding, lineText: ((n: number) => string | undefined) | undefined, m: string): string | undefined {
  // By errorInfo's own frame (Tcl's alone), not the tool: an answer may show the finding without its tool.
  if (!lineText) return undefined;
  for (let n = f.message_line + 1; n <= f.message_line + 12; n++) {
    const frame = TCL_PROC_FRAME.exec(lineText(n) ?? '');
    if (!frame) continue;
    const command = /^"(.+)"\s*$/.exec((lineText(n - 1) ?? '').trim())?.[1];
    return `Tcl's errorInfo places it in procedure ${inlineCode(frame[1] as string)}, line ${frame[2] as string} of its body ${cite({ start_line: n, end_line: n })}${command ? `, executing ${inlineCode(clip(command, 120))} ${cite({ start_line: n - 1, end_line: n - 1 })}` : ''}: open that procedure and read that line against the error ${m}.`;
  }
  return undefined;
}
