import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { decodeCp1252, decodeLog, readFileOrStdin, sniffLog } from './stdin.js';

describe('reading piped and named logs (issue 27)', () => {
  it('sniffs gzip, other compressed or binary formats, NUL bytes, control-heavy data and BOMs', () => {
    expect(sniffLog(gzipSync('x'))).toEqual({ kind: 'gzip' });
    expect(sniffLog(Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00, 1]))).toMatchObject({ kind: 'binary', what: 'xz-compressed data' });
    expect(sniffLog(Buffer.from('PK\u0003\u0004rest'))).toMatchObject({ kind: 'binary', what: 'a zip archive' });
    expect(sniffLog(Buffer.from('abc\u0000def'))).toEqual({ kind: 'binary', what: 'binary data (a NUL byte at offset 3)' });
    expect(sniffLog(Buffer.from('\u0001\u0002\u0003\u0004abcdef'))).toMatchObject({ kind: 'binary' });
    // ANSI colours, tabs, CR, backspace and form feed are text
    expect(sniffLog(Buffer.from('\u001b[31mred\u001b[0m\tx\r\n\b\f'))).toEqual({ kind: 'text' });
    expect(sniffLog(Buffer.from([0xef, 0xbb, 0xbf, 0x41]))).toEqual({ kind: 'text', bom: 'utf-8' });
    expect(sniffLog(Buffer.from([0xff, 0xfe, 0x41, 0]))).toEqual({ kind: 'text', bom: 'utf-16le' });
  });

  it('decodes UTF-8 as is, gzip decompressed, invalid UTF-8 as Windows-1252, UTF-16 by its BOM', () => {
    expect(decodeLog(Buffer.from('Größe ✓\n'), 'stdin')).toEqual({ text: 'Größe ✓\n' });
    const gz = decodeLog(gzipSync(Buffer.from('line 1\nERROR\n')), 'build.log.gz');
    expect(gz.text).toBe('line 1\nERROR\n');
    expect(gz.note).toMatch(/^build\.log\.gz: decompressed gzip \(\d+ KiB -> 1 KiB\)$/);
    const cp = decodeLog(Buffer.from([0x93, 0x71, 0x94, 0x20, 0x96, 0x20, 0xe0, 0x20, 0x80]), 'stdin');
    expect(cp).toEqual({ text: '“q” – à €', note: 'stdin: not UTF-8: read as Windows-1252 (Latin-1)' });
    const gzLatin = decodeLog(gzipSync(Buffer.from([0xe9, 0x0a])), 'stdin');
    expect(gzLatin.text).toBe('é\n');
    expect(gzLatin.note).toContain('decompressed gzip');
    expect(gzLatin.note).toContain('read as Windows-1252');
    expect(decodeLog(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('héllo\n', 'utf16le')]), 'stdin').text).toBe('héllo\n');
    expect(decodeLog(Buffer.from([0xef, 0xbb, 0xbf, 0x41, 0x0a]), 'stdin').text).toBe('A\n');
  });

  it('the Windows-1252 table matches the standard one for 0x80-0xFF', () => {
    const bytes = Uint8Array.from({ length: 128 }, (_, i) => 0x80 + i);
    const text = decodeCp1252(bytes);
    expect(text.length).toBe(128);
    expect(text.slice(0, 4)).toBe('€\u0081‚ƒ');
    expect(text[0x99 - 0x80]).toBe('™');
    expect(text[0x9f - 0x80]).toBe('Ÿ');
    expect(text.slice(0x20)).toBe(Buffer.from(bytes.slice(0x20)).toString('latin1'));
  });

  it('refuses binary input in one line naming it, with how to get the text', () => {
    expect(() => decodeLog(Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0]), 'build.zst')).toThrow('build.zst is not a text log: it looks like zstd-compressed data');
    expect(() => decodeLog(Buffer.from([0x1f, 0x8b, 8, 0, 1, 2, 3]), 'stdin')).toThrow(/^stdin starts like gzip data but could not be decompressed/);
    expect(() => decodeLog(gzipSync(Buffer.from('a\u0000b')), 'stdin')).toThrow('stdin is not a text log: it looks like binary data (a NUL byte at offset 1)');
  });

  it('a missing file, a directory: one line naming it', async () => {
    await expect(readFileOrStdin('/nonexistent/build.log')).rejects.toThrow('cannot read /nonexistent/build.log: no such file');
    await expect(readFileOrStdin(os.tmpdir())).rejects.toThrow(`cannot read ${os.tmpdir()}: it is a directory`);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-stdin-'));
    const file = path.join(dir, 'build.log.gz');
    fs.writeFileSync(file, gzipSync('from a file\n'));
    const notes: string[] = [];
    expect(await readFileOrStdin(file, Readable.from([]), (n) => notes.push(n))).toBe('from a file\n');
    expect(notes[0]).toMatch(/build\.log\.gz: decompressed gzip/);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
