import { cite, inlineCode } from '../logtext.js';
import type { LineText } from './findingText.js';

/**
 * Python's circular import: a module imported back while it was still loading. Not a load
 * failure (nothing is missing from what the build installs): the imports of the modules in the
 * cycle are what to change.
 */
export const IMPORT_CYCLE = /partially initialized module '([\w.]+)'.*circular import/;

/** One import on the traceback: the file and line that ran it, the statement, and the log line of the frame. */
export interface ImportFrame {
  file: string;
  line: number;
  code: string;
  log_line: number;
}

/** pytest's short frame (`orders/models.py:3: in <module>`) and Python's own (`File "x.py", line 3, in <module>`). */
const FRAME = /^\s*(?:File "([^"]+\.py)", line (\d+), in \S+|([^\s:]+\.py):(\d+): in \S+)\s*$/;
const IMPORT = /^\s*(?:from\s+[\w.]+\s+import\b|import\s+[\w.]+)/;
/** Where a traceback's frames begin: nothing above belongs to this error. */
const TRACE_START = /Traceback \(most recent call last\)|^_{3,} |^={3,} /;

/**
 * The import cycle the traceback above a circular-import message shows: the frames from the one
 * in the half-loaded module's own file down to the import that reached it again, each an import
 * statement. Undefined when the trace does not show the loop whole (fewer than two imports, or
 * the module's own frame not printed).
 */
export function importCycleOf(lineText: LineText | undefined, messageLine: number, message: string): ImportFrame[] | undefined {
  const mod = IMPORT_CYCLE.exec(message)?.[1];
  if (!lineText || !mod) return undefined;
  const frames: ImportFrame[] = [];
  for (let n = messageLine - 1; n >= Math.max(1, messageLine - 120); n--) {
    const t = lineText(n) ?? '';
    if (TRACE_START.test(t)) break;
    const fr = FRAME.exec(t);
    const code = fr ? (lineText(n + 1) ?? '') : '';
    if (fr && IMPORT.test(code)) frames.unshift({ file: (fr[1] ?? fr[3]) as string, line: Number(fr[2] ?? fr[4]), code: code.trim(), log_line: n });
  }
  const path = mod.replace(/\./g, '/');
  const own = frames.findIndex((f) => f.file.endsWith(`${path}.py`) || f.file.endsWith(`${path}/__init__.py`));
  const cycle = own < 0 ? [] : frames.slice(own);
  return cycle.length >= 2 ? cycle : undefined;
}

/** The cycle as one sentence for the remedy: each import where the trace shows it, and what to do with them. */
export function importCycleStep(cycle: ImportFrame[], mod: string): string {
  const steps = cycle.map((f) => `${inlineCode(`${f.file}:${f.line}`)} ${cite({ start_line: f.log_line, end_line: f.log_line + 1 })} runs ${inlineCode(f.code)}`);
  return `The trace shows the cycle: ${steps.join(', then ')}, while ${inlineCode(mod)} is still loading. Remove or move one of these ${cycle.length === 2 ? 'two' : cycle.length} imports (the one whose module needs the other least at import time).`;
}
