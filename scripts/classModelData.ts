/**
 * The data and the threshold of the class model (core/finding/classModel.ts): the labelled real
 * failures open for tuning (bench/findings.ts `loadRealCases(..., {tuning: true})`: a case of round
 * HELDOUT_ROUND or later is skipped as soon as its round is read, never analysed), each analysed as
 * the findings bench does (`analyzeLines(fail, {baseline: pass})`, the top excerpt's finding), and
 * the leave-one-round-out procedure that fits the posteriors' temperature (the threshold is LIKELY_AT,
 * fixed; docs/notes/analyzer.md "A stable threshold"). Used by scripts/classModel.ts
 * (`npm run class-model [-- --check | --loro]`) and its staleness test.
 */
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { analyzeLines } from '../core/log/analyze.js';
import { baselineFromStream } from '../core/log/baseline.js';
import { cleanLines } from '../core/log/clean.js';
import { bestGuess, classTokens, LIKELY_AT, logScores, tableSource, tempered, trainTable, type ClassModelTable } from '../core/finding/classModel.js';
import { FINDING_CLASSES, type FindingClass } from '../protocol/types.js';
import { defaultRealfailDir, loadRealCases } from '../bench/realCases.js';

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

/** The thresholds the former choice (chooseThreshold, kept for `--loro`'s comparison) tried, ascending; the highest wins a tie. */
export const THRESHOLDS = [0.5, 0.7, 0.8, 0.9, 0.95, 0.98, 0.99, 0.995, 0.998, 0.999, 0.9995, 0.9999, 0.99999];
/** The temperatures tried: 1 to 20 by 0.05. */
const TEMPERATURES = Array.from({ length: 381 }, (_, i) => Math.round(100 + 5 * i) / 100);
/** The rounds left out one at a time: every held-out round open for tuning (round 1, the first set, is training data only). */
export const loroRounds = (cases: readonly Pick<ModelCase, 'round'>[]): number[] => [...new Set(cases.map((c) => c.round))].filter((r) => r >= 2).sort((a, b) => a - b);
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
    out.push({ id: c.expected.id, round: c.expected.round ?? 1, label: c.expected.class as FindingClass, rules: f.rules_class ?? f.class, confidence: f.confidence, tokens: classTokens(lines, top, f) });
  }
  return out;
}

/** What the model reads of a case (a ModelCase, or a dumped case of the forward protocol). */
export type Labelled = Pick<ModelCase, 'round' | 'label'> & { tokens: readonly string[] };

export const train = (cases: readonly Labelled[], threshold = 1, temperature = 1): ClassModelTable =>
  trainTable(cases.map((c) => ({ tokens: c.tokens, label: c.label })), FINDING_CLASSES, threshold, temperature);

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

/**
 * The temperature that makes the held-out posteriors honest: each round of `rounds` held out once
 * and scored by a table trained on every other case, the temperature (1 ... 20 by 0.05) with the
 * least log-loss of the held cases' labels (all of them: the 40-odd rules-unknown cases alone give
 * 5.7-8.7 by held round, all ~1,000 give 3.5-3.6). Smallest wins a tie.
 */
export function fitTemperature(cases: readonly Labelled[], rounds: readonly number[]): number {
  const held: { s: number[]; k: number }[] = [];
  for (const r of rounds) {
    const table = train(cases.filter((c) => c.round !== r));
    for (const c of cases) if (c.round === r) held.push({ s: logScores(table, c.tokens), k: table.classes.indexOf(c.label) });
  }
  let best = 1;
  let bestLoss = Infinity;
  for (const t of TEMPERATURES) {
    let loss = 0;
    for (const h of held) loss -= Math.log(Math.max(tempered(h.s, t)[h.k] as number, 1e-12));
    if (loss < bestLoss) [best, bestLoss] = [t, loss];
  }
  return best;
}

/** The table of every case, at the temperature leave-one-round-out fits, naming a class at LIKELY_AT. */
export function modelTableOf(cases: readonly ModelCase[]): ClassModelTable {
  return train(cases, LIKELY_AT, fitTemperature(cases, loroRounds(cases)));
}

/** classModelTable.ts's text for `cases`. */
export function modelSource(cases: readonly ModelCase[]): string {
  const table = modelTableOf(cases);
  const rounds = loroRounds(cases);
  return tableSource(table, `${cases.length} cases of rounds 1-${rounds[rounds.length - 1]}, ${table.tokens.size} tokens held by two or more; temperature by leave-one-round-out over rounds ${rounds[0]}-${rounds[rounds.length - 1]}, threshold fixed.`);
}
