/**
 * The chat's job and build (job_name / build_number on the Chat JSON): set by the upload that
 * makes a context current, cleared when a context without them replaces it, filled for existing
 * chats by migration 009. Both dialects.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Chat, CiContext, Page } from '../protocol/types.js';
import { openDb } from '../backend/db.js';
import { chatSubjectOf } from '../backend/store/chats.js';
import { testDialects } from './helpers/databases.js';
import { startTestBackend, type TestBackend } from './helpers/backend.js';

const dialects = await testDialects();

describe.each(dialects)('chat job and build on $name', (dialect) => {
  let backend: TestBackend;
  let dataDir: string;
  let n = 0;
  const newUser = () => `job-${dialect.name}-${++n}-${Math.random().toString(36).slice(2)}`;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-chatjob-'));
    backend = await startTestBackend(dialect, { dataDir });
  });
  afterAll(async () => {
    await backend?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function listed(user: string): Promise<Chat[]> {
    const res = await backend.request(user, 'GET', '/chats/?limit=50');
    expect(res.status).toBe(200);
    return ((await res.json()) as Page<Chat>).items;
  }

  async function upload(user: string, chatId: number, ciContext: CiContext): Promise<void> {
    const res = await backend.request(user, 'POST', `/context/${chatId}/`, { ciContext });
    expect(res.status).toBe(200);
  }

  test('a new chat has none; an upload sets them; a replacing context changes or clears them', async () => {
    const user = newUser();
    const created = (await (await backend.request(user, 'POST', '/chats/', { title: 'triage' })).json()) as Chat;
    expect(created).toMatchObject({ job_name: null, build_number: null });
    const other = (await (await backend.request(user, 'POST', '/chats/', { title: 'other' })).json()) as Chat;
    expect((await listed(user)).find((c) => c.id === created.id)).toMatchObject({ job_name: null, build_number: null });

    await upload(user, created.id, { jobDetails: { fullName: 'team/api', name: 'api' }, buildDetails: { number: 42, result: 'FAILURE', consoleLog: 'boom\n' } });
    const chats = await listed(user);
    expect(chats.find((c) => c.id === created.id)).toMatchObject({ title: 'triage', job_name: 'team/api', build_number: 42 });
    // the other chat is untouched
    expect(chats.find((c) => c.id === other.id)).toMatchObject({ job_name: null, build_number: null });
    // the single Chat answers (rename) carry them too
    const renamed = (await (await backend.request(user, 'PUT', `/chats/${created.id}/title`, { new_title: 'api failure' })).json()) as Chat;
    expect(renamed).toMatchObject({ title: 'api failure', job_name: 'team/api', build_number: 42 });

    // a pipeline's environment only (BUILD_NUMBER a string)
    await upload(user, created.id, { ciEnvironment: { JOB_NAME: 'team/web', BUILD_NUMBER: '7' } });
    expect((await listed(user)).find((c) => c.id === created.id)).toMatchObject({ job_name: 'team/web', build_number: 7 });

    // a job page: the job, no build
    await upload(user, created.id, { jobDetails: { fullName: 'team/web' } });
    expect((await listed(user)).find((c) => c.id === created.id)).toMatchObject({ job_name: 'team/web', build_number: null });

    // a context that names neither clears both
    await upload(user, created.id, { currentScreen: 'dashboard', ciVersion: '2.440' });
    expect((await listed(user)).find((c) => c.id === created.id)).toMatchObject({ job_name: null, build_number: null });
  });

  test('a failed upload leaves the chat as it was', async () => {
    const user = newUser();
    const chat = (await (await backend.request(user, 'POST', '/chats/', {})).json()) as Chat;
    await upload(user, chat.id, { jobDetails: { fullName: 'team/api' }, buildDetails: { number: 3 } });
    const bad = await backend.request(user, 'POST', `/context/${chat.id}/`, { ciContext: { jobDetails: { fullName: 12 }, buildDetails: { number: 4 } } });
    expect(bad.status).toBe(422);
    expect((await listed(user)).find((c) => c.id === chat.id)).toMatchObject({ job_name: 'team/api', build_number: 3 });
  });
});

describe.each(dialects)('migration 009 on $name', (dialect) => {
  test('fills job and build of chats that have a context, as the upload path would', async () => {
    const database = await dialect.create();
    const db = openDb(database.url);
    try {
      for (let i = 1; i <= 8; i++) await db.migrate.up();
      const cases: { ci: CiContext[]; state?: string }[] = [
        { ci: [{ jobDetails: { fullName: 'team/api', name: 'api' }, buildDetails: { number: 42 }, ciEnvironment: { JOB_NAME: 'x', BUILD_NUMBER: '9' } }] },
        { ci: [{ ciEnvironment: { JOB_NAME: 'team/web', BUILD_NUMBER: '0017' } }] },
        { ci: [{ jobDetails: { name: 'solo' }, ciEnvironment: { BUILD_NUMBER: '12abc' } }] },
        { ci: [{ jobDetails: { fullName: '' }, buildDetails: { number: 5 } }] },
        { ci: [{ jobDetails: { fullName: 'a/'.repeat(400) } }] },
        { ci: [{ currentScreen: 'dashboard' }] },
        // two ready contexts: the newest upload is the current one
        { ci: [{ jobDetails: { fullName: 'old/job' }, buildDetails: { number: 1 } }, { jobDetails: { fullName: 'new/job' }, buildDetails: { number: 2 } }] },
        // an unfinished upload is not the chat's context
        { ci: [{ jobDetails: { fullName: 'half/done' }, buildDetails: { number: 8 } }], state: 'building' },
        { ci: [] },
      ];
      const ids: number[] = [];
      for (const [i, c] of cases.entries()) {
        const [chatId] = await db('chats').insert({ user_id: 'u', title: `t${i}`, created_at: 1, updated_at: 1 });
        ids.push(Number(chatId));
        for (const [k, ci] of c.ci.entries()) {
          await db('contexts').insert({
            chat_id: Number(chatId),
            state: c.state ?? 'ready',
            ci_context: JSON.stringify(ci),
            created_at: 1,
            uploaded_at: c.state === 'building' ? null : 10 + k,
            log_line_count: 0,
            chunk_count: 0,
            failure_excerpts: '[]',
            embedder_id: 'local-hash-v2-256',
            dim: 4,
          });
        }
      }
      await db.migrate.latest();
      const rows = (await db('chats').select('id', 'job_name', 'build_number', 'updated_at').whereIn('id', ids).orderBy('id')) as {
        id: number;
        job_name: string | null;
        build_number: number | null;
        updated_at: number | string;
      }[];
      const got = rows.map((r) => ({ job_name: r.job_name, build_number: r.build_number === null ? null : Number(r.build_number) }));
      // The same answers as the upload path (chatSubjectOf) for the current context of each chat.
      const expected = cases.map((c) =>
        c.state === 'building' || c.ci.length === 0 ? { job_name: null, build_number: null } : chatSubjectOf(c.ci[c.ci.length - 1]!),
      );
      expect(got).toEqual(expected);
      expect(got.slice(0, 4)).toEqual([
        { job_name: 'team/api', build_number: 42 },
        { job_name: 'team/web', build_number: 17 },
        { job_name: 'solo', build_number: null },
        { job_name: null, build_number: 5 },
      ]);
      expect(got[6]).toEqual({ job_name: 'new/job', build_number: 2 });
      // the chat list order is not disturbed
      expect(rows.every((r) => Number(r.updated_at) === 1)).toBe(true);

      // and back down through 009 (later migrations first): the columns go, the chats stay
      const applied = async (): Promise<string[]> => ((await db.migrate.list()) as [{ name: string }[], unknown])[0].map((m) => m.name);
      while ((await applied()).some((m) => m.startsWith('009_'))) await db.migrate.down();
      expect(await db.schema.hasColumn('chats', 'job_name')).toBe(false);
      expect(Number(((await db('chats').count({ n: '*' }).first()) as { n: number | string }).n)).toBe(cases.length);
    } finally {
      await db.destroy();
      await database.drop();
    }
  });
});
