/**
 * What the compiler itself proposes under its error, read from the log (helper fx, 2026-11-29): the
 * fix a senior engineer would name first when the tool printed it. Moved out of fix.ts and widened:
 * - rustc and clippy: `help:` lines (on their own, `= help: ...`, after the carets `^^^ help: ...`,
 *   or at the end of a short-format line `file:l:c: error: msg: help: ...`), a primary label that
 *   proposes code (`^ use \`.ok_or(...)?\` to ...`, not `use of undeclared type`), and the code they propose, in both layouts:
 *   the old `12 + fn f(...)` and the current `12 | fn f<'a>(...)` over a marker line `| ++++`;
 * - clang's fix-it: a line of code printed right under the carets (`static_cast<int>( )`), under
 *   the note or error that asks for it; gcc's, the same in its `   | ` gutter (`|   fprintf`).
 * Each suggestion cites the line it is on.
 */
import { linesOf, withoutStamp, type LogSpan } from '../logtext.js';
import { sameFile } from './workspace.js';

export interface CompilerSuggestion {
  line: number;
  text: string;
}

/** Tools whose suggestions are read (the finding's `tool`). */
export const SUGGESTING_TOOLS = /^(?:(?:cargo )?(?:rustc|clippy)|gcc|g\+\+|clang|clang\+\+|cc|c\+\+)$/;

