/**
 * What the watcher remembers in DATA_DIR/watch/, so a restart announces nothing twice and loses
 * nothing queued:
 *  - `jobs.json`: per job, the highest build number already seen and the builds still running
 *    (large for a big home, written at most once a second: a build it forgets is found again
 *    by the next scan and stopped by `handled` below);
 *  - `work.json`: the queue of failed builds to diagnose, the recent failures with their chats
 *    and the webhook outbox (small; written synchronously after each step of a diagnosis and
 *    each webhook delivery, so what a client was shown or a receiver was sent is on disk).
 * A build is "handled" when it is in the queue or among the recent failures: a build that
 * jobs.json forgot (a crash within its one-second write delay) is found again and recognised.
 * Each file is replaced atomically (write a temporary file, then rename), so a crash leaves the
 * old or the new version, never half of one. A file that cannot be parsed is kept aside as
 * `<name>.corrupt-<time>` and the watcher starts from empty rather than refusing to run.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import { z } from 'zod';

const isoTime = z.string().max(64);
const userId = z.string().min(1).max(255);

/** One job's progress: builds up to `seen` were looked at; `pending` were running then. */
const JobMarkSchema = z.object({
  seen: z.number().int().nonnegative(),
  pending: z.array(z.number().int().nonnegative()).optional(),
});
export type JobMark = z.infer<typeof JobMarkSchema>;

const JobsStateSchema = z.object({
  version: z.literal(1),
  /** When the watcher first ran on this DATA_DIR (ISO): older builds are never announced. */
  since: isoTime,
  jobs: z.record(z.string(), JobMarkSchema),
});
export type JobsState = z.infer<typeof JobsStateSchema>;

/** A chat made for one user about one failed build (`done`: the first answer is stored). */
const UserChatSchema = z.object({ chatId: z.number().int().positive(), done: z.boolean().optional() });
export type UserChat = z.infer<typeof UserChatSchema>;

/** A failed build waiting to be diagnosed (or being diagnosed). */
const QueueItemSchema = z.object({
  /** `<job>#<build>` */
  key: z.string().min(1),
  job: z.string().min(1),
  build: z.number().int().nonnegative(),
  result: z.string(),
  detectedAt: isoTime,
  attempts: z.number().int().nonnegative(),
  /** Epoch ms before which the item is not tried again (after a failure). */
  notBefore: z.number().optional(),
  lastError: z.string().optional(),
  chats: z.record(userId, UserChatSchema),
  /**
   * Per user, when (epoch ms) a chat was last asked of the backend and its id not yet recorded
   * in `chats`: written before the request, so a run killed in between finds that chat (by
   * title, made since then) instead of making a second one.
   */
  creating: z.record(userId, z.number()).optional(),
});
export type QueueItem = z.infer<typeof QueueItemSchema>;

/** A diagnosed failed build, as `GET /chatbot-api/failures` lists it. */
const FailureRecordSchema = z.object({
  key: z.string().min(1),
  job: z.string().min(1),
  build: z.number().int().nonnegative(),
  result: z.string(),
  /** One line: why the build failed (from the stored answer). */
  cause: z.string(),
  /** The first log lines the answer cites (masked), for the webhook. */
  citedLines: z.array(z.string()),
  buildUrl: z.string().optional(),
  detectedAt: isoTime,
  diagnosedAt: isoTime,
  chats: z.array(z.object({ user: userId, chatId: z.number().int().positive() })),
  /** Users who have not opened their chat yet. */
  unread: z.array(userId),
  /** Set when no diagnosis could be made: a fixed sentence, never an internal error's text. */
  error: z.string().optional(),
  /** The users the watcher watched for when it gave up: the only ones shown a failure without a chat. */
  watchers: z.array(userId).optional(),
  /** The failure against the job's history (issue 29), when its fingerprint was known. */
  history: z
    .object({
      fingerprint: z.string(),
      verdict: z.enum(['new', 'recurring', 'flaky', 'fixed-and-back']),
      failingSince: z.number().int(),
      streak: z.number().int(),
      seenInLast: z.number().int(),
      window: z.number().int(),
      reason: z.string(),
    })
    .optional(),
  /** When this build's webhook message was queued; absent when it was folded into an earlier one. */
  postedAt: isoTime.optional(),
  /** A repeat of the same failure within a day of the run's last message: not posted again. */
  quietRepeatOf: z.number().int().optional(),
});
export type FailureRecord = z.infer<typeof FailureRecordSchema>;

