import { LogAnalyzer } from './analyze.js';
import { ByteLineSplitter, MARK_STRIDE } from './lines.js';
import { MAX_LINE_CHARS } from './clean.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { decodeLogStream } from './decode.js';
import { analyzeReadTwice, readFilePieces } from './reread.js';

/** A log of `errors` failures, `gap` lines apart, as bytes. */
function logOf(errors: number, gap: number): Buffer {
  const lines: string[] = [];
  for (let k = 0; k < errors; k++) {
    lines.push(`error: step ${k} failed at src/file${k % 7}.c:${k}`);
    for (let i = 0; i < gap; i++) lines.push(`compiling module ${k}.${i}`);
  }
  lines.push('Finished: FAILURE');
  return Buffer.from(lines.join('\r\n') + '\n');
}

function once(bytes: Buffer) {
  const analyzer = new LogAnalyzer();
  const splitter = new ByteLineSplitter((line) => analyzer.push(line));
  splitter.push(bytes);
  splitter.end();
  return analyzer.end();
}

/**
 * Reads `bytes` in pieces of `size`, counting the reads, each piece in the same buffer (as
 * readFilePieces gives them: a consumer that kept one would see it change); `openAt` from an offset.
 */
function reader(bytes: Buffer, size: number) {
  const reads = { count: 0, at: [] as number[] };
  const from = async function* (start: number) {
    const piece = Buffer.alloc(size);
    for (let i = start; i < bytes.length; i += size) {
      const n = bytes.copy(piece, 0, i, Math.min(bytes.length, i + size));
      yield piece.subarray(0, n);
      piece.fill(0x2a);
    }
  };
  const open = () => {
    reads.count++;
    return from(0);
  };
  const openAt = (start: number) => {
    reads.at.push(start);
    return from(start);
  };
  return { open, openAt, reads };
}

const view = (r: ReturnType<typeof once>) => ({ excerpts: r.excerpts, lineCount: r.lineCount, texts: r.excerpts.map((e) => r.text(e)), lines: r.excerpts.map((e) => r.line(e.start_line)) });

describe('analyzeReadTwice (cichat analyze FILE)', () => {
  test('a log whose blocks keep more lines than the budget: read again for the lines shown, the same result as one read keeping them', async () => {
    // 700 blocks 200 lines apart keep ~127 000 lines (each block and 80 + 100 lines around it).
    const bytes = logOf(700, 200);
    const { open, reads } = reader(bytes, 65536);
    const twice = await analyzeReadTwice(open);
    expect(reads.count).toBe(2);
    expect(view(twice)).toEqual(view(once(bytes)));
    expect(twice.excerpts.length).toBe(5);
    expect(twice.excerpts.every((e) => e.finding !== undefined)).toBe(true);
  });

  test('the second read starts where the lines it wants are (openAt): the same result', async () => {
    // Blocks far apart after a long quiet part: the lines shown are megabytes past the start.
    const quiet = Buffer.from('compiling a module that prints nothing wrong\n'.repeat(60_000));
    for (const [bytes, size] of [
      [Buffer.concat([quiet, logOf(700, 200)]), 65536],
      [Buffer.concat([Buffer.from('\ufeff'), quiet, logOf(700, 200), quiet, Buffer.from('fatal: repository not found')]), 1000],
    ] as const) {
      const { open, openAt, reads } = reader(bytes, size);
      const twice = await analyzeReadTwice(open, {}, openAt);
      expect(reads.count).toBe(1);
      expect(reads.at.length).toBeGreaterThan(0);
      expect(reads.at[0]).toBeGreaterThan(quiet.length);
      expect(view(twice)).toEqual(view(once(bytes)));
      // Without openAt, the second read reads from the start: the same again.
      const plain = reader(bytes, size);
      expect(view(await analyzeReadTwice(plain.open))).toEqual(view(twice));
      expect(plain.reads.count).toBe(2);
    }
  });

  test('a log with few blocks is read once', async () => {
    const bytes = logOf(20, 50);
    const { open, reads } = reader(bytes, 1000);
    const twice = await analyzeReadTwice(open);
    expect(reads.count).toBe(1);
    expect(view(twice)).toEqual(view(once(bytes)));
  });

  test('more excerpts, small pieces, the wanted line last and without a newline', async () => {
    const bytes = Buffer.concat([logOf(700, 200), Buffer.from('fatal: repository not found')]);
    const { open } = reader(bytes, 777);
    const twice = await analyzeReadTwice(open, { maxExcerpts: 40 });
    const analyzer = new LogAnalyzer({ maxExcerpts: 40 });
    const splitter = new ByteLineSplitter((line) => analyzer.push(line));
    splitter.push(bytes);
    splitter.end();
    expect(view(twice)).toEqual(view(analyzer.end()));
  });
});

