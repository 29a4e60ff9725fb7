/**
 * The logs analysed in one test file (test/answerFixtures.ts `analyzedChatContext`), moved here from
 * answerFixtures.ts to keep it under 700 lines.
 */
import type { ChatContext } from '../../backend/answer/engine.js';
import { analyzeLines, excerptText } from '../../core/log/analyze.js';
import { cleanLines } from '../../core/log/clean.js';

/** The real analyzer's excerpts of the cleaned `lines`, each with its text (as ingest stores them). */
export function analyzedExcerpts(lines: string[]): ChatContext['failureExcerpts'] {
  return analyzeLines(lines).map((e) => ({ ...e, text: excerptText(lines, e) }));
}

export type Analysed = { lines: string[]; excerpts: ChatContext['failureExcerpts'] };

/**
 * The logs analysed in this test file, each with its cleaned lines and the analyzer's excerpts. A file asks the same
 * few logs many times (local-questions: 201 contexts of 18 logs, a fresh one per row), and cleaning and analysing is
 * a function of the log alone (checked: every repeat in the 37 files that use this equalled a fresh analysis,
 * isDeepStrictEqual), so each log is analysed once per file and every context gets its own copy, as before (an
 * answer that changed its excerpts would change its own context only). Kept only while the excerpts are plain data
 * (arrays, objects, strings, numbers) and up to KEEP_CHARS of logs; else analysed each time.
 * docs/notes/house.md, "Tests: session 51 (helper tt1)".
 */
const analysed = new Map<string, Analysed>();
const KEEP_CHARS = 16_000_000;
let keptChars = 0;

export function analyzedLog(log: string): Analysed {
  const hit = analysed.get(log);
  if (hit !== undefined) return { lines: [...hit.lines], excerpts: plainCopy(hit.excerpts) };
  const lines = cleanLines(log);
  const excerpts = analyzedExcerpts(lines);
  if (keptChars + log.length <= KEEP_CHARS && isPlain(excerpts)) {
    analysed.set(log, { lines: [...lines], excerpts: plainCopy(excerpts) });
    keptChars += log.length;
  }
  return { lines, excerpts };
}

/** Whether `v` is arrays, objects of this realm's Object, and primitives only (what plainCopy copies exactly). */
function isPlain(v: unknown): boolean {
  if (v === null || typeof v !== 'object') return typeof v !== 'function' && typeof v !== 'symbol';
  if (Array.isArray(v)) return v.every(isPlain);
  return Object.getPrototypeOf(v) === Object.prototype && Object.getOwnPropertySymbols(v).length === 0 && Object.values(v).every(isPlain);
}

/** A deep copy of plain data made in this realm (structuredClone's objects have the outer realm's prototypes under Jest). */
function plainCopy<T>(v: T): T {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(plainCopy) as T;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = plainCopy(x);
  return out as T;
}

