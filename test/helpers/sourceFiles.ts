/** The repository's own source files for tests that check the code's shape (fixtures and node_modules left out). */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** `.ts`/`.tsx` files under `dirs` (repository-relative paths), tests too unless `tests: false`. */
export function sourceFiles(dirs: readonly string[], { tests = true }: { tests?: boolean } = {}): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(path.join(REPO_ROOT, dir), { withFileTypes: true })) {
      const rel = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && entry.name !== 'fixtures') walk(rel);
      } else if (/\.tsx?$/.test(entry.name) && (tests || !/\.test\.tsx?$/.test(entry.name))) {
        out.push(rel);
      }
    }
  };
  for (const dir of dirs) walk(dir);
  return out;
}
