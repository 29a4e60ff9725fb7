/**
 * Where in the code an error points: the file, line and column a compiler, linter, test runner
 * or stack trace names in an excerpt, with the message that goes with it.
 */
import type { LogSpan } from '../logtext.js';

export interface CodeLocation {
  /** The file as printed, without a `file://` scheme. */
  path: string;
  line: number;
  column?: number;
  /** The diagnostic's message (the rest of its line, or the error line above it). */
  message: string;
  /** The log line (1-based) that names it. */
  logLine: number;
}

/** `path:line[:col]: [error:] message`, `path(line,col): error TS1: message`, `e: file:///path:l:c message`, `[ERROR] /path:[l,c] message`. */
const SHAPES: RegExp[] = [
  /^(?:\[ERROR\] |e: |E: )?(?:file:\/\/)?((?:[\w.@~+-]*\/)*[\w.@+-]+\.[A-Za-z]\w{0,5}):\[(\d+),(\d+)\]\s*(.*)$/,
  /^(?:\[ERROR\] |e: |E: )?(?:file:\/\/)?((?:[\w.@~+-]*\/)*[\w.@+-]+\.[A-Za-z]\w{0,5})\((\d+),(\d+)\):\s*(.*)$/,
  /^(?:\[ERROR\] |e: |E: |vet: )?(?:file:\/\/)?((?:[\w.@~+-]*\/)*[\w.@+-]+\.[A-Za-z]\w{0,5}):(\d+)(?::(\d+))?:?\s+(.*)$/,
];
/** Lines that only point at a place; the message is on the error line before them. */
const POINTERS: RegExp[] = [
  /^\s*--> ((?:[\w.@~+-]*\/)*[\w.@+-]+\.\w+):(\d+):(\d+)/, // rustc
  /^\s*File "([^"]+)", line (\d+)/, // Python traceback
  /^\s*at .*?\(((?:[\w.@~+-]*\/)*[\w.@+-]+\.\w+):(\d+):(\d+)\)/, // Node/Jest stack frame
];
const WORKFLOW = /^WorkflowScript: (\d+): (.*?)(?: @ line \d+, column (\d+)\.)?$/;
const GNU_FORM = /^(?:vet: )?\S+\.[A-Za-z]\w{0,5}:\d+:\d+: \S/;
const ERRORISH = /\b(?:error|Error|ERROR|failed|FAILED|fatal|Unresolved|cannot|expected|undefined|not defined|mismatched|AssertionError|assert)\b/;

function clean(message: string): string {
  return message.trim();
}

/** The code locations an excerpt names, in order, without repeats. */
export function locationsIn(span: LogSpan): CodeLocation[] {
  const out: CodeLocation[] = [];
  const seen = new Set<string>();
  const lines = span.text.split('\n');
  let lastError = '';
  lines.forEach((raw, k) => {
    const text = raw.replace(/^\d{4}-\d\d-\d\dT[\d:.]+Z /, '');
    const body = text.trim();
    const logLine = span.start_line + k;
    const push = (path: string, line: number, column: number | undefined, message: string): void => {
      const key = `${path}:${line}:${column ?? ''}`;
      if (seen.has(key) || !Number.isFinite(line)) return;
      seen.add(key);
      out.push({ path, line, ...(column !== undefined ? { column } : {}), message: clean(message), logLine });
    };
    const wf = WORKFLOW.exec(body);
    if (wf) {
      push('Jenkinsfile (WorkflowScript)', Number(wf[1]), wf[3] !== undefined ? Number(wf[3]) : undefined, wf[2] ?? '');
      lastError = body;
      return;
    }
    for (const re of SHAPES) {
      const m = re.exec(body);
      // A location with a message that states an error (a source line `12 | x` is not one).
      // GNU's `file:line:col: message` form is a diagnostic whatever its words (Go: `too many return values`).
      if (m && (ERRORISH.test(m[4] ?? '') || GNU_FORM.test(body))) {
        // javac's detail lines under its message (`symbol: method toMoney()`) complete it.
        const detail = lines
          .slice(k + 1, k + 3)
          .map((l) => /^(?:\[ERROR\])?\s+(symbol|required|found|reason):\s+(.*)$/.exec(l.replace(/^\d{4}-\d\d-\d\dT[\d:.]+Z /, '')))
          .filter((d): d is RegExpExecArray => d !== null)
          .map((d) => `${d[1]}: ${(d[2] ?? '').trim()}`);
        push(m[1] ?? '', Number(m[2]), m[3] !== undefined ? Number(m[3]) : undefined, detail.length > 0 ? `${m[4] ?? ''} (${detail.join('; ')})` : (m[4] ?? ''));
        lastError = body;
        return;
      }
    }
    for (const re of POINTERS) {
      const m = re.exec(text);
      if (m) {
        push(m[1] ?? '', Number(m[2]), m[3] !== undefined ? Number(m[3]) : undefined, lastError);
        return;
      }
    }
    if (ERRORISH.test(body)) lastError = body;
  });
  return out;
}

/** `File.kt:57:33`: the file's name with the line and column, as a person cites it. */
export function citeLocation(loc: CodeLocation): string {
  const name = loc.path.split('/').pop() ?? loc.path;
  return `${name}:${loc.line}${loc.column !== undefined ? `:${loc.column}` : ''}`;
}

/** "open `src/x.kt` at line 57, column 33" */
export function openAt(loc: CodeLocation): string {
  return `open \`${loc.path}\` at line ${loc.line}${loc.column !== undefined ? `, column ${loc.column}` : ''}`;
}

/** A question that asks where the error is or what it says, rather than why the build failed. */
export const LOCATION_QUESTION =
  /\b(?:which|what) (?:file|line|source)|\bfile and line\b|\bline number\b|\bwhere (?:is|was|are) (?:the )?(?:compile |compiler |build )?(?:error|errors|problem)\b|\bwhere in the code\b|\bshow me the (?:error|errors|compiler (?:error|output))\b|\bwhat does the (?:compiler|linter|error|type ?checker) say\b|\b(?:exact|full) error( message)?\b|\bthe error message\b/i;
