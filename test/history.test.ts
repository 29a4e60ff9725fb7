/**
 * Issue 29: a failure against the job's history, read from homes with long histories written as
 * Jenkins writes them (test/helpers/historyHome.ts): new, recurring, fixed and back, a flaky test,
 * the same failure in a sibling job; through the controller's `GET /chatbot-api/history`, the
 * context upload's `buildDetails.history`, and the index kept in DATA_DIR/history.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { jobHistory, indexFileOf } from '../jenkins/history.js';
import { buildCiContext } from '../jenkins/context.js';
import { compileLog, testLog, writeHistoryBuild, type HistoryBuild } from './helpers/historyHome.js';
import { makeHome, makeJob } from './helpers/watchHome.js';
import { startTestController } from './helpers/inProcessStack.js';
import { runCli } from './helpers/stack.js';

let home: string;
let cache: string;
const T0 = Date.UTC(2026, 10, 1);
const sha = (n: number): string => n.toString(16).padStart(8, '0').repeat(5);

/** Builds 1..n of a job, each spec from `at(n)`. */
function job(name: string, n: number, at: (i: number) => Partial<HistoryBuild>): string {
  const dir = makeJob(home, name);
  for (let i = 1; i <= n; i++) writeHistoryBuild(dir, { number: i, result: 'SUCCESS', commit: sha(i), changes: 1, timestamp: T0 + i * 3_600_000, ...at(i) });
  return dir;
}

const missing = (i: number): Partial<HistoryBuild> => ({ result: 'FAILURE', log: compileLog('getTotal', 'src/main/java/com/acme/Orders.java', 40 + i) });
const other = (): Partial<HistoryBuild> => ({ result: 'FAILURE', log: compileLog('getName', 'src/main/java/com/acme/Users.java', 12) });

beforeAll(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-history-'));
  cache = path.join(home, '..', `${path.basename(home)}-cache`);
  makeHome(home);
  // new: passes, one other failure long ago, then this failure for the first time in #30
  job('app-new', 30, (i) => (i === 10 ? other() : i === 30 ? missing(i) : {}));
  // recurring: green until #21 (commit of #21 broke it), failing since, line numbers moving
  job('app-recurring', 30, (i) => (i >= 21 ? { ...missing(i), changes: 1 } : {}));
  // fixed and back: failing 10-12, fixed in 13 (with a change), back in 25 after a change
  job('app-back', 30, (i) => (i >= 10 && i <= 12 ? missing(i) : i >= 25 ? missing(i) : {}));
  // a flaky test: OrdersTest.rounding fails now and then on commits that also passed
  job('app-flaky', 30, (i) => {
    const commit = sha(Math.floor(i / 3));
    const fails = i % 7 === 0 || i === 30;
    return { commit, changes: i % 3 === 0 ? 1 : 0, result: fails ? 'UNSTABLE' : 'SUCCESS', log: fails ? testLog(['com.acme.OrdersTest.rounding']) : undefined, tests: { 'com.acme.OrdersTest.rounding': fails, 'com.acme.OrdersTest.total': false } };
  });
  // siblings in a folder: the same dependency failure in both, in the same period
  const dep = (i: number): Partial<HistoryBuild> =>
    i >= 8 ? { result: 'FAILURE', log: `+ mvn -B package\n[ERROR] Failed to execute goal on project svc: Could not resolve dependencies for project com.acme:svc:jar:1.0: Could not find artifact com.acme:shared:jar:2.${i} in central\nFinished: FAILURE\n` } : {};
  job('team/svc-a', 10, dep);
  job('team/svc-b', 10, dep);
});

afterAll(() => {
  fs.rmSync(home, { recursive: true, force: true });
  fs.rmSync(cache, { recursive: true, force: true });
});

const history = async (name: string, build?: number) => (await jobHistory(name, { jenkinsHome: home, cacheDir: cache, ...(build ? { build } : {}) })).current?.history;

it('new: first seen in this build, the earlier builds named', async () => {
  const h = await history('app-new');
  expect(h).toMatchObject({ verdict: 'new', firstSeen: 30, seenInLast: 1, window: 30, evidenceBuilds: [30] });
  expect(h?.reason).toMatch(/None of the 29 earlier builds/);
});

it('recurring: failing since the build that broke it, whatever line numbers the message carries', async () => {
  const h = await history('app-recurring');
  expect(h).toMatchObject({ verdict: 'recurring', failingSince: 21, streak: 10, seenInLast: 10, firstAfterCommit: sha(21) });
  expect(h?.evidenceBuilds).toContain(21);
  // asked about an older build of the run: the run up to it
  expect(await history('app-recurring', 23)).toMatchObject({ verdict: 'recurring', failingSince: 21, streak: 3 });
});

it('fixed and back: the earlier occurrence, the pass and the return are the evidence', async () => {
  const h = await history('app-back');
  expect(h).toMatchObject({ verdict: 'fixed-and-back', firstSeen: 10, failingSince: 25, streak: 6 });
  expect(h?.evidenceBuilds).toEqual([12, 24, 25]);
});

it('flaky: the failed test passed on a commit it also failed on', async () => {
  const h = await history('app-flaky');
  expect(h?.verdict).toBe('flaky');
  const t = h?.tests?.find((x) => x.name === 'com.acme.OrdersTest.rounding');
  expect(t).toMatchObject({ verdict: 'flaky' });
  expect(t?.failedIn).toEqual([7, 14, 21, 28, 30]);
  expect(t?.sameCommitPass).toBeDefined();
});

