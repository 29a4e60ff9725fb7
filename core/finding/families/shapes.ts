/** Shapes the rules of several families share (the tuning rounds 4 and 5's modules each had their copy). */
import type { RuleHit } from '../ruleTypes.js';

/** A source file's path before its `:line` in a diagnostic (`src/x.c`, `C:\x.c`), lazily: the place's `:` ends it. */
export const SRC = String.raw`(?:[A-Za-z]:)?[^\s:()"'\[\]<>|*?]*?`;
/** A file's path in a tool's place: a name with an extension, or a path with a `/` (a capture group). */
export const PATH = String.raw`((?:[A-Za-z]:)?[\w.~@+\\/-]*\.[A-Za-z]\w{0,7}|[\w.~@+\\/-]*\/[\w.~@+-]+)`;
/** The place `file`, `line`, `column` as a rule hit, each only when given. */
export const at = (file: string | undefined, line: string | undefined, column?: string): RuleHit => ({
  ...(file ? { file } : {}),
  ...(line ? { line: Number(line) } : {}),
  ...(column ? { column: Number(column) } : {}),
});
