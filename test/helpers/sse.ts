import { readEvents } from '../../protocol/sse.js';
import type { StreamEvent } from '../../protocol/types.js';

/** Reads a whole SSE response into its events. */
export async function collectEvents(res: Response): Promise<StreamEvent[]> {
  if (!res.body) throw new Error('no body');
  const events: StreamEvent[] = [];
  for await (const e of readEvents(res.body as unknown as AsyncIterable<Uint8Array>)) events.push(e);
  return events;
}

/** The text of the chunks of a stream. */
export function textOf(events: StreamEvent[]): string {
  return events.map((e) => (e.event === 'chunk' ? e.content : '')).join('');
}
