/**
 * The analyzer's per-line work and its blocks (see analyze.ts for the whole): a line's role,
 * how an anchor grows into a block with its natural extent, and the block made at each line.
 * Everything here reads lines through a `LineView`, so the same code runs over a whole log or
 * over the window of lines a streaming pass keeps around the line it is at.
 */
import { JENKINS_LINE_PREFIX, branchPrefix, type Branches } from './jenkins.js';
import { SHAPES, SHAPE_GATES, WORD_GATES, WORD_PATTERNS, failureStarts, PASSING, HINT_WORD, HINT_PASS, HINT_LEAD, anchoredByFirst, anyStart, compilerReason, failureHints, type FailureShape } from './shapes.js';
import { uniformShape } from './shapeType.js';
import { firstIndex, leadTable } from './prefilter.js';
import { GateIndex } from './gateIndex.js';
import { goJsonText } from './goJson.js';
import { codeAt, includes, lengthOf, startsWith } from './str.js';
import { STEP_EXIT } from './stepExit.js';

export const PROBE_CHARS = 4096;
/** The longest excerpt we return: a person reads it on a terminal. */
export const MAX_BLOCK_LINES = 80;
export const DEFAULT_MAX_EXCERPTS = 5;
/** How many plain lines of the same paragraph may follow an error message. */
const PARAGRAPH_LINES = 8;

export type Role = 'blank' | 'noise' | 'command' | 'exit-ok' | 'exit-fail' | 'anchor' | 'header' | 'summary' | 'pass' | 'text';

export interface LineInfo {
  role: Role;
  shape: FailureShape | undefined;
  /** The line without timestamps and tool prefixes, cut to PROBE_CHARS. */
  body: string;
  indent: number;
  /** A timestamp or tool prefix was set aside: the line is a tool's log record. */
  stamped: boolean;
  /** The parallel branch whose `[name] ` prefix the line carries (undefined: none; always set by `classify`). */
  branch?: string | undefined;
}

export interface Section {
  start: number;
  end: number;
  failed: boolean;
}

export type BlockKind = 'detail' | 'summary' | 'exit' | 'before';

export interface Block {
  start: number;
  end: number;
  /** The shape's weight (0-10: how specific the shape is to a real failure). */
  weight: number;
  anchors: number;
  reason: string;
  kind: BlockKind;
  /** The same message (numbers aside) was printed earlier: a retry or an echo. */
  repeated: boolean;
  /** The line whose shape made the block (its template is counted for novelty). */
  anchor: number;
  /**
   * What the streaming analyzer (analyze.ts) takes of the block's surroundings once they are
   * known: undefined until then. Set to undefined when the block is made, so that every block
   * has one hidden class (a field added later is a second one, and the code reading blocks
   * was compiled for the first).
   */
  extra: BlockExtra | undefined;
}

/** What the ranker needs of a block's surroundings, taken while they are in the window. */
export interface BlockExtra {
  /** The anchor's template (digits as `#`), for the novelty feature. */
  template: string;
  located: boolean;
  frames: number;
  boiler: number;
  /** Build steps started before the line after the block (for "went on after it"). */
  stepsAfter: number;
  /** The parallel branch of the anchor (`[name] ` prefix). */
  branch: string | undefined;
  /** A fatal condition of the machine among its first lines (shapes' `fatal`). */
  fatal: boolean;
}



/** Lines by their 0-based index: a whole log, or the window a streaming pass keeps. */
export interface LineView {
  /** Lines known so far (the whole log once it has ended). */
  readonly length: number;
  /** Line i, or undefined past either end. */
  get(i: number): LineInfo | undefined;
}

/**
 * Timestamps and per-tool prefixes that do not belong to the message itself. (`[\w.-]+ * {2}> ?` is
 * `[\w.-]+ {2,}> ?` written so that the prefilter reader finds its trigram `  >`: PREFIX_BY_FIRST.)
 */
