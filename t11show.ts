import { readFileSync } from 'node:fs';
import { analyze } from '/work/wt-t11/core/log/analyze.js';
for (const id of process.argv.slice(2)) {
  const d = `/work/wt-t11/test/fixtures/realfail/${id}`;
  const e = JSON.parse(readFileSync(`${d}/expected.json`, 'utf8'));
  const f = analyze(readFileSync(`${d}/fail.log`, 'utf8'))[0]?.finding;
  console.log(`== ${id}\n exp: ${e.class} | ${e.message} | ${JSON.stringify(e.location)} | test=${e.test ?? ''}\n got: ${f?.class} | ${f?.message} | ${JSON.stringify(f?.location)} | test=${f?.test?.name ?? ''}`);
}
