/**
 * `npm run bench -- analyze [--mb 1024] [--real DIR] [--keep FILE] [--against CHECKOUT] [--json]`:
 * the analyzer's speed and memory, as `cichat analyze` runs it (a stream, in a process of its own).
 *
 * - Generated: a build log of `--mb` MB (bench/ingest.ts's generator, written to a temp file in
 *   pieces and deleted after) through the streaming analyzer; MB per CPU second, and RSS growth
 *   (peak VmHWM minus RSS before the log). In the same run, `wc -l` (a plain line count)
 *   and `grep -ciE 'err|fail'` on the same file, for the ratio.
 * - Real: every `*.log` under `--real` (default: the LogChunks dev set) analysed one after the
 *   other in one process, each as its own stream: MB per CPU second over their total (what a
 *   process that analyses many logs pays, each log's fixed costs included: its findings, its
 *   analyzer, the first logs' JIT warm-up); and the same logs concatenated into one file (a temp
 *   file, deleted after) as one stream: a large real log, what `cichat analyze` of one pays.
 * - `--same CHECKOUT`: instead of timing, whether this analyzer and CHECKOUT's give the same
 *   excerpts (50 per log, with findings) and candidate features on every log of `--real`,
 *   test/fixtures and bench/data/baseline-pairs, and the same lines, excerpts and findings when
 *   the bytes are streamed as `cichat analyze` streams them (bench/analyzeSame.ts run in each);
 *   the files that differ are listed. The logs of the held-out round being built are left out.
 * - `--against CHECKOUT`: another checkout's bench/analyzeChild.ts (an older analyzer, e.g.
 *   `git worktree add /tmp/old <commit>` with node_modules linked) on the same files, in the
 *   same run, for the ratio.
 *
 * The child (this checkout's and CHECKOUT's) runs bundled as the package bundles the analyzer
 * (`childBundle`), not through tsx.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateLog } from './ingest.js';
import { defaultData } from './ranker.js';
import { HELDOUT_ROUND as FINDINGS_HELDOUT_ROUND } from './findings.js';
import { HELDOUT_ROUND as JENKINS_HELDOUT_ROUND } from './jenkins.js';
import { flag } from './lib.js';

const MB = 1024 * 1024;

interface ChildResult {
  cpuSeconds: number;
  bytes: number;
  lines: number;
  rssStart: number;
  rssPeak: number;
  first: unknown;
}

/**
 * `cwd`'s bench/analyzeChild.ts bundled as the package bundles the analyzer (scripts/bundle-cli.mjs:
 * esbuild, one CommonJS file for Node 20): the code `cichat analyze` of the compiled package runs.
 * Through tsx, each file its own module as tsx compiles it, the real stream took 1.36x the CPU
 * (2026-11-29, docs/notes/analyzer.md "Twelfth session"): a figure of tsx, not of the analyzer.
 */
async function childBundle(cwd: string, dir: string): Promise<string> {
  const { build } = await import('esbuild');
  const out = path.join(dir, `child-${bundles.size}.cjs`);
  const r = await build({
    entryPoints: [path.join(cwd, 'bench', 'analyzeChild.ts')],
    outfile: out,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
    absWorkingDir: cwd,
  });
  if (r.errors.length > 0) throw new Error(`bench/analyzeChild.ts of ${cwd} did not bundle`);
  return out;
}

const bundles = new Map<string, Promise<string>>();

async function analyzeInChild(files: string[], dir: string, cwd = process.cwd()): Promise<ChildResult> {
  let bundle = bundles.get(cwd);
  if (bundle === undefined) bundles.set(cwd, (bundle = childBundle(cwd, dir)));
  const child = spawn(process.execPath, [await bundle, ...files], { cwd, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`the analyzer child exited with ${code}`);
  return JSON.parse(out.trim().split('\n').pop() ?? '{}') as ChildResult;
}

function timed(cmd: string, args: string[]): number {
  const t0 = process.hrtime.bigint();
  // Not `> /dev/null`: GNU grep stops at its first match when its output is /dev/null.
  const out = path.join(os.tmpdir(), `cichat-bench-timed-${process.pid}`);
  const r = spawnSync('bash', ['-c', `TIMEFORMAT='%3U %3S'; time ${cmd} ${args.map((a) => `'${a}'`).join(' ')} > '${out}'`], { encoding: 'utf8' });
  fs.rmSync(out, { force: true });
  const m = /([\d.]+) ([\d.]+)\s*$/.exec(r.stderr);
  const cpu = m ? Number(m[1]) + Number(m[2]) : NaN;
  return Number.isFinite(cpu) && cpu > 0 ? cpu : Number(process.hrtime.bigint() - t0) / 1e9;
}

function logsUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.log')) out.push(p);
    }
  };
  walk(dir);
  return out.sort();
}

