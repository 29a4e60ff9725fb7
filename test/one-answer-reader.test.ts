/**
 * The answer tests read an engine's answer one way, test/helpers/askLocal.ts (issue 31 review: one
 * shape for each thing; rv3, session 43): a test file that writes its own loop over an answer's
 * pieces into one text, or its own local-engine `ask`, is a copy that drifts (three files had
 * the same function at 999e02c5, five more their variants after it).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT, sourceFiles } from './helpers/sourceFiles.js';

const HELPER = 'test/helpers/askLocal.ts';

test('no test file but the helper joins an answer stream\'s pieces or makes its own local-engine ask', () => {
  const files = sourceFiles(['test', 'backend', 'cli', 'controller', 'core', 'jenkins', 'web']).filter((f) => f.startsWith('test/') || /\.test\.tsx?$/.test(f));
  expect(files.length).toBeGreaterThan(100);
  const copies = files.filter((f) => {
    if (f === HELPER) return false;
    const text = readFileSync(path.join(REPO_ROOT, f), 'utf8');
    return /for await \(const \w+ of \w+\.pieces\) \w+ \+=/.test(text) || /createLocalEngine\(\{ typingDelayMs: 0 \}\)[\s\S]{0,200}\.answer\(\{ question, history: \[\]/.test(text);
  });
  expect(copies).toEqual([]);
});
