/**
 * One step of the class model's forward protocol (scripts/classModelForward.ts): the rules' output
 * of the analyzer of another checkout (`--root DIR`, e.g. a detached worktree of the commit at which
 * a round was measured) on the labelled cases of rounds <= `--upto R`, as the findings bench of that
 * checkout ran it (cleanLines, analyzeLines with the passing log's fingerprints, the top excerpt's
 * finding). The cases (and their labels) are this checkout's, read by `loadRealCases(..., {tuning:
 * true})`: a held-out case (round >= HELDOUT_ROUND here) is skipped as soon as its round is read.
 * Writes one JSON file (`--out FILE`): per case its id, round, label, the rules' class, confidence,
 * message and tool, the top excerpt's lines and the cleaned log. One process per checkout.
 *   npx tsx scripts/classModelDump.ts --root /tmp/ml4-8016051c --upto 11 --out /tmp/r11.json
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { defaultRealfailDir, loadRealCases } from '../bench/findings.js';
import type { ForwardCase } from './classModelForward.js';

function arg(name: string): string {
  const i = process.argv.indexOf(name);
  const v = i >= 0 ? process.argv[i + 1] : undefined;
  if (v === undefined) throw new Error(`classModelDump: ${name} is required`);
  return v;
}

interface OldFinding {
  class: string;
  confidence: string;
  /** Set by a checkout with calibration (core/finding/calibration.ts) when it lowered a rule's `high`. */
  rules_confidence?: string;
  /** Set by a checkout that sets aside a medium or low class the words do not support (calibration.ts `supported`). */
  rules_class?: string;
  message: string;
  tool?: string;
}

async function main(): Promise<void> {
  const root = path.resolve(arg('--root'));
  const upto = Number(arg('--upto'));
  const out = arg('--out');
  // The other checkout's analyzer: its own modules, as its bench imported them.
  const { analyzeLines } = (await import(path.join(root, 'core/log/analyze.ts'))) as { analyzeLines: (lines: string[], o: object) => { start_line: number; end_line: number; finding?: OldFinding }[] };
  const { baselineFromStream } = (await import(path.join(root, 'core/log/baseline.ts'))) as { baselineFromStream: (s: Readable) => Promise<unknown> };
  const { cleanLines } = (await import(path.join(root, 'core/log/clean.ts'))) as { cleanLines: (t: string) => string[] };
  const cases: ForwardCase[] = [];
  for (const c of await loadRealCases(defaultRealfailDir(), { tuning: true })) {
    const round = c.expected.round ?? 1;
    if (round > upto) continue;
    const lines = cleanLines(c.failLog);
    const baseline = await baselineFromStream(Readable.from([c.passLog]));
    const top = analyzeLines(lines, { baseline })[0];
    const f = top?.finding;
    if (!top || !f) continue;
    cases.push({
      id: c.expected.id,
      round,
      label: c.expected.class,
      // The rules' own class: one a later checkout's calibration set aside as unknown is read as the rules gave it.
      rules: f.rules_class ?? f.class,
      // The rules' own level: what the model and the calibration read (a calibrated checkout's lowered `high` too).
      confidence: f.rules_confidence ?? f.confidence,
      message: f.message,
      ...(f.tool ? { tool: f.tool } : {}),
      start_line: top.start_line,
      end_line: top.end_line,
      lines,
    } as ForwardCase);
  }
  writeFileSync(out, JSON.stringify({ root, upto, cases }));
  console.log(`${out}: ${cases.length} cases of rounds <= ${upto}`);
}

await main();
