/**
 * Claims of the README and docs/notes that can be checked mechanically stay true (issue 31 point 8:
 * "the stale claims in README and docs/notes corrected"; rv3, session 43): the benches the README
 * lists are the ones `npm run bench` knows, every `npm run X` they name is a script, every file of
 * the repository the README names in backticks exists.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
const notes = readdirSync(path.join(root, 'docs/notes')).filter((f) => f.endsWith('.md')).map((f) => [`docs/notes/${f}`, readFileSync(path.join(root, 'docs/notes', f), 'utf8')] as const);

test("the README's list of benches is bench/main.ts's", () => {
  const listed = /`npm run bench -- <name>` \(names: ([^)]*)\)/.exec(readme)?.[1];
  expect(listed).toBeDefined();
  const names = listed!.split(',').map((n) => /^\s*([A-Za-z]+)/.exec(n)?.[1]);
  const known = /const BENCHES = \[([^\]]*)\]/.exec(readFileSync(path.join(root, 'bench/main.ts'), 'utf8'))?.[1]?.match(/[A-Za-z]+/g);
  expect(known).toBeDefined();
  expect([...names].sort()).toEqual([...known!].sort());
});

test('every `npm run X` of the README and docs/notes is a script of package.json', () => {
  const scripts = Object.keys((JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts);
  // Named in the text as other projects' commands (a fixture's lint script, a placeholder).
  const others = new Set(['lint:js', 'X']);
  const unknown: string[] = [];
  for (const [file, text] of [['README.md', readme] as const, ...notes]) {
    for (const m of text.matchAll(/npm run ([\w:-]+)/g)) if (!scripts.includes(m[1]!) && !others.has(m[1]!)) unknown.push(`${file}: npm run ${m[1]}`);
  }
  expect(unknown).toEqual([]);
});

test('every file of the repository the README names in backticks exists', () => {
  const missing = [...readme.matchAll(/`((?:backend|controller|cli|core|jenkins|http|protocol|web|test|bench|scripts|docs|seeds)\/[^`\s*{}<>]+\.(?:ts|tsx|js|mjs|cjs|json|md|stamp))(?::\d+)?`/g)]
    .map((m) => m[1]!)
    .filter((f) => !existsSync(path.join(root, f)));
  expect(missing).toEqual([]);
});
