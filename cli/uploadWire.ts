/**
 * The wire of a raw log upload (cli/client.ts uploadLog): its gzip body kept alive, and the
 * error of an upload whose connection was cut.
 *
 * The gzip body of a raw log upload (`Content-Encoding: gzip`, cli/client.ts uploadLog), kept
 * alive while its input is silent.
 *
 * The controller and the backend close a connection on which nothing arrives for 30 s (their
 * idle bound, http/server.ts): a log piped from a slow producer (`slow-build | cichat ask`, a
 * `tail -f` of a running job) may pause longer, and a deflate stream holds what it was given
 * until it has a block's worth, so even a trickle of lines can leave the wire silent. So when
 * nothing has been sent for `keepAliveMs` the gzip member in progress is finished (its pending
 * bytes and trailer go out), and while the input stays silent an empty gzip member (20 bytes)
 * goes out every `keepAliveMs`; the next bytes of the log start a new member. A gzip body may
 * hold any number of members: the backend's gunzip reads them as one stream, so the log
 * arrives byte for byte as it was read.
 */
import { createGzip, gzipSync, type Gzip } from 'node:zlib';
import { UserError } from './errors.js';

/** How long the wire may stay silent before the gzip body sends something: a third of the servers' 30 s idle bound. */
export const UPLOAD_KEEPALIVE_MS = 10_000;

/** A whole gzip member of no bytes. */
const EMPTY_MEMBER = gzipSync(Buffer.alloc(0));

function member(out: Buffer[]): Gzip {
  // Level 1: the log shrinks 5-20 times for little CPU.
  const gzip = createGzip({ level: 1, chunkSize: 64 * 1024 });
  gzip.on('data', (piece: Buffer) => out.push(piece));
  return gzip;
}

/** Resolves once `piece` went through `gzip` (its output is in the member's `out` by then). */
function write(gzip: Gzip, piece: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    gzip.write(piece, (err) => (err ? reject(err) : resolve()));
  });
}

/** Ends `gzip`: its last bytes and trailer are in `out` once this resolves. */
function finish(gzip: Gzip): Promise<void> {
  return new Promise((resolve, reject) => {
    gzip.once('error', reject);
    gzip.once('end', resolve);
    gzip.end();
  });
}

/** `next`'s result, or undefined when it has not come within `ms`. */
async function within<T>(next: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([next, new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/** `source` gzip-compressed, one member per stretch of input, never silent longer than `keepAliveMs` while the input is. */
export async function* gzipStream(source: AsyncIterable<Uint8Array>, keepAliveMs = UPLOAD_KEEPALIVE_MS): AsyncGenerator<Buffer> {
  const input = source[Symbol.asyncIterator]();
  const out: Buffer[] = [];
  let gzip: Gzip | undefined;
  let sentAny = false;
  let lastSent = Date.now();
  // The next piece is read while this one is compressed; its failure is handled where it is awaited.
  const ahead = (): Promise<IteratorResult<Uint8Array>> => {
    const p = input.next();
    p.catch(() => undefined);
    return p;
  };
  let next = ahead();
  try {
    for (;;) {
      const result = await within(next, Math.max(1, keepAliveMs - (Date.now() - lastSent)));
      if (result === undefined) {
        // Nothing sent for keepAliveMs: what the member holds, else an empty member.
        if (gzip) {
          await finish(gzip);
          gzip = undefined;
        } else out.push(EMPTY_MEMBER);
      } else if (result.done) {
        if (gzip) await finish(gzip);
        else if (!sentAny) out.push(EMPTY_MEMBER);
        gzip = undefined;
        yield* out.splice(0);
        return;
      } else {
        next = ahead();
        gzip ??= member(out);
        await write(gzip, result.value);
      }
      if (out.length > 0) {
        sentAny = true;
        yield* out.splice(0);
        lastSent = Date.now();
      }
    }
  } finally {
    gzip?.destroy();
    // The read ahead (`next`) may still be pending (a silent pipe): its result is dropped and the
    // input closed without waiting for it.
    void Promise.resolve(input.return?.()).catch(() => undefined);
  }
}

/**
 * The error of an upload whose connection was cut once it had begun (not "cannot reach the
 * controller"): what was sent, and when the log had been silent for a while, that this is why
 * (the servers close a connection on which nothing arrives for 30 s; a gzip body is kept alive):
 * a silence of `silentMs` or more before the cut.
 */
export function cutUploadError(baseUrl: string, input: { bytes: number; at: number }, ended: boolean, silentMs = 2 * UPLOAD_KEEPALIVE_MS, now = Date.now()): UserError {
  const silent = now - input.at;
  const silentS = Math.round(silent / 100) / 10;
  const sent = input.bytes < 1024 * 1024 ? `${Math.ceil(input.bytes / 1024)} KB` : `${(input.bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (!ended && silent >= silentMs) {
    return new UserError(
      `The controller at ${baseUrl} closed the upload: the log sent nothing for the last ${silentS} s (after ${sent}), longer than the controller waits for more; nothing was stored`,
      'upload the log once it is complete (save it to a file first: `cmd > build.log`, then `cichat ask ... < build.log`), or let the CLI compress the upload, which keeps it open while the log is silent (unset CICHAT_UPLOAD_GZIP=0)',
    );
  }
  return new UserError(
    `The connection to the controller at ${baseUrl} was cut during the upload (after ${sent} of the log${ended ? ', all of it' : ''}): the controller or the backend stopped or restarted; nothing new is stored unless the upload had finished`,
    'send the log again; `cichat context last CHAT` says when the chat last got a log',
  );
}
