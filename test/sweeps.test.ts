/**
 * Leftovers of dead processes and races, on both dialects: half-written uploads (`building`
 * contexts and their chunks) swept at start and periodically, pairs left `streaming` under a
 * dead lease marked `interrupted`, a restarted replica's leases freed, and a chat deleted while
 * it streams (on this replica or another) ending the stream with `error` "The chat was deleted."
 */
import { Lifecycle } from '../backend/lifecycle.js';
import { sweep } from '../backend/maintenance.js';
import { createBuildingContext, insertChunks, OWN_BUILDING_GRACE_MS } from '../backend/store/contexts.js';
import { beginAnswer } from '../backend/store/pairs.js';
import type { Db } from '../backend/db.js';
import { readEvents } from '../protocol/sse.js';
import type { StreamEvent } from '../protocol/types.js';
import { testDialects, type TestDatabase } from './helpers/databases.js';
import { startTestBackend, type TestBackend } from './helpers/backend.js';
import { scriptedEngine } from './helpers/engines.js';
import { until } from './helpers/poll.js';

const dialects = await testDialects();
const EMBEDDER = { id: 'test-4', dim: 4 };

async function newChat(b: TestBackend, user: string): Promise<number> {
  return ((await (await b.request(user, 'POST', '/chats/', { title: 'sweep' })).json()) as { id: number }).id;
}

async function building(db: Db, chatId: number, owner: string | null, chunks: number, ageMs = 0): Promise<number> {
  const id = await createBuildingContext(db, chatId, EMBEDDER, owner);
  await insertChunks(
    db,
    id,
    Array.from({ length: chunks }, (_, seq) => ({ seq, start_line: seq + 1, end_line: seq + 1, text: `line ${seq}`, embedding: new Float32Array(4) })),
  );
  if (ageMs > 0) await db('contexts').where({ id }).update({ created_at: Date.now() - ageMs });
  return id;
}

const contextIds = async (db: Db, chatId: number) =>
  ((await db('contexts').where({ chat_id: chatId }).orderBy('id').select('id')) as { id: number }[]).map((r) => Number(r.id));
const chunkCount = async (db: Db, contextId: number) =>
  Number(((await db('context_chunks').where({ context_id: contextId }).count({ n: '*' }).first()) as { n: number | string }).n);

