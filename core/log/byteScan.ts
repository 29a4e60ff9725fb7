/**
 * The per-byte scan of a piece of a log in WebAssembly (issue 28): the newlines of all its lines,
 * each line's first carriage return, its hints (shapes.ts `byteHints`: the trigram hash of every
 * byte and the hint table's bits) and whether it holds an escape, a 0x9B byte or a byte past
 * ASCII, in one call for the piece, where lines.ts's JavaScript looked for each newline
 * (`indexOf`), then for carriage returns and escapes, then hashed the line's bytes again. The
 * module is assembled by scripts/byteScanWasm.ts (its description there) into byteScanWasm.ts and
 * compiled here synchronously at the first piece. Where WebAssembly is missing (or
 * CICHAT_BYTE_SCAN=js), lines.ts keeps its JavaScript path, which is also the reference the
 * tests hold this one to.
 */
import { BYTE_SCAN_WASM } from './byteScanWasm.js';
import { HINT_SYMBOL, HINT_TABLE } from './shapes.js';

/** Where the module's memory holds the hint symbols of the 256 byte values (past 127: 0). */
export const SYMBOLS_AT = 0;
/** Where it holds shapes.ts's hint table (32 KiB). */
export const HINTS_AT = 256;
/** The records (four i32 a line: newline, first carriage return or -1, hints, flags). */
const OUT_AT = 64 * 1024;
/** Records a call writes at most. */
const MAX_RECORDS = 4096;
/** The piece's bytes, and a newline after them. */
const IN_AT = OUT_AT + 16 * MAX_RECORDS;
const PAGE = 64 * 1024;
/** The memory's initial size: room for a 256 KiB piece (reread.ts READ_PIECE); more is grown when a piece needs it. */
export const WASM_PAGES = IN_AT / PAGE + 5;

/** A record's flags: the line holds an escape (27). */
export const FLAG_ESCAPE = 1;
/** ... a 0x9B byte (the 8-bit CSI, or part of another UTF-8 character). */
export const FLAG_C1 = 2;
/** ... a byte past ASCII. */
export const FLAG_NON_ASCII = 4;

type Scan = (p: number, end: number, out: number, max: number, probe: number) => number;

/** The little of WebAssembly's API used here (TypeScript's ES libraries do not declare it). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}
const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;

/** One piece's lines, as records. */
export interface ScannedPiece {
  /** The records: `4 k` the newline's index in the piece, `4 k + 1` the first carriage return's or -1, then hints and flags. */
  readonly records: Int32Array;
  /** How many records this call gave; fewer than MAX_RECORDS: the piece has no further newline. */
  readonly count: number;
}

/**
 * The scanner over one WebAssembly instance (one memory); a piece is copied in, then read in
 * calls of at most MAX_RECORDS lines.
 */
export class ByteScanner {
  private readonly memory: WasmMemory;
  private readonly scanFn: Scan;
  private bytes: Uint8Array;
  private records: Int32Array;
  /** The piece's length in the memory. */
  private length = 0;
  /** Set while a caller reads a piece (a second caller meanwhile would overwrite its records). */
  busy = false;

  constructor(module: object) {
    const instance = new wasm!.Instance(module, {});
    this.memory = instance.exports.memory as WasmMemory;
    this.scanFn = instance.exports.scan as Scan;
    this.bytes = new Uint8Array(this.memory.buffer);
    this.records = new Int32Array(this.memory.buffer, OUT_AT, 4 * MAX_RECORDS);
    this.bytes.set(HINT_SYMBOL, SYMBOLS_AT);
    this.bytes.set(HINT_TABLE, HINTS_AT);
  }

  /** Copies bytes `from`..`to` of `piece` in (the piece's offsets are then relative to `from`). */
  load(piece: Uint8Array, from: number, to: number): void {
    // The newline after the bytes, and three more the scanner may read with it (four at a time).
    const need = IN_AT + (to - from) + 4;
    if (need > this.memory.buffer.byteLength) {
      this.memory.grow(Math.ceil((need - this.memory.buffer.byteLength) / PAGE));
      this.bytes = new Uint8Array(this.memory.buffer);
      this.records = new Int32Array(this.memory.buffer, OUT_AT, 4 * MAX_RECORDS);
    }
    this.bytes.set(piece.subarray(from, to), IN_AT);
    this.bytes[IN_AT + to - from] = 10;
    this.length = to - from;
  }

  /**
   * The records of the lines that begin at `at` (an offset of the loaded bytes) or after: at most
   * MAX_RECORDS; the offsets in them are of the loaded bytes. A line's hints are of at most about
   * `probe` of its bytes (scripts/byteScanWasm.ts).
   */
  scan(at: number, probe: number): ScannedPiece {
    const count = this.scanFn(IN_AT + at, IN_AT + this.length, OUT_AT, MAX_RECORDS, probe);
    const r = this.records;
    for (let k = 0; k < 4 * count; k += 4) {
      r[k] = r[k]! - IN_AT;
      if (r[k + 1]! >= 0) r[k + 1] = r[k + 1]! - IN_AT;
    }
    return { records: r, count };
  }
}

export const BYTE_SCAN_MAX_RECORDS = MAX_RECORDS;

let scanner: ByteScanner | null | undefined;

/**
 * The process's scanner, made at the first call; null where WebAssembly is missing or
 * CICHAT_BYTE_SCAN=js (lines.ts then scans in JavaScript).
 */
export function byteScanner(): ByteScanner | null {
  if (scanner !== undefined) return scanner;
  scanner = null;
  if (wasm === undefined || process.env.CICHAT_BYTE_SCAN === 'js') return scanner;
  scanner = new ByteScanner(new wasm.Module(Buffer.from(BYTE_SCAN_WASM, 'base64')));
  return scanner;
}

/** Tests: the scanner to use from now on (null: the JavaScript path), or undefined to make it again. */
export function setByteScanner(s: ByteScanner | null | undefined): void {
  scanner = s;
}
