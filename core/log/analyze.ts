/**
 * The log analyzer: finds the lines of a build log that say why the build failed.
 *
 * Zero-shot and pure: no training, no I/O. It works in three passes over the cleaned lines,
 * each linear in the size of the log:
 *  1. every line gets a role: blank, noise (progress, fold markers), a command the CI ran,
 *     an exit marker, or a failure shape from `shapes.ts` (anchor, header, summary);
 *  2. the commands and exit markers cut the log into sections; the section of the first
 *     command that failed is where the cause usually is, and errors printed by commands that
 *     succeeded are usually not the cause;
 *  3. each anchor grows into a block with its natural extent (a stack trace, a compiler error
 *     with its source excerpt, the lines of one failing test), blocks are scored, and the best
 *     are returned, the first real error before its cascade of summaries.
 */
import { withFindings } from '../finding/index.js';
import type { LogExcerpt } from '../../protocol/types.js';
import { cleanLines } from './clean.js';
import { SHAPES, MAYBE_FAILURE, PASSING, compilerReason, type FailureShape } from './shapes.js';
import { FEATURES, LEARNED_WEIGHTS, scoreOf, type FeatureVector } from './rank.js';
import { hasNewLine, markNewSinceBaseline, type Baseline } from './baseline.js';
import { JENKINS_LINE_PREFIX, branchesOf, branchPrefix, type Branches } from './jenkins.js';

export interface AnalyzeOptions {
  /** How many excerpts to return at most (default 5). */
  maxExcerpts?: number;
  /**
   * The last passing build's lines as fingerprints (`baselineOf`): an excerpt whose lines all
   * occur there ranks below every excerpt that is new, and each excerpt says whether it is new
   * (`new_since_baseline`). Without it the ranking is unchanged and the flag is absent.
   */
  baseline?: Baseline;
  /**
   * Lines known to hold the failure (1-based, inclusive), such as the log lines the failing
   * pipeline step wrote (`buildDetails.failingSteps[].logLines`): excerpts within them rank
   * before every other excerpt. The lines of a parallel branch Jenkins names in `Failed in
   * branch X` (prefixed `[X] `) are such lines too, without this option.
   */
  focus?: readonly (readonly [number, number])[];
}

/** Only the first 4 KiB of a line are examined: a 10 MB line costs no more than a long one. */
const PROBE_CHARS = 4096;
/** The longest excerpt we return: a person reads it on a terminal. */
const MAX_BLOCK_LINES = 80;
const DEFAULT_MAX_EXCERPTS = 5;
/** How many plain lines of the same paragraph may follow an error message. */
const PARAGRAPH_LINES = 8;

type Role = 'blank' | 'noise' | 'command' | 'exit-ok' | 'exit-fail' | 'anchor' | 'header' | 'summary' | 'pass' | 'text';

interface LineInfo {
  role: Role;
  shape: FailureShape | undefined;
  /** The line without timestamps and tool prefixes, cut to PROBE_CHARS. */
  body: string;
  indent: number;
  /** A timestamp or tool prefix was set aside: the line is a tool's log record. */
  stamped: boolean;
  /** The parallel branch whose `[name] ` prefix the line carries. */
  branch?: string;
}

interface Section {
  start: number;
  end: number;
  failed: boolean;
}

type BlockKind = 'detail' | 'summary' | 'exit' | 'before';

interface Block {
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
}

/** Timestamps and per-tool prefixes that do not belong to the message itself. */
const LINE_PREFIX =
  /^(?:\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z ?|\[\d\d:\d\d:\d\d(?:\.\d+)?\] |\[info\] |[\w.-]+ {2,}> ?)/;
