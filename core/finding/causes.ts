/**
 * A chain of causes under an error (round 7 tuning; docs/notes/analyzer.md, "Round 7 tuning: family
 * rules on unseen tools"): `Caused by:` headings (cargo, anyhow, Gradle, the JVM) over the reasons
 * the error happened, outermost first. The error's own words say what failed (`failed to get `x` as
 * a dependency`); the deepest cause in the words any tool uses for a cause (words.ts: credentials,
 * network, disk, memory, a time limit) says why, and decides the class. General: it reads the
 * chain's shape and the cause's words, never a tool's name.
 */
import type { Finding } from '../../protocol/types.js';
import { WORD_RULES } from './words.js';
import { TLS_REFUSED } from './tls.js';
import { CARGO_GIT_REF } from './families/rust.js';

type BodyAt = (i: number) => string;

/** The causes that explain the error above them (what a resolver, a fetch or a program could not get). */
const CAUSE_CLASSES = new Set(['permission-credentials', 'network', 'disk-full', 'out-of-memory', 'timeout-aborted']);
/** The findings a cause below may explain: what failed, not why. */
const EXPLAINED = new Set(['unknown', 'dependency-resolution', 'runtime-exception']);
/** How far below the message the chain is read. */
const REACH = 60;

/** The finding with the deepest cause of its `Caused by:` chain, when that cause's words name a cause class; else the finding. */
export function withCause(found: Finding, lines: readonly string[], bodyAt: BodyAt): Finding {
  const node = withNodeCause(found, lines, bodyAt);
  if (node) return node;
  if (!EXPLAINED.has(found.class)) return found;
  const msgAt = found.message_line - 1;
  let chained = false;
  let cause: { index: number; cls: Finding['class'] } | undefined;
  let ref: { index: number; ref: string } | undefined;
  for (let k = msgAt + 1; k < Math.min(lines.length, msgAt + REACH); k++) {
    const raw = bodyAt(k);
    const t = raw.trim();
    if (/^Caused by:?/.test(t)) {
      chained = true;
      const rest = t.replace(/^Caused by:?\s*/, '');
      if (rest !== '') cause = classOf(rest, k) ?? cause;
      continue;
    }
    if (t === '') continue;
    // The chain is the indented lines under its headings; anything else ends it.
    if (!chained || !/^\s/.test(raw)) break;
    cause = classOf(t, k) ?? cause;
    const r = CARGO_GIT_REF.exec(t)?.[1];
    if (r !== undefined) ref = { index: k, ref: r };
  }
  // A resolver's error whose chain names the git ref the dependency's repository does not have: that line says what is
  // missing (cargo's `failed to get `auth`` over `failed to find tag `v1.1.0``; session 57, fx21), the class unchanged.
  if (chained && !cause && ref && found.class === 'dependency-resolution') {
    const at = ref.index + 1;
    return { ...found, message: bodyAt(ref.index).trim(), message_line: at, symbol: ref.ref, evidence: [at, ...found.evidence.filter((e) => e !== at)] };
  }
  if (!chained || !cause || cause.cls === found.class) return found;
  const text = bodyAt(cause.index).trim().replace(/^Caused by:?\s*/, '');
  return { ...found, class: cause.cls, message: text, message_line: cause.index + 1, confidence: 'medium', evidence: [cause.index + 1, ...found.evidence.filter((e) => e !== cause.index + 1)] };
}

function classOf(text: string, index: number): { index: number; cls: Finding['class'] } | undefined {
  const rule = WORD_RULES.find((r) => CAUSE_CLASSES.has(r.cls) && r.re.test(text));
  return rule ? { index, cls: rule.cls } : TLS_REFUSED.test(text) ? { index, cls: 'network' } : undefined;
}

/** Node's inspect of an error's cause (`  [cause]: Error: connect ECONNREFUSED 127.0.0.1:5432`), at its indentation. */
const NODE_CAUSE = /^(\s+)\[cause\]: (\S.*)$/;
/** A property of Node's error object (`code: 'CERT_HAS_EXPIRED'`): its value, which says why in its own words. */
const NODE_CODE = /^\s+code: '([\w-]+)',?$/;

/**
 * Node's error printed with its cause below it (`TypeError: fetch failed` ... `{ [cause]: Error: certificate has expired`,
 * a cause's cause deeper): the deepest cause says why (session 53, ux15). It is the message when the error is undici's
 * `fetch failed` (whose own words never say why), or when its words (or its `code:`) name a cause class the error's
 * own class does not (as `Caused by:` above); its class then follows the cause. Undefined when no cause is printed.
 */
function withNodeCause(found: Finding, lines: readonly string[], bodyAt: BodyAt): Finding | undefined {
  const msgAt = found.message_line - 1;
  let cause: { index: number; indent: number; code?: string } | undefined;
  for (let k = msgAt + 1; k < Math.min(lines.length, msgAt + REACH); k++) {
    const raw = bodyAt(k);
    // The error's inspect: its stack and properties indented, its braces closing; anything else ends it.
    if (!/^\s/.test(raw) && !/^\}/.test(raw)) break;
    const m = NODE_CAUSE.exec(raw);
    if (m && (!cause || (m[1] as string).length > cause.indent)) cause = { index: k, indent: (m[1] as string).length };
    else if (cause && cause.code === undefined) cause.code = NODE_CODE.exec(raw)?.[1];
  }
  if (!cause) return undefined;
  const text = bodyAt(cause.index).trim();
  const cls = classOf(text, cause.index)?.cls ?? (cause.code ? classOf(cause.code, cause.index)?.cls : undefined);
  const wrapper = /\bfetch failed$/.test(found.message);
  if (!wrapper && !(cls && EXPLAINED.has(found.class) && cls !== found.class)) return undefined;
  return { ...found, class: cls ?? found.class, message: text, message_line: cause.index + 1, ...(cls && cls !== found.class ? { confidence: 'medium' as const } : {}), evidence: [cause.index + 1, ...found.evidence.filter((e) => e !== cause.index + 1)] };
}
