/**
 * The confusion of unseen predictions (issue 25; docs/notes/analyzer.md "Session 56 (helper cl3)"): for each round r
 * open for tuning, the class the rules of FORWARD_COMMITS[r] gave round r's cases before anyone tuned on them
 * (scripts/classModelForward.ts's dumps), against the label. Pairs (label, predicted) are counted with the rounds they
 * occur in and the rules' level, and, given a dump of the current checkout (scripts/classModelDump.ts `--root .`), how
 * many of a pair's cases the current rules class right (in-sample now: those rounds have been tuned on).
 *   npm run class-model -- --confusion [--now /tmp/now.json] [--min-rounds 3]
 */
import type { Finding, FindingClass } from '../protocol/types.js';

/** A case as a forward dump holds it, reduced to what the confusion reads. */
export interface Predicted {
  id: string;
  round: number;
  label: FindingClass;
  rules: FindingClass;
  confidence: Finding['confidence'];
}

/** One (label, predicted) cell of the confusion, wrong predictions only. */
export interface ConfusionPair {
  label: FindingClass;
  predicted: FindingClass;
  ids: string[];
  /** The rounds it occurs in, ascending, each once. */
  rounds: number[];
  high: number;
  medium: number;
  low: number;
  /** Of its cases, how many the current rules class right (undefined without a current dump). */
  nowRight?: number;
}

/**
 * The wrong cells of the unseen predictions `rows` (each case of its own round), most rounds first, then most cases;
 * `now` maps a case id to the class the current rules give it.
 */
export function confusion(rows: readonly Predicted[], now?: ReadonlyMap<string, FindingClass>): ConfusionPair[] {
  const cells = new Map<string, ConfusionPair>();
  for (const r of rows) {
    if (r.label === r.rules) continue;
    const key = `${r.label}\u0000${r.rules}`;
    let cell = cells.get(key);
    if (!cell) {
      cell = { label: r.label, predicted: r.rules, ids: [], rounds: [], high: 0, medium: 0, low: 0, ...(now ? { nowRight: 0 } : {}) };
      cells.set(key, cell);
    }
    cell.ids.push(r.id);
    if (!cell.rounds.includes(r.round)) cell.rounds.push(r.round);
    cell[r.confidence]++;
    if (now && cell.nowRight !== undefined && now.get(r.id) === r.label) cell.nowRight++;
  }
  const pairs = [...cells.values()];
  for (const p of pairs) p.rounds.sort((a, b) => a - b);
  return pairs.sort((a, b) => b.rounds.length - a.rounds.length || b.ids.length - a.ids.length || `${a.label}${a.predicted}`.localeCompare(`${b.label}${b.predicted}`));
}

/** The table `--confusion` prints: the pooled figure, then each pair in at least `minRounds` rounds. */
export function confusionReport(rows: readonly Predicted[], pairs: readonly ConfusionPair[], minRounds: number): string {
  const right = rows.filter((r) => r.label === r.rules).length;
  const rounds = [...new Set(rows.map((r) => r.round))].sort((a, b) => a - b);
  const pct = rows.length ? ((100 * right) / rows.length).toFixed(1) : '0.0';
  const out = [`unseen class right ${right}/${rows.length} (${pct} %), rounds ${rounds.join(',')}; wrong cells in >= ${minRounds} rounds:`];
  out.push('| label | predicted | cases | rounds | high/medium/low | right now |', '|---|---|---|---|---|---|');
  for (const p of pairs) {
    if (p.rounds.length < minRounds) continue;
    out.push(`| ${p.label} | ${p.predicted} | ${p.ids.length} | ${p.rounds.length} | ${p.high}/${p.medium}/${p.low} | ${p.nowRight ?? '-'} |`);
  }
  return out.join('\n');
}
