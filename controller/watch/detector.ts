/**
 * Notices builds of a JENKINS_HOME that complete as FAILURE or UNSTABLE (issue 19, part 1).
 *
 * Jobs are found by walking `jobs/` (folders, organization folders) and `branches/`
 * (multibranch projects): a directory with a `jobs/` or `branches/` folder is a container, one
 * with a `config.xml` and neither is a job (classic or pipeline). Each job's builds folder is
 * watched with one non-recursive fs.watch (a new build folder, or Jenkins rewriting
 * `permalinks` when a build ends, is an event there), each running build's own folder too
 * (`build.xml` appearing or being replaced), and each `jobs/` or `branches/` folder (new jobs).
 * A periodic rescan of the whole home is the safety net for what events miss (an inotify limit,
 * a network file system, a burst that overflowed the event queue).
 *
 * A build is announced once: when its `build.xml` has a final result. Builds present when the
 * watcher first ran on this DATA_DIR, and builds of jobs first seen at a start, are not
 * announced; jobs created while it runs are followed from their first build. Build folders are
 * found through jenkins/ (`findBuildDir`, `buildsDirOf`, `realInside`), so a folder linking out
 * of JENKINS_HOME is never read.
 */
import fs from 'node:fs';
import type { Dirent } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import { realInside } from '../../jenkins/homeguard.js';
import { findBuildDir, summaryOf } from '../../jenkins/jobs.js';
import { buildsDirOf } from '../../jenkins/paths.js';
import { readRootConfig } from '../../jenkins/system.js';
import { readXmlFile } from '../../jenkins/xml.js';
import type { JobMark, WatchStore } from './store.js';

/** A build that just completed badly. */
export interface CompletedFailure {
  job: string;
  build: number;
  result: 'FAILURE' | 'UNSTABLE';
}

export interface DetectorOptions {
  jenkinsHome: string;
  store: WatchStore;
  /** CICHAT_WATCH_JOBS as a predicate over full job names. */
  matches: (fullName: string) => boolean;
  rescanMs: number;
  logger: Logger;
  /** Called once per failed build; must queue it in the store (which makes it handled). */
  onFailure: (failure: CompletedFailure) => void;
  /** Use fs.watch (default true); false leaves only the rescan (the bench compares both). */
  fsEvents?: boolean;
  /** How long after a job or build event to look (coalesces the events of one write). */
  settleMs?: number;
  /** How long a build.xml may stay unparseable before the build is skipped (default 10 s). */
  brokenAfterMs?: number;
}

interface WatchedJob {
  name: string;
  dir: string;
  buildsDir: string;
  watcher?: fs.FSWatcher;
  /** What `watcher` watches: the builds folder, or the job folder until builds/ exists. */
  watching?: string;
}

const BUILD_NUMBER = /^[1-9]\d{0,9}$/;
/** A build.xml that does not parse for this long is a broken build folder: logged and skipped. */
const BROKEN_AFTER_MS = 10_000;
/** At most this many running builds get a watcher of their own; beyond, the rescan finds them. */
const MAX_BUILD_WATCHERS = 5000;
/** Folders read at the same time during a scan. */
const SCAN_CONCURRENCY = 4;

/** Runs `work` over `items`, at most `limit` at a time. */
async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const runners = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await work(item);
    }
  });
  await Promise.all(runners);
}

export class FailedBuildDetector {
  private readonly home: string;
  private readonly jobs = new Map<string, WatchedJob>();
  /** `jobs/` and `branches/` folders watched, with the full-name prefix of their items. */
  private readonly containers = new Map<string, { prefix: string; watcher?: fs.FSWatcher }>();
  private readonly buildWatchers = new Map<string, fs.FSWatcher>();
  private readonly brokenSince = new Map<string, number>();
  private readonly dirtyJobs = new Set<string>();
  private readonly dirtyContainers = new Set<string>();
  private flushTimer: NodeJS.Timeout | undefined;
  private rescanTimer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private scanning: Promise<void> | undefined;
  private closed = false;
  private buildsDirSetting: string | undefined;
  private sinceMs: number;
  private eventsDisabled: boolean;
  private watcherLimitLogged = false;
  /** Counters for the bench and the log. */
  readonly stats = { scans: 0, lastScanMs: 0, events: 0, checks: 0, watchers: 0 };

  constructor(private readonly options: DetectorOptions) {
    this.home = path.resolve(options.jenkinsHome);
    this.sinceMs = Date.parse(options.store.jobsState.since);
    this.eventsDisabled = options.fsEvents === false;
  }

  /** Jobs being watched (after start()). */
  get jobCount(): number {
    return this.jobs.size;
  }