describe('ByteLineSplitter with wanted lines', () => {
  test('gives the wanted lines only, with the numbers every line has', () => {
    const bytes = Buffer.from('a\r\nb\nc\u001b[31m red\u001b[0m\nd\ne');
    const all: string[] = [];
    const every = new ByteLineSplitter((line) => all.push(line));
    every.push(bytes);
    every.end();
    const got: [number, string][] = [];
    const some: ByteLineSplitter = new ByteLineSplitter((line) => got.push([some.count - 1, line]), (i) => i === 2 || i === 4);
    some.push(bytes.subarray(0, 5));
    some.push(bytes.subarray(5));
    some.end();
    expect(some.count).toBe(every.count);
    expect(got.filter(([i]) => i === 2 || i === 4)).toEqual([
      [2, all[2]],
      [4, all[4]],
    ]);
  });
});

describe('ByteLineSplitter marks and skipTo (the second read skips to the lines it wants)', () => {
  let seed = 11;
  const next = (n: number): number => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
  /** Lines of any kind: empty, colours, carriage returns, UTF-8, long; with or without a byte-order mark. */
  const streamOf = (lines: number, bom: boolean): Buffer => {
    const parts: string[] = bom ? ['\ufeff'] : [];
    const kinds = ['', 'plain text', '\u001b[31mred\u001b[0m', '50%\r100%', 'caf\u00e9 \u2716', 'x'.repeat(5000), 'a\r\r'];
    for (let k = 0; k < lines; k++) parts.push(`${k} ${kinds[next(kinds.length)]}\n`);
    return Buffer.from(parts.join(''));
  };
  const pieces = (bytes: Buffer): Buffer[] => {
    const out: Buffer[] = [];
    for (let i = 0; i < bytes.length; ) {
      const n = next(4) === 0 ? 1 + next(3) : 1 + next(70_000);
      out.push(bytes.subarray(i, i + n));
      i += n;
    }
    return out;
  };

  /** Every line of a whole read in pieces, and its marks. */
  const firstRead = (bytes: Buffer): { all: string[]; marks: number[] } => {
    const all: string[] = [];
    const first = new ByteLineSplitter((line) => all.push(line), undefined, true, true);
    for (const p of pieces(bytes)) first.push(p);
    first.end();
    return { all, marks: first.marks! };
  };

  test('lines read after a skip to a mark are those a whole read gives, with their numbers', () => {
    let skips = 0;
    for (const bom of [false, true]) {
      for (let t = 0; t < 4; t++) {
        const bytes = streamOf(5 * MARK_STRIDE + next(MARK_STRIDE), bom);
        const { all, marks } = firstRead(bytes);
        expect(marks.length).toBe(Math.ceil(all.length / MARK_STRIDE));
        const stride = 1 + next(marks.length - 1);
        const got: [number, string][] = [];
        const second: ByteLineSplitter = new ByteLineSplitter((line) => got.push([second.count - 1, line]));
        let skipped = false;
        for (const p of pieces(bytes)) {
          second.push(p);
          if (!skipped && marks[stride]! > second.consumed) {
            second.skipTo(marks[stride]!, stride * MARK_STRIDE);
            skipped = true;
            skips++;
          }
        }
        second.end();
        expect(second.count).toBe(all.length);
        const after = got.filter(([i]) => i >= stride * MARK_STRIDE);
        expect(after.length).toBe(all.length - stride * MARK_STRIDE);
        for (const [i, line] of after) if (line !== all[i]) expect([i, line]).toEqual([i, all[i]]);
      }
    }
    expect(skips).toBeGreaterThan(3);
  });

  test('a read started at a mark (startAt), then a skip further on: the lines a whole read gives, with their numbers', () => {
    for (const bom of [false, true]) {
      for (let t = 0; t < 4; t++) {
        const bytes = streamOf(6 * MARK_STRIDE + next(MARK_STRIDE), bom);
        const { all, marks } = firstRead(bytes);
        const from = 1 + next(2);
        const to = from + 2 + next(marks.length - from - 2);
        const got: [number, string][] = [];
        const second: ByteLineSplitter = new ByteLineSplitter((line) => got.push([second.count - 1, line]));
        second.startAt(marks[from]!, from * MARK_STRIDE);
        let skipped = false;
        for (const p of pieces(bytes.subarray(marks[from]!))) {
          second.push(p);
          if (!skipped && marks[to]! > second.consumed) {
            second.skipTo(marks[to]!, to * MARK_STRIDE);
            skipped = true;
          }
        }
        second.end();
        expect(skipped).toBe(true);
        expect(second.count).toBe(all.length);
        // Every line cut is the line of its number (before the skip too), and none after it is missing.
        for (const [i, line] of got) if (i < from * MARK_STRIDE || line !== all[i]) expect([i, line]).toEqual([i, all[i]]);
        expect(got.filter(([i]) => i >= to * MARK_STRIDE).length).toBe(all.length - to * MARK_STRIDE);
      }
    }
  });

  test('wanted lines of any kind, in pieces of any size: the text a whole read gives, the same count and marks', () => {
    for (let t = 0; t < 6; t++) {
      const bytes = Buffer.concat([streamOf(3 * MARK_STRIDE + next(MARK_STRIDE), t % 2 === 1), Buffer.from(`x${'y'.repeat(MAX_LINE_CHARS + 10)}\nlast`)]);
      const { all, marks } = firstRead(bytes);
      // Runs of wanted lines and lone ones, and the over-long line and the last (without a newline) now and then.
      const wanted = new Set<number>();
      for (let k = 0; k < 40; k++) {
        const at = next(all.length);
        for (let j = 0; j < 1 + next(t % 3 === 0 ? 300 : 3); j++) wanted.add(at + j);
      }
      const got: [number, string][] = [];
      const second: ByteLineSplitter = new ByteLineSplitter((line) => got.push([second.count - 1, line]), (i) => wanted.has(i), false, true);
      for (const p of pieces(bytes)) second.push(p);
      second.end();
      expect(second.count).toBe(all.length);
      expect(second.marks).toEqual(marks);
      const wantedGot = got.filter(([i]) => wanted.has(i));
      expect(wantedGot.length).toBe([...wanted].filter((i) => i < all.length).length);
      for (const [i, line] of wantedGot) if (line !== all[i]) expect([i, line.slice(0, 80)]).toEqual([i, all[i]?.slice(0, 80)]);
    }
  });

  test('text given as strings: no marks', () => {
    const s = new ByteLineSplitter(() => undefined, undefined, false, true);
    s.push(Buffer.from('a\n'));
    s.push('b\n');
    expect(s.marks).toBeUndefined();
  });
});

describe('readFilePieces (one buffer for every piece)', () => {
  test('from an offset; decodeLogStream copies what it keeps past a piece (its head, gzip read ahead)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-reread-'));
    try {
      // Random hex lines hardly compress: the gzip file is several pieces long.
      const text = Buffer.from(Array.from({ length: 40_000 }, () => randomBytes(24).toString('hex')).join('\n'));
      const plain = path.join(dir, 'a.log');
      const gz = path.join(dir, 'a.log.gz');
      fs.writeFileSync(plain, text);
      fs.writeFileSync(gz, gzipSync(text));
      expect(fs.statSync(gz).size).toBeGreaterThan(3 * 256 * 1024);
      const all = async (pieces: AsyncIterable<Uint8Array>): Promise<Buffer> => {
        const out: Buffer[] = [];
        for await (const p of pieces) out.push(Buffer.from(p));
        return Buffer.concat(out);
      };
      expect((await all(readFilePieces(plain, 1_000_001))).equals(text.subarray(1_000_001))).toBe(true);
      expect((await all(decodeLogStream(readFilePieces(plain), 'a.log'))).equals(text)).toBe(true);
      expect((await all(decodeLogStream(readFilePieces(gz), 'a.log.gz'))).equals(text)).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
