/**
 * "How do I fix it?" for a value of one type where another is needed (issue 25 point 3, helper fx9):
 * the compiler or the runtime names both types, the expected and the found; the language says how one
 * becomes the other. Each reader takes one shape of that message and turns it into the concrete change
 * of the marked line, using the language's own conversion (Go's `T(x)`, OCaml's `string_of_int`, Ada's
 * `Float (X)`, printf's `%zu`, C++'s `T(x)`, PHP's `(float)`, an optional's unwrapping), the line
 * rewritten when the message says which expression it is. Nothing is proposed for a pair of types the
 * table does not know; where two changes fit (which operand of a Go expression), both are said.
 * Used by the source block's **Fix:** line (workspace.ts `fixFor`).
 */
import { inlineCode } from '../logtext.js';
import { languageOf } from './language.js';

const a = (t: string): string => (/^[aeiou]/i.test(t) ? 'an' : 'a');

/** Go's predeclared numeric types (a value of one is converted to another, or to a named numeric type, with `T(x)`). */
const GO_NUMERIC = /^(?:u?int(?:8|16|32|64)?|uintptr|float(?:32|64)|complex(?:64|128)|byte|rune)$/;

/** A Go conversion of `x` (an expression) from `from` to `to`, when Go has one that is not a judgement call. */
function goConversion(x: string, from: string, to: string): string | undefined {
  const arg = /^[\w.]+$/.test(x) ? x : `(${x})`;
  if (to === 'string' && /^int(?:64)?$/.test(from)) return from === 'int' ? `strconv.Itoa(${x})` : `strconv.FormatInt(${x}, 10)`;
  if (to === 'string' && from === '[]byte') return `string(${x})`;
  if (to === '[]byte' && from === 'string') return `[]byte(${x})`;
  if (to === `*${from}`) return `&${arg}`;
  if (from === `*${to}`) return `*${arg}`;
  // Numbers and named numeric types (`time.Duration`, a `type Celsius float64`): Go converts them with T(x).
  if ((GO_NUMERIC.test(from) || GO_NUMERIC.test(to)) && !/^(?:string|bool)$/.test(from) && !/^(?:string|bool)$/.test(to)) return `${to}(${x})`;
  return undefined;
}

/** The line with `from` replaced once by `to` (only when `from` occurs exactly once in it). */
function replacedOnce(code: string, from: string, to: string): string | undefined {
  const i = code.indexOf(from);
  if (i < 0 || code.indexOf(from, i + 1) >= 0) return undefined;
  return `${code.slice(0, i)}${to}${code.slice(i + from.length)}`;
}

/** The sentence's ending that shows the rewritten line, when there is one. */
function becomes(where: string, line: string | undefined): string {
  return line ? `: ${where} becomes ${inlineCode(line)}` : '';
}

