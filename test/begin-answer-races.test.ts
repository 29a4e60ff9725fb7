/**
 * beginAnswer under races (adversarial review, session 44), on both dialects: many asks on one
 * chat at once from two replicas (exactly one pair and one lease holder, the rest `busy` with the
 * lease's end), two retries of one pair at once, a failure inside the transaction after the lease
 * was written (nothing left behind: no pair, no lease, nothing superseded), a deleted chat, and a
 * stream of one replica finishing after its lease expired and another stream of that replica took it.
 */
import type { Db } from '../backend/db.js';
import { isMysql, migrateLatest, openDb } from '../backend/db.js';
import { createChat, deleteChat } from '../backend/store/chats.js';
import { beginAnswer, finishAnswerAndRelease, releaseLeasesOf, renewStreamLease, streamLeaseOwner, type BeginResult } from '../backend/store/pairs.js';
import { testDialects, type TestDatabase } from './helpers/databases.js';
import { completedPair, pairRows } from './helpers/pairRows.js';

const dialects = await testDialects();

describe.each(dialects)('beginAnswer races on $name', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  let other: Db;
  beforeAll(async () => {
    database = await dialect.create();
    db = openDb(database.url);
    await migrateLatest(db);
    // A second replica is a second process; on SQLite, two handles of one file in ONE process
    // would make the synchronous driver busy-wait (busy_timeout) for a lock that only this blocked
    // thread could release, so the SQLite half races on the process's one handle (pool of one).
    other = isMysql(db) ? openDb(database.url) : db;
  });
  afterAll(async () => {
    if (other !== db) await other?.destroy();
    await db?.destroy();
    await database?.drop();
  });

  const pairs = (chatId: number) => pairRows(db, chatId);
  const lease = async (chatId: number) =>
    (await db('chats').where({ id: chatId }).first('streaming_until', 'stream_owner')) as { streaming_until: number | string | null; stream_owner: string | null };

  test('twenty asks at once (two replicas on MySQL): one started, nineteen busy until the winner lease ends, one pair', async () => {
    const chat = await createChat(db, 'race-1', 't');
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        beginAnswer(i % 2 === 0 ? db : other, { userId: 'race-1', chatId: chat.id, question: `q${i}`, leaseMs: 60_000, owner: i % 2 === 0 ? 'ra' : 'rb' }),
      ),
    );
    const started = results.filter((r) => r.kind === 'started');
    const busy = results.filter((r): r is Extract<BeginResult, { kind: 'busy' }> => r.kind === 'busy');
    expect(started.length).toBe(1);
    expect(busy.length).toBe(19);
    const row = await lease(chat.id);
    for (const b of busy) expect(b.until).toBe(Number(row.streaming_until));
    const rows = await pairs(chat.id);
    expect(rows.length).toBe(1);
    expect(rows[0]?.answer_status).toBe('streaming');
  });

  test('two retries of one pair at once: one started, one busy; once the first is over, the history holds one copy of the question', async () => {
    const chat = await createChat(db, 'race-2', 't');
    const first = await completedPair(db, 'race-2', chat.id, 'one');
    const job = { userId: 'race-2', chatId: chat.id, question: 'one', supersedeFrom: first, leaseMs: 60_000 };
    const [a, b] = await Promise.all([beginAnswer(db, { ...job, owner: 'ra' }), beginAnswer(other, { ...job, owner: 'rb' })]);
    expect([a.kind, b.kind].sort()).toEqual(['busy', 'started']);
    const winner = (a.kind === 'started' ? a : b) as Extract<BeginResult, { kind: 'started' }>;
    const visible = (await pairs(chat.id)).filter((r) => r.superseded_at === null);
    expect(visible.map((r) => [r.id, r.answer_status])).toEqual([[winner.pairId, 'streaming']]);
    await finishAnswerAndRelease(db, winner.pairId, 'done', 'complete', [], { chatId: chat.id, owner: a.kind === 'started' ? 'ra' : 'rb' });
    expect((await lease(chat.id)).stream_owner).toBeNull();
  });

  test('a failure inside the transaction after the lease was written leaves no lease, no pair and nothing superseded', async () => {
    const chat = await createChat(db, 'race-3', 't');
    const first = await completedPair(db, 'race-3', chat.id, 'one');
    // The INSERT of the new pair fails (a trigger refuses the question 'boom'): the lease and the
    // supersede written before it in the same transaction must go with it.
    if (isMysql(db)) {
      await db.raw(
        "CREATE TRIGGER refuse_boom BEFORE INSERT ON qa_pairs FOR EACH ROW BEGIN IF NEW.question = 'boom' THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'boom refused'; END IF; END",
      );
    } else {
      await db.raw("CREATE TRIGGER refuse_boom BEFORE INSERT ON qa_pairs WHEN NEW.question = 'boom' BEGIN SELECT RAISE(ABORT, 'boom refused'); END");
    }
    try {
      // Read as text: better-sqlite3's error is made in another realm than the test's (Jest's VM modules), which
      // `rejects.toThrow` does not always take for an Error.
      const failed = await beginAnswer(db, { userId: 'race-3', chatId: chat.id, question: 'boom', supersedeFrom: first, leaseMs: 60_000, owner: 'ra' }).then(
        (r) => `resolved ${JSON.stringify(r)}`,
        (e: unknown) => String(e),
      );
      expect(failed).toMatch(/boom refused/);
    } finally {
      await db.raw('DROP TRIGGER refuse_boom');
    }
    expect(await lease(chat.id)).toEqual({ streaming_until: null, stream_owner: null });
    expect((await pairs(chat.id)).map((r) => [r.question, r.answer_status, r.superseded_at])).toEqual([['one', 'complete', null]]);
    // The chat is free at once (no stuck lease): the next ask starts.
    const next = await beginAnswer(other, { userId: 'race-3', chatId: chat.id, question: 'again', leaseMs: 60_000, owner: 'rb' });
    expect(next.kind).toBe('started');
  });

  test('a deleted chat is missing, also for a retry of one of its pairs; a dead holder of a live-looking lease is only taken once it expired', async () => {
    const chat = await createChat(db, 'race-4', 't');
    const first = await completedPair(db, 'race-4', chat.id, 'one');
    await deleteChat(db, 'race-4', chat.id);
    expect(await beginAnswer(db, { userId: 'race-4', chatId: chat.id, question: 'q', leaseMs: 60_000, owner: 'ra' })).toEqual({ kind: 'missing' });
    expect(await beginAnswer(db, { userId: 'race-4', chatId: chat.id, question: 'q', supersedeFrom: first, leaseMs: 60_000, owner: 'ra' })).toEqual({
      kind: 'missing',
    });
    const live = await createChat(db, 'race-4', 'u');
    const held = await beginAnswer(db, { userId: 'race-4', chatId: live.id, question: 'q', leaseMs: 300, owner: 'dead' });
    expect(held.kind).toBe('started');
    expect((await beginAnswer(other, { userId: 'race-4', chatId: live.id, question: 'q2', leaseMs: 60_000, owner: 'rb' })).kind).toBe('busy');
    await new Promise((r) => setTimeout(r, 400));
    expect((await beginAnswer(other, { userId: 'race-4', chatId: live.id, question: 'q2', leaseMs: 60_000, owner: 'rb' })).kind).toBe('started');
    expect((await pairs(live.id)).map((r) => [r.question, r.answer_status])).toEqual([
      ['q', 'interrupted'],
      ['q2', 'streaming'],
    ]);
  });

  test("a stream whose lease expired while it ran finishes late: the newer stream of the same replica keeps its lease, a third ask is busy", async () => {
    const chat = await createChat(db, 'race-6', 't');
    const job = { userId: 'race-6', chatId: chat.id, leaseMs: 60_000 };
    // Two streams of one replica (as the route names them; its id as long as config allows): the
    // first's lease runs out (a stalled event loop).
    const replica = 'r'.repeat(64);
    const [late, fresh] = [streamLeaseOwner(replica), streamLeaseOwner(replica)];
    expect(late).not.toBe(fresh);
    const first = await beginAnswer(db, { ...job, question: 'one', leaseMs: 1, owner: late });
    expect(first.kind).toBe('started');
    await new Promise((r) => setTimeout(r, 20));
    const second = await beginAnswer(db, { ...job, question: 'two', owner: fresh });
    expect(second.kind).toBe('started');
    // The late stream can neither renew nor free the lease it lost.
    expect(await renewStreamLease(db, chat.id, 60_000, late)).toBe(false);
    await finishAnswerAndRelease(db, (first as Extract<BeginResult, { kind: 'started' }>).pairId, 'late', 'complete', [], { chatId: chat.id, owner: late });
    expect((await lease(chat.id)).stream_owner).toBe(fresh);
    expect((await beginAnswer(other, { ...job, question: 'three', owner: streamLeaseOwner(replica) })).kind).toBe('busy');
    expect((await pairs(chat.id)).map((r) => [r.question, r.answer_status])).toEqual([
      ['one', 'complete'],
      ['two', 'streaming'],
    ]);
    // Its own finish frees it.
    await finishAnswerAndRelease(db, (second as Extract<BeginResult, { kind: 'started' }>).pairId, 'done', 'complete', [], { chatId: chat.id, owner: fresh });
    expect(await lease(chat.id)).toEqual({ streaming_until: null, stream_owner: null });
  });

  test("a restarted replica frees the leases of all its streams (and of its id alone, as before), not those of a replica whose id it begins", async () => {
    const mine = [await createChat(db, 'race-7', 'a'), await createChat(db, 'race-7', 'b'), await createChat(db, 'race-7', 'c')];
    const theirs = [await createChat(db, 'race-7', 'd'), await createChat(db, 'race-7', 'e')];
    const owners = [streamLeaseOwner('r_1'), streamLeaseOwner('r_1'), 'r_1', streamLeaseOwner('r_1x'), streamLeaseOwner('rx1')];
    const all = [...mine, ...theirs];
    for (const [i, chat] of all.entries()) {
      expect((await beginAnswer(db, { userId: 'race-7', chatId: chat.id, question: 'q', leaseMs: 60_000, owner: owners[i] as string })).kind).toBe('started');
    }
    expect(await releaseLeasesOf(db, 'r_1')).toBe(3);
    for (const chat of mine) expect(await lease(chat.id)).toEqual({ streaming_until: null, stream_owner: null });
    for (const [i, chat] of theirs.entries()) expect((await lease(chat.id)).stream_owner).toBe(owners[3 + i]);
    expect((await pairs(theirs[0]!.id))[0]?.answer_status).toBe('streaming');
  });

  test("a user id that differs only in case or trailing space is another user's: missing", async () => {
    const chat = await createChat(db, 'Race-5', 't');
    for (const userId of ['race-5', 'RACE-5', 'Race-5 ']) {
      expect(await beginAnswer(db, { userId, chatId: chat.id, question: 'q', leaseMs: 60_000, owner: 'ra' })).toEqual({ kind: 'missing' });
    }
    expect(await lease(chat.id)).toEqual({ streaming_until: null, stream_owner: null });
  });
});