const NOISE =
  /^(?:travis_(?:fold|time):|\[Pipeline\] |##\[(?:group|endgroup)\]|(?:remote: )?(?:Counting|Compressing|Receiving|Resolving|Enumerating) objects|Checking out files|Unpacking objects|\s*\d{1,3}%\s*\[|[\s.]*$)/;
const COMMAND = /^(?:\$ \S|\+ \S|##\[group\]Run |> \S+@\S+ \S+ \/|\[Pipeline\] (?:sh|bat|powershell)\b)/;
const TRAVIS_EXIT = /^The command "[\s\S]*" (?:exited with (\d+)|failed)/;
const STEP_EXIT = /^(?:ERROR: script returned exit code (\d+)|##\[error\]Process completed with exit code (\d+))/;
const STACK_FRAME =
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
const DIFF_HEADER = /^(?:\+\+\+ \S|@@ .*@@|- Expected\b)/;
const LEADING_NUMBER = /^\s*\d/;
/** A verdict alone on its line, printed once the step it judges (`* checking tests ...`) is done. */
const BARE_VERDICT = /^\s*(?:ERROR|FAILED|FAIL|FAILURE)\s*$/;
/** A step announced before its verdict is known: `* checking tests ...`, `Running specs...`. */
const PENDING_HEADING = /\S\s*\.\.\.\s*$/;
const NEXT_ITEM = /^_{3,} .* _{3,}$|^={3,}|^-{3,} .* -{3,}$|^⎯{3,}/;
/** A command's usage text, printed after the message that says what was wrong with the call. */
const USAGE = /^\s*[Uu]sage(?: of \S+)?:/;

function leadingSpaces(s: string): number {
  let i = 0;
  while (i < s.length) {
    const c = s.charCodeAt(i);
    if (c === 32) i++;
    else if (c === 9) i += 1;
    else break;
  }
  return i;
}

const NO_BRANCHES: Branches = { all: new Set(), failed: [] };

function classify(raw: string, branches: Branches = NO_BRANCHES): LineInfo {
  let body = raw.length > PROBE_CHARS ? raw.slice(0, PROBE_CHARS) : raw;
  // Jenkins' timestamps and a parallel branch's `[name] ` come before the tool's own prefix.
  const stamp = JENKINS_LINE_PREFIX.exec(body);
  if (stamp) body = body.slice(stamp[0].length);
  const branch = branchPrefix(body, branches);
  if (branch !== undefined) body = body.slice(branch.length + 3);
  const prefix = LINE_PREFIX.exec(body);
  if (prefix) body = body.slice(prefix[0].length);
  const stamped = prefix !== null || (stamp !== null && !stamp[0].startsWith('stderr'));
  if (branch !== undefined) {
    const info = classifyBody(body, stamped);
    info.branch = branch;
    return info;
  }
  return classifyBody(body, stamped);
}

function classifyBody(body: string, stamped: boolean): LineInfo {
  const indent = leadingSpaces(body);
  if (indent === body.length) return { role: 'blank', shape: undefined, body, indent, stamped };
  // GitHub Actions opens each step's group with the step's command: the group marker is the command.
  if (body.startsWith('##[group]Run ')) return { role: 'command', shape: undefined, body, indent, stamped };
  if (NOISE.test(body)) return { role: 'noise', shape: undefined, body, indent, stamped };
  const travis = TRAVIS_EXIT.exec(body);
  if (travis) {
    const code = travis[1];
    return { role: code === '0' ? 'exit-ok' : 'exit-fail', shape: undefined, body, indent, stamped };
  }
  if (STEP_EXIT.test(body)) return { role: 'exit-fail', shape: undefined, body, indent, stamped };
  if (COMMAND.test(body)) return { role: 'command', shape: undefined, body, indent, stamped };
  // A passing test or check (`ok`, `PASS`, `✓` at the end) ends any failure block it follows.
  if (PASS_HINT.test(body) && PASSING.test(body)) return { role: 'pass', shape: undefined, body, indent, stamped };
  if (MAYBE_FAILURE.test(body)) {
    for (const shape of SHAPES) {
      if (shape.re.test(body)) return { role: shape.role, shape, body, indent, stamped };
    }
  }
  return { role: 'text', shape: undefined, body, indent, stamped };
}

/**
 * Cuts the log into the sections of the commands the CI ran (Travis `$ cmd` ... `The command
 * "cmd" exited with N.`, Jenkins `[Pipeline] sh` ... `ERROR: script returned exit code N`,
 * GitHub Actions `##[group]Run` ... `##[error]Process completed with exit code N`).
 */
function findSections(info: LineInfo[]): Section[] {
  const sections: Section[] = [];
  let lastCommand = -1;
  let previousEnd = -1;
  for (let i = 0; i < info.length; i++) {
    const line = info[i];
    if (line === undefined) continue;
    if (line.role === 'command') {
      if (lastCommand <= previousEnd || !line.body.startsWith('+ ')) lastCommand = i;
    } else if (line.role === 'exit-ok' || line.role === 'exit-fail') {
      const failed = line.role === 'exit-fail';
      if (line.body.startsWith('ERROR: script returned')) {
        // Jenkins prints this after the pipeline unwinds: the failing `sh` is the last one before.
        let sh = -1;
        for (let j = i - 1; j > previousEnd && j >= 0; j--) {
          if (/^\[Pipeline\] (?:sh|bat|powershell)\b/.test(info[j]?.body ?? '')) {
            sh = j;
            break;
          }
        }
        if (sh >= 0) {
          let end = sh + 1;
          while (end < i && !/^\[Pipeline\] /.test(info[end]?.body ?? '')) end++;
          sections.push({ start: sh, end: end - 1, failed });
        }
      } else {
        const start = lastCommand > previousEnd ? lastCommand : previousEnd + 1;
        sections.push({ start, end: i, failed });
      }
      previousEnd = i;
    }
  }
  return sections;
}

/**
 * Lines of a unified diff (after its `+++ ` or `@@ ... @@` header, while lines start with
 * ` `, `+`, `-`, `@@` or `\`) are quoted text: `+ make` there is an added line, not a shell
 * trace of a command, and `- error` is a removed line, not an error.
 */
function markDiffs(info: LineInfo[]): void {
  let inDiff = false;
  for (const line of info) {
    const body = line.body;
    if (DIFF_HEADER.test(body)) {
      inDiff = true;
      line.role = 'text';
      line.shape = undefined;
      continue;
    }
    if (!inDiff) continue;
    const c = body.charCodeAt(0);
    // ' ', '+', '-', '\\' (`\ No newline at end of file`), or an empty context line.
    if (body === '' || c === 32 || c === 43 || c === 45 || c === 92) {
      if (line.role !== 'blank') {
        line.role = 'text';
        line.shape = undefined;
      }
    } else if (!/^(?:diff --git |index [0-9a-f]+\.\.|new file mode|deleted file mode)/.test(body)) {
      inDiff = false;
    }
  }
}

/** xcpretty's failure summary: `  testName, reason` over the `  /path/File.swift:12` it failed at. */
const XCTEST_CASE = /^\s+test\w*, \S/;
const XCTEST_LOCATION = /^\s+\S+\.(?:swift|mm?):\d+\s*$/;
const XCTEST_SHAPE: FailureShape = { re: XCTEST_CASE, role: 'anchor', weight: 9, reason: 'XCTest failure' };

/**
 * Shapes known only by two lines together: xcpretty's summary names the failing test and its
 * reason on one line and the file and line on the next (a blank may sit between them); this
 * detailed report outranks the one-line `✗ test` marks printed while the tests ran.
 */
function markTwoLineShapes(info: LineInfo[]): void {
  for (let i = 0; i + 1 < info.length; i++) {
    const line = info[i];
    if (line === undefined || line.indent < 2 || !XCTEST_CASE.test(line.body)) continue;
    let j = i + 1;
    if (info[j]?.role === 'blank') j++;
    const location = info[j];
    if (location !== undefined && XCTEST_LOCATION.test(location.body)) {
      line.role = 'anchor';
      line.shape = XCTEST_SHAPE;
    }
  }
}

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
function growBackward(info: LineInfo[], a: number, floor: number): number {
  let s = a;
  const anchor = info[a];
  if (anchor === undefined) return s;
  for (let j = a - 1; j > floor && a - j <= 6; j--) {
    const line = info[j];
    if (line === undefined || !INCLUDE_CHAIN.test(line.body)) break;
    s = j;
  }
  if (s !== a) return s;
  // A verdict on a line of its own belongs to the step announced above it (R CMD check's
  // `* checking tests ...`, then the step's progress lines, then ` ERROR`).
  if (BARE_VERDICT.test(anchor.body)) {
    for (let j = a - 1; j > floor && a - j <= 8; j--) {
      const line = info[j];
      if (line === undefined) break;
      if (line.role !== 'blank' && line.indent <= anchor.indent && PENDING_HEADING.test(line.body)) return j;
      if (line.role !== 'blank' && line.indent === 0) break;
    }
  }
  if (anchor.shape?.reason === 'exception' || anchor.shape?.reason === 'error') {
    // Node prints `file.js:12`, the source line, a caret line and a blank before the error.
    for (let j = a - 1; j > floor && a - j <= 6; j--) {
      const line = info[j];
      if (line === undefined) break;
      if (line.role === 'command' || line.role === 'exit-ok' || line.role === 'exit-fail') break;
      if (NODE_SOURCE_HEADER.test(line.body) && line.indent === 0) return j;
    }
  }
  const previous = info[a - 1];
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
function growForward(info: LineInfo[], a: number, free: boolean, list = false): number {
  const anchor = info[a];
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
    const line = info[j];
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
      line.role === 'text' && line.indent === 0 && PATH_HEADER.test(line.body.trim()) && info[j + 1]?.role === 'anchor' && info[j + 1]?.shape === anchor.shape;
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
    if (!cont && blanks === 0 && CARET_LINE.test(info[j + 1]?.body ?? '') && (info[j + 1]?.body.trim() ?? '') !== '') cont = true;
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

function reasonOf(line: LineInfo): string {
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
    const tool = /^([\w.+-]+): /.exec(line.body)?.[1];
    return tool !== undefined ? `${tool} error` : 'error';
  }
  if (shape.reason === 'Jenkins: script returned exit code') {
    const code = /exit code (\d+)/.exec(line.body)?.[1] ?? '';
    return `Jenkins: script returned exit code ${code}`.trim();
  }
  return shape.reason;
}

function buildBlocks(info: LineInfo[]): Block[] {
  const blocks: Block[] = [];
  const seenAnchors = new Set<string>();
  let coveredTo = -1;
  for (let i = 0; i < info.length; i++) {
    if (i <= coveredTo) continue;
    const line = info[i];
    if (line === undefined) continue;
    if (line.role === 'anchor' || line.role === 'header') {
      const shape = line.shape;
      if (shape === undefined) continue;
      let start: number;
      let end: number;
      let headerWeight = shape.weight;
      let headerReason = reasonOf(line);
      if (line.role === 'header') {
        let first = i + 1;
        while (first < info.length && (info[first]?.role === 'blank' || info[first]?.role === 'noise')) first++;
        if (first >= info.length || first - i > 3) continue;
        const firstLine = info[first];
        if (firstLine === undefined || firstLine.role === 'command' || firstLine.role === 'summary' || firstLine.role.startsWith('exit')) continue;
        start = first;
        // A header that counts failures (`5 failing`, `There were 2 failures:`) heads the whole
        // numbered list: every item is part of what it announces.
        end = growForward(info, first, firstLine.role !== 'anchor' || firstLine.shape?.reason === 'error' || shape.freeDetail === true, true);
        if (firstLine.role === 'anchor' && end === first) end = growForward(info, first, true, true);
        if (firstLine.role === 'anchor' && firstLine.shape !== undefined) {
          headerWeight = Math.max(shape.weight, firstLine.shape.weight);
          headerReason = shape.freeDetail === true ? shape.reason : reasonOf(firstLine);
        }
      } else {
        start = growBackward(info, i, coveredTo);
        // TAP prints a test's verdict after its output: `not ok 23 name` closes the paragraph of
        // what that test printed (its error and trace), which may already hold weaker blocks.
        if (TAP_FAILURE.test(line.body)) {
          const own = testOutputStart(info, i);
          if (own < start) {
            while (blocks.length > 0 && (blocks[blocks.length - 1]?.start ?? -1) >= own) blocks.pop();
            start = own;
          }
        }
        // `Error:` with nothing after it announces a message printed on the lines below; an
        // XCTest summary item runs over its blank-separated location and source snippet.
        const announces = /^\S*(?:Error|error|ERROR):\s*$/.test(line.body) && line.shape?.reason !== 'minitest failure';
        end = growForward(info, i, announces || line.shape === XCTEST_SHAPE);
        // A bare verdict after its step's heading: the detail printed under it is the block.
        const next = info[i + 1];
        if (end === i && start < i && BARE_VERDICT.test(line.body) && next !== undefined && (next.role === 'anchor' || next.role === 'text')) {
          end = growForward(info, i + 1, false);
        }
      }
      // A parent test whose only content is its nested subtests' results (Go's `--- FAIL: T`
      // over `    --- PASS: T/a`, `    --- FAIL: T/b`) is not the detail: the failing subtest is.
      const after = info[end + 1];
      if (line.role === 'anchor' && end === i && after !== undefined && after.indent > line.indent && (after.role === 'pass' || (after.role === 'anchor' && after.shape === line.shape))) {
        headerWeight -= 3;
      }
      // Fold repeats: the same message printed again (retries, per-module echoes) scores less.
      const key = line.body.replace(/\d+/g, '#').trim();
      const repeated = seenAnchors.has(key);
      seenAnchors.add(key);
      let anchors = 0;
      let weight = headerWeight;
      let reason = headerReason;
      for (let j = start; j <= end; j++) {
        const inner = info[j];
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
      for (let j = start; j <= end && j - start < 12 && !pointer; j++) pointer = POINTS_ELSEWHERE.test(info[j]?.body ?? '');
      if (pointer) blocks.push({ start, end, weight: Math.min(weight, 4), anchors, reason, kind: 'summary', repeated, anchor: i });
      else blocks.push({ start, end, weight, anchors, reason, kind: 'detail', repeated, anchor: i });
      coveredTo = end;
    } else if (line.role === 'exit-fail') {
      const before = precedingOutput(info, i, coveredTo);
      if (before !== null) blocks.push(before);
      const code = /(?:exited with|exit code) (\d+)/.exec(line.body)?.[1];
      const reason = line.body.startsWith('ERROR: script returned')
        ? `Jenkins: script returned exit code ${code ?? ''}`.trim()
        : code !== undefined ? `command exited with ${code}` : 'command failed';
      // 124 is timeout(1)'s status and 137 a SIGKILL (often the out-of-memory killer): then the
      // exit line is itself the explanation.
      const signal = code === '124' ? 'command timed out (exit 124)' : code === '137' ? 'command killed (exit 137)' : null;
      blocks.push({ start: i, end: i, weight: signal !== null ? 7 : 1, anchors: 0, reason: signal ?? reason, kind: 'exit', repeated: false, anchor: i });
      coveredTo = i;
    } else if (line.role === 'summary' && line.shape !== undefined) {
      const before = precedingOutput(info, i, coveredTo);
      if (before !== null) blocks.push(before);
      let end = i;
      while (end + 1 < info.length && info[end + 1]?.role === 'summary' && end - i < 10) end++;
      blocks.push({ start: i, end, weight: line.shape.weight - 2, anchors: 0, reason: reasonOf(line), kind: 'summary', repeated: false, anchor: i });
      coveredTo = end;
    }
  }
  return blocks;
}

/**
 * The last paragraph a command printed before its failure summary or exit marker, when no
 * known shape covers it: tools that fail quietly (a formatter listing files, a size budget,
 * a "please commit the generated files") say why right there.
 */
function precedingOutput(info: LineInfo[], at: number, floor: number): Block | null {
  let end = at - 1;
  let blanks = 0;
  let skipped = 0;
  // Blank lines and step boundaries (`[Pipeline] }`) part the output from its failure; timing
  // and fold markers (`travis_time:end`, `##[endgroup]`) do not.
  while (end > floor && (info[end]?.role === 'blank' || info[end]?.role === 'noise')) {
    if (!TIMING_MARKER.test(info[end]?.body ?? '') && ++blanks > 2) return null;
    if (++skipped > 8) return null;
    end--;
  }
  if (end <= floor) return null;
  const last = info[end];
  if (last === undefined || (last.role !== 'text' && last.role !== 'anchor')) return null;
  let start = end;
  while (start - 1 > floor && end - start < 7) {
    const previous = info[start - 1];
    if (previous === undefined || (previous.role !== 'text' && previous.role !== 'anchor')) break;
    // A plain line after a tool's timestamped records is the script's own message.
    if (previous.stamped && !last.stamped) break;
    start--;
  }
  start = diffStart(info, end, floor, start);
  return { start, end, weight: 5, anchors: 0, reason: 'output before the failure', kind: 'before', repeated: false, anchor: end };
}

const TIMING_MARKER = /^(?:travis_(?:fold|time):|##\[endgroup\])/;

const TAP_FAILURE = /^not ok \d+/;
/** The lines that chain one Python traceback to the next. */
const PY_CHAINED = /^(?:During handling of the above exception, another exception occurred:|The above exception was the direct cause of the following exception:)$/;
/** The line that ends a Python traceback: the exception's qualified name and its message. */
const PY_EXCEPTION_LINE = /^[A-Za-z_][\w.]*(?::|$)/;

/**
 * Where the output of the test whose verdict is at `at` begins: after the blank line, passing
 * line, command or other verdict before it (at most MAX_BLOCK_LINES back).
 */
function testOutputStart(info: LineInfo[], at: number): number {
  let s = at;
  for (let k = at - 1; k >= 0 && at - k < MAX_BLOCK_LINES; k--) {
    const line = info[k];
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
function diffStart(info: LineInfo[], end: number, floor: number, start: number): number {
  let hunk = false;
  let first = -1;
  for (let k = end; k > floor && end - k < MAX_BLOCK_LINES; k--) {
    const body = info[k]?.body ?? '';
    // The body is the line less its tool prefix; a diff's lines are told by their first column.
    if (!DIFF_LINE.test(body) || info[k]?.role === 'command' || info[k]?.role === 'noise') break;
    if (body.startsWith('@@ ')) hunk = true;
    if (body.startsWith('diff --git ') || (body.startsWith('--- ') && info[k + 1]?.body.startsWith('+++ '))) first = k;
  }
  return hunk && first >= 0 && first < start ? first : start;
}

/** Where the CI server's epilogue begins (`Done. Your build exited with 1.`, `Finished: FAILURE`). */
function buildEnd(info: LineInfo[]): number {
  for (let i = 0; i < info.length; i++) {
    const body = info[i]?.body ?? '';
    if (body.startsWith('Done. Your build exited with') || /^Finished: [A-Z]+$/.test(body)) return i;
  }
  return info.length;
}

const NPM_PREFIX = /^npm (?:ERR!|error) $/;
/** A line that starts another step of the build. */
const NEXT_STEP =
  /^(?:\+ \S|\$ \S|> Task :|\[INFO\] --- |\[INFO\] Building |Step \d+\/\d+ : |#\d+ \[|\[Pipeline\] (?:sh|bat|stage|withEnv)\b|##\[group\]Run |==> |make\[\d+\]: Entering|\s*Compiling \S+ v\d|\[step \d+\/\d+\])/;

/** A failure message that points at a detail printed elsewhere. */
const POINTS_ELSEWHERE =
  /\b[Ss]ee (?:the )?(?:log|compiler (?:error )?output|errors? above|output above|console output|the report at)\b|\b[Cc]heck the (?:log|output) (?:above|for (?:more )?details)/;

/** Help links, timing and "see the log" hints: what a build tool prints around its failure. */
const BOILERPLATE =
  /https?:\/\/\S*(?:help|docs|wiki|gradle\.org|maven\.apache|yarnpkg)|\bTotal time\b|Finished at:|[Ss]ee (?:the )?log for more|see the compiler error output|Run with --(?:stacktrace|info|debug|scan)|Re-run Maven|-> \[Help \d+\]|For more information about the errors|To see the full stack trace|Get more help at|A complete log of this run/;
/** A file and a line in it: `Foo.kt:57:33`, `Foo.tsx(142,23)`, `File "x.py", line 3`, `Foo.java:[12,5]`. */
const LOCATION = /[\w-]\.[A-Za-z]\w{0,5}(?::\[?\d+|\(\d+,\d+\)|", line \d+)/;

/** A candidate excerpt with the features the ranker weighs. */
export interface Candidate {
  start: number;
  end: number;
  reason: string;
  features: FeatureVector;
}

/**
 * Describes every block by the features of `rank.ts`. Linear in the log: a backward pass
 * counts, for every line, the ordinary output printed after it before the build stopped.
 */
function describeBlocks(info: LineInfo[], blocks: Block[], sections: Section[], epilogue: number): Candidate[] {
  const total = info.length;
  const primary = sections.find((s) => s.failed);
  const sorted = [...sections].sort((x, y) => x.start - y.start);
  // goesOn[i]: lines with text from i to the next place the build stopped (a summary, a failing
  // exit, the CI epilogue or the end of the log).
  // Counted in steps the build started (a shell trace, a Gradle task, a Maven plugin, a
  // Docker step), not in lines: a test runner prints on after a failing test, and that is
  // still the run that failed.
  const goesOn = new Int32Array(total + 1);
  for (let i = total - 1; i >= 0; i--) {
    const line = info[i];
    const role = line?.role;
    if (role === 'summary' || role === 'exit-fail' || i >= epilogue) goesOn[i] = 0;
    else goesOn[i] = (goesOn[i + 1] ?? 0) + ((role === 'command' || role === 'text') && NEXT_STEP.test(line?.body ?? '') ? 1 : 0);
  }
  const templates = new Map<string, number>();
  const keyOf = (i: number): string => (info[i]?.body ?? '').replace(/\d+/g, '#').trim();
  for (const b of blocks) {
    if (b.kind !== 'detail') continue;
    const k = keyOf(b.anchor);
    templates.set(k, (templates.get(k) ?? 0) + 1);
  }
  const earlier = new Map<string, number>();
  const firstDetail = new Set<number>();
  const out: Candidate[] = [];
  let si = 0;
  for (let b = 0; b < blocks.length; b++) {
    const block = blocks[b];
    if (block === undefined) continue;
    while (si < sorted.length && (sorted[si]?.end ?? 0) < block.start) si++;
    const candidate = sorted[si];
    const section = candidate !== undefined && candidate.start <= block.start ? candidate : undefined;
    const sectionIndex = section !== undefined ? si : -1;
    const f: FeatureVector = new Array<number>(FEATURES.length).fill(0);
    // Specific shapes earn the full benefit of sitting in the failing command; a bare word less.
    const strength = block.weight >= 6 ? 1 : 0.5;
    f[0] = block.weight;
    f[1] = block.repeated ? 1 : 0;
    if (section !== undefined) {
      if (section === primary) f[2] = strength;
      else if (section.failed) f[3] = strength;
      else f[4] = 1;
    } else if (primary !== undefined) {
      // Outside any command (setup, teardown): before the failing command it rarely matters.
      if (block.start > primary.end) f[5] = 1;
      else f[6] = 1;
    }
    // What the CI server prints after the build has ended (cache upload, VM teardown) is not why.
    if (block.start > epilogue) f[7] = 1;
    f[8] = block.start / Math.max(1, total);
    if (block.anchors > 1) f[9] = 1;
    // The same kind of error again in the same command is the cascade of the first one.
    const key = `${sectionIndex}:${block.reason}`;
    const seen = earlier.get(key) ?? 0;
    earlier.set(key, seen + 1);
    f[10] = Math.min(2, 0.4 * seen);
    // What the build did after the block: went on for a while (survivable) or stopped (fatal).
    const after = goesOn[Math.min(total, block.end + 1)] ?? 0;
    f[11] = Math.log2(1 + after) / 4;
    f[12] = after <= 3 ? 1 : 0;
    if (block.kind === 'detail') f[13] = Math.log2(templates.get(keyOf(block.anchor)) ?? 1);
    let located = false;
    let frames = 0;
    let boiler = 0;
    const last = Math.min(block.end, block.start + 19);
    for (let j = block.start; j <= last; j++) {
      const body = info[j]?.body ?? '';
      if (!located && LOCATION.test(body)) located = true;
      if (STACK_FRAME.test(body)) frames++;
      if (BOILERPLATE.test(body)) boiler++;
    }
    f[14] = located ? 1 : 0;
    f[15] = frames >= 2 ? 1 : 0;
    f[16] = boiler / (last - block.start + 1);
    if (block.kind === 'detail' && !firstDetail.has(sectionIndex)) {
      firstDetail.add(sectionIndex);
      f[17] = 1;
    }
    if (block.kind === 'detail') {
      let k = b + 1;
      while (k < blocks.length && blocks[k]?.kind === 'before') k++;
      const next = blocks[k];
      if (next !== undefined && (next.kind === 'summary' || next.kind === 'exit')) f[18] = 1;
    }
    if (block.kind === 'summary') f[19] = 1;
    if (block.kind === 'exit') f[20] = 1;
    if (block.kind === 'before') f[21] = 1;
    f[22] = Math.log2(2 + block.end - block.start) / 7;
    out.push({ start: block.start, end: block.end, reason: block.reason, features: f });
  }
  return out;
}

/**
 * Every candidate excerpt of a log of cleaned lines with its features, in log order (0-based
 * line indexes). For the ranker's offline training and the benchmark's protocol.
 */
export function candidatesOf(lines: readonly string[]): Candidate[] {
  const info = classifyAll(lines);
  markDiffs(info);
  markTwoLineShapes(info);
  const sections = findSections(info);
  const blocks = buildBlocks(info);
  return describeBlocks(info, blocks, sections, buildEnd(info));
}

/** Ranks candidates by a weight vector: best first; among equals the earlier one. */
export function rankCandidates(candidates: readonly Candidate[], weights: readonly number[]): { candidate: Candidate; score: number }[] {
  const scored = candidates.map((candidate) => ({ candidate, score: scoreOf(candidate.features, weights) }));
  // Among equals the earlier error, since what follows is usually its cascade.
  scored.sort((x, y) => y.score - x.score || x.candidate.start - y.candidate.start);
  return scored;
}

/**
 * Finds the failure excerpts of a log of already-cleaned lines (as `cleanLines` makes them;
 * the backend stores those). Line numbers are 1-based indexes into `lines`.
 */
export function analyzeLines(lines: readonly string[], options: AnalyzeOptions = {}): LogExcerpt[] {
  const max = Math.max(1, options.maxExcerpts ?? DEFAULT_MAX_EXCERPTS);
  const branches = branchesOf(lines);
  const info = classifyAll(lines, branches);
  markDiffs(info);
  markTwoLineShapes(info);
  const sections = findSections(info);
  const blocks = buildBlocks(info);
  // One candidate per block, in the same order: the score is the weighted sum of its features.
  const candidates = describeBlocks(info, blocks, sections, buildEnd(info));
  const scored = blocks.map((block, k) => ({ block, score: scoreOf(candidates[k]?.features ?? [], LEARNED_WEIGHTS) }));
  // Best first; among equals the earlier error, since what follows is usually its cascade.
  // Blocks within the lines known to hold the failure (the failing step's, a failed branch's) first.
  const focused = focusOf(info, branches, options.focus);
  scored.sort((x, y) => Number(focused(y.block)) - Number(focused(x.block)) || y.score - x.score || x.block.start - y.block.start);
  // Against the last green build: what it printed too ranks below every new excerpt.
  const ranked = options.baseline ? markNewSinceBaseline(lines, scored, options.baseline, (a, b) => firstReason(info, a, b)) : scored;
  const out: LogExcerpt[] = ranked.slice(0, max).map(({ block, score, fresh }: { block: Block; score: number; fresh?: boolean }) => ({
    start_line: block.start + 1,
    end_line: block.end + 1,
    score: Math.round(score * 100) / 100,
    reason: block.reason,
    ...(fresh === undefined ? {} : { new_since_baseline: fresh }),
  }));
  if (out.length === 0) {
    const tail = tailExcerpt(info);
    if (tail !== null) {
      if (options.baseline) tail.new_since_baseline = hasNewLine(lines, tail.start_line - 1, tail.end_line - 1, options.baseline);
      out.push(tail);
    }
  }
  // What each excerpt establishes (issue 25): bounded work per excerpt, not per line.
  return withFindings(lines, out);
}

function classifyAll(lines: readonly string[], branches: Branches = branchesOf(lines)): LineInfo[] {
  return branches.all.size === 0 ? lines.map((l) => classify(l)) : lines.map((l) => classify(l, branches));
}

/**
 * Whether a block lies where the failure is known to be: inside a `focus` range (0-based lines
 * here, 1-based in the option) or, failing that, on the lines of a branch Jenkins says failed.
 * Summaries and exit lines (the step's wrapper) are never focused: the step's output is.
 */
function focusOf(info: LineInfo[], branches: Branches, focus: AnalyzeOptions['focus']): (b: Block) => boolean {
  const ranges = (focus ?? []).map(([a, b]) => [a - 1, b - 1] as const).filter(([a, b]) => b >= a);
  const failed = new Set(branches.failed);
  if (ranges.length === 0 && failed.size === 0) return () => false;
  return (b: Block): boolean => {
    if (b.kind === 'summary' || b.kind === 'exit') return false;
    if (ranges.length > 0) return ranges.some(([s, e]) => b.anchor >= s && b.anchor <= e);
    const branch = info[b.anchor]?.branch;
    return branch !== undefined && failed.has(branch);
  };
}

/** The reason of the first failure shape in lines a..b (0-based), for a block cut by a baseline. */
function firstReason(info: LineInfo[], a: number, b: number): string {
  for (let k = a; k <= b; k++) {
    const line = info[k];
    if (line?.shape !== undefined && line.role !== 'summary') return reasonOf(line);
  }
  return 'new since the passing build';
}

/** No recognisable failure: the last lines that say anything, as a plain tail. */
function tailExcerpt(info: LineInfo[]): LogExcerpt | null {
  let end = info.length - 1;
  while (end >= 0 && (info[end]?.role === 'blank' || info[end]?.role === 'noise')) end--;
  if (end < 0) return null;
  const start = Math.max(0, end - 6);
  return { start_line: start + 1, end_line: end + 1, score: 0, reason: 'no failure found' };
}

/**
 * Finds why a build failed: ranked excerpts (best first, at most `maxExcerpts`, default 5)
 * with 1-based, inclusive line numbers of the original log counted on "\n".
 */
export function analyze(log: string, options: AnalyzeOptions = {}): LogExcerpt[] {
  return analyzeLines(cleanLines(log), options);
}

/**
 * The text of an excerpt for a person to read: its lines, with runs of repeated lines (the
 * same message again and again, or lines that differ only in numbers) folded into one line
 * and a count.
 */
export function excerptText(lines: readonly string[], e: LogExcerpt): string {
  const out: string[] = [];
  const from = Math.max(1, e.start_line);
  const to = Math.min(lines.length, e.end_line);
  let i = from;
  while (i <= to) {
    const line = lines[i - 1] ?? '';
    const key = line.replace(/\d+/g, '#');
    let j = i + 1;
    while (j <= to && (lines[j - 1] ?? '').replace(/\d+/g, '#') === key) j++;
    const run = j - i;
    if (run >= 3) {
      out.push(line);
      out.push(`[... ${run - 1} similar lines folded ...]`);
    } else {
      for (let k = i; k < j; k++) out.push(lines[k - 1] ?? '');
    }
    i = j;
  }
  return out.join('\n');
}
