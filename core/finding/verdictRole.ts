/**
 * The class of an unknown finding from the role of the command whose output it is (issue 25, round 6
 * tuning, helper class6; see verdicts.ts). The role comes from the invocation's shape, never from a
 * tool's name alone: object files in and no `-c` links; an input file and an output (`-o`, `-out`,
 * `--gen`, a second file) or a compiler's name translates; a checker's name (`*lint`, `*hint`,
 * `check*`, `*check`, `*spell*`, `*validat*`) checks; a test program (evidence.ts's roleOf) or a
 * runner's failure list (`Failures:` over `1) name`) tests; one script file and no output runs it.
 */
import type { Finding, FindingClass, FindingLocation } from '../../protocol/types.js';
import { COMMAND_LINE, commandOf, locatedIn, namesFile, words, type Command } from './generic.js';
import { roleOf } from './evidence.js';

type Window = { start_line: number; end_line: number };
type BodyAt = (i: number) => string;

export interface StepRole {
  command: Command;
  index: number;
  link: boolean;
  translate: boolean;
  lint: boolean;
  test: boolean;
  /** The one script file the command runs (no output named). */
  script?: string;
}

const OBJECT = /\.(?:o|obj|rel|a|lib|lo|la|so)$/;
const OUTPUT_FLAG = /^(?:-o|-out|--out|--output|--outdir|--out-dir|--out-file|--gen|-d)$|^(?:-o(?![a-z]+-[a-z])\S|--out(?:put|dir|-dir|-file)?=)/;
const FILE_ARG = /^(?!\.[A-Za-z])[\w.~@+/-]*[\w-]\.[A-Za-z][\w+]{0,7}$/;

/** The roles of a command (see the head of this file). */
export function rolesOf(command: Command): Omit<StepRole, 'command' | 'index'> {
  const ws = words(command.text);
  const args = ws.slice(1).filter((a) => !/^(?:npx|exec|run)$/.test(a));
  const files = args.filter((a, i) => FILE_ARG.test(a) && !OUTPUT_FLAG.test(args[i - 1] ?? ''));
  const output = args.some((a, i) => OUTPUT_FLAG.test(a) && args[i + 1] !== undefined) || args.some((a) => /^--?o(?:ut(?:put)?)?=/.test(a));
  const role = roleOf(command);
  const link = files.length > 0 && files.every((f) => OBJECT.test(f)) && !args.some((a) => /^-[cSE]$/.test(a));
  const program = command.program;
  const checker = /lint|hint|spell|validat/i.test(program) || /^check[a-z]|[a-z]check$|-check[a-z]/i.test(program);
  // A program's validating subcommand (`systemd-analyze verify unit`, `x validate file`) checks like a checker.
  const validates = command.kind === undefined && /^(?:verify|validate)$/.test(args.find((a) => !a.startsWith('-')) ?? '');
  const lint = !link && (role === 'lint' || validates || (checker && !/\.(?:sh|py|js|pl|rb)$/.test(program)));
  // Programs that copy, move or fetch files name an input and an output too, and translate nothing.
  const copies = /^(?:cp|mv|ln|install|rsync|scp|cat|tee|tar|zip|unzip|gzip|gunzip|xz|sed|awk|sort|uniq|diff|cmp|curl|wget|dd|split|iconv)$/.test(program);
  const translate = !link && !lint && !copies && command.kind !== 'run' && (role === 'compile' || (files.length >= 1 && (output || (files.length === 2 && extOf(files[0]) !== extOf(files[1])))));
  const test = role === 'test';
  const script = !translate && !lint && !test && !output && files.length === 1 && !OBJECT.test(files[0] as string) ? files[0] : undefined;
  return { link, translate, lint, test, ...(script ? { script } : {}) };
}

function extOf(file: string | undefined): string {
  return /\.(\w+)$/.exec(file ?? '')?.[1] ?? '';
}

