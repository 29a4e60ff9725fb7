import fs from 'node:fs';

/**
 * Where a service's log lines go: file descriptor 2, written in batches (up to `minLength`
 * bytes are gathered, whatever is gathered is written within `flushMs`, and synchronously when
 * the process exits).
 *
 * This replaces `pino.destination()` (sonic-boom 4) for one measured reason (issue 27): its
 * exit-time `flushSync` retries EVERY write error, not only EAGAIN, every 100 ms, forever. When
 * the reader of our stderr is gone (the `cichat serve` that spawned us was killed), each
 * write fails with EPIPE, and `process.exit()` never returns: the main thread sleeps in that
 * loop, so the SIGTERM handler and the 10 s exit timer never run and only SIGKILL ends the
 * process (strace: `write(2, ...) = -1 EPIPE` then `futex(..., 100 ms)`, repeated). Here a
 * broken or closed reader (EPIPE, EBADF...) drops the log for good, a full pipe (EAGAIN) is
 * waited on for at most `blockMs` per flush, and nothing ever loops without bound.
 */
export class LogSink {
  private parts: string[] = [];
  private length = 0;
  /** The reader is gone: lines are dropped. */
  broken = false;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly fd = 2,
    private readonly minLength = 4096,
    flushMs = 100,
    private readonly blockMs = 1000,
    private readonly writeSync: (fd: number, data: Buffer) => number = fs.writeSync,
  ) {
    this.timer = setInterval(() => this.flush(), flushMs);
    this.timer.unref();
    process.once('exit', () => this.flush());
  }

  write(line: string): boolean {
    if (this.broken) return true;
    this.parts.push(line);
    this.length += line.length;
    if (this.length >= this.minLength) this.flush();
    return true;
  }

  /** Writes what is gathered now; never loops past `blockMs`. */
  flush(): void {
    if (this.broken || this.length === 0) return;
    let data = Buffer.from(this.parts.join(''), 'utf8');
    this.parts = [];
    this.length = 0;
    const deadline = Date.now() + this.blockMs;
    const pause = new Int32Array(new SharedArrayBuffer(4));
    while (data.length > 0) {
      try {
        data = data.subarray(this.writeSync(this.fd, data));
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if ((code === 'EAGAIN' || code === 'EBUSY') && Date.now() < deadline) {
          Atomics.wait(pause, 0, 0, 5);
          continue;
        }
        if (code === 'EAGAIN' || code === 'EBUSY') {
          // A reader that does not read: keep the rest for the next flush.
          this.parts = [data.toString('utf8')];
          this.length = this.parts[0]?.length ?? 0;
          return;
        }
        // EPIPE (the reader left), EBADF (fd closed) or anything else: stop writing.
        this.broken = true;
        return;
      }
    }
  }

  /** pino calls this on `logger.flush()`. */
  flushSync(): void {
    this.flush();
  }

  end(): void {
    clearInterval(this.timer);
    this.flush();
  }
}

/**
 * Makes the process's own stderr (and stdout) writes harmless once their reader is gone: an
 * EPIPE there would otherwise be an uncaught exception in the middle of a graceful stop.
 */
export function ignoreBrokenStdio(): void {
  const ignore = (err: NodeJS.ErrnoException): void => {
    if (err.code !== 'EPIPE' && err.code !== 'EBADF') throw err;
  };
  process.stderr.on('error', ignore);
  process.stdout.on('error', ignore);
}
