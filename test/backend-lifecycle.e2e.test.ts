/**
 * The backend as a process, stopped while it streams: SIGTERM (graceful: the stream ends with
 * `error`, the pair is `interrupted` with every character the client got, the chat is free at
 * once, exit 0 within 10 s) and SIGKILL (the chat is free once the lease expires; a restarted
 * replica frees its leases at once; the pair keeps the text saved so far). Both dialects.
 * The lease is STREAM_LEASE_MS=4000 here (the default 15 s is backend/config.test.ts's): the
 * expiry path is the same, the test does not wait 15 s for it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knexFactory from 'knex';
import { knexConfig, migrateLatest } from '../backend/db.js';
import { readEvents } from '../protocol/sse.js';
import type { StreamEvent } from '../protocol/types.js';
import { testDialects, type TestDatabase } from './helpers/databases.js';
import { signToken } from './helpers/backend.js';
import { startFakeOpenAIServer, type FakeOpenAIServer } from './fakes/openaiServer.js';
import type { Service } from '../cli/services.js';
import { PROCESS_SECRET, spawnBackend as spawnBackendProcess, type BackendProcess } from './helpers/backendProcess.js';
import { until } from './helpers/poll.js';

const dialects = await testDialects();
type Backend = BackendProcess;

/** The backend as a process (test/helpers/backendProcess.ts) answering through the fake model server. */
const spawnBackend = (databaseUrl: string, dataDir: string, llm: FakeOpenAIServer): Promise<Backend> =>
  spawnBackendProcess(databaseUrl, dataDir, {
    LLM_PROVIDER: 'openai',
    OPENAI_BASE_URL: llm.baseURL,
    OPENAI_API_KEY: 'test',
    STREAM_LEASE_MS: String(LEASE_MS),
  });

/** The stream lease of these backends. */
const LEASE_MS = 4000;

const auth = async (user: string) => ({ authorization: `Bearer ${await signToken(PROCESS_SECRET, user)}`, 'content-type': 'application/json' });

/** An open answer stream, read as it arrives. */
class OpenStream {
  events: StreamEvent[] = [];
  text = '';
  ended: Promise<void>;
  constructor(readonly res: Response) {
    this.ended = (async () => {
      for await (const e of readEvents(res.body as unknown as AsyncIterable<Uint8Array>)) {
        this.events.push(e);
        if (e.event === 'chunk') this.text += e.content;
      }
    })().catch(() => undefined);
  }
  get pairId(): number {
    const started = this.events.find((e) => e.event === 'started') as { qa_pair_id: number } | undefined;
    if (!started) throw new Error('no started event');
    return started.qa_pair_id;
  }
}

async function send(b: Backend, user: string, chatId: number, content: string): Promise<Response> {
  return fetch(`${b.url}/messages/send`, { method: 'POST', headers: await auth(user), body: JSON.stringify({ chat_id: chatId, content }) });
}

/** A slow model: 1200 pieces of 8 characters 5 ms apart (6 s), then it never ends. */
const SLOW = { kind: 'stream' as const, chunks: Array.from({ length: 1200 }, (_, i) => `w${String(i).padStart(5, '0')} `), delayMs: 5, holdOpen: true };
/** Streamed before the backend is stopped: past the first 1 s / 2000-character save. */
const STREAMED = 2500;

