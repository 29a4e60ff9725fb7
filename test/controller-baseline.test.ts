/**
 * The last green build through the controller's context route (issue 16): a JENKINS_HOME with
 * green and red builds of the same jobs (a plain job, a job in a folder, a multibranch branch,
 * old timestamp-named build folders, a job that never passed, a green build whose folder leads
 * out of the home), and a node:http stand-in backend that records the `{ciContext}` it is sent.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { RunningController } from '../controller/app.js';
import type { BuildDetails, CiContext } from '../protocol/types.js';
import { startTestController } from './helpers/inProcessStack.js';

const SECRET = randomBytes(32).toString('hex');

let arrivals: string[] = [];
const backend = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    arrivals.push(Buffer.concat(chunks).toString());
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"success":true,"received_data":{}}');
  });
});

let tmp: string;
let home: string;
let controller: RunningController;

const PASS_LOG = [
  'Started by user admin',
  '[Pipeline] sh',
  '+ ./ci.sh',
  'bash: shellcheck: command not found',
  'npm WARN deprecated request@2.88.2: request has been deprecated',
  'PASS src/sum.test.js (1.2 s)',
  'Tests: 4 passed, 4 total',
  'Finished: SUCCESS',
].join('\n');
const FAIL_LOG = [
  'Started by user admin',
  '[Pipeline] sh',
  '+ ./ci.sh',
  'bash: shellcheck: command not found',
  'npm WARN deprecated request@2.88.2: request has been deprecated',
  "src/sum.ts(3,38): error TS2339: Property 'length' does not exist on type 'number'.",
  'ERROR: script returned exit code 2',
  'Finished: FAILURE',
].join('\n');

function buildXml(result: string, number?: number, timestamp = 1_795_000_000_000): string {
  return [
    "<?xml version='1.1' encoding='UTF-8'?>",
    '<build>',
    number !== undefined ? `  <number>${number}</number>` : '',
    `  <timestamp>${timestamp}</timestamp>`,
    `  <result>${result}</result>`,
    '  <duration>61000</duration>',
    '</build>',
  ].join('\n');
}

function build(buildsDir: string, folder: string | number, result: string, log: string, extra: { number?: number; changelog?: string; gzip?: boolean } = {}): void {
  const dir = path.join(buildsDir, String(folder));
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'build.xml'), buildXml(result, extra.number));
  if (extra.gzip) fs.writeFileSync(path.join(dir, 'log.gz'), gzipSync(log));
  else fs.writeFileSync(path.join(dir, 'log'), log);
  if (extra.changelog) fs.writeFileSync(path.join(dir, 'changelog.xml'), extra.changelog);
}

function job(dir: string, kind = 'flow-definition'): string {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'config.xml'), `<?xml version='1.1' encoding='UTF-8'?>\n<${kind}/>`);
  return path.join(dir, 'builds');
}

const commit = (sha: string, who: string, message: string): string =>
  `commit ${sha}\ntree 0000000\nauthor ${who} <${who}@example.org> 1795000000 +0000\ncommitter ${who} <${who}@example.org> 1795000000 +0000\n\n    ${message}\n\n`;

beforeAll(async () => {
  await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve));
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-controller-baseline-'));
  home = path.join(tmp, 'jenkins-home');
  fs.mkdirSync(home);
  fs.writeFileSync(path.join(home, 'config.xml'), "<?xml version='1.1' encoding='UTF-8'?>\n<hudson><version>2.440.1</version></hudson>");

  // app: 40 green, 41 green (the permalink), 42 red with a commit, 43 red with another.
  const app = job(path.join(home, 'jobs/app'));
  build(app, 40, 'SUCCESS', PASS_LOG);
  build(app, 41, 'SUCCESS', PASS_LOG);
  build(app, 42, 'FAILURE', FAIL_LOG, { changelog: commit('a1b2c3d4e5f6', 'alice', 'Count lengths in sum()') });
  build(app, 43, 'UNSTABLE', FAIL_LOG, { changelog: commit('0f9e8d7c6b5a', 'bob', 'Retry flaky upload') });
  fs.writeFileSync(path.join(app, 'permalinks'), 'lastSuccessfulBuild 41\nlastStableBuild 41\nlastFailedBuild 42\n');

  // team/api (a folder): no permalinks file, 7 green, 8 unstable, 9 red: found by a scan.
  const api = job(path.join(home, 'jobs/team/jobs/api'));
  fs.writeFileSync(path.join(home, 'jobs/team/config.xml'), "<?xml version='1.1' encoding='UTF-8'?>\n<com.cloudbees.hudson.plugins.folder.Folder/>");
  build(api, 7, 'SUCCESS', PASS_LOG);
  build(api, 8, 'UNSTABLE', FAIL_LOG);
  build(api, 9, 'FAILURE', FAIL_LOG);

  // shop (multibranch), branch main: the permalink names a build after the red one, so the
  // last green build *before* it is found by a scan.
  fs.mkdirSync(path.join(home, 'jobs/shop'), { recursive: true });
  fs.writeFileSync(
    path.join(home, 'jobs/shop/config.xml'),
    "<?xml version='1.1' encoding='UTF-8'?>\n<org.jenkinsci.plugins.workflow.multibranch.WorkflowMultiBranchProject/>",
  );
  const main = job(path.join(home, 'jobs/shop/branches/main'));
  build(main, 3, 'SUCCESS', PASS_LOG);
  build(main, 4, 'FAILURE', FAIL_LOG);
  build(main, 5, 'SUCCESS', PASS_LOG);
  fs.writeFileSync(path.join(main, 'permalinks'), 'lastSuccessfulBuild 5\nlastStableBuild 5\n');

  // flaky: the lastSuccessfulBuild permalink names an UNSTABLE build, which is not green; with
  // lastStableBuild recorded it decides, without it the builds below are scanned.
  const flaky = job(path.join(home, 'jobs/flaky'));
  build(flaky, 5, 'SUCCESS', PASS_LOG);
  build(flaky, 6, 'UNSTABLE', FAIL_LOG);
  build(flaky, 7, 'FAILURE', FAIL_LOG);
  fs.writeFileSync(path.join(flaky, 'permalinks'), 'lastSuccessfulBuild 6\nlastStableBuild 5\n');
  const flaky2 = job(path.join(home, 'jobs/flaky2'));
  build(flaky2, 5, 'SUCCESS', PASS_LOG);
  build(flaky2, 6, 'UNSTABLE', FAIL_LOG);
  build(flaky2, 7, 'FAILURE', FAIL_LOG);
  fs.writeFileSync(path.join(flaky2, 'permalinks'), 'lastSuccessfulBuild 6\n');

  // legacy: old cores' timestamp-named build folders (the number only in build.xml); the green
  // build's log compressed (log.gz, the compress-buildlog plugin).
  const legacy = job(path.join(home, 'jobs/legacy'), 'project');
  build(legacy, '2017-01-09_09-19-54', 'SUCCESS', PASS_LOG, { number: 11, gzip: true });
  build(legacy, '2017-01-10_10-00-00', 'FAILURE', FAIL_LOG, { number: 12 });

  // never: red from the first build on.
  const never = job(path.join(home, 'jobs/never'));
  build(never, 1, 'FAILURE', FAIL_LOG);
  build(never, 2, 'FAILURE', FAIL_LOG);

  // escape: the green build's folder is a link out of the home; it must not be read.
  const outside = path.join(tmp, 'outside-build');
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(outside, 'build.xml'), buildXml('SUCCESS'));
  fs.writeFileSync(path.join(outside, 'log'), 'SECRET FROM OUTSIDE THE HOME');
  const escape = job(path.join(home, 'jobs/escape'));
  fs.mkdirSync(escape, { recursive: true });
  fs.symlinkSync(outside, path.join(escape, '5'));
  build(escape, 4, 'SUCCESS', PASS_LOG);
  build(escape, 6, 'FAILURE', FAIL_LOG);
  fs.writeFileSync(path.join(escape, 'permalinks'), 'lastSuccessfulBuild 5\nlastStableBuild 5\n');

  controller = await startTestController({
    JWT_SECRET: SECRET,
    DATA_DIR: path.join(tmp, 'data'),
    JENKINS_HOME: home,
    BACKEND_URL: `http://127.0.0.1:${(backend.address() as AddressInfo).port}`,
    CONTROLLER_USER: 'carol',
  });
});

afterAll(async () => {
  await controller.close(0);
  backend.closeAllConnections();
  await new Promise<void>((resolve) => backend.close(() => resolve()));
  fs.rmSync(tmp, { recursive: true, force: true });
});

beforeEach(() => {
  arrivals = [];
});

async function contextOf(body: Record<string, unknown>): Promise<BuildDetails> {
  const res = await fetch(`${controller.url}/chatbot-api/context/5/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  expect(arrivals).toHaveLength(1);
  const sent = JSON.parse(arrivals[0] ?? '{}') as { ciContext: CiContext };
  return sent.ciContext.buildDetails ?? {};
}

test('a failed build names its last green build (the permalink), with its result, time, log end and the commits since', async () => {
  const details = await contextOf({ jobName: 'app', buildNumber: 42 });
  expect(details.result).toBe('FAILURE');
  const green = details.lastSuccessfulBuild;
  expect(green).toMatchObject({ number: 41, result: "SUCCESS", duration: 61000 });
  expect(green?.timestamp).toBe(new Date(1_795_000_000_000).toISOString());
  expect(green?.consoleLogTail).toBe(PASS_LOG);
  expect(green?.changesSince).toEqual([expect.objectContaining({ commitId: 'a1b2c3d4e5f6', author: 'alice', message: 'Count lengths in sum()', build: 42 })]);
});

test('an unstable build gets it too, with the commits of every build since the green one, newest first', async () => {
  const details = await contextOf({ jobName: 'app', buildNumber: 43 });
  expect(details.lastSuccessfulBuild?.number).toBe(41);
  expect(details.lastSuccessfulBuild?.changesSince?.map((c) => [c.build, c.commitId])).toEqual([
    [43, '0f9e8d7c6b5a'],
    [42, 'a1b2c3d4e5f6'],
  ]);
});

test('a green build gets no baseline', async () => {
  const details = await contextOf({ jobName: 'app', buildNumber: 41 });
  expect(details.result).toBe('SUCCESS');
  expect(details).not.toHaveProperty('lastSuccessfulBuild');
});

test('a job in a folder without permalinks: the newest SUCCESS below the build, an UNSTABLE one is not green', async () => {
  const details = await contextOf({ jobName: 'team/api', buildNumber: 9 });
  expect(details.lastSuccessfulBuild).toMatchObject({ number: 7, result: 'SUCCESS', consoleLogTail: PASS_LOG });
});

test('a multibranch branch whose permalink is newer than the red build: the green build before it', async () => {
  const details = await contextOf({ jobName: 'shop/main', buildNumber: 4 });
  expect(details.lastSuccessfulBuild).toMatchObject({ number: 3, result: 'SUCCESS' });
});

test('an UNSTABLE build named by the lastSuccessfulBuild permalink is not the baseline', async () => {
  expect((await contextOf({ jobName: 'flaky', buildNumber: 7 })).lastSuccessfulBuild).toMatchObject({ number: 5, result: 'SUCCESS' });
  arrivals = [];
  expect((await contextOf({ jobName: 'flaky2', buildNumber: 7 })).lastSuccessfulBuild).toMatchObject({ number: 5, result: 'SUCCESS' });
});

test('timestamp-named build folders of old cores, a compressed log', async () => {
  const details = await contextOf({ jobName: 'legacy', buildNumber: 12 });
  expect(details.lastSuccessfulBuild).toMatchObject({ number: 11, result: 'SUCCESS', consoleLogTail: PASS_LOG });
});

test('a job that never passed says so', async () => {
  const details = await contextOf({ jobName: 'never', buildNumber: 2 });
  expect(details.lastSuccessfulBuild).toBeNull();
  expect(details.noSuccessfulBuild).toBe('No build of never before #2 succeeded (1 looked at)');
  arrivals = [];
  const first = await contextOf({ jobName: 'never', buildNumber: 1 });
  expect(first.lastSuccessfulBuild).toBeNull();
  expect(first.noSuccessfulBuild).toBe('#1 is the first build of never: no earlier build passed');
});

test('a green build folder that leads out of JENKINS_HOME is never read: the one before it is the baseline', async () => {
  const details = await contextOf({ jobName: 'escape', buildNumber: 6 });
  expect(details.lastSuccessfulBuild).toMatchObject({ number: 4, consoleLogTail: PASS_LOG });
  expect(arrivals[0]).not.toContain('SECRET FROM OUTSIDE');
});

test("the caller's own passing log (--baseline-log) replaces the one on disk, with or without a job", async () => {
  const details = await contextOf({ jobName: 'app', buildNumber: 42, baselineLog: 'my passing log' });
  expect(details.lastSuccessfulBuild).toMatchObject({ number: 41, consoleLog: 'my passing log' });
  expect(details.lastSuccessfulBuild).not.toHaveProperty('consoleLogTail');
  arrivals = [];
  const bare = await contextOf({ consoleLog: FAIL_LOG, baselineLog: PASS_LOG });
  expect(bare).toEqual({ consoleLog: FAIL_LOG, lastSuccessfulBuild: { consoleLog: PASS_LOG } });
});

test('a baselineLog that is not a string is 422 naming the field', async () => {
  const res = await fetch(`${controller.url}/chatbot-api/context/5/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ baselineLog: 42 }),
  });
  expect(res.status).toBe(422);
  expect(await res.json()).toEqual({ detail: 'baselineLog: must be a string' });
  expect(arrivals).toHaveLength(0);
});
