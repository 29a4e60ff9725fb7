/**
 * A failed build's signature read from its log (issue 29): the analyzer's first excerpt, its
 * structured finding when the analyzer attached one (issue 25: class, message, location), else
 * the excerpt's line that carries the error and the first `file:line` it names. The failed
 * tests of a test report, when the build has one, are added by the caller.
 */
import type { LogExcerpt } from '../../protocol/types.js';
import { analyzeLines } from '../log/analyze.js';
import { locationsInSpan } from '../log/locations.js';
import type { FailureSignature } from './fingerprint.js';

/** The parts of a finding (CONTRACT section 6) a signature uses. */
interface FindingLike {
  class?: unknown;
  message?: unknown;
  location?: { file?: unknown } | null;
}

/** A line that carries an error rather than framing it (used when no finding is attached). */
const ERROR_WORD =
  /\b(error|exception|failed|failure|fatal|panic|cannot|can't|could not|couldn't|unable to|undefined reference|not found|no such|denied|refused|timed? ?out|killed|segmentation fault|abort)/i;
/** Lines that frame an error without saying it (a tool's banner, a wrapper, a summary). */
const FRAMING =
  /^\s*(\[(ERROR|INFO|WARNING)\]\s*(-+|COMPILATION ERROR\s*:?|BUILD FAILURE|Failed to execute goal.*See the full stack trace|Re-run Maven.*|For more information.*|To see the full stack trace.*|\s*)$|FAILURE: Build failed|BUILD FAILED|Finished: (FAILURE|UNSTABLE)|Build step '.*' marked build as failure|ERROR: script returned exit code|make(\[\d+\])?: \*\*\*|npm ERR! (code|errno|A complete log)|error: command .* exited with|Process completed with exit code)/i;

/** The line of an excerpt that carries the error: the first error-like line that is not framing. */
export function errorLineOf(lines: readonly string[], excerpt: LogExcerpt): string {
  let fallback: string | undefined;
  for (let n = excerpt.start_line; n <= excerpt.end_line; n++) {
    const line = lines[n - 1] ?? '';
    if (line.trim() === '') continue;
    fallback ??= line;
    if (ERROR_WORD.test(line) && !FRAMING.test(line)) return line.trim();
  }
  return (fallback ?? '').trim();
}

/**
 * The signature of a failed build's cleaned log lines, or undefined when the analyzer finds no
 * failure in them (a log that says nothing is not a failure mode).
 */
export function signatureOfLines(lines: readonly string[], tests: readonly string[] = []): FailureSignature | undefined {
  const excerpt = analyzeLines(lines, { maxExcerpts: 1 })[0];
  if (!excerpt || (excerpt.score <= 0 && tests.length === 0)) {
    return tests.length > 0 ? { class: 'unknown', message: '', tests } : undefined;
  }
  const finding = (excerpt as LogExcerpt & { finding?: FindingLike }).finding;
  if (finding && typeof finding.message === 'string' && finding.message.trim() !== '') {
    const file = typeof finding.location?.file === 'string' ? finding.location.file : undefined;
    return { class: typeof finding.class === 'string' ? finding.class : 'unknown', message: finding.message, ...(file ? { file } : {}), tests };
  }
  const text = lines.slice(excerpt.start_line - 1, excerpt.end_line).join('\n');
  const location = locationsInSpan({ start_line: excerpt.start_line, text }, 1)[0];
  return { class: 'unknown', message: errorLineOf(lines, excerpt), ...(location ? { file: location.path } : {}), tests };
}