  /** The first scan: every job found is followed from the builds it has now. */
  async start(): Promise<void> {
    try {
      this.buildsDirSetting = (await readRootConfig(this.home)).buildsDir;
    } catch (err) {
      this.options.logger.warn({ err }, 'watch: root config.xml unreadable; builds are looked for in <job>/builds');
    }
    await this.scan(true);
    this.scheduleRescan();
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.flushTimer);
    clearTimeout(this.rescanTimer);
    for (const job of this.jobs.values()) job.watcher?.close();
    for (const c of this.containers.values()) c.watcher?.close();
    for (const w of this.buildWatchers.values()) w.close();
    this.buildWatchers.clear();
  }

  /** Waits for the scan and the event work in progress (tests, bench). */
  async idle(): Promise<void> {
    while (this.scanning || this.flushing || this.dirtyJobs.size > 0 || this.dirtyContainers.size > 0) {
      if (!this.flushing && !this.scanning) this.flushSoon(0);
      await (this.scanning ?? this.flushing ?? new Promise((r) => setTimeout(r, 5)));
    }
  }

  /** One whole pass over the home: new and vanished jobs, then every job's builds. */
  rescan(): Promise<void> {
    return this.scan(false);
  }

  private scheduleRescan(): void {
    if (this.closed) return;
    this.rescanTimer = setTimeout(() => {
      void this.scan(false)
        .catch((err: unknown) => this.options.logger.error({ err }, 'watch: rescan failed'))
        .finally(() => this.scheduleRescan());
    }, this.options.rescanMs);
    this.rescanTimer.unref();
  }

  private async scan(initial: boolean): Promise<void> {
    while (this.scanning) await this.scanning;
    const run = (async () => {
      const started = performance.now();
      const found = new Map<string, { dir: string }>();
      const containersSeen = new Set<string>();
      await this.walk(this.home, '', found, containersSeen);
      if (this.closed) return;
      for (const [dir, c] of this.containers) {
        if (!containersSeen.has(dir)) {
          c.watcher?.close();
          this.containers.delete(dir);
        }
      }
      for (const [name, job] of this.jobs) {
        if (!found.has(name)) this.forget(job);
      }
      if (initial) {
        // Marks of jobs gone (or no longer matching CICHAT_WATCH_JOBS) since the last run.
        const marks = this.options.store.jobsState.jobs;
        for (const name of Object.keys(marks)) if (!found.has(name)) delete marks[name];
      }
      const names = [...found.keys()];
      for (const name of names) this.adopt(name, (found.get(name) as { dir: string }).dir, initial);
      await eachLimited(names, SCAN_CONCURRENCY, async (name) => {
        const job = this.jobs.get(name);
        if (job) await this.check(job);
      });
      this.options.store.saveJobs();
      this.stats.scans++;
      this.stats.lastScanMs = performance.now() - started;
    })();
    this.scanning = run;
    try {
      await run;
    } finally {
      this.scanning = undefined;
    }
  }

  /** Finds the jobs under `itemDir`'s `jobs/` and `branches/` folders. */
  private async walk(itemDir: string, prefix: string, found: Map<string, { dir: string }>, containersSeen: Set<string>): Promise<void> {
    for (const sub of ['jobs', 'branches']) {
      const containerDir = path.join(itemDir, sub);
      let entries: Dirent[];
      try {
        entries = await readdir(containerDir, { withFileTypes: true });
      } catch {
        continue;
      }
      containersSeen.add(containerDir);
      this.watchContainer(containerDir, prefix);
      await eachLimited(entries, SCAN_CONCURRENCY, async (entry) => {
        // Item folders are real folders; a link (possibly out of the home) is not followed.
        if (!entry.isDirectory()) return;
        await this.visitItem(path.join(containerDir, entry.name), sub === 'branches', prefix, found, containersSeen);
      });
    }
  }

  private async visitItem(
    dir: string,
    isBranch: boolean,
    prefix: string,
    found: Map<string, { dir: string }>,
    containersSeen: Set<string>,
  ): Promise<void> {
    let names: string[];
    try {
      names = await readdir(dir);
    } catch {
      return;
    }
    let name = path.basename(dir);
    if (isBranch && names.includes('name-utf8.txt')) {
      // Branch folders are mangled (`feature-x.k2f9a`); the item name is recorded beside them.
      try {
        const recorded = (await readFile(path.join(dir, 'name-utf8.txt'), 'utf8')).trim();
        if (recorded !== '' && !recorded.includes('/')) name = recorded;
      } catch {
        /* keep the folder name: jenkins/ resolves it too */
      }
    }
    const fullName = prefix === '' ? name : `${prefix}/${name}`;
    if (names.includes('jobs') || names.includes('branches')) {
      await this.walk(dir, fullName, found, containersSeen);
    } else if (names.includes('config.xml') && this.options.matches(fullName)) {
      found.set(fullName, { dir });
    }
  }

  /** Starts following a job found by a scan (no-op when already followed). */
  private adopt(name: string, dir: string, initial: boolean): void {
    const existing = this.jobs.get(name);
    if (existing && existing.dir === dir) return;
    if (existing) this.forget(existing, false);
    const job: WatchedJob = { name, dir, buildsDir: buildsDirOf(this.home, dir, name, this.buildsDirSetting) };
    this.jobs.set(name, job);
    const marks = this.options.store.jobsState.jobs;
    if (!marks[name]) {
      // At a start every build already there is old news (seen = its newest, set by check()).
      // A job created while the watcher runs is followed from build 1.
      marks[name] = initial ? { seen: -1 } : { seen: 0 };
    }
    this.watchJob(job);
  }

  private forget(job: WatchedJob, dropMark = true): void {
    job.watcher?.close();
    this.jobs.delete(job.name);
    const mark = this.options.store.jobsState.jobs[job.name];
    for (const n of mark?.pending ?? []) this.unwatchBuild(job, n);
    if (dropMark) {
      delete this.options.store.jobsState.jobs[job.name];
      this.options.store.saveJobs();
    }
  }

  /** Looks at a job's builds: new folders, and the running builds that may have ended. */
  private async check(job: WatchedJob): Promise<void> {
    this.stats.checks++;
    const marks = this.options.store.jobsState.jobs;
    const mark: JobMark = marks[job.name] ?? (marks[job.name] = { seen: 0 });
    let entries: string[];
    try {
      entries = await readdir(job.buildsDir);
    } catch {
      entries = [];
    }
    if (job.watching !== job.buildsDir && entries.length > 0) this.watchJob(job);
    let newest = 0;
    for (const e of entries) {
      if (!BUILD_NUMBER.test(e)) continue;
      const n = Number(e);
      if (n > newest) newest = n;
    }
    if (mark.seen < 0) {
      // The first look at a job at start-up: what is there is not announced.
      mark.seen = newest;
      this.options.store.saveJobs();
      return;
    }
    const pending = new Set(mark.pending ?? []);
    if (newest > mark.seen) {
      // Only numbers that exist: a gap (a deleted build) is not waited for.
      for (const e of entries) {
        if (!BUILD_NUMBER.test(e)) continue;
        const n = Number(e);
        if (n > mark.seen) pending.add(n);
      }
      mark.seen = newest;
    }
    if (pending.size === 0) return;
    const still: number[] = [];
    for (const n of [...pending].sort((a, b) => a - b)) {
      if (await this.inspect(job, n)) still.push(n);
    }
    const changed = still.length !== (mark.pending?.length ?? 0) || still.some((n, i) => mark.pending?.[i] !== n) || newest >= mark.seen;
    if (still.length > 0) mark.pending = still;
    else delete mark.pending;
    if (changed) this.options.store.saveJobs();
  }

  /** Looks at one build; true while it is still running (or not written yet). */
  private async inspect(job: WatchedJob, n: number): Promise<boolean> {
    const key = `${job.name}#${n}`;
    const entry = path.join(job.buildsDir, String(n));
    const dir = await findBuildDir(job.buildsDir, n);
    if (!dir || !(await realInside(this.home, dir))) {
      let exists = false;
      try {
        await fs.promises.lstat(entry);
        exists = true;
      } catch {
        /* deleted before it ended: nothing to announce */
      }
      if (exists) this.options.logger.warn({ job: job.name, build: n }, 'watch: build folder links out of its job or JENKINS_HOME; skipped');
      this.unwatchBuild(job, n);
      return false;
    }
    const file = path.join(dir, 'build.xml');
    let summary;
    try {
      const xml = await readXmlFile(file);
      if (!xml) {
        this.watchBuild(job, n, dir);
        return true;
      }
      summary = summaryOf(n, xml);
      this.brokenSince.delete(key);
    } catch (err) {
      // A build.xml caught half-written parses badly once; one that stays broken is skipped.
      const since = this.brokenSince.get(key) ?? Date.now();
      this.brokenSince.set(key, since);
      const brokenAfter = this.options.brokenAfterMs ?? BROKEN_AFTER_MS;
      if (Date.now() - since < brokenAfter) {
        this.watchBuild(job, n, dir);
        this.flushLater(job.name, brokenAfter);
        return true;
      }
      this.brokenSince.delete(key);
      this.unwatchBuild(job, n);
      this.options.logger.warn({ job: job.name, build: n, file, err }, 'watch: broken build folder (build.xml unreadable); skipped');
      return false;
    }
    if (summary.building) {
      this.watchBuild(job, n, dir);
      return true;
    }
    this.unwatchBuild(job, n);
    if (summary.result !== 'FAILURE' && summary.result !== 'UNSTABLE') return false;
    try {
      // A build that ended before the watcher first ran (a job moved or restored) is old news.
      if ((await stat(file)).mtimeMs < this.sinceMs - 1000) return false;
    } catch {
      return false;
    }
    if (this.options.store.isHandled(key)) return false;
    // onFailure queues it (in the store) at once, so it counts as handled from here on.
    this.options.onFailure({ job: job.name, build: n, result: summary.result });
    return false;
  }

  // ---- file-system events ---------------------------------------------------------------

  private watch(target: string, onEvent: () => void): fs.FSWatcher | undefined {
    if (this.eventsDisabled || this.closed) return undefined;
    try {
      const w = fs.watch(target, { persistent: false }, () => {
        this.stats.events++;
        onEvent();
      });
      w.on('error', () => w.close());
      this.stats.watchers++;
      w.once('close', () => this.stats.watchers--);
      return w;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if ((code === 'ENOSPC' || code === 'EMFILE') && !this.watcherLimitLogged) {
        this.watcherLimitLogged = true;
        this.options.logger.warn(
          { code, rescanSeconds: this.options.rescanMs / 1000 },
          'watch: the file-system event limit is reached (fs.inotify.max_user_watches); the rest is found by the periodic rescan',
        );
      }
      return undefined;
    }
  }

  private watchContainer(dir: string, prefix: string): void {
    const known = this.containers.get(dir);
    if (known) return;
    const entry: { prefix: string; watcher?: fs.FSWatcher } = { prefix };
    const watcher = this.watch(dir, () => {
      this.dirtyContainers.add(dir);
      this.flushSoon();
    });
    if (watcher) entry.watcher = watcher;
    this.containers.set(dir, entry);
  }

  private watchJob(job: WatchedJob): void {
    let target = job.buildsDir;
    try {
      fs.statSync(target);
    } catch {
      target = job.dir; // builds/ appears with the first build
    }
    if (job.watching === target && job.watcher) return;
    job.watcher?.close();
    const w = this.watch(target, () => this.markDirty(job.name));
    job.watching = target;
    if (w) job.watcher = w;
    else delete job.watcher;
  }

  private watchBuild(job: WatchedJob, n: number, dir: string): void {
    const key = `${job.name}#${n}`;
    if (this.buildWatchers.has(key) || this.buildWatchers.size >= MAX_BUILD_WATCHERS) return;
    const w = this.watch(dir, () => this.markDirty(job.name));
    if (!w) return;
    this.buildWatchers.set(key, w);
    // build.xml may have been written between the look that found it missing and this watch:
    // look once more, now that no later write can be missed.
    this.markDirty(job.name);
  }

  private unwatchBuild(job: WatchedJob, n: number): void {
    const key = `${job.name}#${n}`;
    this.buildWatchers.get(key)?.close();
    this.buildWatchers.delete(key);
  }

  private markDirty(name: string): void {
    this.dirtyJobs.add(name);
    this.flushSoon();
  }

  private flushLater(name: string, ms: number): void {
    const t = setTimeout(() => this.markDirty(name), ms + 50);
    t.unref();
  }

  private flushSoon(delay = this.options.settleMs ?? 50): void {
    if (this.flushTimer || this.closed) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      if (this.flushing) {
        this.flushSoon();
        return;
      }
      this.flushing = this.flush()
        .catch((err: unknown) => this.options.logger.error({ err }, 'watch: event handling failed'))
        .finally(() => {
          this.flushing = undefined;
          if (this.dirtyJobs.size > 0 || this.dirtyContainers.size > 0) this.flushSoon();
        });
    }, delay);
    this.flushTimer.unref();
  }

  private async flush(): Promise<void> {
    const containers = [...this.dirtyContainers];
    this.dirtyContainers.clear();
    for (const dir of containers) {
      const c = this.containers.get(dir);
      if (!c) continue;
      // New (or removed) items of one folder: walk just that folder.
      const found = new Map<string, { dir: string }>();
      const seen = new Set<string>();
      await this.walk(path.dirname(dir), c.prefix, found, seen);
      for (const [name, { dir: jobDir }] of found) {
        if (!this.jobs.has(name)) {
          this.adopt(name, jobDir, false);
          this.dirtyJobs.add(name);
        }
      }
      const under = `${c.prefix === '' ? '' : `${c.prefix}/`}`;
      for (const [name, job] of this.jobs) {
        if (name.startsWith(under) && job.dir.startsWith(dir + path.sep) && !found.has(name)) {
          try {
            fs.statSync(job.dir);
          } catch {
            this.forget(job);
          }
        }
      }
    }
    const names = [...this.dirtyJobs];
    this.dirtyJobs.clear();
    await eachLimited(names, SCAN_CONCURRENCY, async (name) => {
      const job = this.jobs.get(name);
      if (job) await this.check(job);
    });
  }
}
