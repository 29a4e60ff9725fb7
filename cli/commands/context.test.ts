/**
 * `cichat context upload` in-process: the progress bar's indexing phase while the server
 * works, and one warning when the job is not in the controller's JENKINS_HOME.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { CichatClient, ContextUpload, LogBody, LogUploadFacts, ProgressListener } from '../client.js';
import { ApiError, InterruptedError } from '../errors.js';
import type { Ctx } from '../io.js';
import { uploadInterruptibly } from '../upload.js';
import { TextOutput, type CliIO } from '../io.js';
import { run } from '../program.js';

function io(log: string, env: NodeJS.ProcessEnv = {}): CliIO & { stdout: TextOutput; stderr: TextOutput } {
  return { stdout: new TextOutput(false), stderr: new TextOutput(true), stdin: Object.assign(Readable.from([log]), { isTTY: false }), env };
}

describe('cichat context upload', () => {
  it('shows the bytes read, then "indexing" with the seconds until the server answers', async () => {
    const log = 'x'.repeat(2 * 1024 * 1024) + '\nerror: boom\n';
    const client = {
      baseUrl: 'http://127.0.0.1:8080',
      lastUpload: async () => ({ last_upload_at: null }),
      async uploadLog(_id: number, body: LogBody) {
        for await (const _ of body.read(new AbortController().signal)) await new Promise((r) => setTimeout(r, 150)); // sending
        await new Promise((r) => setTimeout(r, 700)); // the backend indexing
        return { success: true, received_data: {}, log_lines: 2 };
      },
    };
    const out = io(log);
    expect(await run(['node', 'cichat', 'context', 'upload', '1', '--log', '-'], out, () => client as unknown as CichatClient)).toBe(0);
    const frames = out.stderr.text.split('\r').filter(Boolean);
    // stdin's size is not known: the MiB read, then the bar at 100 % once all is sent
    expect(frames[0]).toMatch(/^uploading log 2\.0 MiB/);
    const indexing = frames.filter((f) => f.includes('indexing…'));
    expect(indexing.length).toBeGreaterThanOrEqual(3); // redrawn while waiting
    // The seconds count up while the server works (the last redraw comes before the 0.7 s answer; a
    // loaded machine redraws late, so the value itself is not pinned, its growth is).
    expect(indexing[indexing.length - 1]).toMatch(/100% 2\.0\/2\.0 MiB {2}indexing… \d+\.\d s/);
    const seconds = indexing.map((f) => Number(/indexing… (\d+\.\d) s/.exec(f)?.[1]));
    expect(seconds.every((x, i) => i === 0 || x >= (seconds[i - 1] as number))).toBe(true);
    expect(seconds[seconds.length - 1]).toBeGreaterThan(seconds[0] as number);
    expect(out.stderr.text.endsWith('\n')).toBe(true);
    expect(out.stdout.text).toBe('Uploaded the context of chat 1 (log of 2 lines).\n');
  });

  it('a job from the environment that the controller does not know: one warning, then the log alone (sent again)', async () => {
    const calls: { facts: LogUploadFacts; log: string }[] = [];
    const client = {
      baseUrl: 'http://127.0.0.1:8080',
      lastUpload: async () => ({ last_upload_at: null }),
      async uploadLog(_id: number, body: LogBody, facts: LogUploadFacts) {
        const stop = new AbortController();
        const parts: Buffer[] = [];
        for await (const part of body.read(stop.signal)) {
          parts.push(Buffer.from(part));
          // the controller answers 404 before reading the body
          if (facts.jobName) stop.abort();
        }
        calls.push({ facts, log: Buffer.concat(parts).toString() });
        if (facts.jobName) throw new ApiError(404, `No job ${facts.jobName} in JENKINS_HOME: no context was uploaded`);
        return { success: true, received_data: {}, log_lines: 1 };
      },
    };
    const out = io('error: boom\n', { JOB_NAME: 'other/job', BUILD_NUMBER: '7' });
    const code = await run(['node', 'cichat', 'context', 'upload', '4', '--from-env', '--log', '-', '--no-progress'], out, () => client as unknown as CichatClient);
    expect(code).toBe(0);
    expect(out.stderr.text).toBe(
      "cichat: warning: job other/job #7 is not in the controller's JENKINS_HOME; uploading the log and the CI environment variables without the job's facts\n",
    );
    expect(calls[0]?.facts).toMatchObject({ jobName: 'other/job', buildNumber: 7 });
    expect(calls[1]?.facts.jobName).toBeUndefined();
    expect(calls[1]?.log).toBe('error: boom\n');
    expect(JSON.parse(Buffer.from(calls[1]!.facts.header!, 'base64url').toString())).toEqual({ ciEnvironment: { JOB_NAME: 'other/job', BUILD_NUMBER: '7' } });
    expect(out.stdout.text).toBe('Uploaded the context of chat 4 (log of 1 line).\n');
  });

  it('a job from the environment that the controller does not know, with a passing log (the JSON upload): the same warning, then the logs alone', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-ctx-'));
    const baseline = path.join(dir, 'pass.log');
    fs.writeFileSync(baseline, 'ok\n');
    const calls: ContextUpload[] = [];
    const client = {
      baseUrl: 'http://127.0.0.1:8080',
      lastUpload: async () => ({ last_upload_at: null }),
      async uploadContext(_id: number, body: ContextUpload) {
        calls.push({ ...body });
        if (body.jobName) throw new ApiError(404, `No job ${body.jobName} in JENKINS_HOME: no context was uploaded`);
        return { success: true, received_data: {} };
      },
    };
    try {
      const out = io('error: boom\nfailed\n', { JOB_NAME: 'other/job', BUILD_NUMBER: '7' });
      const argv = ['node', 'cichat', 'context', 'upload', '4', '--from-env', '--log', '-', '--baseline-log', baseline, '--no-progress'];
      expect(await run(argv, out, () => client as unknown as CichatClient)).toBe(0);
      expect(out.stderr.text).toBe(
        "cichat: warning: job other/job #7 is not in the controller's JENKINS_HOME; uploading the log (2 lines) and the CI environment variables without the job's facts\n",
      );
      expect(calls.map((c) => [c.jobName, c.buildNumber])).toEqual([['other/job', 7], [undefined, undefined]]);
      expect(out.stdout.text).toBe('Uploaded the context of chat 4 (log of 2 lines, passing log of 1 line).\n');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('--from-env with a $WORKSPACE not on this machine (cleanWs(), another container): a note, and the log is uploaded (ux3, session 42)', async () => {
    const calls: LogUploadFacts[] = [];
    const client = {
      baseUrl: 'http://127.0.0.1:8080',
      lastUpload: async () => ({ last_upload_at: null }),
      async uploadLog(_id: number, body: LogBody, facts: LogUploadFacts) {
        for await (const _ of body.read(new AbortController().signal)) void _;
        calls.push(facts);
        return { success: true, received_data: {}, log_lines: 1 };
      },
    };
    for (const ws of ['/nonexistent/ws', '/etc/hostname']) {
      const out = io('error: boom\n', { WORKSPACE: ws });
      expect(await run(['node', 'cichat', 'context', 'upload', '4', '--from-env', '--log', '-', '--no-progress'], out, () => client as unknown as CichatClient)).toBe(0);
      expect(out.stderr.text).toBe(`cichat: $WORKSPACE ${ws} is not a directory on this machine: the log is uploaded without the source lines it names\n`);
      expect(out.stdout.text).toBe('Uploaded the context of chat 4 (log of 1 line).\n');
    }
    expect(calls).toHaveLength(2);
  });

  describe('issue 27', () => {
    const never = {
      lastUpload: async () => ({ last_upload_at: '2026-11-20T08:30:00.000Z' }),
      async uploadContext(): Promise<never> {
        throw new Error('must not be sent');
      },
      async uploadLog(): Promise<never> {
        throw new Error('must not be sent');
      },
    };

    it('an empty log (stdin or a file) is refused before anything is sent: exit 1, the chat keeps its context', async () => {
      for (const log of ['', '\n  \n']) {
        const out = io(log);
        expect(await run(['node', 'cichat', 'context', 'upload', '1', '--log', '-'], out, () => never as unknown as CichatClient)).toBe(1);
        expect(out.stderr.text).toBe(
          'cichat: the log read from stdin is empty: nothing was uploaded, chat 1 keeps its context\n' +
            'hint: in a pipeline, make a failed download stop the step: set -o pipefail; curl -fsS "$BUILD_URL/consoleText" | cichat context upload ...\n',
        );
        expect(out.stdout.text).toBe('');
      }
    });

    it('--log /nonexistent: one line, exit 1, no stack', async () => {
      const out = io('');
      expect(await run(['node', 'cichat', 'context', 'upload', '1', '--log', '/nonexistent'], out, () => never as unknown as CichatClient)).toBe(1);
      expect(out.stderr.text).toBe('cichat: cannot read /nonexistent: no such file\n');
    });

    it('interrupted during the upload: says nothing was stored and what the chat keeps', async () => {
      const abort = new AbortController();
      const client = {
        lastUpload: async () => ({ last_upload_at: '2026-11-20T08:30:00.000Z' }),
        uploadContext: (_id: number, _u: ContextUpload, onProgress: ProgressListener | undefined, signal: AbortSignal) =>
          new Promise((_resolve, reject) => {
            onProgress?.(10, 100);
            signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
            setTimeout(() => abort.abort(), 20);
          }),
      };
      const out = io('ERROR\n');
      const ctx = { options: { json: false }, io: out, client: () => client as unknown as CichatClient, exit: () => undefined };
      const err = await uploadInterruptibly(ctx as unknown as Ctx, 1, { consoleLog: 'ERROR\n' }, { label: 'x', progress: false, before: '2026-11-20T08:30:00.000Z', signal: abort.signal }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(InterruptedError);
      expect((err as Error).message).toMatch(/^Interrupted during the upload: nothing was stored; chat 1 keeps its previous context \(uploaded 2026-11-2\d \d\d:30:00\)\.$/);
    });
  });
});