describe.each(dialects)('backend stopped mid-answer on $name', (dialect) => {
  let database: TestDatabase;
  let llm: FakeOpenAIServer;
  let db: ReturnType<typeof knexFactory>;
  const dirs: string[] = [];
  const running: Service[] = [];
  const newDir = () => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-life-'));
    dirs.push(d);
    return d;
  };
  const start = async (dataDir: string) => {
    const b = await spawnBackend(database.url, dataDir, llm);
    running.push(b.service);
    return b;
  };
  /** The other replica the first two tests send to once theirs is stopped: one for both (it only serves their next questions). */
  let witness: Promise<Backend> | undefined;
  const otherReplica = (): Promise<Backend> => (witness ??= start(newDir()));
  const pairRow = async (id: number) =>
    (await db('qa_pairs').where({ id }).first('answer', 'answer_status')) as { answer: string; answer_status: string };

  beforeAll(async () => {
    database = await dialect.create();
    llm = await startFakeOpenAIServer([SLOW]);
    db = knexFactory({ ...knexConfig(database.url), pool: { min: 0, max: 1 } });
    // Migrated once here: two replicas starting together on a fresh MySQL race for knex's lock.
    await migrateLatest(db);
  });
  afterAll(async () => {
    await Promise.all(running.map((s) => s.stop(2000)));
    await db?.destroy();
    await llm?.close();
    await database?.drop();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  async function chatWithStream(b: Backend, user: string): Promise<{ chatId: number; stream: OpenStream }> {
    const chat = (await (await fetch(`${b.url}/chats/`, { method: 'POST', headers: await auth(user), body: '{}' })).json()) as { id: number };
    const res = await send(b, user, chat.id, 'why did it fail?');
    expect(res.status).toBe(200);
    const stream = new OpenStream(res);
    await until(`${STREAMED} characters streamed`, () => (stream.text.length >= STREAMED ? true : undefined), { timeoutMs: 30_000 });
    return { chatId: chat.id, stream };
  }

  test('SIGTERM: the stream ends with error, the pair is interrupted with all text sent, the chat is free at once, exit 0 within 10 s', async () => {
    const [a, b] = await Promise.all([start(newDir()), otherReplica()]);
    const user = `term-${dialect.name}`;
    const { chatId, stream } = await chatWithStream(a, user);
    const t0 = Date.now();
    a.service.child.kill('SIGTERM');
    await stream.ended;
    const exit = await a.service.exited;
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(exit).toEqual({ code: 0, signal: null });
    const last = stream.events.at(-1);
    expect(last).toEqual({ event: 'error', detail: expect.stringMatching(/shutting down/) });
    const pair = await pairRow(stream.pairId);
    expect(pair.answer_status).toBe('interrupted');
    expect(pair.answer).toBe(stream.text);
    expect(pair.answer.length).toBeGreaterThanOrEqual(STREAMED);
    const lease = await db('chats').where({ id: chatId }).first('streaming_until', 'stream_owner');
    expect(lease).toEqual({ streaming_until: null, stream_owner: null });
    // Another replica takes the next question in that chat at once.
    const next = await send(b, user, chatId, 'and now?');
    expect(next.status).toBe(200);
    await next.body?.cancel();
  });

  test('SIGKILL: 409 says when the chat is free; it is free once the lease expires; the pair keeps the text saved so far', async () => {
    const [a, b] = await Promise.all([start(newDir()), otherReplica()]);
    const user = `kill-${dialect.name}`;
    const { chatId, stream } = await chatWithStream(a, user);
    const received = stream.text;
    a.service.child.kill('SIGKILL');
    const killedAt = Date.now();
    await a.service.exited;
    const refused = await send(b, user, chatId, 'again?');
    expect(refused.status).toBe(409);
    const { detail } = (await refused.json()) as { detail: string };
    expect(detail).toMatch(/already has an answer streaming.*free again at \d{4}-\d\d-\d\dT[\d:.]+Z \(in \d+ s\)/);
    const secs = Number(/\(in (\d+) s\)/.exec(detail)![1]);
    expect(secs).toBeLessThanOrEqual(LEASE_MS / 1000);
    const accepted = await until(
      'the chat to accept a question',
      async () => {
        const res = await send(b, user, chatId, 'again?');
        if (res.status === 409) {
          await res.body?.cancel();
          return undefined;
        }
        return res;
      },
      { timeoutMs: LEASE_MS + 10_000, intervalMs: 100 },
    );
    // Freed by the lease running out (it was refused just after the kill), soon after it was due.
    expect(Date.now() - killedAt).toBeLessThanOrEqual(LEASE_MS + 2000);
    expect(accepted.status).toBe(200);
    await accepted.body?.cancel();
    const pair = await pairRow(stream.pairId);
    expect(pair.answer_status).toBe('interrupted');
    // Saved every second or 2000 characters: at most 2000 characters are lost.
    expect(received.startsWith(pair.answer)).toBe(true);
    expect(pair.answer.length).toBeGreaterThanOrEqual(received.length - 2000);
    expect(pair.answer.length).toBeGreaterThan(0);
  });

  test('SIGKILL, then restart with the same DATA_DIR: the replica frees its lease and marks its pair at start', async () => {
    const dataDir = newDir();
    const a = await start(dataDir);
    const user = `restart-${dialect.name}`;
    const { chatId, stream } = await chatWithStream(a, user);
    a.service.child.kill('SIGKILL');
    await a.service.exited;
    const held = (await db('chats').where({ id: chatId }).first('streaming_until', 'stream_owner')) as {
      streaming_until: number | string | null;
      stream_owner: string | null;
    };
    // The stream's own owner, under its replica's id (store/pairs.ts streamLeaseOwner).
    expect(held.stream_owner?.startsWith(`${fs.readFileSync(path.join(dataDir, 'replica-id'), 'utf8').trim()}:`)).toBe(true);
    const again = await start(dataDir);
    // Freed by the restarted replica itself (an expired lease would keep its owner).
    expect(await db('chats').where({ id: chatId }).first('streaming_until', 'stream_owner')).toEqual({
      streaming_until: null,
      stream_owner: null,
    });
    const pair = await pairRow(stream.pairId);
    expect(pair.answer_status).toBe('interrupted');
    expect(stream.text.startsWith(pair.answer)).toBe(true);
    expect(pair.answer.length).toBeGreaterThan(0);
    const next = await send(again, user, chatId, 'and now?');
    expect(next.status).toBe(200);
    await next.body?.cancel();
  });
});
