/**
 * The finding of a failure excerpt (issue 25, CONTRACT section 6): what the excerpt's lines
 * establish, and nothing more. Pure and bounded: it reads the excerpt's lines (at most 200) and up
 * to 40 lines before them (where a test runner names the test), so analysing a log with findings
 * costs what the analyzer costs plus a constant per excerpt.
 *
 * How a class is decided (each by its own evidence, see rules.ts for the line shapes):
 * - a rule of rules.ts matched a line: its class (lowest priority wins: out of memory, a full
 *   disk, a timeout, a lost agent or a CI script error over what they caused; compiler, linker
 *   and linter diagnostics; network over the resolver that could not reach its repository);
 * - else an assertion in the window (AssertionError, expected/actual, `assert ... failed`,
 *   jest's `expect(...)`, Go's `got/want`) with a test: `test-assertion`;
 * - else an exception, panic or fatal signal: `test-error` when a test runner shows a test
 *   failing around it, `runtime-exception` otherwise;
 * - else a failing test named without either: `test-error` with low confidence;
 * - else `unknown`, with the line that looked most like an error as the message.
 */
import type { Finding, FindingClass, FindingLocation, LogExcerpt } from '../../protocol/types.js';
import { framesOf, ownStack, type Trace } from './frames.js';
import { chainOrder, continued } from './continued.js';
import { headingWindow } from './headings.js';
import { earlierCause, missingName } from './cause.js';
import { beforeExitTrap } from './exitTrap.js';
import { MAKE_VERDICT, ownDiagnostic, recipeDiagnostic } from './ownWords.js';
import { automakeSection, ctestWindow, harnessFinding, makeSignalBelow, testProgramKilled, withCtestVerboseCheck } from './harness.js';
import { diffPlace, endingBelow, ruleLineAbove, samePlaceAbove } from './back.js';
import { cFamilyCompiler } from './compilerName.js';
import { RULES, SUMMARY_LINE, nearPlace, type Rule, type RuleHit } from './rules.js';
import { ERRORISH, genericFinding, lastCommandIn, locatedIn, mostErrorLike, raceReportAbove, SILENT_CHECK, silentCheck, STEP_START, substitutionFailed, tapFailureAt } from './generic.js';
import { GENERIC_RULES, activeRules, isGenericOnly, onGeneralEvidence } from './ablation.js';
import { generalFinding } from './evidence.js';
import { goCompilerSaid } from './goLinters.js';
import { FAMILY_STEPS, FINDING_STEPS, stepped } from './steps.js';
import { isTestCheckPanic, raisedClass, runningTestIn } from './tests.js';
import { GRAMMAR_TOOLS, reportAround } from './uncaught.js';
import { withChildReport, withChildStderr } from './childStderr.js';
import { PatternGates } from '../log/gates.js';
import { stepExitStatus } from '../log/stepExit.js';
import { bodies, bodyOf, lineBody, messageText } from './body.js';
import { matchOutsidePaths } from './pathWords.js';
import { goTestMessageAbove, symbolOf } from './messages.js';
import { arrowBelow, headingFile } from './windowReaders.js';
import { arbitrated } from './arbiter.js';
import { windowReads } from './windowReads.js';
import { withMaskedStage } from './pipeMasked.js';
import { failedOutputFinding } from './failedOutput.js';
import { goVerboseStart } from './goFar.js';
import { goTestBinaryRan, poisoningPanic, shouldPanicVerdict, withoutCaughtImports } from './aftermath.js';

export { FINDING_CLASSES } from '../../protocol/types.js';
export type { Finding, FindingClass } from '../../protocol/types.js';

const MAX_WINDOW = 200;
const BEFORE = 40;
const AFTER = 20;
const TRACEBACK_ON = 400; // how far a traceback cut by its window is read on for its exception line

interface Hit {
  rule: Rule;
  index: number;
  read: RuleHit;
}

/** Each log line's rule match, once per log and rule set (ablation.ts): excerpt windows overlap, and a weak finding is read again on a wider window. */
const RULE_CACHE = new WeakMap<readonly Rule[], WeakMap<readonly string[], Map<number, Omit<Hit, 'index'> | null>>>();

/**
 * Which rules of a rule set may match a line (core/log/gates.ts): the others are not tried. One
 * per rule set: the finding switches between RULES and the general rules (ablation.ts) within
 * each excerpt, and rebuilding the gates at each switch cost ~6 of ~9 CPU s over the 397 LogChunks logs.
 */
const RULE_GATES = new WeakMap<readonly Rule[], { count: number; gates: PatternGates }>();
function gatesOf(rules: readonly Rule[]): PatternGates {
  let entry = RULE_GATES.get(rules);
  if (entry === undefined || entry.count !== rules.length) {
    entry = { count: rules.length, gates: new PatternGates(rules.map((r) => r.re)) };
    RULE_GATES.set(rules, entry);
  }
  return entry.gates;
}
// Made at load: their gates come from the table `npm run gates` writes (gates.ts).
gatesOf(RULES);
gatesOf(GENERIC_RULES);

function ruleOf(line: string, below: (k: number) => string): Omit<Hit, 'index'> | null {
  if (line === '' || /^\s+at\s/.test(line)) return null;
  const rules = activeRules();
  const gates = gatesOf(rules);
  gates.read(line);
  const candidates = gates.candidates();
  for (let c = 0; c < candidates.length; c++) {
    const k = candidates[c]!;
    const rule = rules[k]!;
    const first = rule.re.exec(line);
    const m = first && matchOutsidePaths(rule.re, line, first);
    if (!m) continue;
    const under = rule.below ? [1, 2, 3].map((k) => (rule.below as RegExp).exec(below(k))).find((u) => u !== null) : undefined;
    if (rule.below && !under) continue;
    const read = rule.read ? rule.read(m, line, under ?? undefined) : rule.tool ? { tool: rule.tool } : {};
    const near = rule.near ? nearPlace(rule.near, below) : undefined;
    if (rule.near?.required && !near) continue;
    return { rule, read: near && !read.file ? { ...read, ...near } : read };
  }
  // A Jenkins parallel branch prefixes its lines with the branch's name (`[i386] src/a.c:8:1: error: ...`):
  // the tool's line is after it. Maven's and other tools' own `[LEVEL]` marks are not branch names.
  const branch = /^\[([\w .:/-]{1,40})\] (?=\S)/.exec(line);
  if (branch && !/^(?:ERROR|INFO|WARNING|WARN|DEBUG|error|info|warning|warn|debug|Pipeline|\d[\d:.]*)$/.test(branch[1] as string)) return ruleOf(line.slice(branch[0].length), below);
  return null;
}

