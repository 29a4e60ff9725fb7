/**
 * The family rules on tools they were not written for (issue 25, round 7 tuning; docs/notes/analyzer.md,
 * "Round 7 tuning: family rules on unseen tools"). A tool-family rule matches a line's shape; on
 * another tool's output the same shape may mean something else (Python's `SyntaxError:` rule on
 * Node's `JSON.parse` error, flake8's `E501` on pycodestyle's). When the family rules settled a
 * finding, the general evidence (ablation.ts, evidence.ts, verdicts.ts) is read too, and it wins
 * only on evidence against the family's reading:
 * - the family's tool is contradicted: the general evidence names another tool (a trace's runtime,
 *   the step's program) and the step's command never names the family's; then a general finding
 *   with a decided class wins, and one of the same class gives its tool only;
 * - the family rule only saw a bare verdict (low confidence: TAP's `not ok N name`) and the general
 *   evidence read the failure's own words into another class with more confidence.
 * - the lines just under the family's message are another runtime's stack frames (Node's `at` under a `SyntaxError:`
 *   Python's rule read): that runtime's exception, whatever the step's command names;
 * Otherwise the family's finding stands (it was written for that tool, and unknown general evidence
 * never overrides it).
 */
import type { Finding } from '../../protocol/types.js';
import { COMMAND_LINE, commandOf, words } from './generic.js';

type BodyAt = (i: number) => string;

/** How far above the message the step's commands are read. */
const REACH = 150;

/**
 * The words (path-less, lower case) of the commands echoed above line `from` (0-based); none when
 * the nearest runs a build driver or a compiler's front end (make, ant, cargo build, gcc: it runs
 * other tools, any of them may have printed the line).
 */
function commandWordsAbove(bodyAt: BodyAt, from: number): string[] {
  const found: string[] = [];
  for (let i = from; i >= Math.max(0, from - REACH); i--) {
    const m = COMMAND_LINE.exec(bodyAt(i).trim());
    if (!m) continue;
    if (found.length === 0 && /^(?:build|compile)$/.test(commandOf(m[1] as string).kind ?? '')) return [];
    found.push(...words(m[1] as string).map((w) => w.replace(/^.*\//, '').toLowerCase()));
  }
  return found;
}

/**
 * Whether the step's commands name `tool` (a program, a subcommand, a module: `python -m flake8`,
 * `cargo clippy`), also under a version suffix (`python3`, `python3.11`, `ruby3.1`, `node18`): the
 * interpreter that runs a test runner (`python3 -m pytest`) printed its own errors too (a test
 * module that does not parse is Python's SyntaxError, not the runner's).
 */
function commandNames(tool: string, commands: readonly string[]): boolean {
  const t = tool.toLowerCase();
  return commands.some((w) => w === t || w.startsWith(`${t}.`) || w.startsWith(`${t}-`) || w.startsWith(`${t}@`) || (w.startsWith(t) && /^\d[\d.]*$/.test(w.slice(t.length))) || (t.startsWith(w) && /^(?:python|node|ruby|perl|php|lua)/.test(w)));
}

/**
 * A runtime's stack frame, by the runtime's tool name: Node's `    at f (file.js:9:23)` / `    at JSON.parse (<anonymous>)`,
 * Python's `  File "x.py", line 3`, the JVM's `    at a.B.c(B.java:12)`. Each runtime prints its own only. A frame of
 * Node's own (`at wrapSafe (node:internal/...)`) ends the search: Node's parse error of a module is thrown there, not by
 * the code.
 */
const FRAME_OF: Readonly<Record<string, RegExp>> = {
  node: /^\s+at (?:\S.* \()?(?:<anonymous>\)|file:|(?!node:)[^\s()]*\.[cm]?[jt]sx?:\d+:\d+)/,
  python: /^\s+File "[^"]+", line \d+/,
  java: /^\s+at [\w$.<>]+\((?:[\w$]+\.(?:java|kt|scala|groovy):\d+|Native Method|Unknown Source)\)/,
};
const RUNTIME_OWN_FRAME = /^\s+at (?:\S.* \()?node:/;

/**
 * Whether the lines just under the family's message (its own continuation, up to 4 lines) hold the general evidence's
 * runtime's stack frame and none of the family's tool's: the message is that runtime's exception (Node's JSON.parse
 * `SyntaxError:` over its `at` frames is not Python's, whatever the step's command names: `npm run x` runs node).
 */
function traceOfOtherRuntime(family: Finding, gen: Finding, bodyAt: BodyAt): boolean {
  const theirs = gen.tool === undefined ? undefined : FRAME_OF[gen.tool];
  if (theirs === undefined || family.tool === undefined) return false;
  const ours = FRAME_OF[family.tool];
  for (let i = family.message_line; i < family.message_line + 4; i++) {
    const line = bodyAt(i);
    if (ours?.test(line) || RUNTIME_OWN_FRAME.test(line)) return false;
    if (theirs.test(line)) return true;
  }
  return false;
}

/** The family's finding, or the general evidence's where it contradicts the family's tool or reads the failure the family only saw as a verdict. */
export function arbitrated(family: Finding, general: () => Finding, bodyAt: BodyAt): Finding {
  if (family.class === 'unknown') return family;
  const gen = general();
  if (gen.class === 'unknown') return family;
  if (family.confidence === 'low' && gen.confidence !== 'low' && gen.class !== family.class) return gen;
  if (!family.tool || !gen.tool || gen.tool === family.tool) return family;
  // A compiler's own diagnostic under a test command (`mvn verify` compiling a module first): nothing ran yet, no test failed.
  if (family.class === 'compile-error' && family.confidence === 'high' && /^test-/.test(gen.class)) return family;
  // The message's own stack frames are another runtime's: that runtime's reading (its tool named the frames, not the step).
  // (Of another class only: a JVM language's runner, groovy's `Caught:`, prints the JVM's frames as its own.)
  if (gen.class !== family.class && traceOfOtherRuntime(family, gen, bodyAt)) return gen;
  const commands = commandWordsAbove(bodyAt, family.message_line - 1);
  if (commands.length === 0 || commandNames(family.tool, commands) || !commandNames(gen.tool, commands)) return family;
  return gen.class === family.class ? { ...family, tool: gen.tool } : gen;
}