/** Go: `invalid operation: X op Y (mismatched types A and B)`; `cannot use x (variable of type A) as B value`; a method with a pointer receiver. */
function goFix(message: string, code: string | undefined, where: string): string | undefined {
  const op = /invalid operation: (.+?) ([-+*/%]|<<|>>|&\^?|\||\^|[<>]=?|[=!]=) (.+?) \(mismatched types (\S+) and (\S+)\)/.exec(message);
  if (op) {
    const [, x, o, y, ta, tb] = op as unknown as [string, string, string, string, string, string];
    // Convert the operand of the predeclared type to the named one (`attempt` to `time.Duration`); two predeclared types: either way fits.
    const right = goConversion(y, tb, ta);
    const left = goConversion(x, ta, tb);
    if (!right && !left) return undefined;
    const first = GO_NUMERIC.test(tb) || !left ? `${x} ${o} ${right as string}` : `${left} ${o} ${y}`;
    const other = GO_NUMERIC.test(ta) && GO_NUMERIC.test(tb) && left && right ? (first.startsWith(x) ? `${left} ${o} ${y}` : `${x} ${o} ${right}`) : undefined;
    const line = code ? replacedOnce(code, `${x} ${o} ${y}`, first) : undefined;
    return `Go does not mix types in ${inlineCode(o)}: ${inlineCode(x)} is ${a(ta)} ${inlineCode(ta)} and ${inlineCode(y)} ${a(tb)} ${inlineCode(tb)}. Convert one operand to the other's type, ${inlineCode(first)}${becomes(where, line)}.${other ? ` ${inlineCode(other)} fits as well; I can't tell which is right: it depends on which type the result should have.` : ''}`;
  }
  const pointer = /cannot use (.+?) \((?:variable|value) of type (\S+)\) as (?:type )?(\S+) (?:value )?in .*?: \S+ does not implement \S+ \((\w+) method has pointer receiver\)/.exec(message);
  if (pointer) {
    const [, x, t, iface, method] = pointer as unknown as [string, string, string, string, string];
    const line = code ? replacedOnce(code, x.replace(/…/g, ''), `&${x}`) ?? (x.includes('…') ? replacedOnce(code, x.split('{')[0] + '{', `&${x.split('{')[0] as string}{`) : undefined) : undefined;
    return `${inlineCode(method)} is declared on ${inlineCode(`*${t}`)} (a pointer receiver), so only a pointer to ${inlineCode(t)} is ${a(iface)} ${inlineCode(iface)}: pass ${inlineCode(`&${x}`)}${becomes(where, line)}; or declare ${inlineCode(method)} on ${inlineCode(t)} itself if it does not change the value.`;
  }
  const use = /cannot use (.+?) \((?:variable|constant|value|struct field) of (?:type )?(\S+?)\) as (?:type )?(\S+?) (?:value )?in /.exec(message);
  if (use) {
    const [, x, from, to] = use as unknown as [string, string, string, string];
    const converted = goConversion(x, from, to);
    if (!converted) return undefined;
    const line = code ? replacedOnce(code, x, converted) : undefined;
    return `${inlineCode(x)} is ${a(from)} ${inlineCode(from)} where ${a(to)} ${inlineCode(to)} is needed: convert it, ${inlineCode(converted)}${becomes(where, line)}${/^strconv\.Atoi/.test(converted) ? ' (it also returns an error to handle)' : ''}.`;
  }
  return undefined;
}

/** OCaml's conversion functions between its basic types. */
const OCAML: Record<string, string> = {
  'int>string': 'string_of_int',
  'float>string': 'string_of_float',
  'bool>string': 'string_of_bool',
  'string>int': 'int_of_string',
  'string>float': 'float_of_string',
  'int>float': 'float_of_int',
  'float>int': 'int_of_float',
};

/** The expression the caret line marks under a shown source line (OCaml, gcc, clang, rustc print them). */
export function caretExpression(text: string): string | undefined {
  const lines = text.split('\n');
  for (let i = 1; i < lines.length; i++) {
    const carets = /^([\s|]*?)(\^+)~*\s*$/.exec(lines[i] as string);
    const above = lines[i - 1] as string;
    if (!carets || !/^\s*\d+\s*\|/.test(above)) continue;
    const start = (carets[1] as string).length;
    const expr = above.slice(start, start + (carets[2] as string).length + (/~+/.exec((lines[i] as string).slice(start))?.[0].length ?? 0)).trim();
    if (expr !== '') return expr;
  }
  return undefined;
}

function ocamlFix(message: string, code: string | undefined, where: string): string | undefined {
  const m = /This expression has type (\w+) but an expression was expected of type\s+(\w+)/.exec(message);
  if (!m) return undefined;
  const [, found, required] = m as unknown as [string, string, string];
  const fn = OCAML[`${found}>${required}`];
  if (!fn) return undefined;
  const expr = caretExpression(message);
  const converted = expr ? `${fn} (${expr})` : undefined;
  const line = code && expr && converted ? replacedOnce(code, expr, converted) : undefined;
  return `the expression ${expr ? `${inlineCode(expr)} ` : ''}is ${a(found)} ${inlineCode(found)} where ${a(required)} ${inlineCode(required)} is expected, and OCaml converts only explicitly: ${converted ? inlineCode(converted) : `apply ${inlineCode(fn)} to it`}${becomes(where, line)}.`;
}

