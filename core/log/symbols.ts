/**
 * What a compiler's message says is wrong with a line: the symbol it cannot find, or the two
 * types that do not match (javac, kotlinc, tsc, go, rustc, gcc/clang, Python); and the names in
 * source lines that look like a missing symbol. Pure: used by the snippet reader (to also send
 * the lines declaring similar names) and the offline engine (to suggest them).
 */

const KEYWORDS = new Set(
  ('abstract assert boolean break byte case catch char class const continue default do double else enum extends final finally float for goto if implements import instanceof int interface long native new package private protected public return short static strictfp super switch synchronized this throw throws transient try void volatile while true false null var val fun let function def from as in is not and or pass lambda yield async await type readonly string number any unknown undefined self nil func struct impl mut pub use mod match where').split(' '),
);

/** The symbol a compiler says is missing, from its message (javac, kotlinc, tsc, go, rustc, gcc, Python). */
export function missingSymbolOf(message: string): string | undefined {
  const patterns = [
    /symbol:\s+(?:method|variable|class|field|constructor)\s+([A-Za-z_$][\w$]*)/,
    /Unresolved reference:?\s+[`']?([A-Za-z_$][\w$]*)[`']?/,
    /\bundefined: (?:[\w.]+\.)?([A-Za-z_]\w*)/,
    // go vet's type check: `Load not declared by package config`
    /\b([A-Za-z_]\w*) not declared by package [\w.]+/,
    /cannot find (?:value|function|type|struct|macro|trait|module|method|field) `([A-Za-z_]\w*)`/,
    /no (?:method|field) named `([A-Za-z_]\w*)`/,
    /Property '([A-Za-z_$][\w$]*)' does not exist/,
    /Cannot find name '([A-Za-z_$][\w$]*)'/,
    /name '([A-Za-z_]\w*)' is not defined/,
    /has no attribute '([A-Za-z_]\w*)'/,
    /[‘']([A-Za-z_]\w*)[’'] (?:was not declared|undeclared)/,
    /use of undeclared identifier [‘']([A-Za-z_]\w*)[’']/,
    /implicit declaration of function [‘']([A-Za-z_]\w*)[’']/,
    /has no (?:field or method|member named) [‘'`]?([A-Za-z_]\w*)[’'`]?/,
    // scalac: `value nextRun is not a member of Schedule`
    /\b(?:value|method) ([A-Za-z_]\w*) is not a member of\b/,
    // A member the type does not have, as other tools word it (fx9): Go's struct literal and template, pylint, PHP.
    /unknown field [`'‘"]?([A-Za-z_]\w*)[`'’"]? in struct literal/,
    /has no [‘']([A-Za-z_]\w*)[’'] member/,
    /Call to undefined method [\w\\]+::([A-Za-z_]\w*)\(/,
    /can't evaluate field ([A-Za-z_]\w*) in type/,
    // clang's designated initializer: `field designator 'backoff_ms' does not refer to any field in type 'const struct retry_policy'`
    /field designator [‘']([A-Za-z_]\w*)[’'] does not refer to any field/,
  ];
  for (const re of patterns) {
    const m = re.exec(message);
    if (m?.[1]) return m[1];
  }
  return undefined;
}

/**
 * The kind of a missing symbol from the message and from how the failing source line uses it:
 * the message's word first, except that a capitalised "variable" used as a qualifier
 * (`Tax.rateFor(...)`, javac's `symbol: variable Tax`) is a type; with no word in the message,
 * a name that is called (`slug.Make(...)`) is a callable.
 */
export function symbolKindAt(message: string, missing: string, sourceLine: string | undefined): SymbolKind | undefined {
  const said = symbolKindOf(message);
  const name = missing.replace(/[$]/g, '\\$');
  const code = sourceLine ?? '';
  if (said === 'value' && /^[A-Z]/.test(missing) && new RegExp(`(?:^|[^\\w$.])${name}\\.[A-Za-z_$]`).test(code)) return 'type';
  if (said === undefined && new RegExp(`(?:^|[^\\w$])${name}\\s*\\(`).test(code)) return 'callable';
  return said;
}

/** How many arguments the source line passes where it calls `name` (`slug.Make("a b")` -> 1). */
export function callArityAt(name: string, sourceLine: string | undefined): number | undefined {
  const code = sourceLine ?? '';
  const at = new RegExp(`(?:^|[^\\w$])${name.replace(/[$]/g, '\\$')}\\s*\\(`).exec(code);
  if (!at) return undefined;
  let depth = 0;
  let args = 0;
  let any = false;
  let quote = '';
  for (let i = at.index + at[0].length; i < code.length; i++) {
    const ch = code[i] as string;
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = '';
      continue;
    }
    if (ch === '"' || ch === "'" || ch === '`') {
      quote = ch;
      any = true;
    } else if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if (ch === ')' || ch === ']' || ch === '}') {
      if (depth === 0) return any ? args + 1 : 0;
      depth--;
    } else if (ch === ',' && depth === 0) args++;
    else if (!/\s/.test(ch)) any = true;
  }
  return undefined;
}

/** The two types of a mismatch (what the code gives, what is needed), from the compiler's message. */
export function typeMismatchOf(message: string): { found: string; required: string } | undefined {
  const patterns: [RegExp, 'found-first' | 'required-first'][] = [
    [/incompatible types: (.+?) cannot be converted to (.+?)$/m, 'found-first'],
    [/Type '(.+?)' is not assignable to type '(.+?)'/, 'found-first'],
    [/Argument of type '(.+?)' is not assignable to parameter of type '(.+?)'/, 'found-first'],
    [/Type mismatch: inferred type is (.+?) but (.+?) was expected/, 'found-first'],
    [/cannot use .+? \((?:variable|constant|value) of (?:type )?(.+?)\) as (.+?) value/, 'found-first'],
    [/expected `(.+?)`, found `(.+?)`/, 'required-first'],
    [/incompatible types when (?:assigning to|initializing) type '(.+?)' (?:from|using) type '(.+?)'/, 'required-first'],
    [/cannot convert '(.+?)' to '(.+?)'/, 'found-first'],
  ];
  for (const [re, order] of patterns) {
    const m = re.exec(message);
    if (m?.[1] && m[2]) return order === 'found-first' ? { found: m[1].trim(), required: m[2].trim() } : { required: m[1].trim(), found: m[2].trim() };
  }
  const required = /required\s*:\s*(.+)$/m.exec(message)?.[1];
  const found = /found\s*:\s*(.+)$/m.exec(message)?.[1];
  if (required && found) return { found: found.trim(), required: required.trim() };
  return undefined;
}

export function editDistance(a: string, b: string): number {
  const dp = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = dp[0] as number;
    dp[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = dp[j] as number;
      dp[j] = Math.min((dp[j] as number) + 1, (dp[j - 1] as number) + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return dp[b.length] as number;
}

/** What kind of name a compiler says is missing: a callable, a value (variable, field, property), a type, or a member (either). */
export type SymbolKind = 'callable' | 'value' | 'type' | 'member';

/** The kind of the missing symbol, from the compiler's or linker's message; undefined when it does not say. */
export function symbolKindOf(message: string): SymbolKind | undefined {
  if (/symbol:\s+method\b|cannot find function|no method named|implicit declaration of function|undefined reference to|undefined symbol:|unresolved external symbol|is not a function|has no method\b/.test(message)) return 'callable';
  if (/Call to undefined method\b/.test(message)) return 'callable';
  if (/symbol:\s+(?:variable|field)\b|cannot find value|no field named|unknown field \S+ in struct literal|does not refer to any field/.test(message)) return 'value';
  if (/symbol:\s+class\b|cannot find (?:type|struct|trait)|Cannot find name '[A-Z]|Unresolved reference:?\s+`?[A-Z]/.test(message)) return 'type';
  if (/Property '[\w$]+' does not exist|has no (?:field or method|member named|attribute)|has no exported member|has no '\w+' member|can't evaluate field/.test(message)) return 'member';
  return undefined;
}

type DefinitionKind = 'callable' | 'value' | 'type';

const NOT_A_NAME = new Set(['if', 'for', 'while', 'switch', 'catch', 'return', 'new', 'else', 'throw', 'case', 'function', 'typeof', 'sizeof', 'await', 'yield', 'super', 'this', 'do', 'try', 'with', 'elif', 'assert', 'print']);
const MODIFIERS = String.raw`(?:(?:public|private|protected|internal|static|final|abstract|synchronized|native|virtual|override|inline|extern|const|unsigned|signed|async|export|default|open|suspend|readonly|volatile|transient)\s+)*`;
const DEFINITIONS: [RegExp, DefinitionKind][] = [
  [/\b(?:class|interface|struct|enum|trait|type|object|record|union)\s+([A-Za-z_$][\w$]*)/, 'type'],
  [/\b(?:def|func|fn|function|fun|sub|proc)\s+(?:\([^)]*\)\s*)?([A-Za-z_$][\w$]*)\s*[<(]/, 'callable'],
  // Scala's and Ruby's method without a parameter list (`def upcoming: Long = ...`, `def total`).
  [/^\s*(?:(?:override|private|protected|final|lazy)\s+)*def\s+([A-Za-z_$][\w$]*)\s*(?::|=|$)/, 'callable'],
  [/\b(?:const|let|var|val)\s+([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=\s*(?:async\s*)?(?:function\b|\([^)]*\)\s*(?::[^=]+)?=>|[A-Za-z_$][\w$]*\s*=>)/, 'callable'],
  [/^\s*([A-Za-z_$][\w$]*)\s*:\s*(?:async\s*)?(?:function\b|\([^)]*\)\s*=>)/, 'callable'],
  [new RegExp(String.raw`^\s*${MODIFIERS}[\w$<>\[\],.*&:?]+(?:\s+[\w$<>\[\],.*&:?]+)*?[\s*&]+([A-Za-z_$][\w$]*)\s*\([^;]*$`), 'callable'],
  [/^\s*(?:(?:async|static|get|set|public|private|protected|override)\s+)*([A-Za-z_$][\w$]*)\s*\([^)]*\)\s*(?::\s*[^{=]+)?\{\s*$/, 'callable'],
  // A C++/Java method with its body on the same line: `std::size_t length() const { return n; }`.
  [new RegExp(String.raw`^\s*${MODIFIERS}[\w$<>\[\],.:*&]+(?:\s+[\w$<>\[\],.:*&]+)*?[\s*&]+([A-Za-z_$][\w$]*)\s*\([^)]*\)\s*(?:const\s*)?(?:noexcept\s*)?(?:override\s*)?\{`), 'callable'],
  [/\b(?:const|let|var|val)\s+([A-Za-z_$][\w$]*)/, 'value'],
  // A C field or variable may be a pointer or an array: `int *buf;`, `char name[32];`.
  [new RegExp(String.raw`^\s*${MODIFIERS}[\w$<>\[\],.]+(?:\s+|\s*[*&]+\s*)([A-Za-z_$][\w$]*)\s*(?:=[^=>]|;|\[\s*\w*\s*\]\s*[;=])`), 'value'],
  [/^\s*(?:(?:readonly|public|private|protected|static)\s+)*([A-Za-z_$][\w$]*)\??\s*:\s*[\w$'"{[(<|]/, 'value'],
  [/^\s*(?:self\.|this\.)?([A-Za-z_][\w]*)\s*(?::\s*[\w[\], .|]+)?\s*=[^=]/, 'value'],
  [/^\s*#define\s+([A-Za-z_]\w*)/, 'value'],
];

/** A source line without its comment and string contents (names there are not definitions). */
function codeOf(line: string): string {
  const t = line.trim();
  if (/^(?:\/\/|\*|\/\*|#(?!define\b|include\b)|--|;)/.test(t)) return '';
  return line
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`/g, '""')
    .replace(/\/\/.*$|\/\*.*?\*\/|\s#\s.*$/g, '');
}

/**
 * Words that start a statement, never a declaration's type: `return sum(values) / len(values)` calls
 * `sum`, it does not define it (the C-style rules would read `return` as a return type).
 */
const STATEMENT_START = /^\s*(?:return|yield|throw|raise|else|new|await|delete|case|goto|print|assert|not|echo|do|then|elif|if|while|for|in|of|and|or|is)\b(?!\s*[:=])/;
/** The first rules name their definition keyword (class, def, fn, const...); the rest read a C-style declaration's shape. */
const KEYWORD_RULES = 5;

/** The names `lines` define, each with its kind and the index of its line (first definition kept). */
export function definitionsIn(lines: readonly string[]): { name: string; kind: DefinitionKind; index: number }[] {
  const out: { name: string; kind: DefinitionKind; index: number; arity?: number }[] = [];
  const seen = new Set<string>();
  lines.forEach((raw, index) => {
    const code = codeOf(raw);
    if (code.trim() === '') return;
    const rules = STATEMENT_START.test(code) ? DEFINITIONS.slice(0, KEYWORD_RULES) : DEFINITIONS;
    for (const [re, kind] of rules) {
      const name = re.exec(code)?.[1];
      if (!name || NOT_A_NAME.has(name) || KEYWORDS.has(name)) continue;
      const key = `${kind}:${name}`;
      if (!seen.has(key)) {
        seen.add(key);
        out.push({ name, kind, index });
      }
      break;
    }
  });
  return out;
}

const KINDS_FOR: Record<SymbolKind, DefinitionKind[]> = { callable: ['callable'], value: ['value'], type: ['type'], member: ['callable', 'value'] };

/**
 * Whether `name` looks like `missing`: another case, typos within a third of the letters, one containing
 * the other (within 8 letters), or a camel-case word added or dropped (`Tax` -> `TaxTable`,
 * `parseConfig` -> `parse`).
 */
export function namesAlike(missing: string, name: string): boolean {
  const lower = missing.toLowerCase();
  const nl = name.toLowerCase();
  return (
    nl === lower ||
    editDistance(lower, nl) <= Math.max(1, Math.floor(Math.min(lower.length, nl.length) / 3)) ||
    (lower.length >= 4 && (nl.includes(lower) || lower.includes(nl)) && Math.abs(nl.length - lower.length) <= 8) ||
    (Math.min(name.length, missing.length) >= 3 && ((name.startsWith(missing) && /^[A-Z_]/.test(name.slice(missing.length))) || (missing.startsWith(name) && /^[A-Z_]/.test(missing.slice(name.length)))))
  );
}

/**
 * Names DEFINED in `lines` that look like `missing` (another case, one or two typos, a prefix),
 * nearest first, each with the index of the line defining it. Only definitions count (never a
 * parameter use, a call or a word in a comment), and only of the kind the compiler says is
 * missing when `kind` is given (a method for a method, a function for a linker symbol). Names
 * in `renamed` (what the last change introduced, e.g. from its commit messages) rank first
 * among equally near ones.
 */
export function similarIdentifiers(missing: string, lines: readonly string[], max = 3, kind?: SymbolKind, renamed: ReadonlySet<string> = new Set()): { name: string; index: number; score: number }[] {
  const lower = missing.toLowerCase();
  const allowed = kind ? KINDS_FOR[kind] : undefined;
  const found = new Map<string, { name: string; index: number; score: number }>();
  for (const def of definitionsIn(lines)) {
    const { name } = def;
    if (name === missing || name.length < 2 || found.has(name) || (allowed && !allowed.includes(def.kind))) continue;
    const nl = name.toLowerCase();
    if (namesAlike(missing, name)) found.set(name, { name, index: def.index, score: (nl === lower ? 0 : editDistance(lower, nl)) - (renamed.has(name) ? 0.5 : 0) });
  }
  return [...found.values()].sort((a, b) => a.score - b.score || a.name.localeCompare(b.name)).slice(0, max);
}

/**
 * The type that should have held the missing member, when the compiler names it: javac's
 * `location: variable inv of type Inventory` / `location: class Inventory`, tsc's `on type
 * 'User'`, rustc's `found for struct `T``, go's `(type T has no field or method x)`, Python's
 * `'T' object has no attribute`.
 */
export function ownerTypeOf(message: string): string | undefined {
  const patterns = [
    /location:\s+(?:variable \w+ of type|class|interface)\s+([\w$.]+?)(?:<.*)?$/m,
    /does not exist on type '([\w$]+)(?:<.*?)?'/,
    /(?:found for|on type) (?:struct|enum|type|union)? ?`&?(?:mut )?([\w:]+?)(?:<.*?)?`/,
    /\(type \*?([\w.]+) has no field or method/,
    /'([\w]+)' object has no attribute/,
    // g++/clang: `‘class JobQueue’ has no member named ‘size’` (`‘const struct frame’`), and a typedef's name (`‘ledger’ has no member named`)
    /[‘'](?:(?:const|volatile) )*(?:class|struct|union) ([\w:]+)[’'] has no member named/,
    /[‘']([A-Za-z_]\w*)[’'] has no member named/,
    // Go: `unknown field 'Due' in struct literal of type billing.Invoice`; a template's `can't evaluate field Total in type main.Report`
    /in struct literal of type \*?([\w.]+)/,
    /can't evaluate field \w+ in type \*?([\w.]+)/,
    /does not refer to any field in type [‘'](?:(?:const|volatile) )*(?:struct |union )?([\w:]+)[’']/,
    // pylint: `Instance of 'ProbeConfig' has no 'timeout' member`; PHP: `Call to undefined method App\Cart::subtotal()`
    /Instance of '(\w+)' has no/,
    /Call to undefined method (?:\w+\\)*(\w+)::/,
    // scalac: `value nextRun is not a member of Schedule` (or of `object Schedule`, `pkg.Schedule`)
    /is not a member of (?:object |class )?([\w.]+)/,
    // Go: `undefined: slug.Make`, a package's missing name (the package is the owner).
    /\bundefined: ([A-Za-z_]\w*)\.[A-Za-z_]\w*/,
    // go vet: `Load not declared by package config`
    /\b[A-Za-z_]\w* not declared by package ([A-Za-z_]\w*)/,
  ];
  for (const re of patterns) {
    const m = re.exec(message);
    if (m?.[1]) return m[1].split(/[.:]/).pop();
  }
  return undefined;
}

/** How many arguments a call in the message passes (`method count(String)` -> 1), when it says. */
export function arityOf(message: string): number | undefined {
  const m = /symbol:\s+method\s+[\w$]+\(([^)]*)\)/.exec(message);
  if (!m) return undefined;
  return (m[1] ?? '').trim() === '' ? 0 : (m[1] as string).split(',').length;
}

/**
 * The members `typeName` declares in `lines` (its `class`/`interface`/`struct`/`type` block,
 * by braces, or by indentation for Python), with their kind, line index and, for callables, the
 * number of parameters.
 */
export function membersOf(typeName: string, lines: readonly string[]): { name: string; kind: DefinitionKind; index: number; arity?: number }[] {
  const escaped = typeName.replace(/[$]/g, '\\$');
  // A C `struct T` opens a block only when its brace follows (`struct T {`, `struct T : Base {`), never as a parameter's or a variable's type.
  const decl = new RegExp(String.raw`\b(?:(?:class|interface|trait|type|object|record|impl)\s+${escaped}\b|(?:struct|union|enum)\s+${escaped}\s*(?:\{|:(?!:)|$))`);
  // Rust's methods are in `impl T` / `impl Trait for T` blocks beside `struct T` (fx9): every such block counts.
  const implFor = new RegExp(String.raw`^\s*impl(?:<[^>]*>)?\s+[\w:<>, ]+\s+for\s+${escaped}\b`);
  const starts = lines.flatMap((l, i) => (decl.test(codeOf(l)) || implFor.test(codeOf(l)) ? [i] : []));
  // A C `typedef struct { ... } ledger;`: the block whose closing line names the type.
  if (starts.length === 0) {
    const close = lines.findIndex((l) => new RegExp(String.raw`}\s*(?:[\w*]+\s*,\s*)*${escaped}\s*;`).test(codeOf(l)));
    const open = close > 0 ? typedefOpening(lines, close) : -1;
    if (open >= 0) return blockMembers(typeName, lines, open, close);
  }
  // A Go package is the owner of `pkg.Name`: its file's top-level functions, types, variables.
  if (starts.length === 0 && lines.some((l) => new RegExp(`^package ${typeName}\\b`).test(l))) {
    return definitionsIn(lines)
      .filter((d) => /^(?:func [A-Za-z_]|type |var |const )/.test(lines[d.index] ?? ''))
      .map((d) => {
        const params = d.kind === 'callable' ? /\(([^)]*)\)/.exec((lines[d.index] ?? '').slice((lines[d.index] ?? '').indexOf(d.name)))?.[1] : undefined;
        return { ...d, ...(params !== undefined ? { arity: params.trim() === '' ? 0 : params.split(',').length } : {}) };
      });
  }
  const out = starts.flatMap((start) => (GO_STRUCT.test(lines[start] ?? '') ? goFields(lines, start, blockEnd(lines, start)) : blockMembers(typeName, lines, start, blockEnd(lines, start))));
  // Go's methods are declared outside the type's block: `func (i *Invoice) Sum() int`.
  const goMethod = new RegExp(String.raw`^func \(\w+ \*?${escaped}(?:\[[^\]]*\])?\) ([A-Za-z_]\w*)\(([^)]*)\)`);
  lines.forEach((l, index) => {
    const m = goMethod.exec(l);
    if (m) out.push({ name: m[1] as string, kind: 'callable', index, arity: (m[2] as string).trim() === '' ? 0 : (m[2] as string).split(',').length });
  });
  const seen = new Set<string>();
  return out.filter((m) => !seen.has(m.name) && (seen.add(m.name), true));
}

/** A Go struct type's opening line (`type Invoice struct {`): its fields are written `Name Type`, not C's `Type name;`. */
const GO_STRUCT = /^type [A-Za-z_]\w*(?:\[[^\]]*\])? struct\s*\{\s*$/;

/** The fields of a Go struct block (`DueDate time.Time`, `A, B int`), each a value member. */
function goFields(lines: readonly string[], start: number, end: number): { name: string; kind: DefinitionKind; index: number; arity?: number }[] {
  const out: { name: string; kind: DefinitionKind; index: number; arity?: number }[] = [];
  for (let i = start + 1; i < end; i++) {
    const m = /^\s*([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)\s+[\w.*[\]]/.exec(codeOf(lines[i] ?? ''));
    if (m) for (const name of (m[1] as string).split(/\s*,\s*/)) out.push({ name, kind: 'value', index: i });
  }
  return out;
}

/** The line that opens the typedef block closed on `close` (braces counted back). */
function typedefOpening(lines: readonly string[], close: number): number {
  let depth = 0;
  for (let i = close; i >= 0; i--) {
    for (const ch of [...codeOf(lines[i] ?? '')].reverse()) {
      if (ch === '}') depth++;
      else if (ch === '{') depth--;
    }
    if (depth <= 0) return /\btypedef\b/.test(codeOf(lines[i] ?? '')) || /\btypedef\b/.test(codeOf(lines[i - 1] ?? '')) ? i : -1;
  }
  return -1;
}

/** The last line of the block a declaration opens on `start`: by braces, or by indentation for Python. */
function blockEnd(lines: readonly string[], start: number): number {
  if (/^\s*class\s/.test(lines[start] ?? '') && /:\s*$/.test(lines[start] ?? '')) {
    const indent = /^\s*/.exec(lines[start] ?? '')?.[0].length ?? 0;
    let end = start + 1;
    while (end < lines.length && ((lines[end] ?? '').trim() === '' || (/^\s*/.exec(lines[end] ?? '')?.[0].length ?? 0) > indent)) end++;
    return end;
  }
  let depth = 0;
  let opened = false;
  let end: number;
  for (end = start; end < lines.length; end++) {
    for (const ch of codeOf(lines[end] ?? '')) {
      if (ch === '{') {
        depth++;
        opened = true;
      } else if (ch === '}') depth--;
    }
    if (opened && depth <= 0) break;
  }
  return end;
}

/** The members declared in the block from `start` to `end` (a one-line block's declarations on that line). */
function blockMembers(typeName: string, lines: readonly string[], start: number, end: number): { name: string; kind: DefinitionKind; index: number; arity?: number }[] {
  const python = /^\s*class\s/.test(lines[start] ?? '') && /:\s*$/.test(lines[start] ?? '');
  // A block on its declaration's line (`struct ring { int *buf; size_t cap; };`): each declaration of it, on that line.
  const open = codeOf(lines[start] ?? '').indexOf('{');
  const oneLine = !python && end === start && open >= 0;
  const block = oneLine
    ? codeOf(lines[start] ?? '')
        .slice(open + 1, codeOf(lines[start] ?? '').lastIndexOf('}'))
        .split(';')
        .filter((d) => d.trim() !== '')
        .map((d) => `${d.trim()};`)
    : lines.slice(start + 1, end + 1);
  // A constructor is named after its type: never what a missing member became.
  return definitionsIn(block).filter((d) => d.name !== typeName).map((d) => {
    const line = block[d.index] ?? '';
    const params = d.kind === 'callable' ? /\(([^)]*)\)/.exec(line.slice(line.indexOf(d.name)))?.[1] : undefined;
    const arity = params === undefined ? undefined : params.trim() === '' ? 0 : params.split(',').filter((p) => !/^\s*(?:self|this|&?(?:mut )?self)\s*$/.test(p)).length;
    return { ...d, index: oneLine ? start : d.index + start + 1, ...(arity !== undefined ? { arity } : {}) };
  });
}

/**
 * The members of the owner type a renamed or mistyped member most likely became: same kind,
 * ranked by similarity (typo, another case, one name inside the other), then by the same number
 * of parameters, then by what the last change renamed. A member with nothing in common is kept
 * only when its kind and arity match and it is one of at most three such members.
 */
export function likelyMembers(missing: string, kind: SymbolKind | undefined, arity: number | undefined, members: readonly { name: string; kind: DefinitionKind; index: number; arity?: number }[], renamed: ReadonlySet<string> = new Set(), max = 3): { name: string; index: number }[] {
  const allowed = kind ? KINDS_FOR[kind] : undefined;
  const lower = missing.toLowerCase();
  const same = members.filter((m) => m.name !== missing && (!allowed || allowed.includes(m.kind)));
  const scored = same.map((m) => {
    const nl = m.name.toLowerCase();
    const near = editDistance(lower, nl) <= Math.max(1, Math.floor(Math.min(lower.length, nl.length) / 3)) || (lower.length >= 3 && (nl.includes(lower) || lower.includes(nl)));
    const arityMatch = arity !== undefined && m.arity === arity;
    return { ...m, score: (near ? 0 : 4) + (arity !== undefined && !arityMatch ? 2 : 0) - (renamed.has(m.name) ? 1 : 0) + editDistance(lower, nl) / 100 };
  });
  const fitting = scored.filter((m) => m.score < 4 || (arity !== undefined && m.arity === arity && scored.filter((x) => x.arity === arity).length <= 3));
  return fitting.sort((a, b) => a.score - b.score || a.name.localeCompare(b.name)).slice(0, max).map(({ name, index }) => ({ name, index }));
}
