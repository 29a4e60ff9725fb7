/**
 * The real-failure cases (test/fixtures/realfail, issue 25) as the benches and the class model read them: the
 * expected finding's shape, its check, and the held-out rule (HELDOUT_ROUND). Kept apart from bench/findings.ts
 * (which answers each case with the engines) so that what reads only the cases, scripts/classModelData.ts and its
 * stamp, does not import the answer code (docs/notes/house.md, "the class model's stamp").
 */
import { readdir, readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FINDING_CLASSES } from '../protocol/types.js';

interface ExpectedLocation {
  file: string;
  line: number;
  column?: number;
}

export interface Expected {
  id: string;
  family: string;
  class: string;
  tool: string;
  message: string;
  location: ExpectedLocation | null;
  /**
   * The line a senior would edit when the log never prints it (a script's, a manifest's line; `location` is then
   * null): kept for the fix and for answers with a workspace (fixture README, "Relabels", session 51).
   */
  sourceLine?: ExpectedLocation;
  frames?: { file: string; line: number }[];
  test?: string;
  fix: string;
  fixMustMention: string[];
  mustNotClaim: string[];
  split: 'dev' | 'heldout';
  /** The held-out round that added the case (absent: the first; plan4a.tsv / plan4b.tsv: 2). */
  round?: number;
  /** A round-1 held-out case that is dev now: `"heldout-round1"`. */
  rotated?: string;
  /** A tuning case a tuner built on its own, dev from the start (plan-tune3.tsv): `"tune3"`. */
  origin?: string;
  /** Why a label was changed after the case was built (fixture README, "Relabels"). */
  note?: string;
}

export interface RealCase {
  dir: string;
  expected: Expected;
  failLog: string;
  passLog: string;
}

export const defaultRealfailDir = (): string => path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../test/fixtures/realfail');

export const isDict = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function checkExpected(v: unknown, where: string): Expected {
  if (!isDict(v)) throw new Error(`${where}: not a JSON object`);
  for (const k of ['id', 'family', 'class', 'tool', 'message', 'fix', 'split']) {
    if (typeof v[k] !== 'string') throw new Error(`${where}: "${k}" must be a string`);
  }
  if (!(FINDING_CLASSES as readonly string[]).includes(v.class as string)) throw new Error(`${where}: class "${String(v.class)}" is not in the taxonomy`);
  if (v.split !== 'dev' && v.split !== 'heldout') throw new Error(`${where}: split must be dev or heldout`);
  if (v.round !== undefined && !(typeof v.round === 'number' && Number.isInteger(v.round) && v.round >= 1)) throw new Error(`${where}: round must be a whole number >= 1`);
  if (v.rotated !== undefined && typeof v.rotated !== 'string') throw new Error(`${where}: rotated must be a string`);
  if (v.origin !== undefined && !(typeof v.origin === 'string' && v.split === 'dev' && v.round === undefined)) throw new Error(`${where}: origin marks a dev tuning case (a string, split dev, no round)`);
  if (v.split === 'heldout' && v.rotated !== undefined) throw new Error(`${where}: a rotated case is dev now, not heldout`);
  for (const k of ['fixMustMention', 'mustNotClaim']) {
    if (!Array.isArray(v[k]) || !(v[k] as unknown[]).every((x) => typeof x === 'string')) throw new Error(`${where}: "${k}" must be an array of strings`);
  }
  const loc = v.location;
  if (loc !== null && !(isDict(loc) && typeof loc.file === 'string' && typeof loc.line === 'number')) {
    throw new Error(`${where}: location must be null or {file, line}`);
  }
  const src = v.sourceLine;
  if (src !== undefined && !(isDict(src) && typeof src.file === 'string' && typeof src.line === 'number' && loc === null)) {
    throw new Error(`${where}: sourceLine must be {file, line}, beside a null location`);
  }
  return v as unknown as Expected;
}

/**
 * The held-out round being measured now: its cases (and any later) are never read with --tuning.
 * Rounds before it were measured and reported, then opened for tuning (fixture README, Rounds).
 */
export const HELDOUT_ROUND = 32;


/**
 * The cases of `dir` (every sub-directory holding an expected.json), in id order. `tuning`:
 * a case of the current held-out round (`round` >= HELDOUT_ROUND) is skipped as soon as its round is read, so
 * neither its log nor a check's error message about it is ever shown.
 */
export async function loadRealCases(dir: string, opts: { tuning?: boolean; leftOut?: string[] } = {}): Promise<RealCase[]> {
  if (!existsSync(dir)) throw new Error(`${dir}: no such directory (the real-failure cases, test/fixtures/realfail)`);
  const names = (await readdir(dir, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name).sort();
  const cases: RealCase[] = [];
  for (const name of names) {
    const caseDir = path.join(dir, name);
    const file = path.join(caseDir, 'expected.json');
    if (!existsSync(file)) continue;
    const raw: unknown = JSON.parse(await readFile(file, 'utf8'));
    if (opts.tuning && isDict(raw) && typeof raw.round === 'number' && raw.round >= HELDOUT_ROUND) {
      opts.leftOut?.push(name);
      continue;
    }
    const expected = checkExpected(raw, file);
    if (expected.id !== name) throw new Error(`${file}: id "${expected.id}" is not the directory's name`);
    const failLog = await readFile(path.join(caseDir, 'fail.log'), 'utf8');
    const passLog = await readFile(path.join(caseDir, 'pass.log'), 'utf8');
    const lower = failLog.toLowerCase();
    const quoted = expected.mustNotClaim.filter((p) => lower.includes(p.toLowerCase()));
    if (quoted.length > 0) throw new Error(`${file}: mustNotClaim ${JSON.stringify(quoted)} occurs in fail.log, so it would count quotations as claims`);
    cases.push({ dir: caseDir, expected, failLog, passLog });
  }
  if (cases.length === 0) throw new Error(`${dir}: no case (a directory with expected.json)`);
  return cases;
}
