/**
 * `npm run calibration`: chooses the least posterior at which a rule's `high` stands (core/finding/calibration.ts)
 * from the forward protocol, and writes core/finding/calibrationTable.ts (docs/notes/analyzer.md "Calibration
 * (helper cal1, session 45)").
 *
 * For each unseen round r open for tuning (FORWARD_COMMITS, scripts/classModelForward.ts): the findings of round r's
 * cases as the rules of the commit that first measured r gave them (forwardDump, cached under /tmp/cichat-forward,
 * made in a detached worktree of that commit when missing: ~1-2 min a round), and a class model trained on the rounds
 * before r only, its temperature fitted by leave-one-round-out on them (as the landed table's is). Each of round r's
 * findings at `high` is scored by that model's posterior of its class from the excerpt's words alone
 * (calibration.ts wordsProbability); it is right when its class is the label. The threshold is the one of
 * HIGH_AT_GRID with the best gain over every round: +2 for each wrong `high` lowered, -1 for each right one lowered
 * (the project's +1/-2: a confident wrong class costs two right ones; break-even 2/3 right), a tie to the lower
 * threshold (fewer lowered). It prints, per round, the findings at `high` and the wrong ones before and after, at
 * the chosen threshold and at the one chosen from the earlier rounds alone (nested: what a round unseen by the choice
 * gets).
 *   -- --check   exit 1 when calibrationTable.ts is not what the forward figures make now
 * The same for a rule's class at `medium` or `low` (keepAt, calibration.ts `supported`): below it the class is set
 * aside and the finding says `unknown`; +2 for each wrong class set aside, -1 for each right one, chosen the same way
 * (docs/notes/analyzer.md "Session 50 (helper cm2): decisions below high, forward").
 * Rebuild it when a round opens (its commit added to FORWARD_COMMITS): test/calibration-table.test.ts fails until then.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { highHolds, wordsProbability } from '../core/finding/calibration.js';
import { forwardDump, forwardRounds, forwardTokens, fitTemperatureOf, FORWARD_COMMITS, type ForwardCase } from './classModelForward.js';
import { train } from './classModelData.js';

/** The generated file. */
export const CALIBRATION_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../core/finding/calibrationTable.ts');

/** The thresholds tried, ascending (0: no `high` lowered). */
export const HIGH_AT_GRID = [0, 0.02, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5];

/** One finding at `high` of an unseen round: whether its class was right, and its class's posterior from the words alone. */
export interface Scored {
  id: string;
  round: number;
  right: boolean;
  p: number;
}

/** Round r's findings at `high` (rules of the dump's commit), each scored by a model trained on the rounds before r. */
export function scoredRound(round: number, dump: readonly ForwardCase[]): Scored[] {
  return scoredRoundBoth(round, dump).high;
}

/**
 * Round r's findings by a model trained on the rounds before r: those at `high`, and those with a class at `medium` or
 * `low` (the rules' own level: a dump's `high` that its commit's calibration lowered counts as high), each with its
 * class's posterior from the words alone.
 */
export function scoredRoundBoth(round: number, dump: readonly ForwardCase[]): { high: Scored[]; below: Scored[] } {
  const cases = dump.map((c) => ({ c, round: c.round, label: c.label, rules: c.rules, confidence: c.confidence, tokens: forwardTokens(c) }));
  const before = cases.filter((x) => x.round < round);
  const table = train(before, 1, fitTemperatureOf(before));
  const of = (keep: (x: (typeof cases)[number]) => boolean): Scored[] =>
    cases.filter((x) => x.round === round && x.c.rules !== 'unknown' && keep(x)).map((x) => ({ id: x.c.id, round, right: x.c.rules === x.c.label, p: wordsProbability(table, x.tokens, x.c.rules) }));
  return { high: of((x) => x.c.confidence === 'high'), below: of((x) => x.c.confidence !== 'high') };
}

/** What lowering every `high` that does not hold at `t` (calibration.ts highHolds) gains: +2 for each wrong one, -1 for each right one. */
export const gainAt = (scored: readonly Scored[], t: number): number => scored.reduce((s, x) => s + (highHolds(x.p, t) ? 0 : x.right ? -1 : 2), 0);

/** The threshold of HIGH_AT_GRID with the best gain (a tie to the lower one; 0 when nothing gains). */
export function chooseHighAt(scored: readonly Scored[]): number {
  let best = 0;
  let bestGain = 0;
  for (const t of HIGH_AT_GRID) {
    const g = gainAt(scored, t);
    if (g > bestGain) [best, bestGain] = [t, g];
  }
  return best;
}

/** One round's figures at threshold `t`: findings at high and the wrong ones, before and after. */
export interface RoundFigures {
  round: number;
  t: number;
  high: number;
  wrong: number;
  keptHigh: number;
  keptWrong: number;
}

export function figuresAt(round: number, scored: readonly Scored[], t: number): RoundFigures {
  const kept = scored.filter((x) => highHolds(x.p, t));
  return { round, t, high: scored.length, wrong: scored.filter((x) => !x.right).length, keptHigh: kept.length, keptWrong: kept.filter((x) => !x.right).length };
}

