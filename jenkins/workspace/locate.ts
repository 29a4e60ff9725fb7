/**
 * How a path the log names is found in a workspace (moved out of snippets.ts to keep it under 700
 * lines): the file index, the agent's workspace roots, the direct path and the longest suffix.
 */
import { JENKINS_ROOT_LINE } from '../../core/log/agentRoot.js';
import { promises as fs } from 'node:fs';
import { EXCLUDED_NAMES } from './tree.js';

const isAbsolute = (p: string): boolean => p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p);

const segmentsOf = (p: string): string[] => p.replace(/\\/g, '/').split('/').filter((s) => s !== '' && s !== '.');

/** Every regular file of a workspace (relative paths), bounded; excluded names and links skipped. */
export async function indexFiles(dir: string, max: number): Promise<string[]> {
  const out: string[] = [];
  let level: string[] = [''];
  // Breadth first, a level's directories read 32 at a time (bench snippets, 20000 files, load
  // average 18: p50 388 ms one readdir after another, 310 ms batched).
  while (level.length > 0 && out.length < max) {
    const next: string[] = [];
    for (let i = 0; i < level.length && out.length < max; i += 32) {
      const batch = level.slice(i, i + 32);
      const listed = await Promise.all(
        batch.map((rel) => fs.readdir(rel === '' ? dir : `${dir}/${rel}`, { withFileTypes: true }).catch(() => [])),
      );
      listed.forEach((entries, k) => {
        const rel = batch[k] as string;
        entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
        for (const entry of entries) {
          if (EXCLUDED_NAMES.has(entry.name) || out.length >= max) continue;
          const child = rel === '' ? entry.name : `${rel}/${entry.name}`;
          if (entry.isDirectory()) next.push(child);
          else if (entry.isFile()) out.push(child);
        }
      });
    }
    level = next;
  }
  return out;
}

/**
 * The directories the build ran in, as the log names them (the CI agent's paths): Jenkins'
 * `Building in workspace /x/y` and `Running on agent in /x/y`, a pipeline's `Running in /x/y`,
 * GitHub Actions' `/home/runner/work/<repo>/<repo>`, Travis' `/home/travis/build/<owner>/<repo>`.
 * An absolute path under one of them maps to the same relative path in a local checkout.
 */
export function agentWorkspaceRoots(lines: readonly string[]): string[] {
  const roots = new Set<string>();
  const max = Math.min(lines.length, 20_000);
  for (let i = 0; i < max; i++) {
    const line = lines[i] ?? '';
    const m = JENKINS_ROOT_LINE.exec(line);
    if (m?.[1]) roots.add(m[1].replace(/\\/g, '/').replace(/\/+$/, ''));
    const ci = /(\/home\/runner\/work\/[^/\s]+\/[^/\s]+|\/home\/travis\/build\/[^/\s]+\/[^/\s]+)\//.exec(line);
    if (ci?.[1]) roots.add(ci[1]);
  }
  // Longest first: a pipeline's `ws` inside the job's workspace is the more precise root.
  return [...roots].sort((a, b) => b.length - a.length);
}

/** The workspace-relative path for a path the log wrote, without looking at the disk. */
export function directPath(logPath: string, workspace: { dir: string; path?: string }, realDir: string | undefined, agentRoots: readonly string[] = []): string | undefined {
  const p = logPath.replace(/\\/g, '/');
  if (isAbsolute(p)) {
    for (const prefix of [workspace.path, workspace.dir, realDir, ...agentRoots]) {
      if (!prefix) continue;
      const base = prefix.replace(/\\/g, '/').replace(/\/+$/, '');
      if (p.startsWith(`${base}/`)) return p.slice(base.length + 1);
    }
    return undefined;
  }
  return p.replace(/^(\.\/)+/, '');
}

/** The indexed file whose path ends with the most trailing segments of `logPath`. */
export function bySuffix(logPath: string, files: readonly string[]): string | undefined {
  const segs = segmentsOf(logPath).filter((s) => s !== '..');
  for (let k = segs.length; k >= 1; k--) {
    const suffix = segs.slice(segs.length - k).join('/');
    const matches = files.filter((f) => f === suffix || f.endsWith(`/${suffix}`));
    if (matches.length > 0) return matches.sort((a, b) => a.length - b.length || (a < b ? -1 : 1))[0];
  }
  return undefined;
}

