/**
 * Issue 27, points 4 and 5 with real signals: Ctrl-C while `cichat ask` or `cichat context
 * upload` is uploading a log (the controller has not answered yet). `ask` removes the chat it
 * made for the call and says nothing was kept; `context upload` says what the chat keeps. A
 * stand-in controller holds the upload open until the CLI goes away.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PACKAGE_ROOT } from '../cli/services.js';
import { nodeArgs } from './helpers/entry.js';
import { until } from './helpers/poll.js';

const AT = '2026-11-20T08:30:00.000Z';

describe('Ctrl-C during an upload (issue 27)', () => {
  const seen: string[] = [];
  let uploading = 0;
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const json = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'POST' && req.url === '/chatbot-api/chats/') return json(201, { id: 11, user_id: 'local', title: 't', created_at: AT, updated_at: AT });
    if (req.method === 'GET' && /\/last-upload$/.test(req.url ?? '')) return json(200, { last_upload_at: req.url?.includes('/5/') ? AT : null });
    if (req.method === 'DELETE') return json(200, { message: 'Chat 11 deleted.' });
    if (req.method === 'POST' && req.url?.startsWith('/chatbot-api/context/')) {
      uploading += 1;
      req.resume(); // read the body, never answer: the backend is "indexing"
      return;
    }
    json(404, { detail: 'not here' });
  });
  let url = '';

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  async function interrupted(args: string[]): Promise<{ code: number | null; stderr: string }> {
    const before = uploading;
    const child = spawn(process.execPath, [...nodeArgs('cli/main'), '--url', url, ...args], { cwd: PACKAGE_ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' } });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (t: string) => (stderr += t));
    const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.stdin.end('line 1\nERROR: boom\n');
    await until('the upload to reach the controller', () => (uploading > before ? true : undefined), { timeoutMs: 60_000, explain: () => stderr });
    child.kill('SIGINT');
    return { code: await exit, stderr };
  }

  it('ask: exit 130, the chat it made is removed, and it says so', async () => {
    const r = await interrupted(['ask', 'why did it fail?']);
    expect(r.code).toBe(130);
    expect(r.stderr).toContain('cichat: Interrupted during the upload: nothing was kept (chat 11, made for this call, is removed).');
    expect(r.stderr).toContain('cichat: removed chat 11 (made for this call, nothing in it)');
    expect(seen).toContain('DELETE /chatbot-api/chats/11');
  });

  it('context upload: exit 130, says the chat keeps its previous context', async () => {
    const r = await interrupted(['context', 'upload', '5', '--log', '-']);
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/cichat: Interrupted while the backend indexed the log: nothing new is stored unless it finishes; chat 5 keeps its previous context \(uploaded 2026-11-2\d \d\d:30:00\)\./);
    expect(seen.filter((s) => s.startsWith('DELETE'))).toEqual(['DELETE /chatbot-api/chats/11']);
  });
});
