/**
 * Where the failing line's values come from (helper fx2, issue 25 deliverable 3): a line that fails
 * on a value (`fs.mkdirSync(outDir)` with `outDir` undefined, `urlopen(GATEWAY + path)` refused) often
 * got it from an assignment further up the same file (`const outDir = process.env.DIST_DIR;`,
 * `GATEWAY = os.environ.get("METRICS_GATEWAY", ...)`), outside the few lines shown around it. The
 * nearest assignment above to each name the failing line uses, read from the file itself; nothing
 * is inferred beyond "this line assigns that name". In a Makefile, the make variables of the failing
 * line's recipe (helper ux9).
 */
import type { WorkspaceSnippet } from '../../protocol/types.js';
import { escapeRegExp } from '../../core/regexp.js';
import { MAKEFILE, makeReferences } from '../../core/makefile.js';

/** Words that are no variable of the project's. */
const NOT_A_NAME = new Set(['self', 'this', 'super', 'true', 'false', 'True', 'False', 'None', 'null', 'nil', 'undefined', 'return', 'await', 'async', 'new', 'const', 'let', 'var', 'val', 'def', 'func', 'function', 'if', 'for', 'while', 'else', 'elif', 'not', 'and', 'the', 'err', 'with', 'from', 'import', 'print', 'throw', 'raise', 'assert', 'void', 'int', 'char', 'string', 'String', 'public', 'private', 'static', 'final', 'class', 'new']);

/** An import bound to a name (`const path = require('node:path')`, `local x = require("x")`): no value of the failure. */
const IMPORT = /=\s*(?:require|import)\s*\(|^\s*import\b/;

/** A line that assigns `name` (a declaration with a value, or a plain assignment): `const x = `, `X = `, `x := `, `final String x = `. */
function assigns(line: string, name: string): boolean {
  const n = escapeRegExp(name);
  // (A type before the name is a word, not a keyword of control flow nor a markup tag: `<button type="x">` assigns nothing.)
  return new RegExp(String.raw`^\s*(?:export\s+)?(?:(?:const|let|var|val|local|final|static|private|public|protected|readonly)\s+)*(?:(?!(?:if|for|while|return|else|elif|case|switch)\b)\w[\w<>[\],.?*]*\s+)?${n}\s*(?::\s*[^=]+?)?\s*(?::=|=)(?![=>])`).test(line) && !IMPORT.test(line);
}

/** A make assignment of `name`: `NAME := ...`, `NAME ?= ...`, `NAME = ...`, `NAME += ...`, with `override` / `export` before it. */
const makeAssigns = (line: string, name: string): boolean => new RegExp(String.raw`^(?:override\s+|export\s+)*${escapeRegExp(name)}\s*(?::{1,3}=|\?=|\+=|!=|=)`).test(line);

/**
 * The recipe of the rule that holds line `at` (1-based), up to it: the tab-indented lines above it and
 * the line itself. The variables a recipe line uses may be set for all of them.
 */
function recipeUpTo(lines: readonly string[], at: number): string[] {
  let first = at - 1;
  while (first > 0 && (lines[first - 1] ?? '').startsWith('\t')) first--;
  return lines.slice(first, at);
}

export interface ValueOrigin {
  name: string;
  /** 1-based line of the file that assigns it. */
  line: number;
}

/**
 * The assignments above `before` (1-based: the first line shown around the failing line) of the names
 * the failing line `at` uses, nearest first per name, in the order the names appear; at most `max`.
 */
export function valueOrigins(lines: readonly string[], at: number, before: number, max = 2, make = false): ValueOrigin[] {
  const text = (lines[at - 1] ?? '').replace(/(["'`]).*?\1/g, ' ');
  // In a Makefile: the variables the rule's recipe uses up to the failing line (`sed 's/@V@/$(VERSION)/'` above a `dpkg-deb`).
  const names = make
    ? [...new Set(recipeUpTo(lines, at).flatMap(makeReferences))]
    : [...new Set([...text.matchAll(/(?<![.\w$])([A-Za-z_$][\w$]{2,})\b(?!\s*\()/g)].map((m) => m[1] as string))].filter((n) => !NOT_A_NAME.has(n));
  const out: ValueOrigin[] = [];
  for (const name of names) {
    for (let i = Math.min(before, at) - 2; i >= 0; i--) {
      if (make ? makeAssigns(lines[i] ?? '', name) : assigns(lines[i] ?? '', name)) {
        out.push({ name, line: i + 1 });
        break;
      }
    }
    if (out.length >= max) break;
  }
  return out;
}

/** The message of an origin snippet (read back by the answer: backend/answer/local/fix.ts). */
export const originMessage = (o: ValueOrigin, at: number): string => `assigns ${o.name}, which line ${at} uses`;

/** One-line snippets of the assignments the failing snippet's marked line uses (none when it has no marked line). */
export function originSnippets(failing: WorkspaceSnippet, lines: readonly string[], mask: (text: string) => string): WorkspaceSnippet[] {
  const at = failing.line;
  if (at === undefined) return [];
  const make = MAKEFILE.test(failing.path);
  return valueOrigins(lines, at, failing.startLine, make ? 3 : 2, make).map((o) => ({ path: failing.path, workspaceId: failing.workspaceId, startLine: o.line, endLine: o.line, text: mask(lines[o.line - 1] ?? ''), kind: 'source', message: originMessage(o, at) }));
}
