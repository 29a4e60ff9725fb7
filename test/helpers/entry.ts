/**
 * How the e2e tests start cichat's processes: from the sources through tsx (what `npm start`
 * runs), or, with CICHAT_TEST_DIST=1, from the compiled package in dist/ (what `npm pack`
 * ships). `npm test` builds dist/ first and sets it: a process then starts on half the CPU
 * (no TypeScript loader), which is most of what the e2e project costs on two cores. The tests
 * that are about the npm scripts themselves (`npm start`, `npm run db:migrate`) keep tsx.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../../cli/services.js';

export const TEST_DIST = process.env.CICHAT_TEST_DIST === '1';

type Entry = 'cli/main' | 'backend/main' | 'controller/main';

/** dist/ must be there; `npm test` (scripts/test.mjs) rebuilds it whenever a source is newer. */
function checkDist(): void {
  if (!fs.existsSync(path.join(PACKAGE_ROOT, 'dist', 'cli', 'main.js'))) {
    throw new Error('CICHAT_TEST_DIST=1 but dist/ is not built: run `npm run build` (npm test does)');
  }
}

/** The script to start for `entry` (startService picks tsx for a .ts path). */
export function entryScript(entry: Entry): string {
  if (!TEST_DIST) return path.join(PACKAGE_ROOT, `${entry}.ts`);
  checkDist();
  return path.join(PACKAGE_ROOT, 'dist', `${entry}.js`);
}

/** Node's arguments that run `entry` (append the program's own). */
export function nodeArgs(entry: Entry): string[] {
  const script = entryScript(entry);
  return script.endsWith('.ts') ? ['--import', 'tsx', script] : [script];
}

/** The CLI as a shell command line (for tmux and `script`). */
export function cliCommand(): string {
  return [process.execPath, ...nodeArgs('cli/main')].join(' ');
}
