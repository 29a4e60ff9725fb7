/**
 * Secret masking on every line of an upload (issue 24 point 4).
 *
 *   npm run bench -- mask [--mb 60] [--rounds 8] [--json]
 *
 * CPU time (process.cpuUsage, so other load on the machine counts less than in wall time) of
 * core/secrets.ts createLineMasker over a generated build log of `--mb` MB (bench/ingest.ts
 * generateLog) and over the real logs in bench/data and test/fixtures, repeated to ~5 MB.
 * Baseline measured in the same run: cleanLine (core/log/clean.ts), the other per-line pass of
 * an upload. Minimum and median of `--rounds`, rounds interleaved.
 */
import fs from 'node:fs';
import path from 'node:path';
import { cleanLine } from '../core/log/clean.js';
import { createLineMasker } from '../core/secrets.js';
import { generateLog } from './ingest.js';
import { flag } from './lib.js';

function realLines(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (p.endsWith('.log') || e.name === 'log') out.push(...fs.readFileSync(p, 'utf8').split('\n'));
    }
  };
  for (const dir of ['bench/data', 'test/fixtures']) if (fs.existsSync(dir)) walk(dir);
  return out;
}

function cpuMs(work: () => void): number {
  const start = process.cpuUsage();
  work();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

export async function run(args: string[]): Promise<void> {
  const mb = Number(flag(args, 'mb') ?? 60);
  const rounds = Number(flag(args, 'rounds') ?? 8);
  const generated = generateLog(mb * 1024 * 1024).split('\n');
  const real = realLines();
  const realBytes = real.reduce((n, l) => n + l.length + 1, 0);
  const repeated: string[] = [];
  for (let i = 0; i === 0 || repeated.length * (realBytes / real.length) < 5 * 1024 * 1024; i++) repeated.push(...real);
  const results: Record<string, unknown>[] = [];
  for (const [name, lines] of [[`generated ${mb} MB`, generated], [`real logs (${real.length} lines, x${Math.round(repeated.length / real.length)})`, repeated]] as const) {
    const mask: number[] = [];
    const clean: number[] = [];
    let sink = 0;
    for (let r = 0; r < rounds; r++) {
      const masker = createLineMasker();
      mask.push(cpuMs(() => { for (const l of lines) sink += masker(l).length; }));
      clean.push(cpuMs(() => { for (const l of lines) sink += cleanLine(l).length; }));
    }
    if (sink < 0) console.log(sink);
    mask.sort((a, b) => a - b);
    clean.sort((a, b) => a - b);
    const bytes = lines.reduce((n, l) => n + l.length + 1, 0);
    const median = (s: number[]) => s[Math.floor(s.length / 2)]!;
    const row = {
      log: name,
      mb: +(bytes / 1024 / 1024).toFixed(1),
      maskCpuMsMin: +mask[0]!.toFixed(0),
      maskCpuMsMedian: +median(mask).toFixed(0),
      maskMBps: +(bytes / 1024 / 1024 / (mask[0]! / 1000)).toFixed(0),
      cleanCpuMsMin: +clean[0]!.toFixed(0),
      maskOverClean: +(mask[0]! / clean[0]!).toFixed(2),
    };
    results.push(row);
    if (!args.includes('--json')) {
      console.log(
        `${row.log}: mask ${row.maskCpuMsMin} ms CPU (median ${row.maskCpuMsMedian}), ${row.maskMBps} MB/s; ` +
          `cleanLine ${row.cleanCpuMsMin} ms; mask/clean ${row.maskOverClean}`,
      );
    }
  }
  if (args.includes('--json')) console.log(JSON.stringify(results));
}
