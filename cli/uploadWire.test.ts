import { gunzipSync } from 'node:zlib';
import { cutUploadError, gzipStream } from './uploadWire.js';
import { wireGzip } from './upload.js';

/** Pieces of `parts`, each after waiting its `pauseMs`. */
async function* paced(parts: { text: string; pauseMs: number }[]): AsyncGenerator<Uint8Array> {
  for (const p of parts) {
    if (p.pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, p.pauseMs));
    yield Buffer.from(p.text);
  }
}

/** The output of gzipStream with the time each piece came out. */
async function collect(source: AsyncIterable<Uint8Array>, keepAliveMs: number): Promise<{ bytes: Buffer; times: number[] }> {
  const out: Buffer[] = [];
  const times: number[] = [];
  for await (const piece of gzipStream(source, keepAliveMs)) {
    out.push(piece);
    times.push(performance.now());
  }
  return { bytes: Buffer.concat(out), times };
}

const GZIP_MAGIC = Buffer.from([0x1f, 0x8b, 0x08]);

function members(bytes: Buffer): number {
  let n = 0;
  for (let at = bytes.indexOf(GZIP_MAGIC); at >= 0; at = bytes.indexOf(GZIP_MAGIC, at + 1)) n++;
  return n;
}

describe('gzipStream', () => {
  it('gunzips to the input, byte for byte, without pauses in one member', async () => {
    const text = Array.from({ length: 20000 }, (_, i) => `line ${i} ünïcode ✓\n`).join('');
    const parts = Array.from({ length: 10 }, (_, i) => ({ text: text.slice(i * 40000, (i + 1) * 40000), pauseMs: 0 }));
    const { bytes } = await collect(paced(parts), 10_000);
    expect(gunzipSync(bytes).toString()).toBe(parts.map((p) => p.text).join(''));
    expect(members(bytes)).toBe(1);
  });

  it('while the input is silent, sends something every keepAliveMs; the log arrives whole', async () => {
    const t0 = performance.now();
    // A trickle that deflate would hold back, then a silence of twenty keep-alive periods.
    const parts = [
      { text: 'first line\n', pauseMs: 0 },
      { text: 'second line\n', pauseMs: 50 },
      { text: 'after the silence\n', pauseMs: 2000 },
    ];
    const { bytes, times } = await collect(paced(parts), 100);
    expect(gunzipSync(bytes).toString()).toBe('first line\nsecond line\nafter the silence\n');
    const gaps = [times[0]! - t0, ...times.slice(1).map((t, i) => t - times[i]!)];
    // The timers may fire late on a loaded machine: well under the silence, never near it.
    expect(Math.max(...gaps)).toBeLessThan(1000);
    expect(members(bytes)).toBeGreaterThanOrEqual(3);
  });

  it('an empty input is an empty gzip body', async () => {
    const { bytes } = await collect(paced([]), 100);
    expect(gunzipSync(bytes).length).toBe(0);
  });

  it('an error of the input is the stream\'s error', async () => {
    const failing = (async function* () {
      yield Buffer.from('a\n');
      throw new Error('cut short');
    })();
    await expect(collect(failing, 100)).rejects.toThrow('cut short');
  });
});

describe('cutUploadError', () => {
  it('names the silence when the log had been silent, else the cut', () => {
    const silent = cutUploadError('http://h:8080', { bytes: 3 * 1024 * 1024, at: 1000 }, false, 20_000, 36_000);
    expect(silent.message).toBe('The controller at http://h:8080 closed the upload: the log sent nothing for the last 35 s (after 3.0 MB), longer than the controller waits for more; nothing was stored');
    expect(silent.hint).toMatch(/save it to a file first/);
    const cut = cutUploadError('http://h:8080', { bytes: 2048, at: 1000 }, false, 20_000, 2000);
    expect(cut.message).toMatch(/^The connection to the controller at http:\/\/h:8080 was cut during the upload \(after 2 KB of the log\)/);
    expect(cut.message).not.toMatch(/cannot reach/i);
  });
});

describe('wireGzip', () => {
  it('compresses a pipe even to a local controller; CICHAT_UPLOAD_GZIP decides first', () => {
    expect(wireGzip('http://127.0.0.1:8080', {})).toBe(false);
    expect(wireGzip('http://127.0.0.1:8080', {}, true)).toBe(true);
    expect(wireGzip('http://ci.example:8080', {})).toBe(true);
    expect(wireGzip('http://127.0.0.1:8080', { CICHAT_UPLOAD_GZIP: '0' }, true)).toBe(false);
  });
});
