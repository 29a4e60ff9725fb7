/**
 * The failed-build watcher (issue 19), composed by the controller when CICHAT_WATCH is on:
 * the detector notices failed builds, the queue (persisted in DATA_DIR/watch/work.json) has
 * each diagnosed for the watching users with at most CICHAT_WATCH_CONCURRENCY answers at a
 * time, and the webhook sender tells CICHAT_WEBHOOK_URL. See docs/notes/watch.md.
 */
import fs from 'node:fs';
import type { Logger } from 'pino';
import { parseTokenFile } from '../../core/tokens.js';
import { buildCiContextResult, type CiContextOptions, type CiContextResult } from '../../jenkins/context.js';
import type { WatchedFailure } from '../../protocol/types.js';
import type { ControllerAuth, WatchConfig } from '../config.js';
import { backendCalls, type BackendCalls } from './backend.js';
import { FailedBuildDetector, type CompletedFailure } from './detector.js';
import { diagnose, GAVE_UP_ERROR } from './diagnose.js';
import { jobMatcher } from './glob.js';
import { FAILURES_KEPT, WatchStore, type FailureRecord, type QueueItem } from './store.js';
import { backoffMs, WebhookSender } from './webhook.js';

/** A diagnosis is tried this many times (backend down, answer failed) before it is given up. */
export const DIAGNOSE_MAX_ATTEMPTS = 10;

export interface WatcherOptions {
  watch: WatchConfig;
  jenkinsHome: string;
  dataDir: string;
  auth: ControllerAuth;
  backendUrl: string;
  mintJwt: (user: string) => Promise<string>;
  logger: Logger;
  /** Replaces the backend calls (the bench's stand-in). */
  calls?: BackendCalls;
  buildCiContext?: (options: CiContextOptions) => Promise<CiContextResult>;
  /** Workspaces and their confinement: a diagnosed failure's context gets `workspaceSnippets` (issue 17). */
  workspace?: CiContextOptions['workspace'];
  fsEvents?: boolean;
  /** The first retry's pause for webhook posts and diagnoses (tests shorten it; default 2 s). */
  retryFirstMs?: number;
}

/** A failure as one user sees it in `GET /chatbot-api/failures`. */
export type UserFailure = WatchedFailure;

export class Watcher {
  readonly store: WatchStore;
  readonly detector: FailedBuildDetector;
  private readonly webhook: WebhookSender | undefined;
  private readonly calls: BackendCalls;
  private readonly running = new Set<string>();
  private pumpTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly inFlight = new Set<Promise<void>>();
  /** The first scan is done: builds written from now on are announced. */
  ready = false;
  /** Builds worked off since the start (diagnosed or given up). */
  private worked = 0;

  constructor(private readonly options: WatcherOptions) {
    const { logger } = options;
    this.store = new WatchStore(options.dataDir, logger);
    this.calls = options.calls ?? backendCalls(options.backendUrl, options.mintJwt);
    this.webhook = options.watch.webhookUrl ? new WebhookSender(options.watch.webhookUrl, this.store, logger, options.retryFirstMs, options.watch.publicUrl) : undefined;
    this.detector = new FailedBuildDetector({
      jenkinsHome: options.jenkinsHome,
      store: this.store,
      matches: jobMatcher(options.watch.jobs),
      rescanMs: options.watch.rescanSeconds * 1000,
      logger,
      onFailure: (f) => this.enqueue(f),
      ...(options.fsEvents === undefined ? {} : { fsEvents: options.fsEvents }),
    });
  }

