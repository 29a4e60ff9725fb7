/**
 * `buildDetails.failingSteps` (CONTRACT section 6) and where the log tail sits in the whole log
 * (`consoleLogTailStartLine`), so that the backend can rank the failing step's own lines first.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { BuildDetails } from '../protocol/types.js';
import { LINE_COUNT_MAX_BYTES, countLines, readFailingSteps } from './flow.js';
import { errorMessage, type XmlElement } from './xml.js';

export async function fillFailingSteps(details: BuildDetails, dir: string, build: XmlElement): Promise<void> {
  try {
    const steps = await readFailingSteps(dir, build);
    if (steps.length === 0) return;
    details.failingSteps = steps;
    const tail = details.consoleLogTail;
    if (typeof tail === 'string' && steps.some((s) => s.logLines !== undefined)) {
      const file = path.join(dir, 'log');
      if ((await stat(file)).size <= LINE_COUNT_MAX_BYTES) {
        const total = await countLines(file);
        const tailLines = tail === '' ? 0 : tail.split('\n').length;
        details.consoleLogTailStartLine = Math.max(1, total - tailLines + 1);
      }
    }
  } catch (err) {
    details.failingStepsError = `The flow nodes could not be read: ${errorMessage(err)}`;
  }
}
