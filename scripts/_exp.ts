import { Readable } from 'node:stream';
import { analyzeLines } from '../core/log/analyze.js';
import { baselineFromStream } from '../core/log/baseline.js';
import { cleanLines } from '../core/log/clean.js';
import { classTokens, trainTable, SMOOTHING, type ClassModelTable } from '../core/finding/classModel.js';
import { FINDING_CLASSES, type Finding, type FindingClass } from '../protocol/types.js';
import { defaultRealfailDir, loadRealCases } from '../bench/findings.js';
import { LORO_ROUNDS, THRESHOLDS } from './classModelData.js';

interface C { id: string; round: number; label: FindingClass; f: Finding; lines: string[]; s: number; e: number }
const cases: C[] = [];
for (const c of await loadRealCases(defaultRealfailDir(), { tuning: true })) {
  const lines = cleanLines(c.failLog);
  const baseline = await baselineFromStream(Readable.from([c.passLog]));
  const top = analyzeLines(lines, { baseline })[0];
  if (!top?.finding) continue;
  cases.push({ id: c.expected.id, round: c.expected.round ?? 1, label: c.expected.class as FindingClass, f: top.finding, lines, s: top.start_line, e: top.end_line });
}
let TEMP: (k: number) => number = () => 1;
function bestGuess(table: ClassModelTable, tokens: string[]): { class: FindingClass; probability: number } | undefined {
  const total = table.cases.reduce((a, b) => a + b, 0);
  const V = table.tokens.size;
  const mass = table.classes.map(() => 0);
  for (const m of table.tokens.values()) for (const [k, n] of m) mass[k]! += n;
  const known = tokens.filter((t) => table.tokens.has(t));
  const T = TEMP(known.length);
  const sc = table.classes.map((_, k) => {
    let s = 0;
    for (const t of known) s += Math.log((table.tokens.get(t)!.get(k) ?? 0) + SMOOTHING) - Math.log(mass[k]! + SMOOTHING * V);
    return Math.log((table.cases[k]! + SMOOTHING) / (total + SMOOTHING * table.classes.length)) + s / T;
  });
  const top = Math.max(...sc);
  const e = sc.map((x) => Math.exp(x - top));
  const sum = e.reduce((a, b) => a + b, 0);
  let best: { class: FindingClass; probability: number } | undefined;
  table.classes.forEach((c, k) => { if (c !== 'unknown' && (!best || e[k]! / sum > best.probability)) best = { class: c, probability: e[k]! / sum }; });
  return best;
}
type Feat = (c: C, hide: boolean) => string[];
const base: Feat = (c, hide) => classTokens(c.lines, { start_line: c.s, end_line: c.e }, hide ? { ...c.f, class: 'unknown', confidence: 'low' } : c.f);
const variants: Record<string, Feat> = {
  base,
  norule: (c, hide) => base(c, hide).filter((t) => !t.startsWith('#rule:') && !t.startsWith('#conf:')),
  notool: (c, hide) => base(c, hide).filter((t) => !t.startsWith('#rule:') && !t.startsWith('#conf:') && !t.startsWith('#tool:')),
  wider: (c, hide) => [...new Set([...base(c, hide), ...classTokens(c.lines, { start_line: Math.max(1, c.s - 20), end_line: c.s - 1 }, c.f).filter((t) => !t.startsWith('#') && !t.startsWith('m:')).map((t) => `b:${t}`)])],
  msgonly: (c, hide) => base(c, hide).filter((t) => t.startsWith('m:') || t.startsWith('#')),
};
const temps: Record<string, (k: number) => number> = { T1: () => 1, T3: () => 3, sqrt: (k) => Math.max(1, Math.sqrt(k) / 3), lin: (k) => Math.max(1, k / 20) };
for (const [tn, tf] of Object.entries(temps)) for (const [name0, feat] of Object.entries(variants).filter(([n]) => ['base', 'notool', 'wider'].includes(n))) {
  TEMP = tf; const name = `${name0}/${tn}`;
  // (a) words alone: every held case's tokens with the rules' class hidden, top-1 accuracy
  let top1 = 0, n = 0;
  // (b) policy: rules-unknown held cases: right / wrong per threshold
  const perT = THRESHOLDS.map(() => ({ r: 0, w: 0 }));
  let unkTop1 = 0, unkN = 0;
  for (const r of LORO_ROUNDS) {
    const train = cases.filter((c) => c.round !== r);
    const table = trainTable(train.map((c) => ({ tokens: feat(c, false), label: c.label })), FINDING_CLASSES, 1);
    for (const c of cases.filter((x) => x.round === r)) {
      if (c.label !== 'unknown') { n++; if (bestGuess(table, feat(c, true))?.class === c.label) top1++; }
      if (c.f.class !== 'unknown') continue;
      const g = bestGuess(table, feat(c, false));
      if (!g) continue;
      if (c.label !== 'unknown') { unkN++; if (g.class === c.label) unkTop1++; }
      THRESHOLDS.forEach((t, k) => { if (g.probability >= t) { if (g.class === c.label) perT[k]!.r++; else perT[k]!.w++; } });
    }
  }
  const gains = THRESHOLDS.map((t, k) => perT[k]!.r - 2 * perT[k]!.w);
  console.log(name.padEnd(14), `best gain ${Math.max(...gains)}`, `hidden top1 ${top1}/${n}`, `unknown top1 ${unkTop1}/${unkN}`, THRESHOLDS.map((t, k) => `${t}:${perT[k]!.r}/${perT[k]!.w}`).join(' '));
}
