/**
 * The version `cichat --version` prints: package.json's, read at run time, so that it is stated
 * once. Found by walking up from this module to the first package.json named `cichat`, which
 * works from the sources (cli/), the compiled package (dist/cli/) and the cached help bundle
 * (node_modules/.cache/cichat/).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export function packageVersion(from: string = fileURLToPath(import.meta.url)): string {
  for (let dir = path.dirname(from); ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) {
      try {
        const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown; version?: unknown };
        if (pkg.name === 'cichat' && typeof pkg.version === 'string') return pkg.version;
      } catch {
        // not ours, or unreadable: keep walking up
      }
    }
    if (path.dirname(dir) === dir) return 'unknown';
  }
}
