/**
 * A type lacking a member its interface, trait or base class requires (issue 25 point 3, session 54, helper fx16): Go's
 * `X does not implement Y (missing M method)`, tsc's `incorrectly implements interface` (with `Property 'M' is missing`)
 * and `does not implement inherited abstract member`, javac's `is not abstract and does not override abstract method`,
 * kotlinc's `does not implement abstract member`, C#'s CS0535/CS0534, rustc's E0046 (`impl Trait for Type` on the
 * failing line), a C++ member `marked 'override', but does not override` (gcc and clang). The compiler names the member
 * (or the override); the project holds what the fix needs: the member as the interface declares it (its signature),
 * the file that declares the type, and for C++ the out-of-class definition to change as well. Nothing when the
 * interface's declaration or its member is not found in the project (or found twice).
 */

import { codeOf, declaresJvmType } from './jvmDecl.js';

export interface RequiredMemberHit {
  rel: string;
  /** 0-based line. */
  index: number;
  message: string;
}

interface Wanted {
  type: string;
  iface?: string;
  member?: string;
  /** A member that exists on the type but overrides nothing (its signature differs from the base's). */
  override?: boolean;
}

const last = (qualified: string): string => (qualified.replace(/<.*$/, '').split(/\.|::/).pop() as string).replace(/^\*/, '');

/** What the message says is missing; `near` is the log's lines from the message down (tsc's `Property 'M' is missing` follows it). */
export function requiredMemberOf(near: string, failingLine?: string): Wanted | undefined {
  let m: RegExpExecArray | null;
  if ((m = /(\*?[\w.]+) does not implement ([\w.]+) \(missing (?:method )?(\w+)(?: method)?\)/.exec(near))) return { type: last(m[1] as string), iface: last(m[2] as string), member: m[3] as string };
  if ((m = /Class '(\w+)' incorrectly implements (?:interface|class) '(\w+)(?:<[^']*>)?'/.exec(near))) {
    const prop = new RegExp(`Property '(\\w+)' is missing in type '${m[1] as string}[^']*' but required in type '${m[2] as string}`).exec(near);
    return { type: m[1] as string, iface: m[2] as string, ...(prop ? { member: prop[1] as string } : {}) };
  }
  if ((m = /Non-abstract class '(\w+)' does not implement inherited abstract member '?(\w+)'? from class '(\w+)/.exec(near))) return { type: m[1] as string, iface: m[3] as string, member: m[2] as string };
  if ((m = /Non-abstract class '(\w+)' is missing implementations? for the following members? of '(\w+)': '(\w+)'/.exec(near))) return { type: m[1] as string, iface: m[2] as string, member: m[3] as string };
  if ((m = /([\w.$]+) is not abstract and does not override abstract method (\w+)\([^)]*\) in ([\w.$]+)/.exec(near))) return { type: last(m[1] as string), iface: last(m[3] as string), member: m[2] as string };
  if ((m = /Class '(\w+)' is not abstract and does not implement abstract (?:base class )?member (?:public |internal |protected )?(?:abstract )?(?:fun |val |var )?(\w+)[\s\S]*? defined in ([\w.]+)/.exec(near))) return { type: m[1] as string, iface: last(m[3] as string), member: m[2] as string };
  if ((m = /'([\w.]+)' does not implement (?:interface|inherited abstract) member '([\w.]+)\.(\w+)[('.]/.exec(near))) return { type: last(m[1] as string), iface: last(m[2] as string), member: m[3] as string };
  if ((m = /not all trait items implemented, missing: `(\w+)`/.exec(near))) {
    const impl = /\bimpl(?:<[^>]*>)?\s+([\w:]+)(?:<[^>]*>)?\s+for\s+([\w:]+)/.exec(failingLine ?? '');
    return impl ? { type: last(impl[2] as string), iface: last(impl[1] as string), member: m[1] as string } : undefined;
  }
  // clang: `non-virtual member function marked 'override' hides virtual member function`, its note naming the base's.
  if ((m = /marked 'override' hides virtual member function[\s\S]*?hidden overloaded virtual function '(\w+)::(\w+)'/.exec(near))) return { type: '', iface: m[1] as string, member: m[2] as string, override: true };
  if ((m = /['‘](?:[^'’]*?\s)?(?:(\w+)::)?(\w+)(?:\([^'’]*)?['’] marked ['‘]override['’],? but does not override/.exec(near))) return { type: m[1] ?? '', member: m[2] as string, override: true };
  return undefined;
}

