/**
 * The failure fingerprint (issue 29): what makes two failed builds "the same failure".
 *
 * A fingerprint is built from the failure's class, its message and the file it names, each
 * normalised the way the baseline normalises log lines (core/log/baseline.ts `normaliseLine`:
 * numbers, hashes, temporary paths, timestamps and counters become `#`/`~`), plus the names of
 * the failed tests of a test report. Line and column numbers are left out of the location: an
 * unrelated edit above the failing line moves it without making it another failure. The id is
 * the first 16 hex digits of a SHA-256 of those parts, so it can be compared across builds,
 * jobs and processes (analyzer, controller, watcher).
 */
import { createHash } from 'node:crypto';
import { normaliseLine } from '../log/baseline.js';

/** What a failure says about itself; the parts that make its fingerprint. */
export interface FailureSignature {
  /** The finding's class (`compile-error`, `test-assertion`...) or `unknown`. */
  class: string;
  /** The error message itself, as the log printed it. */
  message: string;
  /** The file the failure names (a path; the line is ignored). */
  file?: string;
  /** Failed test names from a test report (or the log). */
  tests?: readonly string[];
}

/** A failure's fingerprint and the normalised parts it was made from. */
export interface Fingerprint {
  /** 16 hex digits. */
  id: string;
  class: string;
  /** The normalised message. */
  message: string;
  /** The normalised file (workspace prefix and line numbers removed), when one was named. */
  file?: string;
  /** Failed test names, sorted, at most TESTS_KEPT. */
  tests: string[];
}

/** Only this many failed tests take part (a run with 5,000 failures is one failure mode). */
export const TESTS_KEPT = 50;
const MESSAGE_CHARS = 300;

/**
 * A path as a project-relative name: Jenkins workspace prefixes (`.../workspace/<job>/`),
 * `@2`-style suffixes and absolute roots differ between agents and builds of the same failure.
 */
export function normaliseFile(file: string): string {
  let f = file.replace(/\\/g, '/').trim();
  const ws = /\/workspace\/[^/]+(?:@[a-z0-9]+)?\//i.exec(f);
  if (ws) f = f.slice(ws.index + ws[0].length);
  else if (f.startsWith('/')) {
    // An absolute path outside a workspace: keep its last three parts (src/main/App.java).
    f = f.split('/').filter(Boolean).slice(-3).join('/');
  }
  return normaliseLine(f.replace(/^\.\//, ''));
}

/** The normalised message: its first line, the baseline's normalisation, at most 300 chars. */
export function normaliseMessage(message: string): string {
  const first = message.split('\n').find((l) => l.trim() !== '') ?? '';
  return normaliseLine(first).slice(0, MESSAGE_CHARS);
}

/** The fingerprint of a failure. */
export function fingerprintOf(sig: FailureSignature): Fingerprint {
  const cls = sig.class.trim() || 'unknown';
  const message = normaliseMessage(sig.message);
  const file = sig.file ? normaliseFile(sig.file) : undefined;
  const tests = [...new Set((sig.tests ?? []).map((t) => normaliseLine(t)).filter((t) => t !== ''))].sort().slice(0, TESTS_KEPT);
  // With a test report, the failed tests say which failure this is better than a message that
  // may quote a random value; the message still separates an error from an assertion.
  const parts = [cls, tests.length > 0 ? '' : message, file ?? '', tests.join('\u0001')];
  const id = createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 16);
  return { id, class: cls, message, ...(file ? { file } : {}), tests };
}
