/**
 * No file of the repository's own code is over 700 lines (issue 31, point 8): a file that grows
 * past it is split by what it does before it lands. Fixtures and generated data are not code.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MAX_LINES = 700;

test(`no source or test file is over ${MAX_LINES} lines`, () => {
  const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '*.ts', '*.tsx', '*.js', '*.mjs'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((f) => f !== '' && !/^(test\/fixtures|bench\/data|seeds)\//.test(f));
  expect(files.length).toBeGreaterThan(200);
  const over = files
    .map((f) => {
      let text: string;
      try {
        text = readFileSync(path.join(root, f), 'utf8');
      } catch {
        return null; // deleted in the working tree
      }
      return { f, lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0) };
    })
    .filter((x): x is { f: string; lines: number } => x !== null && x.lines > MAX_LINES)
    .map((x) => `${x.f}: ${x.lines} lines`);
  expect(over).toEqual([]);
});
