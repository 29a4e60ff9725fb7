/**
 * `cichat context upload` in-process: the progress bar's indexing phase while the server
 * works, and one warning when the job is not in the controller's JENKINS_HOME.
 */
import { Readable } from 'node:stream';
import type { CichatClient, ContextUpload, ProgressListener } from '../client.js';
import { ApiError, InterruptedError } from '../errors.js';
import type { Ctx } from '../io.js';
import { uploadInterruptibly } from '../upload.js';
import { TextOutput, type CliIO } from '../io.js';
import { run } from '../program.js';

function io(log: string, env: NodeJS.ProcessEnv = {}): CliIO & { stdout: TextOutput; stderr: TextOutput } {
  return { stdout: new TextOutput(false), stderr: new TextOutput(true), stdin: Object.assign(Readable.from([log]), { isTTY: false }), env };
}

describe('cichat context upload', () => {
  it('shows the upload, then "indexing" with the seconds until the server answers', async () => {
    const log = 'x'.repeat(2 * 1024 * 1024) + '\nerror: boom\n';
    const client = {
      lastUpload: async () => ({ last_upload_at: null }),
      async uploadContext(_id: number, upload: ContextUpload, onProgress?: ProgressListener) {
        const total = JSON.stringify(upload).length;
        onProgress?.(total / 2, total);
        onProgress?.(total, total);
        await new Promise((r) => setTimeout(r, 700)); // the backend indexing
        return { success: true, received_data: {} };
      },
    };
    const out = io(log);
    expect(await run(['node', 'cichat', 'context', 'upload', '1', '--log', '-'], out, () => client as unknown as CichatClient)).toBe(0);
    const frames = out.stderr.text.split('\r').filter(Boolean);
    expect(frames[0]).toMatch(/uploading context \[#+-+\] +50%/);
    const indexing = frames.filter((f) => f.includes('indexing…'));
    expect(indexing.length).toBeGreaterThanOrEqual(3); // redrawn while waiting
    expect(indexing[indexing.length - 1]).toMatch(/100% 2\.0\/2\.0 MiB {2}indexing… 0\.[5-9] s/);
    expect(out.stderr.text.endsWith('\n')).toBe(true);
    expect(out.stdout.text).toBe('Uploaded the context of chat 1 (log of 2 lines).\n');
  });

  it('a job from the environment that the controller does not know: one warning, then the log alone', async () => {
    const bodies: ContextUpload[] = [];
    const client = {
      lastUpload: async () => ({ last_upload_at: null }),
      async uploadContext(_id: number, upload: ContextUpload) {
        bodies.push({ ...upload });
        if (upload.jobName) throw new ApiError(404, `No job ${upload.jobName} in JENKINS_HOME: no context was uploaded`);
        return { success: true, received_data: {} };
      },
    };
    const out = io('error: boom\n', { JOB_NAME: 'other/job', BUILD_NUMBER: '7' });
    const code = await run(['node', 'cichat', 'context', 'upload', '4', '--from-env', '--log', '-', '--no-progress'], out, () => client as unknown as CichatClient);
    expect(code).toBe(0);
    expect(out.stderr.text).toBe(
      "cichat: warning: job other/job #7 is not in the controller's JENKINS_HOME; uploading the log (1 line) and the CI environment variables without the job's facts\n",
    );
    expect(bodies[1]).toEqual({ consoleLog: 'error: boom\n', ciEnvironment: { JOB_NAME: 'other/job', BUILD_NUMBER: '7' } });
    expect(out.stdout.text).toBe('Uploaded the context of chat 4 (log of 1 line).\n');
  });

  describe('issue 27', () => {
    const never = {
      lastUpload: async () => ({ last_upload_at: '2026-11-20T08:30:00.000Z' }),
      async uploadContext(): Promise<never> {
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
