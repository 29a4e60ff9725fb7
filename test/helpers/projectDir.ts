/**
 * Made-up project directories for the answer tests (`cichat ask --workspace DIR` reads them): `project(files)` writes
 * each file under a fresh temporary directory; `removeProjects()` (in an `afterAll`) deletes them all.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const dirs: string[] = [];

/** A project directory with these files (path relative to it -> text). */
export function project(files: Record<string, string>, prefix = 'project-'): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  dirs.push(dir);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

/** Deletes every directory `project` made. */
export function removeProjects(): void {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
}
