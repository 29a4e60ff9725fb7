/**
 * The analyzer against the last green build (issue 16).
 *
 *   npm run bench -- baseline [--data DIR] [--json] [--show]     quality on recorded pass/fail pairs
 *   npm run bench -- baseline --speed [--mb N]                    speed and memory on an N MB pair
 *
 * Quality: each pair (bench/data/baseline-pairs/pairs/<case>/{pass.log, fail.log, label.json},
 * recorded by record.sh from real builds on this machine) is analysed without and with the
 * passing log as baseline. hit@1 / hit@3: an excerpt among the top 1 / 3 holds a labelled cause
 * line; line precision, recall and F1 of the top excerpt against the labelled lines, per pair,
 * then averaged (macro). The ways of using the baseline (variants below) are chosen by
 * leave-one-project-out: for each project, the variant that does best on the *other* projects
 * is the one scored on it, so the figure printed as "LOPO" never saw its own project while the
 * choice was made.
 *
 * Speed: a synthetic pair of N MB in all (half passing log, half failing log, noise lines with
 * timestamps, durations and ids that differ between the two, a few new errors in the failing
 * half), the passing half streamed from a file into the fingerprint set; prints MB/s of the
 * whole (baseline + analysis), the baseline's share, the table's size and the heap growth.
 */
import { createReadStream } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { analyze } from '../core/log/analyze.js';
import { cleanLines } from '../core/log/clean.js';
import { baselineFromStream, baselineOf, hasNewLine, type Baseline } from '../core/log/baseline.js';
import type { LogExcerpt } from '../protocol/types.js';
import { flag } from './lib.js';

interface Pair {
  name: string;
  project: string;
  kind: string;
  pass: string;
  fail: string;
  cause: Set<number>;
}

interface Score {
  hit1: boolean;
  hit3: boolean;
  precision: number;
  recall: number;
  f1: number;
}

type Variant = { name: string; describe: string; rank: (fail: string, baseline: Baseline) => LogExcerpt[] };

/**
 * The ways of using the baseline that were compared. `split` is what analyze(fail, {baseline})
 * does; the others are computed from the zero-shot excerpts here.
 */
const VARIANTS: Variant[] = [
  {
    name: 'none',
    describe: 'zero-shot ranking (baseline ignored)',
    rank: (fail) => analyze(fail, { maxExcerpts: 50 }),
  },
  {
    name: 'whole',
    describe: 'excerpts with no new line rank below the new ones (no split)',
    rank: (fail, baseline) => {
      const lines = cleanLines(fail);
      const ex = analyze(fail, { maxExcerpts: 50 });
      const isNew = (e: LogExcerpt): boolean => hasNewLine(lines, e.start_line - 1, e.end_line - 1, baseline);
      return [...ex.filter(isNew), ...ex.filter((e) => !isNew(e))];
    },
  },
  {
    name: 'split',
    describe: 'as whole, and an excerpt whose old head swallowed new lines is split (analyze default)',
    rank: (fail, baseline) => analyze(fail, { maxExcerpts: 50, baseline }),
  },
];

function scoreOf(ex: LogExcerpt[], cause: Set<number>): Score {
  const holds = (e: LogExcerpt | undefined): boolean => {
    if (e === undefined) return false;
    for (let n = e.start_line; n <= e.end_line; n++) if (cause.has(n)) return true;
    return false;
  };
  const top = ex[0];
  let overlap = 0;
  if (top !== undefined) for (let n = top.start_line; n <= top.end_line; n++) if (cause.has(n)) overlap++;
  const predicted = top === undefined ? 0 : top.end_line - top.start_line + 1;
  const precision = predicted === 0 ? 0 : overlap / predicted;
  const recall = cause.size === 0 ? 0 : overlap / cause.size;
  const f1 = overlap === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { hit1: holds(top), hit3: ex.slice(0, 3).some(holds), precision, recall, f1 };
}

function mean(scores: Score[]): { n: number; hit1: number; hit3: number; precision: number; recall: number; f1: number } {
  const n = scores.length;
  const avg = (f: (s: Score) => number): number => (n === 0 ? 0 : scores.reduce((a, s) => a + f(s), 0) / n);
  return {
    n,
    hit1: avg((s) => (s.hit1 ? 1 : 0)),
    hit3: avg((s) => (s.hit3 ? 1 : 0)),
    precision: avg((s) => s.precision),
    recall: avg((s) => s.recall),
    f1: avg((s) => s.f1),
  };
}

