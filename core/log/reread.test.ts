import { LogAnalyzer } from './analyze.js';
import { ByteLineSplitter, MARK_STRIDE } from './lines.js';
import { analyzeReadTwice } from './reread.js';

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

/** Reads `bytes` in pieces of `size`, counting the reads. */
function reader(bytes: Buffer, size: number) {
  const reads = { count: 0 };
  const open = async function* () {
    reads.count++;
    for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
  };
  return { open, reads };
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

  test('lines read after a skip to a mark are those a whole read gives, with their numbers', () => {
    let skips = 0;
    for (const bom of [false, true]) {
      for (let t = 0; t < 4; t++) {
        const bytes = streamOf(5 * MARK_STRIDE + next(MARK_STRIDE), bom);
        const all: string[] = [];
        const first = new ByteLineSplitter((line) => all.push(line), undefined, true, true);
        for (const p of pieces(bytes)) first.push(p);
        first.end();
        const marks = first.marks!;
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

  test('text given as strings: no marks', () => {
    const s = new ByteLineSplitter(() => undefined, undefined, false, true);
    s.push(Buffer.from('a\n'));
    s.push('b\n');
    expect(s.marks).toBeUndefined();
  });
});