/** Ada: `expected type "Standard.Float"` with `found type "Standard.Integer"` at the same place; the column marks the expression or its operator. */
function adaFix(message: string, raw: string | undefined, column: number | undefined, where: string): string | undefined {
  const expected = /(\S+:\d+:\d+): error: expected type "([\w.]+)"/.exec(message);
  const found = expected ? new RegExp(`${expected[1]?.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') ?? ''}: error: found type "([\\w.]+)"`).exec(message) : null;
  if (!expected || !found) return undefined;
  const to = (expected[2] as string).split('.').pop() as string;
  const from = (found[1] as string).split('.').pop() as string;
  const lead = `this expression is ${a(from)} ${inlineCode(from)} where ${a(to)} ${inlineCode(to)} is expected, and Ada converts only explicitly`;
  if (!raw || column === undefined) return `${lead}: ${inlineCode(`${to} (...)`)} around the ${from} value.`;
  const at = raw.slice(column - 1);
  const operand = String.raw`[A-Za-z_][\w.]*(?:'[A-Za-z_]\w*)?(?:\s*\([^()]*\))?`;
  // The column on an operator: both operands of the expression are converted (Ada has no mixed arithmetic).
  const op = /^([-+*/])\s*/.exec(at);
  if (op) {
    const left = new RegExp(`(${operand})\\s*$`).exec(raw.slice(0, column - 1))?.[1];
    const right = new RegExp(`^(${operand})`).exec(at.slice(op[0].length))?.[1];
    if (left && right) {
      const expr = `${left} ${op[1] as string} ${right}`;
      const converted = `${to} (${left}) ${op[1] as string} ${to} (${right})`;
      const line = replacedOnce(raw.trim(), expr, converted);
      return `${lead}: convert the operands, ${inlineCode(converted)}${becomes(where, line)}.`;
    }
  }
  const x = new RegExp(`^(${operand})`).exec(at)?.[1];
  if (!x) return `${lead}: ${inlineCode(`${to} (...)`)} around the ${from} value.`;
  const line = replacedOnce(raw.trim(), x, `${to} (${x})`);
  return `${lead}: ${inlineCode(`${to} (${x})`)}${becomes(where, line)}.`;
}

/** printf's conversion for an argument's type (the typedef's name first, then what it is). */
const PRINTF: [RegExp, string][] = [
  [/^size_t$/, '%zu'],
  [/^ssize_t$/, '%zd'],
  [/^ptrdiff_t$/, '%td'],
  [/^u?intmax_t$/, '%jd'],
  [/^int64_t$/, '%" PRId64 "'],
  [/^uint64_t$/, '%" PRIu64 "'],
  [/^(?:long unsigned int|unsigned long(?: int)?)$/, '%lu'],
  [/^(?:long long unsigned int|unsigned long long(?: int)?)$/, '%llu'],
  [/^long long(?: int)?$/, '%lld'],
  [/^long(?: int)?$/, '%ld'],
  [/^(?:unsigned int|unsigned)$/, '%u'],
  [/^long double$/, '%Lf'],
  [/^(?:double|float)$/, '%f'],
  [/^(?:const )?char ?\*$/, '%s'],
  [/^(?:const )?void ?\*$/, '%p'],
];

