/**
 * `cichat ask` in-process (program.run with its own IO and a client double): Markdown on a
 * terminal and plain text in a pipe, `--json` with the stored pair's sources, the warning when a
 * piped log replaces a chat's context, the titles of the chats it makes.
 */
import { jest } from '@jest/globals';
import { Readable } from 'node:stream';
import type { Chat, QaPair, StreamEvent, WatchedFailure } from '../../protocol/types.js';
import { ApiError } from '../errors.js';
import type { CichatClient, ContextUpload, LogBody, LogUploadFacts, StreamRequest } from '../client.js';
import { TextOutput, type CliIO } from '../io.js';
import { run } from '../program.js';

const AT = '2026-11-22T01:00:00.000Z';
const ANSWER = 'The **test** `LoginTest` failed [L12-L14].\n\n```\nmvn test\n```\n';

function io(opts: { tty?: boolean; log?: string | Buffer; logName?: string } = {}): CliIO & { stdout: TextOutput; stderr: TextOutput } {
  const stdin = Object.assign(Readable.from(opts.log === undefined ? [] : [opts.log]), { isTTY: opts.log === undefined });
  return {
    stdout: new TextOutput(opts.tty ?? false, 80),
    stderr: new TextOutput(false),
    stdin,
    env: {},
    stdinName: () => opts.logName,
  };
}

interface FakeOptions {
  lastUpload?: string | null;
  /** What the upload answers as `received_data`. */
  received?: Record<string, unknown>;
  /** An error the upload throws for this body, if any. */
  refuse?: (upload: ContextUpload) => Error | undefined;
  failures?: WatchedFailure[] | 'unavailable';
  /** The stream starts an answer, then fails. */
  streamFails?: boolean;
}

