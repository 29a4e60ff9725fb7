/**
 * Benchmark of the log analyzer on labelled build logs (the LogChunks format:
 * `index.jsonl` + `logs/`, see ../shared/data/logchunks-dev/README.md).
 *
 *   npm run bench -- logchunks [--data DIR] [--json] [--split] [--show N]
 *
 * For each example the analyzer's excerpts are compared with the labelled line range:
 * - hit@1 / hit@3: an excerpt among the top 1 / top 3 overlaps the labelled lines;
 * - precision, recall, F1 of the top excerpt's lines against the labelled lines, computed per
 *   example and then averaged over examples (macro average, as the published study reports);
 *   an example with no excerpt or no overlap scores 0. The pooled (micro) F1 over all lines
 *   is printed too.
 * Beside them, in the same run, a tail-of-log baseline: the last N lines, N the median length
 * of the labelled chunks. `--split` also reports the two halves of the repositories
 * (alternate repositories in name order), to see whether a rule helps beyond the logs it was
 * written from.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { analyze } from '../core/log/analyze.js';
import { defaultData } from './ranker.js';
import type { LogExcerpt } from '../protocol/types.js';

interface Example {
  id: string;
  log: string;
  start_line: number;
  end_line: number;
  category: string;
  language: string;
  repo: string;
}

interface Outcome {
  example: Example;
  hit1: boolean;
  hit3: boolean;
  precision: number;
  recall: number;
  f1: number;
  overlap: number;
  predicted: number;
  tail: { hit: boolean; precision: number; recall: number; f1: number; overlap: number; predicted: number };
  top: LogExcerpt | undefined;
}

interface Figures {
  n: number;
  hit1: number;
  hit3: number;
  precision: number;
  recall: number;
  f1: number;
  microF1: number;
  tail: { hit1: number; precision: number; recall: number; f1: number; microF1: number };
}

function overlapOf(a0: number, a1: number, b0: number, b1: number): number {
  return Math.max(0, Math.min(a1, b1) - Math.max(a0, b0) + 1);
}

function prf(overlap: number, predicted: number, labelled: number): { precision: number; recall: number; f1: number } {
  if (overlap === 0 || predicted === 0) return { precision: 0, recall: 0, f1: 0 };
  const precision = overlap / predicted;
  const recall = overlap / labelled;
  return { precision, recall, f1: (2 * precision * recall) / (precision + recall) };
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] ?? 0) : Math.round(((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2);
}

function summarise(outcomes: Outcome[]): Figures {
  const n = outcomes.length;
  const mean = (f: (o: Outcome) => number): number => (n === 0 ? 0 : outcomes.reduce((s, o) => s + f(o), 0) / n);
  const micro = (ov: number, pred: number, lab: number): number => (ov === 0 ? 0 : (2 * ov) / (pred + lab));
  const labelled = outcomes.reduce((s, o) => s + o.example.end_line - o.example.start_line + 1, 0);
  return {
    n,
    hit1: mean((o) => (o.hit1 ? 1 : 0)),
    hit3: mean((o) => (o.hit3 ? 1 : 0)),
    precision: mean((o) => o.precision),
    recall: mean((o) => o.recall),
    f1: mean((o) => o.f1),
    microF1: micro(
      outcomes.reduce((s, o) => s + o.overlap, 0),
      outcomes.reduce((s, o) => s + o.predicted, 0),
      labelled,
    ),
    tail: {
      hit1: mean((o) => (o.tail.hit ? 1 : 0)),
      precision: mean((o) => o.tail.precision),
      recall: mean((o) => o.tail.recall),
      f1: mean((o) => o.tail.f1),
      microF1: micro(
        outcomes.reduce((s, o) => s + o.tail.overlap, 0),
        outcomes.reduce((s, o) => s + o.tail.predicted, 0),
        labelled,
      ),
    },
  };
}

function groupBy(outcomes: Outcome[], key: (o: Outcome) => string): Map<string, Outcome[]> {
  const groups = new Map<string, Outcome[]>();
  for (const o of outcomes) {
    const k = key(o);
    const list = groups.get(k) ?? [];
    list.push(o);
    groups.set(k, list);
  }
  return new Map([...groups.entries()].sort((a, b) => a[0].localeCompare(b[0])));
}

function fmt(x: number): string {
  return x.toFixed(2);
}

function row(label: string, f: Figures): string {
  return [
    label.padEnd(22),
    String(f.n).padStart(4),
    fmt(f.hit1).padStart(6),
    fmt(f.hit3).padStart(6),
    fmt(f.precision).padStart(6),
    fmt(f.recall).padStart(6),
    fmt(f.f1).padStart(6),
    fmt(f.microF1).padStart(7),
    ' |',
    fmt(f.tail.hit1).padStart(6),
    fmt(f.tail.precision).padStart(6),
    fmt(f.tail.recall).padStart(6),
    fmt(f.tail.f1).padStart(6),
  ].join(' ');
}

function parseArgs(args: string[]): { data: string; json: boolean; split: boolean; show: number } {
  let data = defaultData();
  let json = false;
  let split = false;
  let show = 0;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--data') {
      const v = args[++i];
      if (v === undefined) throw new Error('--data needs a directory');
      data = path.resolve(v);
    } else if (a === '--json') json = true;
    else if (a === '--split') split = true;
    else if (a === '--show') show = Number(args[++i] ?? '0');
  }
  return { data, json, split, show };
}

/** Runs the benchmark; see the file comment for the arguments and the figures. */
export async function run(args: string[]): Promise<void> {
  const { data, json, split, show } = parseArgs(args);
  const index = await readFile(path.join(data, 'index.jsonl'), 'utf8');
  const examples = index
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Example);
  const tailN = median(examples.map((e) => e.end_line - e.start_line + 1));
  const texts = await Promise.all(examples.map((e) => readFile(path.join(data, e.log), 'utf8')));

  let bytes = 0;
  for (const t of texts) bytes += Buffer.byteLength(t);
  // CPU time of this process, beside wall time: on a shared machine the wall clock also
  // counts the time other processes held the core.
  const started = process.hrtime.bigint();
  const cpuBefore = process.cpuUsage();
  const results = texts.map((t) => analyze(t, { maxExcerpts: 3 }));
  const cpu = process.cpuUsage(cpuBefore);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;

  const outcomes: Outcome[] = examples.map((example, k) => {
    const excerpts = results[k] ?? [];
    const text = texts[k] ?? '';
    const labelled = example.end_line - example.start_line + 1;
    const top = excerpts[0];
    const overlaps = excerpts.map((e) => overlapOf(e.start_line, e.end_line, example.start_line, example.end_line));
    const predicted = top !== undefined ? top.end_line - top.start_line + 1 : 0;
    const overlap = overlaps[0] ?? 0;
    let lineCount = text.split('\n').length;
    if (text.endsWith('\n')) lineCount--;
    const tailStart = Math.max(1, lineCount - tailN + 1);
    const tailOverlap = overlapOf(tailStart, lineCount, example.start_line, example.end_line);
    const tailPredicted = lineCount - tailStart + 1;
    return {
      example,
      hit1: overlap > 0,
      hit3: overlaps.slice(0, 3).some((o) => o > 0),
      ...prf(overlap, predicted, labelled),
      overlap,
      predicted,
      tail: { hit: tailOverlap > 0, ...prf(tailOverlap, tailPredicted, labelled), overlap: tailOverlap, predicted: tailPredicted },
      top,
    };
  });

  const repos = [...new Set(examples.map((e) => e.repo))].sort();
  const half = (o: Outcome): string => (repos.indexOf(o.example.repo) % 2 === 0 ? 'half A' : 'half B');
  const overall = summarise(outcomes);
  const byCategory = groupBy(outcomes, (o) => `category ${o.example.category}`);
  const byLanguage = groupBy(outcomes, (o) => o.example.language);
  const halves = groupBy(outcomes, half);
  const speed = {
    logs: examples.length,
    megabytes: bytes / 1e6,
    seconds,
    cpuSeconds,
    logsPerSecond: examples.length / seconds,
    mbPerSecond: bytes / 1e6 / seconds,
    mbPerCpuSecond: bytes / 1e6 / cpuSeconds,
  };

  if (json) {
    const figures = (m: Map<string, Outcome[]>): Record<string, Figures> =>
      Object.fromEntries([...m.entries()].map(([k, v]) => [k, summarise(v)]));
    console.log(
      JSON.stringify(
        {
          data,
          averaging: 'per-example mean (macro) of precision, recall and F1 of the top excerpt; microF1 pools lines over all examples',
          tailLines: tailN,
          overall,
          byCategory: figures(byCategory),
          byLanguage: figures(byLanguage),
          ...(split ? { halves: figures(halves) } : {}),
          speed,
        },
        null,
        2,
      ),
    );
    return;
  }

  console.log(`logchunks: ${examples.length} labelled logs from ${data}`);
  console.log(`P/R/F1 of the top excerpt, per-example mean (macro); microF1 pools all lines. Tail baseline: last ${tailN} lines.`);
  console.log(
    ['group'.padEnd(22), '   n', '  hit1', '  hit3', '     P', '     R', '    F1', 'microF1', ' |', 'tail@1', '     P', '     R', '    F1'].join(' '),
  );
  console.log(row('overall', overall));
  if (split) for (const [k, v] of halves) console.log(row(k, summarise(v)));
  console.log('');
  for (const [k, v] of byCategory) console.log(row(k, summarise(v)));
  console.log('');
  for (const [k, v] of byLanguage) console.log(row(k, summarise(v)));
  console.log('');
  console.log(
    `speed: ${speed.logs} logs, ${speed.megabytes.toFixed(1)} MB in ${speed.seconds.toFixed(2)} s: ` +
      `${speed.logsPerSecond.toFixed(0)} logs/s, ${speed.mbPerSecond.toFixed(1)} MB/s wall; ` +
      `${speed.cpuSeconds.toFixed(2)} s of CPU: ${speed.mbPerCpuSecond.toFixed(1)} MB/s per CPU second (one thread, cleaning included)`,
  );
  if (show > 0) {
    const misses = outcomes.filter((o) => o.f1 < 0.5).slice(0, show);
    for (const o of misses) {
      const t = o.top;
      console.log(
        `miss ${o.example.id} [${half(o)}] label ${o.example.start_line}-${o.example.end_line} top ${t ? `${t.start_line}-${t.end_line} ${t.reason}` : 'none'} f1 ${fmt(o.f1)} hit3 ${o.hit3}`,
      );
    }
  }
}
