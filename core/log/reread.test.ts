import { LogAnalyzer } from './analyze.js';
import { ByteLineSplitter } from './lines.js';
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
