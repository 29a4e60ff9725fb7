import { mkdtemp, rm, writeFile, open } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { readGzipLogTail, readLogTail } from './logTail.js';

const ESC = '\u001b';
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'cichat-logtail-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('readLogTail', () => {
  it('returns only the last 1000 lines of a 50 MB log, reading only its end', async () => {
    const file = path.join(dir, 'log');
    const handle = await open(file, 'w');
    const lineCount = 700_000; // ~50 MB with the padding below
    const pad = 'x'.repeat(50);
    let chunk = '';
    for (let i = 1; i <= lineCount; i++) {
      // Every 7th line carries a hidden console note and colour codes, as Jenkins writes them.
      chunk += i % 7 === 0 ? `${ESC}[8mha:////4AbC+/=${ESC}[0m${ESC}[1;31mline ${i} ${pad}${ESC}[0m\n` : `line ${i} ${pad}\n`;
      if (chunk.length > 1 << 20) {
        await handle.write(chunk);
        chunk = '';
      }
    }
    await handle.write(chunk);
    await handle.close();

    const tail = await readLogTail(file, 1000);
    expect(tail.fileBytes).toBeGreaterThan(45 * 1024 * 1024);
    expect(tail.lines).toHaveLength(1000);
    expect(tail.lines[0]).toBe(`line ${lineCount - 999} ${pad}`);
    expect(tail.lines[999]).toBe(`line ${lineCount} ${pad}`);
    expect(tail.lines.every((l) => !l.includes(ESC))).toBe(true);
    expect(tail.truncated).toBe(true);
    // Only the end of the file was read: a few 64 KiB blocks, not 50 MB.
    expect(tail.bytesRead).toBeLessThan(256 * 1024);
  });

  it('returns every line of a short log, with or without a final newline, CRLF or not', async () => {
    const a = path.join(dir, 'a');
    await writeFile(a, 'one\r\ntwo\r\nthree');
    expect(await readLogTail(a, 1000)).toMatchObject({ lines: ['one', 'two', 'three'], truncated: false });
    const b = path.join(dir, 'b');
    await writeFile(b, 'one\ntwo\nthree\n');
    expect((await readLogTail(b, 2)).lines).toEqual(['two', 'three']);
    expect((await readLogTail(b, 3)).lines).toEqual(['one', 'two', 'three']);
    expect((await readLogTail(b, 3)).truncated).toBe(false);
  });

  it('keeps multi-byte characters whole across block boundaries', async () => {
    const file = path.join(dir, 'utf8');
    const line = 'Россия ✓ '.repeat(2000); // > 64 KiB per few lines
    await writeFile(file, `${line}\n`.repeat(20));
    const tail = await readLogTail(file, 5);
    expect(tail.lines).toEqual(Array(5).fill(line));
  });

  it('stops at the byte cap inside an endless last line and starts at a whole line', async () => {
    const file = path.join(dir, 'long');
    await writeFile(file, `first\nsecond\n${'y'.repeat(300_000)}\nlast`);
    const tail = await readLogTail(file, 1000, 100_000);
    expect(tail.bytesRead).toBeLessThanOrEqual(100_000);
    expect(tail.lines).toEqual(['last']);
    expect(tail.truncated).toBe(true);
  });

  it('handles an empty file and reports a missing one as ENOENT', async () => {
    const empty = path.join(dir, 'empty');
    await writeFile(empty, '');
    expect((await readLogTail(empty)).lines).toEqual([]);
    await expect(readLogTail(path.join(dir, 'nope'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('reads a line that is not UTF-8 as Windows-1252, line by line (a Latin-1 agent; ux3, session 42)', async () => {
    // Jenkins writes its own lines in UTF-8 and a tool's output as the agent's bytes: one log, two encodings.
    const file = path.join(dir, 'latin1');
    const bytes = Buffer.concat([
      Buffer.from('Started by user José\n', 'utf8'),
      Buffer.from('E       AssertionError: price(\'café\') \x80 5\n', 'latin1'),
      Buffer.from('Finished: UNSTABLE ✓\n', 'utf8'),
    ]);
    await writeFile(file, bytes);
    const expected = ['Started by user José', "E       AssertionError: price('café') € 5", 'Finished: UNSTABLE ✓'];
    expect((await readLogTail(file)).lines).toEqual(expected);
    const gz = path.join(dir, 'latin1.gz');
    await writeFile(gz, gzipSync(bytes));
    expect((await readGzipLogTail(gz)).lines).toEqual(expected);
  });
});

describe('readGzipLogTail', () => {
  it('keeps multi-byte characters whole across the pieces gunzip hands over, and the end of an endless line', async () => {
    const file = path.join(dir, 'log.gz');
    const line = 'Россия ✓ '.repeat(20_000); // ~300 KB: many 16 KiB pieces, cut inside characters
    await writeFile(file, gzipSync(`${line}\n${line}\nlast`));
    const tail = await readGzipLogTail(file, 1000);
    expect(tail.lines).toEqual([line, line, 'last']);
    // An endless last line past the byte cap keeps its end; the cut falls inside a character (offset measured).
    const endless = path.join(dir, 'endless.gz');
    await writeFile(endless, gzipSync(`xx\n${line}`));
    const cut = await readGzipLogTail(endless, 1000, 100_000);
    expect(cut.truncated).toBe(true);
    expect(cut.lines[0]).toBe('xx');
    // What is kept of the long line starts with a whole character: no replacement character or Latin-1 debris.
    expect(cut.lines[1]).toMatch(/^[Россия✓ ]+$/);
    expect(line.endsWith(cut.lines[1] as string)).toBe(true);
  });
});
