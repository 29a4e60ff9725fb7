/**
 * The class model's forward protocol (`npm run class-model -- --forward`; docs/notes/analyzer.md "The
 * class model on unseen breaks"): the model as it is used. For each unseen round r the rules' output
 * is that of the commit at which r was measured (FORWARD_COMMITS), on the cases of rounds <= r
 * (scripts/classModelDump.ts, run in a detached worktree of that commit, cached under
 * FORWARD_DIR); the model is trained on rounds < r only (the data that existed then), its
 * temperature fitted by leave-one-round-out on those rounds, and it is scored on round r's cases the
 * rules left `unknown`: right, wrong, abstained at the fixed LIKELY_AT. A held-out round (>=
 * HELDOUT_ROUND) is never dumped nor scored.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HELDOUT_ROUND } from '../bench/findings.js';
import { bestGuess, classTokens, LIKELY_AT } from '../core/finding/classModel.js';
import type { Finding, FindingClass } from '../protocol/types.js';
import { fitTemperature, loroRounds, train as trainModel } from './classModelData.js';

/**
 * The commit at which each unseen round was measured (docs/notes/analyzer.md, the lead's sections); a
 * round is used only once it is open for tuning (below HELDOUT_ROUND): 16 was measured with 15; 17 first at ea85b046
 * (session 41's final code), 18 first at aac32f02 (session 42's start code; its final 2f2d8ea5 gave the same classes),
 * 19 first at 7d87154f (session 43's start code), 20 first at 2db9ffdf (session 44's start code), 21 first at d5196271
 * (session 45's start code), 22 first at 4efaca37 (session 46's start code), 23 first at 1f2a69a8 (session 47's start code),
 * 24 first at 619ff6c6 (session 48's start code), 25 first at 6996a2f3 (session 49's start code), 26 first at e828994b (session 50's start code),
 * 27 first at 07118cf9 (session 51's start code), 28 first at 56487d9a (session 52's start code), 29 first at 4ff920be (session 53's start code),
 * 30 first at 1491df6a (session 54's start code), 31 first at 15f5b9f5 (session 55's start code).
 */
export const FORWARD_COMMITS: Readonly<Record<number, string>> = { 11: '8016051c', 12: '62c67b96', 13: '4a0fc243', 14: '76107e2b', 15: '5a433a6b', 16: '5a433a6b', 17: 'ea85b046', 18: 'aac32f02', 19: '7d87154f', 20: '2db9ffdf', 21: 'd5196271', 22: '4efaca37', 23: '1f2a69a8', 24: '619ff6c6', 25: '6996a2f3', 26: 'e828994b', 27: '07118cf9', 28: '56487d9a', 29: '4ff920be', 30: '1491df6a', 31: '15f5b9f5' };
/** Where the dumps are cached (one JSON file per round and commit). */
export const FORWARD_DIR = '/tmp/cichat-forward';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** A case as the rules of one commit saw it (scripts/classModelDump.ts). */
export interface ForwardCase {
  id: string;
  round: number;
  label: FindingClass;
  rules: FindingClass;
  confidence: Finding['confidence'];
  message: string;
  tool?: string;
  start_line: number;
  end_line: number;
  /** The cleaned log (cleanLines of that commit). */
  lines: string[];
}

/** The model's tokens of a dumped case: classTokens of the current code on the old rules' finding. */
export function forwardTokens(c: ForwardCase): string[] {
  const finding = { class: c.rules, confidence: c.confidence, message: c.message, ...(c.tool ? { tool: c.tool } : {}) } as Finding;
  return classTokens(c.lines, c, finding);
}

/** The dump of round r (cases of rounds <= r, rules of commit `rev`), made in a detached worktree when not cached. */
export function forwardDump(round: number, rev: string): ForwardCase[] {
  if (round >= HELDOUT_ROUND) throw new Error(`round ${round} is held out (HELDOUT_ROUND ${HELDOUT_ROUND})`);
  mkdirSync(FORWARD_DIR, { recursive: true });
  const file = path.join(FORWARD_DIR, `r${round}-${rev}.json`);
  if (!existsSync(file)) {
    const wt = path.join(FORWARD_DIR, `wt-${rev}`);
    if (!existsSync(wt)) {
      execFileSync('git', ['-C', REPO, 'worktree', 'add', '--quiet', '--detach', wt, rev], { stdio: 'inherit' });
      symlinkSync(path.join(REPO, 'node_modules'), path.join(wt, 'node_modules'));
    }
    try {
      execFileSync('npx', ['tsx', path.join(REPO, 'scripts/classModelDump.ts'), '--root', wt, '--upto', String(round), '--out', file], { cwd: REPO, stdio: 'inherit' });
    } finally {
      execFileSync('git', ['-C', REPO, 'worktree', 'remove', '--force', wt], { stdio: 'inherit' });
    }
  }
  return (JSON.parse(readFileSync(file, 'utf8')) as { cases: ForwardCase[] }).cases;
}

