/**
 * The WebAssembly byte scan (byteScan.ts) against lines.ts's JavaScript path: the same lines,
 * lengths, hints and marks on every fixture log and on random bytes; and the module is what
 * scripts/byteScanWasm.ts assembles from its description.
 */
import fs from 'node:fs';
import { jest } from '@jest/globals';
import { assemble, assembleBody, sleb, uleb } from '../../scripts/wasmAsm.js';
import { BYTE_SCAN, BYTE_SCAN_FILE, byteScanSource } from '../../scripts/byteScanWasm.js';
import { BYTE_SCAN_MAX_RECORDS, ByteScanner, byteScanner, setByteScanner } from './byteScan.js';
import { ByteLineSplitter, MARK_STRIDE } from './lines.js';
import { MAX_LINE_CHARS } from './clean.js';
import { PROBE_CHARS } from './blocks.js';
import { HINT_SYMBOL, HINT_TABLE, failureHints } from './shapes.js';
import { fixtureFiles } from '../../test/helpers/realfail.js';

interface Cut {
  lines: string[];
  marks: number[] | undefined;
}

/** The splitter's lines (length, hints, text) and marks, with the WebAssembly scanner or without. */
function split(pieces: readonly Buffer[], wasm: boolean): Cut {
  const scanner = byteScanner();
  if (!wasm) setByteScanner(null);
  try {
    const lines: string[] = [];
    const splitter = new ByteLineSplitter((line, length, hints) => lines.push(`${length}|${hints}|${line}`), undefined, true, true);
    for (const p of pieces) splitter.push(p);
    splitter.end();
    expect(splitter.count).toBe(lines.length);
    return { lines, marks: splitter.marks };
  } finally {
    setByteScanner(scanner);
  }
}

/**
 * Where the two differ: null when they give the same lines and marks, else the first line that differs
 * (judged by the caller once: jest's expect a piece, and its diff of whole logs, are slow).
 */
const differ = (pieces: readonly Buffer[]): unknown => {
  const a = split(pieces, true);
  const b = split(pieces, false);
  const k = a.lines.findIndex((line, i) => line !== b.lines[i]);
  if (k < 0 && a.lines.length === b.lines.length && JSON.stringify(a.marks) === JSON.stringify(b.marks)) return null;
  return { line: k, wasm: a.lines[k], js: b.lines[k], lines: [a.lines.length, b.lines.length], marks: [a.marks, b.marks] };
};

/** `differ` over many inputs, judged once. */
function sameOn(inputs: Iterable<readonly Buffer[]>): void {
  const found: unknown[] = [];
  for (const pieces of inputs) {
    const d = differ(pieces);
    if (d !== null && found.length < 3) found.push(d);
  }
  expect(found).toEqual([]);
}
const same = (pieces: readonly Buffer[]): void => sameOn([pieces]);

let seed = 11;
const next = (n: number): number => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;

/** The bytes in pieces of random sizes, lines often cut across them. */
function cut(bytes: Buffer): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; ) {
    const n = next(3) === 0 ? 1 + next(5) : 1 + next(6000);
    out.push(bytes.subarray(i, i + n));
    i += n;
  }
  return out;
}

