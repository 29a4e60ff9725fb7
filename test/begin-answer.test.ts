/**
 * beginAnswer (backend/store/pairs.ts), on both dialects: the chat's stream lease and the new pair
 * in one transaction of prepared statements (raw.ts writeTransaction), where two knex transactions
 * did it before: another user's chat changes nothing, a live lease is `busy` with its end,
 * a dead one is taken and its `streaming` pairs become `interrupted`, retry and edit supersede; a
 * write transaction that throws leaves nothing behind.
 */
import type { Db } from '../backend/db.js';
import { migrateLatest, openDb } from '../backend/db.js';
import { createChat } from '../backend/store/chats.js';
import { beginAnswer } from '../backend/store/pairs.js';
import { writeTransaction } from '../backend/store/raw.js';
import { testDialects, type TestDatabase } from './helpers/databases.js';
import { completedPair, pairRows } from './helpers/pairRows.js';

const dialects = await testDialects();

describe.each(dialects)('beginAnswer on $name', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  beforeAll(async () => {
    database = await dialect.create();
    db = openDb(database.url);
    await migrateLatest(db);
  });
  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  const pairs = (chatId: number) => pairRows(db, chatId);
  const chatRow = async (chatId: number) =>
    (await db('chats').where({ id: chatId }).first('streaming_until', 'stream_owner', 'updated_at')) as {
      streaming_until: number | string | null;
      stream_owner: string | null;
      updated_at: number | string;
    };

  test('takes the lease, inserts the pair streaming and moves updated_at; a second start is busy until the lease ends', async () => {
    const chat = await createChat(db, 'ba-1', 't');
    const before = Date.now();
    const begun = await beginAnswer(db, { userId: 'ba-1', chatId: chat.id, question: 'why?', leaseMs: 60_000, owner: 'r1' });
    expect(begun.kind).toBe('started');
    const pairId = begun.kind === 'started' ? begun.pairId : -1;
    expect(await pairs(chat.id)).toEqual([{ id: pairId, question: 'why?', answer_status: 'streaming', superseded_at: null }]);
    const row = await chatRow(chat.id);
    expect(row.stream_owner).toBe('r1');
    expect(Number(row.streaming_until)).toBeGreaterThanOrEqual(before + 60_000);
    expect(Number(row.updated_at)).toBeGreaterThanOrEqual(before);
    const again = await beginAnswer(db, { userId: 'ba-1', chatId: chat.id, question: 'and?', leaseMs: 60_000, owner: 'r2' });
    expect(again).toEqual({ kind: 'busy', until: Number(row.streaming_until) });
    expect((await pairs(chat.id)).length).toBe(1);
    expect((await chatRow(chat.id)).stream_owner).toBe('r1');
  });

  test("another user's chat or none: missing, nothing changed", async () => {
    const chat = await createChat(db, 'ba-2', 't');
    const row = await chatRow(chat.id);
    expect(await beginAnswer(db, { userId: 'someone-else', chatId: chat.id, question: 'q', leaseMs: 60_000, owner: 'r1' })).toEqual({ kind: 'missing' });
    expect(await beginAnswer(db, { userId: 'ba-2', chatId: chat.id + 100_000, question: 'q', leaseMs: 60_000, owner: 'r1' })).toEqual({ kind: 'missing' });
    expect(await chatRow(chat.id)).toEqual(row);
    expect(await pairs(chat.id)).toEqual([]);
  });

  test("an expired lease is taken: its holder's streaming pairs become interrupted; supersedeFrom hides that pair and the later ones", async () => {
    const chat = await createChat(db, 'ba-3', 't');
    const first = await completedPair(db, 'ba-3', chat.id, 'one');
    const dead = await beginAnswer(db, { userId: 'ba-3', chatId: chat.id, question: 'two', leaseMs: 1, owner: 'gone' });
    expect(dead.kind).toBe('started');
    await new Promise((r) => setTimeout(r, 20));
    const retry = await beginAnswer(db, { userId: 'ba-3', chatId: chat.id, question: 'one', supersedeFrom: first, leaseMs: 60_000, owner: 'r1' });
    expect(retry.kind).toBe('started');
    const rows = await pairs(chat.id);
    expect(rows.map((r) => [r.question, r.answer_status, r.superseded_at !== null])).toEqual([
      ['one', 'complete', true],
      ['two', 'interrupted', true],
      ['one', 'streaming', false],
    ]);
    expect((await chatRow(chat.id)).stream_owner).toBe('r1');
  });

  test('a write transaction whose body throws is rolled back, and the connection serves the next one', async () => {
    const chat = await createChat(db, 'ba-4', 't');
    await expect(
      writeTransaction(db, async (tx) => {
        await tx.run('UPDATE chats SET title = ? WHERE id = ?', ['changed', chat.id]);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(((await db('chats').where({ id: chat.id }).first('title')) as { title: string }).title).toBe('t');
    const n = await writeTransaction(db, async (tx) => (await tx.run('UPDATE chats SET title = ? WHERE id = ?', ['kept', chat.id])).changes);
    expect(n).toBe(1);
    expect(((await db('chats').where({ id: chat.id }).first('title')) as { title: string }).title).toBe('kept');
  });
});
