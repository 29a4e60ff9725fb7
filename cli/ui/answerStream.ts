/**
 * One answer being streamed, as a plain class (no React): it owns the request's abort
 * controller, collects the chunks and hands the live answer to `onChange` at most every
 * `flushMs` (so that a long, fast answer does not starve key handling), and settles `done`
 * with how the stream ended.
 */
import type { StreamEvent } from '../../protocol/types.js';
import type { CichatClient, StreamRequest } from '../client.js';

export const FLUSH_MS = 30;

/** The answer being streamed now. */
export interface LiveAnswer {
  question: string;
  text: string;
  /** waiting: no text yet; streaming: text arriving; stopped: aborted, reloading the pair. */
  phase: 'waiting' | 'streaming' | 'stopped';
  qaPairId?: number;
}

export interface StreamOutcome {
  /** Why it failed (an error event, a refused request, a broken connection), or null. */
  failure: string | null;
  /** Stopped by the user. */
  aborted: boolean;
  /** The backend began the answer (`started` came): a pair exists, even when it failed. */
  started: boolean;
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export class AnswerStream {
  readonly done: Promise<StreamOutcome>;
  private readonly abort = new AbortController();
  private current: LiveAnswer;
  private pending = '';
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    client: Pick<CichatClient, 'stream'>,
    readonly request: StreamRequest,
    question: string,
    private readonly onChange: (live: LiveAnswer) => void,
    flushMs = FLUSH_MS,
  ) {
    this.current = { question, text: '', phase: 'waiting' };
    this.timer = setInterval(() => this.flush(), flushMs);
    this.done = this.run(client);
  }

  get live(): LiveAnswer {
    return this.current;
  }

  get stopped(): boolean {
    return this.abort.signal.aborted;
  }

  /** Aborts the request (the backend saves the pair as interrupted). */
  stop(): void {
    this.abort.abort();
  }

  private set(next: LiveAnswer): void {
    this.current = next;
    this.onChange(next);
  }

  private flush(): void {
    if (!this.pending) return;
    const text = this.pending;
    this.pending = '';
    this.set({ ...this.current, text: this.current.text + text, phase: this.current.phase === 'stopped' ? 'stopped' : 'streaming' });
  }

  private handle(e: StreamEvent, outcome: StreamOutcome): void {
    switch (e.event) {
      case 'started':
        outcome.started = true;
        this.set({ ...this.current, qaPairId: e.qa_pair_id });
        break;
      case 'chunk':
        this.pending += e.content;
        break;
      case 'done':
        break;
      case 'error':
        outcome.failure = e.detail;
        break;
      default: {
        const never: never = e;
        throw new Error(`Unknown stream event ${JSON.stringify(never)}`);
      }
    }
  }

  private async run(client: Pick<CichatClient, 'stream'>): Promise<StreamOutcome> {
    const outcome: StreamOutcome = { failure: null, aborted: false, started: false };
    try {
      for await (const event of client.stream(this.request, this.abort.signal)) this.handle(event, outcome);
    } catch (err) {
      if (!this.abort.signal.aborted) outcome.failure = message(err);
    } finally {
      clearInterval(this.timer);
      this.timer = undefined;
      this.flush();
    }
    outcome.aborted = this.abort.signal.aborted;
    if (outcome.aborted) this.set({ ...this.current, phase: 'stopped' });
    return outcome;
  }
}
