/**
 * The failed-build detector on real homes on disk, with real fs.watch events and the rescan.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { FailedBuildDetector, type CompletedFailure, type DetectorOptions } from '../controller/watch/detector.js';
import { jobMatcher } from '../controller/watch/glob.js';
import { WatchStore } from '../controller/watch/store.js';
import { until } from './helpers/poll.js';
import { buildXml, makeBranch, makeHome, makeJob, writeBuild } from './helpers/watchHome.js';

const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });

interface Running {
  detector: FailedBuildDetector;
  store: WatchStore;
  seen: CompletedFailure[];
}

let tmp: string;
let home: string;
let dataDir: string;
const running: FailedBuildDetector[] = [];

beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-watch-'));
  home = path.join(tmp, 'home');
  dataDir = path.join(tmp, 'data');
  makeHome(home);
});

afterEach(() => {
  for (const d of running.splice(0)) d.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function start(extra: Partial<DetectorOptions> = {}, patterns: string[] = []): Promise<Running> {
  const store = new WatchStore(dataDir, logger);
  const seen: CompletedFailure[] = [];
  const detector = new FailedBuildDetector({
    jenkinsHome: home,
    store,
    matches: jobMatcher(patterns),
    rescanMs: 3_600_000,
    logger,
    onFailure: (f) => {
      seen.push(f);
      store.work.queue.push({ key: `${f.job}#${f.build}`, job: f.job, build: f.build, result: f.result, detectedAt: new Date().toISOString(), attempts: 0, chats: {} });
    },
    settleMs: 20,
    ...extra,
  });
  running.push(detector);
  await detector.start();
  return { detector, store, seen };
}

function stop(r: Running): void {
  r.detector.close();
  r.store.flushAll();
}

const keys = (seen: CompletedFailure[]) => seen.map((f) => `${f.job}#${f.build} ${f.result}`).sort();

describe('failed-build detector', () => {
  it('announces a build that fails after start, once, and none that were there before', async () => {
    const app = makeJob(home, 'app');
    writeBuild(app, { number: 1, result: 'FAILURE' });
    const r = await start();
    writeBuild(app, { number: 2, result: 'SUCCESS' });
    writeBuild(app, { number: 3, result: 'FAILURE' });
    await until('build 3 announced', () => (r.seen.length > 0 ? true : undefined), { timeoutMs: 20_000 });
    await r.detector.rescan();
    await r.detector.idle();
    expect(keys(r.seen)).toEqual(['app#3 FAILURE']);
  });

  it('waits for a running build until build.xml has its result (pipelines, folders, multibranch, unstable)', async () => {
    const api = makeJob(home, 'team/api', 'pipeline');
    const branch = makeBranch(home, 'org/repo', 'feature/x');
    const r = await start();
    const dir = path.join(api, 'builds', '1');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'log'), 'Started\n');
    fs.writeFileSync(path.join(dir, 'build.xml'), buildXml({ number: 1, kind: 'pipeline' }));
    writeBuild(branch, { number: 1, result: 'UNSTABLE', kind: 'pipeline' });
    await until('the branch build announced', () => (r.seen.length > 0 ? true : undefined), { timeoutMs: 20_000 });
    await r.detector.idle();
    expect(keys(r.seen)).toEqual(['org/repo/feature%2Fx#1 UNSTABLE']);
    expect(r.store.jobsState.jobs['team/api']?.pending).toEqual([1]);
    // The pipeline ends: Jenkins replaces build.xml with the final one.
    fs.writeFileSync(path.join(dir, 'build.xml.tmp'), buildXml({ number: 1, kind: 'pipeline', result: 'FAILURE' }));
    fs.renameSync(path.join(dir, 'build.xml.tmp'), path.join(dir, 'build.xml'));
    await until('the pipeline build announced', () => (r.seen.length > 1 ? true : undefined), { timeoutMs: 20_000 });
    expect(keys(r.seen)).toEqual(['org/repo/feature%2Fx#1 UNSTABLE', 'team/api#1 FAILURE']);
    expect(r.store.jobsState.jobs['team/api']?.pending).toBeUndefined();
  });

  it('follows jobs created while it runs from their first build', async () => {
    const r = await start();
    const fresh = makeJob(home, 'newcomer');
    // Give the event of the new job folder time to be seen before the build appears.
    await until('the new job followed', () => (r.detector.jobCount === 1 ? true : undefined), { timeoutMs: 20_000 });
    writeBuild(fresh, { number: 1, result: 'FAILURE' });
    await until('build 1 of the new job announced', () => (r.seen.length > 0 ? true : undefined), { timeoutMs: 20_000 });
    expect(keys(r.seen)).toEqual(['newcomer#1 FAILURE']);
  });

  it('remembers across a restart: nothing twice, and builds that ended while it was down', async () => {
    const app = makeJob(home, 'app');
    const first = await start();
    writeBuild(app, { number: 1, result: 'FAILURE' });
    await until('build 1 announced', () => (first.seen.length > 0 ? true : undefined), { timeoutMs: 20_000 });
    stop(first);
    writeBuild(app, { number: 2, result: 'UNSTABLE' });
    const second = await start();
    await second.detector.idle();
    expect(keys(second.seen)).toEqual(['app#2 UNSTABLE']);
    stop(second);
    const third = await start();
    await third.detector.rescan();
    expect(third.seen).toEqual([]);
  });

  it('recognises a queued build when jobs.json lost its progress (a crash before its write)', async () => {
    const app = makeJob(home, 'app');
    const first = await start();
    writeBuild(app, { number: 1, result: 'FAILURE' });
    await until('build 1 announced', () => (first.seen.length > 0 ? true : undefined), { timeoutMs: 20_000 });
    first.detector.close();
    first.store.saveWorkNow();
    const jobsFile = path.join(dataDir, 'watch', 'jobs.json');
    const state = JSON.parse(fs.readFileSync(jobsFile, 'utf8')) as { jobs: Record<string, { seen: number }> };
    state.jobs.app = { seen: 0 };
    fs.writeFileSync(jobsFile, JSON.stringify(state));
    const second = await start();
    expect(second.seen).toEqual([]);
  });

  it('keeps an unreadable state file aside and starts from empty', async () => {
    fs.mkdirSync(path.join(dataDir, 'watch'), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'watch', 'work.json'), '{"version":1,"queue":[');
    const r = await start();
    expect(r.store.work.queue).toEqual([]);
    expect(fs.readdirSync(path.join(dataDir, 'watch')).some((f) => f.startsWith('work.json.corrupt-'))).toBe(true);
  });

  it('limits itself to CICHAT_WATCH_JOBS patterns', async () => {
    const a = makeJob(home, 'team/api');
    const b = makeJob(home, 'other/api');
    const r = await start({}, ['team/**']);
    writeBuild(a, { number: 1, result: 'FAILURE' });
    writeBuild(b, { number: 1, result: 'FAILURE' });
    await until('team/api announced', () => (r.seen.length > 0 ? true : undefined), { timeoutMs: 20_000 });
    await r.detector.rescan();
    expect(keys(r.seen)).toEqual(['team/api#1 FAILURE']);
  });

  it('finds builds by the rescan alone when there are no file-system events', async () => {
    const app = makeJob(home, 'app');
    const r = await start({ fsEvents: false });
    writeBuild(app, { number: 1, result: 'FAILURE' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(r.seen).toEqual([]);
    await r.detector.rescan();
    expect(keys(r.seen)).toEqual(['app#1 FAILURE']);
    expect(r.detector.stats.watchers).toBe(0);
  });

  it('logs and skips a broken build folder, and goes on with the next build', async () => {
    const app = makeJob(home, 'app');
    const r = await start({ brokenAfterMs: 300 });
    const dir = path.join(app, 'builds', '1');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'build.xml'), '<build><result>FAILURE</res');
    writeBuild(app, { number: 2, result: 'FAILURE' });
    await until('build 2 announced', () => (r.seen.length > 0 ? true : undefined), { timeoutMs: 20_000 });
    await until('the broken build given up', () => (r.store.jobsState.jobs.app?.pending === undefined ? true : undefined), { timeoutMs: 20_000 });
    expect(keys(r.seen)).toEqual(['app#2 FAILURE']);
  });

  it('does not follow a build folder that links out of JENKINS_HOME', async () => {
    const app = makeJob(home, 'app');
    const outside = path.join(tmp, 'outside');
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, 'build.xml'), buildXml({ number: 1, result: 'FAILURE' }));
    const r = await start();
    fs.mkdirSync(path.join(app, 'builds'), { recursive: true });
    fs.symlinkSync(outside, path.join(app, 'builds', '1'));
    writeBuild(app, { number: 2, result: 'FAILURE' });
    await until('build 2 announced', () => (r.seen.length > 0 ? true : undefined), { timeoutMs: 20_000 });
    await r.detector.rescan();
    expect(keys(r.seen)).toEqual(['app#2 FAILURE']);
  });
});
