import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { readTestResult, STACK_TRACE_MAX_CHARS } from './tests.js';

const SEED = path.resolve('seeds/jenkins-home/jobs/team/jobs/api/builds/42');

const report = (cases: string): string =>
  `<?xml version='1.1' encoding='UTF-8'?>\n<result plugin="junit@1300.v03d9d8a_cf1fb_"><suites><suite><name>com.acme.CartTest</name><cases>${cases}</cases></suite></suites><duration>1.2</duration><keepLongStdio>false</keepLongStdio></result>`;
const failing = (name: string, trace: string, since = 42): string =>
  `<case><duration>0.01</duration><className>com.acme.CartTest</className><testName>${name}</testName><skipped>false</skipped><errorStackTrace>${trace}</errorStackTrace><errorDetails>expected: &lt;3&gt; but was: &lt;4&gt;</errorDetails><failedSince>${since}</failedSince></case>`;
const passing = (name: string): string => `<case><className>com.acme.CartTest</className><testName>${name}</testName><skipped>false</skipped><failedSince>0</failedSince></case>`;
const skipped = `<case><className>com.acme.CartTest</className><testName>later</testName><skipped>true</skipped><skippedMessage>wip</skippedMessage></case>`;

describe('testResults from junitResult.xml', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'junit-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('the sample build: counts and the failed test with class, name, message and stack trace', async () => {
    const r = await readTestResult(SEED, 42);
    expect(r).toMatchObject({ total: 10, failed: 1, skipped: 0, passed: 9 });
    const [t] = r?.['failedTests'] as { className: string; name: string; message?: string; stackTrace?: string }[];
    expect(t).toMatchObject({ className: 'com.example.orders.OrderTotalsTest', name: 'totalAppliesDiscountBeforeTax' });
    expect(t?.message).toMatch(/expected/);
    expect(t?.stackTrace).toMatch(/OrderTotalsTest/);
  });

  test('the gzipped form is read the same; long traces are cut to 4000 characters; failedSince only when earlier', async () => {
    const long = 'java.lang.AssertionError: boom\n' + '\tat com.acme.Cart.add(Cart.java:1)\n'.repeat(400);
    const xml = report(failing('addsItem', long, 40) + failing('removesItem', 'java.lang.AssertionError: x', 42) + passing('empty') + skipped);
    writeFileSync(path.join(dir, 'junitResult.xml.gz'), gzipSync(xml));
    const r = await readTestResult(dir, 42);
    expect(r).toMatchObject({ total: 4, failed: 2, skipped: 1, passed: 1 });
    const tests = r?.['failedTests'] as { name: string; stackTrace?: string; failedSince?: number; message?: string }[];
    expect(tests.map((t) => t.name)).toEqual(['addsItem', 'removesItem']);
    expect(tests[0]?.stackTrace?.length).toBeLessThan(STACK_TRACE_MAX_CHARS + 40);
    expect(tests[0]?.stackTrace).toMatch(/\[cut: \d+ characters\]$/);
    expect(tests[0]?.failedSince).toBe(40);
    expect(tests[1]?.failedSince).toBeUndefined();
    expect(tests[1]?.message).toBe('expected: <3> but was: <4>');
  });

  test('a corrupt report says so instead of counts; none at all is absent', async () => {
    expect(await readTestResult(dir)).toBeUndefined();
    writeFileSync(path.join(dir, 'junitResult.xml.gz'), Buffer.from('not gzip'));
    expect(await readTestResult(dir)).toEqual({ unavailable: expect.stringMatching(/^junitResult\.xml\.gz: /) });
    writeFileSync(path.join(dir, 'junitResult.xml'), '<result><suites>');
    expect(await readTestResult(dir)).toEqual({ unavailable: expect.stringMatching(/^junitResult\.xml: /) });
    expect(readFileSync(path.join(dir, 'junitResult.xml'), 'utf8')).toBe('<result><suites>');
  });
});
