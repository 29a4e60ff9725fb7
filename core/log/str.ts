/**
 * String.prototype's methods as constants, for the analyzer's per-line code (issue 28).
 *
 * A line reaches the analyzer in more string representations than V8's inline caches tell apart
 * (one- and two-byte, flat and sliced, the empty string, the cleaned ones): `body.startsWith(x)`
 * at a site that has seen five of them is a megamorphic load of `startsWith` (V8's stub cache) and
 * a call TurboFan cannot inline. `startsWith(body, x)` calls the builtin through a constant, which
 * TurboFan inlines whatever the representation (it checks only that the receiver is a string).
 * On the LogChunks logs as one stream `Builtins_LoadIC_Megamorphic` went from 4.0 % to 2.7 % of the
 * samples (`perf record`; docs/notes/analyzer.md, "Thirteenth session").
 */
const proto = String.prototype;
const charCodeAtOf = proto.charCodeAt;
const startsWithOf = proto.startsWith;
const includesOf = proto.includes;

/**
 * `s.charCodeAt(i)` (an integer `i`). TurboFan compiles `charCodeAt` inline only while the call site has never read
 * out of bounds: the first out-of-bounds read (the first character of an empty line) deoptimised this function and
 * barred the speculation at its one call site, which every inlined copy of `codeAt` shares, and from then on every
 * `codeAt` of the analyzer was a call of the builtin (`--trace-deopt`: "out of bounds"; issue 28, docs/notes/analyzer.md
 * "Session 51 (helper sp15)"). An index out of bounds gives NaN here without reaching `charCodeAt`.
 */
export const codeAt = (s: string, i: number): number => (i >>> 0 < lengthOf(s) ? charCodeAtOf.call(s, i) : NaN);
/** `s.startsWith(prefix)`. */
export const startsWith = (s: string, prefix: string): boolean => startsWithOf.call(s, prefix);
/** `s.includes(part)`. */
export const includes = (s: string, part: string): boolean => includesOf.call(s, part);

/**
 * `s.length`, compiled as a string's length whatever its representation. `s.length` at a site that has met more
 * string representations than V8's inline cache tells apart (one- and two-byte, flat, sliced, cons, internalized...)
 * is a megamorphic load, which TurboFan compiles as a call of the stub cache (`Builtins_LoadIC_Megamorphic`, ~12 ns a
 * load) where it knows no map. `s + ''` (string feedback) is compiled as a check that `s` is a string, typed String,
 * and TurboFan lowers the length of a String-typed value to one field load (issue 28, docs/notes/analyzer.md
 * "Session 51 (helper sp15)"). Unoptimised code pays an addition that returns `s`.
 */
export const lengthOf = (s: string): number => (s + '').length;
