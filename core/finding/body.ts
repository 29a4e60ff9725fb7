/**
 * A log line as the finding reads it: the line without the CI's marks (timestamps, GitHub's
 * `##[error]`, Ant's task names), and the message as a sentence can quote it. Shared by the
 * finding's readers (index.ts).
 */
import { firstCharsOfAny } from '../log/gates.js';
import { goJsonText } from '../log/goJson.js';
import { firstIndex } from '../log/prefilter.js';
import { FAST_HOLES_MAX } from '../log/kept.js';

const MESSAGE_MAX = 1200;

/**
 * A timestamp, GitHub's `##[error]` and similar marks before the line: not part of what the tool
 * printed. Taken off in this order by `bodyOf` (one anchored at the start, `^`, is tried only on
 * a line that may begin with it: MARK_FIRST).
 */
const LINE_MARKS: readonly RegExp[] = [
  /^\uFEFF/,
  /^\d{4}-\d\d-\d\dT[\d:.]+Z ?/,
  /^\[\d{4}-\d\d-\d\dT[\d:.]+Z?\]\s*/,
  /^\[?\d\d:\d\d:\d\d(?:\.\d+)?\]?\s+(?=\S)/,
  /^##\[(?:error|warning)\]/,
  // Ant prints each task's output behind its name: `    [javac] /ws/src/A.java:6: error: ...`.
  /^\s{2,}\[(?:javac|java|junit|junitlauncher|exec|apply|scalac|groovyc|kotlinc|testng|jar|csc)\] /,
  // Gradle (plain console, 4.x) prints a task's name and its first output line with no line break between:
  // `:compileJava/ws/src/A.java:12: warning: ...`.
  /^:(?:[\w-]+:)*[\w-]+(?=\/\S+:\d+: )/,
];
/** For each of LINE_MARKS, 1 at the first characters (`firstIndex`) a line it matches may begin with (core/log/gates.ts). */
const MARK_FIRST = LINE_MARKS.map((mark) => firstCharsOfAny([mark]));

/** The line without the marks of LINE_MARKS and trailing white space, cut to 2000 characters. */
export function bodyOf(raw: string): string {
  let text = raw.length > 2000 ? raw.slice(0, 2000) : raw;
  // A mark is tried only where the line (as the marks before left it) may begin with it.
  for (let k = 0; k < LINE_MARKS.length; k++) if (MARK_FIRST[k]![firstIndex(text)] === 1) text = text.replace(LINE_MARKS[k]!, '');
  // `go test -json`: the event's Output is what the tool printed (core/log/goJson.ts).
  const event = goJsonText(text);
  if (event !== undefined) text = event;
  // A line ending in a visible character has no trailing white space.
  const last = text.charCodeAt(text.length - 1);
  return last > 32 && last < 127 ? text : text.trimEnd();
}

/**
 * Per lines array, the bodies read so far: each `bodyOf(lines[i])` once (a tuned case's findings asked it ~4,000 times,
 * ~250 lines; docs/notes/analyzer.md "Session 53 (helper sp17)"). `raw` holds the line each body was made of, so a
 * changed array entry is read again; the cache goes with the array.
 */
const BODIES = new WeakMap<readonly string[], { raw: string[]; body: string[] }>();

/** A cache of `length` holes: fast elements up to FAST_HOLES_MAX lines (a dictionary's lookups cost more than the body). */
function holes(length: number): string[] {
  return length <= FAST_HOLES_MAX ? new Array<string>(length) : [];
}

/** `bodyOf(lines[i] ?? '')`, each line of an array made once. */
export function lineBody(lines: readonly string[], i: number): string {
  const raw = lines[i];
  if (raw === undefined) return bodyOf('');
  let kept = BODIES.get(lines);
  if (kept === undefined) BODIES.set(lines, (kept = { raw: holes(lines.length), body: holes(lines.length) }));
  if (kept.raw[i] === raw) return kept.body[i] as string;
  const body = bodyOf(raw);
  kept.raw[i] = raw;
  kept.body[i] = body;
  return body;
}

/**
 * Lines a..b-1 without their CI marks. The analyzer may hand a windowed array (a streamed log
 * keeps only the lines around its blocks): a line it does not hold reads as blank.
 */
export function bodies(lines: readonly string[], a: number, b: number): string[] {
  const out: string[] = [];
  for (let i = Math.max(0, a); i < Math.min(lines.length, b); i++) out.push(lineBody(lines, i));
  return out;
}

/** The message as a sentence can quote it: CI prefixes off, one line, bounded. */
export function messageText(body: string): string {
  const text = body
    .trim()
    .replace(/^\[(?:ERROR|error)\]\s+/, '')
    .replace(/^E\s{2,}/, '')
    .replace(/^Error: (?=\S+Error:)/, '')
    .replace(/^> (?=\S)/, '')
    // busted's TAP diagnostic label over the failure's own line (`# Failure message: src/x.lua:6: ...`).
    .replace(/^#\s*Failure message:\s+(?=\S)/, '')
    // pip's retry wrapper around the connection error: the error itself.
    .replace(/^WARNING: Retrying \(.*?\) after connection broken by '\w+\((?:'<[^>]*>: )?(.+?)'?\)'.*$/, '$1')
    // Maven's wrapper around a plugin execution's failure (`Failed to execute goal G (id) on project p: Execution
    // id of goal G failed: <cause>`): the cause is what went wrong; the goal stays in the evidence line.
    .replace(/^Failed to execute goal \S+ \([^)]*\) on project [^:\s]+: Execution \S+ of goal \S+ failed: (?=\S)/, '')
    .replace(/\s+-> \[Help \d+\]$/, '');
  return text.length > MESSAGE_MAX ? `${text.slice(0, MESSAGE_MAX - 1)}…` : text;
}