/** A webhook post not yet delivered (`inFlight`: being sent; after a crash it is not sent again). */
const OutboxMessageSchema = z.object({
  key: z.string().min(1),
  body: z.object({ text: z.string() }),
  attempts: z.number().int().nonnegative(),
  notBefore: z.number(),
  inFlight: z.boolean().optional(),
});
export type OutboxMessage = z.infer<typeof OutboxMessageSchema>;

const WorkStateSchema = z.object({
  version: z.literal(1),
  queue: z.array(QueueItemSchema),
  failures: z.array(FailureRecordSchema),
  outbox: z.array(OutboxMessageSchema),
});
export type WorkState = z.infer<typeof WorkStateSchema>;

/** How many failures are kept (and `GET /failures` can list). */
export const FAILURES_KEPT = 300;

function writeAtomic(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text, { mode: 0o600 });
  fs.chmodSync(tmp, 0o600);
  fs.renameSync(tmp, file);
}

/**
 * The file parsed and checked against its schema; undefined when it does not exist. A file that
 * is not JSON, or JSON of another shape (`queue: [{}]`, `failures: [null]`), is renamed
 * `<name>.corrupt-<time>` and undefined returned: the watcher starts from empty.
 */
function readState<T>(file: string, logger: Logger, schema: z.ZodType<T>): T | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  let problem: string;
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0];
    problem = `${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'wrong shape'}`;
  } catch (err) {
    problem = (err as Error).message;
  }
  const aside = `${file}.corrupt-${Date.now()}`;
  fs.renameSync(file, aside);
  logger.error({ file, keptAs: aside, problem }, 'watch: state file unreadable, kept aside; starting from empty');
  return undefined;
}

export class WatchStore {
  readonly dir: string;
  readonly jobsState: JobsState;
  readonly work: WorkState;
  /** True when jobs.json did not exist: the first run on this DATA_DIR. */
  readonly firstRun: boolean;
  private workDirty = false;
  private jobsTimer: NodeJS.Timeout | undefined;
  private workScheduled = false;

  constructor(
    dataDir: string,
    private readonly logger: Logger,
  ) {
    this.dir = path.join(dataDir, 'watch');
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const jobs = readState(this.jobsFile, logger, JobsStateSchema);
    this.firstRun = jobs === undefined;
    this.jobsState = jobs ?? { version: 1, since: new Date().toISOString(), jobs: {} };
    const work = readState(this.workFile, logger, WorkStateSchema);
    this.work = work ?? { version: 1, queue: [], failures: [], outbox: [] };
    if (this.firstRun) this.flushJobs();
  }

  private get jobsFile(): string {
    return path.join(this.dir, 'jobs.json');
  }

  private get workFile(): string {
    return path.join(this.dir, 'work.json');
  }

  /** Whether the build `key` (`job#n`) is queued or among the recent failures. */
  isHandled(key: string): boolean {
    return this.work.queue.some((i) => i.key === key) || this.work.failures.some((f) => f.key === key);
  }

  /** work.json is written at the end of this turn of the event loop (changes of one turn coalesce). */
  saveWork(): void {
    this.workDirty = true;
    if (this.workScheduled) return;
    this.workScheduled = true;
    setImmediate(() => {
      this.workScheduled = false;
      this.flushWork();
    });
  }

  /** Writes work.json now (after a step whose effect outside, a chat or a post, must not be redone). */
  saveWorkNow(): void {
    this.workDirty = true;
    this.flushWork();
  }

  flushWork(): void {
    if (!this.workDirty) return;
    this.workDirty = false;
    try {
      writeAtomic(this.workFile, JSON.stringify(this.work));
    } catch (err) {
      this.workDirty = true;
      this.logger.error({ err }, 'watch: could not write work.json (will retry)');
    }
  }

  /** jobs.json is written at most once a second. */
  saveJobs(): void {
    if (this.jobsTimer) return;
    this.jobsTimer = setTimeout(() => {
      this.jobsTimer = undefined;
      this.flushJobs();
    }, 1000);
    this.jobsTimer.unref();
  }

  flushJobs(): void {
    if (this.jobsTimer) {
      clearTimeout(this.jobsTimer);
      this.jobsTimer = undefined;
    }
    try {
      writeAtomic(this.jobsFile, JSON.stringify(this.jobsState));
    } catch (err) {
      this.logger.error({ err }, 'watch: could not write jobs.json');
    }
  }

  /** Writes everything now (at close). */
  flushAll(): void {
    this.flushJobs();
    this.workDirty = true;
    this.flushWork();
  }
}
