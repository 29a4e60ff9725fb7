/**
 * `npm run gates`: writes core/log/gateTable.ts, the prefilter's gates of every pattern the
 * analyzer gates (core/log/gates.ts), derived from the patterns as they are now. Run it after
 * adding or editing a shape; core/log/gates.test.ts fails until then (the analyzer stays right
 * without it, only its module loads slower). Then core/finding/classModelTable.ts, the class model's
 * counts, which rest on the rules' findings of the labelled cases (scripts/classModel.ts).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import '../core/log/analyze.js';
import { gateTableSource } from '../core/log/gates.js';
import { MODEL_TABLE_FILE, modelCases, modelSource } from './classModelData.js';
import { writeTable } from './classModelStamp.js';

const file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../core/log/gateTable.ts');
writeFileSync(file, gateTableSource());
console.log(`wrote ${file}`);
// The class model's counts rest on the rules' findings of the labelled cases (scripts/classModel.ts): a rule change makes them stale.
// With its stamp (scripts/classModelStamp.ts): the inputs it was made from, so the staleness test need not make it again.
await writeTable(async () => modelSource(await modelCases()));
console.log(`wrote ${MODEL_TABLE_FILE}`);

