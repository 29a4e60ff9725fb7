/**
 * `buildDetails.failingSteps` (CONTRACT section 6) and where the log tail sits in the whole log
 * (`consoleLogTailStartLine`), so that the backend can rank the failing step's own lines first.
 * The log (`log`, or `log.gz` inflated as a stream) is read once for both, up to
 * LINE_SCAN_MAX_BYTES.
 */
import type { BuildDetails } from '../protocol/types.js';
import { readFailingStepsAndLines } from './flow.js';
import { errorMessage, type XmlElement } from './xml.js';

export async function fillFailingSteps(details: BuildDetails, dir: string, build: XmlElement): Promise<void> {
  try {
    const { steps, totalLines } = await readFailingStepsAndLines(dir, build);
    if (steps.length === 0) return;
    details.failingSteps = steps;
    const tail = details.consoleLogTail;
    if (typeof tail === 'string' && totalLines !== undefined && steps.some((s) => s.logLines !== undefined)) {
      const tailLines = tail === '' ? 0 : tail.split('\n').length;
      details.consoleLogTailStartLine = Math.max(1, totalLines - tailLines + 1);
    }
  } catch (err) {
    details.failingStepsError = `The flow nodes could not be read: ${errorMessage(err)}`;
  }
}
