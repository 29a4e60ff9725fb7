/**
 * The analyzer's learned ranker, trained offline, and the leave-repositories-out protocol that
 * decides whether it ships.
 *
 *   npm run bench -- ranker [--data DIR] [--folds K] [--json]
 *
 * Protocol: the labelled logs are cut into K folds by repository (no repository in two folds;
 * repositories ordered by language then name and dealt round-robin, so a language's
 * repositories fall into different folds). For each fold, weights are fitted on the other
 * folds only and the fold is measured with them; the held-out measurements of all folds are
 * pooled and reported overall and per ecosystem (the LogChunks language), beside the hand-set
 * rule weights measured on the same folds. Then the weights are fitted once on all logs and
 * printed: that vector is what `core/log/rank.ts` ships (its figure on all logs is training
 * data and is not reported as a result).
 *
 * Fitting: coordinate ascent from the rule weights on mean F1 + 0.5 hit@3 + 0.25 hit@1 of the
 * training logs, with a small penalty for moving away from the rules (so a weight moves only
 * when it pays on many logs).
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { candidatesOf } from '../core/log/analyze.js';
import { cleanLines } from '../core/log/clean.js';
import { FEATURES, RULE_WEIGHTS, OLD_RULE_WEIGHTS, LEARNED_WEIGHTS, scoreOf } from '../core/log/rank.js';

export interface Labelled {
  id: string;
  log: string;
  start_line: number;
  end_line: number;
  language: string;
  repo: string;
}

/** One candidate reduced to what the protocol needs: its features and how it matches the label. */
interface Cand {
  features: number[];
  start: number;
  hit: boolean;
  f1: number;
}

export interface Prepared {
  example: Labelled;
  cands: Cand[];
  /** The figures of the tail (last 7 lines) when the analyzer finds no candidate. */
  tailF1: number;
  tailHit: boolean;
}

export interface Measure {
  n: number;
  hit1: number;
  hit3: number;
  f1: number;
}

function overlapF1(a0: number, a1: number, b0: number, b1: number): { hit: boolean; f1: number } {
  const ov = Math.max(0, Math.min(a1, b1) - Math.max(a0, b0) + 1);
  if (ov === 0) return { hit: false, f1: 0 };
  const p = ov / (a1 - a0 + 1);
  const r = ov / (b1 - b0 + 1);
  return { hit: true, f1: (2 * p * r) / (p + r) };
}

export async function loadExamples(data: string): Promise<Labelled[]> {
  const index = await readFile(path.join(data, 'index.jsonl'), 'utf8');
  return index
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Labelled);
}

export async function prepare(data: string, examples: Labelled[]): Promise<Prepared[]> {
  const out: Prepared[] = [];
  for (const example of examples) {
    const lines = cleanLines(await readFile(path.join(data, example.log), 'utf8'));
    const cands = candidatesOf(lines).map((c) => {
      const m = overlapF1(c.start + 1, c.end + 1, example.start_line, example.end_line);
      return { features: c.features, start: c.start, hit: m.hit, f1: m.f1 };
    });
    const tail = overlapF1(Math.max(1, lines.length - 6), lines.length, example.start_line, example.end_line);
    out.push({ example, cands, tailF1: tail.f1, tailHit: tail.hit });
  }
  return out;
}

/** hit@1, hit@3 and F1 of the top candidate of one log under `weights`. */
function judge(p: Prepared, weights: readonly number[]): { hit1: boolean; hit3: boolean; f1: number } {
  if (p.cands.length === 0) return { hit1: p.tailHit, hit3: p.tailHit, f1: p.tailF1 };
  // The top three by score; ties go to the earlier block, as in the analyzer.
  const top: { c: Cand; s: number }[] = [];
  for (const c of p.cands) {
    const s = scoreOf(c.features, weights);
    let k = top.length;
    while (k > 0) {
      const prev = top[k - 1];
      if (prev === undefined || prev.s > s || (prev.s === s && prev.c.start <= c.start)) break;
      k--;
    }
    if (k < 3) {
      top.splice(k, 0, { c, s });
      if (top.length > 3) top.pop();
    }
  }
  const first = top[0]?.c;
  return { hit1: first?.hit ?? false, hit3: top.some((t) => t.c.hit), f1: first?.f1 ?? 0 };
}

