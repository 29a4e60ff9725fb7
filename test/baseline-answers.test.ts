/**
 * Diagnosing against the last green build, end to end (issue 16): a JENKINS_HOME with a green
 * (#41) and a red (#42) build of the same job, the real controller in front of the real backend
 * (the offline engine, on SQLite and MariaDB). The controller finds #41 and sends its log; the
 * backend ranks the failure's excerpts against it (keeping only fingerprints); the answer leads
 * with the error that is new since #41 and sets aside the one #41 printed too.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type RunningController } from '../controller/app.js';
import type { Chat, CiContext } from '../protocol/types.js';
import { testDialects } from './helpers/databases.js';
import { type TestBackend } from './helpers/backend.js';
import { startInProcessStack } from './helpers/inProcessStack.js';
import { collectEvents, textOf } from './helpers/sse.js';

const dialects = await testDialects();

const PASS_LOG = [
  'Started by user admin',
  '[Pipeline] sh',
  '+ ./ci.sh',
  'Error: connect ECONNREFUSED 127.0.0.1:6379',
  '    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16)',
  'cache unavailable, continuing without it',
  '',
  '+ tsc -p .',
  '+ jest',
  'PASS src/sum.test.js (1.2 s)',
  'Tests: 4 passed, 4 total',
  'Finished: SUCCESS',
].join('\n');
const FAIL_LOG = [
  'Started by user admin',
  '[Pipeline] sh',
  '+ ./ci.sh',
  'Error: connect ECONNREFUSED 127.0.0.1:6379',
  '    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16)',
  'cache unavailable, continuing without it',
  '',
  '+ tsc -p .',
  "src/sum.ts(3,38): error TS2339: Property 'length' does not exist on type 'number'.",
  'ERROR: script returned exit code 2',
  'Finished: FAILURE',
].join('\n');

function writeBuild(buildsDir: string, n: number, result: string, log: string, changelog?: string): void {
  const dir = path.join(buildsDir, String(n));
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'build.xml'),
    `<?xml version='1.1' encoding='UTF-8'?>\n<build>\n  <timestamp>${1_795_000_000_000 + n}</timestamp>\n  <result>${result}</result>\n  <duration>60000</duration>\n</build>`,
  );
  fs.writeFileSync(path.join(dir, 'log'), log);
  if (changelog) fs.writeFileSync(path.join(dir, 'changelog.xml'), changelog);
}

describe.each(dialects)('answers against the last green build on $name', (dialect) => {
  let tmp: string;
  let backend: TestBackend;
  let controller: RunningController;
  const secret = randomBytes(32).toString('hex');

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-baseline-answers-'));
    const home = path.join(tmp, 'jenkins-home');
    for (const name of ['app', 'never']) {
      fs.mkdirSync(path.join(home, 'jobs', name), { recursive: true });
      fs.writeFileSync(path.join(home, 'jobs', name, 'config.xml'), "<?xml version='1.1' encoding='UTF-8'?>\n<flow-definition/>");
    }
    const builds = path.join(home, 'jobs/app/builds');
    writeBuild(builds, 41, 'SUCCESS', PASS_LOG);
    writeBuild(
      builds,
      42,
      'FAILURE',
      FAIL_LOG,
      'commit a1b2c3d4e5f60718\nauthor Alice <alice@example.org> 1795000000 +0000\n\n    Count lengths in sum()\n',
    );
    fs.writeFileSync(path.join(builds, 'permalinks'), 'lastSuccessfulBuild 41\nlastStableBuild 41\n');
    writeBuild(path.join(home, 'jobs/never/builds'), 1, 'FAILURE', FAIL_LOG);

    ({ backend, controller } = await startInProcessStack(dialect, {
      dir: tmp,
      secret,
      controllerEnv: { JENKINS_HOME: home, CONTROLLER_USER: 'dana' },
    }));
  });

  afterAll(async () => {
    await controller?.close(0);
    await backend?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const api = (p: string, body?: unknown): Promise<Response> =>
    fetch(`${controller.url}/chatbot-api${p}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body ?? {}),
    });

  async function chatFor(job: string, build: number): Promise<{ chat: Chat; stored: CiContext }> {
    const chat = (await (await api('/chats/', { title: `${job} #${build}` })).json()) as Chat;
    const res = await api(`/context/${chat.id}/`, { jobName: job, buildNumber: build });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { received_data: CiContext };
    return { chat, stored: body.received_data };
  }

  async function ask(chat: Chat, content: string): Promise<string> {
    const res = await api('/messages/send', { chat_id: chat.id, content });
    expect(res.status).toBe(200);
    return textOf(await collectEvents(res));
  }

  test('the failure answer leads with the error that is new since #41 and sets aside the one #41 printed too', async () => {
    const { chat, stored } = await chatFor('app', 42);
    const green = stored.buildDetails?.lastSuccessfulBuild;
    expect(green).toMatchObject({ number: 41, result: 'SUCCESS', comparedLogLines: PASS_LOG.split('\n').length });
    // The passing log is kept as fingerprints, not as text.
    expect(green).not.toHaveProperty('consoleLogTail');
    expect(JSON.stringify(stored)).not.toContain('PASS src/sum.test.js');

    const answer = await ask(chat, 'why did it fail?');
    const first = answer.split('\n\n')[0] ?? '';
    expect(first).toContain('TS2339');
    expect(answer).toContain('new since #41, which passed');
    expect(answer.indexOf('TS2339')).toBeLessThan(answer.indexOf('ECONNREFUSED'));
    expect(answer).toMatch(/also appears? in #41, which passed, so it is probably not the cause/);
    expect(answer).toContain('Count lengths in sum()');
  });

  test('"what changed since the last green build?" lists the new error blocks and the commits in between', async () => {
    const { chat } = await chatFor('app', 42);
    const answer = await ask(chat, 'what changed since the last green build?');
    expect(answer).toContain('Since #41, which passed');
    expect(answer).toMatch(/1 error block is new/);
    expect(answer).toContain('TS2339');
    expect(answer).toContain('1 other error block also appears in #41, so it is probably not the cause');
    expect(answer).toMatch(/1 commit\*\* since #41/);
    expect(answer).toContain('a1b2c3d4e5');
    expect(answer).toContain('(in #42)');
  });

  test('a job with no green build says so', async () => {
    const { chat, stored } = await chatFor('never', 1);
    // The controller sends `lastSuccessfulBuild: null`; the backend keeps what is known (nulls are "unknown").
    expect(stored.buildDetails?.lastSuccessfulBuild).toBeUndefined();
    expect(stored.buildDetails?.noSuccessfulBuild).toBe('#1 is the first build of never: no earlier build passed');
    const answer = await ask(chat, 'what changed since the last green build?');
    expect(answer).toContain('There is no green build to compare with');
    expect(answer).toContain('#1 is the first build of never');
  });
});