it('the same failure in a sibling job of the folder during the period (as its index knows it)', async () => {
  expect((await history('team/svc-a'))?.otherJobs).toBeUndefined();
  await history('team/svc-b');
  const h = await history('team/svc-a');
  expect(h?.verdict).toBe('recurring');
  expect(h?.otherJobs).toEqual([{ job: 'team/svc-b', builds: [8, 9, 10] }]);
});

it('a passing newest build: no failure to judge, the builds still listed', async () => {
  const dir = job('app-green', 5, () => ({}));
  expect(dir).toBeTruthy();
  const found = await jobHistory('app-green', { jenkinsHome: home, cacheDir: cache });
  expect(found.current).toBeUndefined();
  expect(found.builds.map((b) => b.number)).toEqual([5, 4, 3, 2, 1]);
});

it('the index: a second look reads no build; a new build is read alone; a broken index is rebuilt', async () => {
  const first = await jobHistory('app-recurring', { jenkinsHome: home, cacheDir: cache });
  const again = await jobHistory('app-recurring', { jenkinsHome: home, cacheDir: cache });
  expect(again.readBuilds).toBe(0);
  expect(again.current?.history).toEqual(first.current?.history);
  const dir = path.join(home, 'jobs', 'app-recurring');
  writeHistoryBuild(dir, { number: 31, result: 'FAILURE', commit: sha(31), changes: 1, timestamp: T0 + 31 * 3_600_000, log: compileLog('getTotal', 'src/main/java/com/acme/Orders.java', 77) });
  const next = await jobHistory('app-recurring', { jenkinsHome: home, cacheDir: cache });
  expect(next.readBuilds).toBe(1);
  expect(next.current).toMatchObject({ build: 31, history: { verdict: 'recurring', streak: 11 } });
  const file = indexFileOf(cache, 'app-recurring');
  expect((fs.statSync(file).mode & 0o777).toString(8)).toBe('600');
  fs.writeFileSync(file, '{"version":1,"job":"app-recurring","builds":[{"number":"x"}');
  const rebuilt = await jobHistory('app-recurring', { jenkinsHome: home, cacheDir: cache });
  expect(rebuilt.readBuilds).toBe(31);
  expect(rebuilt.current?.history).toEqual(next.current?.history);
});

it('the window bounds what is read', async () => {
  const found = await jobHistory('app-back', { jenkinsHome: home, window: 5 });
  expect(found.builds).toHaveLength(5);
  // only 26-30 looked at: the return since 25 is all it can see
  expect(found.current?.history).toMatchObject({ verdict: 'recurring', window: 5, firstBuildLooked: 26 });
});

it('the context of a failed build carries buildDetails.history', async () => {
  const ctx = await buildCiContext({ jenkinsHome: home, jobName: 'app-recurring', buildNumber: 25, history: { cacheDir: cache } });
  expect(ctx.buildDetails?.history).toMatchObject({ verdict: 'recurring', failingSince: 21 });
  const green = await buildCiContext({ jenkinsHome: home, jobName: 'app-recurring', buildNumber: 5, history: { cacheDir: cache } });
  expect(green.buildDetails?.history).toBeUndefined();
});

describe('GET /chatbot-api/history', () => {
  it('answers the builds and the verdict; unknown job 404; bad window 422', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-history-data-'));
    const controller = await startTestController({ JENKINS_HOME: home, DATA_DIR: dataDir, BACKEND_URL: 'http://127.0.0.1:9', JWT_SECRET: 'x'.repeat(40), LOG_LEVEL: 'silent' });
    try {
      const base = `${controller.url}/chatbot-api/history`;
      const ok = await fetch(`${base}?jobName=app-back&buildNumber=lastFailedBuild`);
      expect(ok.status).toBe(200);
      const body = (await ok.json()) as { build: number; history: { verdict: string }; builds: unknown[]; window: number };
      expect(body).toMatchObject({ build: 30, history: { verdict: 'fixed-and-back' }, window: 50 });
      expect(body.builds).toHaveLength(30);
      expect(fs.readdirSync(path.join(dataDir, 'history')).length).toBeGreaterThan(0);
      expect((await fetch(`${base}?jobName=nope`)).status).toBe(404);
      const bad = await fetch(`${base}?jobName=app-back&window=1`);
      expect(bad.status).toBe(422);
      expect(((await bad.json()) as { detail: string }).detail).toMatch(/window/);
      // cichat history: the builds and the verdict with its evidence; --json the same answer
      const env = { PATH: process.env.PATH, HOME: process.env.HOME, CICHAT_URL: controller.url, NO_COLOR: '1' };
      const text = await runCli(['history', 'app-back'], { env });
      expect(text.code).toBe(0);
      expect(text.stdout).toMatch(/#30 +FAILURE/);
      expect(text.stdout).toMatch(/#30: fixed and back .*seen in 9 of the 30 builds looked at/);
      expect(text.stdout).toMatch(/evidence: #12, #24, #25/);
      const json = await runCli(['history', 'app-flaky', '--build', '28', '--json'], { env });
      expect(JSON.parse(json.stdout)).toMatchObject({ build: 28, history: { verdict: 'flaky' } });
      const unknown = await runCli(['history', 'nope'], { env });
      expect(unknown.code).toBe(1);
    } finally {
      await controller.close(0);
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