export function measure(set: readonly Prepared[], weights: readonly number[]): Measure {
  let hit1 = 0;
  let hit3 = 0;
  let f1 = 0;
  for (const p of set) {
    const j = judge(p, weights);
    if (j.hit1) hit1++;
    if (j.hit3) hit3++;
    f1 += j.f1;
  }
  const n = Math.max(1, set.length);
  return { n: set.length, hit1: hit1 / n, hit3: hit3 / n, f1: f1 / n };
}

const PENALTY = 0.005;
/** Which weights the fit may move: by default all (`--fit new` moves only the issue-15 signals). */
let FIT_FEATURES: number[] = FEATURES.map((_, i) => i);
const STEPS = [-2, -1, -0.5, -0.25, 0.25, 0.5, 1, 2];

function objective(set: readonly Prepared[], weights: readonly number[]): number {
  const m = measure(set, weights);
  let moved = 0;
  for (let i = 0; i < weights.length; i++) moved += Math.abs((weights[i] ?? 0) - (RULE_WEIGHTS[i] ?? 0));
  return m.f1 + 0.5 * m.hit3 + 0.25 * m.hit1 - PENALTY * moved;
}

/** Coordinate ascent from the rule weights (see the file comment). */
export function fit(set: readonly Prepared[], passes = 3, only: readonly number[] = FIT_FEATURES): number[] {
  const w = [...RULE_WEIGHTS];
  let best = objective(set, w);
  for (let pass = 0; pass < passes; pass++) {
    let improved = false;
    for (const i of only) {
      const base = w[i] ?? 0;
      let bestValue = base;
      for (const step of STEPS) {
        w[i] = base + step;
        const o = objective(set, w);
        if (o > best + 1e-6) {
          best = o;
          bestValue = base + step;
        }
      }
      w[i] = bestValue;
      if (bestValue !== base) improved = true;
    }
    if (!improved) break;
  }
  return w;
}

/** Fold of each repository: ordered by language then name, dealt round-robin. */
export function foldsOf(examples: readonly Labelled[], k: number): Map<string, number> {
  const repos = new Map<string, string>();
  for (const e of examples) repos.set(e.repo, e.language);
  const order = [...repos.entries()].sort((a, b) => a[1].localeCompare(b[1]) || a[0].localeCompare(b[0]));
  return new Map(order.map(([repo], i) => [repo, i % k]));
}

export interface Protocol {
  folds: number;
  old: Measure;
  rules: Measure;
  learned: Measure;
  perLanguage: Record<string, { old: Measure; rules: Measure; learned: Measure }>;
  perFold: { fold: number; repos: string[]; old: Measure; rules: Measure; learned: Measure; weights: number[] }[];
}

function pool(parts: { m: Measure }[]): Measure {
  const n = parts.reduce((s, p) => s + p.m.n, 0);
  const w = (f: (m: Measure) => number): number => (n === 0 ? 0 : parts.reduce((s, p) => s + f(p.m) * p.m.n, 0) / n);
  return { n, hit1: w((m) => m.hit1), hit3: w((m) => m.hit3), f1: w((m) => m.f1) };
}

/** The leave-repositories-out protocol: fit on K-1 folds, measure the held-out fold, rotate. */
export function crossValidate(all: readonly Prepared[], k: number): Protocol {
  const fold = foldsOf(all.map((p) => p.example), k);
  const heldOld: { p: Prepared; m: Measure }[] = [];
  const heldRules: { p: Prepared; m: Measure }[] = [];
  const heldLearned: { p: Prepared; m: Measure }[] = [];
  const perFold: Protocol['perFold'] = [];
  for (let f = 0; f < k; f++) {
    const train = all.filter((p) => fold.get(p.example.repo) !== f);
    const test = all.filter((p) => fold.get(p.example.repo) === f);
    const w = fit(train);
    for (const p of test) {
      heldOld.push({ p, m: measure([p], OLD_RULE_WEIGHTS) });
      heldRules.push({ p, m: measure([p], RULE_WEIGHTS) });
      heldLearned.push({ p, m: measure([p], w) });
    }
    perFold.push({
      fold: f,
      repos: [...new Set(test.map((p) => p.example.repo))],
      old: measure(test, OLD_RULE_WEIGHTS),
      rules: measure(test, RULE_WEIGHTS),
      learned: measure(test, w),
      weights: w,
    });
  }
  const languages = [...new Set(all.map((p) => p.example.language))].sort();
  const perLanguage: Protocol['perLanguage'] = {};
  for (const lang of languages) {
    perLanguage[lang] = {
      old: pool(heldOld.filter((x) => x.p.example.language === lang)),
      rules: pool(heldRules.filter((x) => x.p.example.language === lang)),
      learned: pool(heldLearned.filter((x) => x.p.example.language === lang)),
    };
  }
  return { folds: k, old: pool(heldOld), rules: pool(heldRules), learned: pool(heldLearned), perLanguage, perFold };
}