/** One JSON line per file from bench/analyzeSame.ts run in `cwd`. */
function sameLines(cwd: string, files: string[]): Map<string, string> {
  const out = new Map<string, string>();
  const script = path.resolve('bench/analyzeSame.ts');
  for (let i = 0; i < files.length; i += 100) {
    const r = spawnSync(process.execPath, ['--import', 'tsx', script, ...files.slice(i, i + 100)], { cwd, encoding: 'utf8', maxBuffer: 1 << 30 });
    if (r.status !== 0) throw new Error(`analyzeSame in ${cwd} exited with ${r.status}: ${r.stderr.slice(0, 500)}`);
    for (const line of r.stdout.split('\n')) {
      if (line === '') continue;
      const file = (JSON.parse(line) as { file: string }).file;
      out.set(file, line);
    }
  }
  return out;
}

/**
 * The logs of the held-out round being built (HELDOUT_ROUND and later): never analysed here, not
 * even to compare two analyzers (round 3's Jenkins consoles by index.jsonl and in round3/, the
 * real-failure cases by their expected.json).
 */
function heldOut(): (file: string) => boolean {
  const skip = new Set<string>();
  const jenkins = path.resolve('test/fixtures/jenkins-console');
  const index = path.join(jenkins, 'index.jsonl');
  if (fs.existsSync(index)) {
    for (const line of fs.readFileSync(index, 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      const e = JSON.parse(line) as { file: string; round?: number };
      if ((e.round ?? 1) >= JENKINS_HELDOUT_ROUND) skip.add(path.join(jenkins, e.file));
    }
  }
  const realfail = path.resolve('test/fixtures/realfail');
  const cases = fs.existsSync(realfail) ? fs.readdirSync(realfail) : [];
  const heldCases = cases.filter((name) => {
    const file = path.join(realfail, name, 'expected.json');
    if (!fs.existsSync(file)) return false;
    const round = (JSON.parse(fs.readFileSync(file, 'utf8')) as { round?: unknown }).round;
    return typeof round === 'number' && round >= FINDINGS_HELDOUT_ROUND;
  });
  const dirs = [path.join(jenkins, 'round3'), ...heldCases.map((name) => path.join(realfail, name))].map((d) => d + path.sep);
  return (file) => skip.has(file) || dirs.some((d) => file.startsWith(d));
}

async function same(other: string, real: string): Promise<void> {
  const isHeld = heldOut();
  const fixtures = [...logsUnder(path.resolve('test/fixtures')), ...logsUnder(path.resolve('bench/data/baseline-pairs'))];
  const files = [...(fs.existsSync(real) ? logsUnder(real) : []), ...fixtures.filter((f) => !isHeld(f))];
  const mine = sameLines(process.cwd(), files);
  const theirs = sameLines(other, files);
  const differing = files.filter((f) => mine.get(f) !== theirs.get(f));
  console.log(
    `same excerpts, findings and features (lines cut from the text; and streamed from the bytes as cichat analyze does) as ${other}: ${files.length - differing.length} of ${files.length} logs (held-out rounds left out: ${fixtures.filter(isHeld).length})${differing.length > 0 ? `; differing: ${differing.join(', ')}` : ''}`,
  );
}

export async function run(args: string[]): Promise<void> {
  const sameAs = flag(args, 'same');
  if (sameAs !== undefined) return same(path.resolve(sameAs), flag(args, 'real') ?? defaultData());
  const json = args.includes('--json');
  const mb = Number(flag(args, 'mb') ?? 1024);
  const real = flag(args, 'real') ?? defaultData();
  const againstFlag = flag(args, 'against');
  const against = againstFlag === undefined ? undefined : path.resolve(againstFlag);
  const results: Record<string, unknown> = {};
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-bench-analyze-'));
  const file = flag(args, 'keep') ?? path.join(dir, 'generated.log');
  try {
    if (mb > 0) {
      if (!fs.existsSync(file) || fs.statSync(file).size < mb * MB * 0.99) {
        const fd = fs.openSync(file, 'w');
        for (let written = 0; written < mb * MB; written += 50 * MB) fs.writeSync(fd, generateLog(Math.min(50 * MB, mb * MB - written)));
        fs.closeSync(fd);
      }
      const size = fs.statSync(file).size;
      const grepCount = timed('wc', ['-l', file]);
      const grepWords = timed('grep', ['-ciE', 'err|fail', file]);
      const r = await analyzeInChild([file], dir);
      const old = against !== undefined ? await analyzeInChild([file], dir, against) : undefined;
      results.generated = {
        mb: size / MB,
        lines: r.lines,
        cpuSeconds: r.cpuSeconds,
        mbPerCpuSecond: size / MB / r.cpuSeconds,
        rssGrowthMb: (r.rssPeak - r.rssStart) / MB,
        grepCountCpuSeconds: grepCount,
        grepWordsCpuSeconds: grepWords,
        ...(old ? { againstCpuSeconds: old.cpuSeconds, againstRssGrowthMb: (old.rssPeak - old.rssStart) / MB } : {}),
        first: r.first,
      };
    }
    if (fs.existsSync(real)) {
      const files = logsUnder(real);
      const r = await analyzeInChild(files, dir);
      const old = against !== undefined ? await analyzeInChild(files, dir, against) : undefined;
      const wc = timed('wc', ['-l', ...files]);
      // The same logs as one large real log.
      const joined = path.join(dir, 'real-concatenated.log');
      const fd = fs.openSync(joined, 'w');
      for (const f of files) fs.writeSync(fd, fs.readFileSync(f));
      fs.closeSync(fd);
      const one = await analyzeInChild([joined], dir);
      const oldOne = against !== undefined ? await analyzeInChild([joined], dir, against) : undefined;
      results.realConcatenated = {
        mb: one.bytes / MB,
        lines: one.lines,
        cpuSeconds: one.cpuSeconds,
        mbPerCpuSecond: one.bytes / MB / one.cpuSeconds,
        rssGrowthMb: (one.rssPeak - one.rssStart) / MB,
        ...(oldOne ? { againstCpuSeconds: oldOne.cpuSeconds, againstRssGrowthMb: (oldOne.rssPeak - oldOne.rssStart) / MB } : {}),
      };
      results.real = {
        dir: real,
        files: files.length,
        mb: r.bytes / MB,
        lines: r.lines,
        cpuSeconds: r.cpuSeconds,
        mbPerCpuSecond: r.bytes / MB / r.cpuSeconds,
        rssGrowthMb: (r.rssPeak - r.rssStart) / MB,
        wcCpuSeconds: wc,
        ...(old ? { againstCpuSeconds: old.cpuSeconds, againstRssGrowthMb: (old.rssPeak - old.rssStart) / MB } : {}),
      };
    }
  } finally {
    // The temp dir goes in any case (a --keep file is the caller's, elsewhere).
    fs.rmSync(dir, { recursive: true, force: true });
  }
  if (json) {
    console.log(JSON.stringify(results, null, 2));
    return;
  }
  const g = results.generated as
    | { mb: number; lines: number; cpuSeconds: number; mbPerCpuSecond: number; rssGrowthMb: number; grepCountCpuSeconds: number; grepWordsCpuSeconds: number; againstCpuSeconds?: number; againstRssGrowthMb?: number }
    | undefined;
  const vs = (cpu: number, old?: number, oldRss?: number): string =>
    old === undefined ? '' : `; ${against}: ${old.toFixed(2)} CPU s, ${(cpu > 0 ? old / cpu : NaN).toFixed(2)}x as long${oldRss !== undefined ? `, RSS +${oldRss.toFixed(0)} MB` : ''}`;
  if (g) {
    console.log(
      `generated ${g.mb.toFixed(0)} MB (${g.lines} lines): ${g.cpuSeconds.toFixed(2)} CPU s, ${g.mbPerCpuSecond.toFixed(1)} MB per CPU second, RSS +${g.rssGrowthMb.toFixed(0)} MB; same file: wc -l ${g.grepCountCpuSeconds.toFixed(3)} CPU s (${(g.cpuSeconds / g.grepCountCpuSeconds).toFixed(0)}x), grep -ciE 'err|fail' ${g.grepWordsCpuSeconds.toFixed(3)} CPU s (${(g.cpuSeconds / g.grepWordsCpuSeconds).toFixed(0)}x)${vs(g.cpuSeconds, g.againstCpuSeconds, g.againstRssGrowthMb)}`,
    );
  }
  const r = results.real as
    | { dir: string; files: number; mb: number; lines: number; cpuSeconds: number; mbPerCpuSecond: number; rssGrowthMb: number; wcCpuSeconds: number; againstCpuSeconds?: number; againstRssGrowthMb?: number }
    | undefined;
  if (r) {
    console.log(
      `real logs (${r.files} files, ${r.mb.toFixed(1)} MB, ${r.lines} lines, ${r.dir}), each its own stream: ${r.cpuSeconds.toFixed(2)} CPU s, ${r.mbPerCpuSecond.toFixed(1)} MB per CPU second, RSS +${r.rssGrowthMb.toFixed(0)} MB; wc -l ${r.wcCpuSeconds.toFixed(3)} CPU s${vs(r.cpuSeconds, r.againstCpuSeconds, r.againstRssGrowthMb)}`,
    );
  }
  const c = results.realConcatenated as { mb: number; lines: number; cpuSeconds: number; mbPerCpuSecond: number; rssGrowthMb: number; againstCpuSeconds?: number; againstRssGrowthMb?: number } | undefined;
  if (c) {
    console.log(
      `the same real logs concatenated, one stream (${c.mb.toFixed(1)} MB, ${c.lines} lines): ${c.cpuSeconds.toFixed(2)} CPU s, ${c.mbPerCpuSecond.toFixed(1)} MB per CPU second, RSS +${c.rssGrowthMb.toFixed(0)} MB${vs(c.cpuSeconds, c.againstCpuSeconds, c.againstRssGrowthMb)}`,
    );
  }
}
