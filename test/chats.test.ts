import { SignJWT, type JWTPayload } from 'jose';
import { generateKeyPairSync } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import knex from 'knex';
import { pino } from 'pino';
import { PING_INTERVAL_MS, createApp } from '../backend/app.js';
import { STREAM_LEASE_MS } from '../backend/config.js';
import { createLocalEngine } from '../backend/answer/local.js';
import { knexConfig } from '../backend/db.js';
import { Lifecycle } from '../backend/lifecycle.js';
import { LocalEmbedder } from '../backend/retrieval/embed.js';
import { createContextService } from '../backend/services/context.js';
import type { Chat, Page, QaPair } from '../protocol/types.js';
import { JWT_AUDIENCE, JWT_ISSUER } from '../protocol/auth.js';
import { testDialects } from './helpers/databases.js';
import { expectLostConnections, signToken, startTestBackend } from './helpers/backend.js';
import type { TestBackend } from './helpers/backend.js';

const dialects = await testDialects();
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe.each(dialects)('chats API on $name', (dialect) => {
  let backend: TestBackend;
  let n = 0;
  const newUser = () => `user-${dialect.name}-${++n}-${Math.random().toString(36).slice(2)}`;

  beforeAll(async () => {
    backend = await startTestBackend(dialect);
  });
  afterAll(async () => {
    await backend?.close();
  });

  async function buildChat(user: string, title?: string): Promise<Chat> {
    const res = await backend.request(user, 'POST', '/chats/', title === undefined ? {} : { title });
    expect(res.status).toBe(201);
    return (await res.json()) as Chat;
  }

  async function json<T>(res: Response): Promise<T> {
    return (await res.json()) as T;
  }

  test('GET /healthz needs no token', async () => {
    const res = await fetch(`${backend.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  test('create with and without a title, with and without the trailing slash', async () => {
    const user = newUser();
    const a = await buildChat(user);
    expect(a).toMatchObject({ user_id: user, title: 'New Chat' });
    expect(a.created_at).toMatch(ISO);
    expect(a.updated_at).toMatch(ISO);
    expect(typeof a.id).toBe('number');
    const res = await backend.request(user, 'POST', '/chats', { title: 'no slash' });
    expect(res.status).toBe(201);
    expect((await json<Chat>(res)).title).toBe('no slash');
    const list = await json<Page<Chat>>(await backend.request(user, 'GET', '/chats'));
    expect(list.total_items).toBe(2);
  });

  test('list: most recently updated first, pagination fields, renaming moves a chat up', async () => {
    const user = newUser();
    const first = await buildChat(user, 'first');
    const second = await buildChat(user, 'second');
    const third = await buildChat(user, 'third');
    let page = await json<Page<Chat>>(await backend.request(user, 'GET', '/chats/'));
    expect(page.items.map((c) => c.id)).toEqual([third.id, second.id, first.id]);
    expect(page).toMatchObject({ total_items: 3, limit: 20, offset: 0 });

    const renamed = await json<Chat>(await backend.request(user, 'PUT', `/chats/${first.id}/title`, { new_title: 'first, renamed' }));
    expect(renamed.title).toBe('first, renamed');
    expect(Date.parse(renamed.updated_at)).toBeGreaterThan(Date.parse(first.updated_at));
    expect(renamed.created_at).toBe(first.created_at);
    page = await json<Page<Chat>>(await backend.request(user, 'GET', '/chats/?limit=2&offset=0'));
    expect(page.items.map((c) => c.id)).toEqual([first.id, third.id]);
    expect(page).toMatchObject({ total_items: 3, limit: 2, offset: 0 });
    page = await json<Page<Chat>>(await backend.request(user, 'GET', '/chats/?limit=2&offset=2'));
    expect(page.items.map((c) => c.id)).toEqual([second.id]);
  });

  test('pagination edges answer 422 naming the field; offset past the end is an empty page', async () => {
    const user = newUser();
    const chat = await buildChat(user);
    for (const base of ['/chats/', `/chats/${chat.id}`]) {
      for (const [query, field] of [
        ['limit=0', 'limit'],
        ['limit=101', 'limit'],
        ['limit=abc', 'limit'],
        ['limit=1.5', 'limit'],
        ['offset=-1', 'offset'],
        ['offset=xyz', 'offset'],
      ] as const) {
        const res = await backend.request(user, 'GET', `${base}?${query}`);
        expect(res.status).toBe(422);
        const body = await json<{ detail: string }>(res);
        expect(body.detail.startsWith(`${field}:`)).toBe(true);
      }
      const edge = await json<Page<unknown>>(await backend.request(user, 'GET', `${base}?limit=100&offset=1000`));
      expect(edge).toMatchObject({ items: [], limit: 100, offset: 1000 });
      const one = await backend.request(user, 'GET', `${base}?limit=1`);
      expect(one.status).toBe(200);
    }
    const limitMessage = await json<{ detail: string }>(await backend.request(user, 'GET', '/chats/?limit=0'));
    expect(limitMessage.detail).toBe('limit: must be between 1 and 100');
  });

  test('pages count what they page: totals beside rows, past the end, with superseded pairs, never across users', async () => {
    const user = newUser();
    const other = newUser();
    const chats: Chat[] = [];
    for (let i = 0; i < 5; i++) chats.push(await buildChat(user, `chat ${i}`));
    await buildChat(other, 'not yours');
    const list = await json<Page<Chat>>(await backend.request(user, 'GET', '/chats/?limit=2&offset=1'));
    expect(list.items.map((c) => c.title)).toEqual(['chat 3', 'chat 2']);
    expect(list.total_items).toBe(5);
    expect(await json<Page<Chat>>(await backend.request(user, 'GET', '/chats/?offset=5'))).toEqual({ items: [], total_items: 5, limit: 20, offset: 5 });

    // Seven pairs written straight to the store, two of them superseded (retry/edit leftovers).
    const chat = chats[0]!;
    const t0 = Date.parse(chat.created_at);
    for (let i = 0; i < 7; i++) {
      await backend.db('qa_pairs').insert({
        chat_id: chat.id,
        question: `q${i}`,
        created_at: t0 + i,
        answer: `a${i}`,
        answer_status: 'complete',
        answer_sources: '[]',
        answer_created_at: t0 + i,
        superseded_at: i === 2 || i === 4 ? t0 + 100 : null,
      });
    }
    const page = await json<Page<QaPair>>(await backend.request(user, 'GET', `/chats/${chat.id}?limit=2&offset=1`));
    expect(page.items.map((p) => p.question.content)).toEqual(['q5', 'q3']);
    expect(page).toMatchObject({ total_items: 5, limit: 2, offset: 1 });
    expect(page.items[0]?.answer).toMatchObject({ content: 'a5', status: 'complete', sources: [] });
    expect(page.items[0]?.created_at).toBe(new Date(t0 + 5).toISOString());
    const past = await json<Page<QaPair>>(await backend.request(user, 'GET', `/chats/${chat.id}?offset=5`));
    expect(past).toEqual({ items: [], total_items: 5, limit: 20, offset: 5 });
    expect((await json<Page<QaPair>>(await backend.request(user, 'GET', `/chats/${chats[1]!.id}?offset=3`))).total_items).toBe(0);
    // A chat with pairs is still 404 for another user, on every page.
    for (const q of ['', '?offset=0', '?offset=1', '?offset=100']) {
      const res = await backend.request(other, 'GET', `/chats/${chat.id}${q}`);
      expect(res.status).toBe(404);
    }
  });

  test('titles: 200 characters accepted, 201 rejected, empty and wrong types rejected', async () => {
    const user = newUser();
    const t200 = 'x'.repeat(200);
    expect((await buildChat(user, t200)).title).toBe(t200);
    for (const body of [{ title: 'y'.repeat(201) }, { title: '' }, { title: 42 }, { title: null }]) {
      const res = await backend.request(user, 'POST', '/chats/', body);
      expect(res.status).toBe(422);
      expect((await json<{ detail: string }>(res)).detail).toMatch(/^title: /);
    }
    const chat = await buildChat(user, 'ok');
    for (const body of [{ new_title: 'z'.repeat(201) }, { new_title: '' }, {}, { new_title: ['a'] }]) {
      const res = await backend.request(user, 'PUT', `/chats/${chat.id}/title`, body);
      expect(res.status).toBe(422);
      expect((await json<{ detail: string }>(res)).detail).toMatch(/^new_title: /);
    }
    const res = await backend.request(user, 'PUT', `/chats/${chat.id}/title/`, { new_title: t200 });
    expect(res.status).toBe(200);
  });

  test('emoji and CJK titles round-trip (200 emoji fit: characters, not bytes)', async () => {
    const user = newUser();
    const titles = ['构建失败了 🚨 ビルド', '🔥'.repeat(200), 'Ünïcödé — “quotes” ‘and’ 𝔘𝔫𝔦', '👩‍💻 debugging 💥'];
    for (const title of titles) {
      const created = await buildChat(user, title);
      expect(created.title).toBe(title);
      const page = await json<Page<Chat>>(await backend.request(user, 'GET', '/chats/?limit=1'));
      expect(page.items[0]?.title).toBe(title);
    }
    const over = await backend.request(user, 'POST', '/chats/', { title: '🔥'.repeat(201) });
    expect(over.status).toBe(422);
  });

  test('show: a page of pairs (empty for a new chat); 404 for unknown ids', async () => {
    const user = newUser();
    const chat = await buildChat(user);
    const page = await json<Page<QaPair>>(await backend.request(user, 'GET', `/chats/${chat.id}`));
    expect(page).toEqual({ items: [], total_items: 0, limit: 20, offset: 0 });
    for (const id of ['999999999', 'abc', '0', '-1', '1.5', '99999999999999999999']) {
      const res = await backend.request(user, 'GET', `/chats/${id}`);
      expect(res.status).toBe(404);
      expect((await json<{ detail: string }>(res)).detail).toMatch(/not found/);
    }
  });

  test('delete: 200 with the message, then 404 everywhere', async () => {
    const user = newUser();
    const chat = await buildChat(user);
    const res = await backend.request(user, 'DELETE', `/chats/${chat.id}/`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: `Chat ${chat.id} deleted.` });
    expect((await backend.request(user, 'DELETE', `/chats/${chat.id}`)).status).toBe(404);
    expect((await backend.request(user, 'GET', `/chats/${chat.id}`)).status).toBe(404);
    expect((await backend.request(user, 'PUT', `/chats/${chat.id}/title`, { new_title: 'x' })).status).toBe(404);
  });

  test('isolation: a second user gets 404 on every endpoint for the first user\'s chat', async () => {
    const owner = newUser();
    const other = newUser();
    const chat = await buildChat(owner, 'private');
    expect((await backend.request(other, 'GET', `/chats/${chat.id}`)).status).toBe(404);
    expect((await backend.request(other, 'PUT', `/chats/${chat.id}/title`, { new_title: 'mine now' })).status).toBe(404);
    expect((await backend.request(other, 'DELETE', `/chats/${chat.id}`)).status).toBe(404);
    const list = await json<Page<Chat>>(await backend.request(other, 'GET', '/chats/'));
    expect(list.items.find((c) => c.id === chat.id)).toBeUndefined();
    const still = await json<Page<Chat>>(await backend.request(owner, 'GET', '/chats/'));
    expect(still.items.find((c) => c.id === chat.id)?.title).toBe('private');
  });

  test('forged and bad tokens get 401 with a detail', async () => {
    const user = newUser();
    const chat = await buildChat(user);
    const now = Math.floor(Date.now() / 1000);
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const claims = { sub: user, iss: JWT_ISSUER, aud: JWT_AUDIENCE, iat: now, exp: now + 300 };
    // Signed with jose itself, not through protocol/jwt.ts: any claims, any algorithm, any key.
    const secret = Buffer.from(backend.secret, 'utf8');
    const sign = (payload: JWTPayload, key: Parameters<SignJWT['sign']>[0] = secret, alg = 'HS256') =>
      new SignJWT({ iat: now, ...payload }).setProtectedHeader({ alg, typ: 'JWT' }).sign(key);
    const forged: Record<string, string | null> = {
      missing: null,
      garbage: 'Bearer not-a-token',
      'not bearer': `Basic ${Buffer.from('a:b').toString('base64')}`,
      'wrong key': `Bearer ${await signToken('another-secret-of-at-least-32-bytes!!', user)}`,
      'alg none': `Bearer ${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`,
      RS256: `Bearer ${await sign(claims, privateKey, 'RS256')}`,
      HS512: `Bearer ${await sign(claims, secret, 'HS512')}`,
      expired: `Bearer ${await sign({ ...claims, iat: now - 1000, exp: now - 60 })}`,
      'no sub': `Bearer ${await sign({ iss: JWT_ISSUER, aud: JWT_AUDIENCE, exp: now + 300 })}`,
      'empty sub': `Bearer ${await sign({ ...claims, sub: '' })}`,
      'long sub': `Bearer ${await sign({ ...claims, sub: 'u'.repeat(256) })}`,
      'wrong aud': `Bearer ${await sign({ ...claims, aud: 'someone-else' })}`,
      'wrong iss': `Bearer ${await sign({ ...claims, iss: 'evil' })}`,
      'no exp': `Bearer ${await sign({ sub: user, iss: JWT_ISSUER, aud: JWT_AUDIENCE })}`,
      'not yet valid': `Bearer ${await sign({ ...claims, nbf: now + 600 })}`,
    };
    for (const [name, header] of Object.entries(forged)) {
      const headers: Record<string, string> = header === null ? {} : { authorization: header };
      for (const [method, p] of [
        ['GET', '/chats/'],
        ['GET', `/chats/${chat.id}`],
        ['DELETE', `/chats/${chat.id}`],
      ] as const) {
        const res = await fetch(backend.url + p, { method, headers });
        if (res.status !== 401) throw new Error(`${name} on ${method} ${p}: ${res.status}`);
        expect(typeof (await json<{ detail: string }>(res)).detail).toBe('string');
      }
    }
    // Within the 30 s tolerance an expired token still works; the chat survived every attempt.
    const tolerated = await sign({ ...claims, exp: now - 10 });
    const res = await fetch(`${backend.url}/chats/${chat.id}`, { headers: { authorization: `Bearer ${tolerated}` } });
    expect(res.status).toBe(200);
  });

  test('malformed JSON is 400, a non-JSON body is 415, an oversize body is 413; nothing changes', async () => {
    const user = newUser();
    const chat = await buildChat(user, 'unchanged');
    const send = async (method: string, p: string, body: string, type = 'application/json') =>
      fetch(backend.url + p, {
        method,
        headers: { authorization: `Bearer ${await backend.token(user)}`, 'content-type': type },
        body,
      });
    let res = await send('POST', '/chats/', '{"title": ');
    expect(res.status).toBe(400);
    expect((await json<{ detail: string }>(res)).detail).toMatch(/JSON/);
    res = await send('PUT', `/chats/${chat.id}/title`, '{new_title: "x"}');
    expect(res.status).toBe(400);
    res = await send('POST', '/chats/', 'title=x', 'application/x-www-form-urlencoded');
    expect(res.status).toBe(415);
    res = await send('POST', '/chats/', JSON.stringify({ title: 'x'.repeat(1024 * 1024 + 10) }));
    expect(res.status).toBe(413);
    const page = await json<Page<Chat>>(await backend.request(user, 'GET', '/chats/'));
    expect(page.total_items).toBe(1);
    expect(page.items[0]?.title).toBe('unchanged');
    expect(page.items[0]?.updated_at).toBe(chat.updated_at);
  });

  test('a body that starts with a UTF-8 byte order mark is read as the JSON after it', async () => {
    const user = newUser();
    const json = Buffer.from(JSON.stringify({ title: 'with a BOM ✓' }), 'utf8');
    const res = await fetch(`${backend.url}/chats/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await backend.token(user)}`, 'content-type': 'application/json' },
      body: new Uint8Array(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), json])),
    });
    expect(res.status).toBe(201);
    expect(((await res.json()) as Chat).title).toBe('with a BOM ✓');
  });

  test('invalid UTF-8 bytes are a 400 and store nothing', async () => {
    const user = newUser();
    const res = await fetch(`${backend.url}/chats/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await backend.token(user)}`, 'content-type': 'application/json' },
      body: new Uint8Array([0x7b, 0x22, 0x74, 0x69, 0x74, 0x6c, 0x65, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]),
    });
    expect(res.status).toBe(400);
    expect((await json<{ detail: string }>(res)).detail).toMatch(/UTF-8/);
    expect((await json<Page<Chat>>(await backend.request(user, 'GET', '/chats/'))).total_items).toBe(0);
  });

  test('unknown routes are a 404 {detail}; wrong methods a 405 {detail}', async () => {
    const user = newUser();
    const res = await backend.request(user, 'GET', '/nope');
    expect(res.status).toBe(404);
    expect(typeof (await json<{ detail: string }>(res)).detail).toBe('string');
    const res2 = await backend.request(user, 'PATCH', '/chats/');
    expect(res2.status).toBe(405);
    expect(typeof (await json<{ detail: string }>(res2)).detail).toBe('string');
  });
});

describe.each(dialects.filter((d) => d.name === 'mysql'))('hot reads when the database goes away ($name)', (dialect) => {
  test('connections killed by the server are replaced: the next reads answer 200', async () => {
    // The kills make knex warn "Connection lost" once per killed connection: expected here, so
    // kept out of the test output (issue 27); any other warning is still printed.
    const warnings = expectLostConnections();
    const backend = await startTestBackend(dialect, { onDbWarning: warnings.sink });
    try {
      const user = `killed-${Math.random().toString(36).slice(2)}`;
      const created = await backend.request(user, 'POST', '/chats/', { title: 'survives' });
      const chat = (await created.json()) as Chat;
      // Several reads at once, so the pool holds several connections to kill.
      const warm = await Promise.all(Array.from({ length: 8 }, (_, i) => backend.request(user, 'GET', i % 2 ? '/chats/' : `/chats/${chat.id}`)));
      expect(warm.map((r) => r.status)).toEqual(Array(8).fill(200));
      // Kill every server-side connection of this backend's database (what a MariaDB restart or
      // wait_timeout does to a pool), then read again.
      const [rows] = (await backend.db.raw('SELECT ID AS id FROM information_schema.PROCESSLIST WHERE DB = DATABASE()')) as [{ id: number }[]];
      const admin = knex({ client: 'mysql2', connection: { host: '127.0.0.1', user: 'root', password: '' } });
      try {
        for (const { id } of rows) await admin.raw('KILL ?', [id]).catch(() => undefined);
      } finally {
        await admin.destroy();
      }
      await new Promise((r) => setTimeout(r, 100));
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        for (const p of ['/chats/', `/chats/${chat.id}`]) {
          const res = await backend.request(user, 'GET', p);
          statuses.push(res.status);
          if (res.status === 200) {
            const page = (await res.json()) as Page<Chat | QaPair>;
            expect(page.total_items).toBe(p === '/chats/' ? 1 : 0);
          } else {
            expect(res.status).toBe(503); // a read that raced the kill: a clear 503, never a 500
          }
        }
      }
      expect(rows.length).toBeGreaterThan(1);
      expect(statuses.slice(-4)).toEqual([200, 200, 200, 200]);
    } finally {
      await backend.close();
    }
  });

  test('a database that does not answer is a 503 {detail} on both reads, not a 500 or a hang', async () => {
    // The backend's own knex config (backend/db.ts), so knex's logging goes where the backend's
    // does: its "Acquire connection error" is left out there (the 503 says it), and any other
    // warning fails this test instead of printing on the side.
    const warnings: string[] = [];
    const db = knex({
      ...knexConfig('mysql://root@127.0.0.1:1/nowhere', (message) => warnings.push(message)),
      pool: { min: 0, max: 2 },
      acquireConnectionTimeout: 2000,
    });
    const secret = 'x'.repeat(40);
    const lifecycle = new Lifecycle();
    const app = createApp({
      db,
      log: pino({ level: 'silent' }),
      jwtSecret: secret,
      dataDir: os.tmpdir(),
      lifecycle,
      engine: createLocalEngine({ typingDelayMs: 0 }),
      context: createContextService({ dataDir: os.tmpdir(), embedder: new LocalEmbedder(), db, lifecycle }),
      pingIntervalMs: PING_INTERVAL_MS,
      streamLeaseMs: STREAM_LEASE_MS,
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      for (const p of ['/chats/', '/chats/7']) {
        const res = await fetch(url + p, { headers: { authorization: `Bearer ${await signToken(secret, 'someone')}` } });
        expect(res.status).toBe(503);
        expect(((await res.json()) as { detail: string }).detail).toMatch(/database is unavailable/);
      }
      expect(warnings).toEqual([]);
    } finally {
      server.close();
      await db.destroy();
    }
  });
});
