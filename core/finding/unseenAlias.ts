/**
 * A `command not found` for a name the script itself defines as an alias (issue 25, helper ux16; docs/notes/ux16.md):
 * bash does not expand aliases in a non-interactive shell unless `shopt -s expand_aliases` ran first, so
 * `alias mk='make -s -C src'` on line 1 and `mk all` on line 2 fail with `line 2: mk: command not found`. The script's
 * error (ci-script), not a program the agent lacks. Evidence-bound: only when bash's `-x` trace shows that very name's
 * alias at the same depth as the failing call's trace, above it, and no `shopt -s expand_aliases` between them.
 * (dash expands aliases in scripts; a function called before its definition leaves no trace line, so the log alone
 * cannot show it.)
 */
import type { Finding } from '../../protocol/types.js';
import { escapeRegExp } from '../regexp.js';

/** The name bash could not find: `ci.sh: line 2: mk: command not found`. */
const NOT_FOUND = /^(?:\S+: )?line \d+: ([\w.+-]+): command not found$/;
/** How far above the message the trace is read. */
const REACH = 200;

export interface UnseenAlias {
  name: string;
  /** 1-based log line of the `+ alias 'name=...'` trace, and what the alias stands for. */
  line: number;
  value: string;
}

/** bash's `-x` trace of `alias name=value` (`+ alias 'mk=make -s'`): group 1 its depth, group 2 the value. */
const aliasTrace = (name: string): RegExp => new RegExp(`^(\\++) alias '?${escapeRegExp(name)}=(.*?)'?$`);

/** The alias trace that explains `message` (at 1-based `messageLine`), or undefined. `bodyAt(i)`: log line i+1's body. */
export function unseenAlias(message: string, messageLine: number, bodyAt: (i: number) => string): UnseenAlias | undefined {
  const name = NOT_FOUND.exec(message.trim())?.[1];
  if (!name) return undefined;
  // The call's trace and the alias's, compiled once per message (not per line read).
  const callOf = new RegExp(`^(\\++) ${escapeRegExp(name)}(?: |$)`);
  const defOf = aliasTrace(name);
  let callDepth: string | undefined;
  let found: UnseenAlias | undefined;
  for (let n = messageLine - 1; n >= Math.max(1, messageLine - REACH); n--) {
    const t = bodyAt(n - 1).trim();
    // Aliases expanded on purpose, anywhere above: then the name was not unseen for that reason.
    if (/^\++ shopt -s (?:\S+ )*expand_aliases\b/.test(t)) return undefined;
    if (found) continue;
    const call = callOf.exec(t);
    if (call && callDepth === undefined) {
      callDepth = call[1];
      continue;
    }
    const def = defOf.exec(t);
    if (def) {
      if (callDepth === undefined || def[1] !== callDepth) return undefined;
      found = { name, line: n, value: def[2] as string };
    }
  }
  return found;
}

/**
 * The alias a finding of `withUnseenAlias` rests on, from the scan that made it: its `symbol` is the name and the
 * alias's trace line is among its evidence, so only the evidence's lines are read again (for the alias's value).
 */
export function unseenAliasOf(f: Finding, bodyAt: (i: number) => string): UnseenAlias | undefined {
  if (f.class !== 'ci-script' || f.tool !== 'bash' || !f.symbol || NOT_FOUND.exec(f.message.trim())?.[1] !== f.symbol) return undefined;
  const def = aliasTrace(f.symbol);
  for (const n of f.evidence) {
    const m = n < f.message_line ? def.exec(bodyAt(n - 1).trim()) : null;
    if (m) return { name: f.symbol, line: n, value: m[2] as string };
  }
  return undefined;
}

/** The finding step: a missing tool that is the script's own alias, unseen, is the script's error. */
export function withUnseenAlias(f: Finding, { bodyAt }: { bodyAt: (i: number) => string }): Finding {
  if (f.class !== 'missing-tool') return f;
  const hit = unseenAlias(f.message, f.message_line, bodyAt);
  if (!hit) return f;
  return { ...f, class: 'ci-script', confidence: 'high', tool: 'bash', symbol: hit.name, evidence: [...f.evidence, hit.line] };
}