async function loadPairs(dir: string): Promise<Pair[]> {
  const names = (await readdir(dir)).sort();
  const pairs: Pair[] = [];
  for (const name of names) {
    const at = path.join(dir, name);
    const label = JSON.parse(await readFile(path.join(at, 'label.json'), 'utf8')) as { project: string; kind: string; cause_lines: number[] };
    if (label.cause_lines.length === 0) throw new Error(`${name}: no labelled cause line`);
    pairs.push({
      name,
      project: label.project,
      kind: label.kind,
      pass: await readFile(path.join(at, 'pass.log'), 'utf8'),
      fail: await readFile(path.join(at, 'fail.log'), 'utf8'),
      cause: new Set(label.cause_lines),
    });
  }
  return pairs;
}

/** Picks the variant best on `train` (hit@1, then F1, then the simpler: earlier in VARIANTS). */
function choose(results: Map<string, Map<string, Score>>, train: Pair[]): Variant {
  let best = VARIANTS[0] as Variant;
  let bestKey = [-1, -1];
  for (const v of VARIANTS) {
    const m = mean(train.map((p) => results.get(v.name)?.get(p.name) as Score));
    const key = [m.hit1, m.f1];
    if ((key[0] ?? 0) > (bestKey[0] ?? 0) + 1e-9 || (Math.abs((key[0] ?? 0) - (bestKey[0] ?? 0)) <= 1e-9 && (key[1] ?? 0) > (bestKey[1] ?? 0) + 1e-9)) {
      best = v;
      bestKey = key;
    }
  }
  return best;
}

async function quality(args: string[]): Promise<void> {
  const dir = flag(args, '--data') ?? path.join(import.meta.dirname, 'data', 'baseline-pairs', 'pairs');
  const json = args.includes('--json');
  const show = args.includes('--show');
  const pairs = await loadPairs(dir);
  const results = new Map<string, Map<string, Score>>();
  const tops = new Map<string, Map<string, LogExcerpt | undefined>>();
  for (const v of VARIANTS) {
    const per = new Map<string, Score>();
    const top = new Map<string, LogExcerpt | undefined>();
    for (const p of pairs) {
      const ex = v.rank(p.fail, baselineOf(p.pass));
      per.set(p.name, scoreOf(ex, p.cause));
      top.set(p.name, ex[0]);
    }
    results.set(v.name, per);
    tops.set(v.name, top);
  }
  const projects = [...new Set(pairs.map((p) => p.project))].sort();
  const lopo: Score[] = [];
  const chosen: Record<string, string> = {};
  for (const project of projects) {
    const train = pairs.filter((p) => p.project !== project);
    const v = choose(results, train);
    chosen[project] = v.name;
    for (const p of pairs.filter((q) => q.project === project)) lopo.push(results.get(v.name)?.get(p.name) as Score);
  }
  const table = {
    pairs: pairs.length,
    projects: projects.length,
    variants: Object.fromEntries(VARIANTS.map((v) => [v.name, mean(pairs.map((p) => results.get(v.name)?.get(p.name) as Score))])),
    lopo: mean(lopo),
    chosen,
    perPair: pairs.map((p) => ({
      name: p.name,
      kind: p.kind,
      ...Object.fromEntries(VARIANTS.map((v) => [v.name, results.get(v.name)?.get(p.name)?.hit1 ? 1 : 0])),
    })),
  };
  if (json) {
    console.log(JSON.stringify(table, null, 2));
    return;
  }
  const f = (x: number): string => x.toFixed(2);
  console.log(`baseline pairs: ${pairs.length} real pass/fail pairs from ${projects.length} projects (${dir})`);
  console.log('variant   n   hit@1  hit@3  P     R     F1    ');
  for (const v of VARIANTS) {
    const m = table.variants[v.name] as ReturnType<typeof mean>;
    console.log(`${v.name.padEnd(8)} ${String(m.n).padStart(3)}   ${f(m.hit1)}   ${f(m.hit3)}   ${f(m.precision)}  ${f(m.recall)}  ${f(m.f1)}   ${v.describe}`);
  }
  const m = table.lopo;
  console.log(`LOPO     ${String(m.n).padStart(3)}   ${f(m.hit1)}   ${f(m.hit3)}   ${f(m.precision)}  ${f(m.recall)}  ${f(m.f1)}   variant chosen without the project: ${JSON.stringify(chosen)}`);
  console.log('\nper pair (hit@1): ' + VARIANTS.map((v) => v.name).join(' / '));
  for (const row of table.perPair) {
    const marks = VARIANTS.map((v) => String((row as Record<string, unknown>)[v.name])).join(' / ');
    const extra = show
      ? '  ' +
        VARIANTS.map((v) => {
          const t = tops.get(v.name)?.get(row.name);
          return t === undefined ? '-' : `${t.start_line}-${t.end_line} ${t.reason}`;
        }).join(' | ')
      : '';
    console.log(`  ${row.name.padEnd(20)} ${row.kind.padEnd(20)} ${marks}${extra}`);
  }
}

