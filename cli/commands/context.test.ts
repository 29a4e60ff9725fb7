/**
 * `cichat context upload` in-process: the progress bar's indexing phase while the server
 * works, and one warning when the job is not in the controller's JENKINS_HOME.
 */
import { Readable } from 'node:stream';
import type { CichatClient, ContextUpload, ProgressListener } from '../client.js';
import { ApiError } from '../errors.js';
import { TextOutput, type CliIO } from '../io.js';
import { run } from '../program.js';

function io(log: string, env: NodeJS.ProcessEnv = {}): CliIO & { stdout: TextOutput; stderr: TextOutput } {
  return { stdout: new TextOutput(false), stderr: new TextOutput(true), stdin: Object.assign(Readable.from([log]), { isTTY: false }), env };
}

describe('cichat context upload', () => {
  it('shows the upload, then "indexing" with the seconds until the server answers', async () => {
    const log = 'x'.repeat(2 * 1024 * 1024) + '\nerror: boom\n';
    const client = {
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
});
