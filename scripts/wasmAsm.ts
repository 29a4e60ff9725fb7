/**
 * A tiny WebAssembly assembler (issue 28: there is no wabt or binaryen here): a module of i32
 * functions and one memory, each function's body written as WebAssembly's flat text form, one
 * instruction a line (`local.get p`, `i32.const 10`, `block $done` ... `end`, `br_if $done`),
 * turned into the module's bytes. Only the handful of instructions the analyzer's scanner
 * (scripts/scanWasm.ts) needs are known; any other is an error naming its line.
 *
 * Every value is an i32: parameters, locals and the one result. Labels are `$name` on `block`,
 * `loop` and `if` and are resolved to branch depths; `;;` starts a comment.
 */

/** One function: its parameters and locals by name, and its body (one instruction a line). */
export interface WasmFunction {
  name: string;
  params: readonly string[];
  locals: readonly string[];
  /** Whether it returns an i32. */
  result: boolean;
  body: string;
}

export interface WasmModule {
  /** The memory's initial size in 64 KiB pages (exported as `memory`). */
  pages: number;
  functions: readonly WasmFunction[];
}

/** Unsigned LEB128. */
export function uleb(n: number): number[] {
  if (!Number.isInteger(n) || n < 0) throw new Error(`uleb: ${n}`);
  const out: number[] = [];
  do {
    let b = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) b |= 0x80;
    out.push(b);
  } while (n > 0);
  return out;
}

/** Signed LEB128 of a 32-bit integer. */
export function sleb(n: number): number[] {
  if (!Number.isInteger(n) || n < -(2 ** 31) || n >= 2 ** 32) throw new Error(`sleb: ${n}`);
  let v = n | 0;
  const out: number[] = [];
  for (;;) {
    const b = v & 0x7f;
    v >>= 7;
    if ((v === 0 && (b & 0x40) === 0) || (v === -1 && (b & 0x40) !== 0)) {
      out.push(b);
      return out;
    }
    out.push(b | 0x80);
  }
}

const I32 = 0x7f;
const EMPTY_BLOCK = 0x40;

/** Instructions without an operand. */
const PLAIN: Record<string, number> = {
  return: 0x0f,
  select: 0x1b,
  drop: 0x1a,
  'i32.eqz': 0x45,
  'i32.eq': 0x46,
  'i32.ne': 0x47,
  'i32.lt_s': 0x48,
  'i32.lt_u': 0x49,
  'i32.gt_s': 0x4a,
  'i32.gt_u': 0x4b,
  'i32.le_s': 0x4c,
  'i32.le_u': 0x4d,
  'i32.ge_s': 0x4e,
  'i32.ge_u': 0x4f,
  'i32.add': 0x6a,
  'i32.sub': 0x6b,
  'i32.mul': 0x6c,
  'i32.and': 0x71,
  'i32.or': 0x72,
  'i32.xor': 0x73,
  'i32.shl': 0x74,
  'i32.shr_s': 0x75,
  'i32.shr_u': 0x76,
};
/** Memory instructions: opcode and natural alignment (log2); an optional `offset=N` operand. */
const MEMORY: Record<string, [number, number]> = {
  'i32.load': [0x28, 2],
  'i32.load8_u': [0x2d, 0],
  'i32.load16_u': [0x2f, 1],
  'i32.store': [0x36, 2],
  'i32.store8': [0x3a, 0],
};
const LOCAL: Record<string, number> = { 'local.get': 0x20, 'local.set': 0x21, 'local.tee': 0x22 };
const BLOCK: Record<string, number> = { block: 0x02, loop: 0x03, if: 0x04 };
const BRANCH: Record<string, number> = { br: 0x0c, br_if: 0x0d };

