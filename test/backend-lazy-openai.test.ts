/**
 * The backend on its defaults (local engine, local embedder) starts without loading the `openai`
 * package (~70 ms of every start, issue 31): only a dynamic `import()` reaches it, made when the
 * openai engine or embedder is configured. Checked on the static import graph from each entry
 * point (value imports and re-exports; `import type` is erased by TypeScript and does not count).
 */
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname ?? path.dirname(new URL(import.meta.url).pathname), '..');

/** The specifiers a file imports at load time: `import ... from`, `export ... from`, `import 'x'`. */
export function staticImports(text: string): string[] {
  const out: string[] = [];
  const re = /^\s*(import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m[2]) continue;
    out.push(m[3]!);
  }
  return out;
}

/** Every bare package a file reaches through static imports, with the chain that reaches it. */
function packagesReached(entry: string): Map<string, string[]> {
  const reached = new Map<string, string[]>();
  const seen = new Set<string>();
  const walk = (file: string, chain: string[]): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const spec of staticImports(fs.readFileSync(file, 'utf8'))) {
      if (spec.startsWith('.')) {
        const target = path.resolve(path.dirname(file), spec.replace(/\.js$/, '.ts'));
        if (fs.existsSync(target)) walk(target, [...chain, path.relative(root, target)]);
      } else if (!spec.startsWith('node:')) {
        const pkg = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
        if (!reached.has(pkg)) reached.set(pkg, chain);
      }
    }
  };
  walk(path.join(root, entry), [entry]);
  return reached;
}

describe('the backend loads openai only when configured', () => {
  it('reads static imports, re-exports and side-effect imports, and skips type-only ones', () => {
    const text = [
      "import OpenAI from 'openai';",
      "import type { X } from 'typed-only';",
      "export { a } from './a.js';",
      "export type { B } from './b.js';",
      "import './side.js';",
      'import {\n  c,\n  d,\n} from "multi";',
      "const later = await import('dynamic');",
    ].join('\n');
    expect(staticImports(text)).toEqual(['openai', './a.js', './side.js', 'multi']);
  });

  it.each(['backend/main.ts', 'backend/server.ts', 'controller/main.ts'])('%s does not reach the openai package statically', (entry) => {
    const reached = packagesReached(entry);
    // The walk itself works: the backend reaches koa and knex, the controller koa.
    expect(reached.has('koa')).toBe(true);
    expect(reached.get('openai')).toBeUndefined();
  });
});