export type Family = 'go' | 'ts' | 'jvm' | 'rust' | 'cs' | 'cpp';

export function familyOf(rel: string): Family | undefined {
  if (/\.go$/.test(rel)) return 'go';
  if (/\.(?:[cm]?tsx?|[cm]?jsx?)$/.test(rel)) return 'ts';
  if (/\.(?:java|kt|kts|scala)$/.test(rel)) return 'jvm';
  if (/\.rs$/.test(rel)) return 'rust';
  if (/\.cs$/.test(rel)) return 'cs';
  if (/\.(?:h|hh|hpp|hxx|cc|cpp|cxx|c\+\+)$/.test(rel)) return 'cpp';
  return undefined;
}

/** A line without its strings and comments (the C family's, Go's, TypeScript's, the JVM's: jvmDecl.ts). */
const code = codeOf;

/** A line that declares the type or interface `name` (not a forward declaration, not a use). */
function declares(family: Family, name: string, line: string, iface: boolean): boolean {
  const n = name.replace(/\$/g, '\\$');
  switch (family) {
    case 'go':
      return new RegExp(`^\\s*type\\s+${n}\\s+${iface ? 'interface\\b' : '\\S'}`).test(line);
    case 'rust':
      return new RegExp(`^\\s*(?:pub(?:\\([^)]*\\))?\\s+)?${iface ? 'trait' : '(?:struct|enum)'}\\s+${n}\\b`).test(line);
    case 'jvm':
      // Java, Kotlin and Scala: jvmDecl.ts, the one reader of a JVM type's declaration line.
      return declaresJvmType(line, name);
    case 'cpp':
      return new RegExp(`^\\s*(?:template\\s*<[^>]*>\\s*)?(?:class|struct)\\s+(?:\\w+\\s+)?${n}\\b(?!\\s*;)`).test(line);
    default:
      return new RegExp(`\\b(?:interface|class|trait|object|record|struct)\\s+${n}\\b`).test(code(line));
  }
}

/** The 0-based line of the member `member` in the body that the declaration on line `at` opens (at its own level). */
function memberLine(family: Family, lines: readonly string[], at: number, member: string): number | undefined {
  const m = member.replace(/\$/g, '\\$');
  const shape = family === 'rust' ? new RegExp(`\\b(?:fn|type|const)\\s+${m}\\b`) : family === 'go' ? new RegExp(`^\\s*${m}\\s*\\(`) : new RegExp(`(?:^|[\\s*&~])${m}\\s*(?:[(<:?!]|=\\s*0)|\\b(?:get|set|fun|val|var|def)\\s+${m}\\b`);
  let depth = 0;
  let opened = false;
  for (let i = at; i < lines.length && i < at + 600; i++) {
    const line = code(lines[i] ?? '');
    if (opened && depth === 1 && shape.test(line)) return i;
    for (const ch of line) {
      if (ch === '{') {
        depth++;
        opened = true;
      } else if (ch === '}') depth--;
    }
    if (opened && depth <= 0) return undefined;
  }
  return undefined;
}