/** A function's body as bytes (its locals' declaration first, the final `end` last). */
export function assembleBody(f: WasmFunction): number[] {
  const names = [...f.params, ...f.locals];
  const index = new Map(names.map((n, i) => [n, i]));
  if (index.size !== names.length) throw new Error(`${f.name}: a parameter or local named twice`);
  const out: number[] = f.locals.length === 0 ? [0] : [1, ...uleb(f.locals.length), I32];
  // Open blocks, innermost last: their labels (or '' without one).
  const open: string[] = [];
  f.body.split('\n').forEach((raw, k) => {
    const line = raw.replace(/;;.*$/, '').trim();
    if (line === '') return;
    const where = `${f.name}, body line ${k + 1} (${line})`;
    const [op, ...args] = line.split(/\s+/);
    const arg = (): string => {
      if (args.length !== 1) throw new Error(`${where}: one operand wanted`);
      return args[0]!;
    };
    if (op! in PLAIN) {
      if (args.length > 0) throw new Error(`${where}: no operand wanted`);
      out.push(PLAIN[op!]!);
    } else if (op! in LOCAL) {
      const i = index.get(arg());
      if (i === undefined) throw new Error(`${where}: no local ${args[0]}`);
      out.push(LOCAL[op!]!, ...uleb(i));
    } else if (op === 'i32.const') {
      out.push(0x41, ...sleb(Number(arg())));
    } else if (op! in MEMORY) {
      const [code, align] = MEMORY[op!]!;
      let offset = 0;
      for (const a of args) {
        const m = /^offset=(\d+)$/.exec(a);
        if (m === null) throw new Error(`${where}: unknown operand ${a}`);
        offset = Number(m[1]);
      }
      out.push(code, ...uleb(align), ...uleb(offset));
    } else if (op! in BLOCK) {
      if (args.length > 1 || (args.length === 1 && !args[0]!.startsWith('$'))) throw new Error(`${where}: a label ($name) or nothing wanted`);
      open.push(args[0] ?? '');
      out.push(BLOCK[op!]!, EMPTY_BLOCK);
    } else if (op === 'else') {
      if (open.length === 0) throw new Error(`${where}: else outside if`);
      out.push(0x05);
    } else if (op === 'end') {
      if (open.pop() === undefined) throw new Error(`${where}: end without a block`);
      out.push(0x0b);
    } else if (op! in BRANCH) {
      const label = arg();
      const depth = open.length - 1 - open.lastIndexOf(label);
      if (!label.startsWith('$') || depth >= open.length) throw new Error(`${where}: no open block ${label}`);
      out.push(BRANCH[op!]!, ...uleb(depth));
    } else {
      throw new Error(`${where}: unknown instruction`);
    }
  });
  if (open.length > 0) throw new Error(`${f.name}: ${open.length} block(s) not ended`);
  out.push(0x0b);
  return out;
}

const utf8 = (s: string): number[] => [...Buffer.from(s, 'utf8')];
const vector = (items: readonly number[][]): number[] => [...uleb(items.length), ...items.flat()];
const section = (id: number, body: number[]): number[] => [id, ...uleb(body.length), ...body];
const name = (s: string): number[] => [...uleb(utf8(s).length), ...utf8(s)];
const sized = (body: number[]): number[] => [...uleb(body.length), ...body];

/** The module's bytes: the functions exported by their names, the memory as `memory`. */
export function assemble(m: WasmModule): Uint8Array {
  const types = m.functions.map((f) => [0x60, ...vector(f.params.map(() => [I32])), ...(f.result ? [1, I32] : [0])]);
  const bytes = [
    ...[0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0],
    ...section(1, vector(types)),
    ...section(3, vector(m.functions.map((_, i) => uleb(i)))),
    ...section(5, vector([[0x00, ...uleb(m.pages)]])),
    // Exports: kind 2 is a memory, 0 a function.
    ...section(7, vector([[...name('memory'), 0x02, 0], ...m.functions.map((f, i) => [...name(f.name), 0x00, ...uleb(i)])])),
    ...section(10, vector(m.functions.map((f) => sized(assembleBody(f))))),
  ];
  return Uint8Array.from(bytes);
}
