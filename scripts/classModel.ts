/**
 * `npm run class-model`: writes core/finding/classModelTable.ts, the counts of the class model
 * (core/finding/classModel.ts) made from the labelled real failures open for tuning, with the
 * posteriors' temperature leave-one-round-out fits (scripts/classModelData.ts).
 *   -- --check   exit 1 when the file is not what the data and the code make now (a stale table)
 *   -- --forward the forward protocol (scripts/classModelForward.ts): per unseen round 11-15 open for tuning,
 *                the rules of the commit it was measured at, the model trained on the rounds before it
 *   -- --confusion [--now FILE] [--min-rounds N]  the confusion of the unseen predictions of the same dumps
 *                (scripts/classConfusion.ts): (label, predicted) pairs with the rounds they recur in; FILE, a
 *                scripts/classModelDump.ts dump of this checkout, adds how many the current rules class right
 *   -- --loro    print the nested leave-one-round-out figures (rules vs model per round: a fixed raw 0.9,
 *                the former nested threshold, the tempered 0.9 that the table uses) and write nothing
 * Run it after changing the rules (`npm run gates` runs it): the rules' class is one of its tokens.
 */
import { readFileSync } from 'node:fs';
import { LIKELY_AT } from '../core/finding/classModel.js';
import type { FindingClass } from '../protocol/types.js';
import { confusion, confusionReport } from './classConfusion.js';
import { forwardDump, forwardFigures, forwardReport, forwardRounds, FORWARD_COMMITS } from './classModelForward.js';
import { chooseThreshold, fitTemperature, guesses, loroRounds, MODEL_TABLE_FILE as TABLE_FILE, modelCases, modelSource, outcome, train, type ModelCase, type Policy } from './classModelData.js';
import { inputsNow, writeTable } from './classModelStamp.js';

/** A number: a raw threshold; 'nested': the former choice, a threshold by inner leave-one-round-out; 'tempered': LIKELY_AT at the inner-fitted temperature (the table's). */
function loro(cases: readonly ModelCase[], policy: Policy, how: number | 'nested' | 'tempered'): void {
  const said = how === 'nested' ? 'threshold nested (inner leave-one-round-out on the other rounds)' : how === 'tempered' ? `tempered posterior >= ${LIKELY_AT} (temperature by inner leave-one-round-out)` : `threshold ${how}`;
  console.log(`\npolicy ${policy}, ${said}`);
  console.log('round  n   rules  model  right  new-wrong  threshold/temperature');
  let [n, rules, model, right, wrong] = [0, 0, 0, 0, 0];
  const rounds = loroRounds(cases);
  for (const r of rounds) {
    const held = cases.filter((c) => c.round === r);
    const rest = cases.filter((c) => c.round !== r);
    const inner = rounds.filter((x) => x !== r);
    const temperature = how === 'tempered' ? fitTemperature(rest, inner) : 1;
    const t = how === 'tempered' ? LIKELY_AT : how === 'nested' ? chooseThreshold(rest, inner, policy) : how;
    const o = outcome(guesses(train(rest, t, temperature), held, policy), t);
    const ok = held.filter((c) => c.rules === c.label).length;
    console.log(`${String(r).padStart(5)}  ${String(held.length).padStart(3)}  ${String(ok).padStart(5)}  ${String(ok + o.right - o.wrong).padStart(5)}  ${String(o.right).padStart(5)}  ${String(o.wrong).padStart(9)}  ${how === 'tempered' ? temperature : t}`);
    n += held.length;
    rules += ok;
    model += ok + o.right - o.wrong;
    right += o.right;
    wrong += o.wrong;
  }
  console.log(`total  ${n}  ${rules}  ${model}  ${right}  ${wrong}`);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes('--forward')) {
    console.log(`forward protocol: rules of the commit each round was measured at, model trained on the rounds before it, threshold ${LIKELY_AT}`);
    console.log(forwardReport(forwardFigures(forwardRounds(), (r) => forwardDump(r, FORWARD_COMMITS[r] as string))));
    return;
  }
  if (args.includes('--confusion')) {
    const at = (name: string): string | undefined => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
    const rows = forwardRounds().flatMap((r) => forwardDump(r, FORWARD_COMMITS[r] as string).filter((c) => c.round === r));
    const nowFile = at('--now');
    const now = nowFile ? new Map((JSON.parse(readFileSync(nowFile, 'utf8')) as { cases: { id: string; rules: FindingClass }[] }).cases.map((c) => [c.id, c.rules])) : undefined;
    console.log(confusionReport(rows, confusion(rows, now), Number(at('--min-rounds') ?? 3)));
    return;
  }
  const inputs = await inputsNow();
  const cases = await modelCases();
  if (args.includes('--loro')) {
    console.log(`${cases.length} cases (rules right ${cases.filter((c) => c.rules === c.label).length}, rules unknown ${cases.filter((c) => c.rules === 'unknown').length})`);
    loro(cases, 'unknown', 0.9);
    loro(cases, 'unknown', 'nested');
    loro(cases, 'unknown', 'tempered');
    loro(cases, 'low', 'tempered');
    return;
  }
  const source = modelSource(cases);
  if (args.includes('--check')) {
    if (readFileSync(TABLE_FILE, 'utf8') !== source) {
      console.error(`${TABLE_FILE} is stale: run \`npm run class-model\` (the rules' findings or the labelled cases changed)`);
      process.exit(1);
    }
    console.log(`${TABLE_FILE} is up to date`);
    return;
  }
  // With its stamp (scripts/classModelStamp.ts): the inputs it was made from, so the staleness test need not make it again.
  await writeTable(async () => source, inputs);
  console.log(`wrote ${TABLE_FILE} (${cases.length} cases)`);
}

await main();
