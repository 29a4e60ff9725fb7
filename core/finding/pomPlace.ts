/**
 * Maven's model problems (round 9 opened; docs/notes/analyzer.md, "Round 9 opened (helper t9)"): a POM
 * that cannot be read is reported as `[ERROR] <problem> @ line 13, column 19`, and the file is named
 * apart, on Maven's summary below (`The project g:a:v (/ws/x/pom.xml) has 2 errors`). The problem's
 * line and column are in that POM.
 */
import type { Finding } from '../../protocol/types.js';

type BodyAt = (i: number) => string;

const AT_LINE = /\s@ line (\d+), column (\d+)(?:\s+-> \[Help \d+\])?$/;
const PROJECT = /^(?:\[ERROR\]\s+)?The project \S+ \((\S*pom\.xml)\) has \d+ errors?$/;
const PROBLEMS_HEADING = /\bSome problems were encountered while processing the POMs:\s*$/;
/** How far around the message Maven's summary is looked for. */
const REACH = 15;

/** The finding with the POM's line as its place, when the message is a model problem at a line and Maven names the POM. */
export function withPomPlace(found: Finding, lines: readonly string[], bodyAt: BodyAt): Finding {
  if (found.location) return found;
  // Maven's heading over its list of problems (`[ERROR] Some problems were encountered while processing the POMs:`):
  // the first problem, on the line below it, is the place.
  const listed = PROBLEMS_HEADING.test(found.message) ? AT_LINE.exec(bodyAt(found.message_line).trim()) : null;
  const own = AT_LINE.exec(found.message);
  const at = own ?? listed;
  if (!at) return modelWarningPlace(found, bodyAt);
  // The log line that holds the `@ line N, column M` (the problem below the heading when the message is the heading).
  const atLogLine = own ? found.message_line : found.message_line + 1;
  const i = found.message_line - 1;
  for (let k = Math.max(0, i - REACH); k < Math.min(lines.length, i + REACH); k++) {
    const pom = PROJECT.exec(bodyAt(k).trim());
    if (!pom) continue;
    const evidence = found.evidence.includes(atLogLine) ? found.evidence : [...found.evidence, atLogLine];
    return { ...found, location: { file: pom[1] as string, line: Number(at[1]), column: Number(at[2]), log_line: atLogLine }, evidence };
  }
  return found;
}

/** Maven's model warning at a POM line (`[WARNING] 'dependencies.dependency.systemPath' for g:a:jar refers to a non-existing file /ws/lib/x.jar @ line 16, column 19`). */
const MODEL_WARNING = /^\[WARNING\] '[\w.]+' for (\S+) (.*?) @ line (\d+), column (\d+)$/;
/** How far above the message the model warnings are read (Maven prints them first, at the project's start). */
const WARNING_REACH = 300;

/**
 * A dependency that did not resolve, which a model warning of the project's POM named first (round 11 opened;
 * docs/notes/analyzer.md, "Round 11 opened (helper t12)"): the warning's line of the POM (the project's own,
 * `pom.xml` where Maven builds) is the place, when the message names the same artifact path.
 */
function modelWarningPlace(found: Finding, bodyAt: BodyAt): Finding {
  if (found.class !== 'dependency-resolution') return found;
  const paths = found.message.match(/\/[\w./@+-]+\.(?:jar|pom|war|aar)\b/g) ?? [];
  if (paths.length === 0) return found;
  const i = found.message_line - 1;
  for (let k = i - 1; k >= Math.max(0, i - WARNING_REACH); k--) {
    const m = MODEL_WARNING.exec(bodyAt(k).trim());
    if (!m || !paths.some((p) => (m[2] as string).includes(p))) continue;
    return { ...found, location: { file: 'pom.xml', line: Number(m[3]), column: Number(m[4]), log_line: k + 1 }, evidence: [...found.evidence, k + 1] };
  }
  return found;
}
