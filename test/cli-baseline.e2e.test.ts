/**
 * The CLI against a passing build's log (issue 16), as a user runs it: `cichat analyze FAIL
 * --baseline PASS [--json]` on a real recorded pair, and `cichat context upload CHAT --log F
 * --baseline-log P` against a stand-in controller that records the body it is sent.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { runCli } from './helpers/stack.js';

const env = { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' };
const PAIR = path.resolve('bench/data/baseline-pairs/pairs/node-compile');
const PASS = path.join(PAIR, 'pass.log');
const FAIL = path.join(PAIR, 'fail.log');
/** The labelled cause: tsc's error line. */
const CAUSE = (JSON.parse(fs.readFileSync(path.join(PAIR, 'label.json'), 'utf8')) as { cause_lines: number[] }).cause_lines;

interface JsonExcerpt {
  start_line: number;
  end_line: number;
  reason: string;
  new_since_baseline?: boolean;
  lines: string[];
}

describe('cichat analyze --baseline', () => {
  it('ranks the error that is new since the passing log first, and says so; the noise both printed comes after', async () => {
    const plain = await runCli(['analyze', FAIL, '--json'], { env });
    expect(plain.code).toBe(0);
    const zeroShot = JSON.parse(plain.stdout) as JsonExcerpt[];
    expect(zeroShot[0]).not.toHaveProperty('new_since_baseline');

    const r = await runCli(['analyze', FAIL, '--baseline', PASS, '--json'], { env });
    expect(r.code).toBe(0);
    const excerpts = JSON.parse(r.stdout) as JsonExcerpt[];
    const top = excerpts[0];
    expect(top?.new_since_baseline).toBe(true);
    expect(CAUSE.some((n) => (top?.start_line ?? 0) <= n && n <= (top?.end_line ?? 0))).toBe(true);
    expect(top?.lines.join('\n')).toContain('error TS2339');
    // `shellcheck: command not found` is printed by both builds: old, ranked after every new one.
    const old = excerpts.filter((e) => e.new_since_baseline === false);
    expect(old.some((e) => e.lines.some((l) => l.includes('shellcheck: command not found')))).toBe(true);
    expect(excerpts.findIndex((e) => e.new_since_baseline === false)).toBeGreaterThan(excerpts.findLastIndex((e) => e.new_since_baseline === true));
  });

  it('marks each excerpt in the text output, and reads the passing log from stdin with --baseline -', async () => {
    const r = await runCli(['analyze', FAIL, '--baseline', '-'], { env, input: fs.readFileSync(PASS) });
    expect(r.code).toBe(0);
    const first = r.stdout.split('\n\n')[0] ?? '';
    expect(first).toMatch(/^#1 line \d+ .*new since the passing build$/m);
    expect(first).toContain('error TS2339');
    expect(r.stdout).toContain('also in the passing build');
  });

  it('refuses two logs on stdin (exit 2) and a missing baseline file (exit 1)', async () => {
    const both = await runCli(['analyze', '--baseline', '-'], { env, input: 'x\n' });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('name the failing log as a file');
    const missing = await runCli(['analyze', FAIL, '--baseline', path.join(os.tmpdir(), 'no-such-passing.log')], { env });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`cannot read the baseline ${path.join(os.tmpdir(), 'no-such-passing.log')}: no such file`);
  });

  it('reads a gzipped passing log as the failing one is read (decompressed), and refuses a binary one (ux3, session 42)', async () => {
    const { gzipSync } = await import('node:zlib');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-baseline-'));
    try {
      const gz = path.join(dir, 'pass.log.gz');
      fs.writeFileSync(gz, gzipSync(fs.readFileSync(PASS)));
      const r = await runCli(['analyze', FAIL, '--baseline', gz, '--json'], { env });
      expect(r.code).toBe(0);
      expect(r.stderr).toContain('(the baseline): decompressed gzip');
      const excerpts = JSON.parse(r.stdout) as JsonExcerpt[];
      // Read as its compressed bytes, the passing log shared no line: every excerpt was "new".
      expect(excerpts.some((e) => e.new_since_baseline === false && e.lines.some((l) => l.includes('shellcheck: command not found')))).toBe(true);
      const bin = await runCli(['analyze', FAIL, '--baseline', process.execPath], { env });
      expect(bin.code).toBe(1);
      expect(bin.stderr).toMatch(/\(the baseline\) is not a text log: it looks like an executable/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('cichat context upload --baseline-log', () => {
  let server: http.Server;
  /** The bodies of the context uploads (POST /context/7/). */
  let bodies: Record<string, unknown>[] = [];
  /** Every request, `METHOD path`: the CLI asks the chat's last upload time before it uploads. */
  let requests: string[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        requests.push(`${req.method} ${req.url}`);
        res.writeHead(200, { 'content-type': 'application/json' });
        if (req.method === 'GET' && req.url === '/chatbot-api/context/7/last-upload') {
          res.end('{"last_upload_at":null}');
          return;
        }
        bodies.push(JSON.parse(Buffer.concat(chunks).toString() || '{}') as Record<string, unknown>);
        res.end('{"success":true,"received_data":{}}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    bodies = [];
    requests = [];
  });

  it('sends the passing log beside the failing one', async () => {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const r = await runCli(['context', 'upload', '7', '--log', FAIL, '--baseline-log', PASS, '--no-progress'], { env: { ...env, CICHAT_URL: url } });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Uploaded the context of chat 7 \(log of \d+ lines, passing log of \d+ lines\)/);
    expect(requests).toEqual(['GET /chatbot-api/context/7/last-upload', 'POST /chatbot-api/context/7/']);
    expect(bodies).toHaveLength(1);
    expect(bodies[0]?.consoleLog).toBe(fs.readFileSync(FAIL, 'utf8'));
    expect(bodies[0]?.baselineLog).toBe(fs.readFileSync(PASS, 'utf8'));
  });

  it('refuses both logs from stdin (exit 2) before sending anything', async () => {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const r = await runCli(['context', 'upload', '7', '--log', '-', '--baseline-log', '-'], { env: { ...env, CICHAT_URL: url }, input: 'x\n' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('cannot both read stdin');
    expect(requests).toHaveLength(0);
  });
});
