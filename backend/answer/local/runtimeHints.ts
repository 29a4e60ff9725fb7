/**
 * What a runtime's own error words ask for, where the general step said only "change what that line does with the
 * values it gets" (helper ux13, docs/notes/ux13.md): a Haskell pattern match with no equation for the value (and the
 * compiler's `-Wincomplete-patterns` warning the same log printed for it), Lua's `number has no integer
 * representation`, Elixir's protocol with no implementation for a struct, and a Fortran list-directed read that met
 * text where it wanted a number. Keyed on the runtimes' words, never on a project's names; each step names the place
 * the finding has and quotes only lines it cites. They replace the general place step (`EXCEPTION_PLACE`).
 */
import type { Finding } from '../../../protocol/types.js';
import { cite, inlineCode } from '../logtext.js';
import { at, type LineText } from './findingText.js';
import { EXCEPTION_PLACE, rule, type RemedyRule } from './remedyShape.js';

const c = inlineCode;

/** GHC's runtime: `prog: src/M.hs:(28,1)-(29,40): Non-exhaustive patterns in function f` (or `in case`, a lambda...). */
const HS_NON_EXHAUSTIVE = /\.l?hs:(?:\((\d+),\d+\)-\((\d+),\d+\)|(\d+):\d+(?:-\d+)?): Non-exhaustive (patterns|guards) in (?:function ([\w'.]+)|(.*\S))\s*$/;
/** GHC's warning heading (`src/M.hs:28:1: warning: [-Wincomplete-patterns]`) and its `In an equation for ‘f’: Patterns not matched: ...`. */
const HS_WARNING = /^(\S+\.l?hs):(\d+):\d+: (?:warning|error): \[-W(?:error=)?incomplete-patterns\]/;
const HS_NOT_MATCHED = /In an equation for [‘'`]([\w'.]+)[’'`]:\s*Patterns? (?:of type [^,]+, )?not matched:\s*(.*)$/;

/** Lua 5.3+: an argument that must be an integer got a float with a fraction (`%d` of `3.5`). */
const LUA_NO_INTEGER = /bad argument #(\d+) to '([\w.:]+)' \(number has no integer representation\)/;

/** Elixir: `protocol String.Chars not implemented for %Mod{...} of type Mod (a struct)` (1.14; older: `for %Mod{...}`). */
const EX_PROTOCOL = /protocol ([\w.]+) not implemented for (?:%([\w.]+)\{|.*? of type ([\w.]+))/;

/** gfortran's list-directed read (`read(u, *) a, b`) that met text where it wanted a value of a type. */
const FORTRAN_LIST_READ = /Fortran runtime error: Bad (integer|real|logical|complex) for item (\d+) in list input/;

/** The place the finding names (`file:line`), shown, when it has one. */
function placeOf(f: Finding): string | undefined {
  const p = f.location?.frames?.project ?? f.location;
  return p?.file && p.line ? c(`${p.file}:${p.line}`) : undefined;
}

/** The `-Wincomplete-patterns` warning GHC printed for `fn` above line `before` (its heading and its `Patterns not matched` lines). */
function incompleteWarning(lineText: LineText | undefined, before: number, fn: string): { from: number; to: number; patterns: string } | undefined {
  for (let n = before - 1; lineText && n >= Math.max(1, before - 5000); n--) {
    if (!HS_WARNING.test(lineText(n) ?? '')) continue;
    for (let k = n + 1; k <= n + 4; k++) {
      const m = HS_NOT_MATCHED.exec(`${lineText(k - 1) ?? ''} ${lineText(k) ?? ''}`.replace(/\s+/g, ' ').trim()) ?? HS_NOT_MATCHED.exec((lineText(k) ?? '').trim());
      if (!m || m[1] !== fn) continue;
      // The patterns may go on over the next indented lines (one per line when there are several).
      const more: string[] = [];
      let to = k;
      while (more.length < 4 && /^\s{8,}\S/.test(lineText(to + 1) ?? '') && !/^\s*\|/.test(lineText(to + 1) ?? '')) more.push((lineText(++to) ?? '').trim());
      const patterns = [m[2] as string, ...more].filter((x) => x.trim() !== '').join('; ');
      return patterns ? { from: n, to, patterns } : undefined;
    }
  }
  return undefined;
}

/** A tested rule's steps, alternatives of the exception hints (group `exception`) that replace the general place step. */
const hint = (id: string, body: Parameters<typeof rule>[2]): RemedyRule => rule(id, 'wording', body, { group: 'exception', supersedes: [EXCEPTION_PLACE] });

const isRaised = (f: Finding): boolean => f.class === 'runtime-exception' || f.class === 'test-error';

export const RUNTIME_HINT_REMEDIES: RemedyRule[] = [
  hint('runtime/haskell-non-exhaustive', (i, out) => {
    const { f, lineText } = i;
    const m = isRaised(f) ? HS_NON_EXHAUSTIVE.exec(f.message) : null;
    if (!m) return;
    const [first, last] = m[1] !== undefined ? [m[1], m[2]] : [m[3], m[3]];
    const fn = m[5];
    const place = placeOf(f);
    const span = place ? ` (${first === last ? `line ${first}` : `lines ${first}-${last}`}, the span GHC names)` : '';
    const what = fn ? `no equation of ${c(fn)} matches the arguments it was called with` : `no alternative of the ${c(m[6] as string)} matches the value it got`;
    const warned = fn ? incompleteWarning(lineText, f.message_line, fn) : undefined;
    const compiler = warned
      ? ` GHC said so when it compiled the module ${cite({ start_line: warned.from, end_line: warned.to })}: the ${c('-Wincomplete-patterns')} warning names the patterns no equation matches, ${c(warned.patterns)}, and a warning does not fail the build.`
      : ` Build with ${c('-Wincomplete-patterns')} (part of ${c('-Wall')}): GHC then lists the patterns no equation matches.`;
    out.push({
      text: `GHC's runtime stopped the program because ${what} ${i.m}${place ? `: the definition at ${place}${span} has no case for them` : ''} (a type that gained a constructor is the usual cause).${compiler} Add ${fn ? `an equation for those patterns to ${c(fn)}` : 'an alternative for that value'} (or a last one that handles any other), and build with ${c('-Werror=incomplete-patterns')} so that a missing case stops the build, not the program.`,
      lines: warned ? [f.message_line, warned.from, warned.to] : [f.message_line],
    });
  }),
  hint('runtime/lua-no-integer', (i, out) => {
    const { f } = i;
    const m = isRaised(f) ? LUA_NO_INTEGER.exec(f.message) : null;
    if (!m) return;
    const fn = m[2] as string;
    const place = placeOf(f);
    const format = /(?:^|\.)format$/.test(fn);
    out.push({
      text: `Argument #${m[1] as string} of ${c(fn)}${format ? ' (counted from the format string, argument #1)' : ''} is a number with a fraction where Lua needs an integer ${i.m}${format ? ` (a ${c('%d')}, ${c('%x')} or ${c('%c')} of the format)` : ''}. Since Lua 5.3 ${c('/')} always gives a float (${c('7 / 2')} is ${c('3.5')}), so a value computed with it reaches an integer argument with its fraction. ${place ? `At ${place}, make` : 'Make'} that value an integer where it is computed (${c('//')}, floor division, or ${c('math.floor(x + 0.5)')} to round)${format ? `, or print it with ${c('%.1f')} or ${c('%g')} if the fraction is wanted` : ''}.`,
      lines: [f.message_line],
    });
  }),
  hint('runtime/elixir-protocol', (i, out) => {
    const { f } = i;
    const m = isRaised(f) ? EX_PROTOCOL.exec(f.message) : null;
    if (!m) return;
    const protocol = m[1] as string;
    const type = (m[2] ?? m[3]) as string;
    const struct = m[2] !== undefined || /\(a struct\)/.test(f.message);
    const place = placeOf(f);
    const chars = protocol === 'String.Chars';
    out.push({
      text:
        `${chars ? `String interpolation (${c('"#{x}"')}) and ${c('to_string/1')} convert a value through the ${c('String.Chars')} protocol, and` : `The code called the protocol ${c(protocol)} on a value of ${c(type)}, and`} ${c(type)}${struct ? ' (a struct)' : ''} has no implementation of ${chars ? 'it' : 'that protocol'} ${i.m}` +
        `${struct ? `; a function of the same name in the struct's own module is not one` : ''}. ${place ? `At ${place}, pass` : 'Pass'} a value of a type that implements it (the message lists them)${chars && struct ? `: convert the struct with a function of its module before it is interpolated` : ''}, or implement the protocol for it: ${c(`defimpl ${protocol}, for: ${type} do ... end`)}${struct && !chars ? ` (or ${c(`@derive ${protocol}`)} above ${c('defstruct')}, where the protocol supports deriving)` : ''}.`,
      lines: [f.message_line],
    });
  }),
  hint('runtime/fortran-list-read', (i, out) => {
    const { f, lineText } = i;
    const m = isRaised(f) ? FORTRAN_LIST_READ.exec(f.message) : null;
    if (!m) return;
    const kind = m[1] as string;
    // gfortran's `At line 31 of file src/stations.f90` over the message, sometimes with `(unit = 10, file = 'x.csv')`.
    const head = [f.message_line - 1, f.message_line - 2].find((n) => /^At line \d+ of file \S+/.test(lineText?.(n)?.trim() ?? ''));
    const input = head !== undefined ? /\(unit = \d+, file = '([^']+)'\)/.exec(lineText?.(head) ?? '')?.[1] : undefined;
    const place = placeOf(f);
    out.push({
      text: `A list-directed read (${c('read(unit, *) ...')})${place ? ` at ${place}` : ''} ${head !== undefined ? `${at(head)} ` : ''}wanted ${kind === 'integer' ? 'an' : 'a'} ${kind} as item ${m[2] as string} of the record it read, and the input held text that is not one ${i.m}. The input ${input ? `(${c(input)}) ` : ''}has something else where the read expects ${kind === 'logical' ? 'a logical value' : 'a number'}: a header row (a file that gained column names), a missing or extra column, a decimal comma, an empty field. Look at the record the program was reading${input ? '' : ' (the file the step gave it)'}; if the file now starts with a header, read that line into a character variable before reading the values (and count one record fewer), or take the header out of the file.`,
      lines: head !== undefined ? [head, f.message_line] : [f.message_line],
    });
  }),
];

/** Whether one of these rules speaks for the finding's message (the source block's **Fix:** line then defers to it). */
export function runtimeHintApplies(f: Finding): boolean {
  return isRaised(f) && [HS_NON_EXHAUSTIVE, LUA_NO_INTEGER, EX_PROTOCOL, FORTRAN_LIST_READ].some((re) => re.test(f.message));
}
