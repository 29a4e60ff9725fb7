/**
 * POST /context/{chat_id}/log (issue 28): the raw log as the body, optionally gzip, streamed
 * into ingestion; facts beside it in X-Cichat-Context; an empty or broken body keeps the
 * previous context.
 */
import { gzipSync } from 'node:zlib';
import type { Chat } from '../protocol/types.js';
import { countContexts, currentContext } from '../backend/store/contexts.js';
import { startTestBackend, type TestBackend } from './helpers/backend.js';
import { sqlite } from './helpers/databases.js';

function mavenLog(lines: number): string {
  const out = ['Started by user admin', '[Pipeline] sh', '+ mvn -B verify'];
  for (let i = 0; i < lines; i++) out.push(`[INFO] Compiling module-${i % 31} file ${i}.java`);
  out.push('[ERROR] /src/main/java/com/acme/UserService.java:[42,17] cannot find symbol', 'ERROR: script returned exit code 1', 'Finished: FAILURE');
  return `${out.join('\n')}\n`;
}

let backend: TestBackend;
beforeAll(async () => {
  backend = await startTestBackend(sqlite);
});
afterAll(async () => {
  await backend.close();
});

const user = 'log-user';
async function newChat(): Promise<number> {
  return ((await (await backend.request(user, 'POST', '/chats/', {})).json()) as Chat).id;
}
async function post(chatId: number, body: Buffer | string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${backend.url}/context/${chatId}/log`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await backend.token(user)}`, 'content-type': 'text/plain; charset=utf-8', ...headers },
    body,
  });
}
const facts = (ci: unknown) => Buffer.from(JSON.stringify(ci)).toString('base64url');

test('a raw log and a gzip one give the same context; facts come from the header', async () => {
  const log = mavenLog(30_000);
  const plain = await newChat();
  const zipped = await newChat();
  const header = { 'x-cichat-context': facts({ jobDetails: { name: 'shop' }, buildDetails: { number: 42, result: 'FAILURE' } }) };
  const a = await post(plain, log, header);
  const b = await post(zipped, gzipSync(log), { ...header, 'content-encoding': 'gzip' });
  expect([a.status, b.status]).toEqual([200, 200]);
  const [ja, jb] = (await Promise.all([a.json(), b.json()])) as { received_data: { jobDetails: { name: string }; buildDetails: { number: number; consoleLogTail?: string } }; log_lines: number }[];
  expect(ja).toEqual(jb);
  expect(ja!.log_lines).toBe(30_006);
  expect(ja!.received_data.jobDetails.name).toBe('shop');
  expect(ja!.received_data.buildDetails.number).toBe(42);
  const stored = await currentContext(backend.db, plain);
  expect(stored?.failureExcerpts[0]?.text).toContain('cannot find symbol');
  expect(stored?.logLineCount).toBe(30_006);
});

test('an empty body, a body that is not gzip and a wrong type are refused and the chat keeps its context', async () => {
  const chat = await newChat();
  expect((await post(chat, mavenLog(10))).status).toBe(200);
  const before = await currentContext(backend.db, chat);
  const empty = await post(chat, '');
  expect(empty.status).toBe(422);
  expect(((await empty.json()) as { detail: string }).detail).toMatch(/empty.*keeps its previous context/);
  // White space only is empty too, as in the JSON upload (the web page sends files here): in one piece or many.
  for (const blank of [' \n\t\r\n', Buffer.alloc(300_000, '\n'), gzipSync(Buffer.alloc(200_000, ' '))]) {
    const res = await post(chat, blank, Buffer.isBuffer(blank) && blank[0] === 0x1f ? { 'content-encoding': 'gzip' } : {});
    expect(res.status).toBe(422);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/empty.*keeps its previous context/);
  }
  // Blank lines before the text are the log's own first lines.
  const late = await newChat();
  const lateRes = await post(late, `\n\n   \n${mavenLog(10)}`);
  expect(lateRes.status).toBe(200);
  const plainRes = await post(await newChat(), mavenLog(10));
  expect(((await lateRes.json()) as { log_lines: number }).log_lines).toBe(3 + ((await plainRes.json()) as { log_lines: number }).log_lines);
  const broken = await post(chat, Buffer.from('this is not gzip at all'), { 'content-encoding': 'gzip' });
  expect(broken.status).toBe(400);
  expect(((await broken.json()) as { detail: string }).detail).toMatch(/not valid gzip/);
  const truncated = gzipSync(mavenLog(5000)).subarray(0, 2000);
  const cut = await post(chat, truncated, { 'content-encoding': 'gzip' });
  expect(cut.status).toBe(400);
  expect((await post(chat, 'x', { 'content-type': 'application/json' })).status).toBe(415);
  expect((await post(chat, 'x', { 'content-encoding': 'br' })).status).toBe(415);
  expect((await post(chat, 'x', { 'x-cichat-context': 'not base64 json' })).status).toBe(400);
  expect(await currentContext(backend.db, chat)).toEqual(before);
  const counts = await countContexts(backend.db, chat);
  expect([counts.ready, counts.building]).toEqual([1, 0]);
});

