/**
 * A `command not found` for the script's own alias (core/finding/unseenAlias.ts; docs/notes/ux16.md): what the
 * definition is, why bash did not see it, and the remedy. Only when the log's `-x` trace holds the alias line.
 */
import type { Finding } from '../../../protocol/types.js';
import { unseenAliasOf, type UnseenAlias } from '../../../core/finding/unseenAlias.js';
import { at, inlineCode } from '../logtext.js';

/** The alias trace behind a ci-script finding's `command not found` (the finding's own evidence), read through `lineText` (1-based). */
export function aliasUnseenOf(f: Finding, lineText: ((n: number) => string | undefined) | undefined): UnseenAlias | undefined {
  if (!lineText) return undefined;
  return unseenAliasOf(f, (i) => lineText(i + 1) ?? '');
}

/** The why: the name is the script's alias, which a non-interactive bash does not expand. */
export function aliasUnseenMeaning(a: UnseenAlias, m: string): string {
  return `${inlineCode(a.name)} is not a program the agent lacks: the script itself defines it as an alias of ${inlineCode(a.value)} ${at(a.line)}, and bash does not expand aliases in a script (a non-interactive shell) unless \`shopt -s expand_aliases\` ran first, so the call looked for a command named ${inlineCode(a.name)} ${m}.`;
}

/** The fix: a function in place of the alias (or the shopt above it). */
export function aliasUnseenRemedy(a: UnseenAlias, script: string | undefined): string {
  return `Define ${inlineCode(a.name)} as a function instead of the alias (the trace shows it ${at(a.line)}); write ${inlineCode(`${a.name}() { ${a.value} "$@"; }`)} in ${script ? inlineCode(script) : 'the script'}, above its first call (or put \`shopt -s expand_aliases\` on a line of its own before the alias); do not install anything on the agent.`;
}
