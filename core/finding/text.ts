/**
 * A finding in one line, for places with room for one (the watcher's cause, the webhook
 * message, the `openai` prompt's facts): its class, where, and the message as the tool printed it.
 */
import type { Finding, FindingClass } from '../../protocol/types.js';

/** The class as a title. */
export const FINDING_TITLES: Record<FindingClass, string> = {
  'compile-error': 'Compile error',
  'link-error': 'Link error',
  'test-assertion': 'Test assertion failed',
  'test-error': 'Exception in a test',
  'runtime-exception': 'Runtime exception',
  'dependency-resolution': 'Dependency not resolved',
  network: 'Network unreachable',
  'disk-full': 'Disk full',
  'out-of-memory': 'Out of memory',
  'timeout-aborted': 'Timed out or aborted',
  'permission-credentials': 'Permission or credentials',
  'missing-tool': 'Missing tool or wrong version',
  lint: 'Lint failure',
  'ci-script': 'CI script error',
  'agent-lost': 'Agent lost',
  unknown: 'Error (cause not established)',
};

/** `src/a.ts:12:5`, or the file alone. */
export function findingPlace(f: Finding): string | undefined {
  const loc = f.location;
  if (!loc) return undefined;
  return `${loc.file}${loc.line !== undefined ? `:${loc.line}` : ''}${loc.line !== undefined && loc.column !== undefined ? `:${loc.column}` : ''}`;
}

/**
 * `Compile error at src/Main.java:8: cannot find symbol`: the class, the place (when the message
 * does not already name it), the test, and the message, cut to `max` characters.
 */
export function findingLine(f: Finding, max = 200): string {
  const place = findingPlace(f);
  const file = f.location?.file;
  const where = place && !(file && f.message.includes(file)) ? ` at ${place}` : '';
  const test = f.test ? ` in ${f.test.name}` : '';
  const message = f.message.replace(/\s+/g, ' ').trim();
  const line = `${FINDING_TITLES[f.class]}${test}${where}: ${message}`;
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
