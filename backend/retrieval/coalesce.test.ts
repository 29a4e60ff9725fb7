import { coalesceBytes, type Coalesced } from './coalesce.js';

async function all(source: AsyncIterable<string | Uint8Array>, max?: number): Promise<Coalesced[]> {
  const out: Coalesced[] = [];
  for await (const piece of coalesceBytes(source, max)) out.push(piece);
  return out;
}

const bytesOf = (pieces: Coalesced[]): string => pieces.map((p) => ('text' in p ? `[${p.text}]` : Buffer.from(p.bytes).toString())).join('');

describe('coalesceBytes', () => {
  it('joins the byte pieces at hand, up to max, in order; texts pass between them', async () => {
    const source = (async function* () {
      for (let i = 0; i < 10; i++) yield Buffer.from(`piece ${i};`.padEnd(5000, '.'));
      yield 'a text';
      yield Buffer.from('after');
    })();
    const out = await all(source, 16_000);
    expect(bytesOf(out)).toBe(Array.from({ length: 10 }, (_, i) => `piece ${i};`.padEnd(5000, '.')).join('') + '[a text]after');
    const sizes = out.map((p) => ('text' in p ? -1 : p.bytes.length));
    expect(sizes).toEqual([20000, 20000, 10000, -1, 5]);
    // Joined pieces are buffers of their own (transferable); a lone piece is the source's.
    expect(out.map((p) => ('text' in p ? undefined : p.owned))).toEqual([true, true, true, undefined, false]);
  });

  it('never waits for bytes that have not arrived: a slow sender\'s piece goes on at once', async () => {
    let sentSecond = false;
    const source = (async function* () {
      yield Buffer.from('first');
      await new Promise((resolve) => setTimeout(resolve, 200));
      sentSecond = true;
      yield Buffer.from('second');
    })();
    const it = coalesceBytes(source);
    const first = await it.next();
    expect(sentSecond).toBe(false);
    expect(bytesOf([first.value as Coalesced])).toBe('first');
    expect(bytesOf([(await it.next()).value as Coalesced])).toBe('second');
    expect((await it.next()).done).toBe(true);
  });

  it('a small joined piece is never marked as its own buffer (it may sit in Node\'s shared pool)', async () => {
    const source = (async function* () {
      yield Buffer.from('a');
      yield Buffer.from('b');
    })();
    const out = await all(source);
    expect(bytesOf(out)).toBe('ab');
    for (const p of out) if (!('text' in p) && p.owned) expect(p.bytes.byteLength).toBe(p.bytes.buffer.byteLength);
  });

  it('the source\'s error is thrown', async () => {
    const source = (async function* () {
      yield Buffer.from('x');
      throw new Error('cut');
    })();
    await expect(all(source)).rejects.toThrow('cut');
  });
});