/** The member's declaration as written: its line, joined with the next ones until its parameter list closes, without a body. */
function signatureAt(lines: readonly string[], index: number): string {
  let text = (lines[index] ?? '').trim();
  for (let i = index + 1; i < index + 4 && (text.match(/\(/g) ?? []).length > (text.match(/\)/g) ?? []).length; i++) text += ` ${(lines[i] ?? '').trim()}`;
  return text.replace(/\s*\{.*$/, '').replace(/\s*\/\/.*$/, '').replace(/\s+/g, ' ').trim();
}

type Files = readonly { rel: string; lines: readonly string[] }[];

function declarations(files: Files, family: Family, name: string, iface: boolean): { rel: string; index: number }[] {
  const out: { rel: string; index: number }[] = [];
  for (const f of files) f.lines.forEach((l, i) => (declares(family, name, l, iface) ? out.push({ rel: f.rel, index: i }) : undefined));
  return out;
}

/** C++: the bases a class declared on line `at` names (`class T : public A, B {`). */
function basesOf(line: string): string[] {
  const after = /(?:class|struct)\s+\w+[^:{]*:(?!:)([^{]*)/.exec(line)?.[1] ?? '';
  return after.split(',').map((b) => last(b.replace(/\b(?:public|protected|private|virtual)\b/g, '').trim())).filter((b) => /^\w+$/.test(b));
}

/** The class enclosing line `at` (C++: the nearest `class X` above at depth 0 of what follows it). */
function enclosingType(lines: readonly string[], at: number): string | undefined {
  for (let i = at; i >= 0 && i > at - 200; i--) {
    const m = /^\s*(?:class|struct)\s+(?:\w+\s+)?(\w+)\b(?!\s*;)/.exec(lines[i] ?? '');
    if (m) return m[1] as string;
  }
  return undefined;
}

/**
 * The clues for a type lacking a required member: the member's line in the interface (its signature as declared
 * there, and where the type is declared), and for C++ the type's out-of-class definition of the member. `files` are
 * the project's files of the failing file's family; `failing` the failing file and its 1-based line.
 */
export function requiredMemberHits(files: Files, near: string, failing: { rel: string; lines: readonly string[]; line: number }): RequiredMemberHit[] {
  const family = familyOf(failing.rel);
  const wanted = family ? requiredMemberOf(near, failing.lines[failing.line - 1]) : undefined;
  if (!family || !wanted?.member) return [];
  const member = wanted.member;
  let type = wanted.type || (family === 'cpp' ? enclosingType(failing.lines, failing.line - 1) : undefined);
  if (!type) return [];
  // Rust: the members go in the `impl Trait for Type` block the error points at, not in the struct.
  const typeDecls = family === 'rust' ? [{ rel: failing.rel, index: failing.line - 1 }] : declarations(files, family, type, false);
  const typeDecl = typeDecls.length === 1 ? typeDecls[0] : undefined;
  // The interface: named by the message, else (a C++ override) the bases the type's declaration names.
  const ifaces = wanted.iface ? [wanted.iface] : typeDecl ? basesOf(files.find((f) => f.rel === typeDecl.rel)?.lines[typeDecl.index] ?? '') : [];
  const found: { rel: string; index: number; iface: string }[] = [];
  for (const iface of ifaces) {
    for (const d of declarations(files, family, iface, true)) {
      const lines = files.find((f) => f.rel === d.rel)?.lines ?? [];
      const at = memberLine(family, lines, d.index, member);
      if (at !== undefined) found.push({ rel: d.rel, index: at, iface });
    }
  }
  // Two declarations (two interfaces of that name): I can't tell which the type implements, so nothing.
  const decl = found.length === 1 ? found[0] : undefined;
  if (!decl) return [];
  const signature = signatureAt(files.find((f) => f.rel === decl.rel)?.lines ?? [], decl.index);
  type = type.replace(/[^\w$]/g, '');
  const typeAt = typeDecl ? ` (declared at ${typeDecl.rel}:${typeDecl.index + 1})` : '';
  const hits: RequiredMemberHit[] = [{ rel: decl.rel, index: decl.index, message: `declares ${member} in ${decl.iface} as ${JSON.stringify(signature)}, which ${type}${typeAt} ${wanted.override ? 'does not override with that signature' : 'lacks'}` }];
  // Go: the receiver the type's methods use, for the method to add (`func (s *Disk)`).
  if (family === 'go' && typeDecl) {
    const recv = new RegExp(`^func\\s+\\((\\w+\\s+\\*?${type})\\)`);
    const r = files.find((f) => f.rel === typeDecl.rel)?.lines.map((l) => recv.exec(l)?.[1]).find((x) => x !== undefined);
    if (r) hits[0] = { ...(hits[0] as RequiredMemberHit), message: `${(hits[0] as RequiredMemberHit).message}; its methods take (${r})` };
  }
  // C++: the out-of-class definition of the overriding member, which must change with the declaration.
  if (family === 'cpp' && wanted.override) {
    const def = new RegExp(`\\b${type}::${member}\\s*\\(`);
    for (const f of files) {
      const i = f.lines.findIndex((l) => def.test(code(l)) && !/;\s*$/.test(l));
      if (i >= 0 && f.rel !== failing.rel) {
        hits.push({ rel: f.rel, index: i, message: `holds the definition of ${type}::${member}, the member that overrides nothing` });
        break;
      }
    }
  }
  return hits;
}
