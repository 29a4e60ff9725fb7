/**
 * `npm run byte-scan`: writes core/log/byteScanWasm.ts, the WebAssembly scanner of core/log/byteScan.ts
 * (issue 28), assembled by scripts/wasmAsm.ts from the description below. core/log/byteScan.test.ts
 * fails when the file is not what this script writes.
 *
 * `scan(p, end, out, max, probe)` reads the bytes p..end of its memory, `end` holding a newline the
 * caller put there (so the loops need no bound check; three readable bytes follow it), and writes one
 * record of four i32 at `out` for each line that ends in a newline before `end`, at most `max`; it
 * returns how many. A record:
 * - the newline's address;
 * - the address of the line's first carriage return, or -1;
 * - the hints (shapes.ts `byteHints`) of the line's bytes before its first carriage return, escape
 *   or byte past ASCII, or of about `probe` bytes: the caller takes them only for a line without
 *   escapes, without carriage returns but trailing ones (whose hints are those of the bytes before
 *   them), of ASCII and no longer than `probe` (a longer one it hashes itself, a rare case);
 * - flags (byteScan.ts): an escape, a 0x9B byte, a byte past ASCII.
 * While it hashes, four bytes a turn when they are all printable ASCII (one test of the four), else
 * one: a control byte or one past ASCII takes the rare branch. From a line's first carriage return,
 * escape or byte past ASCII, or past the probe, it only looks for the newline and the flags (four
 * bytes at once again), as JavaScript's `indexOf` did: a line cleaned or too long is not hashed.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FLAG_C1, FLAG_ESCAPE, FLAG_NON_ASCII, HINTS_AT, SYMBOLS_AT, WASM_PAGES } from '../core/log/byteScan.js';
import { assemble, type WasmModule } from './wasmAsm.js';

/** `flags |= flag` when `c == byte`. */
const flagIf = (byte: number, flag: number): string => `
          local.get flags
          i32.const ${flag}
          i32.const 0
          local.get c
          i32.const ${byte}
          i32.eq
          select
          i32.or
          local.set flags`;

/**
 * Whether the four bytes at p (into x) are all printable ASCII (32..127): none is a newline, a carriage
 * return, an escape or past ASCII. (x - 0x20202020) & ~x has a byte's top bit set when some byte is
 * below 32 (which one is not told; it need not be); x's own top bits, past 127.
 */
const FOUR_PRINTABLE = `
        local.get p
        i32.load
        local.tee x
        i32.const ${0x20202020}
        i32.sub
        local.get x
        i32.const -1
        i32.xor
        i32.and
        local.get x
        i32.or
        i32.const ${0x80808080 | 0}
        i32.and
        i32.eqz`;

/** The byte the instructions `byte` push, hashed in: h = ((h << 5) | symbol[byte]) & 0x7fff; f |= table[h]. */
const hashIn = (byte: string): string => `
        local.get h
        i32.const 5
        i32.shl${byte}
        i32.load8_u offset=${SYMBOLS_AT}
        i32.or
        i32.const 32767
        i32.and
        local.tee h
        i32.load8_u offset=${HINTS_AT}
        local.get f
        i32.or
        local.set f`;

/** Byte k of the four in x hashed in. */
const hashByteOfX = (k: number): string =>
  hashIn(`
        local.get x${k > 0 ? `
        i32.const ${8 * k}
        i32.shr_u` : ''}${k < 3 ? `
        i32.const 255
        i32.and` : ''}`);

export const BYTE_SCAN: WasmModule = {
  pages: WASM_PAGES,
  functions: [
    {
      name: 'scan',
      params: ['p', 'end', 'out', 'max', 'probe'],
      locals: ['count', 'c', 'x', 'h', 'f', 'cr', 'flags', 'limit'],
      result: true,
      body: `
loop $lines
  ;; A new line at p: hash, hints, first carriage return and flags start over; hashing stops at the probe.
  i32.const 0
  local.set h
  i32.const 0
  local.set f
  i32.const 0
  local.set flags
  i32.const -1
  local.set cr
  local.get p
  local.get probe
  i32.add
  local.set limit
  block $line
    block $plain ;; the rest of the line is not hashed: its hints are not taken from here
      loop $byte
        local.get p
        local.get limit
        i32.ge_u
        br_if $plain
${FOUR_PRINTABLE}
        if${[0, 1, 2, 3].map(hashByteOfX).join('')}
          local.get p
          i32.const 4
          i32.add
          local.set p
          br $byte
        end
        ;; One byte.
        local.get p
        i32.load8_u
        local.tee c
        i32.const 32
        i32.sub
        i32.const 96
        i32.ge_u
        if ;; below 32 or past 127
          local.get c
          i32.const 10
          i32.eq
          br_if $line
          ;; A carriage return (trailing ones are not the line's text; after an inner one, the line is
          ;; cleaned), an escape (cleaned) or a byte past ASCII (every hint): the hints so far are all
          ;; the caller may take.
          local.get c
          i32.const 13
          i32.eq
          local.get c
          i32.const 27
          i32.eq
          i32.or
          local.get c
          i32.const 128
          i32.ge_u
          i32.or
          br_if $plain
        end
${hashIn(`
        local.get c`)}
        local.get p
        i32.const 1
        i32.add
        local.set p
        br $byte
      end
    end
    ;; Up to the newline: the first carriage return and the flags only, printable ASCII four bytes at once.
    loop $rest
${FOUR_PRINTABLE}
      if
        local.get p
        i32.const 4
        i32.add
        local.set p
        br $rest
      end
      local.get p
      i32.load8_u
      local.tee c
      i32.const 10
      i32.eq
      br_if $line
      local.get c
      i32.const 13
      i32.eq
      local.get cr
      i32.const 0
      i32.lt_s
      i32.and
      if
        local.get p
        local.set cr
      end${flagIf(27, FLAG_ESCAPE)}${flagIf(0x9b, FLAG_C1)}
      local.get flags
      i32.const ${FLAG_NON_ASCII}
      i32.const 0
      local.get c
      i32.const 128
      i32.ge_u
      select
      i32.or
      local.set flags
      local.get p
      i32.const 1
      i32.add
      local.set p
      br $rest
    end
  end
  ;; The newline at end is the caller's: the rest is a partial line.
  local.get p
  local.get end
  i32.ge_u
  if
    local.get count
    return
  end
  local.get out
  local.get p
  i32.store
  local.get out
  local.get cr
  i32.store offset=4
  local.get out
  local.get f
  i32.store offset=8
  local.get out
  local.get flags
  i32.store offset=12
  local.get out
  i32.const 16
  i32.add
  local.set out
  local.get p
  i32.const 1
  i32.add
  local.set p
  local.get count
  i32.const 1
  i32.add
  local.tee count
  local.get max
  i32.lt_u
  br_if $lines
end
local.get count
`,
    },
  ],
};

export const BYTE_SCAN_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../core/log/byteScanWasm.ts');

/** The text of core/log/byteScanWasm.ts. */
export function byteScanSource(): string {
  const base64 = Buffer.from(assemble(BYTE_SCAN)).toString('base64');
  const lines = base64.match(/.{1,100}/g) ?? [];
  return `/** Generated by \`npm run byte-scan\` (scripts/byteScanWasm.ts): the WebAssembly module of byteScan.ts, base64. Do not edit. */
export const BYTE_SCAN_WASM =
${lines.map((l) => `  '${l}'`).join(' +\n')};
`;
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeFileSync(BYTE_SCAN_FILE, byteScanSource());
  console.log(`wrote ${BYTE_SCAN_FILE}`);
}
