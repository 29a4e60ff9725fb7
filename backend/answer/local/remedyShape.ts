/**
 * The one shape of a remedy ("how do I fix it?", issue 25 point 3; the review's house item of
 * issue 31): every table of remedies (remedyClass.ts, diagnostics.ts, exceptions.ts, fixKnown.ts,
 * fixEveryday.ts, fixToolWords.ts, remedyFacts.ts) is a list of `RemedyRule`s, and one chooser,
 * `chooseRemedies`, decides which steps are emitted and in which order:
 *
 * 1. each rule gives zero or more steps for the finding (and the log lines near it);
 * 2. rules of one `group` are alternatives listed most specific first: only the first that gives
 *    a step is kept;
 * 3. a kept step that `supersedes` another step's `id` removes it (a specific step that makes a
 *    general one wrong or redundant: Metaspace is not heap, so no `-Xmx`): a step that
 *    contradicts the finding is never emitted;
 * 4. steps are ordered by specificity, stably (a table's own order is kept within one level):
 *    `place` (where to act: the file and line the error names), then `wording` (what the tool's
 *    own words call for), then `class` (what the finding's class generally calls for), then
 *    `fact` (lines of the log the remedy rests on);
 * 5. a class's general step marked `yieldsToWording` (what a resolver, a refused permission or a
 *    linker error generally calls for) is dropped when another rule gives a step from the tool's
 *    own wording: that step says what this failure is, and the general one is then redundant or
 *    wrong (a lock file out of date is not a missing version; a math function is not renamed).
 */
import type { Finding, FindingFrame } from '../../../protocol/types.js';
import { cite, linesOf, withoutStamp, type LogSpan } from '../logtext.js';
import { messageSpan, type LineText } from './findingText.js';

/** Ids of general steps a specific one may supersede. */
export const MISSING_TOOL_GENERAL = 'class/missing-tool-general';
export const HEAP_GENERAL = 'class/out-of-memory-heap';
/** The place step of an exception ("Open X, where E was raised, and ..."), which a step that names a better place supersedes. */
export const EXCEPTION_PLACE = 'class/exception-place';
/** The shell's "fix the script at the line the shell names", which a step that finds the cause elsewhere supersedes. */
export const SHELL_SCRIPT_GENERAL = 'class/ci-script-shell';

/** How specific a step is; the chooser emits them in this order. */
export type Specificity = 'place' | 'wording' | 'class' | 'fact';
const ORDER: Readonly<Record<Specificity, number>> = { place: 0, wording: 1, class: 2, fact: 3 };

/** One step: its text (citations inside it) and the log lines it reads (each cited in the text). */
export interface RemedyStep {
  text: string;
  lines: number[];
  /** Overrides the rule's specificity (a class's first step that names the place to act). */
  specificity?: Specificity;
  /** A name other rules may supersede this step by. */
  id?: string;
  /** A class's general step that any `wording` step of another rule replaces (rule 5 above). */
  yieldsToWording?: boolean;
}

/**
 * What the log does not settle, said once where the fix answer closes (fix.ts). `sides`: the text asks which side
 * is wrong, the expectation or the code (a failed check's, a path's the code names), and says what to do on each,
 * so no other line of the answer asks the reader to decide it again (the source's **Fix:** line, ux5).
 */
export interface Unsure {
  text: string;
  sides: boolean;
}

/** A trace's frame that called the raise site, with the raise site's function and pytest's printed arguments (fixNamed.ts `callerOf`). */
export interface Caller {
  frame: FindingFrame;
  /** The raise site's function (the frame's, or the `def` pytest quotes). */
  callee?: string;
  args?: { fn: string; line?: number; last?: number; values: string[] };
}

/** What a rule reads: the finding, the stored log when there is one, and the message's citation. */
export interface RemedyInput {
  f: Finding;
  stored: LogSpan | undefined;
  lineText: LineText | undefined;
  /** The citation of the message where the tool printed it (over all its lines). */
  m: string;
  /** The message line. */
  m0: number;
  /** The citation of the message line alone. */
  here: string;
  /** The frame that called the raise site, computed once by the fix answer (fix.ts) for its remedy and its source block. */
  caller?: Caller;
}

export interface RemedyRule {
  /** Names the rule (for docs and tests; no two alike). */
  id: string;
  specificity: Specificity;
  /** Rules of one group are alternatives, most specific first: the first that gives a step wins. */
  group?: string;
  /** Ids of steps this rule's steps make wrong or redundant: they are not emitted when this rule gives a step. */
  supersedes?: string[] | ((i: RemedyInput) => string[]);
  steps(i: RemedyInput): RemedyStep[];
}

/** The input for a finding: the log lines read lazily by the rules that need them. */
export function remedyInput(f: Finding, stored: LogSpan | undefined, lineText?: LineText, caller?: Caller): RemedyInput {
  return { f, stored, lineText, m: cite(messageSpan(f, lineText)), m0: f.message_line, here: cite({ start_line: f.message_line, end_line: f.message_line }), ...(caller ? { caller } : {}) };
}

/** A rule written as code that pushes its steps (the tables whose rules read the log around the message). */
export function rule(id: string, specificity: Specificity, body: (i: RemedyInput, out: RemedyStep[]) => void, extra: Pick<RemedyRule, 'group' | 'supersedes'> = {}): RemedyRule {
  return {
    id,
    specificity,
    ...extra,
    steps(i) {
      const out: RemedyStep[] = [];
      body(i, out);
      return out;
    },
  };
}

/** The steps of `rules` for the input: grouped, superseded and ordered as the module comment says. */
export function chooseRemedies(rules: readonly RemedyRule[], i: RemedyInput): RemedyStep[] {
  const won = new Set<string>();
  const kept: { step: RemedyStep; level: number; n: number; rule: string }[] = [];
  const dropped = new Set<string>();
  const worded = new Set<string>();
  for (const r of rules) {
    if (r.group !== undefined && won.has(r.group)) continue;
    const steps = r.steps(i);
    if (steps.length === 0) continue;
    if (r.group !== undefined) won.add(r.group);
    const sup = typeof r.supersedes === 'function' ? r.supersedes(i) : (r.supersedes ?? []);
    for (const id of sup) dropped.add(id);
    for (const step of steps) {
      const level = ORDER[step.specificity ?? r.specificity];
      if (level === ORDER.wording) worded.add(r.id);
      kept.push({ step, level, n: kept.length, rule: r.id });
    }
  }
  return kept
    .filter((k) => k.step.id === undefined || !dropped.has(k.step.id))
    .filter((k) => !k.step.yieldsToWording || ![...worded].some((id) => id !== k.rule))
    .sort((a, b) => a.level - b.level || a.n - b.n)
    .map((k) => k.step);
}

/** The log lines around the finding's message (its tool prints the details there), stamps stripped. */
export function around(stored: LogSpan | undefined, line: number, before: number, after: number): { line: number; text: string }[] {
  if (!stored) return [];
  const span = linesOf(stored, Math.max(stored.start_line, line - before), Math.min(stored.end_line, line + after));
  if (!span) return [];
  return span.text.split('\n').map((t, i) => ({ line: span.start_line + i, text: withoutStamp(t) }));
}

/** The first nearby line that matches, with its match. */
export function nearby(lines: readonly { line: number; text: string }[], re: RegExp): { line: number; m: RegExpExecArray } | undefined {
  for (const l of lines) {
    const m = re.exec(l.text);
    if (m) return { line: l.line, m };
  }
  return undefined;
}