  /** First scan, then the queue and outbox a previous run left are worked off. */
  async start(): Promise<void> {
    const started = performance.now();
    await this.detector.start();
    this.ready = true;
    this.options.logger.info(
      {
        jobs: this.detector.jobCount,
        queued: this.store.work.queue.length,
        outbox: this.store.work.outbox.length,
        scanMs: Math.round(performance.now() - started),
        watchers: this.detector.stats.watchers,
      },
      'watch: watching JENKINS_HOME for failed builds',
    );
    this.webhook?.start();
    this.pump();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.pumpTimer);
    this.detector.close();
    await this.webhook?.close();
    this.store.flushAll();
  }

  /** Queue length, answers in progress, outbox length (bench, tests). */
  get load(): { queued: number; running: number; outbox: number; worked: number } {
    return { queued: this.store.work.queue.length, running: this.running.size, outbox: this.store.work.outbox.length, worked: this.worked };
  }

  /**
   * Recent failures that have a chat for `user`, newest first; a failure that could not be
   * diagnosed (no chat) only for the users the watcher watched for then (`watchers`).
   */
  failuresFor(user: string, limit: number): UserFailure[] {
    const out: UserFailure[] = [];
    for (const f of this.store.work.failures) {
      const chat = f.chats.find((c) => c.user === user);
      if (!chat && !(f.error !== undefined && f.watchers?.includes(user))) continue;
      out.push({
        job: f.job,
        build: f.build,
        result: f.result,
        cause: f.cause,
        chat_id: chat?.chatId ?? null,
        unread: chat !== undefined && f.unread.includes(user),
        build_url: f.buildUrl ?? null,
        detected_at: f.detectedAt,
        diagnosed_at: f.diagnosedAt,
        ...(f.error ? { error: f.error } : {}),
      });
      if (out.length >= limit) break;
    }
    return out;
  }

  /** Marks `user`'s chat as read; false when it is not a watcher's unread chat. */
  markRead(user: string, chatId: number): boolean {
    for (const f of this.store.work.failures) {
      if (!f.chats.some((c) => c.user === user && c.chatId === chatId)) continue;
      const at = f.unread.indexOf(user);
      if (at < 0) return false;
      f.unread.splice(at, 1);
      this.store.saveWork();
      return true;
    }
    return false;
  }

  /** Who gets a chat: CICHAT_WATCH_USERS, else the `none` user or every user of the token file. */
  private async users(): Promise<string[]> {
    const { auth, watch, logger } = this.options;
    if (auth.mode === 'none') return watch.users ? [...watch.users] : [auth.user];
    let known: Set<string>;
    try {
      known = new Set(parseTokenFile(await fs.promises.readFile(auth.tokensFile, 'utf8')).entries.map((e) => e.userId));
    } catch (err) {
      logger.warn({ err, file: auth.tokensFile }, 'watch: token file unreadable; no chat made');
      return [];
    }
    if (!watch.users) return [...known].sort();
    const missing = watch.users.filter((u) => !known.has(u));
    if (missing.length > 0) logger.warn({ users: missing }, 'watch: CICHAT_WATCH_USERS names users absent from the token file; skipped');
    return watch.users.filter((u) => known.has(u));
  }

  private enqueue(f: CompletedFailure): void {
    const key = `${f.job}#${f.build}`;
    const item: QueueItem = { key, job: f.job, build: f.build, result: f.result, detectedAt: new Date().toISOString(), attempts: 0, chats: {} };
    this.store.work.queue.push(item);
    this.store.saveWork();
    this.options.logger.info({ job: f.job, build: f.build, result: f.result, queued: this.store.work.queue.length }, 'watch: failed build noticed');
    this.pump();
  }

  /** Starts queued items up to the concurrency limit; wakes up again for items waiting on a backoff. */
  private pump(): void {
    if (this.closed) return;
    clearTimeout(this.pumpTimer);
    const now = Date.now();
    let nextWake = Infinity;
    for (const item of this.store.work.queue) {
      if (this.running.size >= this.options.watch.concurrency) break;
      if (this.running.has(item.key)) continue;
      if ((item.notBefore ?? 0) > now) {
        nextWake = Math.min(nextWake, item.notBefore ?? 0);
        continue;
      }
      this.running.add(item.key);
      const work = this.work(item).finally(() => {
        this.running.delete(item.key);
        this.inFlight.delete(work);
        this.pump();
      });
      this.inFlight.add(work);
    }
    if (nextWake !== Infinity) {
      this.pumpTimer = setTimeout(() => this.pump(), Math.max(10, nextWake - now));
      this.pumpTimer.unref();
    }
  }

  private async work(item: QueueItem): Promise<void> {
    const { logger } = this.options;
    let record: FailureRecord;
    try {
      record = await diagnose(item, {
        calls: this.calls,
        jenkinsHome: this.options.jenkinsHome,
        buildCiContext: this.options.buildCiContext ?? buildCiContextResult,
        ...(this.options.workspace ? { workspace: this.options.workspace } : {}),
        users: () => this.users(),
        logger,
        save: () => this.store.saveWorkNow(),
      });
    } catch (err) {
      if (this.closed) return;
      item.attempts++;
      item.lastError = (err as Error).message;
      if (item.attempts < DIAGNOSE_MAX_ATTEMPTS) {
        item.notBefore = Date.now() + backoffMs(item.attempts, this.options.retryFirstMs);
        logger.warn({ err, job: item.job, build: item.build, attempts: item.attempts }, 'watch: diagnosis failed; will retry');
        this.store.saveWork();
        return;
      }
      logger.error({ err, job: item.job, build: item.build, attempts: item.attempts }, 'watch: diagnosis failed for good');
      const chats = Object.entries(item.chats).map(([user, c]) => ({ user, chatId: c.chatId }));
      const watchers = await this.users().catch(() => [] as string[]);
      if (this.closed) return;
      record = {
        key: item.key,
        job: item.job,
        build: item.build,
        result: item.result,
        cause: '',
        citedLines: [],
        detectedAt: item.detectedAt,
        diagnosedAt: new Date().toISOString(),
        chats,
        unread: chats.map((c) => c.user),
        // item.lastError (an internal error's text) stays in work.json's queue history and the log.
        error: GAVE_UP_ERROR,
        watchers,
      };
    }
    if (this.closed) return;
    const work = this.store.work;
    const at = work.queue.indexOf(item);
    if (at >= 0) work.queue.splice(at, 1);
    work.failures.unshift(record);
    this.worked++;
    if (work.failures.length > FAILURES_KEPT) work.failures.length = FAILURES_KEPT;
    // The outbox entry is written in the same work.json as the queue removal, before any post.
    // The same failure again in the job's next build is not posted again (issue 29): at most one
    // message a day for an unbroken run, saying how long it has been failing.
    const quiet = quietRepeat(record, work.failures.slice(1), Date.now());
    if (quiet !== undefined) {
      record.quietRepeatOf = quiet;
      logger.info({ job: item.job, build: item.build, since: record.history?.failingSince }, 'watch: same failure as the last message of this job; not posted again');
    } else if (this.webhook) {
      record.postedAt = new Date().toISOString();
      this.webhook.enqueue(record);
    }
    this.store.saveWorkNow();
    logger.info({ job: item.job, build: item.build, cause: record.cause, chats: record.chats }, 'watch: failed build diagnosed');
  }
}

