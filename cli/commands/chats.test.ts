/**
 * `cichat chats list` in-process with a client double: job and build from the Chat fields, the
 * title read only when they say nothing (an older backend sends no fields at all).
 */
import { Readable } from 'node:stream';
import type { CichatClient } from '../client.js';
import { TextOutput, type CliIO } from '../io.js';
import { run } from '../program.js';
import type { Chat } from '../../protocol/types.js';

function io(): CliIO & { stdout: TextOutput; stderr: TextOutput } {
  return { stdout: new TextOutput(false), stderr: new TextOutput(false), stdin: Object.assign(Readable.from([]), { isTTY: true }), env: { NO_COLOR: '1' } };
}

const at = '2026-11-23T10:00:00.000Z';
const chat = (id: number, title: string, extra: Partial<Chat> = {}): Chat => ({ id, user_id: 'u', title, created_at: at, updated_at: at, ...extra });

async function list(chats: Chat[], json = false) {
  const client = { allChats: async () => chats, unreadChatIds: async () => new Set([3]) };
  const out = io();
  const code = await run(['node', 'cichat', ...(json ? ['--json'] : []), 'chats', 'list'], out, () => client as unknown as CichatClient);
  expect(code).toBe(0);
  return out;
}

describe('cichat chats list', () => {
  const chats = [
    chat(3, 'nightly', { job_name: 'team/api', build_number: 42 }),
    chat(2, 'team/web #7: why?', { job_name: null, build_number: null }),
    chat(11, 'team/old #1 failed'), // an older backend: no fields
    chat(1, 'plain', { job_name: null, build_number: null }),
    chat(4, 'job page', { job_name: 'team/api', build_number: null }),
  ];

  it('shows a JOB column from the fields, else from the title', async () => {
    const lines = (await list(chats)).stdout.text.split('\n');
    expect(lines[0]).toMatch(/^ID {2}UPDATED {14}JOB {11}TITLE$/);
    expect(lines[1]).toMatch(/^ 3 {2}\S+ \S+ {2}team\/api #42 {2}\* nightly$/);
    expect(lines[2]).toMatch(/^ 2 {2}\S+ \S+ {2}team\/web #7 {3}why\?$/);
    expect(lines[3]).toMatch(/^11 {2}\S+ \S+ {2}team\/old #1 {3}team\/old #1 failed$/);
    expect(lines[4]).toMatch(/^ 1 {2}\S+ \S+ {16}plain$/);
    expect(lines[5]).toMatch(/^ 4 {2}\S+ \S+ {2}team\/api {6}job page$/);
  });

  it("names a piped log's chat as the web list does: the title's job, log only (ux9 left it blank)", async () => {
    const lines = (await list([chat(5, 'logship: why did the build fail?', { job_name: null, build_number: null }), chat(1, 'plain', { job_name: null, build_number: null })])).stdout.text.split('\n');
    expect(lines[0]).toMatch(/^ID {2}UPDATED {14}JOB {24}TITLE$/);
    expect(lines[1]).toMatch(/^ 5 {2}\S+ \S+ {2}logship \(title\), log only {2}logship: why did the build fail\?$/);
    expect(lines[2]).toMatch(/^ 1 {2}\S+ \S+ {29}plain$/);
    // --json keeps job_name null: the title's job is no Jenkins record
    const got = JSON.parse((await list([chat(5, 'logship: why?', { job_name: null, build_number: null })], true)).stdout.text) as Chat[];
    expect(got[0]).toMatchObject({ job_name: null, build_number: null });
  });

  it('has no JOB column when no chat names a job', async () => {
    const text = (await list([chat(1, 'plain'), chat(2, 'other', { job_name: null, build_number: null })])).stdout.text;
    expect(text.split('\n')[0]).toMatch(/^ID {2}UPDATED {14}TITLE$/);
  });

  it('--json carries job_name and build_number, resolved the same way', async () => {
    const got = JSON.parse((await list(chats, true)).stdout.text) as (Chat & { unread?: boolean })[];
    expect(got.map((c) => [c.id, c.job_name, c.build_number])).toEqual([
      [3, 'team/api', 42],
      [2, 'team/web', 7],
      [11, 'team/old', 1],
      [1, null, null],
      [4, 'team/api', null],
    ]);
    expect(got[0]).toMatchObject({ title: 'nightly', unread: true });
    expect(got[1]?.title).toBe('team/web #7: why?');
  });
});
