/**
 * The CLI as a user runs it, where no server is needed: help, usage errors (exit 2), an
 * unreachable controller (one line and a hint, exit 1), `analyze` and `token add`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { freePort, runCli } from './helpers/stack.js';

const env = { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' };
let dir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-cli-offline-'));
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const FAILING_LOG = [
  'Started by user admin',
  '[Pipeline] sh',
  '+ mvn -B verify',
  '[INFO] Building orders-api 1.0',
  '[INFO] Running com.example.orders.OrderTotalsTest',
  '[ERROR] Tests run: 3, Failures: 1, Errors: 0, Skipped: 0',
  '[ERROR] totalsIncludeTax(com.example.orders.OrderTotalsTest)  Time elapsed: 0.01 s  <<< FAILURE!',
  'org.opentest4j.AssertionFailedError: expected: <107.0> but was: <100.0>',
  '\tat com.example.orders.OrderTotalsTest.totalsIncludeTax(OrderTotalsTest.java:21)',
  '[INFO] BUILD FAILURE',
  'Finished: FAILURE',
  '',
].join('\n');

describe('cichat without a server', () => {
  it('--help lists every command and exits 0', async () => {
    const r = await runCli(['--help'], { env });
    expect(r.code).toBe(0);
    for (const c of ['serve', 'chat', 'ask', 'chats', 'context', 'ws', 'analyze', 'token']) expect(r.stdout).toMatch(new RegExp(`^  ${c}\\b`, 'm'));
    expect(r.stdout).toContain('--json');
    const sub = await runCli(['context', 'upload', '--help'], { env });
    expect(sub.code).toBe(0);
    expect(sub.stdout).toContain('--from-env');
    expect(sub.stdout).toContain('JOB_NAME');
  });

  it.each([
    [['ask'], /missing required argument/],
    [['chats', 'show', 'abc'], /id: must be a positive integer/],
    [['ws', 'tree', 'team/api', '42', '--depth', '0'], /--depth: must be a positive integer/],
    [['ws', 'tree', 'team/api', '42', '--depth', '21'], /--depth: must be between 1 and 20/],
    [['frobnicate'], /unknown command/],
    [['chats', 'list', '--bogus'], /unknown option/],
    [['token', 'add', 'bob'], /--file/],
    [['ask', '--build', '3', 'why?'], /--build needs --job/],
  ])('usage error %j exits 2', async (args, message) => {
    const r = await runCli(args, { env });
    expect(r.stderr).toMatch(message);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
  });

  it('says what to do when the controller is unreachable, exit 1', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const r = await runCli(['chats', 'list'], { env: { ...env, CICHAT_URL: url } });
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n')[0]).toBe(`cichat: Cannot reach the controller at ${url}: is \`npm start\` running?`);
    expect(r.stderr).toMatch(/^hint: /m);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace for a user-fixable error
    const flag = await runCli(['--url', url, 'ask', 'why?'], { env });
    expect(flag.code).toBe(1);
    expect(flag.stderr).toContain(`Cannot reach the controller at ${url}`);
  });

  it('analyze ranks the failure excerpts of a log file, with line numbers', async () => {
    const file = path.join(dir, 'build.log');
    fs.writeFileSync(file, FAILING_LOG);
    const r = await runCli(['analyze', file], { env });
    expect(r.code).toBe(0);
    const first = r.stdout.split('\n\n')[0] ?? '';
    expect(first).toMatch(/^#1 lines? \d+/);
    expect(first).toMatch(/^ ?\d+ │ .*AssertionFailedError: expected: <107.0> but was: <100.0>$/m);
    // the number printed is the line's number in the file
    const numbered = /^ ?(\d+) │ org\.opentest4j/m.exec(r.stdout);
    expect(Number(numbered?.[1])).toBe(8);
  });

  it('analyze of a passing log says no failure was found, then shows where the log ends', async () => {
    const passing = ['[Pipeline] sh', '+ make', 'cc -o app src/main.o', '[Pipeline] End of Pipeline', 'Finished: SUCCESS', ''].join('\n');
    const r = await runCli(['analyze', '-'], { env, input: passing });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^No failure found in 5 lines\. The log ends:$/m);
    expect(r.stdout).toMatch(/no failure found/);
    expect(r.stdout).toMatch(/^\s?5 │ Finished: SUCCESS$/m);
  });

  it('analyze reads stdin and prints JSON with the lines', async () => {
    const r = await runCli(['analyze', '--json'], { env, input: FAILING_LOG });
    expect(r.code).toBe(0);
    const excerpts = JSON.parse(r.stdout) as { start_line: number; end_line: number; score: number; reason: string; lines: string[] }[];
    expect(excerpts.length).toBeGreaterThan(0);
    const top = excerpts[0]!;
    expect(top.lines).toEqual(FAILING_LOG.split('\n').slice(top.start_line - 1, top.end_line));
    expect(excerpts.some((e) => e.lines.some((l) => l.includes('AssertionFailedError')))).toBe(true);
    const again = await runCli(['--json', 'analyze', '-'], { env, input: FAILING_LOG });
    expect(JSON.parse(again.stdout)).toEqual(excerpts);
  });

  it('analyze of a missing file is a one-line error, exit 1', async () => {
    const r = await runCli(['analyze', path.join(dir, 'nope.log')], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('cannot read the log (ENOENT)');
  });

  it('token add prints the token once and stores only its hash', async () => {
    const file = path.join(dir, 'tokens', 'controller-tokens');
    const r = await runCli(['token', 'add', 'alice', '--file', file], { env });
    expect(r.code).toBe(0);
    const token = r.stdout.trim();
    expect(token).toMatch(/^\S{20,}$/);
    const stored = fs.readFileSync(file, 'utf8');
    expect(stored).toBe(`alice:${createHash('sha256').update(token).digest('hex')}\n`);
    expect(stored).not.toContain(token);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const bad = await runCli(['token', 'add', 'a:b', '--file', file], { env });
    expect(bad.code).toBe(2);
  });
});
