import fs from 'node:fs';
import { LineSplitter, MAX_LINE_CHARS, cleanLine } from './clean.js';
import { ByteLineSplitter } from './lines.js';
import { setByteScanner } from './byteScan.js';
import { failureHints } from './shapes.js';
import { PROBE_CHARS } from './blocks.js';
import { fixtureFiles } from '../../test/helpers/realfail.js';

/** What `cichat analyze` did before: a streaming TextDecoder in front of a LineSplitter. */
function viaText(pieces: readonly (Buffer | string)[]): string[] {
  const out: string[] = [];
  const splitter = new LineSplitter((line, length) => out.push(`${length}|${line}`));
  const decoder = new TextDecoder();
  for (const p of pieces) splitter.push(typeof p === 'string' ? p : decoder.decode(p, { stream: true }));
  splitter.push(decoder.decode());
  splitter.end();
  return out;
}

function viaBytes(pieces: readonly (Buffer | string)[]): string[] {
  const out: string[] = [];
  const splitter = new ByteLineSplitter((line, length) => out.push(`${length}|${line}`));
  for (const p of pieces) splitter.push(p);
  splitter.end();
  expect(splitter.count).toBe(out.length);
  return out;
}

let seed = 3;
const next = (n: number): number => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;

/** The bytes in pieces of random sizes (1-5 bytes often, so pieces end inside UTF-8 sequences). */
function cut(bytes: Buffer): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; ) {
    const n = next(3) === 0 ? 1 + next(5) : 1 + next(4000);
    out.push(bytes.subarray(i, i + n));
    i += n;
  }
  return out;
}

const same = (pieces: readonly (Buffer | string)[]): void => {
  expect(viaBytes(pieces)).toEqual(viaText(pieces));
};