/** Help text that only points elsewhere (a URL, a lint's configuration), not at the code. */
const NOT_A_FIX = /https?:\/\/|^to override|for further information|run with|`#\[allow/;
/** A rustc label under the carets that proposes code: `use \`.ok_or(...)?\` to ...`, `consider ...`. */
const LABEL_FIX = /^(?:(?:use|try|add|remove|replace with) `|consider\b.*`[^`]+`)/;
/** A diagnostic's own line (`file:l:c: note: ...`, `error[E1]: ...`): a new diagnostic starts. */
const HEADER = /^(?:\S+:\d+(?::\d+)?: )?(?:fatal error|error|warning|note|help)(?:\[\w+\])?: /;
/** A caret line: carets and tildes only (clang), or after a gutter (`   |    ^~~~`, gcc and rustc). */
const CARETS = /^(\s*(?:\d+\s*)?\|)?\s*[~^-]*\^[~^-]*\s*$/;

function rustSuggestions(lines: readonly string[], first: number): CompilerSuggestion[] {
  const out: CompilerSuggestion[] = [];
  for (let i = 0; i < lines.length && out.length < 4; i++) {
    const t = withoutStamp(lines[i] ?? '');
    if (i > 0 && /^(?:error|warning)(?:\[\w+\])?: /.test(t)) break;
    // Short format (`--message-format short`): the help is on the diagnostic's own line.
    const short = /^(\S+:\d+:\d+): (?:error|warning)(?:\[\w+\])?: .*?: help: (.+)$/.exec(t);
    if (short && !NOT_A_FIX.test(short[2] as string)) {
      out.push({ line: first + i, text: `${i === 0 ? '' : `at ${short[1] as string}: `}help: ${(short[2] as string).trim()}` });
      continue;
    }
    if (i === 0) continue;
    const help = /^\s*(?:= )?help: (.+)$/.exec(t) ?? /^\s*\|\s*[\s^~-]*\^[\^~-]*\s+help: (.+)$/.exec(t);
    if (help && !NOT_A_FIX.test(help[1] as string)) {
      out.push({ line: first + i, text: `help: ${(help[1] as string).trim()}` });
      continue;
    }
    const label = /^\s*\|\s*[\s|^~-]*\^[\^~-]*\s+(.+)$/.exec(t);
    if (label && LABEL_FIX.test(label[1] as string)) {
      out.push({ line: first + i, text: (label[1] as string).trim() });
      continue;
    }
    if (out.length === 0) continue;
    // The proposed code: `12 + code` (older rustc), or `12 | code` over a line of `+`/`~` markers.
    const added = /^\s*\d+\s+[+~]\s(.+)$/.exec(t);
    const shown = /^\s*\d+\s+\|\s(.+)$/.exec(t);
    const marks = /^\s*\|\s*[+~\s-]*[+~][+~\s-]*$/.test(withoutStamp(lines[i + 1] ?? ''));
    const code = added?.[1] ?? (shown && marks ? shown[1] : undefined);
    if (code && code.trim() !== '') out.push({ line: first + i, text: code.trim() });
  }
  return out;
}

function cFamilySuggestions(lines: readonly string[], first: number): CompilerSuggestion[] {
  const out: CompilerSuggestion[] = [];
  let header: CompilerSuggestion | undefined;
  for (let i = 0; i < lines.length - 1 && out.length < 4; i++) {
    const t = withoutStamp(lines[i] ?? '');
    if (i > 0 && /^\S+:\d+:\d+: (?:fatal )?error: /.test(t)) break;
    if (HEADER.test(t)) header = { line: first + i, text: t.replace(/^\S+:\d+(?::\d+)?: /, '') };
    const carets = CARETS.exec(t);
    if (!carets) continue;
    const next = withoutStamp(lines[i + 1] ?? '');
    // Under the same gutter (gcc) or none (clang); gcc's labels (`|   |` then `|   int`) are not fix-its.
    const gutter = carets[1] ? new RegExp(`^\\s*\\|\\s(.*)$`).exec(next) : /^(\s+\S.*)$/.exec(next);
    const code = gutter?.[1]?.trim();
    if (!code || code.includes('|') || HEADER.test(code) || CARETS.test(next) || /\berrors? generated\b|^In file included from/.test(code)) continue;
    if (header && !out.some((x) => x.line === header?.line) && !/: error: /.test(`: ${header.text}`)) out.push({ line: header.line, text: header.text });
    out.push({ line: first + i + 1, text: code });
  }
  return out;
}

/** The compiler's own suggestions under the error at `messageLine` (up to the next error, 40 lines at most). */
export function compilerSuggestions(stored: LogSpan, f: { message_line: number; tool?: string }): CompilerSuggestion[] {
  const span = linesOf(stored, f.message_line, Math.min(stored.end_line, f.message_line + 40));
  if (!span) return [];
  const lines = span.text.split('\n');
  return /^(?:cargo )?(?:rustc|clippy)$/.test(f.tool ?? '') ? rustSuggestions(lines, f.message_line) : cFamilySuggestions(lines, f.message_line);
}

/**
 * The notes gcc and clang print under an error that point to another file (`src/x.hpp:8:9: note: in
 * call to 'int X::total()'`): where the other side of the error is declared, often the line to change.
 * At most two; `previous declaration` notes are the conflicting-declaration step's (workspace.ts), and
 * an overload's `candidate:` notes are not where the change goes (the call is).
 */
export function compilerNotesElsewhere(stored: LogSpan, f: { message_line: number; location?: { file: string } }): CompilerSuggestion[] {
  const span = linesOf(stored, f.message_line + 1, Math.min(stored.end_line, f.message_line + 40));
  if (!span) return [];
  const out: CompilerSuggestion[] = [];
  const own = f.location?.file.replace(/^\.\//, '');
  for (const [k, raw] of span.text.split('\n').entries()) {
    const t = withoutStamp(raw);
    if (/^\S+:\d+:\d+: (?:fatal )?error: /.test(t) || out.length >= 2) break;
    const note = /^(\S+?):(\d+)(?::(\d+))?: note: +(.+)$/.exec(t);
    if (!note || /previous (?:declaration|definition)|in expansion of macro|declared here$|^candidate/.test(note[4] as string)) continue;
    const file = (note[1] as string).replace(/^\.\//, '');
    if (own && sameFile(file, own)) continue;
    if (/^\/usr\/|^<|\/include\/c\+\+\//.test(file)) continue;
    out.push({ line: span.start_line + k, text: `${file}:${note[2] as string}${note[3] ? `:${note[3]}` : ''}|${(note[4] as string).trim()}` });
  }
  return out;
}

/**
 * rustc's sub-diagnostics under an error that point to another file than the error's (`help: the trait
 * `Display` is not implemented for `Money`` over `  --> src/money.rs:6:1` and its code line `6 | pub struct
 * Money(pub i64);`): the type or item the change may belong to. Up to the next error, at most two.
 */
export function rustPlacesElsewhere(stored: LogSpan, f: { message_line: number; location?: { file: string } }): { place: string; placeLine: number; code?: string; codeLine?: number }[] {
  const span = linesOf(stored, f.message_line + 1, Math.min(stored.end_line, f.message_line + 40));
  if (!span) return [];
  const lines = span.text.split('\n').map((l) => withoutStamp(l));
  const own = f.location?.file.replace(/^\.\//, '');
  const out: { place: string; placeLine: number; code?: string; codeLine?: number }[] = [];
  for (let k = 0; k < lines.length && out.length < 2; k++) {
    const t = lines[k] as string;
    if (/^(?:error|warning)(?:\[\w+\])?: /.test(t)) break;
    if (!/^\s*(?:= )?(?:help|note): /.test(t)) continue;
    const arrow = /^\s*--> ((?!\/)[^\s:]+\.rs):(\d+):(\d+)\s*$/.exec(lines[k + 1] ?? '');
    if (!arrow) continue;
    const file = arrow[1] as string;
    if (own && sameFile(file, own)) continue;
    const code = lines.slice(k + 2, k + 5).findIndex((l) => new RegExp(`^\\s*${arrow[2] as string}\\s+\\| (.+)$`).test(l));
    const codeText = code >= 0 ? /\| (.+)$/.exec(lines[k + 2 + code] as string)?.[1]?.trim() : undefined;
    out.push({ place: `${file}:${arrow[2] as string}:${arrow[3] as string}`, placeLine: span.start_line + k + 1, ...(codeText ? { code: codeText, codeLine: span.start_line + k + 2 + code } : {}) });
  }
  return out;
}
