import type { Chat, Page, QaPair } from '../protocol/types.js';
import { migrateLatest, openDb } from '../backend/db.js';
import { migrations } from '../backend/migrations/index.js';
import { testDialects } from './helpers/databases.js';
import { startTestBackend } from './helpers/backend.js';
import type { TestBackend } from './helpers/backend.js';
import { collectEvents } from './helpers/sse.js';

const dialects = await testDialects();

// Spellings that a case-, accent- or pad-insensitive comparison takes for `alice`.
const LOOKALIKES = ['Alice', 'ALICE', 'alicé', 'alice ', 'alice\t', 'ａlice'];

describe.each(dialects)('identifiers compared byte for byte on $name', (dialect) => {
  let backend: TestBackend;
  const owner = `alice`;
  let chat: Chat;
  let pair: QaPair;

  beforeAll(async () => {
    backend = await startTestBackend(dialect);
    const res = await backend.request(owner, 'POST', '/chats/', { title: 'alice only' });
    expect(res.status).toBe(201);
    chat = (await res.json()) as Chat;
    const up = await backend.request(owner, 'POST', `/context/${chat.id}/`, {
      ciContext: { buildDetails: { number: 3, result: 'FAILURE', consoleLog: 'error: alice secret build broke\n' } },
    });
    expect(up.status).toBe(200);
    const events = await collectEvents(await backend.request(owner, 'POST', '/messages/send', { chat_id: chat.id, content: 'why?' }));
    expect(events.at(-1)).toEqual({ event: 'done' });
    const page = (await (await backend.request(owner, 'GET', `/chats/${chat.id}`)).json()) as Page<QaPair>;
    pair = page.items[0]!;
  });
  afterAll(async () => {
    await backend?.close();
  });

  test.each(LOOKALIKES)('%j cannot list, read, rename, post into, upload to, retry, edit or delete alice\'s chat', async (user) => {
    const list = (await (await backend.request(user, 'GET', '/chats/')).json()) as Page<Chat>;
    expect(list.total_items).toBe(0);
    expect(list.items).toEqual([]);
    expect((await backend.request(user, 'GET', `/chats/${chat.id}`)).status).toBe(404);
    expect((await backend.request(user, 'PUT', `/chats/${chat.id}/title`, { new_title: 'taken' })).status).toBe(404);
    expect((await backend.request(user, 'POST', '/messages/send', { chat_id: chat.id, content: 'mine?' })).status).toBe(404);
    expect((await backend.request(user, 'POST', `/context/${chat.id}/`, { ciContext: { currentScreen: 'x' } })).status).toBe(404);
    expect((await backend.request(user, 'GET', `/context/${chat.id}/last-upload`)).status).toBe(404);
    expect((await backend.request(user, 'POST', `/messages/${pair.qa_pair_id}/retry`)).status).toBe(404);
    expect((await backend.request(user, 'PUT', `/messages/${pair.qa_pair_id}/edit`, { new_content: 'mine' })).status).toBe(404);
    expect((await backend.request(user, 'DELETE', `/chats/${chat.id}`)).status).toBe(404);
    // alice's chat is untouched.
    const mine = (await (await backend.request(owner, 'GET', `/chats/${chat.id}`)).json()) as Page<QaPair>;
    expect(mine.total_items).toBe(1);
    const again = (await (await backend.request(owner, 'GET', '/chats/')).json()) as Page<Chat>;
    expect(again.items.map((c) => [c.id, c.title, c.user_id])).toEqual([[chat.id, 'alice only', owner]]);
  });

  test('each spelling is a user of its own, with its own chats', async () => {
    for (const user of LOOKALIKES) {
      const res = await backend.request(user, 'POST', '/chats/', { title: `chat of ${user}` });
      expect(res.status).toBe(201);
      expect(((await res.json()) as Chat).user_id).toBe(user);
    }
    for (const user of [owner, ...LOOKALIKES]) {
      const list = (await (await backend.request(user, 'GET', '/chats/')).json()) as Page<Chat>;
      expect(list.items.every((c) => c.user_id === user)).toBe(true);
      expect(list.total_items).toBe(1);
    }
  });
});

describe.each(dialects)('migration 010 on $name fixes tables made before it', (dialect) => {
  test('a database migrated to 009 with chats in it compares exactly after 010, and down/up round-trips', async () => {
    const database = await dialect.create();
    const db = openDb(database.url);
    try {
      const before010 = migrations.findIndex(([name]) => name === '010_identifier_collation');
      for (let i = 0; i < before010; i++) await db.migrate.up();
      const now = Date.now();
      await db('chats').insert({ user_id: 'alice', title: 'old', created_at: now, updated_at: now, job_name: 'team/API' });
      const count = async (where: Record<string, string>) => Number(((await db('chats').where(where).count({ n: '*' }).first()) as { n: number }).n);
      if (dialect.name === 'mysql') {
        // The flaw the migration fixes: the database's default collation folds these.
        expect(await count({ user_id: 'ALICE' })).toBe(1);
        expect(await count({ user_id: 'alice ' })).toBe(1);
      }
      await migrateLatest(db);
      for (const user of LOOKALIKES) expect(await count({ user_id: user })).toBe(0);
      expect(await count({ user_id: 'alice' })).toBe(1);
      expect(await count({ job_name: 'team/api' })).toBe(0);
      expect(await count({ job_name: 'team/API' })).toBe(1);
      // Down to 009: the migrations after 010 first, then 010 itself.
      for (let i = migrations.length - 1; i >= before010; i--) await db.migrate.down();
      if (dialect.name === 'mysql') expect(await count({ user_id: 'ALICE' })).toBe(1);
      await migrateLatest(db);
      expect(await count({ user_id: 'ALICE' })).toBe(0);
      expect(await count({ user_id: 'alice' })).toBe(1);
    } finally {
      await db.destroy();
      await database.drop();
    }
  });
});