describe('the WebAssembly byte scan gives what the JavaScript path gives', () => {
  const scans = jest.spyOn(ByteScanner.prototype, 'scan');
  beforeEach(() => scans.mockClear());

  test('every fixture log whole, every third cut anywhere', () => {
    // Of the real-failure cases, the tuned ones only (a held-out round's case is never read by a test).
    const files = fixtureFiles(/\.(?:log|txt)$/);
    expect(files.length).toBeGreaterThan(50);
    sameOn(
      files.flatMap((f, i) => {
        const bytes = fs.readFileSync(f);
        return i % 3 === 0 ? [[bytes], cut(bytes)] : [[bytes]];
      }),
    );
    expect(scans).toHaveBeenCalled();
  });

  test('byte soup: UTF-8 (broken too), CR, ESC sequences, 0x9B, tabs, pieces split mid-line', () => {
    const alphabet = [0x0a, 0x0a, 0x0d, 0x1b, 0x5b, 0x5d, 0x6d, 0x07, 0x09, 0x41, 0x6b, 0x6f, 0x20, 0x72, 0x65, 0xef, 0xbb, 0xbf, 0xe2, 0x82, 0xac, 0xc3, 0xa9, 0xc2, 0x9b, 0x80, 0xff, 0x30, 0x3b, 0x38, 0x68, 0x61, 0x3a];
    const inputs: Buffer[][] = [];
    for (let t = 0; t < 1500; t++) {
      const bytes = Buffer.alloc(next(400));
      for (let i = 0; i < bytes.length; i++) bytes[i] = alphabet[next(alphabet.length)]!;
      inputs.push([bytes], cut(bytes));
    }
    sameOn(inputs);
  });

  test('words the hints know, in lines of text, with trailing carriage returns', () => {
    const words = ['error', 'Error:', 'FAILED', 'ok', 'OK', 'PASS', 'branch', '_test.go:', 'not installed', 'undefined reference', 'exit code 1', '  > ', ' at ', '(1,2)', '\t', '\r', '\r\r', '\u001b[31m', '\u001b[0m', 'é', ' '];
    // Two characters whose trigram with a symbol-0 byte after them (a carriage return's) sets a hint: a
    // trailing carriage return must not add it (the hints are those of the bytes before it).
    const beforeCr: string[] = [];
    for (let a = 32; a < 127; a++) for (let b = 32; b < 127; b++) if (HINT_TABLE[(HINT_SYMBOL[a]! << 10) | (HINT_SYMBOL[b]! << 5)] !== 0) beforeCr.push(String.fromCharCode(a, b));
    expect(beforeCr.length).toBeGreaterThan(0);
    let text = '';
    for (let l = 0; l < 5000; l++) {
      for (let k = next(12); k > 0; k--) text += words[next(words.length)]!;
      if (next(2) === 0) text += beforeCr[next(beforeCr.length)]!;
      text += next(3) === 0 ? '\r\n' : next(5) === 0 ? '\r\r\n' : '\n';
    }
    const bytes = Buffer.from(text);
    same([bytes]);
    same(cut(bytes));
    // And the hints are those of the line's text.
    for (const line of split([bytes], true).lines) {
      const [, hints, ...rest] = line.split('|');
      const body = rest.join('|');
      if (Number(hints) >= 0) expect(Number(hints)).toBe(failureHints(body.slice(0, PROBE_CHARS)));
    }
  });

  test('lines longer than the probe and than the cut, empty lines past one call of records, marks', () => {
    const long = `${'error '.repeat(PROBE_CHARS / 3)}é\n${'é'.repeat(PROBE_CHARS)}ok\n${'x'.repeat(MAX_LINE_CHARS + 5)}\nshort\n`;
    same([Buffer.from(long)]);
    same(cut(Buffer.from(long)));
    const empty = Buffer.from(`${'\n'.repeat(BYTE_SCAN_MAX_RECORDS * 2 + 7)}${'a\r\n'.repeat(3 * MARK_STRIDE)}tail`);
    same([empty]);
    same(cut(empty));
    const { lines, marks } = split([empty], true);
    expect(lines.length).toBe(BYTE_SCAN_MAX_RECORDS * 2 + 7 + 3 * MARK_STRIDE + 1);
    // A mark at every MARK_STRIDE-th line's first byte: the empty lines' offsets are their numbers, then three bytes a line.
    expect(marks).toHaveLength(Math.ceil(lines.length / MARK_STRIDE));
    expect(marks!.slice(8, 10)).toEqual([8 * MARK_STRIDE, 2 * BYTE_SCAN_MAX_RECORDS + 7 + 3 * (9 * MARK_STRIDE - 2 * BYTE_SCAN_MAX_RECORDS - 7)]);
  });

  test('a piece larger than the memory grows it', () => {
    const big = Buffer.from('word error\n'.repeat(200_000));
    same([big]);
  });
});

describe('the module and its assembler', () => {
  test('core/log/byteScanWasm.ts is what scripts/byteScanWasm.ts writes (run `npm run byte-scan`)', () => {
    expect(fs.readFileSync(BYTE_SCAN_FILE, 'utf8')).toBe(byteScanSource());
  });

  test('LEB128', () => {
    expect(uleb(0)).toEqual([0]);
    expect(uleb(127)).toEqual([127]);
    expect(uleb(128)).toEqual([0x80, 1]);
    expect(uleb(624485)).toEqual([0xe5, 0x8e, 0x26]);
    expect(sleb(-1)).toEqual([0x7f]);
    expect(sleb(63)).toEqual([63]);
    expect(sleb(64)).toEqual([0xc0, 0]);
    expect(sleb(-123456)).toEqual([0xc0, 0xbb, 0x78]);
    expect(sleb(32767)).toEqual([0xff, 0xff, 0x01]);
  });

  test('labels become depths; unknown instructions, locals and labels are errors', () => {
    const f = { name: 'f', params: ['a'], locals: [], result: false };
    expect(assembleBody({ ...f, body: 'block $out\nloop $again\nlocal.get a\nbr_if $out\nbr $again\nend\nend' })).toEqual([0, 0x02, 0x40, 0x03, 0x40, 0x20, 0, 0x0d, 1, 0x0c, 0, 0x0b, 0x0b, 0x0b]);
    expect(() => assembleBody({ ...f, body: 'i32.popcnt' })).toThrow(/unknown instruction/);
    expect(() => assembleBody({ ...f, body: 'local.get b' })).toThrow(/no local b/);
    expect(() => assembleBody({ ...f, body: 'block $x\nbr $y\nend' })).toThrow(/no open block \$y/);
    expect(() => assembleBody({ ...f, body: 'block' })).toThrow(/not ended/);
  });

  test('an assembled module runs', () => {
    const add = assemble({ pages: 1, functions: [{ name: 'add', params: ['a', 'b'], locals: ['t'], result: true, body: 'local.get a\nlocal.get b\ni32.add\nlocal.tee t\ni32.const -3\ni32.add' }] });
    const api = (globalThis as unknown as { WebAssembly: { Module: new (b: Uint8Array) => object; Instance: new (m: object, i: object) => { exports: Record<string, unknown> } } }).WebAssembly;
    const instance = new api.Instance(new api.Module(add), {});
    expect((instance.exports.add as (a: number, b: number) => number)(40, 5)).toBe(42);
    expect(BYTE_SCAN.functions.map((x) => x.name)).toEqual(['scan']);
  });
});
