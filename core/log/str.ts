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

/** `s.charCodeAt(i)`. */
export const codeAt = (s: string, i: number): number => charCodeAtOf.call(s, i);
/** `s.startsWith(prefix)`. */
export const startsWith = (s: string, prefix: string): boolean => startsWithOf.call(s, prefix);
/** `s.includes(part)`. */
export const includes = (s: string, part: string): boolean => includesOf.call(s, part);