export const LINE_PREFIX =
  /^(?:\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z ?|\[\d\d:\d\d:\d\d(?:\.\d+)?\] |#\d+ \d+\.\d+ |\[info\] |[\w.-]+ * {2}> ?| {2,}\[(?:javac|java|junit|junitlauncher|exec|apply|scalac|groovyc|kotlinc|testng|jar|csc)\] )/;
/**
 * LINE_PREFIX by the body's first character and the line's hints (`anchoredByFirst`): its
 * alternatives that a line beginning with a letter, a digit or a space may match (`[\w.-]+ {2,}> ?`,
 * ` {2,}\[(?:javac|...)\] `) are tried only on a line that may hold their rarest trigram
 * (HINT_LEAD). On the LogChunks logs LINE_PREFIX ran on 617 000 of 1.04 M lines and matched 84 000.
 */
const PREFIX_BY_FIRST = anchoredByFirst(LINE_PREFIX, HINT_LEAD, (first) => anyStart(first) || first![32] === 1);

/** The part of LINE_PREFIX tried on `body` (null: none); `hints`: those of a line holding `body` (`byteHints`), or -1. */
export const linePrefixPattern = (body: string, hints: number): RegExp | null => ((hints & HINT_LEAD) !== 0 ? PREFIX_BY_FIRST.keyed : PREFIX_BY_FIRST.plain)[firstIndex(body)]!;

/** `LINE_PREFIX.exec(body)`, trying only the alternatives the body's first character and `hints` allow. */
export function linePrefix(body: string, hints: number): RegExpExecArray | null {
  const re = linePrefixPattern(body, hints);
  return re === null ? null : re.exec(body);
}
// A Pipeline that ends in an error prints that error's id (`...ErrorAction$ErrorId: <uuid>`): bookkeeping, never the cause.
const NOISE =
  /^(?:travis_(?:fold|time):|\[Pipeline\] |##\[(?:group|endgroup)\]|(?:remote: )?(?:Counting|Compressing|Receiving|Resolving|Enumerating) objects|Checking out files|Unpacking objects|org\.jenkinsci\.plugins\.workflow\.actions\.ErrorAction\$ErrorId: |\s*\d{1,3}%\s*\[|[\s.]*$)/;
// `[job] $ /bin/sh -xe /tmp/jenkins123.sh` is a freestyle build step's command.
export const COMMAND = /^(?:\$ \S|\+ \S|##\[group\]Run |> \S+@\S+ \S+ \/|\[Pipeline\] (?:sh|bat|powershell)\b|\[[^\]]+\] \$ \S)/;
const TRAVIS_EXIT = /^The command "[\s\S]*" (?:exited with (\d+)|failed)/;
export const STACK_FRAME =
  /^\s*(?:at\s+\S|Call Stack \(most recent call first\):|\.\.\. \d+ (?:more|common frames omitted)|Caused by: |Suppressed: |File "|#\d+\s+0x|\[C\]: in |\S+:\d+: in |from \S+:\d+:in |\S+\.(?:rb|ex|exs|erl|lua):\d+|\S+:\d+:in [`'])/;
const CARET_LINE = /^\s*[~^|]+[~^\s]*$|^\s*\d+\s*\|/;
const INCLUDE_CHAIN = /^(?:In file included from |\s+from \S+:\d+[,:]$|\S.*: In (?:function|member function|constructor|instantiation)|\S+\.o: In function )/;
const NODE_SOURCE_HEADER = /^\S+:\d+\s*$/;
const PATH_HEADER = /^(?:[\w.~@/\\-]+[/\\])?[\w.@-]+\.\w{1,6}$/;
const NUMBERED_ITEM = /^\s*\d+\) /;
const PYTEST_END = /^\S+:\d+: \w+$/;
/** Cheap test before PASSING: the words a passing line must contain. */
const PASS_HINT = /ok|OK|PASS|✓|✔/;
/** A test harness line still waiting for its verdict: `t/name.t ........ `. */
const HARNESS_PENDING = /^\S+ \.{3,}\s*$/;
/** Where a diff's lines begin: a unified diff's `+++ b/file` or hunk header, Jest's and Vitest's `- Expected` legend. */
export const DIFF_HEADER = /^(?:\+\+\+ \S|@@ .*@@|- Expected\b)/;
const LEADING_NUMBER = /^\s*\d/;
/** A verdict alone on its line, printed once the step it judges (`* checking tests ...`) is done. */
const BARE_VERDICT = /^\s*(?:ERROR|FAILED|FAIL|FAILURE)\s*$/;
/** A step announced before its verdict is known: `* checking tests ...`, `Running specs...`. */
const PENDING_HEADING = /\S\s*\.\.\.\s*$/;
const NEXT_ITEM = /^_{3,} .* _{3,}$|^={3,}|^-{3,} .* -{3,}$|^⎯{3,}/;
/** A command's usage text, printed after the message that says what was wrong with the call. */
const USAGE = /^\s*[Uu]sage(?: of \S+)?:/;

/** Which of the anchored patterns of `classify` may match, by the line's first character. */
const LEAD = leadTable([JENKINS_LINE_PREFIX, NOISE, TRAVIS_EXIT, STEP_EXIT, COMMAND]);
const LEAD_JENKINS = 1;
const LEAD_NOISE = 2;
const LEAD_TRAVIS = 4;
const LEAD_STEP = 8;
const LEAD_COMMAND = 16;

/** Leading spaces and tabs (a tab counts one); the increment first, so it has type feedback from the first call (issue 28, sp14). */
function leadingSpaces(s: string): number {
  const n = lengthOf(s);
  let i = -1;
  while (++i < n) {
    const c = codeAt(s, i);
    if (c !== 32 && c !== 9) break;
  }
  return i;
}

const NO_BRANCHES: Branches = { all: new Set(), failed: [] };

/**
 * A line's role. `hints`: its `failureHints` when known already (`byteHints` of its bytes, which
 * hold those of its body), else -1.
 */
export function classify(raw: string, branches: Branches = NO_BRANCHES, hints = -1): LineInfo {
  let body = lengthOf(raw) > PROBE_CHARS ? raw.slice(0, PROBE_CHARS) : raw;
  // Jenkins' timestamps and a parallel branch's `[name] ` come before the tool's own prefix.
  const stamp = (LEAD[firstIndex(body)]! & LEAD_JENKINS) !== 0 ? JENKINS_LINE_PREFIX.exec(body) : null;
  if (stamp) body = body.slice(stamp[0].length);
  const branch = branchPrefix(body, branches);
  if (branch !== undefined) body = body.slice(branch.length + 3);
  const prefix = linePrefix(body, hints);
  if (prefix) body = body.slice(prefix[0].length);
  // `go test -json`: what the tool printed is the event's Output (goJson.ts).
  const event = goJsonText(body);
  if (event !== undefined) body = event;
  const stamped = prefix !== null || (stamp !== null && !stamp[0].startsWith('stderr'));
  // An event's Output is unescaped JSON, not a part of the line: the line's hints may lack its
  // (`\u2716` is ASCII, `✖` is not), so it is scanned itself.
  return classifyBody(body, stamped, branch, event === undefined ? hints : -1);
}

/**
 * The shapes' gates and the failure words' as one inverted index (gateIndex.ts): which shapes
 * (indexes below SHAPES.length) and which words (WORD_PATTERNS, after them) a line may match.
 */
const SHAPE_INDEX = new GateIndex([...SHAPE_GATES, ...WORD_GATES]);
const WORDS_FROM = SHAPES.length;

/**
 * MAYBE_FAILURE of a line with a failure hint, the index having read it: a failure word among
 * the candidates from `c` on (the words come after the shapes), else FAILURE_STARTS.
 */
function maybeFailure(body: string, hints: number, candidates: Int32Array, c: number, count: number): boolean {
  for (let j = count - 1; j >= c; j--) {
    const k = candidates[j]!;
    if (k < WORDS_FROM) break;
    if (WORD_PATTERNS[k - WORDS_FROM]!.test(body)) return true;
  }
  return failureStarts(body, hints);
}

/** Whether `body` holds one of `literals` (a loop, not `some` with a closure made for every shape tried). */
function holdsAny(body: string, literals: readonly string[]): boolean {
  for (let k = 0; k < literals.length; k++) if (includes(body, literals[k]!)) return true;
  return false;
}

/** Every LineInfo is made here, each with the same fields in the same order (one hidden class). */
function classifyBody(body: string, stamped: boolean, branch: string | undefined, known: number): LineInfo {
  const indent = leadingSpaces(body);
  if (indent === lengthOf(body)) return { role: 'blank', shape: undefined, body, indent, stamped, branch };
  // GitHub Actions opens each step's group with the step's command: the group marker is the command.
  if (startsWith(body, '##[group]Run ')) return { role: 'command', shape: undefined, body, indent, stamped, branch };
  const lead = LEAD[firstIndex(body)]!;
  if ((lead & LEAD_NOISE) !== 0 && NOISE.test(body)) return { role: 'noise', shape: undefined, body, indent, stamped, branch };
  const travis = (lead & LEAD_TRAVIS) !== 0 ? TRAVIS_EXIT.exec(body) : null;
  if (travis) {
    const code = travis[1];
    return { role: code === '0' ? 'exit-ok' : 'exit-fail', shape: undefined, body, indent, stamped, branch };
  }
  if ((lead & LEAD_STEP) !== 0 && STEP_EXIT.test(body)) return { role: 'exit-fail', shape: undefined, body, indent, stamped, branch };
  if ((lead & LEAD_COMMAND) !== 0 && COMMAND.test(body)) return { role: 'command', shape: undefined, body, indent, stamped, branch };
  // A passing test or check (`ok`, `PASS`, `✓` at the end) ends any failure block it follows.
  // One scan of the characters says which of the unanchored patterns may match at all.
  const hints = known >= 0 ? known : failureHints(body);
  if ((hints & HINT_PASS) !== 0 && PASS_HINT.test(body) && PASSING.test(body)) return { role: 'pass', shape: undefined, body, indent, stamped, branch };
  // A line without a failure word that does not start like a shape is no failure (MAYBE_FAILURE).
  // Past this, a line without a failure word starts like a shape: MAYBE_FAILURE holds for it.
  const starts = (hints & HINT_WORD) !== HINT_WORD;
  if (starts && !failureStarts(body, hints)) return { role: 'text', shape: undefined, body, indent, stamped, branch };
  // The shapes the line can match by its first character and its trigrams (prefilter.ts); the
  // word patterns of MAYBE_FAILURE run only when one of them is left.
  SHAPE_INDEX.read(body);
  const candidates = SHAPE_INDEX.list;
  const count = SHAPE_INDEX.count;
  let maybe = -1;
  for (let c = 0; c < count; c++) {
    const k = candidates[c]!;
    if (k >= WORDS_FROM) break;
    if (maybe < 0) maybe = starts || maybeFailure(body, hints, candidates, c, count) ? 1 : 0;
    if (maybe === 0) break;
    const shape = SHAPES[k]!;
    if (shape.needs !== undefined && !holdsAny(body, shape.needs)) continue;
    if (shape.re.test(body)) return { role: shape.role, shape, body, indent, stamped, branch };
  }
  return { role: 'text', shape: undefined, body, indent, stamped, branch };
}

/**
 * A LineInfo's role and shape, which `markDiff`, `markTwoLineShape` and `markPipelineOwn` change
 * after `classify`, changed once here, on a LineInfo made where all of them are made (one hidden
 * class). V8 treats a field stored once as a constant and compiles the functions that read it
 * so; the first line a later pass changed (the first diff of a log, often megabytes in) then
 * threw away the optimised code of `classifyBody`, `finish`, `extraOf`... (`--trace-deopt`:
 * "code dependencies"), which ran unoptimised until compiled again (docs/notes/analyzer.md,
 * "Session 47 (helper sp11)"). Field constness is per hidden class: changing this one is enough.
 */
function mutableLineInfo(): void {
  const info = classifyBody('', false, undefined, 0);
  info.role = 'noise';
  info.shape = SHAPES[0];
  info.shape = undefined;
}
mutableLineInfo();

/** xcpretty's failure summary: `  testName, reason` over the `  /path/File.swift:12` it failed at. */
export const XCTEST_CASE = /^\s+test\w*, \S/;
export const XCTEST_LOCATION = /^\s+\S+\.(?:swift|mm?):\d+\s*$/;
export const XCTEST_SHAPE: FailureShape = uniformShape({ re: XCTEST_CASE, role: 'anchor', weight: 9, reason: 'XCTest failure' });

function isContinuation(line: LineInfo, anchor: LineInfo, anchorPrefix: string | null): boolean {
  const body = line.body;
  if (line.indent > anchor.indent) return true;
  if (STACK_FRAME.test(body) || CARET_LINE.test(body) || INCLUDE_CHAIN.test(body)) return true;
  if (anchorPrefix !== null && body.startsWith(anchorPrefix)) return true;
  if (line.role === 'anchor' && line.shape === anchor.shape && line.indent === anchor.indent) return true;
  return false;
}

/** A bracket or tag prefix that every line of the anchor's block repeats (`[error]`, `E `). */
function blockPrefix(body: string): string | null {
  const m = /^(?:\[\w+\] |E {2,}|\w+ ERR! |npm error |==\d+==|#\d+ )/.exec(body);
  if (!m) return null;
  const p = m[0];
  return p.startsWith('E ') ? 'E ' : p.startsWith('==') ? p : p;
}

/** How far back an anchor's block starts: include chains, a failing file's path, source headers. */
function growBackward(info: LineView, a: number, floor: number): number {
  let s = a;
  const anchor = info.get(a);
  if (anchor === undefined) return s;
  for (let j = a - 1; j > floor && a - j <= 6; j--) {
    const line = info.get(j);
    if (line === undefined || !INCLUDE_CHAIN.test(line.body)) break;
    s = j;
  }
  if (s !== a) return s;
  // A verdict on a line of its own belongs to the step announced above it (R CMD check's
  // `* checking tests ...`, then the step's progress lines, then ` ERROR`).
  if (BARE_VERDICT.test(anchor.body)) {
    for (let j = a - 1; j > floor && a - j <= 8; j--) {
      const line = info.get(j);
      if (line === undefined) break;
      if (line.role !== 'blank' && line.indent <= anchor.indent && PENDING_HEADING.test(line.body)) return j;
      if (line.role !== 'blank' && line.indent === 0) break;
    }
  }
  if (anchor.shape?.reason === 'exception' || anchor.shape?.reason === 'error') {
    // Node prints `file.js:12`, the source line, a caret line and a blank before the error.
    for (let j = a - 1; j > floor && a - j <= 6; j--) {
      const line = info.get(j);
      if (line === undefined) break;
      if (line.role === 'command' || line.role === 'exit-ok' || line.role === 'exit-fail') break;
      if (NODE_SOURCE_HEADER.test(line.body) && line.indent === 0) return j;
    }
  }
  const previous = info.get(a - 1);
  // A test harness prints `t/name.t ........ ` and, once the test's own output is done, the
  // verdict (`Dubious, test returned 1`) on a line of its own: the name belongs to it.
  if (a - 1 > floor && previous !== undefined && previous.role === 'text' && HARNESS_PENDING.test(previous.body)) return a - 1;
  if (a - 1 > floor && previous !== undefined && anchor.indent > 0 && previous.indent === 0 && previous.role === 'text') {
    if (PATH_HEADER.test(previous.body.trim()) || /:$/.test(previous.body)) return a - 1;
  }
  return s;
}

/**
 * How far forward an anchor's block runs: its trace, its source excerpt, its indented detail.
 * `list`: the block is a header's list, so the next numbered item continues it.
 */
function growForward(info: LineView, a: number, free: boolean, list = false): number {
  const anchor = info.get(a);
  if (anchor === undefined || anchor.shape?.single === true) return a;
  const prefix = blockPrefix(anchor.body);
  const pytest = anchor.shape?.reason === 'pytest failure' && anchor.role === 'anchor' && /^_{3}/.test(anchor.body);
  let end = a;
  let blanks = 0;
  let sawIndented = false;
  let paragraph = 0;
  const pythonTrace = anchor.shape?.reason === 'Python traceback';
  // Some headings are indented while their detail is not (minitest's `  1) Failure:`, EUnit's
  // `  mod: name...*failed*`).
  const bodyIndent = anchor.shape?.detailAtMargin === true ? 0 : anchor.indent;
  let closed = false;
  let chained = false;
  for (let j = a + 1; j < info.length && j - a < MAX_BLOCK_LINES; j++) {
    const line = info.get(j);
    if (line === undefined) break;
    // The lines of another parallel branch (`[other] ...`) are not this message's.
    if (line.branch !== anchor.branch) break;
    const role = line.role;
    // npm prints its whole message on `npm error` lines: they continue its `code E...` line up
    // to the pointer at its debug log.
    const npmDetail = role === 'summary' && prefix !== null && NPM_PREFIX.test(prefix) && line.body.startsWith(prefix) && !BOILERPLATE.test(line.body);
    if (role === 'command' || role === 'exit-ok' || role === 'exit-fail' || (role === 'summary' && !npmDetail) || role === 'pass') break;
    if (role === 'noise' && line.body.trim() !== '') break;
    if (USAGE.test(line.body) && anchor.shape?.reason === 'command-line usage error') break;
    // A TAP verdict closes the output before it into a block of its own.
    if (TAP_FAILURE.test(line.body) && !TAP_FAILURE.test(anchor.body)) break;
    if (role === 'blank' || role === 'noise') {
      blanks++;
      if (blanks > (free ? 2 : 1)) break;
      continue;
    }
    if (free || pytest) {
      if (NEXT_ITEM.test(line.body)) break;
      if (anchor.shape !== undefined && line.role === anchor.role && line.shape === anchor.shape && blanks > 0) break;
      // The next numbered failure (`2) ...`) starts the next item: one failure is enough.
      if (!list && NUMBERED_ITEM.test(anchor.body) && NUMBERED_ITEM.test(line.body) && line.indent <= anchor.indent) break;
      end = j;
      blanks = 0;
      if (pytest && PYTEST_END.test(line.body)) break;
      continue;
    }
    if (pythonTrace) {
      // The exception line closes a traceback; a chained exception (`During handling of the
      // above exception, ...`) continues the report up to the last exception, which ended it.
      if (PY_CHAINED.test(line.body)) {
        chained = true;
        closed = false;
        end = j;
        blanks = 0;
        continue;
      }
      if (closed) break;
      if (chained && line.role === 'anchor' && line.shape === anchor.shape) {
        chained = false;
        sawIndented = false;
        end = j;
        blanks = 0;
        continue;
      }
      if (sawIndented && line.indent === 0 && PY_EXCEPTION_LINE.test(line.body)) {
        closed = true;
        end = j;
        blanks = 0;
        continue;
      }
    }
    // A linter's next file (`path/file.js` then its own findings of the same shape) continues
    // the report: ESLint's and stylelint's formatters print one paragraph per file.
    const nextFile =
      line.role === 'text' && line.indent === 0 && PATH_HEADER.test(line.body.trim()) && info.get(j + 1)?.role === 'anchor' && info.get(j + 1)?.shape === anchor.shape;
    if (nextFile) {
      end = j;
      blanks = 0;
      continue;
    }
    let cont = isContinuation(line, anchor, prefix);
    // Findings of the same shape aligned on their numbers (` 49:11` under `188:12`).
    if (!cont && line.role === 'anchor' && line.shape === anchor.shape && Math.abs(line.indent - anchor.indent) <= 3 && LEADING_NUMBER.test(line.body) && LEADING_NUMBER.test(anchor.body)) cont = true;
    // A message announced by its anchor (`rake aborted!`, `error: Could not resolve:`).
    if (!cont && j === a + 1 && /[:!]\s*$/.test(anchor.body) && line.role !== 'header') cont = true;
    // A quoted source line, recognised by the caret line under it.
    if (!cont && blanks === 0 && CARET_LINE.test(info.get(j + 1)?.body ?? '') && (info.get(j + 1)?.body.trim() ?? '') !== '') cont = true;
    // The closing line of a trace (`ValueError: bad`) comes back to the anchor's indentation.
    if (!cont && sawIndented && blanks === 0 && (line.role === 'anchor' || /^\S+(?:Error|Exception)\b/.test(line.body))) cont = true;
    // The rest of the message's paragraph: lines at its indentation up to the next blank.
    if (!cont && blanks === 0 && !sawIndented && paragraph < PARAGRAPH_LINES && line.indent >= bodyIndent && (role === 'text' || role === 'anchor')) {
      cont = true;
      paragraph++;
    }
    if (!cont) break;
    if (blanks > 0 && line.indent <= anchor.indent && !STACK_FRAME.test(line.body)) {
      if (!(line.role === 'anchor' && line.shape === anchor.shape)) break;
    }
    if (line.indent > anchor.indent || STACK_FRAME.test(line.body)) sawIndented = true;
    end = j;
    blanks = 0;
  }
  return end;
}

export function reasonOf(line: LineInfo): string {
  const shape = line.shape;
  if (shape === undefined) return 'error';
  if (shape.reason === 'compiler error' || shape.reason === '.NET compiler error') {
    // The kind is the language of the file the diagnostic names (`x.tsx(1,2): error TS2345`
    // is TypeScript, whatever the shape looks like); the tool's code prefix when no file is known.
    const path = /([\w.@~+-]*[\w-]\.[A-Za-z]\w{0,5})(?::\d|\(\d)/.exec(line.body)?.[1];
    const named = path !== undefined ? compilerReason(path) : 'compiler error';
    if (named !== 'compiler error') return named;
    const code = /\berror (TS|CS|FS|BC)\d+:/.exec(line.body)?.[1];
    if (code === 'TS') return 'TypeScript compiler error';
    if (code === 'CS') return 'C# compiler error';
    if (code === 'FS') return 'F# compiler error';
    if (code === 'BC') return 'Visual Basic compiler error';
    return shape.reason;
  }
  if (shape.reason === 'exception') {
    const name = /([A-Z][\w$]*(?:Error|Exception|Failure|Fault))/.exec(line.body)?.[1];
    return name !== undefined ? name : 'exception';
  }
  if (shape.reason === 'tool error') {
    const tool = /^(?:[\w.+-]*\/)*([\w.+-]+): /.exec(line.body)?.[1];
    return tool !== undefined ? `${tool} error` : 'error';
  }
  if (shape.reason === 'Jenkins: script returned exit code') {
    const code = /exit code (\d+)/.exec(line.body)?.[1] ?? '';
    return `Jenkins: script returned exit code ${code}`.trim();
  }
  return shape.reason;
}

/** What the block pass carries from one line to the next. */
export interface BlockState {
  /** The blocks so far, in log order (a TAP verdict may take back the last ones). */
  blocks: Block[];
  /** The templates (digits as `#`) of the anchors seen so far: a repeat scores less. */
  seenAnchors: Set<string>;
  /** The last line a block covers: the lines up to it start no block of their own. */
  coveredTo: number;
}

export const newBlockState = (): BlockState => ({ blocks: [], seenAnchors: new Set(), coveredTo: -1 });

/**
 * A string of its own: a line cut from a big chunk of text shares that chunk's memory, and
 * what outlives the window (keys, kept lines) must not hold the chunk.
 */
export const own = (s: string): string => (lengthOf(s) < 13 ? s : ` ${s}`.slice(1));

/**
 * The block pass at line i (lines in order, each once): an anchor or header grows into its
 * block, a failing exit or a summary takes the output before it. Reads lines up to about
 * MAX_BLOCK_LINES + 8 either side of i (WINDOW_BEHIND / WINDOW_AHEAD bound it).
 */
export function blockAt(info: LineView, i: number, state: BlockState): void {
  if (i <= state.coveredTo) return;
  const line = info.get(i);
  if (line === undefined) return;
  if (line.role === 'anchor' || line.role === 'header') {
    const shape = line.shape;
    if (shape === undefined) return;
    let start: number;
    let end: number;
    let headerWeight = shape.weight;
    let headerReason = reasonOf(line);
    if (line.role === 'header') {
      let first = i + 1;
      while (first < info.length && (info.get(first)?.role === 'blank' || info.get(first)?.role === 'noise')) first++;
      if (first >= info.length || first - i > 3) return;
      const firstLine = info.get(first);
      if (firstLine === undefined || firstLine.role === 'command' || firstLine.role === 'summary' || firstLine.role.startsWith('exit')) return;
      start = first;
      // A header that counts failures (`5 failing`, `There were 2 failures:`) heads the whole
      // numbered list: every item is part of what it announces.
      end = growForward(info, first, firstLine.role !== 'anchor' || firstLine.shape?.reason === 'error' || shape.freeDetail === true, true);
      if (firstLine.role === 'anchor' && end === first) end = growForward(info, first, true, true);
      if (firstLine.role === 'anchor' && firstLine.shape !== undefined) {
        headerWeight = Math.max(shape.weight, firstLine.shape.weight);
        // The list's first item names the block, unless its shape says less than the header
        // (`[ERROR]   T.test:41 expected ...` under Surefire's `[ERROR] Failures:`).
        headerReason = shape.freeDetail === true || firstLine.shape.weight < shape.weight ? shape.reason : reasonOf(firstLine);
      }
    } else {
      start = growBackward(info, i, state.coveredTo);
      // TAP prints a test's verdict after its output: `not ok 23 name` closes the paragraph of
      // what that test printed (its error and trace), which may already hold weaker blocks.
      if (TAP_FAILURE.test(line.body)) {
        const output = testOutputStart(info, i);
        if (output < start) {
          while (state.blocks.length > 0 && (state.blocks[state.blocks.length - 1]?.start ?? -1) >= output) state.blocks.pop();
          start = output;
        }
      }
      // `Error:` with nothing after it announces a message printed on the lines below; an
      // XCTest summary item runs over its blank-separated location and source snippet.
      const announces = /^\S*(?:Error|error|ERROR):\s*$/.test(line.body) && line.shape?.reason !== 'minitest failure';
      end = growForward(info, i, announces || line.shape === XCTEST_SHAPE);
      // A bare verdict after its step's heading: the detail printed under it is the block.
      const next = info.get(i + 1);
      if (end === i && start < i && BARE_VERDICT.test(line.body) && next !== undefined && (next.role === 'anchor' || next.role === 'text')) {
        end = growForward(info, i + 1, false);
      }
    }
    // A parent test whose only content is its nested subtests' results (Go's `--- FAIL: T`
    // over `    --- PASS: T/a`, `    --- FAIL: T/b`) is not the detail: the failing subtest is.
    const after = info.get(end + 1);
    if (line.role === 'anchor' && end === i && after !== undefined && after.indent > line.indent && (after.role === 'pass' || (after.role === 'anchor' && after.shape === line.shape))) {
      headerWeight -= 3;
    }
    // Fold repeats: the same message printed again (retries, per-module echoes) scores less.
    const key = own(line.body.replace(/\d+/g, '#').trim());
    const repeated = state.seenAnchors.has(key);
    state.seenAnchors.add(key);
    let anchors = 0;
    let weight = headerWeight;
    let reason = headerReason;
    for (let j = start; j <= end; j++) {
      const inner = info.get(j);
      if (inner?.role === 'anchor') {
        anchors++;
        // A more specific shape inside the block names it (`WorkflowScript: 12:` under the
        // Groovy exception that carries it).
        if (inner.shape !== undefined && inner.shape.weight > weight && j > i) {
          // A bare verdict (` ERROR`) only heads the block: the message under it is the error.
          weight = BARE_VERDICT.test(line.body) ? inner.shape.weight : inner.shape.weight - 1;
          reason = reasonOf(inner);
        }
      }
    }
    // A message that sends the reader elsewhere (Gradle's `Compilation error. See log for more
    // details`, `see the compiler error output`) is a summary of a detail printed before it.
    let pointer = false;
    for (let j = start; j <= end && j - start < 12 && !pointer; j++) pointer = POINTS_ELSEWHERE.test(info.get(j)?.body ?? '');
    if (pointer) state.blocks.push({ start, end, weight: Math.min(weight, 4), anchors, reason, kind: 'summary', repeated, anchor: i, extra: undefined });
    else state.blocks.push({ start, end, weight, anchors, reason, kind: 'detail', repeated, anchor: i, extra: undefined });
    state.coveredTo = end;
  } else if (line.role === 'exit-fail') {
    // A Jenkins step (`sh` with -x, a freestyle `Execute shell`) that failed right after a traced
    // command, printing nothing: that command is where the script stopped (`set -e`).
    const jenkinsStep = line.body.startsWith('ERROR: script returned') || line.body.startsWith('Build step ');
    const before = precedingOutput(info, i, state.coveredTo, jenkinsStep);
    if (before !== null) state.blocks.push(before);
    const code = /(?:exited with|exit code) (-?\d+)/.exec(line.body)?.[1];
    const reason = line.body.startsWith('ERROR: script returned')
      ? `Jenkins: script returned exit code ${code ?? ''}`.trim()
      : line.body.startsWith('Build step ') ? 'Jenkins build step failed' : code !== undefined ? `step ended (exit ${code})` : 'command failed';
    // The status, not who exited: a runner's exit line after a program that could not start is no command's (fc1).
    // 124 is timeout(1)'s status and 137 a SIGKILL (often the out-of-memory killer): then the
    // exit line is itself the explanation.
    const signal = code === '124' ? 'command timed out (exit 124)' : code === '137' ? 'command killed (exit 137)' : null;
    state.blocks.push({ start: i, end: i, weight: signal !== null ? 7 : 1, anchors: 0, reason: signal ?? reason, kind: 'exit', repeated: false, anchor: i, extra: undefined });
    state.coveredTo = i;
  } else if (line.role === 'summary' && line.shape !== undefined) {
    const before = precedingOutput(info, i, state.coveredTo);
    if (before !== null) state.blocks.push(before);
    let end = i;
    while (end + 1 < info.length && info.get(end + 1)?.role === 'summary' && end - i < 10) end++;
    state.blocks.push({ start: i, end, weight: line.shape.weight - 2, anchors: 0, reason: reasonOf(line), kind: 'summary', repeated: false, anchor: i, extra: undefined });
    state.coveredTo = end;
  }
}

/**
 * The last paragraph a command printed before its failure summary or exit marker, when no
 * known shape covers it: tools that fail quietly (a formatter listing files, a size budget,
 * a "please commit the generated files") say why right there.
 */
function precedingOutput(info: LineView, at: number, floor: number, traced = false): Block | null {
  let end = at - 1;
  let blanks = 0;
  let skipped = 0;
  // Blank lines and step boundaries (`[Pipeline] }`) part the output from its failure; timing
  // and fold markers (`travis_time:end`, `##[endgroup]`) do not.
  while (end > floor && (info.get(end)?.role === 'blank' || info.get(end)?.role === 'noise')) {
    if (!TIMING_MARKER.test(info.get(end)?.body ?? '') && ++blanks > 2) return null;
    if (++skipped > 8) return null;
    end--;
  }
  if (end <= floor) return null;
  const last = info.get(end);
  if (traced && last !== undefined && XTRACE.test(last.body)) {
    let first = end;
    while (first - 1 > floor && end - first < 2 && XTRACE.test(info.get(first - 1)?.body ?? '')) first--;
    return { start: first, end, weight: 4, anchors: 0, reason: 'last command before the failure', kind: 'before', repeated: false, anchor: end, extra: undefined };
  }
  // A rule (`------`, also after a level tag) closes a frame the tool drew round what it quoted (BuildKit's Dockerfile excerpt): no output.
  if (last === undefined || (last.role !== 'text' && last.role !== 'anchor') || RULE_LINE.test(last.body)) return null;
  let start = end;
  while (start - 1 > floor && end - start < 7) {
    const previous = info.get(start - 1);
    if (previous === undefined || (previous.role !== 'text' && previous.role !== 'anchor')) break;
    // A plain line after a tool's timestamped records is the script's own message.
    if (previous.stamped && !last.stamped) break;
    start--;
  }
  start = diffStart(info, end, floor, start);
  return { start, end, weight: 5, anchors: 0, reason: 'output before the failure', kind: 'before', repeated: false, anchor: end, extra: undefined };
}

const TIMING_MARKER = /^(?:travis_(?:fold|time):|##\[endgroup\])/;
const RULE_LINE = /^\s*(?:\[?[A-Z]{3,8}\]?:? )?(?:-{4,}|={4,}|_{4,}|~{4,}|\*{4,})\s*$/;
/** A shell's trace of a command it runs (`set -x`): `+ cmd`, `++ cmd` inside a substitution. */
const XTRACE = /^\++ \S/;

const TAP_FAILURE = /^not ok \d+/;
/** The lines that chain one Python traceback to the next. */
const PY_CHAINED = /^(?:During handling of the above exception, another exception occurred:|The above exception was the direct cause of the following exception:)$/;
/** The line that ends a Python traceback: the exception's qualified name and its message. */
const PY_EXCEPTION_LINE = /^[A-Za-z_][\w.]*(?::|$)/;

/**
 * Where the output of the test whose verdict is at `at` begins: after the blank line, passing
 * line, command or other verdict before it (at most MAX_BLOCK_LINES back).
 */
function testOutputStart(info: LineView, at: number): number {
  let s = at;
  for (let k = at - 1; k >= 0 && at - k < MAX_BLOCK_LINES; k--) {
    const line = info.get(k);
    if (line === undefined) break;
    const role = line.role;
    if (role === 'blank' || role === 'noise' || role === 'pass' || role === 'command' || role === 'exit-ok' || role === 'exit-fail' || role === 'summary') break;
    if (TAP_FAILURE.test(line.body)) break;
    s = k;
  }
  return s;
}

/** A line a unified diff may hold: its headers, hunk headers, context, added and removed lines. */
const DIFF_LINE = /^(?:[ +\-\\]|@@ |diff --git |index [0-9a-f]+\.\.|(?:new|deleted) file mode|$)/;

/**
 * When the output before a failure ends in a unified diff (a formatter's or a generator's
 * "apply these changes"), the whole diff is the explanation: the excerpt starts at its first
 * header, as long as a hunk header shows it is a diff and it fits in one excerpt.
 */
function diffStart(info: LineView, end: number, floor: number, start: number): number {
  let hunk = false;
  let first = -1;
  for (let k = end; k > floor && end - k < MAX_BLOCK_LINES; k--) {
    const body = info.get(k)?.body ?? '';
    // The body is the line less its tool prefix; a diff's lines are told by their first column.
    if (!DIFF_LINE.test(body) || info.get(k)?.role === 'command' || info.get(k)?.role === 'noise') break;
    if (body.startsWith('@@ ')) hunk = true;
    if (body.startsWith('diff --git ') || (body.startsWith('--- ') && info.get(k + 1)?.body.startsWith('+++ '))) first = k;
  }
  return hunk && first >= 0 && first < start ? first : start;
}

/** Where the CI server's epilogue begins (`Done. Your build exited with 1.`, `Finished: FAILURE`). */
const NPM_PREFIX = /^npm (?:ERR!|error) $/;
/** A line that starts another step of the build. */
export const NEXT_STEP =
  /^(?:\+ \S|\$ \S|> Task :|\[INFO\] --- |\[INFO\] Building |Step \d+\/\d+ : |#\d+ \[|\[Pipeline\] (?:sh|bat|stage|withEnv)\b|##\[group\]Run |==> |make\[\d+\]: Entering|\s*Compiling \S+ v\d|\[step \d+\/\d+\])/;

/** A failure message that points at a detail printed elsewhere. */
const POINTS_ELSEWHERE =
  /\b[Ss]ee (?:the )?(?:log|compiler (?:error )?output|errors? above|output above|console output|the report at)\b|\b[Cc]heck the (?:log|output) (?:above|for (?:more )?details)/;

/** Help links, timing and "see the log" hints: what a build tool prints around its failure. */
export const BOILERPLATE =
  /https?:\/\/\S*(?:help|docs|wiki|gradle\.org|maven\.apache|yarnpkg)|\bTotal time\b|Finished at:|[Ss]ee (?:the )?log for more|see the compiler error output|Run with --(?:stacktrace|info|debug|scan)|Re-run Maven|-> \[Help \d+\]|For more information about the errors|To see the full stack trace|Get more help at|A complete log of this run/;
/** A file and a line in it: `Foo.kt:57:33`, `Foo.tsx(142,23)`, `File "x.py", line 3`, `Foo.java:[12,5]`. */
export const LOCATION = /[\w-]\.[A-Za-z]\w{0,5}(?::\[?\d+|\(\d+,\d+\)|", line \d+)/;
