/**
 * Context injection through the real controller: a JENKINS_HOME copied from the real fixture
 * files into a temp dir, and a node:http stand-in backend that records what it is sent.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { jwtVerify } from 'jose';
import type { RunningController } from '../controller/app.js';
import { JWT_AUDIENCE, JWT_ISSUER } from '../protocol/auth.js';
import type { CiContext } from '../protocol/types.js';
import { startTestController } from './helpers/inProcessStack.js';

const SECRET = randomBytes(32).toString('hex');
const SAMPLES = path.resolve('test/fixtures/jenkins-homes/samples');

interface Arrival {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let arrivals: Arrival[] = [];
const backend = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    arrivals.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(req.method === 'GET' ? '{"last_upload_at":null}' : '{"success":true,"received_data":{}}');
  });
});

let tmp: string;
let home: string;
let controller: RunningController;

beforeAll(async () => {
  await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve));
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-controller-context-'));
  home = path.join(tmp, 'jenkins-home');
  fs.cpSync(SAMPLES, home, { recursive: true });
  // A build whose build.xml is corrupt (truncated mid-element).
  fs.mkdirSync(path.join(home, 'jobs/j/builds/3'), { recursive: true });
  fs.writeFileSync(path.join(home, 'jobs/j/builds/3/build.xml'), "<?xml version='1.1' encoding='UTF-8'?>\n<build>\n  <result>FAIL");
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

async function upload(body: string | undefined, headers: Record<string, string> = { 'content-type': 'application/json' }, method = 'POST') {
  const res = await fetch(`${controller.url}/chatbot-api/context/5/`, { method, headers, body });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

function sentContext(): CiContext {
  expect(arrivals).toHaveLength(1);
  const sent = JSON.parse(arrivals[0]?.body ?? '{}') as { ciContext?: CiContext };
  expect(Object.keys(sent)).toEqual(['ciContext']);
  return sent.ciContext ?? {};
}

test('builds the context of the named job and build and sends {ciContext} to the same path with a JWT', async () => {
  const reply = await upload(JSON.stringify({ jobName: 'j', buildNumber: 2 }));
  expect(reply).toEqual({ status: 200, json: { success: true, received_data: {} } });
  expect(arrivals[0]?.method).toBe('POST');
  expect(arrivals[0]?.url).toBe('/context/5/');
  expect(arrivals[0]?.headers['content-type']).toBe('application/json');
  const { payload: claims } = await jwtVerify((arrivals[0]?.headers.authorization ?? '').slice(7), Buffer.from(SECRET, 'utf8'), {
    algorithms: ['HS256'],
    issuer: JWT_ISSUER,
    audience: JWT_AUDIENCE,
  });
  expect(claims.sub).toBe('carol');
  const ci = sentContext();
  expect(ci.ciVersion).toBe('1.480.1');
  expect(ci.currentScreen).toBe('Unknown Page');
  expect(ci.jobDetails?.fullName).toBe('j');
  expect(ci.buildDetails?.number).toBe(2);
  expect(ci.buildDetails?.result).toBe('SUCCESS');
  expect(typeof ci.buildDetails?.consoleLogTail).toBe('string');
  expect(ci.buildDetails?.consoleLog).toBeUndefined();
  // CONTRACT section 3: the canonical shape, activePlugins as the map of enabled plugins.
  expect(Object.keys(ci.activePlugins ?? {}).length).toBeGreaterThan(0);
  expect(ci.plugins?.length).toBeGreaterThanOrEqual(Object.keys(ci.activePlugins ?? {}).length);
});

test('a browser client sends {} and the job, build and screen come from the Referer (folders too)', async () => {
  await upload('{}', { 'content-type': 'application/json', referer: 'http://ci.example.com/jenkins/job/j/2/console' });
  let ci = sentContext();
  expect(ci.jobDetails?.fullName).toBe('j');
  expect(ci.buildDetails?.number).toBe(2);
  expect(ci.currentScreen).toBe('Console j #2');

  arrivals = [];
  await upload('{}', { 'content-type': 'application/json', referer: 'http://ci.example.com/job/foo/job/child1/' });
  ci = sentContext();
  expect(ci.jobDetails?.fullName).toBe('foo/child1');
  expect(ci.buildDetails).toBeUndefined();
  expect(ci.currentScreen).toBe('Job foo/child1');
});

test("the body's job wins over the Referer, whose build number is not mixed in; currentScreen from the body wins", async () => {
  await upload(JSON.stringify({ jobName: 'foo/child1', currentScreen: 'My page' }), {
    'content-type': 'application/json',
    referer: 'http://ci/job/j/2/console',
  });
  const ci = sentContext();
  expect(ci.jobDetails?.fullName).toBe('foo/child1');
  expect(ci.buildDetails).toBeUndefined();
  expect(ci.currentScreen).toBe('My page');
});

test("the caller's consoleLog travels as buildDetails.consoleLog; PUT is enriched like POST", async () => {
  const log = 'step 1\nERROR: boom\n';
  const reply = await upload(JSON.stringify({ jobName: 'j', buildNumber: '2', consoleLog: log }), undefined, 'PUT');
  expect(reply.status).toBe(200);
  expect(arrivals[0]?.method).toBe('PUT');
  const ci = sentContext();
  expect(ci.buildDetails?.consoleLog).toBe(log);
  expect(ci.buildDetails?.consoleLogTail).toBeUndefined();
});

test("the pipeline's variables (ciEnvironment) travel as ciContext.ciEnvironment; wrong types are 422", async () => {
  const env = { BUILD_URL: 'https://ci.example.com/job/j/2/', GIT_COMMIT: 'a'.repeat(40), GITHUB_RUN_ID: '42' };
  const reply = await upload(JSON.stringify({ jobName: 'j', buildNumber: 2, ciEnvironment: env }));
  expect(reply.status).toBe(200);
  expect(sentContext().ciEnvironment).toEqual(env);
  arrivals = [];
  for (const bad of [{ ciEnvironment: ['x'] }, { ciEnvironment: { BUILD_URL: 7 } }, { ciEnvironment: 'x' }]) {
    const r = await upload(JSON.stringify(bad));
    expect(r.status).toBe(422);
    expect(String(r.json.detail)).toMatch(/^ciEnvironment/);
  }
  expect(arrivals).toHaveLength(0);
});

test('an empty body without Content-Type is {} (nothing named: the global context)', async () => {
  const reply = await upload(undefined, {});
  expect(reply.status).toBe(200);
  const ci = sentContext();
  expect(ci.jobDetails).toBeUndefined();
  expect(ci.agentStats?.offlineAgents).toBe(1);
});

test.each([
  [{ jobName: 'no/such/job' }, /No job no\/such\/job in JENKINS_HOME.*no context was uploaded/, 'job_not_found'],
  [{ jobName: 'j', buildNumber: 99 }, /No build #99 of job j in JENKINS_HOME/, 'build_not_found'],
])('a job or build that does not exist is 404 {detail} and nothing is uploaded (%j)', async (body, detail, code) => {
  const reply = await upload(JSON.stringify(body));
  expect(reply.status).toBe(404);
  expect(reply.json.detail).toMatch(detail);
  // The machine-readable name the CLI acts on (cli/commands/ask.ts), beside the sentence.
  expect(reply.json.code).toBe(code);
  expect(arrivals).toHaveLength(0);
});

test('a job named without its folders, or as Jenkins shows it, is 404 naming the full name it may mean (ux3, session 42)', async () => {
  fs.mkdirSync(path.join(home, 'jobs/eng/jobs/platform/jobs/svc'), { recursive: true });
  fs.writeFileSync(path.join(home, 'jobs/eng/config.xml'), '<com.cloudbees.hudson.plugins.folder.Folder/>');
  fs.writeFileSync(path.join(home, 'jobs/eng/jobs/platform/config.xml'), '<com.cloudbees.hudson.plugins.folder.Folder/>');
  fs.writeFileSync(path.join(home, 'jobs/eng/jobs/platform/jobs/svc/config.xml'), '<flow-definition/>');
  for (const name of ['svc', 'eng » platform » svc', 'job/eng/job/platform/job/svc', 'ENG/Platform/svc']) {
    const reply = await upload(JSON.stringify({ jobName: name, buildNumber: 5 }));
    expect(reply.status).toBe(404);
    expect(reply.json.detail).toBe(`No job ${name} in JENKINS_HOME (did you mean eng/platform/svc?): no context was uploaded`);
  }
  expect(arrivals).toHaveLength(0);
});

test('buildNumber may be a permalink (cichat ask --job J without --build): resolved from JENKINS_HOME, a missing one is 404 (issue 27)', async () => {
  const reply = await upload(JSON.stringify({ jobName: 'downstream', buildNumber: 'lastCompletedBuild' }));
  expect(reply.status).toBe(200);
  expect(sentContext().buildDetails?.number).toBe(2);
  arrivals = [];
  const none = await upload(JSON.stringify({ jobName: 'downstream', buildNumber: 'lastFailedBuild' }));
  expect(none.status).toBe(404);
  expect(none.json.detail).toBe('Job downstream has no failed build (lastFailedBuild) in JENKINS_HOME: no context was uploaded');
  expect(none.json.code).toBe('build_not_found');
  expect(arrivals).toHaveLength(0);
  const ghost = await upload(JSON.stringify({ jobName: 'ghost', buildNumber: 'lastFailedBuild' }));
  expect(ghost.status).toBe(404);
  expect(ghost.json.detail).toMatch(/ghost.*no context was uploaded/);
  expect(ghost.json.code).toBe('job_not_found');
  const bad = await upload(JSON.stringify({ jobName: 'downstream', buildNumber: 'lastGreenBuild' }));
  expect(bad.status).toBe(422);
  expect(bad.json.detail).toMatch(/^buildNumber: must be a positive whole number or one of lastBuild, lastCompletedBuild, lastFailedBuild/);
});

test('an unknown job from the Referer is 404 too, saying where the name came from', async () => {
  const reply = await upload('{}', { 'content-type': 'application/json', referer: 'http://ci/job/ghost/3/' });
  expect(reply.status).toBe(404);
  expect(reply.json.detail).toMatch(/ghost.*taken from the Referer/);
});

test('a matrix configuration page with only a log.gz: its Referer names the run, the tail comes from the gzip', async () => {
  const conf = path.join(home, 'jobs/mx/configurations/axis-jdk/17');
  fs.mkdirSync(path.join(conf, 'builds/4'), { recursive: true });
  fs.writeFileSync(path.join(home, 'jobs/mx/config.xml'), "<?xml version='1.1' encoding='UTF-8'?>\n<matrix-project plugin=\"matrix-project@822\">\n  <axes/>\n</matrix-project>\n");
  fs.writeFileSync(path.join(conf, 'config.xml'), "<?xml version='1.1' encoding='UTF-8'?>\n<matrix-config/>\n");
  fs.writeFileSync(path.join(conf, 'builds/4/build.xml'), "<?xml version='1.1' encoding='UTF-8'?>\n<matrix-run>\n  <result>FAILURE</result>\n  <builtOn>linux-1</builtOn>\n</matrix-run>\n");
  fs.writeFileSync(path.join(conf, 'builds/4/log.gz'), gzipSync('javac: invalid target release: 17\nFinished: FAILURE\n'));
  const reply = await upload('{}', { 'content-type': 'application/json', referer: 'http://localhost:50076/jenkins/job/mx/jdk=17/4/console' });
  expect(reply.status).toBe(200);
  const ci = sentContext();
  expect(ci.currentScreen).toBe('Console mx/jdk=17 #4');
  expect(ci.jobDetails).toMatchObject({ fullName: 'mx/jdk=17', jobType: 'matrix-configuration', url: 'http://localhost:50076/jenkins/job/mx/jdk=17/' });
  expect(ci.buildDetails).toMatchObject({ number: 4, result: 'FAILURE', builtOnNode: 'linux-1', consoleLogTail: 'javac: invalid target release: 17\nFinished: FAILURE' });
});

test('a folder page with a build number is 404 saying folders have no builds', async () => {
  const reply = await upload('{}', { 'content-type': 'application/json', referer: 'http://localhost:50076/jenkins/job/foo/1/' });
  expect(reply.status).toBe(404);
  expect(reply.json.detail).toMatch(/foo is a folder and has no builds of its own.*taken from the Referer/);
  expect(arrivals).toHaveLength(0);
});

test('a corrupt build.xml is uploaded with an error note in buildDetails, not a failure', async () => {
  const reply = await upload(JSON.stringify({ jobName: 'j', buildNumber: 3 }));
  expect(reply.status).toBe(200);
  const ci = sentContext();
  expect(ci.jobDetails?.fullName).toBe('j');
  expect(String(ci.buildDetails?.error)).toMatch(/corrupt|XML|parse/i);
});

test.each([
  ['text/plain', 'jobName=j', 415, /must be JSON/],
  ['application/x-www-form-urlencoded', 'jobName=j', 415, /must be JSON/],
  ['application/json', '{"jobName": ', 400, /not valid JSON/],
  ['application/json', '[1,2]', 400, /JSON object/],
  ['application/json', '"j"', 400, /JSON object/],
  ['application/json', '{"buildNumber":"abc","jobName":"j"}', 422, /^buildNumber: /],
  ['application/json', '{"buildNumber":-1,"jobName":"j"}', 422, /^buildNumber: /],
  ['application/json', '{"jobName":42}', 422, /^jobName: must be a string/],
])('Content-Type %s with body %s is %i {detail}, nothing is uploaded', async (type, body, status, detail) => {
  const reply = await upload(body, { 'content-type': type });
  expect(reply.status).toBe(status);
  expect(reply.json.detail).toMatch(detail);
  expect(arrivals).toHaveLength(0);
});

test('a body declared over 64 MiB is 413 before it is read', async () => {
  const status = await new Promise<number>((resolve, reject) => {
    const req = http.request(
      `${controller.url}/chatbot-api/context/5/`,
      { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(65 * 1024 * 1024) }, agent: false },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
        req.destroy();
      },
    );
    req.on('error', (err) => (String(err).includes('EPIPE') || String(err).includes('ECONNRESET') ? undefined : reject(err)));
    req.write('{"consoleLog":"');
  });
  expect(status).toBe(413);
  expect(arrivals).toHaveLength(0);
});

test('GET on a context path is a plain proxied request', async () => {
  const res = await fetch(`${controller.url}/chatbot-api/context/5/last-upload`);
  expect(await res.json()).toEqual({ last_upload_at: null });
  expect(arrivals[0]?.url).toBe('/context/5/last-upload');
  expect(arrivals[0]?.body).toBe('');
});

test('a 2 GB build log: only its tail is read and sent', async () => {
  const dir = path.join(home, 'jobs/j/builds/2');
  const logFile = path.join(dir, 'log');
  const original = fs.readFileSync(logFile);
  try {
    fs.truncateSync(logFile, 2 * 1024 ** 3); // sparse: costs no disk
    const lines = Array.from({ length: 1500 }, (_, i) => `tail line ${i + 1}`).join('\n') + '\n';
    fs.appendFileSync(logFile, lines);
    const reply = await upload(JSON.stringify({ jobName: 'j', buildNumber: 2 }));
    expect(reply.status).toBe(200);
    const tail = sentContext().buildDetails?.consoleLogTail ?? '';
    expect(tail).toContain('tail line 1500');
    expect(tail).not.toContain('tail line 500\n');
    expect(tail.split('\n').filter((l) => l !== '').length).toBeLessThanOrEqual(1000);
  } finally {
    fs.writeFileSync(logFile, original);
  }
});

test('the workspace routes are mounted under /chatbot-api and answered here, not by the backend', async () => {
  const res = await fetch(`${controller.url}/chatbot-api/workspaceTree?buildNumber=2`);
  expect(res.status).toBe(400);
  expect(await res.json()).toEqual({ status: 'error', message: expect.stringMatching(/jobName/) as unknown as string });
  const file = await fetch(`${controller.url}/chatbot-api/workspaceFile?jobName=j&buildNumber=2&workspaceId=ws-default&filePath=../../etc/passwd`);
  expect(file.status).toBe(400);
  expect(((await file.json()) as { message: string }).message).toContain('Path traversal');
  expect(arrivals).toHaveLength(0);
});
