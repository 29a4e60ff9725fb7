/**
 * One context upload as `ask` and `context upload` make it: a progress bar, and Ctrl-C
 * (SIGINT/SIGTERM) aborting the request and saying what the chat holds afterwards (issue 27).
 */
import type { ContextUpload, ContextUploadResult } from './client.js';
import { InterruptedError } from './errors.js';
import type { Ctx } from './io.js';
import { localTime } from './output.js';
import { uploadProgress } from './progress.js';

export interface UploadCall {
  label: string;
  progress: boolean;
  /** The chat's upload time before this upload (`GET .../last-upload`), when known. */
  before?: string | null;
  /** Tests hand in their own abort signal instead of the process's signals. */
  signal?: AbortSignal;
}

export async function uploadInterruptibly(ctx: Ctx, chatId: number, body: ContextUpload, call: UploadCall): Promise<ContextUploadResult> {
  const abort = new AbortController();
  const onSignal = (): void => abort.abort();
  const outer = call.signal;
  if (outer) {
    if (outer.aborted) abort.abort();
    outer.addEventListener('abort', onSignal, { once: true });
  } else {
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  }
  const progress = uploadProgress(call.label, ctx.io.stderr, call.progress && ctx.io.stderr.isTTY === true);
  let sent = 0;
  let total = 0;
  try {
    return await ctx.client().uploadContext(
      chatId,
      body,
      (s, t) => {
        sent = s;
        total = t;
        progress.onProgress(s, t);
      },
      abort.signal,
    );
  } catch (err) {
    if (!abort.signal.aborted) throw err;
    progress.finish();
    throw new InterruptedError(await whatWasKept(ctx, chatId, call.before, total > 0 && sent >= total));
  } finally {
    progress.finish();
    outer?.removeEventListener('abort', onSignal);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** The sentence after an interrupted upload: whether the chat kept its context or got the new one. */
async function whatWasKept(ctx: Ctx, chatId: number, before: string | null | undefined, sentAll: boolean): Promise<string> {
  let now: string | null | undefined;
  try {
    now = (await ctx.client().lastUpload(chatId)).last_upload_at;
  } catch {
    now = undefined;
  }
  if (now !== undefined && now !== null && now !== before && before !== undefined) {
    return `Interrupted: the upload had already reached the backend; chat ${chatId} holds the new log (uploaded ${localTime(now)}).`;
  }
  const kept =
    now === undefined
      ? `chat ${chatId} keeps the context it had (check with: cichat context last ${chatId})`
      : now === null
        ? `chat ${chatId} still has no context`
        : `chat ${chatId} keeps its previous context (uploaded ${localTime(now)})`;
  return sentAll
    ? `Interrupted while the backend indexed the log: nothing new is stored unless it finishes; ${kept}.`
    : `Interrupted during the upload: nothing was stored; ${kept}.`;
}
