/**
 * The pieces of `cichat context upload` a pipeline relies on: what `--from-env` reads, how a
 * log too large for the backend is cut, the progress bar, and the demo build finder of
 * `cichat serve`.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { contextFromEnv, tailOfLog } from '../cli/commands/context.js';
import { uploadProgress } from '../cli/progress.js';
import { findFailedBuild } from '../cli/demo.js';
import { JenkinsHome } from './helpers/jenkinsHome.js';

describe('context upload --from-env', () => {
  it('reads Jenkins variables: the job and build, the rest as ciEnvironment', () => {
    const upload = contextFromEnv({
      JOB_NAME: 'team/api',
      BUILD_NUMBER: '42',
      BUILD_URL: 'http://ci/job/team/job/api/42/',
      NODE_NAME: 'agent-1',
      WORKSPACE: '/var/jenkins_home/workspace/team/api',
      HOME: '/root',
      SECRET_TOKEN: 'nope',
    });
    expect(upload.jobName).toBe('team/api');
    expect(upload.buildNumber).toBe(42);
    expect(upload.ciEnvironment).toEqual({
      JOB_NAME: 'team/api',
      BUILD_NUMBER: '42',
      BUILD_URL: 'http://ci/job/team/job/api/42/',
      NODE_NAME: 'agent-1',
      WORKSPACE: '/var/jenkins_home/workspace/team/api',
    });
  });

  it('reads GitHub Actions variables without inventing a Jenkins job', () => {
    const upload = contextFromEnv({ GITHUB_REPOSITORY: 'acme/api', GITHUB_RUN_ID: '991', GITHUB_SHA: 'abc', GITHUB_REF: 'refs/heads/main', GITHUB_WORKFLOW: 'ci' });
    expect(upload.jobName).toBeUndefined();
    expect(upload.buildNumber).toBeUndefined();
    expect(upload.ciEnvironment).toEqual({ GITHUB_REPOSITORY: 'acme/api', GITHUB_RUN_ID: '991', GITHUB_SHA: 'abc', GITHUB_REF: 'refs/heads/main', GITHUB_WORKFLOW: 'ci' });
    expect(contextFromEnv({ BUILD_NUMBER: 'lastFailed' }).buildNumber).toBeUndefined();
    expect(contextFromEnv({})).toEqual({});
  });
});

describe('tailOfLog', () => {
  it('keeps a small log whole and the end of a large one, cut at a line start', () => {
    expect(tailOfLog('a\nb\n', 100)).toEqual({ log: 'a\nb\n', cut: false });
    const log = Array.from({ length: 100 }, (_, i) => `line ${i + 1}`).join('\n');
    const { log: tail, cut } = tailOfLog(log, 50);
    expect(cut).toBe(true);
    expect(Buffer.byteLength(tail)).toBeLessThanOrEqual(50);
    expect(tail.endsWith('line 100')).toBe(true);
    expect(tail.split('\n')[0]).toMatch(/^line \d+$/);
    expect(log.endsWith(tail)).toBe(true);
  });
});

describe('uploadProgress', () => {
  function sink(): { stream: NodeJS.WriteStream; text: () => string } {
    let text = '';
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        text += chunk.toString();
        done();
      },
    }) as unknown as NodeJS.WriteStream;
    return { stream, text: () => text };
  }

  it('draws a bar up to 100% for a large body and ends the line', () => {
    const out = sink();
    const bar = uploadProgress('uploading', out.stream, true);
    const total = 8 * 1024 * 1024;
    bar.onProgress(total / 2, total);
    bar.onProgress(total, total);
    bar.finish();
    expect(out.text()).toContain('uploading [');
    expect(out.text()).toContain(' 50% 4.0/8.0 MiB');
    expect(out.text()).toMatch(/\[#{30}\] 100% 8\.0\/8\.0 MiB {2}indexing… 0\.\d s\u001b\[K\n$/);
  });

  it('stays silent for small bodies and when stderr is not a terminal', () => {
    const small = sink();
    const a = uploadProgress('x', small.stream, true);
    a.onProgress(1000, 1000);
    a.finish();
    expect(small.text()).toBe('');
    const off = sink();
    const b = uploadProgress('x', off.stream, false);
    b.onProgress(64 * 1024 * 1024, 64 * 1024 * 1024);
    b.finish();
    expect(off.text()).toBe('');
  });
});

describe('findFailedBuild (the demo chat of cichat serve)', () => {
  let jh: JenkinsHome;
  let home: string;
  const build = async (job: string[], n: number, result: string): Promise<void> => {
    await jh.build(job.join('/'), n, { number: n, result });
  };
  beforeEach(async () => {
    jh = await JenkinsHome.create();
    home = jh.home;
  });
  afterEach(() => jh.cleanup());

  it('prefers the newest failure of team/api, folders included', async () => {
    await build(['team', 'api'], 41, 'SUCCESS');
    await build(['team', 'api'], 42, 'FAILURE');
    await build(['team', 'api'], 40, 'FAILURE');
    await build(['other'], 99, 'FAILURE');
    expect(await findFailedBuild(home)).toEqual({ jobName: 'team/api', buildNumber: 42 });
  });

  it('falls back to any failed build, and to none', async () => {
    expect(await findFailedBuild(home)).toBeUndefined();
    await build(['hello'], 3, 'SUCCESS');
    expect(await findFailedBuild(home)).toBeUndefined();
    await build(['apps', 'web'], 7, 'FAILURE');
    expect(await findFailedBuild(home)).toEqual({ jobName: 'apps/web', buildNumber: 7 });
  });

  it('finds the failing build of the shipped seeds', async () => {
    expect(await findFailedBuild(path.join('seeds', 'jenkins-home'))).toEqual({ jobName: 'team/api', buildNumber: 42 });
  });
});

describe("the README's Jenkins pipeline snippet (issue 27)", () => {
  /** The shell script of the README's first `sh '''...'''` step. */
  const snippet = (): string => {
    const readme = fs.readFileSync('README.md', 'utf8');
    const m = /sh '''([\s\S]*?)'''/.exec(readme);
    if (!m?.[1]) throw new Error("no sh ''' step in README.md");
    return m[1];
  };

  /** Runs it with stand-ins: `curl` as given, a `cichat` that logs its calls and accepts anything (as the old one did). */
  function runSnippet(curl: string): { status: number | null; calls: string } {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-snippet-'));
    const calls = path.join(dir, 'calls');
    fs.writeFileSync(path.join(dir, 'curl'), `#!/bin/sh\n${curl}\n`, { mode: 0o755 });
    fs.writeFileSync(path.join(dir, 'cichat'), `#!/bin/sh\necho "$*" >> ${calls}\n[ "$1" = chats ] && echo 7\ncat > /dev/null\nexit 0\n`, { mode: 0o755 });
    const script = path.join(dir, 'step.sh');
    fs.writeFileSync(script, snippet(), { mode: 0o755 });
    // Jenkins runs a script that starts with #! by that interpreter, else with /bin/sh.
    const interpreter = /^#!(\S+)/.exec(snippet())?.[1] ?? '/bin/sh';
    const env = { PATH: `${dir}:${process.env.PATH ?? ''}`, JOB_NAME: 'team/api', BUILD_NUMBER: '7', BUILD_URL: 'http://ci/job/team/job/api/7/' };
    const r = spawnSync(interpreter, [script], { env, cwd: dir, encoding: 'utf8' });
    const out = { status: r.status, calls: fs.existsSync(calls) ? fs.readFileSync(calls, 'utf8') : '' };
    fs.rmSync(dir, { recursive: true, force: true });
    return out;
  }

  it('stops with an error when the download fails, before asking (pipefail), even if the upload accepted the empty input', () => {
    const failed = runSnippet('echo "curl: (22) The requested URL returned error: 404" >&2; exit 22');
    expect(failed.status).not.toBe(0);
    expect(failed.calls).toContain('context upload 7 --from-env --log -');
    expect(failed.calls).not.toContain('ask');
  });

  it('runs through when the download works', () => {
    const ok = runSnippet('echo "ERROR: boom"');
    expect(ok.status).toBe(0);
    expect(ok.calls).toContain('ask --chat 7 --no-stdin why did this build fail?');
  });
});
