/**
 * Source locations (`file:line`) that a build log's failure lines name, in the shapes the common
 * tools print: javac (plain and through Maven), kotlinc, tsc, gcc/clang, go, rustc, pytest (and
 * Python tracebacks), jest (and Node stack frames), JVM stack frames, and the Groovy
 * `WorkflowScript` of a pipeline. Pure: no file system; mapping a path into a workspace is the
 * reader's work (jenkins/workspace/snippets.ts).
 */
import type { LogExcerpt } from '../../protocol/types.js';

/**
 * Which tool's shape a location was read from; `other` is any `path:line[:col] message` whose
 * message states an error (a YAML or XML file, a tool this list does not name).
 */
export type LocationShape = 'javac' | 'kotlinc' | 'tsc' | 'gcc' | 'go' | 'rustc' | 'pytest' | 'python' | 'jest' | 'jvm-stack' | 'pipeline' | 'other';

export interface SourceLocation {
  /**
   * The path as the log wrote it (relative, absolute, or a bare file name); for JVM stack
   * frames the package path (`com/example/Foo.java`), for a pipeline `WorkflowScript`.
   */
  path: string;
  /** 1-based line in that file. */
  line: number;
  column?: number;
  shape: LocationShape;
  /** The 1-based line of the log that names it. */
  logLine: number;
  /** What the tool said about it (the error text), when the same line or the next one says it. */
  message?: string;
}

/** The pipeline script's name in Groovy's messages and stack frames. */
export const PIPELINE_SCRIPT = 'WorkflowScript';

const SOURCE_EXT = 'java|kt|kts|scala|groovy|gradle|ts|tsx|mts|cts|js|jsx|mjs|cjs|py|go|rs|c|cc|cpp|cxx|h|hh|hpp|hxx|m|mm|swift|cs|rb|php|vue|svelte';
const PATH = `((?:[A-Za-z]:)?[^\\s:()"'\\[\\]<>|*?]*?\\.(?:${SOURCE_EXT}))`;
/** Any file with an extension (`pom.xml`, `values.yaml`): only with a message that states an error. */
const ANY_PATH = `((?:[\\w.@~+-]*\\/)*[\\w.@+-]+\\.[A-Za-z]\\w{0,5})`;
/** Words of a message that states an error (a source line `12 | x` quoted by a tool does not). */
const ERRORISH = /\b(?:error|Error|ERROR|failed|FAILED|fatal|Unresolved|cannot|expected|undefined|not defined|mismatched|AssertionError|assert)\b/;

interface Pattern {
  shape: LocationShape;
  re: RegExp;
  /** Indexes of path, line, column and message groups (0 = absent). */
  groups: [number, number, number, number];
  /** A match counts only when its message states an error. */
  errorOnly?: true;
}