describe('ByteLineSplitter', () => {
  test('the same lines and lengths as TextDecoder + LineSplitter on every fixture log, whole and cut anywhere', () => {
    // Of the real-failure cases, the tuned ones only (a held-out round's case is never read by a test).
    const files = fixtureFiles(/\.(?:log|txt)$/);
    expect(files.length).toBeGreaterThan(50);
    for (const f of files) {
      const bytes = fs.readFileSync(f);
      same([bytes]);
      same(cut(bytes));
    }
  });

  test('byte soup: CR, ANSI escapes, broken and split UTF-8, byte-order marks', () => {
    const alphabet = [0x0a, 0x0d, 0x1b, 0x5b, 0x6d, 0x41, 0x20, 0xef, 0xbb, 0xbf, 0xe2, 0x82, 0xac, 0xc3, 0xa9, 0x80, 0xff, 0xf0, 0x9f, 0x98, 0x9b, 0x30, 0x3b];
    for (let t = 0; t < 2000; t++) {
      const bytes = Buffer.alloc(next(300));
      for (let i = 0; i < bytes.length; i++) bytes[i] = alphabet[next(alphabet.length)]!;
      if (next(5) === 0) bytes.set([0xef, 0xbb, 0xbf].slice(0, Math.min(3, bytes.length)));
      same([bytes]);
      same(cut(bytes));
    }
  });

  test('escape soup of ASCII: colours stripped from the bytes give the lines and hints cleanLine gives', () => {
    // ESC, CSI and OSC pieces, cursor moves, console notes (ESC[8mha:), BEL, ST, carriage returns.
    const pieces = ['\u001b', '[', ']', '0', '1', '8', ';', '?', ' ', '!', 'm', 'A', 'K', 'G', 'h', 'a', ':', '\u0007', '\\', 'x', 'E', 'r', 'o', '\r', '\n', '\u001b[31m', '\u001b[0m', '\u001b[8mha:', '\u001b]8;;', 'error '];
    for (let t = 0; t < 3000; t++) {
      let text = '';
      for (let k = next(60); k > 0; k--) text += pieces[next(pieces.length)]!;
      const bytes = Buffer.from(text, 'latin1');
      same([bytes]);
      same(cut(bytes));
      const got: [string, number][] = [];
      const splitter = new ByteLineSplitter((line, _length, hints) => got.push([line, hints]), undefined, true);
      splitter.push(bytes);
      splitter.end();
      for (const [line, hints] of got) if (hints >= 0) expect(hints).toBe(failureHints(line.slice(0, PROBE_CHARS)));
    }
  });

  test('a byte-order mark is dropped at the start only, even when it comes a byte at a time', () => {
    same([Buffer.from([0xef]), Buffer.from([0xbb]), Buffer.from([0xbf, 0x41, 0x0a, 0xef, 0xbb, 0xbf, 0x42])]);
    same([Buffer.from([0xef, 0xbb])]);
    expect(viaBytes([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('a\n')])).toEqual(['1|a']);
  });

  test('lines longer than the cut: kept whole within one piece, cut across pieces, as before', () => {
    const long = Buffer.from(`${'x'.repeat(MAX_LINE_CHARS + 5)}\nshort\n${'é'.repeat(MAX_LINE_CHARS / 2 + 3)}\n${'y'.repeat(MAX_LINE_CHARS + 1)}`);
    same([long]);
    same(cut(long));
  });

  test('text pieces mixed with bytes keep their order', () => {
    same([Buffer.from('ab\ncd'), 'ef\ngh', Buffer.from('ij\n'), Buffer.from([0xc3]), Buffer.from([0xa9, 0x0a])]);
  });

  test('trailing carriage returns (Travis ends lines with \\r\\r\\n) are dropped, inner ones overwrite', () => {
    const text = 'a\r\r\nb\r\n\r\n\r\r\nc\rd\r\n\u001b[1mé\u001b[0m\r\n\r';
    same([Buffer.from(text)]);
    expect(viaBytes([Buffer.from(text)])).toEqual(['3|a', '2|b', '1|', '2|', '4|d', '10|é', '1|']);
  });

  test('lines needing cleaning among clean ones in one piece: a 0x9B byte of another character is no escape', () => {
    // U+009B (C2 9B) is the 8-bit CSI; 'ě' (C4 9B) holds the byte too. Escapes and carriage returns far apart and close together.
    const text = `plain\nred \u009b31mx\u009b0m\ncaf\u00e9 \u011b\nclean\na\u001b[1mb\u001b[0m\nc\rd\nlast \u011b\n${'z'.repeat(70_000)}\nx\u001b[31my\n`;
    same([Buffer.from(text)]);
    same(cut(Buffer.from(text)));
    expect(viaBytes([Buffer.from(text)]).slice(0, 7)).toEqual(['5|plain', '12|red x', '6|café ě', '5|clean', '10|ab', '3|d', '6|last ě']);
  });

  test('a line of ASCII redrawn with carriage returns: its last part, when it shows text, is cleaned from the bytes and gets hints', () => {
    // White space `trim` drops (tab, VT, FF, space); colours, cursor moves and console notes before and after the last carriage return.
    const pieces = ['\r', '\r', ' ', '\t', '\u000b', '\u000c', 'ab', 'ok', 'error ', '\u001b[31m', '\u001b[0m', '\u001b[K', '\u001b[2D', 'x', '\u001b[8mha:', '\u001b]0;t\u0007'];
    let text = '';
    for (let t = 0; t < 3000; t++) {
      let line = '';
      for (let k = 1 + next(12); k > 0; k--) line += pieces[next(pieces.length)]!;
      text += `${line}\n`;
    }
    const bytes = Buffer.from(text, 'latin1');
    same([bytes]);
    same(cut(bytes));
    const raws = text.split('\n').slice(0, -1);
    // With hints, through the WebAssembly scanner and through the JavaScript path.
    for (const scanner of [undefined, null]) {
      setByteScanner(scanner);
      const got: [string, number][] = [];
      const splitter = new ByteLineSplitter((line, _length, hints) => got.push([line, hints]), undefined, true);
      splitter.push(bytes);
      splitter.end();
      expect(got.map(([line]) => line)).toEqual(raws.map(cleanLine));
      let redrawn = 0;
      got.forEach(([line, hints], k) => {
        const raw = raws[k]!.replace(/\r+$/, '');
        const last = raw.slice(raw.lastIndexOf('\r') + 1);
        // The last part shows text and needs no drawing: the bytes gave the line its hints.
        if (raw.includes('\r') && line.trim() !== '' && !/\u001b\[\d*[A-GK]|\u001b\[8mha:/.test(last) && cleanLine(last) === line) {
          redrawn++;
          expect([raw, hints]).toEqual([raw, failureHints(line.slice(0, PROBE_CHARS))]);
        } else if (hints >= 0) expect(hints).toBe(failureHints(line.slice(0, PROBE_CHARS)));
      });
      expect(redrawn).toBeGreaterThan(200);
    }
    setByteScanner(undefined);
  });

  test('cleans lines: carriage-return overwrites and colours', () => {
    expect(viaBytes([Buffer.from('50%\r100%\r\n\u001b[31mred\u001b[0m\nplain\n')])).toEqual(['9|100%', '12|red', '5|plain']);
  });
});

describe('cleanLine: a line drawn with cursor moves shows what a terminal shows', () => {
  const E = '\u001b';
  test.each([
    // Gradle's rich console: the status line is erased before each line of the failure.
    [`${E}[1m> Configuring > 2/2 projects${E}[22m${E}[28D${E}[0K* What went wrong:`, '* What went wrong:'],
    // A move up continues the line above: the text is new, the column it was put at is not kept.
    [`${E}[1m> Configuring > 2/2 projects${E}[22m${E}[28D${E}[0K${E}[1A${E}[2Cfailed to find Build Tools revision 23.0.2`, 'failed to find Build Tools revision 23.0.2'],
    // A status erased at the end leaves nothing.
    [`${E}[1m> Loading${E}[22m${E}[11D${E}[0K${E}[1m2/2 projects${E}[22m${E}[12D${E}[0K`, ''],
    // Overwriting in place and erasing the whole line.
    [`50%${E}[3D100%`, '100%'],
    [`progress${E}[2K${E}[Gdone`, 'done'],
    // Colours alone are stripped as before.
    [`${E}[31mBUILD FAILED${E}[39m`, 'BUILD FAILED'],
  ])('%j', (raw, shown) => {
    expect(cleanLine(raw)).toBe(shown);
  });
});