/** A day: an unbroken run of the same failure is posted at most this often. */
export const REPEAT_POST_MS = 24 * 3600_000;

/**
 * Whether `record` repeats the failure of the job's previous failed build in the same unbroken
 * run (history verdict `recurring`, same fingerprint, previous build inside the run) and that run
 * was posted less than a day ago: answers the build whose message stands for it, else undefined.
 */
export function quietRepeat(record: FailureRecord, earlier: readonly FailureRecord[], now: number): number | undefined {
  const h = record.history;
  if (!h || h.verdict !== 'recurring') return undefined;
  const previous = earlier.find((f) => f.job === record.job && f.build < record.build);
  if (!previous?.history || previous.history.fingerprint !== h.fingerprint || previous.build < h.failingSince) return undefined;
  // The run's last message: the previous build's own, or the one it was folded into.
  const posted = previous.postedAt ? previous : earlier.find((f) => f.job === record.job && f.build === previous.quietRepeatOf);
  if (!posted?.postedAt) return undefined;
  return now - Date.parse(posted.postedAt) < REPEAT_POST_MS ? posted.build : undefined;
}

/** Builds and starts the watcher. */
export async function startWatcher(options: WatcherOptions): Promise<Watcher> {
  const watcher = new Watcher(options);
  await watcher.start();
  return watcher;
}