function fmt(m: Measure): string {
  return `${String(m.n).padStart(4)} ${m.hit1.toFixed(2).padStart(6)} ${m.hit3.toFixed(2).padStart(6)} ${m.f1.toFixed(3).padStart(6)}`;
}

export function printProtocol(p: Protocol): void {
  console.log(`leave-repositories-out, ${p.folds} folds by repository; figures on held-out folds only (pooled)`);
  console.log(`${''.padEnd(16)} ${'old rules'.padStart(25)} | ${'rules + issue-15 signals'.padEnd(20)} | learned on the other folds`);
  console.log(`${'group'.padEnd(16)} ${'   n'}   hit1   hit3     F1 |   hit1   hit3     F1 |   hit1   hit3     F1`);
  const line = (label: string, o: Measure, r: Measure, l: Measure): string =>
    `${label.padEnd(16)} ${fmt(o)} | ${fmt(r).slice(5)} | ${fmt(l).slice(5)}`;
  console.log(line('held-out, all', p.old, p.rules, p.learned));
  for (const f of p.perFold) console.log(line(`fold ${f.fold}`, f.old, f.rules, f.learned));
  for (const [lang, m] of Object.entries(p.perLanguage)) console.log(line(lang, m.old, m.rules, m.learned));
}

function parseArgs(args: string[]): { data: string; folds: number; json: boolean } {
  let data = defaultData();
  let folds = 5;
  let json = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--data') data = path.resolve(args[++i] ?? '.');
    else if (a === '--folds') folds = Number(args[++i] ?? '5');
    else if (a === '--json') json = true;
    else if (a === '--fit' && args[i + 1] === 'new') {
      i++;
      FIT_FEATURES = FEATURES.map((_, k) => k).filter((k) => k >= 11);
    }
  }
  if (!Number.isInteger(folds) || folds < 2) throw new Error('--folds must be an integer of at least 2');
  return { data, folds, json };
}

export async function run(args: string[]): Promise<void> {
  const { data, folds, json } = parseArgs(args);
  const examples = await loadExamples(data);
  const prepared = await prepare(data, examples);
  const protocol = crossValidate(prepared, folds);
  const shipped = fit(prepared);
  if (json) {
    console.log(JSON.stringify({ data, protocol, fittedOnAll: shipped, shippedNow: LEARNED_WEIGHTS }, null, 2));
    return;
  }
  printProtocol(protocol);
  console.log('');
  console.log('weights fitted on all logs (paste into core/log/rank.ts LEARNED_WEIGHTS when the protocol says they win):');
  console.log(`[${shipped.map((x) => String(Math.round(x * 100) / 100)).join(', ')}]`);
  for (let i = 0; i < FEATURES.length; i++) {
    if ((shipped[i] ?? 0) !== (RULE_WEIGHTS[i] ?? 0)) console.log(`  ${FEATURES[i]}: ${RULE_WEIGHTS[i]} -> ${shipped[i]}`);
  }
}

/** `../shared/data/logchunks-dev` from the working directory (a checkout under /work), else /work/shared's. */
export function defaultData(): string {
  const near = path.resolve(process.cwd(), '../shared/data/logchunks-dev');
  return existsSync(near) ? near : '/work/shared/data/logchunks-dev';
}
