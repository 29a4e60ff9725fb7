/**
 * `npm run class-model`: writes core/finding/classModelTable.ts, the counts of the class model
 * (core/finding/classModel.ts) made from the labelled real failures open for tuning, with the
 * threshold leave-one-round-out picks (scripts/classModelData.ts).
 *   -- --check   exit 1 when the file is not what the data and the code make now (a stale table)
 *   -- --loro    print the nested leave-one-round-out figures (rules vs model per round) and write nothing
 * Run it after changing the rules (`npm run gates` runs it): the rules' class is one of its tokens.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { chooseThreshold, guesses, LORO_ROUNDS, MODEL_TABLE_FILE as TABLE_FILE, modelCases, modelSource, outcome, train, type ModelCase, type Policy } from './classModelData.js';

function loro(cases: readonly ModelCase[], policy: Policy, fixed?: number): void {
  console.log(`\npolicy ${policy}, threshold ${fixed === undefined ? 'nested (inner leave-one-round-out on the other rounds)' : fixed}`);
  console.log('round  n   rules  model  right  new-wrong  threshold');
  let [n, rules, model, right, wrong] = [0, 0, 0, 0, 0];
  for (const r of LORO_ROUNDS) {
    const held = cases.filter((c) => c.round === r);
    const rest = cases.filter((c) => c.round !== r);
    const t = fixed ?? chooseThreshold(rest, LORO_ROUNDS.filter((x) => x !== r), policy);
    const o = outcome(guesses(train(rest), held, policy), t);
    const ok = held.filter((c) => c.rules === c.label).length;
    console.log(`${String(r).padStart(5)}  ${String(held.length).padStart(3)}  ${String(ok).padStart(5)}  ${String(ok + o.right - o.wrong).padStart(5)}  ${String(o.right).padStart(5)}  ${String(o.wrong).padStart(9)}  ${t}`);
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
  const cases = await modelCases();
  if (args.includes('--loro')) {
    console.log(`${cases.length} cases (rules right ${cases.filter((c) => c.rules === c.label).length}, rules unknown ${cases.filter((c) => c.rules === 'unknown').length})`);
    loro(cases, 'unknown', 0.9);
    loro(cases, 'unknown');
    loro(cases, 'low');
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
  writeFileSync(TABLE_FILE, source);
  console.log(`wrote ${TABLE_FILE} (${cases.length} cases)`);
}

await main();