/**
 * The rule match of line i of `lines` (its body, with the bodies below it for rules that read
 * them), once per log: excerpt windows overlap, and `readBack` reads the lines above them.
 */
function ruleAt(lines: readonly string[], i: number): Omit<Hit, 'index'> | null {
  const rules = activeRules();
  let perLog = RULE_CACHE.get(rules);
  if (!perLog) RULE_CACHE.set(rules, (perLog = new WeakMap()));
  let cache = perLog.get(lines);
  if (!cache) {
    cache = new Map();
    perLog.set(lines, cache);
  }
  let hit = cache.get(i);
  if (hit === undefined) {
    hit = ruleOf(lineBody(lines, i), (k) => lineBody(lines, i + k));
    cache.set(i, hit);
  }
  return hit;
}

/** The finding from the tool's own error line above a runner's summary or an exit line, in the same step (back.ts). */
function readBack(lines: readonly string[], excerpt: Pick<LogExcerpt, 'start_line' | 'end_line'>, acrossCommands: boolean, reach?: number): Finding | undefined {
  const back = ruleLineAbove(lines, excerpt.start_line - 1, bodyOf, (k) => isStrongRule(ruleAt(lines, k)), acrossCommands, reach);
  const found = back === undefined ? undefined : findingIn(lines, { start_line: back + 1, end_line: excerpt.end_line });
  return found && found.class !== 'unknown' ? found : undefined;
}

function isStrongRule(hit: Omit<Hit, 'index'> | null): boolean {
  return hit !== null && !hit.rule.framing && hit.rule.priority < 60;
}

/** The best rule hit of the window: lowest priority, then the first line; framing lines only when nothing else. */
function bestHits(body: readonly string[], lines: readonly string[], start: number): Hit[] {
  // body[i] is bodyOf(lines[start + i]): the same match as ruleAt's.
  const hits: Hit[] = [];
  for (let i = 0; i < body.length; i++) {
    const hit = ruleAt(lines, start + i);
    if (hit) hits.push({ ...hit, index: i });
  }
  return withoutCaughtImports(hits, body).sort((a, b) => Number(a.rule.framing ?? false) - Number(b.rule.framing ?? false) || a.rule.priority - b.rule.priority || (a.rule === b.rule ? chainOrder(body, a.index, b.index) : 0) || a.index - b.index);
}

/** A C/C++ formatter's or checker's own command line, as make echoes a recipe (no `+ `). */
const CHECKER_PROGRAM = /^(?:\S*\/)?(?:clang-format|clang-tidy|cppcheck|cpplint)(?:-\d+)?\s/;

const TOOL_OF_TRACE: Record<Trace['kind'], string | undefined> = { python: 'python', jvm: 'java', node: 'node', go: 'go', rust: 'rust', ruby: 'ruby', native: undefined, dotnet: 'dotnet', ...GRAMMAR_TOOLS };