test('the body is decoded as the CLI decodes a log: binary refused, gzip by its bytes, UTF-16 by its mark, Latin-1 by its charset or its bytes', async () => {
  const chat = await newChat();
  expect((await post(chat, mavenLog(10))).status).toBe(200);
  const kept = (await currentContext(backend.db, chat))!.id;
  // A zip archive, a NUL byte: 415 naming what it is; nothing stored.
  const zip = await post(chat, Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(4000, 7)]), { 'content-type': 'application/octet-stream' });
  expect(zip.status).toBe(415);
  expect(((await zip.json()) as { detail: string }).detail).toMatch(/^the body is not a text log: it looks like a zip archive .*nothing was stored/);
  const nul = await post(chat, Buffer.from('line one\n\u0000\u0001\u0002 binary'));
  expect(nul.status).toBe(415);
  expect((await currentContext(backend.db, chat))!.id).toBe(kept);
  // gzip data sent without Content-Encoding (curl --data-binary @build.log.gz) is read, and data that only starts like gzip is 400.
  const gz = await post(chat, gzipSync(mavenLog(50)));
  expect(gz.status).toBe(200);
  const broken = await post(chat, Buffer.concat([gzipSync(mavenLog(5000)).subarray(0, 300)]));
  expect(broken.status).toBe(400);
  expect(((await broken.json()) as { detail: string }).detail).toMatch(/starts like gzip data but could not be decompressed/);
  // UTF-16 with its byte order mark, and Windows-1252 (declared, or found not to be UTF-8).
  const text = 'Started\n[ERROR] Prüfung fehlgeschlagen: “Größe” – 5 €\nFinished: FAILURE\n';
  const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
  const cp1252 = Buffer.from(text.replace('“', '\u0093').replace('”', '\u0094').replace('–', '\u0096').replace('€', '\u0080'), 'latin1');
  for (const [body, type] of [
    [utf16, 'text/plain'],
    [cp1252, 'text/plain; charset=windows-1252'],
    [cp1252, 'text/plain'],
  ] as const) {
    const r = await post(chat, body, { 'content-type': type });
    expect([type, r.status]).toEqual([type, 200]);
    const stored = await currentContext(backend.db, chat);
    expect([type, stored?.ciContext.buildDetails?.consoleLog ?? stored?.ciContext.buildDetails?.consoleLogTail]).toEqual([type, text]);
  }
});

test('a body refused after its first bytes (binary) is read to its end: the kept-alive connection serves the next upload (ux3, session 42)', async () => {
  // The controller sends every upload on a pooled connection: cut under it, the next upload was a 502 (ECONNRESET).
  const http = await import('node:http');
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const chat = await newChat();
  const token = await backend.token(user);
  const send = (body: Buffer, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; text: string; socket: unknown }>((resolve, reject) => {
      const req = http.request(`${backend.url}/context/${chat}/log`, { method: 'POST', agent, headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain', ...headers } }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (p: Buffer) => parts.push(p));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(parts).toString(), socket: req.socket }));
      });
      req.on('error', reject);
      req.end(body);
    });
  try {
    const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46]), Buffer.alloc(300_000, 1)]);
    const refused = await send(elf);
    expect(refused.status).toBe(415);
    // What a client does next: the connection is idle in the pool a moment, then reused.
    await new Promise((r) => setTimeout(r, 200));
    const next = await send(Buffer.from(mavenLog(10)));
    expect(next.status).toBe(200);
    expect(next.socket).toBe(refused.socket);
    // The same after a body that says gzip and is not.
    const broken = await send(Buffer.concat([Buffer.from([0x1f, 0x8b]), Buffer.alloc(300_000, 3)]), { 'content-encoding': 'gzip' });
    expect(broken.status).toBe(400);
    await new Promise((r) => setTimeout(r, 200));
    const after = await send(Buffer.from(mavenLog(10)));
    expect(after.status).toBe(200);
    expect(after.socket).toBe(refused.socket);
  } finally {
    agent.destroy();
  }
});
