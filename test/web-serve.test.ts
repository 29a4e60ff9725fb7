/**
 * The web page as the controller serves it (issue 30): the page's URLs answer index.html with a
 * strict Content-Security-Policy and no framing, the script and style sheet compressed and
 * cacheable, the Host rule of `none` mode holds for the page too; and the backend's
 * `GET /context/{chat_id}/log` (the log viewer's lines) through the controller, on SQLite and
 * MariaDB: lines rebuilt from overlapping chunks and a giant line's pieces, its limits, and
 * another user's chat is 404.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { signToken } from './helpers/backend.js';
import { testDialects } from './helpers/databases.js';
import { startInProcessStack, type InProcessStack } from './helpers/inProcessStack.js';

const dialects = await testDialects();
const SECRET = randomBytes(32).toString('hex');

describe.each(dialects)('the web page and the log route on $name', (dialect) => {
  let stack: InProcessStack;
  let tmp: string;
  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-web-serve-'));
    stack = await startInProcessStack(dialect, {
      dir: tmp,
      secret: SECRET,
      controllerEnv: { CONTROLLER_USER: 'web-user', JENKINS_HOME: path.resolve('seeds/jenkins-home') },
    });
  });
  afterAll(async () => {
    await stack?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });
  const url = (p: string) => `${stack.controller.url}${p}`;

  test('every page URL is index.html with the security headers; assets compressed and cached', async () => {
    const pages = ['/', '/failures', '/failures/', '/chats', '/chats/12', '/chats/12/', '/new'];
    let html = '';
    for (const p of pages) {
      const res = await fetch(url(p));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("style-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).not.toContain('unsafe-eval');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      html = await res.text();
    }
    // Nothing inline: every script has a src, no style element or attribute, nothing from elsewhere.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|style=/);
    expect(html).not.toMatch(/https?:\/\//);
    const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1] as string);
    expect(assets).toHaveLength(2);
    for (const a of assets) {
      const plain = await fetch(url(a), { headers: { 'accept-encoding': 'identity' } });
      expect(plain.status).toBe(200);
      expect(plain.headers.get('cache-control')).toContain('immutable');
      expect(plain.headers.get('content-type')).toMatch(a.endsWith('.js') ? /^text\/javascript/ : /^text\/css/);
      const body = Buffer.from(await plain.arrayBuffer());
      // node's fetch decodes by itself: read the raw bytes through a HEAD-less request with node:http instead.
      const raw = async (encoding: string) => {
        const http = await import('node:http');
        return new Promise<{ encoding: string | undefined; body: Buffer; etag: string | undefined }>((resolve, reject) => {
          http.get(url(a), { headers: { 'accept-encoding': encoding } }, (res) => {
            const parts: Buffer[] = [];
            res.on('data', (c: Buffer) => parts.push(c));
            res.on('end', () => resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(parts), etag: res.headers.etag }));
          }).on('error', reject);
        });
      };
      const br = await raw('gzip, deflate, br');
      expect(br.encoding).toBe('br');
      expect(brotliDecompressSync(br.body).equals(body)).toBe(true);
      const gz = await raw('gzip');
      expect(gz.encoding).toBe('gzip');
      expect(gunzipSync(gz.body).equals(body)).toBe(true);
      const again = await fetch(url(a), { headers: { 'if-none-match': br.etag ?? '' } });
      expect(again.status).toBe(304);
    }
  });

  test('the page obeys the Host rule of none mode; other paths and methods are not the page', async () => {
    const http = await import('node:http');
    const status = (p: string, headers: Record<string, string>, method = 'GET') =>
      new Promise<number>((resolve, reject) => {
        const req = http.request(url(p), { method, headers }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end();
      });
    expect(await status('/', { host: 'evil.example' })).toBe(403);
    expect(await status('/chats/1', { host: 'rebound.attacker.test:8080' })).toBe(403);
    expect(await status('/', { host: 'localhost' })).toBe(200);
    expect((await fetch(url('/chats/abc'))).status).toBe(404);
    expect((await fetch(url('/assets/nothing.js'))).status).toBe(404);
    expect((await fetch(url('/'), { method: 'POST' })).status).toBe(404);
    const missing = await fetch(url('/somewhere'));
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { detail: string }).detail).toMatch(/web page is at \//);
  });

  test('GET /context/{id}/log answers the stored lines, rebuilt from chunks; limits; not yours is 404', async () => {
    const api = (p: string, init?: RequestInit) => fetch(url(`/chatbot-api${p}`), init);
    const chat = (await (await api('/chats/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":"log"}' })).json()) as { id: number };
    // No context yet: no lines.
    expect(await (await api(`/context/${chat.id}/log?from=1&to=10`)).json()).toEqual({ lines: [], total_lines: 0, from: 1, to: 0 });

    const giant = 'x'.repeat(9000);
    const lines = Array.from({ length: 130 }, (_, i) => (i === 69 ? giant : `line ${i + 1} of the build`));
    const upload = await api(`/context/${chat.id}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jobName: 'team/api', buildNumber: 42, consoleLog: `${lines.join('\n')}\n` }),
    });
    expect(upload.status).toBe(200);

    const read = async (from: number, to: number) => (await (await api(`/context/${chat.id}/log?from=${from}&to=${to}`)).json()) as { lines: { n: number; text: string }[]; total_lines: number };
    const all = await read(1, 2000);
    expect(all.total_lines).toBe(130);
    expect(all.lines.map((l) => l.n)).toEqual(Array.from({ length: 130 }, (_, i) => i + 1));
    expect(all.lines.map((l) => l.text)).toEqual(lines);
    // A window across chunk boundaries (chunks of 40 lines overlapping by 5) and around the giant line.
    const window = await read(35, 72);
    expect(window.lines.map((l) => l.n)).toEqual(Array.from({ length: 38 }, (_, i) => i + 35));
    expect(window.lines.find((l) => l.n === 70)?.text).toBe(giant);
    expect((await read(129, 500)).lines.map((l) => l.text)).toEqual(['line 129 of the build', 'line 130 of the build']);

    for (const [q, field] of [
      ['from=0&to=5', 'from'],
      ['from=10&to=5', 'to'],
      ['from=1&to=2001', 'to'],
      ['from=x', 'from'],
    ] as const) {
      const res = await api(`/context/${chat.id}/log?${q}`);
      expect(res.status).toBe(422);
      expect(((await res.json()) as { detail: string }).detail).toMatch(new RegExp(`^${field}:`));
    }
    // Another user's chat, straight at the backend with that user's token: 404, never 403.
    const other = await fetch(`${stack.backend.url}/context/${chat.id}/log?from=1&to=5`, { headers: { authorization: `Bearer ${await signToken(SECRET, 'someone-else')}` } });
    expect(other.status).toBe(404);
    expect((await api('/context/999999/log')).status).toBe(404);
  });
});