describe.each(dialects)('sweeps and races on $name', (dialect) => {
  let a: TestBackend;
  let database: TestDatabase;
  const slow = scriptedEngine({ pieces: () => Array.from({ length: 2000 }, (_, i) => `w${i} `), delayMs: 10 });

  beforeAll(async () => {
    database = await dialect.create();
    a = await startTestBackend(dialect, { database, deps: { engine: slow } });
  });
  afterAll(async () => {
    await a?.close();
    await database?.drop();
  });

  test('at start: the replica\'s own half-written uploads go with their chunks; others\' young ones stay, old ones go', async () => {
    const chat = await newChat(a, 'sweeper');
    const ready = await building(a.db, chat, null, 3);
    await a.db('contexts').where({ id: ready }).update({ state: 'ready', uploaded_at: Date.now() });
    const mine = await building(a.db, chat, 'replica-1', 3000);
    const theirsYoung = await building(a.db, chat, 'replica-2', 10);
    const theirsOld = await building(a.db, chat, 'replica-2', 10, 2 * 60 * 60 * 1000);
    const swept = await sweep(a.db, new Lifecycle('replica-1'), { atStart: true });
    expect(swept.uploads).toBe(2);
    expect(await contextIds(a.db, chat)).toEqual([ready, theirsYoung]);
    expect(await chunkCount(a.db, mine)).toBe(0);
    expect(await chunkCount(a.db, theirsOld)).toBe(0);
    expect(await chunkCount(a.db, ready)).toBe(3);
    expect(await chunkCount(a.db, theirsYoung)).toBe(10);
  });

  test('periodically: the replica\'s own uploads that are not running and older than a minute go', async () => {
    const chat = await newChat(a, 'sweeper2');
    const lifecycle = new Lifecycle('replica-3');
    const live = await building(a.db, chat, 'replica-3', 5, 2 * OWN_BUILDING_GRACE_MS);
    lifecycle.uploadStarted(live);
    const dead = await building(a.db, chat, 'replica-3', 5, 2 * OWN_BUILDING_GRACE_MS);
    const young = await building(a.db, chat, 'replica-3', 5);
    const swept = await sweep(a.db, lifecycle, { atStart: false });
    expect(swept.uploads).toBe(1);
    expect(await contextIds(a.db, chat)).toEqual([live, young]);
    expect(await chunkCount(a.db, dead)).toBe(0);
    lifecycle.uploadEnded(live);
    await sweep(a.db, lifecycle, { atStart: false });
    expect(await contextIds(a.db, chat)).toEqual([young]);
  });

  test('pairs left streaming under a dead lease become interrupted with their text; a live lease keeps its pair; a restarted replica frees its own', async () => {
    const [dead, live, own] = [await newChat(a, 's3'), await newChat(a, 's3'), await newChat(a, 's3')];
    const started = async (chatId: number, leaseMs: number, owner: string) => {
      const begun = await beginAnswer(a.db, { userId: 's3', chatId, question: 'q', leaseMs, owner });
      expect(begun.kind).toBe('started');
      return begun.kind === 'started' ? begun.pairId : -1;
    };
    const pDead = await started(dead, 1, 'gone');
    const pLive = await started(live, 60_000, 'alive');
    const pOwn = await started(own, 60_000, 'me');
    await a.db('qa_pairs').whereIn('id', [pDead, pLive, pOwn]).update({ answer: 'saved so far' });
    await new Promise((r) => setTimeout(r, 20));
    const swept = await sweep(a.db, new Lifecycle('me'), { atStart: true });
    expect(swept.pairs).toBe(2);
    const status = async (id: number) => (await a.db('qa_pairs').where({ id }).first('answer', 'answer_status')) as object;
    expect(await status(pDead)).toEqual({ answer: 'saved so far', answer_status: 'interrupted' });
    expect(await status(pOwn)).toEqual({ answer: 'saved so far', answer_status: 'interrupted' });
    expect(await status(pLive)).toEqual({ answer: 'saved so far', answer_status: 'streaming' });
    expect(await a.db('chats').where({ id: own }).first('streaming_until', 'stream_owner')).toEqual({ streaming_until: null, stream_owner: null });
    // Not released by someone else's start.
    expect((await a.db('chats').where({ id: live }).first('stream_owner')) as object).toEqual({ stream_owner: 'alive' });
  });

  async function streamUntilText(backend: TestBackend, user: string, chatId: number) {
    const res = await backend.request(user, 'POST', '/messages/send', { chat_id: chatId, content: 'go' });
    expect(res.status).toBe(200);
    const events: StreamEvent[] = [];
    const ended = (async () => {
      for await (const e of readEvents(res.body as unknown as AsyncIterable<Uint8Array>)) events.push(e);
    })();
    await until('some chunks', () => (events.filter((e) => e.event === 'chunk').length > 20 ? true : undefined));
    return { events, ended };
  }

  test('deleting a chat while it streams ends the stream with error "The chat was deleted."', async () => {
    const chat = await newChat(a, 'deleter');
    const { events, ended } = await streamUntilText(a, 'deleter', chat);
    expect((await a.request('deleter', 'DELETE', `/chats/${chat}`)).status).toBe(200);
    await ended;
    expect(events.at(-1)).toEqual({ event: 'error', detail: 'The chat was deleted.' });
    expect(events.some((e) => e.event === 'done')).toBe(false);
    expect(await a.db('qa_pairs').where({ chat_id: chat }).first('id')).toBeUndefined();
  });

  test('deleted through another replica: the stream ends with the same error within about a second', async () => {
    const other = await startTestBackend(dialect, { database });
    try {
      const chat = await newChat(a, 'deleter2');
      const { events, ended } = await streamUntilText(a, 'deleter2', chat);
      const t0 = Date.now();
      expect((await other.request('deleter2', 'DELETE', `/chats/${chat}`)).status).toBe(200);
      await ended;
      expect(Date.now() - t0).toBeLessThan(3000);
      expect(events.at(-1)).toEqual({ event: 'error', detail: 'The chat was deleted.' });
    } finally {
      await other.close();
    }
  });
});
