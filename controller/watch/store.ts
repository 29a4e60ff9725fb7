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

/** One job's progress: builds up to `seen` were looked at; `pending` were running then. */
export interface JobMark {
  seen: number;
  pending?: number[];
}

export interface JobsState {
  version: 1;
  /** When the watcher first ran on this DATA_DIR (ISO): older builds are never announced. */
  since: string;
  jobs: Record<string, JobMark>;
}

/** A chat made for one user about one failed build. */
export interface UserChat {
  chatId: number;
  /** The first answer is stored. */
  done?: boolean;
}

/** A failed build waiting to be diagnosed (or being diagnosed). */
export interface QueueItem {
  /** `<job>#<build>` */
  key: string;
  job: string;
  build: number;
  result: string;
  detectedAt: string;
  attempts: number;
  /** Epoch ms before which the item is not tried again (after a failure). */
  notBefore?: number;
  lastError?: string;
  chats: Record<string, UserChat>;
}

/** A diagnosed failed build, as `GET /chatbot-api/failures` lists it. */
export interface FailureRecord {
  key: string;
  job: string;
  build: number;
  result: string;
  /** One line: why the build failed (from the stored answer). */
  cause: string;
  /** The first log lines the answer cites (masked), for the webhook. */
  citedLines: string[];
  buildUrl?: string;
  detectedAt: string;
  diagnosedAt: string;
  chats: { user: string; chatId: number }[];
  /** Users who have not opened their chat yet. */
  unread: string[];
  /** Set when no diagnosis could be made (the backend kept failing). */
  error?: string;
}

/** A webhook post not yet delivered. */
export interface OutboxMessage {
  key: string;
  body: { text: string };
  attempts: number;
  notBefore: number;
  /** Being sent now (written before the request): after a crash it is not sent again. */
  inFlight?: boolean;
}

export interface WorkState {
  version: 1;
  queue: QueueItem[];
  failures: FailureRecord[];
  outbox: OutboxMessage[];
}

/** How many failures are kept (and `GET /failures` can list). */
export const FAILURES_KEPT = 300;

function writeAtomic(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, file);
}

function readJson<T>(file: string, logger: Logger, valid: (v: unknown) => v is T): T | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  try {
    const value: unknown = JSON.parse(text);
    if (valid(value)) return value;
  } catch {
    /* handled below */
  }
  const aside = `${file}.corrupt-${Date.now()}`;
  fs.renameSync(file, aside);
  logger.error({ file, keptAs: aside }, 'watch: state file unreadable, kept aside; starting from empty');
  return undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

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
    fs.mkdirSync(this.dir, { recursive: true });
    const jobs = readJson<JobsState>(this.jobsFile, logger, (v): v is JobsState => isObject(v) && v.version === 1 && isObject(v.jobs));
    this.firstRun = jobs === undefined;
    this.jobsState = jobs ?? { version: 1, since: new Date().toISOString(), jobs: {} };
    const work = readJson<WorkState>(
      this.workFile,
      logger,
      (v): v is WorkState => isObject(v) && v.version === 1 && Array.isArray(v.queue) && Array.isArray(v.failures) && Array.isArray(v.outbox),
    );
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
