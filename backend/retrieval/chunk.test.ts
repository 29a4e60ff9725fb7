import { Chunker, chunkLines, chunkLineStream, splitLines } from './chunk.js';
import type { LogChunk } from './chunk.js';

const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`);

/** Every line number 1..n appears in some chunk, and each chunk's text is exactly its lines. */
function expectCovers(chunks: LogChunk[], lines: string[]): void {
  const seen = new Set<number>();
  for (const c of chunks) {
    expect(c.end_line).toBeGreaterThanOrEqual(c.start_line);
    expect(c.text).toBe(lines.slice(c.start_line - 1, c.end_line).join('\n'));
    for (let n = c.start_line; n <= c.end_line; n++) seen.add(n);
  }
  expect(seen.size).toBe(lines.length);
}

describe('splitLines', () => {
  test('splits on \\n, keeps empty lines and drops only a final empty one', () => {
    expect([...splitLines('a\n\nb\r\nc\n')]).toEqual(['a', '', 'b\r', 'c']);
    expect([...splitLines('a\nb')]).toEqual(['a', 'b']);
    expect([...splitLines('')]).toEqual([]);
    expect([...splitLines('\n')]).toEqual(['']);
  });

  test('decodes a Buffer line by line as UTF-8', () => {
    expect([...splitLines(Buffer.from('grüße\n日本語\n✓'))]).toEqual(['grüße', '日本語', '✓']);
  });
});

describe('chunkLines', () => {
  test('cuts 100 lines into 40-line chunks overlapping by 10', () => {
    const lines = numbered(100);
    const chunks = [...chunkLines(lines, { linesPerChunk: 40, overlap: 10 })];
    expect(chunks.map((c) => [c.start_line, c.end_line])).toEqual([
      [1, 40],
      [31, 70],
      [61, 100],
    ]);
    expectCovers(chunks, lines);
  });

  test('defaults to 40 lines overlapping by 5', () => {
    expect([...chunkLines(numbered(80))].map((c) => [c.start_line, c.end_line])).toEqual([
      [1, 40],
      [36, 75],
      [71, 80],
    ]);
  });

  test('does not emit a chunk made only of overlap at the end', () => {
    const chunks = [...chunkLines(numbered(40), { linesPerChunk: 40, overlap: 10 })];
    expect(chunks.map((c) => [c.start_line, c.end_line])).toEqual([[1, 40]]);
  });

  test('honours the character cap by closing chunks early', () => {
    const lines = Array.from({ length: 50 }, (_, i) => `${i + 1}`.padEnd(99, 'x'));
    const chunks = [...chunkLines(lines, { maxChars: 1000 })];
    for (const c of chunks) expect(c.text.length).toBeLessThanOrEqual(1000);
    expectCovers(chunks, lines);
  });

  test('cuts one 10 MB line into bounded pieces that all name that line', () => {
    const giant = 'y'.repeat(10 * 1024 * 1024);
    const chunks = [...chunkLines(['before', giant, 'after'], { maxChars: 4000 })];
    const pieces = chunks.filter((c) => c.start_line === 2);
    expect(pieces).toHaveLength(Math.ceil(giant.length / 4000));
    for (const p of pieces) {
      expect(p.end_line).toBe(2);
      expect(p.text.length).toBeLessThanOrEqual(4000);
    }
    expect(pieces.map((p) => p.text).join('')).toBe(giant);
    expect(chunks[0]).toEqual({ start_line: 1, end_line: 1, text: 'before' });
    expect(chunks.at(-1)).toEqual({ start_line: 3, end_line: 3, text: 'after' });
  });

  test('numbers from firstLine and reports the line count', () => {
    const chunker = new Chunker({ firstLine: 101, linesPerChunk: 5, overlap: 0 });
    const out = numbered(7).flatMap((l) => chunker.push(l));
    out.push(...chunker.end());
    expect(out.map((c) => [c.start_line, c.end_line])).toEqual([
      [101, 105],
      [106, 107],
    ]);
    expect(chunker.lineCount).toBe(7);
  });

  test('an empty log has no chunks', () => {
    expect([...chunkLines([])]).toEqual([]);
  });

  test('chunkLineStream gives the same chunks from an async source', async () => {
    const lines = numbered(95);
    async function* source() {
      for (const l of lines) yield l;
    }
    const got: LogChunk[] = [];
    for await (const c of chunkLineStream(source())) got.push(c);
    expect(got).toEqual([...chunkLines(lines)]);
  });
});
