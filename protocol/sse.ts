import type { StreamEvent } from './types.js';

/** Encodes one event as an SSE message: one `data:` line and a blank line. */
export function encodeEvent(event: StreamEvent): string {
  return `data: ${JSON.stringify(event)}\n\n`;
}

/** The comment line sent after 15 s of silence so that proxies keep the stream open. */
export const SSE_PING = ': ping\n\n';

/**
 * Incremental SSE decoder: feed it text as it arrives (split anywhere, even mid-line or
 * between `\r` and `\n`), get the `data` payloads of complete messages back.
 */
export class SseDecoder {
  private buffer = '';
  private data: string[] = [];

  push(text: string): string[] {
    this.buffer += text;
    const out: string[] = [];
    for (;;) {
      const nl = this.buffer.search(/\r\n|\r|\n/);
      if (nl < 0) break;
      // A lone trailing \r may be the first half of \r\n: wait for more input.
      if (this.buffer[nl] === '\r' && nl === this.buffer.length - 1) break;
      const width = this.buffer.startsWith('\r\n', nl) ? 2 : 1;
      const line = this.buffer.slice(0, nl);
      this.buffer = this.buffer.slice(nl + width);
      if (line === '') {
        if (this.data.length > 0) out.push(this.data.join('\n'));
        this.data = [];
      } else if (line.startsWith(':')) {
        continue; // comment (ping)
      } else {
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        let value = colon < 0 ? '' : line.slice(colon + 1);
        if (value.startsWith(' ')) value = value.slice(1);
        if (field === 'data') this.data.push(value);
      }
    }
    return out;
  }

  /** Whatever complete-but-unterminated message is left when the stream ends. */
  end(): string[] {
    const rest = this.buffer;
    this.buffer = '';
    const out = rest ? this.push(rest + '\n\n') : [];
    if (this.data.length > 0) out.push(this.data.join('\n'));
    this.data = [];
    return out;
  }
}

/** Parses one SSE data payload as a StreamEvent, or throws a clear error. */
export function parseEvent(payload: string): StreamEvent {
  const value: unknown = JSON.parse(payload);
  if (typeof value !== 'object' || value === null || typeof (value as { event?: unknown }).event !== 'string') {
    throw new Error(`Not a stream event: ${payload.slice(0, 200)}`);
  }
  return value as StreamEvent;
}

/**
 * Reads an SSE body as stream events. Breaking out of the loop aborts the underlying request
 * through `abort` (as openai-node's Stream does).
 */
export async function* readEvents(
  body: AsyncIterable<Uint8Array>,
  abort?: () => void,
): AsyncGenerator<StreamEvent> {
  const decoder = new SseDecoder();
  const utf8 = new TextDecoder();
  let finished = false;
  try {
    for await (const bytes of body) {
      for (const payload of decoder.push(utf8.decode(bytes, { stream: true }))) yield parseEvent(payload);
    }
    for (const payload of decoder.end()) yield parseEvent(payload);
    finished = true;
  } finally {
    if (!finished) abort?.();
  }
}
