/** `cichat ask`: one answer streamed to stdout, after an optional upload of a piped build log. */
import type { Ctx } from '../io.js';
import type { StreamEvent } from '../../protocol/types.js';
import { colourful, paint, printJson } from '../output.js';
import { InterruptedError, UsageError, UserError } from '../errors.js';
import { readPipedStdin } from '../stdin.js';
import { uploadProgress } from '../progress.js';
import type { ContextUpload } from '../client.js';

export interface AskOptions {
  chat?: number;
  job?: string;
  build?: number;
  title?: string;
  stdin: boolean;
}

const CITATION = /\[L\d+(?:-L?\d+)?(?:,\s*L\d+(?:-L?\d+)?)*\]/g;

/**
 * Colours `[L120-L131]` citations in streamed text without delaying the rest: text is passed
 * on at once except from an unclosed `[` (at most 40 characters are held back).
 */
export class CitationPainter {
  private held = '';
  constructor(private readonly colour: boolean) {}

  push(text: string): string {
    if (!this.colour) return text;
    const all = this.held + text;
    const open = all.lastIndexOf('[');
    if (open >= 0 && all.indexOf(']', open) < 0 && all.length - open < 40 && !all.slice(open).includes('\n')) {
      this.held = all.slice(open);
      return this.paint(all.slice(0, open));
    }
    this.held = '';
    return this.paint(all);
  }

  end(): string {
    const rest = this.held;
    this.held = '';
    return this.paint(rest);
  }

  private paint(text: string): string {
    return text.replace(CITATION, (c) => paint(true, 'cyan', c));
  }
}

function chatTitle(question: string): string {
  const oneLine = question.replace(/\s+/g, ' ').trim();
  return oneLine.length > 60 ? `${oneLine.slice(0, 57)}...` : oneLine || 'New Chat';
}

export async function ask(ctx: Ctx, question: string, opts: AskOptions): Promise<void> {
  if (!question.trim()) throw new UsageError('the question is empty', 'cichat ask "why did the last build fail?"');
  if (question.length > 20000) throw new UsageError('the question is longer than 20000 characters');
  if (opts.build !== undefined && opts.job === undefined) throw new UsageError('--build needs --job', 'cichat ask --job team/api --build 7 "..."');
  const client = ctx.client();
  const log = opts.stdin ? await readPipedStdin(ctx.io.stdin) : undefined;
  const hasLog = log !== undefined && log.length > 0;

  const chatId = opts.chat ?? (await client.createChat(opts.title ?? chatTitle(question))).id;
  if (opts.chat === undefined) ctx.io.stderr.write(`chat ${chatId}\n`);

  if (hasLog || opts.job !== undefined) {
    const upload: ContextUpload = {};
    if (hasLog) upload.consoleLog = log;
    if (opts.job !== undefined) upload.jobName = opts.job;
    if (opts.build !== undefined) upload.buildNumber = opts.build;
    const progress = uploadProgress('uploading log', ctx.io.stderr);
    try {
      await client.uploadContext(chatId, upload, progress.onProgress);
    } finally {
      progress.finish();
    }
  }

  const abort = new AbortController();
  const onSignal = (): void => abort.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const colour = !ctx.options.json && colourful(ctx.io.stdout, ctx.io.env);
  const painter = new CitationPainter(colour);
  let content = '';
  let qaPairId: number | undefined;
  let endedWith: 'done' | 'error' | undefined;
  let errorDetail = '';
  // CICHAT_TIMING=1 reports on stderr how long the answer took to start and to print.
  const timing = ctx.io.env.CICHAT_TIMING === '1';
  const sentAt = performance.now();
  let startedAt: number | undefined;
  let firstChunkAt: number | undefined;
  try {
    for await (const event of client.stream({ kind: 'send', chatId, content: question }, abort.signal)) {
      handle(event);
    }
  } catch (err) {
    if (abort.signal.aborted) {
      if (!ctx.options.json) ctx.io.stdout.write(painter.end() + '\n');
      throw new InterruptedError(`Interrupted: the answer was stopped (chat ${chatId}${qaPairId ? `, pair ${qaPairId}` : ''}).`);
    }
    throw err;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }

  function handle(event: StreamEvent): void {
    switch (event.event) {
      case 'started':
        qaPairId = event.qa_pair_id;
        startedAt = performance.now();
        break;
      case 'chunk':
        content += event.content;
        if (!ctx.options.json) ctx.io.stdout.write(painter.push(event.content));
        firstChunkAt ??= performance.now();
        break;
      case 'done':
        endedWith = 'done';
        break;
      case 'error':
        endedWith = 'error';
        errorDetail = event.detail;
        break;
      default: {
        const never: never = event;
        throw new Error(`Unknown stream event ${JSON.stringify(never)}`);
      }
    }
  }

  if (timing) {
    const ms = (a: number | undefined, b: number | undefined): string => (a !== undefined && b !== undefined ? (b - a).toFixed(1) : '-');
    ctx.io.stderr.write(
      `timing: request->started ${ms(sentAt, startedAt)} ms, started->first chunk printed ${ms(startedAt, firstChunkAt)} ms, total ${ms(sentAt, performance.now())} ms\n`,
    );
  }
  if (ctx.options.json) {
    printJson(ctx.io.stdout, { chat_id: chatId, qa_pair_id: qaPairId ?? null, status: endedWith === 'done' ? 'complete' : 'failed', content, ...(errorDetail ? { detail: errorDetail } : {}) });
  } else {
    const tail = painter.end();
    ctx.io.stdout.write(tail + (content.endsWith('\n') ? '' : '\n'));
  }
  if (endedWith === 'error') throw new UserError(`The answer failed: ${errorDetail}`, `retry it in \`cichat chat ${chatId}\``);
  if (endedWith !== 'done') throw new UserError('The answer stream ended before it was complete.', `see \`cichat chats show ${chatId}\``);
}
