/**
 * `buildDetails.testResults` from the JUnit plugin's `junitResult.xml` (CONTRACT section 6):
 * counts, and the failed tests with class, name, message and stack trace (cut to 4000
 * characters, masked). The gzipped form `junitResult.xml.gz` is read the same way.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { createGunzip } from 'node:zlib';
import type { BuildDetails } from '../protocol/types.js';
import { maskSecrets } from '../core/secrets.js';
import { child, childText, childrenNamed, errorMessage, parseXml, readXmlFile, type XmlElement } from './xml.js';

/** Reports larger than this (on disk, or once inflated) are not read. */
export const JUNIT_MAX_BYTES = 32 * 1024 * 1024;
export const STACK_TRACE_MAX_CHARS = 4000;
const MESSAGE_MAX_CHARS = 2000;
/** How many failed tests are sent (the counts say how many there are). */
export const FAILED_TESTS_MAX = 50;

export interface FailedTest {
  className: string;
  name: string;
  message?: string;
  stackTrace?: string;
  /** The build this test has been failing since (the JUnit plugin's `failedSince`), when earlier. */
  failedSince?: number;
}

async function sizeOf(file: string): Promise<number | null> {
  try {
    const s = await stat(file);
    return s.isFile() ? s.size : null;
  } catch {
    return null;
  }
}

async function gunzipText(file: string): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  const stream = createReadStream(file).pipe(createGunzip());
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > JUNIT_MAX_BYTES) {
      stream.destroy();
      throw new Error(`junitResult.xml.gz inflates past ${JUNIT_MAX_BYTES} bytes, too large to read`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const cut = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max)}\n[cut: ${text.length} characters]` : text);

/** The report's counts and failed tests. */
export function testResultOf(root: XmlElement, buildNumber?: number): NonNullable<BuildDetails['testResults']> {
  let total = 0;
  let failed = 0;
  let skipped = 0;
  const failedTests: FailedTest[] = [];
  for (const suite of childrenNamed(child(root, 'suites'), 'suite')) {
    for (const c of childrenNamed(child(suite, 'cases'), 'case')) {
      total++;
      if (childText(c, 'skipped') === 'true') {
        skipped++;
        continue;
      }
      const message = childText(c, 'errorDetails');
      const trace = childText(c, 'errorStackTrace');
      if (message === undefined && trace === undefined) continue;
      failed++;
      if (failedTests.length >= FAILED_TESTS_MAX) continue;
      const t: FailedTest = { className: childText(c, 'className') ?? childText(suite, 'name') ?? '', name: childText(c, 'testName') ?? '' };
      if (message !== undefined) t.message = maskSecrets(cut(message, MESSAGE_MAX_CHARS));
      if (trace !== undefined) t.stackTrace = maskSecrets(cut(trace, STACK_TRACE_MAX_CHARS));
      const since = Number(childText(c, 'failedSince'));
      if (Number.isSafeInteger(since) && since > 0 && (buildNumber === undefined || since < buildNumber)) t.failedSince = since;
      failedTests.push(t);
    }
  }
  return { total, failed, skipped, passed: total - failed - skipped, failedTests };
}

/** Test counts and failed tests of a build, when it has a report (`junitResult.xml` or `.gz`). */
export async function readTestResult(buildDir: string, buildNumber?: number): Promise<BuildDetails['testResults'] | undefined> {
  const plain = path.join(buildDir, 'junitResult.xml');
  const gz = `${plain}.gz`;
  const plainSize = await sizeOf(plain);
  const gzSize = plainSize === null ? await sizeOf(gz) : null;
  if (plainSize === null && gzSize === null) return undefined;
  const size = plainSize ?? gzSize ?? 0;
  const name = plainSize !== null ? 'junitResult.xml' : 'junitResult.xml.gz';
  if (size > JUNIT_MAX_BYTES) return { unavailable: `${name} is ${size} bytes, too large to read` };
  try {
    const root = plainSize !== null ? await readXmlFile(plain) : parseXml(await gunzipText(gz), gz);
    return root ? testResultOf(root, buildNumber) : undefined;
  } catch (err) {
    return { unavailable: `${name}: ${errorMessage(err)}` };
  }
}
