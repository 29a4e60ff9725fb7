/**
 * The answer tests read an engine's answer one way, test/helpers/askLocal.ts (issue 31 review: one
 * shape for each thing; rv3, session 43): a test file that writes its own loop over an answer's
 * pieces into one text, or its own local-engine `ask`, is a copy that drifts (three files had
 * the same function at 999e02c5, five more their variants after it).
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const testDir = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(testDir, '..');
const HELPER = 'test/helpers/askLocal.ts';

function testSources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'fixtures' && entry.name !== 'node_modules') out.push(...testSources(rel));
    } else if (/\.tsx?$/.test(entry.name)) out.push(rel);
  }
  return out;
}

test('no test file but the helper joins an answer stream\'s pieces or makes its own local-engine ask', () => {
  const files = ['test', 'backend', 'cli', 'controller', 'core', 'jenkins', 'web'].flatMap(testSources).filter((f) => f.startsWith('test/') || /\.test\.tsx?$/.test(f));
  expect(files.length).toBeGreaterThan(100);
  const copies = files.filter((f) => {
    if (f === HELPER) return false;
    const text = readFileSync(path.join(root, f), 'utf8');
    return /for await \(const \w+ of \w+\.pieces\) \w+ \+=/.test(text) || /createLocalEngine\(\{ typingDelayMs: 0 \}\)[\s\S]{0,200}\.answer\(\{ question, history: \[\]/.test(text);
  });
  expect(copies).toEqual([]);
});