/** The finding of one excerpt of `raw` (the cleaned log, index 0 = line 1), then the steps (steps.ts). Never throws; no evidence: `unknown`, the most error-like line. */
export function findingOf(raw: readonly string[], asked: Pick<LogExcerpt, 'start_line' | 'end_line'>): Finding {
  // node --test's report of a test file's child: its `# ` lines read as the child printed them, a verdict under it read with it (childStderr.ts).
  const lines = withChildStderr(raw), excerpt = withChildReport(lines, asked);
  const bodyAt = (i: number): string => lineBody(lines, i);
  // A later step's failure on what an earlier stage, its failure hidden by `| tee`, should have made: that stage's error (pipeMasked.ts).
  return withMaskedStage(stepped(FINDING_STEPS, findingOfAny(lines, excerpt), { lines, excerpt, bodyAt }), bodyAt, (w) => findingOf(raw, w));
}
function findingOfAny(lines: readonly string[], excerpt: Pick<LogExcerpt, 'start_line' | 'end_line'>): Finding {
  const bodyAt = (i: number): string => lineBody(lines, i);
  const general = (): Finding => generalFinding(findingBase(lines, excerpt), lines, excerpt, bodyAt);
  if (isGenericOnly()) return general();
  // The tool families' refinements of the rules' finding (steps.ts).
  const family = stepped(FAMILY_STEPS, findingBase(lines, excerpt), { lines, excerpt, bodyAt });
  // A family rule on another tool's output: the general evidence where it contradicts it (arbiter.ts).
  if (family.class !== 'unknown') return arbitrated(family, () => onGeneralEvidence(general), bodyAt);
  // No family rule settled it: what general evidence alone establishes (evidence.ts).
  const found = onGeneralEvidence(general);
  return found.class === 'unknown' && (family.location !== undefined || found.location === undefined) ? family : found;
}
function findingBase(lines: readonly string[], excerpt: Pick<LogExcerpt, 'start_line' | 'end_line'>): Finding {
  // What an EXIT trap printed after the failure is its aftermath: the failed command's output says why (exitTrap.ts).
  const trapped = beforeExitTrap(excerpt.start_line - 1, (i) => lineBody(lines, i));
  // A panic on a poisoned lock is the aftermath of the panic that poisoned it (aftermath.ts).
  const poisoner = trapped ? undefined : poisoningPanic(excerpt.start_line, excerpt.end_line, (i) => lineBody(lines, i));
  // A `#[should_panic]` test's panic is expected: libtest's note below it on the message is the verdict (aftermath.ts).
  const verdict = trapped || poisoner !== undefined ? undefined : shouldPanicVerdict(excerpt.start_line, excerpt.end_line, (i) => lineBody(lines, i));
  const cause = trapped ? findingIn(lines, trapped) : poisoner !== undefined ? findingIn(lines, { start_line: poisoner + 1, end_line: poisoner + 2 }) : verdict !== undefined ? findingIn(lines, { start_line: excerpt.start_line, end_line: verdict + 1 }) : undefined;
  if (cause && cause.class !== 'unknown') return cause;
  // An excerpt that is part of a runtime's report of an uncaught error reaching outside it (only its frames, or its
  // head without them): the whole report, whose head the runtime's grammar knows (uncaught.ts).
  const report = reportAround((i) => lineBody(lines, i), excerpt.start_line - 1, excerpt.end_line - 1, lines.length);
  const whole = report && findingIn(lines, { start_line: Math.min(report.start, excerpt.start_line - 1) + 1, end_line: Math.max(report.end, excerpt.end_line - 1) + 1 });
  if (report && whole && whole.class !== 'unknown' && (whole.message_line === report.head + 1 || (whole.class === 'network' && whole.evidence.includes(report.head + 1)))) return whole;
  let found = findingIn(lines, excerpt);
  // A step's exit 126/127 (cannot execute, not found) is the consequence: the shell's own word above it says why.
  const status = stepExitStatus(found.message.trim());
  const exitOnly = status === 126 || status === 127;
  const why = exitOnly ? readBack(lines, excerpt, false) : undefined;
  if (why && why.message_line < found.message_line) return why;
  // A header, module or crate not found that an earlier fetch failed to bring: that failure is the cause (cause.ts).
  const missing = /^(?:compile-error|link-error|dependency-resolution)$/.test(found.class) ? missingName(found.message) : undefined;
  const fetchCause = missing ? earlierCause(found.message_line - 1, missing, (i) => lineBody(lines, i), (i) => (isStrongRule(ruleAt(lines, i)) ? ruleAt(lines, i)?.rule.cls : undefined)) : undefined;
  if (fetchCause !== undefined) return findingIn(lines, { start_line: fetchCause + 1, end_line: fetchCause + 1 });
  // A script's own `exit 1`: what its check printed above says why (back.ts).
  const scriptExit = /^\+ exit [1-9]\d*$/.test(lineBody(lines, excerpt.end_line - 1).trim()) ? readBack(lines, { start_line: excerpt.end_line, end_line: excerpt.end_line }, true) : undefined;
  if (scriptExit) return scriptExit;
  // A compiler's error above the excerpt, in the same run, is its first one; a header it cannot find
  // after pkg-config or configure said its package is missing is that package's.
  // A C++ template's error prints a long list of candidate notes (hundreds of lines) before the next error.
  const firstError = found.class === 'compile-error' ? readBack(lines, excerpt, false, 400) : undefined;
  if (firstError && (firstError.class === 'dependency-resolution' ? /fatal error: \S+: No such file or directory/.test(found.message) : firstError.class === 'compile-error')) return firstError;
  // The compiler's first word on the same place, just above its error (Perl's hint over its `syntax error`).
  const hint = found.class === 'compile-error' && found.location?.line !== undefined ? samePlaceAbove(lines, found.message_line - 1, { file: found.location.file, line: found.location.line }, locatedIn, bodyOf) : undefined;
  if (hint !== undefined) found = { ...found, message: messageText(lineBody(lines, hint)), message_line: hint + 1, evidence: [hint + 1, ...found.evidence] };
  // A test the race detector failed: its report above says what raced, and where.
  const race = found.class === 'test-error' && found.confidence === 'low' ? raceReportAbove(lines, bodies(lines, excerpt.start_line - 1, excerpt.end_line), excerpt.start_line) : undefined;
  if (race) found = { ...findingIn(lines, { start_line: race.start, end_line: race.end }), class: 'test-error', ...(found.tool ? { tool: found.tool } : {}), ...(found.test ? { test: found.test } : {}) };
  const signalOnly = found.class === 'runtime-exception' && /^SIG|^Aborted/.test(found.exception ?? '') && excerpt.end_line - excerpt.start_line <= 2;
  // A test's timeout named above its pointer (vitest's `Hook timed out` over `❯ file:line:col`) reads on for the place.
  const placeBelow = found.class === 'timeout-aborted' && found.test !== undefined && found.location === undefined;
  if (found.class !== 'unknown' && found.confidence !== 'low' && !signalOnly && !placeBelow) return found;
  // A runner's banner cut from its detail (cargo's `---- t stdout ----` over a blank line): read
  // on a little, up to the next summary line, and keep what that establishes if it is more.
  // Only a window that names a test or ends on a runner's banner is worth reading on.
  let end = excerpt.end_line;
  const lastLine = lineBody(lines, excerpt.end_line - 1).trim();
  // A Python traceback cut before its exception line reads on too.
  const tracebackCut = found.class === 'unknown' && /^Traceback \(most recent call last\):/.test(found.message);
  if (found.test || tracebackCut || /^-{3,} \S+ (?:stdout|stderr) -{3,}$|^_{3,} .+ _{3,}$|^● |^--- FAIL|^=+ FAILURES =+$|^failures:$/.test(lastLine)) {
    const limit = Math.min(lines.length, excerpt.end_line + AFTER);
    while (end < limit && !SUMMARY_LINE.test(lineBody(lines, end).trim())) end++;
  }
  // A Python traceback longer than the window ends on its exception line, its first unindented line: read on to it (t28).
  if (found.class === 'unknown' && end === excerpt.end_line && /^Traceback \(most recent call last\):$/.test(lineBody(lines, excerpt.start_line - 1).trim())) {
    let k = excerpt.end_line;
    const limit = Math.min(lines.length, excerpt.end_line + TRACEBACK_ON);
    while (k < limit && /^(?:\s|$)/.test(lineBody(lines, k))) k++;
    if (k < limit) end = k + 1;
  }
  const longer = end === excerpt.end_line ? found : findingIn(lines, { start_line: excerpt.start_line, end_line: end });
  const best = longer.class !== 'unknown' && (found.class === 'unknown' || longer.confidence !== 'low') ? longer : found;
  // A fatal signal alone (`Aborted (core dumped)`) may have its reason just above (`std::bad_alloc`).
  const bareSignal = best.class === 'runtime-exception' && /^SIG|^Aborted/.test(best.exception ?? '') && excerpt.end_line - excerpt.start_line <= 2;
  const above = best.class === 'unknown' || best.confidence === 'low' ? headerAbove(lines, excerpt) : undefined;
  if (above && (best.class === 'unknown' || above.confidence !== 'low')) return above;
  const fromBack = best.class === 'unknown' ? readBack(lines, excerpt, false) : undefined;
  if (fromBack) return fromBack;
  // Output that says nothing, and the step's exit says how it ended (a time limit, a kill).
  const ending = best.class === 'unknown' ? endingBelow(lines, excerpt.end_line, bodyOf, (k) => /^(?:timeout-aborted|out-of-memory)$/.test(ruleOf(lineBody(lines, k), (j) => lineBody(lines, k + j))?.rule.cls ?? '')) : undefined;
  if (ending !== undefined) return findingIn(lines, { start_line: ending + 1, end_line: ending + 1 });
  if (best.class !== 'unknown' && !bareSignal) return best;
  // Jenkins' verdicts alone (a failed branch, skipped stages, the exit code): the failed step's last output (failedOutput.ts).
  const failedOutput = bareSignal ? undefined : failedOutputFinding(lines, excerpt, (w) => findingIn(lines, w));
  if (failedOutput) return failedOutput;
  // An exit status alone (`ERROR: script returned exit code 255`): the step's last lines before
  // it may say why (`Timeout, server 127.0.0.1 not responding.`), back to the command.
  let start = excerpt.start_line;
  let said = 0;
  while (start > 1 && said < 5 && excerpt.start_line - start < 30 && !/^(?:\+ |\$ )/.test(lineBody(lines, start - 2).trim())) {
    start--;
    // Jenkins' own pipeline lines between the step's output and its exit say nothing.
    if (!/^\[Pipeline\]/.test(lineBody(lines, start - 1).trim())) said++;
  }
  // Only an excerpt that is a verdict alone (an exit status, Jenkins' ending) looks back.
  if (start === excerpt.start_line || excerpt.end_line - excerpt.start_line > 3 || (!bareSignal && !SUMMARY_LINE.test(best.message) && !/exit (?:code|status)|returned \d+/i.test(best.message))) return best;
  const earlier = findingIn(lines, { start_line: start, end_line: excerpt.end_line });
  if (bareSignal) return earlier.class !== 'unknown' && earlier.class !== 'runtime-exception' ? earlier : best;
  if (earlier.class !== 'unknown') return earlier;
  // Still unknown: a tool's own error line above the CI's exit line says more than the exit does
  // (`make: *** [Makefile:6: check] Error 1` over `Process completed with exit code 2.`).
  const ciExit = /exit (?:code|status)|returned \d+|^Finished: |marked build as failure/i;
  if (ciExit.test(best.message) && earlier.message_line !== best.message_line && ERRORISH.test(earlier.message) && !ciExit.test(earlier.message)) return earlier;
  // Else the failed command's own diagnostic, by the shell tools' grammar (ownWords.ts).
  // make's verdict alone: the recipe command's own diagnostic above it (ownWords.ts), not make's wrapper.
  const own = ciExit.test(best.message)
    ? ownDiagnostic(best.message_line - 1, (i) => lineBody(lines, i))
    : MAKE_VERDICT.test(best.message)
      ? recipeDiagnostic(best.message_line - 1, (i) => lineBody(lines, i))
      : undefined;
  return own === undefined ? best : findingIn(lines, { start_line: own + 1, end_line: own + 1 });
}