const PATTERNS: Pattern[] = [
  // [ERROR] /ws/src/main/java/a/B.java:[42,17] cannot find symbol   (Maven compiler plugin)
  { shape: 'javac', re: new RegExp(`^\\[(?:ERROR|WARNING)\\]\\s+(?:COMPILATION ERROR :\\s*)?${PATH}:\\[(\\d+),(\\d+)\\]\\s*(.*)$`), groups: [1, 2, 3, 4] },
  // B.java:42: error: cannot find symbol   (javac, also scalac's "error:" form)
  { shape: 'javac', re: new RegExp(`^${PATH}:(\\d+):\\s*((?:error|warning):\\s*.*)$`), groups: [1, 2, 0, 3] },
  // e: /ws/src/A.kt: (42, 17): Unresolved reference: foo   and  e: file:///ws/src/A.kt:42:17 Unresolved reference
  { shape: 'kotlinc', re: new RegExp(`^(?:\\[(?:ERROR|WARNING)\\]\\s+)?[ewE]: (?:file://)?${PATH}: \\((\\d+), (\\d+)\\): (.*)$`), groups: [1, 2, 3, 4] },
  { shape: 'kotlinc', re: new RegExp(`^(?:\\[(?:ERROR|WARNING)\\]\\s+)?[ewE]: (?:file://)?${PATH}:(\\d+):(\\d+):? (.*)$`), groups: [1, 2, 3, 4] },
  // src/a.ts(42,17): error TS2339: ...   and   src/a.ts:42:17 - error TS2339: ...
  { shape: 'tsc', re: new RegExp(`^${PATH}\\((\\d+),(\\d+)\\): (error TS\\d+: .*)$`), groups: [1, 2, 3, 4] },
  { shape: 'tsc', re: new RegExp(`^${PATH}:(\\d+):(\\d+) - (error TS\\d+: .*)$`), groups: [1, 2, 3, 4] },
  //  --> src/main.rs:42:17   (rustc; the message is on the line before)
  { shape: 'rustc', re: new RegExp(`^\\s*--> ${PATH}:(\\d+):(\\d+)\\s*$`), groups: [1, 2, 3, 0] },
  // File "/ws/app/x.py", line 42, in total   (Python traceback)
  { shape: 'python', re: /^\s*File "([^"]+\.py)", line (\d+)(?:, in .*)?$/, groups: [1, 2, 0, 0] },
  // tests/test_x.py:42: AssertionError   (pytest's short location line)
  { shape: 'pytest', re: /^((?:[A-Za-z]:)?[^\s:()"']+\.py):(\d+):\s*(.*)$/, groups: [1, 2, 0, 3] },
  // at Object.<anonymous> (src/sum.test.js:42:17)   and  at src/x.js:42:17   (jest / Node)
  { shape: 'jest', re: new RegExp(`^\\s*at (?:.*? \\()?(?:file://)?${PATH}:(\\d+):(\\d+)\\)?\\s*$`), groups: [1, 2, 3, 0] },
  // ● suite › test ... (src/x.test.ts:42:17)  or  › src/x.test.ts:42:17
  { shape: 'jest', re: new RegExp(`(?:›|\\()\\s*${PATH}:(\\d+):(\\d+)\\)?\\s*$`), groups: [1, 2, 3, 0] },
  // a.c:42:17: error: ...  /  ./main.go:42:17: undefined: foo   (gcc, clang, go, swift)
  { shape: 'gcc', re: new RegExp(`^(?:\\[(?:ERROR|WARNING)\\]\\s+|vet: )?${PATH}:(\\d+):(\\d+):\\s*(.*)$`), groups: [1, 2, 3, 4] },
  // # pkg\n./main.go:42: undefined: foo   (older go vet / go build)
  { shape: 'go', re: /^(?:vet: )?((?:\.\/)?[^\s:()"']+\.go):(\d+):\s*(.*)$/, groups: [1, 2, 0, 3] },
  // [ERROR] /ws/pom.xml:[12,5] ...   config/app.yaml:3:1: error ...   (any file; the message must state an error)
  { shape: 'other', re: new RegExp(`^(?:\\[ERROR\\] |e: |E: |vet: )?(?:file://)?${ANY_PATH}:\\[(\\d+),(\\d+)\\]\\s*(.*)$`), groups: [1, 2, 3, 4], errorOnly: true },
  { shape: 'other', re: new RegExp(`^(?:\\[ERROR\\] |e: |E: |vet: )?(?:file://)?${ANY_PATH}\\((\\d+),(\\d+)\\):\\s*(.*)$`), groups: [1, 2, 3, 4], errorOnly: true },
  { shape: 'other', re: new RegExp(`^(?:\\[ERROR\\] |e: |E: |vet: )?(?:file://)?${ANY_PATH}:(\\d+)(?::(\\d+))?:?\\s+(.*)$`), groups: [1, 2, 3, 4], errorOnly: true },
];

/** at com.example.Foo.bar(Foo.java:42)   (JVM stack frame; the package gives the directories) */
const JVM_FRAME = /^\s*at ((?:[\w$]+\.)*)([\w$]+)\.[\w$<>]+\(([\w$]+\.(?:java|kt|groovy|scala)):(\d+)\)\s*$/;
/** WorkflowScript: 12: unexpected token: }   (Groovy compilation of a pipeline script) */
const WORKFLOW_SCRIPT_ERROR = /^WorkflowScript: (\d+): (.*?)(?: @ line \d+, column (\d+)\.)?$/;
/** at WorkflowScript.run(WorkflowScript:12)   (a pipeline script's frame) */
const WORKFLOW_SCRIPT_FRAME = /\(WorkflowScript:(\d+)\)/;
/** Frames of libraries and the JVM: never the build's own code. */
const LIBRARY_PACKAGE = /^(?:java|javax|jdk|sun|com\.sun|kotlin|scala|groovy|org\.junit|junit|org\.opentest4j|org\.apache\.maven|org\.gradle|org\.codehaus|org\.jenkinsci|hudson|jenkins|org\.springframework|org\.testng|org\.mockito|org\.assertj|org\.hamcrest)\./;
/** javac's detail lines under an error. */
const DETAIL = /^(?:\[(?:ERROR|WARNING)\]\s+)?\s*(symbol|location|required|found|reason)(\s*):\s*(.+)$/;
const RUSTC_HEAD = /^(?:error|warning)(?:\[E\d+\])?: (.*)$/;

/** A timestamp before the line, bracketed (`[12:00:01] `) or bare (`2024-05-01T12:00:01.123Z `), and trailing blanks. */
const strip = (line: string): string =>
  line
    .replace(/^\[(?:\d{4}-\d\d-\d\dT[\d:.]+Z|[\d:.]+)\]\s+/, '')
    .replace(/^\d{4}-\d\d-\d\dT[\d:.]+Z /, '')
    .trimEnd();

/** The locations one log line names (usually none, at most one). */
export function locationsInLine(raw: string, logLine: number, previous?: string): SourceLocation[] {
  const line = strip(raw);
  if (line === '') return [];
  const script = WORKFLOW_SCRIPT_ERROR.exec(line);
  if (script) {
    const column = script[3] ? Number(script[3]) : undefined;
    return [{ path: PIPELINE_SCRIPT, line: Number(script[1]), ...(column ? { column } : {}), shape: 'pipeline', logLine, message: script[2] }];
  }
  const frame = WORKFLOW_SCRIPT_FRAME.exec(line);
  if (frame) return [{ path: PIPELINE_SCRIPT, line: Number(frame[1]), shape: 'pipeline', logLine }];
  const jvm = JVM_FRAME.exec(line);
  if (jvm) {
    const pkg = jvm[1] ?? '';
    if (LIBRARY_PACKAGE.test(pkg)) return [];
    const dirs = pkg.replace(/\.$/, '').split('.').filter(Boolean);
    return [{ path: [...dirs, jvm[3] ?? ''].join('/'), line: Number(jvm[4]), shape: 'jvm-stack', logLine }];
  }
  for (const pattern of PATTERNS) {
    const m = pattern.re.exec(line);
    if (!m) continue;
    const [p, l, c, msg] = pattern.groups;
    const file = (m[p] ?? '').replace(/^file:\/\//, '');
    const lineNo = Number(m[l]);
    if (pattern.errorOnly && !ERRORISH.test(m[msg] ?? '')) continue;
    if (!file || !Number.isSafeInteger(lineNo) || lineNo < 1) continue;
    // Node's own internals and installed packages are not the build's code.
    if (/(?:^|\/)node_modules\/|^node:|^internal\//.test(file)) return [];
    const column = c ? Number(m[c]) : undefined;
    let message = msg ? m[msg]?.trim() : undefined;
    if (!message && pattern.shape === 'rustc' && previous) message = RUSTC_HEAD.exec(strip(previous))?.[1];
    return [
      {
        path: file,
        line: lineNo,
        ...(column !== undefined && column > 0 ? { column } : {}),
        shape: pattern.shape,
        logLine,
        ...(message ? { message } : {}),
      },
    ];
  }
  return [];
}

export interface LocationOptions {
  /** How many excerpts (in the analyzer's order) are read; 5 by default. */
  maxExcerpts?: number;
  /** How many distinct locations are kept; 12 by default. */
  maxLocations?: number;
}

/** Where the lines of a range sit: `lines[0]` is log line `firstLine`. */
interface Scan {
  lines: readonly string[];
  firstLine: number;
  seen: Set<string>;
  out: SourceLocation[];
  max: number;
}

/**
 * Reads the lines `from..to` (indexes into `scan.lines`) and appends the locations they name that
 * are not seen yet, each with its message completed: a pointer line that says nothing itself
 * (rustc's arrow, a traceback line, a stack frame) takes the error line above it; else an error
 * line right after it; javac's and kotlinc's detail lines (`symbol: ...`, `found: ...`) after it
 * join the message, one per line. Returns false once `max` locations are kept.
 */
function scanRange(scan: Scan, from: number, to: number): boolean {
  const { lines, seen, out } = scan;
  let lastError = '';
  for (let k = from; k <= to && k < lines.length; k++) {
    const body = strip(lines[k] ?? '').trim();
    const found = locationsInLine(lines[k] ?? '', scan.firstLine + k);
    if (found.length === 0) {
      if (ERRORISH.test(body) && !DETAIL.test(body)) lastError = body;
      continue;
    }
    const own = found.some((loc) => loc.message !== undefined);
    for (const loc of found) {
      const key = `${loc.path}:${loc.line}`;
      if (seen.has(key)) continue;
      if (!loc.message && lastError) loc.message = lastError;
      if (!loc.message) {
        const next = strip(lines[k + 1] ?? '').trim();
        if (next && !locationsInLine(next, 0).length && /error|exception|expected|cannot|undefined|not found|mismatch/i.test(next)) loc.message = next;
      }
      const details: string[] = [];
      for (let d = k + 1; d < Math.min(lines.length, k + 6); d++) {
        if (locationsInLine(lines[d] ?? '', 0).length > 0) break;
        const detail = DETAIL.exec(strip(lines[d] ?? ''));
        // As printed, spaces squashed: scalac's ` found   : A` is `found : A`.
        if (detail) details.push(`${detail[1]}${detail[2] ? ' :' : ':'} ${(detail[3] ?? '').trim()}`);
      }
      if (details.length > 0) loc.message = [loc.message, ...details].filter(Boolean).join('\n');
      seen.add(key);
      out.push(loc);
      if (out.length >= scan.max) return false;
    }
    // A diagnostic with its own message is the error the pointer lines after it belong to.
    if (own) lastError = body;
  }
  return true;
}

/**
 * The distinct `file:line` locations one excerpt names, in order (`span.text` is its lines,
 * the first being log line `span.start_line`).
 */
export function locationsInSpan(span: { start_line: number; text: string }, maxLocations = 50): SourceLocation[] {
  const lines = span.text.split('\n');
  const scan: Scan = { lines, firstLine: span.start_line, seen: new Set(), out: [], max: maxLocations };
  scanRange(scan, 0, lines.length - 1);
  return scan.out;
}

/**
 * The distinct `file:line` locations the top failure excerpts name, in excerpt order (the
 * analyzer's rank), first mention first. `lines` is the cleaned log (index 0 = line 1).
 */
export function failureLocations(lines: readonly string[], excerpts: readonly LogExcerpt[], options: LocationOptions = {}): SourceLocation[] {
  const scan: Scan = { lines, firstLine: 1, seen: new Set(), out: [], max: options.maxLocations ?? 12 };
  const top = excerpts.filter((e) => e.score > 0).slice(0, options.maxExcerpts ?? 5);
  for (const excerpt of top) if (!scanRange(scan, excerpt.start_line - 1, excerpt.end_line - 1)) break;
  return scan.out;
}
