/**
 * The data and the threshold of the class model (core/finding/classModel.ts): the labelled real
 * failures open for tuning (bench/findings.ts `loadRealCases(..., {tuning: true})`: a case of round
 * HELDOUT_ROUND or later is skipped as soon as its round is read, never analysed), each analysed as
 * the findings bench does (`analyzeLines(fail, {baseline: pass})`, the top excerpt's finding), and
 * the leave-one-round-out procedure that picks the threshold. Used by scripts/classModel.ts
 * (`npm run class-model [-- --check | --loro]`) and its staleness test.
 */
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { analyzeLines } from '../core/log/analyze.js';
import { baselineFromStream } from '../core/log/baseline.js';
import { cleanLines } from '../core/log/clean.js';
import { bestGuess, classTokens, tableSource, trainTable, type ClassModelTable } from '../core/finding/classModel.js';
import { FINDING_CLASSES, type FindingClass } from '../protocol/types.js';
import { defaultRealfailDir, loadRealCases } from '../bench/findings.js';

/** The generated table. */
export const MODEL_TABLE_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../core/finding/classModelTable.ts');

export interface ModelCase {
  id: string;
  /** The held-out round that added it (1: none). */
  round: number;
  label: FindingClass;
  /** The rules' class and confidence of the top excerpt. */
  rules: FindingClass;
  confidence: 'high' | 'medium' | 'low';
  tokens: string[];
}

/** The thresholds tried, ascending; the highest wins a tie. */
export const THRESHOLDS = [0.5, 0.7, 0.8, 0.9, 0.95, 0.98, 0.99, 0.995, 0.998, 0.999, 0.9995, 0.9999, 0.99999];
/** The rounds left out one at a time. */
export const LORO_ROUNDS = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
/** What a case the model makes right gains, and what one it makes wrong costs. */
const GAIN_RIGHT = 1;
const COST_WRONG = 2;

/** The labelled cases open for tuning, analysed; cases without any excerpt are left out (the rules have no finding to add to). */
export async function modelCases(): Promise<ModelCase[]> {
  const out: ModelCase[] = [];
  for (const c of await loadRealCases(defaultRealfailDir(), { tuning: true })) {
    const lines = cleanLines(c.failLog);
    const baseline = await baselineFromStream(Readable.from([c.passLog]));
    const top = analyzeLines(lines, { baseline })[0];
    const f = top?.finding;
    if (!top || !f) continue;
    out.push({ id: c.expected.id, round: c.expected.round ?? 1, label: c.expected.class as FindingClass, rules: f.class, confidence: f.confidence, tokens: classTokens(lines, top, f) });
  }
  return out;
}

export const train = (cases: readonly ModelCase[], threshold = 1): ClassModelTable =>
  trainTable(cases.map((c) => ({ tokens: c.tokens, label: c.label })), FINDING_CLASSES, threshold);

/** The policy: a guess only for a rules-unknown case; `low`: also over a rules class at confidence low. */
export type Policy = 'unknown' | 'low';

/** Which cases the policy may change, and the model's guess for each (by a table trained without them). */
export function guesses(table: ClassModelTable, cases: readonly ModelCase[], policy: Policy): { c: ModelCase; guess: FindingClass; p: number }[] {
  const out: { c: ModelCase; guess: FindingClass; p: number }[] = [];
  for (const c of cases) {
    const open = c.rules === 'unknown' || (policy === 'low' && c.confidence === 'low');
    if (!open) continue;
    const g = bestGuess(table, c.tokens);
    if (g && g.class !== c.rules) out.push({ c, guess: g.class, p: g.probability });
  }
  return out;
}

/**
 * Cases made right and made wrong at threshold t. Wrong: a guess other than the label where the
 * rules said `unknown` (an honest unknown turned into a wrong class) or had the label; a rules class
 * that was wrong replaced by another wrong one is neither.
 */
export function outcome(gs: readonly { c: ModelCase; guess: FindingClass; p: number }[], t: number): { right: number; wrong: number } {
  let right = 0;
  let wrong = 0;
  for (const g of gs) {
    if (g.p < t) continue;
    if (g.guess === g.c.label) right++;
    else if (g.c.rules === 'unknown' || g.c.rules === g.c.label) wrong++;
  }
  return { right, wrong };
}

/** The threshold leave-one-round-out over `rounds` picks on `cases` (each round held out once, trained on every other case). */
export function chooseThreshold(cases: readonly ModelCase[], rounds: readonly number[], policy: Policy): number {
  const perRound = rounds.map((r) => guesses(train(cases.filter((c) => c.round !== r)), cases.filter((c) => c.round === r), policy));
  let best = THRESHOLDS[THRESHOLDS.length - 1] as number;
  let bestGain = -Infinity;
  for (const t of THRESHOLDS) {
    let gain = 0;
    for (const gs of perRound) {
      const o = outcome(gs, t);
      gain += GAIN_RIGHT * o.right - COST_WRONG * o.wrong;
    }
    if (gain >= bestGain) [best, bestGain] = [t, gain];
  }
  return best;
}

/** The table of every case, at the threshold leave-one-round-out over LORO_ROUNDS picks. */
export function modelTableOf(cases: readonly ModelCase[]): ClassModelTable {
  return train(cases, chooseThreshold(cases, LORO_ROUNDS, 'unknown'));
}

/** classModelTable.ts's text for `cases`. */
export function modelSource(cases: readonly ModelCase[]): string {
  const table = modelTableOf(cases);
  const rounds = [...new Set(cases.map((c) => c.round))].sort((a, b) => a - b);
  return tableSource(table, `${cases.length} cases of rounds ${rounds[0]}-${rounds[rounds.length - 1]}, ${table.tokens.size} tokens held by two or more; threshold by leave-one-round-out over rounds ${LORO_ROUNDS[0]}-${LORO_ROUNDS[LORO_ROUNDS.length - 1]}.`);
}