/** A case reduced to what the model reads. */
export interface Tokened {
  round: number;
  label: FindingClass;
  rules: FindingClass;
  confidence: Finding['confidence'];
  tokens: readonly string[];
}

/** The temperature leave-one-round-out over the rounds >= 2 of `cases` fits (classModelData.ts fitTemperature). */
export const fitTemperatureOf = (cases: readonly Tokened[]): number => fitTemperature(cases, loroRounds(cases));

/** One round's forward figures. */
export interface ForwardRound {
  round: number;
  n: number;
  /** Cases the rules classed right. */
  rules: number;
  /** Cases the rules left `unknown` (and those of them labelled with a class). */
  unknown: number;
  temperature: number;
  /** Guesses at p >= LIKELY_AT on the rules' unknowns: right, wrong (label another class or unknown), and the unknowns left alone. */
  right: number;
  wrong: number;
  abstained: number;
  /** Every guess on the rules' unknowns with its posterior (for other thresholds). */
  guesses: { id?: string; label: FindingClass; guess: FindingClass; p: number }[];
}

/** Round r scored by a model trained on `train` (rounds < r), at the fixed LIKELY_AT; only the rules' unknowns are open. */
export function forwardRound(round: number, train: readonly Tokened[], test: readonly (Tokened & { id?: string })[]): ForwardRound {
  const temperature = fitTemperatureOf(train);
  const table = trainModel(train, LIKELY_AT, temperature);
  const out: ForwardRound = { round, n: test.length, rules: test.filter((c) => c.rules === c.label).length, unknown: 0, temperature, right: 0, wrong: 0, abstained: 0, guesses: [] };
  for (const c of test) {
    if (c.rules !== 'unknown') continue;
    out.unknown++;
    const g = bestGuess(table, c.tokens);
    if (!g) continue;
    out.guesses.push({ ...(c.id ? { id: c.id } : {}), label: c.label, guess: g.class, p: g.probability });
    if (g.probability < LIKELY_AT) out.abstained++;
    else if (g.class === c.label) out.right++;
    else out.wrong++;
  }
  return out;
}

/** The forward figures of rounds `rounds` (each from its own dump), the cases' tokens by `tokensOf`. */
export function forwardFigures(rounds: readonly number[], dumpOf: (round: number) => ForwardCase[], tokensOf: (c: ForwardCase) => string[] = forwardTokens): ForwardRound[] {
  return rounds.map((r) => {
    const cases = dumpOf(r).map((c) => ({ id: c.id, round: c.round, label: c.label, rules: c.rules, confidence: c.confidence, tokens: tokensOf(c) }));
    return forwardRound(
      r,
      cases.filter((c) => c.round < r),
      cases.filter((c) => c.round === r),
    );
  });
}

/** The rounds of FORWARD_COMMITS open for tuning now. */
export const forwardRounds = (): number[] => Object.keys(FORWARD_COMMITS).map(Number).filter((r) => r < HELDOUT_ROUND);

/** The other levels `--forward` sums the guesses at (whether a higher one could name a class at `medium`). */
export const FORWARD_LEVELS = [0.8, 0.95, 0.99];

/** The table `--forward` prints: per round, then the sum, with the +1/-2 gain. */
export function forwardReport(figs: readonly ForwardRound[]): string {
  const rows = ['round  n   rules  unknown  right  wrong  abstained  gain(+1/-2)  temperature'];
  const sum = { n: 0, rules: 0, unknown: 0, right: 0, wrong: 0, abstained: 0 };
  for (const f of figs) {
    rows.push(`${String(f.round).padStart(5)}  ${String(f.n).padStart(3)}  ${String(f.rules).padStart(5)}  ${String(f.unknown).padStart(7)}  ${String(f.right).padStart(5)}  ${String(f.wrong).padStart(5)}  ${String(f.abstained).padStart(9)}  ${String(f.right - 2 * f.wrong).padStart(11)}  ${f.temperature}`);
    for (const k of Object.keys(sum) as (keyof typeof sum)[]) sum[k] += f[k];
  }
  const at = FORWARD_LEVELS.map((t) => {
    const gs = figs.flatMap((f) => f.guesses).filter((g) => g.p >= t);
    return `p >= ${t}: ${gs.filter((g) => g.guess === g.label).length} right, ${gs.filter((g) => g.guess !== g.label).length} wrong`;
  });
  rows.push(`total  ${String(sum.n).padStart(3)}  ${String(sum.rules).padStart(5)}  ${String(sum.unknown).padStart(7)}  ${String(sum.right).padStart(5)}  ${String(sum.wrong).padStart(5)}  ${String(sum.abstained).padStart(9)}  ${String(sum.right - 2 * sum.wrong).padStart(11)}`);
  rows.push(`the rules' unknowns summed at other levels: ${at.join('; ')}`);
  return rows.join('\n');
}
