/**
 * "Every path is served with and without a trailing slash" (CONTRACT section 2), for every route
 * of the backend: each one is called both ways and must answer the same status, and a path the
 * backend does not serve is 404 either way. The routes are declared once, without the slash
 * (@koa/router matches both unless told to be strict).
 */
import type { Chat, QaPair, Page } from '../protocol/types.js';
import { startTestBackend, type TestBackend } from './helpers/backend.js';
import { sqlite } from './helpers/databases.js';
import { collectEvents } from './helpers/sse.js';

let backend: TestBackend;
const user = 'slash-user';
let chat: Chat;
let pairId: number;

beforeAll(async () => {
  backend = await startTestBackend(sqlite);
  chat = (await (await backend.request(user, 'POST', '/chats/', { title: 'slashes' })).json()) as Chat;
  await backend.request(user, 'POST', `/context/${chat.id}/`, { ciContext: { buildDetails: { number: 1, consoleLog: 'a\nERROR: b\n' } } });
  await collectEvents(await backend.request(user, 'POST', '/messages/send', { chat_id: chat.id, content: 'why?' }));
  pairId = ((await (await backend.request(user, 'GET', `/chats/${chat.id}`)).json()) as Page<QaPair>).items[0]!.id;
});
afterAll(async () => {
  await backend?.close();
});

async function statusOf(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<number> {
  const res = await backend.request(user, method, path, body, headers);
  // An answer stream is read to its end, so that the chat is free for the next call.
  if ((res.headers.get('content-type') ?? '').startsWith('text/event-stream')) await collectEvents(res);
  else await res.arrayBuffer();
  return res.status;
}

test('every backend route answers the same with and without the trailing slash', async () => {
  const routes: [string, () => string, unknown?, Record<string, string>?][] = [
    ['GET', () => '/healthz'],
    ['POST', () => '/chats', { title: 'x' }],
    ['GET', () => '/chats'],
    ['GET', () => `/chats/${chat.id}`],
    ['PUT', () => `/chats/${chat.id}/title`, { new_title: 'renamed' }],
    ['POST', () => '/messages/send', { chat_id: chat.id, content: 'again?' }],
    ['POST', () => `/messages/${pairId}/retry`],
    ['PUT', () => `/messages/${pairId}/edit`, { new_content: 'edited?' }],
    ['POST', () => `/context/${chat.id}`, { ciContext: { buildDetails: { number: 2, consoleLog: 'c\nERROR: d\n' } } }],
    ['POST', () => `/context/${chat.id}/log`, 'e\nERROR: f\n', { 'content-type': 'text/plain' }],
    ['GET', () => `/context/${chat.id}/last-upload`],
    ['GET', () => `/context/${chat.id}/log`],
  ];
  const got: string[] = [];
  for (const [method, path, body, headers] of routes) {
    const plain = await statusOf(method, path(), body, headers);
    // retry and edit take the newest pair: the one before is superseded by then
    if (path().startsWith('/messages/')) pairId = ((await (await backend.request(user, 'GET', `/chats/${chat.id}`)).json()) as Page<QaPair>).items[0]!.id;
    const slash = await statusOf(method, `${path()}/`, body, headers);
    if (path().startsWith('/messages/')) pairId = ((await (await backend.request(user, 'GET', `/chats/${chat.id}`)).json()) as Page<QaPair>).items[0]!.id;
    got.push(`${method} ${path().replace(/\d+/g, 'N')} ${plain} ${slash}`);
  }
  expect(got).toEqual(routes.map(([method, path]) => {
    const expected = method === 'POST' && path() === '/chats' ? 201 : 200;
    return `${method} ${path().replace(/\d+/g, 'N')} ${expected} ${expected}`;
  }));
  // DELETE last: the chat goes.
  const other = (await (await backend.request(user, 'POST', '/chats/', {})).json()) as Chat;
  expect([await statusOf('DELETE', `/chats/${chat.id}`), await statusOf('DELETE', `/chats/${other.id}/`)]).toEqual([200, 200]);
  expect([await statusOf('GET', '/chatz'), await statusOf('GET', '/chatz/')]).toEqual([404, 404]);
});
