/**
 * The commands a tool prints for the user to run, next to its error (helper fx5, issue 25 point 3):
 * an introducing line (`Run`, `To add an exception for this directory, call:`, `You can fix this
 * by running:`) over indented command lines (git's missing identity and safe.directory, cargo's and
 * npm's `run:` blocks). And pip's diagnostic block (`× <title>` over `╰─> <body>`): the body lines
 * that say what to do (`create a virtual environment using python3 -m venv ...`) and its `hint:`
 * pointer to the specification (`See PEP 668`). Keyed on the layout, never on a project's names;
 * every quote is one line the text cites.
 */
import { cite, inlineCode } from '../logtext.js';
import { around, rule, type RemedyRule } from './remedyShape.js';

/** A line that introduces commands: a lone `Run`, or a clause ending in `call:` / `run:` / `running:`... */
const INTRO = /^(?:(?:Run|Try|Try running|Run the following(?: commands?)?)\s*:?|.{3,160}\b(?:call|run|running|execute|try|use)(?: the following(?: commands?)?)?\s*:)$/i;
/** A command line under it: indented, a program's name first, not a sentence. */
const COMMAND = /^[\w./~$][\w./+:@-]*(?:\s+\S.*)?$/;
/** A step's own trace or framing line: the tool's block ends before it. */
const STEP_LINE = /^\+{1,2} |^\[Pipeline\]|^##\[|^Build step |^> /;

/** A line of a pip diagnostic's body that asks for an action (`create a ...`, `..., try apt install`), not a condition (`If you wish to install`). */
const PIP_ACTION = /(?:^|,\s*)(?:create|try|use|install|run|pass|set|upgrade|make sure)\b/i;

export const TOOL_INSTRUCTION_REMEDIES: RemedyRule[] = [
  rule('instructions/commands-block', 'fact', (i, out) => {
    const lines = around(i.stored, i.m0, 14, 12);
    for (let k = 0; k < lines.length && out.length === 0; k++) {
      const intro = lines[k] as { line: number; text: string };
      if (!INTRO.test(intro.text.trim()) || STEP_LINE.test(intro.text.trim())) continue;
      // Between the block and the message, no other command of the step ran.
      const [lo, hi] = intro.line < i.m0 ? [intro.line, i.m0] : [i.m0, intro.line];
      if (lines.some((l) => l.line > lo && l.line < hi && STEP_LINE.test(l.text.trim()))) continue;
      let j = k + 1;
      while (j < lines.length && (lines[j]?.text.trim() ?? '') === '' && j - k <= 2) j++;
      const cmds: { line: number; text: string }[] = [];
      for (; j < lines.length && cmds.length < 3; j++) {
        const l = lines[j] as { line: number; text: string };
        const t = l.text.trim();
        if (!/^(?:\s{2,}|\t)/.test(l.text) || !COMMAND.test(t) || /[.!?]$/.test(t) || t.length > 200) break;
        cmds.push({ line: l.line, text: t });
      }
      if (cmds.length === 0 || cmds[0]?.text.split(/\s+/).length === 1) continue;
      const last = (cmds[cmds.length - 1] as { line: number }).line;
      out.push({
        text: `The tool says to run ${cmds.map((c) => inlineCode(c.text)).join(' and ')} ${cite({ start_line: intro.line, end_line: last })} (under ${inlineCode(intro.text.trim())}); run it where the build runs (in the CI script or on the agent), not only on your machine.`,
        lines: [intro.line, ...cmds.map((c) => c.line)],
      });
    }
  }),
  rule('instructions/pip-diagnostic', 'fact', (i, out) => {
    const lines = around(i.stored, i.m0, 2, 24);
    const title = lines.find((l) => l.line >= i.m0 && /^× \S/.test(l.text.trim()));
    const body = title ? lines.findIndex((l) => l.line > title.line && /^╰─> /.test(l.text.trim())) : -1;
    if (!title || body < 0) return;
    const said: { line: number; text: string }[] = [];
    let hint: { line: number; text: string } | undefined;
    for (const l of lines.slice(body)) {
      const t = l.text.trim().replace(/^╰─>\s*/, '');
      const h = /^hint: (See .+)$/.exec(t);
      if (h) {
        hint = { line: l.line, text: h[1] as string };
        break;
      }
      if (/^note: /.test(t)) continue;
      if (PIP_ACTION.test(t) && said.length < 3 && t.length >= 12) said.push({ line: l.line, text: t });
    }
    if (said.length === 0 && !hint) return;
    const parts = said.map((s) => `${inlineCode(s.text)} ${cite({ start_line: s.line, end_line: s.line })}`);
    out.push({
      text: `The tool explains ${inlineCode(title.text.trim().replace(/^× /, ''))} ${cite({ start_line: title.line, end_line: title.line })}${parts.length > 0 ? `; what it says to do: ${parts.join('; ')}` : ''}${hint ? `; its hint: ${inlineCode(hint.text)} ${cite({ start_line: hint.line, end_line: hint.line })}` : ''}.`,
      lines: [title.line, ...said.map((s) => s.line), ...(hint ? [hint.line] : [])],
    });
  }),
];
