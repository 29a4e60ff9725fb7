/**
 * A member a type does not have, and none of its members is named like it (issue 25, session 50, helper fx12): the
 * members of that type the failing file does not use anywhere (jenkins/workspace/suggestions.ts `membersNotUsedIn`).
 * A file written against the type as it was uses the members that still exist under their names; a member it never
 * names is where a renamed one may have gone (`len` -> `size`, `Total` -> `Sum()`, `available()` -> `onHand()`). Said
 * as a lead, with the failing line rewritten when there is one such member, never as the cause.
 */
import type { Source, WorkspaceSnippet } from '../../../protocol/types.js';
import { escapeRegExp } from '../facts.js';
import { inlineCode } from '../logtext.js';
import { clip } from './clueLine.js';

/** The snippet reader's message for such a member (snippets.ts). */
const UNUSED_MEMBER = /^declares ([\w$]+), a (member|name) of (\S+) that (\S+) does not use, where ([\w$]+) is not$/;

interface UnusedMember {
  name: string;
  owner: string;
  /** The owner is a file the failing one includes or imports (importedNames.ts), not a type. */
  file: boolean;
  snippet: WorkspaceSnippet;
  line: number;
  callable: boolean;
}

/** The members the snippets offer for `missing` as not used by the failing file, each with its declaring line. */
function unusedMembersOf(missing: string, snippets: readonly WorkspaceSnippet[]): UnusedMember[] {
  return snippets.flatMap((s) => {
    const m = UNUSED_MEMBER.exec(s.message ?? '');
    if (!m || m[5] !== missing) return [];
    const name = m[1] as string;
    const lines = s.text.split('\n');
    // Its declaration, not a doc comment above it that names it (`// Sum returns the total`).
    const at = lines.findIndex((l) => !/^\s*(?:\/\/|\/?\*|#(?!define)|--)/.test(l) && new RegExp(`(?<![\\w$])${escapeRegExp(name)}(?![\\w$])`).test(l));
    if (at < 0) return [];
    return [{ name, owner: m[3] as string, file: m[2] === 'name', snippet: s, line: s.startLine + at, callable: new RegExp(`(?<![\\w$])${escapeRegExp(name)}\\s*\\(`).test(lines[at] ?? '') }];
  });
}

/**
 * `code` with the member access `.missing` / `->missing` / `::missing` (a C designator's `.missing` too) renamed to
 * `member`, with `()` added when the member is a method the line reads as a field. Undefined when the line has no
 * such access.
 */
export function withMemberRenamed(code: string, missing: string, member: string, callable: boolean, bare = false): string | undefined {
  const access = new RegExp(`(\\.|->|::${bare ? '|(?<![\\w$.])' : ''})${escapeRegExp(missing)}(?![\\w$])(\\s*\\()?`, 'g');
  if (!access.test(code)) return undefined;
  return code.replace(access, (_all, sep: string, call: string | undefined) => `${sep}${member}${call ?? (callable ? '()' : '')}`);
}

/**
 * The sentence for a member `missing` that the type does not have when the snippet reader found the type's members the
 * failing file does not use; undefined without them. `where` is "line N of `file`", `code` the failing line.
 */
export function unusedMemberFix(missing: string, where: string, code: string | undefined, snippets: readonly WorkspaceSnippet[]): { text: string; sources: Source[] } | undefined {
  const members = unusedMembersOf(missing, snippets);
  const first = members[0];
  if (!first) return undefined;
  const cite = (m: UnusedMember): string => `${inlineCode(`${m.name}${m.callable ? '()' : ''}`)} (${inlineCode(`${m.snippet.path}:${m.line}`)})`;
  const sources: Source[] = members.map((m) => ({ kind: 'file', path: m.snippet.path, start_line: m.snippet.startLine, end_line: m.snippet.endLine }));
  const head = first.file
    ? `${inlineCode(missing)} is not declared where ${where} uses it, and ${inlineCode(first.owner)}, which that file takes it from, declares no name like it.`
    : `${inlineCode(missing)} is not a member of ${inlineCode(first.owner)}, where ${where} uses it, and no member of ${inlineCode(first.owner)} has a name like it.`;
  const its = first.file ? 'the names it declares' : 'its members';
  if (members.length === 1) {
    const rewritten = code ? withMemberRenamed(code, missing, first.name, first.callable, first.file) : undefined;
    return {
      text: `${head} Of ${its}, ${cite(first)} is the only one this file does not use already: if ${inlineCode(missing)} was renamed, it is likely that one${rewritten ? `, and the line reads ${inlineCode(clip(rewritten.trim()))}` : ''}. I can't tell from the log whether that is the rename or whether ${inlineCode(missing)} should be declared again.`,
      sources,
    };
  }
  return {
    text: `${head} Of ${its}, ${members.map(cite).join(' and ')} are the ones this file does not use already: if ${inlineCode(missing)} was renamed, it is likely one of them, and I can't tell which (or whether ${inlineCode(missing)} should be declared again).`,
    sources,
  };
}
