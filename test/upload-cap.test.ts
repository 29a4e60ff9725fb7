/**
 * Concurrent context uploads are capped per process (CONTEXT_UPLOADS_MAX): beyond the cap an
 * upload is 503 `{detail}` with Retry-After, before its body is read; a slot frees when an
 * upload ends, however it ends. Both dialects.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { UPLOAD_RETRY_AFTER_S } from '../backend/routes/context.js';
import type { ContextService } from '../backend/services/context.js';
import { testDialects } from './helpers/databases.js';
import { startTestBackend, type TestBackend } from './helpers/backend.js';
import { until } from './helpers/poll.js';

const dialects = await testDialects();

/** Starts an upload whose body is sent only up to its middle; `finish()` sends the rest and reads the answer. */
async function halfSentUpload(backend: TestBackend, user: string, chatId: number, body: string) {
  const token = await backend.token(user);
  const url = new URL(`${backend.url}/context/${chatId}/`);
  const req = http.request({
    host: url.hostname,
    port: url.port,
    path: url.pathname,
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
  });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (t: string) => (text += t));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
  });
  const half = Math.floor(body.length / 2);
  req.write(body.slice(0, half));
  return {
    finish: () => {
      req.end(body.slice(half));
      return answer;
    },
    abort: () => {
      answer.catch(() => undefined);
      req.destroy();
    },
  };
}

describe.each(dialects)('context upload cap on $name', (dialect) => {
  let backend: TestBackend;
  let dataDir: string;
  let context: ContextService;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-cap-'));
    backend = await startTestBackend(dialect, { dataDir, context: { uploadsMax: 2 } });
    context = backend.context;
  });
  afterAll(async () => {
    await backend?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const chat = async (user: string) =>
    ((await (await backend.request(user, 'POST', '/chats/', { title: 'cap' })).json()) as { id: number }).id;
  const body = (n: number) => JSON.stringify({ ciContext: { buildDetails: { number: n, consoleLog: 'ERROR: boom\n'.repeat(2000) } } });

  test('two uploads in progress: a third is 503 with Retry-After at once; after one ends, uploads are taken again', async () => {
    const user = 'capper';
    const [c1, c2, c3] = [await chat(user), await chat(user), await chat(user)];
    const first = await halfSentUpload(backend, user, c1, body(1));
    const second = await halfSentUpload(backend, user, c2, body(2));
    await until('both uploads reading their bodies', () => (context.uploadsInProgress() === 2 ? true : undefined));
    const refused = await backend.request(user, 'POST', `/context/${c3}/`, body(3));
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe(String(UPLOAD_RETRY_AFTER_S));
    const { detail } = (await refused.json()) as { detail: string };
    expect(detail).toMatch(/already processing 2 context uploads \(CONTEXT_UPLOADS_MAX\): retry in 5 s/);
    expect((await first.finish()).status).toBe(200);
    expect((await backend.request(user, 'POST', `/context/${c3}/`, body(3))).status).toBe(200);
    expect((await second.finish()).status).toBe(200);
  });

  test('a client that gives up mid-body frees its slot', async () => {
    const user = 'capper2';
    const [c1, c2, c3] = [await chat(user), await chat(user), await chat(user)];
    const a = await halfSentUpload(backend, user, c1, body(1));
    const b = await halfSentUpload(backend, user, c2, body(2));
    await until('both uploads reading their bodies', () => (context.uploadsInProgress() === 2 ? true : undefined));
    expect((await backend.request(user, 'POST', `/context/${c3}/`, body(3))).status).toBe(503);
    a.abort();
    b.abort();
    await until('the slots to free', () => (context.uploadsInProgress() === 0 ? true : undefined));
    expect((await backend.request(user, 'POST', `/context/${c3}/`, body(3))).status).toBe(200);
  });
});