function fake(options: FakeOptions = {}) {
  const calls = { titles: [] as (string | undefined)[], uploads: [] as ContextUpload[], streams: [] as StreamRequest[], deleted: [] as number[] };
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
      const refused = options.refuse?.(upload);
      if (refused) throw refused;
      return { success: true, received_data: options.received ?? {} };
    },
    // The raw log route (issue 28): recorded in the same shape as a JSON upload.
    uploadLog: async (_id: number, body: LogBody, facts: LogUploadFacts) => {
      const upload: ContextUpload = {};
      if (facts.jobName !== undefined) upload.jobName = facts.jobName;
      if (facts.buildNumber !== undefined) upload.buildNumber = facts.buildNumber;
      const refused = options.refuse?.(upload);
      if (refused) {
        calls.uploads.push(upload);
        throw refused;
      }
      const parts: Buffer[] = [];
      for await (const part of body.read(new AbortController().signal)) parts.push(Buffer.from(part));
      const sent: ContextUpload = { ...upload, consoleLog: Buffer.concat(parts).toString('utf8') };
      if (facts.header) Object.assign(sent, JSON.parse(Buffer.from(facts.header, 'base64url').toString('utf8')));
      calls.uploads.push(sent);
      return { success: true, received_data: options.received ?? {}, log_lines: 1 };
    },
    deleteChat: async (id: number) => {
      calls.deleted.push(id);
      return { message: `Chat ${id} deleted.` };
    },
    failures: async () => {
      if (options.failures === 'unavailable') throw new ApiError(404, 'Not found');
      return options.failures ?? [];
    },
    pairs: async () => ({ items: [pair], total_items: 1, limit: 20, offset: 0 }),
    async *stream(request: StreamRequest): AsyncGenerator<StreamEvent> {
      calls.streams.push(request);
      yield { event: 'started', qa_pair_id: 9 };
      if (options.streamFails) {
        yield { event: 'error', detail: 'engine failed' };
        return;
      }
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
    expect(await run(argv('ask', '--chat', '3', 'why?'), out, makeClient)).toBe(0);
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
    expect(await run(argv('ask', '--chat', '3', 'why?'), out, makeClient)).toBe(0);
    expect(out.stdout.text).toBe(ANSWER);
  });

  it('--json includes the sources of the stored pair', async () => {
    const { makeClient } = fake();
    const out = io();
    expect(await run(argv('--json', 'ask', '--chat', '3', 'why?'), out, makeClient)).toBe(0);
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
    await run(argv('ask', '--job', 'team/api', 'what changed?'), io(), c.makeClient);
    expect(c.calls.titles).toEqual(['team/api: what changed?']);
    // ux5: a piped console names its job (its workspace): that, rather than the file it was saved in or nothing.
    const console = 'Started by user admin\nRunning as SYSTEM\nBuilding in workspace /var/jenkins_home/workspace/team/api\n[api] $ /bin/sh -xe /tmp/jenkins1.sh\n+ make\nmake: *** [all] Error 2\n';
    const d = fake();
    await run(argv('ask', 'why did the build fail?'), io({ log: console, logName: 'fail.log' }), d.makeClient);
    expect(d.calls.titles).toEqual(['team/api: why did the build fail?']);
    expect(d.calls.uploads[0]?.consoleLog).toBe(console);
    const e = fake();
    await run(argv('ask', 'why did the build fail?'), io({ log: console }), e.makeClient);
    expect(e.calls.titles).toEqual(['team/api: why did the build fail?']);
  });

  describe('issue 27', () => {
    it('--job without --build names the last failed build for a failure question, else the last completed one', async () => {
      const a = fake({ received: { buildDetails: { number: 42, result: 'FAILURE' } } });
      const out = io();
      expect(await run(argv('ask', '--job', 'team/api', 'why did the last build fail?'), out, a.makeClient)).toBe(0);
      expect(a.calls.uploads).toEqual([{ jobName: 'team/api', buildNumber: 'lastFailedBuild' }]);
      expect(out.stderr.text).toContain('cichat: team/api: its last failed build, #42 (FAILURE)\n');
      const b = fake({ received: { buildDetails: { number: 43, result: 'SUCCESS' } } });
      expect(await run(argv('ask', '--job', 'team/api', 'what changed in it?'), io(), b.makeClient)).toBe(0);
      expect(b.calls.uploads).toEqual([{ jobName: 'team/api', buildNumber: 'lastCompletedBuild' }]);
    });

    it('a job without failed builds: its last completed build, said on stderr', async () => {
      const a = fake({
        refuse: (u) => (u.buildNumber === 'lastFailedBuild' ? new ApiError(404, 'Job team/web has no failed build (lastFailedBuild) in JENKINS_HOME: no context was uploaded') : undefined),
        received: { buildDetails: { number: 9, result: 'SUCCESS' } },
      });
      const out = io();
      expect(await run(argv('ask', '--job', 'team/web', 'why did it fail?'), out, a.makeClient)).toBe(0);
      expect(a.calls.uploads.map((u) => u.buildNumber)).toEqual(['lastFailedBuild', 'lastCompletedBuild']);
      expect(out.stderr.text).toContain('team/web has no failed build; taking its last completed build');
      // the build taken is named as what it is, not as "its last failed build, #9 (SUCCESS)"
      expect(out.stderr.text).toContain('cichat: team/web: its last completed build, #9 (SUCCESS)\n');
    });

    it('without --job, --chat or a log: exit 1 naming what to give, with the watcher\'s recent failures', async () => {
      const a = fake({ failures: [{ job: 'team/api', build: 42, result: 'FAILURE', cause: 'error[E0425]: cannot find value', chat_id: 7, unread: true, build_url: null, detected_at: AT, diagnosed_at: AT }] });
      const out = io();
      expect(await run(argv('ask', 'why did the last build fail?'), out, a.makeClient)).toBe(1);
      expect(a.calls.titles).toEqual([]); // no chat made
      expect(out.stderr.text).toContain('no build to answer from: name the job');
      expect(out.stderr.text).toContain('  team/api #42 (chat 7): error[E0425]: cannot find value\n');
      expect(out.stderr.text).toContain('hint: cichat ask --chat 7 "..."   or   cichat ask --job team/api "..."');
      const b = fake({ failures: 'unavailable' });
      const out2 = io();
      expect(await run(argv('ask', 'why did the last build fail?'), out2, b.makeClient)).toBe(1);
      expect(out2.stderr.text).not.toContain('recent failed builds');
      expect(out2.stderr.text).toContain('hint: cichat ask --job FOLDER/JOB "why did the last build fail?"   (the job\'s full name in Jenkins;');
    });

    it('removes the chat it made when the upload fails (unknown job, refused log), keeps a chat it did not make', async () => {
      const unknown = fake({ refuse: () => new ApiError(404, 'No job nope in JENKINS_HOME: no context was uploaded') });
      const out = io();
      expect(await run(argv('ask', '--job', 'nope', 'why?'), out, unknown.makeClient)).toBe(1);
      expect(unknown.calls.deleted).toEqual([3]);
      expect(out.stderr.text).toContain('cichat: removed chat 3 (made for this call, nothing in it)');
      expect(out.stderr.text).toContain('cichat: No job nope in JENKINS_HOME');
      // What to do about it (ux6): the jobs it knows, or the log piped instead.
      expect(out.stderr.text).toContain('hint: the controller reads only the jobs of its own JENKINS_HOME (`cichat failures` lists the jobs with recent failures); for a build of another Jenkins, pipe its console log: cat build.log | cichat ask');
      const withLog = io({ log: 'ERROR x\n' });
      expect(await run(argv('ask', '--job', 'nope', 'why?'), withLog, fake({ refuse: () => new ApiError(404, 'No job nope in JENKINS_HOME: no context was uploaded') }).makeClient)).toBe(1);
      expect(withLog.stderr.text).toContain('hint: the controller reads only the jobs of its own JENKINS_HOME: drop --job to ask about the piped log alone');
      const refused = fake({ refuse: () => new ApiError(422, 'buildDetails.consoleLog: the log is empty') });
      expect(await run(argv('ask', 'why?'), io({ log: 'ERROR x\n' }), refused.makeClient)).toBe(1);
      expect(refused.calls.deleted).toEqual([3]);
      const theirs = fake({ refuse: () => new ApiError(404, 'No job nope in JENKINS_HOME: no context was uploaded') });
      expect(await run(argv('ask', '--chat', '5', '--job', 'nope', 'why?'), io(), theirs.makeClient)).toBe(1);
      expect(theirs.calls.deleted).toEqual([]);
    });

    it("tells a missing job or failed build by the body's code, by the wording only when an older controller sends none", async () => {
      // Reworded: the code still says which error it is.
      const reworded = io();
      expect(await run(argv('ask', '--job', 'nope', 'why?'), reworded, fake({ refuse: () => new ApiError(404, 'Unknown job nope', undefined, undefined, 'job_not_found') }).makeClient)).toBe(1);
      expect(reworded.stderr.text).toContain('hint: the controller reads only the jobs of its own JENKINS_HOME');
      // A code that names another error wins over matching words.
      const other = io();
      expect(await run(argv('ask', '--job', 'nope', 'why?'), other, fake({ refuse: () => new ApiError(404, 'No job nope in JENKINS_HOME: no context was uploaded', undefined, undefined, 'build_not_found') }).makeClient)).toBe(1);
      expect(other.stderr.text).not.toContain('hint: the controller reads only the jobs');
      const a = fake({
        refuse: (u) => (u.buildNumber === 'lastFailedBuild' ? new ApiError(404, 'Job team/web: none failed', undefined, undefined, 'build_not_found') : undefined),
        received: { buildDetails: { number: 9, result: 'SUCCESS' } },
      });
      const out = io();
      expect(await run(argv('ask', '--job', 'team/web', 'why did it fail?'), out, a.makeClient)).toBe(0);
      expect(a.calls.uploads.map((u) => u.buildNumber)).toEqual(['lastFailedBuild', 'lastCompletedBuild']);
    });

    it('keeps the chat once the answer began, even when it then fails', async () => {
      const a = fake({ streamFails: true });
      expect(await run(argv('ask', '--job', 'team/api', 'why?'), io(), a.makeClient)).toBe(1);
      expect(a.calls.deleted).toEqual([]);
    });

    it('decompresses a gzipped log, reads Windows-1252, refuses other binary input with one line', async () => {
      const { gzipSync } = await import('node:zlib');
      const a = fake();
      const gz = io({ log: gzipSync(Buffer.from('ERROR: boom\n')) });
      expect(await run(argv('ask', 'why?'), gz, a.makeClient)).toBe(0);
      expect(a.calls.uploads[0]?.consoleLog).toBe('ERROR: boom\n');
      expect(gz.stderr.text).toMatch(/cichat: stdin: decompressed gzip/);
      const b = fake();
      const latin = io({ log: Buffer.from([0x45, 0x72, 0x72, 0x65, 0x75, 0x72, 0x20, 0xe9, 0x63, 0x68, 0x65, 0x63, 0x20, 0x80, 0x0a]) });
      expect(await run(argv('ask', 'why?'), latin, b.makeClient)).toBe(0);
      expect(b.calls.uploads[0]?.consoleLog).toBe('Erreur échec €\n');
      expect(latin.stderr.text).toContain('cichat: stdin: not UTF-8: read as Windows-1252 (Latin-1)');
      const c = fake();
      const bin = io({ log: Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0]) });
      expect(await run(argv('ask', 'why?'), bin, c.makeClient)).toBe(1);
      expect(bin.stderr.text).toBe('cichat: stdin is not a text log: it looks like an executable (ELF)\nhint: pipe the build log itself (the text of the console output)\n');
      expect(c.calls.titles).toEqual([]);
    });
  });

  describe('a piped stdin that stays silent (ux3, session 42)', () => {
    afterEach(() => jest.useRealTimers());

    it('says after a few seconds that it waits for a log on stdin and how not to, then goes on when the log comes', async () => {
      jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
      const { PassThrough } = await import('node:stream');
      const { STDIN_SILENCE_MS } = await import('./ask.js');
      const stdin = Object.assign(new PassThrough(), { isTTY: false });
      const out = { ...io(), stdin };
      const a = fake();
      const done = run(argv('ask', '--chat', '3', 'why?'), out, a.makeClient);
      await jest.advanceTimersByTimeAsync(STDIN_SILENCE_MS - 100);
      expect(out.stderr.text).toBe('');
      await jest.advanceTimersByTimeAsync(200);
      expect(out.stderr.text).toBe(`cichat: waiting for a build log on stdin (nothing has arrived for ${STDIN_SILENCE_MS / 1000} s); not piping one? add --no-stdin, or < /dev/null\n`);
      stdin.end('ERROR: late\n');
      jest.useRealTimers();
      expect(await done).toBe(0);
      expect(a.calls.uploads[0]?.consoleLog).toBe('ERROR: late\n');
    });

    it('says nothing when the log arrives at once, or with --no-stdin', async () => {
      jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
      const out = io({ log: 'ERROR: x\n' });
      const done = run(argv('ask', '--chat', '3', 'why?'), out, fake().makeClient);
      await jest.advanceTimersByTimeAsync(10_000);
      jest.useRealTimers();
      expect(await done).toBe(0);
      expect(out.stderr.text).not.toContain('waiting for a build log');
      const { PassThrough } = await import('node:stream');
      const silent = { ...io(), stdin: Object.assign(new PassThrough(), { isTTY: false }) };
      expect(await run(argv('ask', '--chat', '3', '--no-stdin', 'why?'), silent, fake().makeClient)).toBe(0);
      expect(silent.stderr.text).toBe('');
    });
  });
});