/** Per round at the chosen threshold, and nested (each round at the threshold its earlier rounds choose). */
export function calibrationFigures(scored: readonly Scored[]): { highAt: number; chosen: RoundFigures[]; nested: RoundFigures[] } {
  const rounds = [...new Set(scored.map((x) => x.round))].sort((a, b) => a - b);
  const highAt = chooseHighAt(scored);
  const of = (r: number): Scored[] => scored.filter((x) => x.round === r);
  return {
    highAt,
    chosen: rounds.map((r) => figuresAt(r, of(r), highAt)),
    nested: rounds.map((r) => figuresAt(r, of(r), chooseHighAt(scored.filter((x) => x.round < r)))),
  };
}

const row = (f: RoundFigures): string => `${String(f.round).padStart(5)}  ${String(f.t).padStart(4)}  ${String(f.high).padStart(4)}  ${String(f.wrong).padStart(5)}  ${String(f.keptHigh).padStart(9)}  ${String(f.keptWrong).padStart(10)}`;
function table(name: string, figs: readonly RoundFigures[]): string[] {
  const sum = (k: 'high' | 'wrong' | 'keptHigh' | 'keptWrong'): number => figs.reduce((s, f) => s + f[k], 0);
  return [name, 'round  at    high  wrong  high after  wrong after', ...figs.map(row), `total        ${String(sum('high')).padStart(4)}  ${String(sum('wrong')).padStart(5)}  ${String(sum('keptHigh')).padStart(9)}  ${String(sum('keptWrong')).padStart(10)}`];
}

/** The figures as printed and as the generated file's comment holds them; `below`: the same for the classes at medium or low (keepAt). */
export function calibrationReport(figs: ReturnType<typeof calibrationFigures>, scored: readonly Scored[], below?: { figs: ReturnType<typeof calibrationFigures>; scored: readonly Scored[] }): string[] {
  return [
    `forward rounds ${[...new Set(scored.map((x) => x.round))].join(', ')}: findings at high, their class's posterior from the words alone; gain per threshold (+2 a wrong high lowered, -1 a right one):`,
    HIGH_AT_GRID.map((t) => `${t}: ${gainAt(scored, t)}`).join(', '),
    ...table(`chosen highAt ${figs.highAt}, every round at it:`, figs.chosen),
    ...table('nested: each round at the threshold the rounds before it choose (round 11: none):', figs.nested),
    ...(below
      ? [
          "below high: the rules' classes at medium or low, their posterior from the words alone; gain per threshold (+2 a wrong class set aside as unknown, -1 a right one):",
          HIGH_AT_GRID.map((t) => `${t}: ${gainAt(below.scored, t)}`).join(', '),
          ...table(`chosen keepAt ${below.figs.highAt}, every round at it (columns: classes below high, wrong, still said, wrong still said):`, below.figs.chosen),
          ...table('nested: each round at the threshold the rounds before it choose (round 11: none):', below.figs.nested),
        ]
      : []),
  ];
}

/** calibrationTable.ts's text. */
export function calibrationSource(highAt: number, rounds: Readonly<Record<number, string>>, report: readonly string[], keepAt = 0): string {
  return [
    '// Generated by `npm run calibration` (scripts/calibration.ts) from the forward protocol: do not edit.',
    ...report.map((l) => `// ${l}`),
    '',
    'export const CALIBRATION = {',
    '  /** A rule\'s `high` stands when its class\'s posterior from the excerpt\'s words alone is at least this (core/finding/calibration.ts). */',
    `  highAt: ${highAt},`,
    "  /** A rule's `medium` or `low` class is said when its posterior from the excerpt's words alone is at least this (calibration.ts `supported`). */",
    `  keepAt: ${keepAt},`,
    '  /** The unseen rounds it was chosen on, each with the commit whose rules gave its findings (scripts/classModelForward.ts FORWARD_COMMITS). */',
    `  rounds: { ${Object.entries(rounds).map(([r, rev]) => `${r}: '${rev}'`).join(', ')} } as Readonly<Record<number, string>>,`,
    '};',
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const rounds = forwardRounds();
  const commits = Object.fromEntries(rounds.map((r) => [r, FORWARD_COMMITS[r] as string]));
  const both = rounds.map((r) => scoredRoundBoth(r, forwardDump(r, commits[r] as string)));
  const scored = both.flatMap((b) => b.high);
  const figs = calibrationFigures(scored);
  // Below high: the rules' own medium and low classes (a high calibration lowers keeps its hedged medium).
  const belowScored = both.flatMap((b) => b.below);
  const below = { figs: calibrationFigures(belowScored), scored: belowScored };
  const report = calibrationReport(figs, scored, below);
  console.log(report.join('\n'));
  const source = calibrationSource(figs.highAt, commits, report, below.figs.highAt);
  if (process.argv.includes('--check')) {
    if (readFileSync(CALIBRATION_FILE, 'utf8') !== source) {
      console.error(`${CALIBRATION_FILE} is stale: run \`npm run calibration\``);
      process.exit(1);
    }
    console.log(`${CALIBRATION_FILE} is up to date`);
    return;
  }
  writeFileSync(CALIBRATION_FILE, source);
  console.log(`wrote ${CALIBRATION_FILE}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
