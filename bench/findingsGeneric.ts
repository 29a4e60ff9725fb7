/**
 * The finding on general evidence alone (issue 25, round 6 preparation; docs/notes/analyzer.md):
 * class and location right with the tool-family rules and refinements off (core/finding/
 * ablation.ts), an estimate of how the analyzer does on a tool it has never seen.
 *
 *   npm run bench -- findingsGeneric [--data DIR] [--family-rules] [--round5] [--rows] [--json]
 *
 * Always as `--tuning`: cases of the held-out round (HELDOUT_ROUND and later) are never read.
 * Figures for rounds 1-4 with the tuning cases (tune3, tune4), and, with `--round5` only, for
 * round 5 (the validation round of the round-6 preparation: measured at its start and its end,
 * never while developing) as aggregates only, and for the rounds opened since (HELDOUT_ROUND
 * of bench/findings.ts moved past them) as `round6+`. `--rows` prints the rows of rounds 1-4
 * and the tuning cases that are wrong, never a round-5 row. `--family-rules`: the same figures
 * with the family rules on (what users get). Only the finding is computed (no answers).
 */
import path from 'node:path';
import { Readable } from 'node:stream';
import { analyzeLines } from '../core/log/analyze.js';
import { baselineFromStream } from '../core/log/baseline.js';
import { cleanLines } from '../core/log/clean.js';
import { setGenericOnly } from '../core/finding/ablation.js';
import { flag } from './lib.js';
import { defaultRealfailDir, loadRealCases, seenFinding, type RealCase } from './findings.js';

const base = (f: string): string => f.replace(/^.*[\\/]/, '');

interface Row {
  id: string;
  group: 'rounds1-4' | 'round5' | 'round6+';
  expectedClass: string;
  expectedLocation: string;
  got: string;
  classRight: boolean;
  locationRight: boolean;
}

async function rowOf(c: RealCase): Promise<Row> {
  const e = c.expected;
  const lines = cleanLines(c.failLog);
  const baseline = await baselineFromStream(Readable.from([c.passLog]));
  const finding = seenFinding(analyzeLines(lines, { baseline })[0]);
  const locationRight = finding !== null && (e.location === null ? finding.line === undefined : finding.file !== undefined && base(finding.file) === base(e.location.file) && finding.line === e.location.line);
  return {
    id: e.id,
    group: (e.round ?? 1) >= 6 ? 'round6+' : (e.round ?? 1) === 5 ? 'round5' : 'rounds1-4',
    expectedClass: e.class,
    expectedLocation: e.location ? `${base(e.location.file)}:${e.location.line}` : '-',
    got: finding === null ? 'no finding' : `${finding.class ?? '?'}${finding.file ? ` @ ${base(finding.file)}:${finding.line ?? '-'}` : ''}`,
    classRight: finding?.class === e.class,
    locationRight,
  };
}

const pct = (k: number, n: number): string => (n === 0 ? '-' : `${k}/${n} (${((100 * k) / n).toFixed(1)} %)`);

export async function run(args: string[]): Promise<void> {
  const dir = path.resolve(flag(args, 'data') ?? defaultRealfailDir());
  const familyRules = args.includes('--family-rules');
  setGenericOnly(!familyRules);
  const round5 = args.includes('--round5');
  const cases = (await loadRealCases(dir, { tuning: true })).filter((c) => round5 || (c.expected.round ?? 1) < 5);
  const rows: Row[] = [];
  for (const c of cases) rows.push(await rowOf(c));
  const figures = Object.fromEntries(
    (round5 ? (['rounds1-4', 'round5', 'round6+'] as const) : (['rounds1-4'] as const)).map((g) => {
      const rs = rows.filter((r) => r.group === g);
      return [g, { n: rs.length, classRight: rs.filter((r) => r.classRight).length, locationRight: rs.filter((r) => r.locationRight).length }];
    }),
  );
  if (args.includes('--json')) {
    console.log(JSON.stringify({ familyRules, figures }, null, 2));
    return;
  }
  console.log(`finding on ${familyRules ? 'all evidence (family rules on)' : 'general evidence only (family rules off)'}; ${cases.length} cases (--tuning)`);
  for (const [g, f] of Object.entries(figures)) console.log(`  ${g.padEnd(10)} ${String(f.n).padStart(3)} cases  class ${pct(f.classRight, f.n)}  location ${pct(f.locationRight, f.n)}`);
  if (args.includes('--rows')) {
    console.log('\nwrong rows of rounds 1-4 and the tuning cases (expected class, expected place: got):');
    for (const r of rows) {
      if (r.group !== 'rounds1-4' || (r.classRight && r.locationRight)) continue;
      console.log(`  ${r.id.padEnd(36)} ${r.classRight ? '  ' : 'C '}${r.locationRight ? '  ' : 'L '}${r.expectedClass.padEnd(22)} ${r.expectedLocation.padEnd(28)} ${r.got}`);
    }
  }
}