/** An ANSI colour residue the cleaner leaves (`ESC(B`) and the diff marks of a formatter's output. */
const DIFF_LINE = /^(?:\x1b\(B)?(?:\x1b\[[\d;]*m)*(?:[ +-]|$)/;

/**
 * An unknown window whose header is above it: a formatter's diff under rustfmt's `Diff in
 * file:line:` (the excerpt holds only the changed lines), ctest's closing summary (`Errors while
 * running CTest`, `The following tests FAILED:`) whose failed tests' result lines are further up, or
 * a `bash -e` script that stopped on an arithmetic command (`+ (( n++ ))`) that printed nothing:
 * an arithmetic value of 0 is exit status 1, and `-e` ends the script there.
 */
function headerAbove(lines: readonly string[], excerpt: Pick<LogExcerpt, 'start_line' | 'end_line'>): Finding | undefined {
  const first = excerpt.start_line - 1;
  const heading = headingWindow((i) => lineBody(lines, i), first);
  const headed = heading ? findingIn(lines, heading) : undefined;
  if (headed && headed.class !== 'unknown') return headed;
  // Node (>= 12) ends an uncaught error with its version (`Node.js v20.20.2`): the error is above it,
  // back to the step's command (a short stack may leave the footer ranked over the error).
  if (/^Node\.js v\d+\.\d+\.\d+$/.test(lineBody(lines, first).trim())) {
    let k = first - 1;
    while (k > 0 && first - k < BEFORE && !/^(?:\+ |\$ )/.test(lineBody(lines, k - 1).trim())) k--;
    const found = findingIn(lines, { start_line: k + 1, end_line: excerpt.end_line });
    if (found.class !== 'unknown') return found;
  }
  // rustfmt: back over the diff to its header.
  for (let k = first - 1; k >= Math.max(0, first - BEFORE); k--) {
    const t = lineBody(lines, k);
    if (/^Diff in \S+:\d+:\s*$/.test(t)) return findingIn(lines, { start_line: k + 1, end_line: excerpt.end_line });
    if (!DIFF_LINE.test(t) || t === '') break;
  }
  const body = bodies(lines, first, excerpt.end_line);
  if (body.some((l) => /^Errors while running CTest$|^The following tests FAILED:$/.test(l.trim()))) {
    const window = ctestWindow((i) => lineBody(lines, i), first, excerpt.end_line);
    // Read as any excerpt is (the test's own output under its result line), the general evidence too.
    const found = window ? findingOfAny(lines, window) : undefined;
    if (found && window) return found.class === 'unknown' ? undefined : withCtestVerboseCheck(found, (i) => lineBody(lines, i), window.start_line);
  }
  for (let k = first; k < excerpt.end_line; k++) {
    const section = automakeSection((i) => lineBody(lines, i), k);
    if (section) return harnessFinding(findingIn(lines, section), section.name, k + 1);
  }
  // bash -e on an arithmetic command: the command is the last line before the verdict, either
  // above a verdict excerpt or the excerpt's own last line (the analyzer's "last command before
  // the failure", when the trace stops right at the step's exit).
  const own = SILENT_CHECK.exec(lineBody(lines, excerpt.end_line - 1).trim());
  const verdict = lineBody(lines, excerpt.end_line).trim();
  if (own && (SUMMARY_LINE.test(verdict) || /exit (?:code|status) 1\b/.test(verdict))) return silentCheck(lineBody(lines, excerpt.end_line - 2), excerpt.end_line - 1, own[1] as string, excerpt.end_line + 1);
  if (excerpt.end_line - excerpt.start_line <= 3 && body.some((l) => SUMMARY_LINE.test(l.trim()) || /exit (?:code|status) 1\b/.test(l))) {
    for (let k = first - 1; k >= Math.max(0, first - 9); k--) {
      const t = lineBody(lines, k).trim();
      if (/^\[Pipeline\]/.test(t)) continue;
      // `+ todos=0` over `++ grep ... | wc -l`: an assignment cannot fail, its command substitution
      // did (a `grep` that matched nothing under `pipefail`), silently, and `-e` ended the script.
      if (/^\+ [A-Za-z_]\w*=\S*$/.test(t) && /^\+\+ \S/.test(lineBody(lines, k - 1).trim())) return substitutionFailed(lines, k, excerpt);
      const arith = SILENT_CHECK.exec(t);
      if (!arith) break;
      return silentCheck(lineBody(lines, k - 1), k, arith[1] as string, excerpt.start_line);
    }
  }
  return undefined;
}

function findingIn(lines: readonly string[], excerpt: Pick<LogExcerpt, 'start_line' | 'end_line'>): Finding {
  const start = goVerboseStart(Math.max(0, excerpt.start_line - 1), (i) => lineBody(lines, i));
  const end = Math.min(lines.length - 1, excerpt.end_line - 1, start + MAX_WINDOW - 1);
  // What does not depend on the rules is read once per window (windowReads.ts).
  const window = windowReads(lines, start, end);
  const { from, before, body, all, summary, assertion, raised, goFirst, goAnchor, traces } = window;
  const logLine = (i: number): number => start + i + 1;

  const hits = bestHits(body, lines, start);
  const best = hits[0];
  const named = window.named(before.length + (assertion?.index ?? raised?.index ?? (best && !best.rule.framing && best.rule.priority < 60 ? best.index : (goAnchor ?? body.length))));
  const test = named ? { name: named.name, log_line: from + named.index + 1 } : undefined;
  const inTest = test !== undefined || window.inTest();

  let cls: FindingClass = 'unknown';
  let confidence: Finding['confidence'] = 'low';
  let messageIndex: number | undefined;
  let tool: string | undefined;
  const extra: Partial<Finding> = {};
  const evidence: number[] = [];
  let place: FindingLocation | undefined;

  const strong = best && !best.rule.framing && (best.rule.priority < 60) ? best : undefined;
  const goTestBinary = goTestBinaryRan([...body, ...summary]);
  // A Go test's own message (`x_test.go:12: got 1, want 2`) under its `--- FAIL:`.
  const goTest = test && named?.tool === 'go test' ? (goFirst ?? goTestMessageAbove(before, test.name)) : undefined;

  if (strong) {
    cls = strong.rule.cls;
    confidence = strong.rule.confidence;
    messageIndex = strong.index;
    tool = strong.read.tool === 'gcc' ? (cFamilyCompiler(start + strong.index, lines.length, (k) => lineBody(lines, k)) ?? 'gcc') : strong.read.tool;
    for (const k of ['code', 'symbol', 'dependency', 'host', 'exception'] as const) if (strong.read[k] !== undefined) extra[k] = strong.read[k];
    // The rule's line names the test itself (a runner's timeout of one test).
    if (strong.read.test && !test) extra.test = { name: strong.read.test, log_line: logLine(strong.index) };
    if (cls === 'network') {
      // pip and Maven retry before they give up: the network error is the message (the cause),
      // the resolver's verdict names the tool and what it could not fetch.
      const verdict = hits.find((h) => h.rule.cls === 'dependency-resolution');
      if (verdict) {
        evidence.push(logLine(verdict.index));
        tool = verdict.read.tool ?? tool;
        if (verdict.read.dependency) extra.dependency = verdict.read.dependency;
      }
      if (!extra.host) {
        const host = hits.map((h) => h.read.host).find(Boolean);
        if (host) extra.host = host;
      }
      // curl names no host in its error (`curl: (28) Operation timed out`): the command it ran does;
      // pip's retries name none either: its `Looking in indexes: https://...` line does.
      if (!extra.host) {
        const command = [...before].reverse().find((l) => /^(?:\+ |\$ )/.test(l.trim()));
        const index = [...before, ...body.slice(0, strong.index)].reverse().find((l) => /^(?:Looking in indexes|Downloading from \S+|Downloading|Fetching|GET|Get|Cloning into \S+ from):? \S*https?:\/\//.test(l.trim()));
        const host = [command, index].map((l) => (l ? /https?:\/\/([\w.-]+)/.exec(l)?.[1] : undefined)).find(Boolean);
        if (host) extra.host = host;
      }
    }
    // A refused credential: the host is the one the command talked to.
    if (cls === 'permission-credentials' && !extra.host) {
      const command = [...before].reverse().find((l) => /^(?:\+ |\$ )/.test(l.trim()));
      const host = command && /\b(?:curl|wget|http|https|git|docker|npm|twine|gh)\b/.test(command) ? /https?:\/\/(?:[^@/\s]+@)?([\w.-]+)/.exec(command)?.[1] : undefined;
      if (host) extra.host = host;
    }
    if (cls === 'compile-error' && tool === 'rustc') {
      const arrow = arrowBelow(body, strong.index);
      if (arrow) place = { file: arrow.file, line: arrow.line, column: arrow.column, log_line: logLine(arrow.index) };
    }
    if (cls === 'lint' && strong.read.line !== undefined && !strong.read.file) {
      const file = headingFile(all, before.length + strong.index);
      if (file) place = { file, line: strong.read.line, ...(strong.read.column ? { column: strong.read.column } : {}), log_line: logLine(strong.index) };
    }
    const diff = cls === 'lint' && !strong.read.file ? diffPlace(body, strong.index) : undefined;
    if (diff && !place) place = { file: diff.file, line: diff.line, log_line: logLine(diff.index) };
    if (!place && strong.read.file) {
      place = { file: strong.read.file, ...(strong.read.line ? { line: strong.read.line } : {}), ...(strong.read.column ? { column: strong.read.column } : {}), log_line: logLine(strong.index) };
    }
    if (cls === 'compile-error' || cls === 'link-error') {
      const symbol = extra.symbol ?? symbolOf(body, strong.index);
      if (symbol) extra.symbol = symbol;
    }
    // An exception a rule reads (C++'s `terminate called after throwing`, a signal) in a test the runner names as
    // failing is an error raised while testing (the taxonomy's test error), as a traceback in a test is.
    // So is one a test program make ran died of (`./test_ring`, its `terminate called ...`, `make: *** [check] Aborted`).
    if (cls === 'runtime-exception' && (test !== undefined || testProgramKilled([...all, ...summary], makeSignalBelow([...all, ...summary], before.length + strong.index)))) cls = 'test-error';
    // A missing command or a wrong version met inside a test is still that, with the test named.
  } else if (assertion && (inTest || assertion.inTest || assertion.expected !== undefined || assertion.actual !== undefined || /XCTAssert|AssertionFailedError|ComparisonFailure|^expect\(/.test(assertion.text))) {
    cls = 'test-assertion';
    confidence = 'high';
    messageIndex = assertion.index;
    if (assertion.exception) extra.exception = assertion.exception;
    if (assertion.expected !== undefined) extra.expected = assertion.expected;
    if (assertion.actual !== undefined) extra.actual = assertion.actual;
    // C's assert() in a test program names the test's function.
    if (assertion.inTest && assertion.function && !test) extra.test = { name: assertion.function, log_line: logLine(assertion.index) };
  } else if (goTest?.assertion) {
    cls = 'test-assertion';
    confidence = 'medium';
    messageIndex = goTest.index;
    if (goTest.expected !== undefined) extra.expected = goTest.expected;
    if (goTest.actual !== undefined) extra.actual = goTest.actual;
  } else if (raised) {
    // A Go test binary's panic before any test (in a package's init): go test's `FAIL\tpkg\t0.004s` below it.
    // A runtime's grammar (uncaught.ts) says when the interpreter refused the code before it ran, and when a test
    // framework reported a test's check (EUnit's `?assertEqual`) rather than an error raised in the test.
    const grammar = raised.grammar;
    const check = grammar?.check ?? isTestCheckPanic(body, raised);
    cls = raisedClass(raised) ?? (inTest || grammar?.inTest || (raised.runtime === 'go' && goTestBinary) ? (check ? 'test-assertion' : 'test-error') : 'runtime-exception');
    confidence = cls === 'test-assertion' && !grammar ? 'medium' : 'high';
    messageIndex = raised.index;
    if (!grammar?.fetched) extra.exception = raised.exception;
    if (grammar?.unavailable) extra.dependency = grammar.unavailable;
    // R's `cannot open URL`: the message is R's warning that says why, the head among its evidence (fx20; uncaught.ts).
    if (grammar?.fetched) [messageIndex, extra.host] = [grammar.fetched.index, grammar.fetched.host];
    if (grammar?.fetched) evidence.push(logLine(raised.index));
    tool = raised.runtime === 'signal' ? (/Sanitizer$/.test(raised.exception) ? raised.exception : undefined) : (grammar?.tool ?? TOOL_OF_TRACE[raised.runtime]);
  } else if (assertion) {
    // An assertion outside any test (a script's `assert`): the program stopped on it.
    cls = 'runtime-exception';
    confidence = 'medium';
    messageIndex = assertion.index;
    if (assertion.exception) extra.exception = assertion.exception;
  } else if (goTest) {
    cls = 'test-error';
    confidence = 'low';
    messageIndex = goTest.index;
  } else if (test) {
    cls = 'test-error';
    confidence = 'low';
    // The runner's own line for the test is what the log says about it.
    if (test.log_line > start) messageIndex = test.log_line - start - 1;
    // A TAP verdict's `#` diagnostics say whether a check failed, and where (generic.ts).
    const tap = named?.tool === 'tap' ? tapFailureAt(all, named.index) : undefined;
    if (tap) {
      [cls, confidence, messageIndex] = [tap.assertion ? 'test-assertion' : 'test-error', tap.assertion ? 'medium' : 'low', tap.index - before.length];
      if (tap.place) place = { file: tap.place.file, line: tap.place.line, log_line: from + tap.place.index + 1 };
    }
  }
  // Nothing above settled it: the places tools print and the command that ran (generic.ts).
  if (cls === 'unknown' || (!place && cls !== 'link-error' && messageIndex !== undefined && messageIndex >= 0)) {
    // The command that ran: in the window or the 40 lines before it, else up to 80 lines before the
    // window (a long compiler output; the streaming analyzer keeps 80 lines before each block).
    const errorLine = messageIndex ?? mostErrorLike(body);
    const command = () => lastCommandIn([...before, ...body.slice(0, Math.max(0, errorLine))]) ?? lastCommandIn(bodies(lines, start - 80, from));
    const generic = genericFinding(body, command, errorLine, before);
    if (generic && cls === 'unknown') [cls, confidence, messageIndex, tool] = [generic.cls, generic.confidence, generic.index, generic.cls === 'unknown' ? tool : (generic.tool ?? tool)];
    // A runtime whose grammar uncaught.ts knows names its places in its frames: a library's frame is no place.
    const framed = raised?.grammar !== undefined && traces.some((t) => t.kind === raised.runtime);
    if (generic?.place && !framed && (generic.index === messageIndex || cls === 'unknown')) place = { file: generic.place.file, line: generic.place.line, ...(generic.place.column ? { column: generic.place.column } : {}), log_line: logLine(generic.place.index) };
  }
  // A test's failure is the test runner's report, whatever runtime raised in it.
  if (named && (cls === 'test-assertion' || cls === 'test-error')) tool = named.tool;
  if (goTest && (cls === 'test-assertion' || cls === 'test-error')) {
    place ??= { file: goTest.file, line: goTest.line, log_line: logLine(goTest.index) };
    tool = 'go test';
  }

  // minitest names the test's file and line in brackets after its name (`Foo#test_x [/ws/test/foo_test.rb:106]`).
  if (!place && named && (cls === 'test-assertion' || cls === 'test-error')) {
    const bracket = /\[((?:[A-Za-z]:)?[^\s\]:]+\.\w+):(\d+)\]:?$/.exec(named.text);
    if (bracket) place = { file: bracket[1] as string, line: Number(bracket[2]), log_line: from + named.index + 1 };
  }
  // Surefire's closing summary row (`OrderTotalsTest.totalX:41 expected: ...`) names the test
  // class and line but no file: the test's own frame printed earlier in the log does
  // (`at com.acme.OrderTotalsTest.totalX(OrderTotalsTest.java:41)`).
  if (!place && (cls === 'test-assertion' || cls === 'test-error') && messageIndex !== undefined) {
    const row = /^(?:\[ERROR\]\s+)?([A-Z][\w$]*)\.([\w$]+):(\d+) /.exec((body[messageIndex] ?? '').trim());
    if (row) {
      const frame = new RegExp(`^\\s*at ((?:[\\w$]+\\.)*)${row[1]}\\.${row[2]}\\((${row[1]}\\.(?:java|kt|groovy|scala)):${row[3]}\\)`);
      for (let k = start + messageIndex - 1; k >= Math.max(0, start + messageIndex - 2000); k--) {
        const m = frame.exec(lines[k] ?? '');
        if (!m) continue;
        const pkg = (m[1] ?? '').replace(/\.$/, '').split('.').filter(Boolean);
        place = { file: [...pkg, m[2] as string].join('/'), line: Number(row[3]), log_line: k + 1 };
        break;
      }
    }
  }
  // C's assert() names the file and line of the assertion.
  if (!place && assertion?.file && (cls === 'test-assertion' || cls === 'runtime-exception') && messageIndex === assertion.index) {
    place = { file: assertion.file, line: assertion.line as number, log_line: logLine(assertion.index) };
    tool ??= /^(\S+):/.exec(assertion.text)?.[1];
  }
  // A Go test interrupted by a timeout is named by its goroutine's frame (`pkg.TestX(...)`).
  const goFrames = traces.find((t) => t.kind === 'go')?.frames ?? [];
  const goTestFrame = test ? undefined : goFrames.find((fr) => /\.(Test\w+)(?:\.func\d+)*$/.test(fr.function ?? ''));
  const goTestName = goTestFrame ? /\.(Test\w+)(?:\.func\d+)*$/.exec(goTestFrame.function ?? '')?.[1] : undefined;
  if (goTestFrame && goTestName) {
    extra.test = { name: goTestName, log_line: goTestFrame.log_line - 1 };
    // A fatal error of the runtime (`concurrent map writes`) in a test's goroutine: an error raised while testing.
    if (cls === 'runtime-exception') cls = 'test-error';
    if (cls === 'timeout-aborted') tool ??= 'go test';
  }
  // Out of memory or time, or the agent lost, with no test named failing: the test the runner had started and not
  // finished is the one the process was in (surefire's `Running X` over the heap error).
  if (!test && !extra.test && (cls === 'out-of-memory' || cls === 'timeout-aborted' || cls === 'agent-lost') && messageIndex !== undefined) {
    const running = runningTestIn(all, before.length + messageIndex);
    if (running) extra.test = { name: running.name, log_line: from + running.index + 1 };
  }
  // The trace: the raise site and the deepest frame of the project's own code.
  const runtime = raised?.runtime === 'jvm' ? 'jvm' : raised?.runtime;
  const found = traces.find((t) => t.kind === runtime) ?? traces[0];
  const trace = found && ownStack(found, messageIndex === undefined ? undefined : logLine(messageIndex), raised?.grammar?.framesFrom !== undefined && messageIndex === raised.index ? logLine(raised.grammar.framesFrom) : undefined);
  if (trace && cls !== 'compile-error' && cls !== 'lint' && cls !== 'link-error') {
    const frames = framesOf(trace);
    // A trace wholly in the runtime or libraries (node:internal, java.util.concurrent) names no
    // place of the project's: no location rather than the library's line.
    const own = frames.project;
    if (!place && own) place = { file: own.file, line: own.line, ...(own.column ? { column: own.column } : {}), log_line: own.log_line };
    if (place && (frames.raise || frames.project)) place.frames = frames;
    if (frames.raise) evidence.push(frames.raise.log_line);
    if (frames.project) evidence.push(frames.project.log_line);
    if (!tool && cls !== 'unknown') tool = TOOL_OF_TRACE[trace.kind];
  }
  // A runtime whose head line names its place (Lua's `lua: f.lua:5: msg`) and no frame of the project's.
  if (!place && raised?.grammar?.place && messageIndex === raised.index) place = { ...raised.grammar.place, log_line: logLine(messageIndex) };

  if (messageIndex === undefined) {
    // Unknown, or a test named without its message: the line that looks most like an error.
    messageIndex = mostErrorLike(body);
    if (best && cls === 'unknown') {
      tool = best.read.tool;
      evidence.push(logLine(best.index));
    }
  }
  // npm's key-value lines (`code`, `errno`, `syscall`) only frame: its sentence carries the message.
  if (/^npm (?:ERR!|error) (?:code|errno|syscall|address|port|path|dest|type) /.test((body[messageIndex] ?? '').trim())) {
    const sentence = body.findIndex((l) => /^npm (?:ERR!|error) (?!(?:code|errno|syscall|address|port|path|dest|type) )\S+(?: \S+){3,}/.test(l.trim()) && !/A complete log of this run/.test(l));
    if (sentence >= 0) {
      evidence.push(logLine(messageIndex));
      messageIndex = sentence;
    }
  }
  // An exit status that names the class (137, 124, 127, 126) is the consequence; the line just
  // before the excerpt often says it (`line 2: 8210 Killed  python3 x.py`), or make's report of the recipe the signal
  // ended (`make: *** [Makefile:5: integration] Terminated` over `timeout`'s 124: round 19, t20).
  if (strong && /exit code (?:137|124|127|126)\b/.test(body[messageIndex] ?? '') && messageIndex === 0) {
    const status = /exit code (\d+)/.exec(body[messageIndex] ?? '')?.[1];
    for (let k = before.length - 1; k >= Math.max(0, before.length - 5); k--) {
      const line = before[k] ?? '';
      const makeEnded = /^g?make(?:\[\d+\])?: \*\*\* \[[^\]]+\] (Terminated|Killed)$/.exec(line.trim())?.[1];
      if ((strong.rule.re.test(line) && !/exit code/.test(line)) || (makeEnded === 'Terminated' && status === '124') || (makeEnded === 'Killed' && status === '137')) {
        evidence.push(logLine(messageIndex));
        messageIndex = k - before.length;
        break;
      }
    }
  }
  // CMake prints `CMake Error at file:line (message):` over the message itself.
  if (/\((?:message|\w+)\):$/.test((body[messageIndex] ?? '').trim()) && /^\s+\S/.test(body[messageIndex + 1] ?? '')) {
    evidence.push(logLine(messageIndex));
    messageIndex += 1;
  }
  // npm prints its error code on one line and what went wrong on the next.
  if (/^npm (?:ERR!|error) code \w+$/.test((body[messageIndex] ?? '').trim()) && /^npm (?:ERR!|error) \S/.test(body[messageIndex + 1] ?? '')) {
    const code = /code (\w+)$/.exec((body[messageIndex] ?? '').trim())?.[1];
    if (code && !extra.code) extra.code = code;
    evidence.push(logLine(messageIndex));
    messageIndex += 1;
  }
  let messageBody = messageIndex < 0 ? (before[before.length + messageIndex] ?? '') : (body[messageIndex] ?? '');
  // Output that states no error (a Makefile's echoed recipe) before make's verdict on the recipe
  // (`make: *** [Makefile:6: check] Error 1`): the verdict, which names the recipe's line, is
  // what the log says went wrong. (Other verdicts after a paragraph say less than it does.)
  if (cls === 'unknown' && !ERRORISH.test(messageBody)) {
    for (let k = end + 1; k < Math.min(lines.length, end + 4); k++) {
      const next = lineBody(lines, k).trim();
      if (/^g?make(?:\[\d+\])?: \*\*\* \[[^\]]*[Mm]akefile[^\]:]*:\d+: [^\]]+\] Error \d+/.test(next)) {
        messageIndex = k - start;
        messageBody = next;
        break;
      }
    }
  }
  // make's verdict, when the window holds the recipe command's own diagnostic above it: that diagnostic (ownWords.ts).
  const recipeSaid = cls === 'unknown' && MAKE_VERDICT.test(messageBody.trim()) ? recipeDiagnostic(start + messageIndex, (i) => lineBody(lines, i)) : undefined;
  if (recipeSaid !== undefined && recipeSaid >= start) [messageIndex, messageBody] = [recipeSaid - start, lineBody(lines, recipeSaid)];
  // A message the tool wraps over the lines below (CMake, scalac's found/required, doctest's Expected/Got).
  [messageIndex, messageBody] = continued(body, messageIndex, messageBody, tool);
  // A shell names the script and line of the command that failed: `ci.sh: line 2: yarn: command not found`.
  if (!place && (cls === 'ci-script' || cls === 'missing-tool' || cls === 'permission-credentials')) {
    const sh = /^(\S+?): (?:line )?(\d+): /.exec(messageBody.trim());
    // A shell's own name (`sh: 1: tsx: not found`, `bash: line 1: ...`) is a `-c` string (an npm script, a
    // Makefile recipe), not a file: its line 1 is no place of the project's.
    if (sh && !/^(?:npm|error|ERROR|warning|fatal|(?:ba|da|z|k|c|tc|fi)?sh)$|^\/(?:usr\/)?bin\//.test(sh[1] as string)) place = { file: sh[1] as string, line: Number(sh[2]), log_line: logLine(messageIndex) };
  }
  // make names the Makefile line whose recipe failed (`make: *** [Makefile:6: check] Error 1`) on
  // the lines after the command's own error: the place of a command that failed, not of code. A
  // refusal is make's place only when make itself was refused (`make: ./gen.sh: Permission
  // denied`); a command's own refusal (`install: cannot create ...: Permission denied`) is of
  // the path it names, not of the recipe line that ran it.
  if (!place && (cls === 'unknown' || cls === 'missing-tool' || (cls === 'permission-credentials' && /^g?make(?:\[\d+\])?: /.test(messageBody.trim())) || cls === 'ci-script')) {
    // Log lines (1-based) from the message to 3 lines past the window.
    for (let n = logLine(Math.max(0, messageIndex)); n <= Math.min(lines.length, end + 4, logLine(Math.max(0, messageIndex)) + 4); n++) {
      // GNU make 4.2+ names the recipe's line in its verdict; 4.1 and older on the line before it (`Makefile:6: recipe for target 'check' failed`).
      const mk = /^g?make(?:\[\d+\])?: \*\*\* \[((?:[^\s:\]]*\/)?(?:(?:GNU)?[Mm]akefile[\w.-]*|rules|[\w-]+\.mk)):(\d+): [^\]]+\] Error \d+|^((?:[^\s:]*\/)?(?:GNU)?[Mm]akefile[\w.-]*):(\d+): recipe for target [`'‘][^'’`]+['’`] failed$/.exec(lineBody(lines, n - 1).trim());
      if (!mk) continue;
      place = { file: (mk[1] ?? mk[3]) as string, line: Number(mk[2] ?? mk[4]), log_line: n };
      break;
    }
  }
  // CMake names the listfile line over its message: `CMake Error at CMakeLists.txt:3 (find_package):`.
  if (!place && cls !== 'unknown') {
    for (let k = Math.max(0, messageIndex) - 1; k >= Math.max(0, messageIndex - 12); k--) {
      const cm = /^CMake Error at ([^\s:]+):(\d+) \(/.exec((body[k] ?? '').trim());
      if (!cm) continue;
      // A script CMake generated in the build tree (`build/cmake_install.cmake`, `CMakeFiles/`) is no line of the project's.
      if (/(?:^|\/)cmake_install\.cmake$|(?:^|\/)CMakeFiles\//.test(cm[1] as string)) break;
      place = { file: cm[1] as string, line: Number(cm[2]), log_line: logLine(k) };
      // CMake's own modules are not the project's: its call stack names the project's listfile.
      if (/^\/(?:usr|opt)\/|\/Modules\//.test(cm[1] as string)) {
        place = undefined;
        for (let j = k + 1; j < Math.min(body.length, k + 20); j++) {
          const own = /^\s+((?!\/)[^\s:]+):(\d+) \(/.exec(body[j] ?? '');
          if (own) {
            place = { file: own[1] as string, line: Number(own[2]), log_line: logLine(j) };
            break;
          }
        }
      }
      break;
    }
  }
  // A vet or lint command's diagnostics are lint findings, not a compiler's rejection. A package
  // graph that does not build (an import cycle: no place) is the compiler's, whichever command saw it.
  if (cls === 'compile-error' && (place !== undefined || !/\bimport cycle\b/.test(messageBody))) {
    // The command is the step's (`+ make format-check`) or the recipe line make echoed under it
    // (`clang-format --dry-run --Werror src/*.c`): a formatter or checker prints compiler-shaped lines too.
    const command = [...before].reverse().find((l) => typeof l === 'string' && (STEP_START.test(l.trim()) || CHECKER_PROGRAM.test(l.trim())));
    const linter = command ? /\b(go vet|golangci-lint|staticcheck|flake8|ruff|pylint|mypy|eslint|tsc --noEmit|cargo clippy|ktlint|detekt|checkstyle|clang-format|clang-tidy|cppcheck|cpplint)\b/.exec(command)?.[1] : undefined;
    // clippy prints its lints as rustc errors; the lint's name is on a note (`-D clippy::ptr-arg`).
    const clippy = body.map((l) => /\b(?:deny|warn|allow)\((clippy::\w+)\)|-D (clippy::[\w-]+)/.exec(l)).find(Boolean);
    if (linter && linter !== 'mypy' && linter !== 'tsc --noEmit' && !goCompilerSaid(linter, messageBody)) {
      cls = 'lint';
      tool = linter === 'cargo clippy' ? 'clippy' : linter;
    } else if (clippy && tool === 'rustc') {
      cls = 'lint';
      tool = 'clippy';
    }
    if (cls === 'lint' && tool === 'clippy' && clippy && !extra.code) extra.code = (clippy[1] ?? clippy[2] ?? '').replace(/-/g, '_');
  }
  const message = messageText(messageBody);
  const message_line = logLine(messageIndex);
  if (test ?? extra.test) evidence.push((test ?? extra.test)?.log_line ?? message_line);
  if (place) evidence.push(place.log_line);
  const unique = [message_line, ...evidence.filter((n) => n !== message_line)].filter((n, i, a) => a.indexOf(n) === i);
  return {
    class: cls,
    message,
    message_line,
    ...(tool ? { tool } : {}),
    ...extra,
    ...(place ? { location: place } : {}),
    ...(test ? { test } : extra.test ? { test: extra.test } : {}),
    confidence,
    evidence: [unique[0] as number, ...unique.slice(1).sort((a, b) => a - b)],
  };
}
