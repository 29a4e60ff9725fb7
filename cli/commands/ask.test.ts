/**
 * `cichat ask` in-process (program.run with its own IO and a client double): Markdown on a
 * terminal and plain text in a pipe, `--json` with the stored pair's sources, the warning when a
 * piped log replaces a chat's context, the titles of the chats it makes.
 */
import { Readable } from 'node:stream';
import type { Chat, QaPair, StreamEvent } from '../../protocol/types.js';
import type { CichatClient, ContextUpload, StreamRequest } from '../client.js';
import { TextOutput, type CliIO } from '../io.js';
import { run } from '../program.js';

const AT = '2026-11-22T01:00:00.000Z';
const ANSWER = 'The **test** `LoginTest` failed [L12-L14].\n\n```\nmvn test\n```\n';

function io(opts: { tty?: boolean; log?: string; logName?: string } = {}): CliIO & { stdout: TextOutput; stderr: TextOutput } {
  const stdin = Object.assign(Readable.from(opts.log === undefined ? [] : [opts.log]), { isTTY: opts.log === undefined });
  return {
    stdout: new TextOutput(opts.tty ?? false, 80),
    stderr: new TextOutput(false),
    stdin,
    env: {},
    stdinName: () => opts.logName,
  };
}

function fake(options: { lastUpload?: string | null } = {}) {
  const calls = { titles: [] as (string | undefined)[], uploads: [] as ContextUpload[], streams: [] as StreamRequest[] };
  const chat = (id: number, title = 'x'): Chat => ({ id, user_id: 'local', title, created_at: AT, updated_at: AT });
  const pair: QaPair = {
    id: 9, qa_pair_id: 9, chat_id: 3, created_at: AT,
    question: { id: 9, content: 'why?', created_at: AT },
    answer: { id: 9, content: ANSWER, status: 'complete', sources: [{ kind: 'log', start_line: 12, end_line: 14 }], created_at: AT },
  };
  const client = {
    createChat: async (title?: string) => {
      calls.titles.push(title);
      return chat(3, title);
    },
    lastUpload: async () => ({ last_upload_at: options.lastUpload ?? null }),
    uploadContext: async (_id: number, upload: ContextUpload) => {
      calls.uploads.push(upload);
      return { success: true, received_data: {} };
    },
    pairs: async () => ({ items: [pair], total_items: 1, limit: 20, offset: 0 }),
    async *stream(request: StreamRequest): AsyncGenerator<StreamEvent> {
      calls.streams.push(request);
      yield { event: 'started', qa_pair_id: 9 };
      for (const part of ANSWER.match(/[\s\S]{1,7}/g) ?? []) yield { event: 'chunk', content: part };
      yield { event: 'done' };
    },
  };
  return { calls, makeClient: () => client as unknown as CichatClient };
}

const argv = (...args: string[]): string[] => ['node', 'cichat', ...args];

describe('cichat ask', () => {
  it('renders Markdown on a terminal: bold, code, citations dimmed, no Markdown marks left', async () => {
    const { makeClient } = fake();
    const out = io({ tty: true });
    expect(await run(argv('ask', 'why?'), out, makeClient)).toBe(0);
    const plain = out.stdout.text.replace(/\u001b\[[0-9;]*m/g, '');
    expect(out.stdout.text).toContain('\u001b[1mtest\u001b[0m');
    expect(out.stdout.text).toContain('\u001b[2m[L12-L14]\u001b[0m');
    expect(plain).not.toContain('**');
    expect(plain).not.toContain('```');
    expect(plain).toContain('│ mvn test');
  });

  it('stays plain when piped: exactly the text of the answer', async () => {
    const { makeClient } = fake();
    const out = io();
    expect(await run(argv('ask', 'why?'), out, makeClient)).toBe(0);
    expect(out.stdout.text).toBe(ANSWER);
  });

  it('--json includes the sources of the stored pair', async () => {
    const { makeClient } = fake();
    const out = io();
    expect(await run(argv('--json', 'ask', 'why?'), out, makeClient)).toBe(0);
    const answer = JSON.parse(out.stdout.text) as { qa_pair_id: number; status: string; sources: unknown[]; content: string };
    expect(answer).toMatchObject({ qa_pair_id: 9, status: 'complete', content: ANSWER });
    expect(answer.sources).toEqual([{ kind: 'log', start_line: 12, end_line: 14 }]);
  });

  it('warns on stderr when a piped log replaces the context of --chat N, with the old upload time', async () => {
    const { makeClient, calls } = fake({ lastUpload: '2026-11-20T08:30:00.000Z' });
    const out = io({ log: 'ERROR: boom\n' });
    expect(await run(argv('ask', '--chat', '3', 'why?'), out, makeClient)).toBe(0);
    expect(out.stderr.text).toMatch(/chat 3 already has a context \(uploaded 2026-11-2\d \d\d:30:00\); this log replaces it/);
    expect(calls.uploads).toEqual([{ consoleLog: 'ERROR: boom\n' }]);
    // no warning for a chat without context
    const quiet = fake({ lastUpload: null });
    const out2 = io({ log: 'ERROR: boom\n' });
    await run(argv('ask', '--chat', '3', 'why?'), out2, quiet.makeClient);
    expect(out2.stderr.text).not.toContain('already has a context');
  });

  it('titles new chats from the job and build, or the log file, then the question', async () => {
    const a = fake();
    await run(argv('ask', '--job', 'team/api', '--build', '42', 'why did the build fail?'), io(), a.makeClient);
    expect(a.calls.titles).toEqual(['team/api #42: why did the build fail?']);
    const b = fake();
    await run(argv('ask', 'why did the build fail?'), io({ log: 'x\n', logName: 'build.log' }), b.makeClient);
    expect(b.calls.titles).toEqual(['build.log: why did the build fail?']);
    const c = fake();
    await run(argv('ask', 'why did the build fail?'), io(), c.makeClient);
    expect(c.calls.titles).toEqual(['why did the build fail?']);
  });
});
