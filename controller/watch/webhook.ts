/**
 * CICHAT_WEBHOOK_URL (issue 19, part 3): one JSON POST per failed build, `{"text": ...}`, which
 * Slack and Mattermost incoming webhooks both take (Mattermost renders the same markdown).
 * Messages wait in the persisted outbox (work.json) and are sent one at a time by their own
 * loop, so a slow or dead receiver never holds up the watcher; a failed post is retried with
 * exponential backoff (2 s, 4 s, 8 s ... at most 10 min apart, 12 tries, about 40 min), every
 * failure is logged, and a message is dropped (logged as an error) only after the last try.
 * A post is marked in flight (on disk) before it is sent: when the controller dies during a post
 * it cannot know whether the receiver got it, and it does not send it again (a restart must not
 * post twice); that message is logged as a warning instead. A clean stop waits for the post.
 */
import type { Logger } from 'pino';
import type { FailureRecord, OutboxMessage, WatchStore } from './store.js';

export const WEBHOOK_MAX_ATTEMPTS = 12;
const WEBHOOK_TIMEOUT_MS = 10_000;
const BACKOFF_FIRST_MS = 2000;
const BACKOFF_MAX_MS = 10 * 60_000;

/**
 * The text of the message: job, build, one-line cause, the first cited lines, the build's URL,
 * and with CONTROLLER_PUBLIC_URL the web page of the diagnosis: the chat itself when one user
 * got it, else the failures list (each user sees their own chat there).
 */
export function webhookText(failure: FailureRecord, publicUrl?: string): string {
  const parts = [`*${failure.job} #${failure.build} failed* (${failure.result})`];
  if (failure.error) parts.push(failure.error);
  else if (failure.cause) parts.push(failure.cause);
  const h = failure.history;
  if (h?.verdict === 'recurring') parts.push(`Still failing since #${h.failingSince} (${h.streak} builds in a row).`);
  else if (h?.verdict === 'flaky') parts.push(`Flaky: failed this way in ${h.seenInLast} of the last ${h.window} builds. ${h.reason}`);
  else if (h?.verdict === 'fixed-and-back') parts.push(`Back again: ${h.reason}`);
  if (failure.citedLines.length > 0) {
    // A fence inside the log would end the code block early.
    parts.push(['```', ...failure.citedLines.map((l) => l.replace(/```/g, "'''")), '```'].join('\n'));
  }
  if (failure.buildUrl) parts.push(failure.buildUrl);
  if (publicUrl && failure.chats.length > 0) {
    const only = failure.chats.length === 1 ? failure.chats[0] : undefined;
    parts.push(only ? `Diagnosis: ${publicUrl}/chats/${only.chatId}` : `Diagnoses: ${publicUrl}/failures`);
  }
  if (failure.chats.length > 0) parts.push(`cichat: \`cichat chat ${failure.chats[0]?.chatId ?? ''}\``);
  return parts.join('\n');
}

/** The pause after the `attempts`-th failed try: 2 s, 4 s, 8 s ... at most 10 min. */
export function backoffMs(attempts: number, firstMs = BACKOFF_FIRST_MS): number {
  return Math.min(BACKOFF_MAX_MS, firstMs * 2 ** Math.max(0, attempts - 1));
}

export class WebhookSender {
  private timer: NodeJS.Timeout | undefined;
  private sending = false;
  private current: Promise<void> | undefined;
  private closed = false;
  /** Posts delivered and attempts failed (bench, logs). */
  readonly stats = { delivered: 0, failedAttempts: 0, dropped: 0 };

  constructor(
    private readonly url: string,
    private readonly store: WatchStore,
    private readonly logger: Logger,
    /** The first retry's pause (tests shorten it). */
    private readonly backoffFirstMs = BACKOFF_FIRST_MS,
    /** CONTROLLER_PUBLIC_URL: messages link to the web page under it. */
    private readonly publicUrl?: string,
  ) {}

  /** Queues the message of a failure (persisted with the next work.json write). */
  enqueue(failure: FailureRecord): void {
    this.store.work.outbox.push({ key: failure.key, body: { text: webhookText(failure, this.publicUrl) }, attempts: 0, notBefore: 0 });
    this.store.saveWork(); // the caller writes it with the queue removal (saveWorkNow)
    this.kick(0);
  }

  /** Starts sending what a previous run left in the outbox. */
  start(): void {
    const outbox = this.store.work.outbox;
    const interrupted = outbox.filter((m) => m.inFlight);
    if (interrupted.length > 0) {
      for (const m of interrupted) {
        this.logger.warn({ key: m.key }, 'watch: a webhook post was in flight when the controller stopped; not sent again (it may have arrived)');
        outbox.splice(outbox.indexOf(m), 1);
      }
      this.store.saveWorkNow();
    }
    this.kick(0);
  }

  /** Stops; resolves when a post in progress has ended (it has its own 10 s timeout). */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.current;
  }

  private kick(delayMs: number): void {
    if (this.closed || this.sending) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.sendDue(), delayMs);
    this.timer.unref();
  }

  private async sendDue(): Promise<void> {
    if (this.sending || this.closed) return;
    this.sending = true;
    try {
      for (;;) {
        const now = Date.now();
        const due = this.store.work.outbox.find((m) => m.notBefore <= now);
        if (!due || this.closed) break;
        this.current = this.post(due);
        await this.current;
        this.current = undefined;
      }
    } finally {
      this.sending = false;
    }
    const outbox = this.store.work.outbox;
    if (outbox.length > 0 && !this.closed) {
      const next = Math.min(...outbox.map((m) => m.notBefore));
      this.kick(Math.max(0, next - Date.now()));
    }
  }

  private async post(message: OutboxMessage): Promise<void> {
    message.inFlight = true;
    this.store.saveWorkNow();
    let problem: string | undefined;
    try {
      const res = await fetch(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(message.body),
        signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
      });
      // Drain the body so the connection can be reused.
      await res.arrayBuffer().catch(() => undefined);
      if (!res.ok) problem = `HTTP ${res.status}`;
    } catch (err) {
      problem = (err as Error).cause instanceof Error ? ((err as Error).cause as Error).message : (err as Error).message;
    }
    delete message.inFlight;
    const outbox = this.store.work.outbox;
    const at = outbox.indexOf(message);
    if (problem === undefined) {
      this.stats.delivered++;
      if (at >= 0) outbox.splice(at, 1);
      // At once: a restart must not post it again.
      this.store.saveWorkNow();
      return;
    }
    this.stats.failedAttempts++;
    message.attempts++;
    if (message.attempts >= WEBHOOK_MAX_ATTEMPTS) {
      this.stats.dropped++;
      if (at >= 0) outbox.splice(at, 1);
      this.logger.error({ key: message.key, attempts: message.attempts, problem }, 'watch: webhook post failed for good; message dropped');
    } else {
      message.notBefore = Date.now() + backoffMs(message.attempts, this.backoffFirstMs);
      this.logger.warn(
        { key: message.key, attempts: message.attempts, problem, retryInMs: message.notBefore - Date.now() },
        'watch: webhook post failed; will retry',
      );
    }
    this.store.saveWork();
  }
}