/** Deterministic noise lines that differ between two runs only in what the normaliser sets aside. */
function noiseLine(i: number, run: number): string {
  const t = new Date(Date.UTC(2026, 10, 23, 10, 0, 0) + i * 7 + run * 86_400_000).toISOString().replace('Z', '0000Z');
  const hex = ((i * 2654435761 + run * 97) >>> 0).toString(16).padStart(8, '0');
  switch (i % 6) {
    case 0:
      return `${t} [INFO] Downloading https://repo.example.org/artifact-${i % 500}.jar (${(i % 97) + run} kB at ${(i % 13) + 1}.${run} MB/s)`;
    case 1:
      return `${t} PASS src/module${i % 300}.test.js (${(i % 9) + run}.${i % 10} s)`;
    case 2:
      return `${t} Step ${i % 40}/40 : RUN make -C /tmp/tmp.${hex} target-${i % 200}`;
    case 3:
      return `${t}  ---> ${hex}${hex.slice(0, 4)}`;
    case 4:
      return `${t} npm WARN deprecated request@2.88.2: request has been deprecated, see https://github.com/request/request/issues/3142`;
    default: {
      // A distinct line each time (a name spelled in letters): the fingerprint table grows.
      let name = '';
      for (let k = i; k > 0; k = Math.floor(k / 26)) name += String.fromCharCode(97 + (k % 26));
      return `${t} [${(i % 100) + 1}/100] Compiling crate_${name} v0.${i % 30}.${run} (${i % 1000} ms)`;
    }
  }
}

async function speed(args: string[]): Promise<void> {
  const mb = Number(flag(args, '--mb') ?? '100');
  const half = (mb * 1024 * 1024) / 2;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'cichat-baseline-bench-'));
  try {
    const make = (run: number): string => {
      const out: string[] = [];
      let size = 0;
      for (let i = 0; size < half; i++) {
        let line = noiseLine(i, run);
        if (run === 1 && i % 200_000 === 199_999) line = `src/parser.c:${i % 977}:7: error: 'token' undeclared (first use in this function)`;
        out.push(line);
        size += line.length + 1;
      }
      if (run === 1) out.push('make: *** [Makefile:12: all] Error 1', '##[error]Process completed with exit code 2.');
      return out.join('\n') + '\n';
    };
    const passFile = path.join(dir, 'pass.log');
    await writeFile(passFile, make(0));
    const fail = make(1);
    const failBytes = Buffer.byteLength(fail);
    global.gc?.();
    const heap0 = process.memoryUsage().heapUsed;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const baseline = await baselineFromStream(createReadStream(passFile, { encoding: 'utf8', highWaterMark: 1 << 20 }));
    const t1 = performance.now();
    const cpu1 = process.cpuUsage(cpu0);
    const heapAfterBaseline = process.memoryUsage().heapUsed;
    const excerpts = analyze(fail, { baseline });
    const t2 = performance.now();
    const cpu = process.cpuUsage(cpu0);
    const passMb = half / 1048576;
    const failMb = failBytes / 1048576;
    const total = passMb + failMb;
    const figures = {
      pairMB: Math.round(total),
      baselineLines: baseline.lines,
      distinctFingerprints: baseline.size,
      tableMiB: +(baseline.bytes / 1048576).toFixed(1),
      overflow: baseline.overflow,
      baselineSeconds: +((t1 - t0) / 1000).toFixed(2),
      baselineMBps: +(passMb / ((t1 - t0) / 1000)).toFixed(1),
      baselineCpuSeconds: +((cpu1.user + cpu1.system) / 1e6).toFixed(2),
      baselineMBperCpuSecond: +(passMb / ((cpu1.user + cpu1.system) / 1e6)).toFixed(1),
      analyzeSeconds: +((t2 - t1) / 1000).toFixed(2),
      wholeMBps: +(total / ((t2 - t0) / 1000)).toFixed(1),
      cpuSeconds: +((cpu.user + cpu.system) / 1e6).toFixed(2),
      wholeMBperCpuSecond: +(total / ((cpu.user + cpu.system) / 1e6)).toFixed(1),
      heapGrowthWhileBuildingBaselineMiB: +((heapAfterBaseline - heap0) / 1048576).toFixed(1),
      rssMiB: Math.round(process.memoryUsage().rss / 1048576),
      firstExcerpt: excerpts[0],
    };
    if (args.includes('--json')) console.log(JSON.stringify(figures, null, 2));
    else {
      console.log(`baseline speed: ${figures.pairMB} MB pair (${passMb.toFixed(0)} MB passing log streamed from a file, ${failMb.toFixed(0)} MB failing log in memory)`);
      for (const [k, v] of Object.entries(figures)) console.log(`  ${k}: ${typeof v === 'object' ? JSON.stringify(v) : v}`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function run(args: string[]): Promise<void> {
  if (args.includes('--speed')) await speed(args);
  else await quality(args);
}
