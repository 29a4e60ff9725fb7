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

type BodyAt = (i: number) => string;

/** The causes that explain the error above them (what a resolver, a fetch or a program could not get). */
const CAUSE_CLASSES = new Set(['permission-credentials', 'network', 'disk-full', 'out-of-memory', 'timeout-aborted']);
/** The findings a cause below may explain: what failed, not why. */
const EXPLAINED = new Set(['unknown', 'dependency-resolution', 'runtime-exception']);
/** How far below the message the chain is read. */
const REACH = 60;

/** The finding with the deepest cause of its `Caused by:` chain, when that cause's words name a cause class; else the finding. */
export function withCause(found: Finding, lines: readonly string[], bodyAt: BodyAt): Finding {
  if (!EXPLAINED.has(found.class)) return found;
  const msgAt = found.message_line - 1;
  let chained = false;
  let cause: { index: number; cls: Finding['class'] } | undefined;
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
  }
  if (!chained || !cause || cause.cls === found.class) return found;
  const text = bodyAt(cause.index).trim().replace(/^Caused by:?\s*/, '');
  return { ...found, class: cause.cls, message: text, message_line: cause.index + 1, confidence: 'medium', evidence: [cause.index + 1, ...found.evidence.filter((e) => e !== cause.index + 1)] };
}

function classOf(text: string, index: number): { index: number; cls: Finding['class'] } | undefined {
  const rule = WORD_RULES.find((r) => CAUSE_CLASSES.has(r.cls) && r.re.test(text));
  return rule ? { index, cls: rule.cls } : undefined;
}