function printfFix(message: string, code: string | undefined, where: string): string | undefined {
  // gcc: format ‘%d’ expects argument of type ‘int’, but argument 3 has type ‘size_t’ {aka ‘long unsigned int’}; clang: format specifies type 'int' but the argument has type 'size_t' (aka 'unsigned long')
  const gcc = /format [‘']([^’']+)[’'] expects argument of type [‘']([^’']+)[’'], but argument (\d+) has type [‘']([^’']+)[’'](?: \{aka [‘']([^’']+)[’']\})?/.exec(message);
  const clang = gcc ? null : /format specifies type '([^']+)' but the argument has type '([^']+)'(?: \(aka '([^']+)'\))?/.exec(message);
  if (!gcc && !clang) return undefined;
  const spec = gcc ? (gcc[1] as string) : undefined;
  const types = gcc ? [gcc[4] as string, gcc[5]] : [clang?.[2] as string, clang?.[3]];
  const want = types.flatMap((t) => (t ? PRINTF.filter(([re]) => re.test(t.trim())).map(([, s]) => s) : []))[0];
  if (!want) return undefined;
  const arg = gcc ? ` argument ${gcc[3] as string}` : ' the argument';
  const line = code && spec ? replacedOnce(code, spec, want) : undefined;
  return `the format's ${spec ? inlineCode(spec) : 'conversion'} is for ${a(gcc ? (gcc[2] as string) : (clang?.[1] as string))} ${inlineCode(gcc ? (gcc[2] as string) : (clang?.[1] as string))}, and${arg} is ${a(types[0] as string)} ${inlineCode(types[0] as string)}: its conversion is ${inlineCode(want)}${becomes(where, line)}${/PRI/.test(want) ? ' (with `#include <inttypes.h>`)' : ''}.`;
}

/** Java's Formatter: `IllegalFormatConversionException: d != java.lang.Double` (the conversion, then the value's class). */
function javaFormatFix(message: string, code: string | undefined, where: string): string | undefined {
  const m = /IllegalFormatConversionException: (\w) != (?:java\.\w+\.)?(\w+)/.exec(message);
  if (!m) return undefined;
  const [, conv, cls] = m as unknown as [string, string, string];
  const want = /^(?:Double|Float|BigDecimal)$/.test(cls) ? '`%f` (`%.2f` for two decimals)' : /^(?:Integer|Long|Short|Byte|BigInteger)$/.test(cls) ? '`%d`' : cls === 'String' ? '`%s`' : cls === 'Boolean' ? '`%b`' : cls === 'Character' ? '`%c`' : undefined;
  if (!want) return undefined;
  const call = code && code.includes(`%${conv}`) ? ` in ${inlineCode(code)}` : '';
  return `${inlineCode(`%${conv}`)} cannot format a ${inlineCode(cls)}, and a ${inlineCode(cls)} was passed for it${call} (${where}): format that value with ${want}, or pass the type ${inlineCode(`%${conv}`)} takes.`;
}

/** PHP: `f(): Argument #2 ($rate) must be of type float, string given, called in FILE on line N`. */
function phpFix(message: string, where: string): string | undefined {
  const m = /([\w\\:]+)\(\): Argument #(\d+) \((\$\w+)\) must be of type \??(\w+), (\w+) given(?:, called in (\S+) on line (\d+))?/.exec(message);
  if (!m) return undefined;
  const [, fn, n, name, to, from, file, line] = m as unknown as [string, string, string, string, string, string, string | undefined, string | undefined];
  const cast = { float: '(float)', int: '(int)', string: '(string)', bool: '(bool)' }[to];
  if (!cast) return undefined;
  const check = /^(?:float|int)$/.test(to) && from === 'string' ? `, after checking it with ${inlineCode('is_numeric()')} (a string that is no number would become 0 silently)` : '';
  const at = file && line ? `the call in ${inlineCode(file.split('/').slice(-2).join('/'))} on line ${line}` : 'the caller';
  return `${inlineCode(`${fn}()`)} declares ${inlineCode(name)} (argument ${n}) as ${inlineCode(to)} (${where}), and ${at} passes ${a(from)} ${inlineCode(from)}: convert the value there, ${inlineCode(`${cast} $value`)}${check}; or parse it to ${a(to)} ${inlineCode(to)} where it is read.`;
}

/** g++: `could not convert ‘30’ from ‘int’ to ‘Seconds’` (an explicit constructor, or no implicit conversion). */
function cppConvertFix(message: string, code: string | undefined, where: string): string | undefined {
  const m = /could not convert [‘'](.+?)[’'] from [‘'](.+?)[’'] to [‘'](.+?)[’']/.exec(message);
  if (!m) return undefined;
  const [, x, from, to] = m as unknown as [string, string, string, string];
  if (/[<>]/.test(to) && to.length > 40) return undefined;
  const made = `${to}(${x})`;
  const line = code ? replacedOnce(code, `, ${x})`, `, ${made})`) ?? replacedOnce(code, `(${x})`, `(${made})`) ?? replacedOnce(code, ` ${x};`, ` ${made};`) : undefined;
  return `${inlineCode(x)} is ${a(from)} ${inlineCode(from)} and ${inlineCode(to)} does not convert from it implicitly (its constructor is \`explicit\`, or there is none): construct it, ${inlineCode(made)}${becomes(where, line)}.`;
}

/** An optional value where a plain one is needed, and each language's way to take the value out. */
function optionalFix(message: string, lang: string | undefined, code: string | undefined, whereAlone: string): string | undefined {
  const where = code ? `${whereAlone} (${inlineCode(code)})` : whereAlone;
  const scala = /found\s*:\s*Option\[(.+?)\]\s*required\s*:\s*(\S+)/.exec(message);
  if (scala && scala[1] === scala[2]) return `${where} gives an ${inlineCode(`Option[${scala[1] as string}]`)} where an ${inlineCode(scala[2] as string)} is needed: take the value out, ${inlineCode('.getOrElse(<default>)')} with the value to use when it is empty (or ${inlineCode('match')} on ${inlineCode('Some')}/${inlineCode('None')}); or change the declared type to ${inlineCode(`Option[${scala[1] as string}]`)}.`;
  const java = lang === 'java' ? /incompatible types: (?:java\.util\.)?Optional<(.+?)> cannot be converted to (.+?)$/m.exec(message) : null;
  if (java && java[1] === java[2]) return `${where} gives an ${inlineCode(`Optional<${java[1] as string}>`)} where ${a(java[2] as string)} ${inlineCode(java[2] as string)} is needed: take the value out, ${inlineCode('.orElse(<default>)')} (or ${inlineCode('.orElseThrow()')} when it must be there).`;
  const rust = lang === 'rust' ? /expected `(.+?)`, found `Option<(.+?)>`/.exec(message) : null;
  if (rust && rust[1] === rust[2]) return `${where} gives an ${inlineCode(`Option<${rust[1] as string}>`)} where ${a(rust[1] as string)} ${inlineCode(rust[1] as string)} is needed: take the value out, ${inlineCode('.unwrap_or(<default>)')}, or ${inlineCode('?')} to return early when it is ${inlineCode('None')}.`;
  return undefined;
}

/**
 * The concrete change for a value of the wrong type at the marked line, or undefined when the message
 * is not one of these shapes or the pair of types has no conversion here. `raw`: the marked line as the
 * file has it (columns count in it); `where`: how the answer names the line (`line 18 of retry/retry.go`).
 */
export function conversionFix(message: string, file: string, raw: string | undefined, column: number | undefined, where: string, fileText?: string): string | undefined {
  const lang = languageOf(file);
  const code = raw?.trim();
  switch (lang) {
    case 'fortran':
      return fortranKindFix(message, raw, column, where, fileText);
    case 'go':
      return goFix(message, code, where);
    case 'ocaml':
      return ocamlFix(message, code, where);
    case 'ada':
      return adaFix(message, raw, column, where);
    case 'c':
    case 'cpp':
      return printfFix(message, code, where) ?? (lang === 'cpp' ? cppConvertFix(message, code, where) : undefined);
    case 'java':
      return javaFormatFix(message, code, where) ?? optionalFix(message, lang, code, where);
    case 'php':
      return phpFix(message, where);
    default:
      return optionalFix(message, lang, code, where);
  }
}

/** gfortran's `Type mismatch in argument ‘dt’ at (1); passed REAL(4) to REAL(8)`: one type, two kinds. */
const FORTRAN_KIND = /Type mismatch in argument [‘'`]?(\w+)[’'`]? at \(1\); passed (REAL|INTEGER|COMPLEX|LOGICAL)\((\d+)\) to \2\((\d+)\)/;

/** The actual argument that ends just before 1-based `column` (gfortran's caret sits right after it): back to its `,` or `(`. */
function argumentBefore(line: string, column: number): string | undefined {
  let depth = 0;
  let k = column - 2;
  const end = k;
  for (; k >= 0; k--) {
    const ch = line[k];
    if (ch === ')') depth++;
    else if (ch === '(' && depth-- === 0) break;
    else if (ch === ',' && depth === 0) break;
  }
  const arg = line.slice(k + 1, end + 1).trim();
  return arg !== '' && k >= 0 ? arg : undefined;
}

/**
 * The kind the argument needs (session 56, fx20): the actual argument at the caret has one kind, the procedure's dummy
 * wants another. A literal takes the kind as a suffix (`1.5_dp` with the file's own kind parameter of that kind,
 * else `1.5d0` for REAL(8), `3_8`); a variable converts with the type's intrinsic (`real(h, 8)`, `int(n, 8)`, `cmplx(z, kind=8)`).
 */
function fortranKindFix(message: string, raw: string | undefined, column: number | undefined, where: string, fileText: string | undefined): string | undefined {
  const m = FORTRAN_KIND.exec(message);
  if (!m) return undefined;
  const [dummy, type, passed, wanted] = [m[1] as string, m[2] as string, m[3] as string, m[4] as string];
  const arg = raw !== undefined && column !== undefined ? argumentBefore(raw, column) : undefined;
  const said = `${where}: the actual argument${arg ? ` ${inlineCode(arg)}` : ''} has kind ${passed} (${inlineCode(`${type}(${passed})`)}), and the procedure's dummy ${inlineCode(dummy)} wants kind ${wanted} (${inlineCode(`${type}(${wanted})`)})`;
  // A kind parameter the file declares with that kind (`integer, parameter :: dp = kind(1.0d0)`, `= real64`, `= 8`).
  const eight = wanted === '8' ? 'kind\\(1\\.0?d0\\)|real64|int64|selected_real_kind\\(1[5-9]|8' : wanted === '4' ? 'kind\\(1\\.0\\)|real32|int32|4' : wanted;
  const param = fileText ? new RegExp(`parameter\\s*::\\s*(\\w+)\\s*=\\s*(?:${eight})(?!\\w)`, 'i').exec(fileText)?.[1] : undefined;
  const used = !param && fileText ? new RegExp(`\\b${type.toLowerCase()}\\s*\\(\\s*(?:kind\\s*=\\s*)?([A-Za-z]\\w*)\\s*\\)|\\d_([A-Za-z]\\w*)\\b`, 'i').exec(fileText) : null;
  const usedName = used ? (used[1] ?? used[2]) : undefined;
  const literal = arg !== undefined && /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eEdD][-+]?\d+)?$/.test(arg);
  if (arg === undefined) return `${said}. Give that argument kind ${wanted}: a literal with the kind's suffix, a variable converted with ${inlineCode(`${type === 'INTEGER' ? 'int' : type === 'COMPLEX' ? 'cmplx' : type.toLowerCase()}(x, ${wanted})`)}, or declare it ${inlineCode(`${type.toLowerCase()}(${wanted})`)}.`;
  const convert = (kind: string): string => (type === 'INTEGER' ? `int(${arg}, ${kind})` : type === 'COMPLEX' ? `cmplx(${arg}, kind=${kind})` : type === 'LOGICAL' ? `logical(${arg}, ${kind})` : `real(${arg}, ${kind})`);
  const base = arg.replace(/_\w+$/, '');
  if (param) return `${said}. The file declares ${inlineCode(param)} as that kind, so write ${inlineCode(literal ? `${base.replace(/[dD]([-+]?\d+)$/, 'e$1')}_${param}` : convert(param))} in place of ${inlineCode(arg)} (or declare the variable ${inlineCode(`${type.toLowerCase()}(${param})`)}).`;
  const plain = literal ? (type === 'REAL' && wanted === '8' && !/[dD]/.test(base) ? `${base.replace(/[eE]([-+]?\d+)$/, '')}d${/[eE]([-+]?\d+)$/.exec(base)?.[1] ?? '0'}` : `${base}_${wanted}`) : convert(wanted);
  const hint = usedName ? ` This file writes its kinds as ${inlineCode(usedName)}: if ${inlineCode(usedName)} is kind ${wanted} (its ${inlineCode('parameter')} line says), ${inlineCode(literal ? `${base}_${usedName}` : convert(usedName))} says the same in the project's own way.` : '';
  return `${said}. Write ${inlineCode(plain)} in place of ${inlineCode(arg)}${literal ? '' : ' (or declare that variable with kind ' + wanted + ')'}.${hint}`;
}
