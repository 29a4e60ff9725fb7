/**
 * The JSON context upload's big log left unparsed in the body (backend/routes/contextBody.ts,
 * issue 28): the same context as the whole parse gives, the same refusals.
 */
import type { Chat } from '../protocol/types.js';
import { countContexts, currentContext } from '../backend/store/contexts.js';
import { streamedLogStats } from '../backend/routes/contextBody.js';
import { startTestBackend, type TestBackend } from './helpers/backend.js';
import { sqlite } from './helpers/databases.js';
import { expectEqual } from './helpers/equal.js';

/** A log over 1 MiB with every escape JSON makes, UTF-8 of all widths and a failure at the end. */
function trickyLog(lines: number): string {
  const out = ['Started by user admin', '+ mvn -B verify'];
  for (let i = 0; i < lines; i++) out.push(`[INFO] "module-${i % 31}"\tC:\\src\\${i}.java é✓漢😀 ${i % 97 === 0 ? '\u0001\u2028' : ''}`);
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

const user = 'json-log-user';
async function newChat(): Promise<number> {
  return ((await (await backend.request(user, 'POST', '/chats/', {})).json()) as Chat).id;
}
async function post(chatId: number, body: string, path = ''): Promise<Response> {
  return fetch(`${backend.url}/context/${chatId}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await backend.token(user)}`, 'content-type': path ? 'text/plain' : 'application/json' },
    body,
  });
}
const rowsOf = async (chatId: number) =>
  backend.db('context_chunks').where({ context_id: (await currentContext(backend.db, chatId))!.id }).orderBy('seq').select('seq', 'start_line', 'end_line', 'text', 'embedding');

test('a big log in the JSON body gives the context its raw upload gives (chunks, excerpts, stored text)', async () => {
  const log = trickyLog(20_000);
  expect(Buffer.byteLength(JSON.stringify(log))).toBeGreaterThan(1024 * 1024);
  const asJson = await newChat();
  const asRaw = await newChat();
  const streamed = streamedLogStats.bodies;
  const a = await post(asJson, JSON.stringify({ ciContext: { jobDetails: { fullName: 'shop' }, buildDetails: { number: 42, result: 'FAILURE', consoleLog: log } } }));
  const b = await post(asRaw, log, '/log');
  expect([a.status, b.status]).toEqual([200, 200]);
  expect(streamedLogStats.bodies).toBe(streamed + 1);
  const [x, y] = await Promise.all([currentContext(backend.db, asJson), currentContext(backend.db, asRaw)]);
  expect(x!.logLineCount).toBe(20_005);
  expect([x!.logLineCount, x!.chunkCount, x!.failureExcerpts]).toEqual([y!.logLineCount, y!.chunkCount, y!.failureExcerpts]);
  expect(x!.ciContext.buildDetails?.consoleLogTail).toBe(y!.ciContext.buildDetails?.consoleLogTail);
  expect(x!.ciContext.buildDetails?.number).toBe(42);
  expect(JSON.stringify(x!.ciContext)).not.toContain('cichat-streamed-log');
  expectEqual(await rowsOf(asJson), await rowsOf(asRaw));
  // jenkinsContext, the alias, the same way.
  const alias = await newChat();
  expect((await post(alias, JSON.stringify({ jenkinsContext: { buildDetails: { number: 42, consoleLog: log } } }))).status).toBe(200);
  expectEqual(await rowsOf(alias), await rowsOf(asRaw));
});

test('a big blank log is 422, a broken escape in it 400, and the chat keeps its context', async () => {
  const chat = await newChat();
  expect((await post(chat, JSON.stringify({ ciContext: { buildDetails: { consoleLog: trickyLog(100) } } }))).status).toBe(200);
  const before = await currentContext(backend.db, chat);
  const blank = await post(chat, JSON.stringify({ ciContext: { buildDetails: { consoleLog: ' \n\t\u00a0'.repeat(400_000) } } }));
  expect(blank.status).toBe(422);
  expect(((await blank.json()) as { detail: string }).detail).toContain('the log is empty');
  const valid = JSON.stringify({ ciContext: { buildDetails: { consoleLog: trickyLog(20_000) } } });
  const at = valid.indexOf('module-7', 800_000);
  expect(at).toBeGreaterThan(0);
  const broken = `${valid.slice(0, at)}\\q${valid.slice(at)}`;
  const streamed = streamedLogStats.bodies;
  const res = await post(chat, broken);
  expect(res.status).toBe(400);
  expect(((await res.json()) as { detail: string }).detail).toBe('The request body is not valid JSON.');
  expect(streamedLogStats.bodies).toBe(streamed + 1);
  expect(await currentContext(backend.db, chat)).toEqual(before);
  expect((await countContexts(backend.db, chat)).building).toBe(0);
  // A wrong type elsewhere in a big body is the same 422 as before, naming the field.
  const wrong = await post(chat, JSON.stringify({ ciContext: { buildDetails: { number: 'x', consoleLog: trickyLog(20_000) } } }));
  expect(wrong.status).toBe(422);
  expect(((await wrong.json()) as { detail: string }).detail).toContain('ciContext.buildDetails.number');
});