/** The step's command at or above 0-based line `from` (a `++ ` command substitution too) that `accept` takes. */
export function stepAbove(bodyAt: BodyAt, from: number, accept: (s: StepRole) => boolean): StepRole | undefined {
  for (let i = from; i >= Math.max(0, from - 150); i--) {
    const m = COMMAND_LINE.exec(bodyAt(i).trim());
    if (!m || /^(?:for|while|if|until|case|\[\[?|test|echo|printf|set|export|cd|local|declare|shift|true|read|:)\b/.test(m[1] as string) || /^\w+=/.test(m[1] as string)) continue;
    const command = commandOf(m[1] as string);
    const step = { command, index: i, ...rolesOf(command) };
    if (accept(step)) return step;
  }
  return undefined;
}

/** A summary or a framing line, never the message. */
const SUMMARY = /^(?:\d+ (?:problems?|errors?|warnings?)\b|✖\s+found \d+|Scanned \d+ files?|found \d+ (?:problems?|errors?)|\d+ (?:tests?|specs?|scenarios?|steps?) |Ran \d+|FAILED \(|Run Summary|ⓘ|\*\*\* \d+ failures?)|\bexit (?:code|status) \d+|^Process completed|^compilation terminated|^BUILD (?:FAILED|FAILURE)\b/i;
const ERROR_WORDS = /\berror\b|\bnot defined\b|\bundefined\b|\binvalid\b|\bunexpected\b|\bcannot\b|\bcan't\b|\bfailed\b/i;
/** An input file's line rejected by the program reading it. */
const REJECTED = /\b(?:bad|invalid|unknown|unrecognized|unsupported|deprecated) (?:configuration |config )?(?:option|directive|keyword|setting|parameter|key)\b|\b(?:cannot|can't|could not|unable to) (?:open|include|read|find) [`'"‘][^`'"’]+[`'"’]|\bsyntax error\b|\bparse error\b|\bunexpected (?:token|end|character|symbol)\b/i;
/** A script's error its interpreter reports at run time. */
const RUNTIME_WORDS = /\bundefined (?:variable|function|name|value)\b|\bnot defined\b|\bdivision by zero\b|\bdivide by zero\b|\bno such (?:variable|function|key|index)\b|\bindex out of (?:range|bounds)\b|\bnull\b|\bnil\b/i;

/** A checker's own configuration that did not load: a rule, plugin, standard, preset or config it was told to use. */
const CHECKER_SETUP = /\b(?:rule|rules|sniff|plugin|standard|preset|config(?:uration)?|extension|formatter|reporter)\b[^:]{0,80}\b(?:does not exist|not found|not installed|could not be (?:found|loaded)|failed to load|cannot be (?:found|loaded))\b/i;

interface Placed {
  file: string;
  line: number;
  column?: number;
  message: string;
}

/** The place a line names: the common forms, `prog:file:line:`, `file: line N:` (`file: line N, col M, msg`), `"file" line N:`, `file F line N`, `at file:L,C`. */
function placeIn(text: string): Placed | undefined {
  const t = text.trim();
  let m = /^[\w.+-]+:((?:[\w.~-]+\/)*[\w.~-]+\.[A-Za-z][\w+]{0,7}):(\d+):\s*(.*)$/.exec(t);
  if (m) return { file: m[1] as string, line: Number(m[2]), message: m[3] as string };
  m = /^"?((?:[\w.~-]+\/)*[\w.~-]+(?:\.\w+|_config|rc))"?:? line (\d+)(?:, col(?:umn)? (\d+))?[:,]\s*(.*)$/.exec(t);
  if (m) return { file: m[1] as string, line: Number(m[2]), ...(m[3] ? { column: Number(m[3]) } : {}), message: m[4] as string };
  m = /\bfile ((?:[\w.~-]+\/)*[\w.~-]+\.\w+) line (\d+)\b/.exec(t) ?? /\bat ((?:[\w.~-]+\/)*[\w.~-]+\.\w+):(\d+)(?:[,:](\d+))?\s*$/.exec(t);
  if (m) return { file: m[1] as string, line: Number(m[2]), ...(m[3] ? { column: Number(m[3]) } : {}), message: t };
  const l = locatedIn(t);
  return l ? { file: l.file, line: l.line, ...(l.column ? { column: l.column } : {}), message: l.message } : undefined;
}

function located(p: Placed | undefined, k: number): FindingLocation | undefined {
  return p ? { file: p.file, line: p.line, ...(p.column ? { column: p.column } : {}), log_line: k + 1 } : undefined;
}

function settle(found: Finding, cls: FindingClass, k: number, text: string, tool: string | undefined, place?: FindingLocation, extra: Partial<Finding> = {}): Finding {
  const { location: old, ...rest } = found;
  const location = place ?? (cls === found.class ? old : undefined);
  return { ...rest, ...extra, class: cls, message: text.trim(), message_line: k + 1, ...(tool ? { tool } : {}), ...(location ? { location } : {}), confidence: 'medium', evidence: [k + 1, ...found.evidence.filter((e) => e !== k + 1)] };
}

/** The first line of a..b-1 that `test` takes and no summary is. */
function firstLine(bodyAt: BodyAt, a: number, b: number, test: (t: string) => boolean): number | undefined {
  for (let k = a; k < b; k++) {
    const t = bodyAt(k).trim();
    if (t !== '' && !/^\++ /.test(t) && !SUMMARY.test(t) && test(t)) return k;
  }
  return undefined;
}

/** The nearest place in a test file around line k (a runner's pointer `› file:line:col`). */
function testPlaceNear(bodyAt: BodyAt, k: number, a: number, b: number): FindingLocation | undefined {
  for (const d of [0, 1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 6, -6, 7, 8, 9, 10, 11, 12]) {
    if (k + d < a || k + d >= b) continue;
    const m = /^(?:[›»>]\s*)?((?:[\w.~@+-]+\/)*[\w.~@+-]+\.[A-Za-z]\w{0,7}):(\d+)(?::(\d+))?$/.exec(bodyAt(k + d).trim());
    if (m && /(?:^|\/)(?:tests?|spec|__tests__)\/|[._-](?:test|spec)\.\w+$|^test_/.test(m[1] as string)) return { file: m[1] as string, line: Number(m[2]), ...(m[3] ? { column: Number(m[3]) } : {}), log_line: k + d + 1 };
  }
  return undefined;
}

/** A test's verdict in the runner's output lines a..b-1 (a test role or a runner's failure list). */
function testVerdict(found: Finding, bodyAt: BodyAt, a: number, b: number, tool: string): Finding | undefined {
  for (let k = a; k < b; k++) {
    const t = bodyAt(k).trim();
    // A diff of the compared values (`Difference (- actual, + expected):`), a check's own words, an ASSERT macro at a place.
    if (/\bactual\b.{0,20}\bexpected\b|\bexpected\b.{0,20}\bactual\b/i.test(t) && /^Difference\b|^[-+(]/.test(t)) return settle(found, 'test-assertion', k, t, tool, testPlaceNear(bodyAt, k, a, b));
    const macro = /^\d+\. ((?:[\w.~-]+\/)*[\w.~-]+\.\w+):(\d+)\s+- (\S*ASSERT\S*\(.*)$/.exec(t);
    if (macro) return settle(found, 'test-assertion', k, macro[3] as string, tool, { file: macro[1] as string, line: Number(macro[2]), log_line: k + 1 });
    const check = /\bexpected:?\s*<[^>]*>\s*but (?:was|got):?\s*<[^>]*>/i.exec(t);
    if (check) return settle(found, 'test-assertion', k, check[0], tool);
    // The runner's fatal error in a named test (`fatal error: in "t": std::invalid_argument: ...`).
    const fatal = /\bfatal error:? in "([^"]+)": (.+)$/.exec(t);
    if (fatal) return settle(found, 'test-error', k, t.slice(t.indexOf('fatal error')), tool, found.location, { test: { name: fatal[1] as string, log_line: k + 1 } });
    // An exception raised in a test the runner lists as failed.
    const raised = /^((?:[\w$]+\.)*[\w$]*(?:Error|Exception)): \S/.exec(t);
    if (raised) {
      let place: FindingLocation | undefined;
      for (let j = k + 1; j < Math.min(b + 10, k + 12); j++) {
        const fr = /^\s*at (?:.*\()?((?:\/|\w:)?[^\s():]+\.[cm]?[jt]sx?):(\d+):(\d+)\)?$/.exec(bodyAt(j));
        if (!fr) continue;
        if (/node_modules|node:internal|^node:/.test(fr[1] as string)) continue;
        place = { file: fr[1] as string, line: Number(fr[2]), column: Number(fr[3]), log_line: j + 1 };
        break;
      }
      return settle(found, 'test-error', k, t, tool, place, { exception: (raised[1] as string).replace(/^.*\./, '') });
    }
  }
  return undefined;
}

/** A runner's failure list in lines a..b-1: `Failures:` over `1) name`. */
function failureList(bodyAt: BodyAt, a: number, b: number): boolean {
  for (let k = a; k < b; k++) if (/^Failures:$/.test(bodyAt(k).trim()) && /^\d+\) \S/.test(bodyAt(k + 1).trim() || bodyAt(k + 2).trim())) return true;
  return false;
}

/** The class the role of the step's command settles for an unknown finding (undefined when none). */
/** Whether `command` runs, by its path (`./app`, `build/app`), the output of a command above it in the step (`-o app`). */
function builtAbove(bodyAt: BodyAt, index: number, command: Command): boolean {
  const run = words(command.text)[0] ?? '';
  if (!/\//.test(run)) return false;
  const name = run.replace(/^.*\//, '');
  for (let i = index - 1; i >= Math.max(0, index - 150); i--) {
    const m = COMMAND_LINE.exec(bodyAt(i).trim());
    if (!m) continue;
    const ws = words(m[1] as string);
    if (ws.some((w, j) => /^(?:-o|--output)$/.test(ws[j - 1] ?? '') && w.replace(/^.*\//, '') === name)) return true;
  }
  return false;
}

export function byRole(found: Finding, lines: readonly string[], excerpt: Window, bodyAt: BodyAt): Finding | undefined {
  const end = Math.min(lines.length, excerpt.end_line);
  const msgAt = found.message_line - 1;
  const step = stepAbove(bodyAt, Math.min(end, msgAt + 1) - 1, () => true);
  if (!step) return undefined;
  const a = step.index + 1;
  const b = Math.max(end, msgAt + 1);
  const tool = step.command.program;
  if (step.link) {
    const k = firstLine(bodyAt, a, b, (t) => ERROR_WORDS.test(t) || /\bcould not\b/i.test(t));
    return k === undefined ? undefined : settle(found, 'link-error', k, bodyAt(k), tool);
  }
  if (step.test || failureList(bodyAt, a, b)) {
    // The runner's report of the test named in the excerpt reads on below it, up to the step's next command.
    let reach = b;
    while (reach < Math.min(lines.length, msgAt + 30) && !COMMAND_LINE.test(bodyAt(reach).trim())) reach++;
    return testVerdict(found, bodyAt, a, reach, tool);
  }
  if (step.lint) {
    // A place in a file the command checks; a line carrying the rule's id; an error-marked line.
    for (let k = a; k < b; k++) {
      const p = placeIn(bodyAt(k));
      if (p && namesFile(step.command.text, p.file) && p.message !== '') return settle(found, 'lint', k, bodyAt(k), tool, located(p, k));
    }
    // A line that names, first, a file the command checks (`unit.service: Command ... is not executable`).
    const named = firstLine(bodyAt, a, b, (t) => { const f = /^([\w.@-]+\.[A-Za-z]\w{0,7}): \S/.exec(t)?.[1]; return f !== undefined && namesFile(step.command.text, f) && (ERROR_WORDS.test(t) || /\bnot\b|\bno such\b|\bunknown\b|\bmissing\b/i.test(t)); });
    if (named !== undefined) return settle(found, 'lint', named, bodyAt(named).trim(), tool);
    const k = firstLine(bodyAt, a, b, (t) => /\S\s[[(][a-z][\w-]*[a-z][\])]$/.test(t)) ?? firstLine(bodyAt, a, b, (t) => /^(?:[✖×✘]|error\b|ERROR\b)|^[\w.+-]+: \S+:\d+(?::\d+)?: (?:error|ERROR):\s/.test(t));
    // A checker's error about its own setup (a rule, plugin or standard it was told to load does not exist)
    // says nothing of the checked files: no lint finding (`ERROR: Referenced sniff "X" does not exist`).
    if (k !== undefined && CHECKER_SETUP.test(bodyAt(k))) return undefined;
    return k === undefined ? undefined : settle(found, 'lint', k, bodyAt(k).trim().replace(/^\^\s+/, ''), tool);
  }
  if (step.translate) {
    // A resolver's or a fetch's error under a build driver is no rejection of the input (a version, a package, a download).
    const k = firstLine(bodyAt, a, b, (t) => ERROR_WORDS.test(t) && (!/\b(?:warning|warn)\b/i.test(t) || /\berror\b/i.test(t)));
    if (k === undefined || /\b(?:versions?|dependenc\w*|packages?|registry|download\w*|fetch\w*|resol\w*)\b/i.test(bodyAt(k))) return undefined;
    // Nor is a failure to write its output (a full or read-only volume), nor a key or identity that did not
    // match (a decryption, a signature): the input was not what was refused.
    if (/\b(?:can'?t|cannot|could not|unable to|failed to) (?:write|create|open) (?:the |an? )?(?:output|destination|target)\b|\bwrite error\b|\b(?:identit(?:y|ies)|private key|secret key|passphrase|password)\b/i.test(bodyAt(k))) return undefined;
    // A heading that only names the place (`Parse error at src/x.js:7,3`) over the error's own words.
    if (/^\w[\w ]*\berror at \S+$/i.test(bodyAt(k).trim())) {
      const detail = firstLine(bodyAt, k + 1, Math.min(b, k + 5), (t) => /^(?:ERROR|Error|error):\s+\S/.test(t));
      if (detail !== undefined) return settle(found, 'compile-error', detail, bodyAt(detail).trim().replace(/^ERROR:\s+/, ''), tool, located(placeIn(bodyAt(k)), k));
    }
    let place: FindingLocation | undefined;
    for (let j = k; j < Math.min(b, k + 6) && !place; j++) place = located(placeIn(bodyAt(j)), j);
    return settle(found, 'compile-error', k, bodyAt(k), tool, place);
  }
  // A program this step built (`csc x.scm -o app`, then `./app`): its own error is a run-time error.
  if (builtAbove(bodyAt, step.index, step.command)) {
    const k = firstLine(bodyAt, a, b, (t) => /^(?:Error|ERROR|error|Fatal|FATAL|fatal|panic|Uncaught)\b(?: \w+)?:\s*\S/.test(t));
    if (k !== undefined) return settle(found, 'runtime-exception', k, bodyAt(k), tool, found.location);
  }
  // An input file's line rejected, or the script's own run-time error at its line.
  for (let k = a; k < b; k++) {
    const p = placeIn(bodyAt(k));
    if (!p || !namesFile(step.command.text, p.file)) continue;
    if (REJECTED.test(p.message)) return settle(found, 'compile-error', k, bodyAt(k), tool, located(p, k));
    if (step.script && RUNTIME_WORDS.test(p.message)) return settle(found, 'runtime-exception', k, bodyAt(k), tool, located(p, k));
  }
  // An error that names the exception's type and place over its message (`Execution error (ClassCastException) at f (x.clj:14).`).
  const k = firstLine(bodyAt, a, b, (t) => /\b(?:[Ee]rror|[Ee]xception)\b.*\((\w+(?:Exception|Error))\)/.test(t));
  if (k !== undefined && step.script) {
    const t = bodyAt(k).trim();
    const type = /\((\w+(?:Exception|Error))\)/.exec(t)?.[1] as string;
    const ref = /\(((?:[\w.~-]+\/)*[\w.~-]+\.\w+):(\d+)\)\.?$/.exec(t);
    const next = bodyAt(k + 1).trim();
    const detail = /[.:]$/.test(t) && next !== '' && !/^\s*at\s/.test(next) ? k + 1 : k;
    return settle(found, 'runtime-exception', detail, bodyAt(detail), tool, ref ? { file: ref[1] as string, line: Number(ref[2]), log_line: k + 1 } : undefined, { exception: type });
  }
  return undefined;
}
