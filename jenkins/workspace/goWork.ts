/**
 * A module of the repository that `go.work` does not `use` (issue 25 item 4, session 51, helper ws1): go printed the
 * module whose `go.mod` it was reading when it went to the network (`example.com/shipping/rates@v0.0.0: Get
 * "https://proxy.golang.org/..."`), not the one missing from the workspace (ux12's go-shipping: `./zones`, a new
 * module that `rates` requires). Read from the workspace: `go.work`'s `use` directives and each module's `go.mod`
 * (`module` and `require` lines); the module a used module requires and whose directory `go.work` does not use is the
 * clue, with `go.work`'s `use` block beside it.
 */
import type { Finding } from '../../protocol/types.js';
import type { ClueHit, ClueReader } from './clues.js';

/**
 * Where go's module graph needed a repository's own module: a `v0.0.0` it fetched (not a published module's
 * pseudo-version, `v0.0.0-20220811171246-fbc7d0a398ab`), or a package no required module provides.
 */
const LOCAL_MODULE_NEEDED = /@v0\.0\.0(?![-+.\w])|\bno required module provides package\b/;

const dirOf = (rel: string): string => rel.slice(0, Math.max(0, rel.lastIndexOf('/')));

/** A `use` directive's directory as a workspace-relative path (`./zones` -> `zones`, `.` -> ``), from go.work's folder. */
function useDir(workDir: string, dir: string): string | undefined {
  const parts = (workDir === '' ? [] : workDir.split('/'));
  for (const p of dir.replace(/^"|"$/g, '').split('/')) {
    if (p === '..') {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else if (p !== '.' && p !== '') parts.push(p);
  }
  return parts.join('/');
}

/**
 * The arguments of a go.work or go.mod directive, in its single form (`use ./a`) and its block form (`use (` ... `)`),
 * each with its 0-based line; comments dropped.
 */
function directives(lines: readonly string[], keyword: string): { args: string; index: number }[] {
  const out: { args: string; index: number }[] = [];
  let block = false;
  lines.forEach((raw, index) => {
    const line = raw.replace(/\/\/.*$/, '').trim();
    if (block) {
      if (line.startsWith(')')) block = false;
      else if (line !== '') out.push({ args: line, index });
      return;
    }
    const m = new RegExp(`^${keyword}\\s+(\\(|\\S.*)$`).exec(line);
    if (m?.[1] === '(') block = true;
    else if (m?.[1]) out.push({ args: m[1], index });
  });
  return out;
}

const firstWord = (args: string): string => args.split(/\s+/)[0] as string;

/** go.work's `use` directories (single and block form), each with its 0-based line. */
export function useDirectives(lines: readonly string[]): { dir: string; index: number }[] {
  return directives(lines, 'use').map((d) => ({ dir: firstWord(d.args), index: d.index }));
}

/** A go.mod's module path and the module paths it requires, each with its 0-based line. */
export function goModOf(lines: readonly string[]): { module?: string; moduleIndex: number; requires: { path: string; index: number }[] } {
  const module = directives(lines, 'module')[0];
  const requires = directives(lines, 'require').filter((d) => /^\S+\s+v\S+/.test(d.args)).map((d) => ({ path: firstWord(d.args), index: d.index }));
  return { ...(module ? { module: firstWord(module.args).replace(/^"|"$/g, '') } : {}), moduleIndex: module?.index ?? 0, requires };
}

/**
 * For a finding where go needed one of the repository's own modules (`mod@v0.0.0` fetched through the proxy, `no
 * required module provides package`), in a workspace with a `go.work`: the `go.mod` of each module that a module
 * `go.work` uses requires and whose directory `go.work` does not use (at most 2), then `go.work`'s `use` line.
 * Messages, after the clue mark: `declares the module example.com/shipping/zones, which rates requires and whose
 * directory zones go.work does not use`, `lists the module directories go.work uses (no zones)`.
 */
export async function goWorkGaps<W>(reader: ClueReader<W>, workspaces: readonly W[], findings: readonly (Finding | undefined)[]): Promise<ClueHit<W>[]> {
  if (!findings.some((f) => f !== undefined && LOCAL_MODULE_NEEDED.test(f.message))) return [];
  for (const workspace of workspaces) {
    const files = await reader.index(workspace);
    // The shortest go.work is the repository's (one in a testdata folder is a fixture).
    const workRel = files.filter((r) => /(?:^|\/)go\.work$/.test(r)).sort((a, b) => a.length - b.length)[0];
    if (!workRel) continue;
    const work = await reader.read(workspace, workRel);
    if (work instanceof Error) continue;
    const uses = useDirectives(work.lines);
    const used = new Set(uses.map((u) => useDir(dirOf(workRel), u.dir)).filter((d): d is string => d !== undefined));
    const mods: { rel: string; lines: string[]; mod: ReturnType<typeof goModOf> }[] = [];
    const within = (r: string): boolean => dirOf(workRel) === '' || r.startsWith(`${dirOf(workRel)}/`);
    for (const rel of files.filter((r) => /(?:^|\/)go\.mod$/.test(r) && within(r) && !/(?:^|\/)(?:testdata|vendor)\//.test(r)).slice(0, 50)) {
      const file = await reader.read(workspace, rel);
      if (!(file instanceof Error)) mods.push({ rel, lines: file.lines, mod: goModOf(file.lines) });
    }
    const gaps = mods.filter((m) => m.mod.module !== undefined && !used.has(dirOf(m.rel)));
    const hits: ClueHit<W>[] = [];
    for (const gap of gaps) {
      const by = mods.filter((m) => used.has(dirOf(m.rel)) && m.mod.requires.some((r) => r.path === gap.mod.module));
      if (by.length === 0 || hits.length >= 2) continue;
      const byName = by.map((m) => dirOf(m.rel) || '.').join(', ');
      hits.push({ workspace, rel: gap.rel, lines: gap.lines, index: gap.mod.moduleIndex, message: `declares the module ${gap.mod.module as string}, which ${byName} requires and whose directory ${dirOf(gap.rel) || '.'} go.work does not use` });
    }
    if (hits.length === 0) continue;
    const missing = hits.map((h) => dirOf(h.rel)).join(', ');
    hits.push({ workspace, rel: workRel, lines: work.lines, index: Math.max(0, work.lines.findIndex((l) => /^\s*use\b/.test(l))), message: `lists the module directories go.work uses (no ${missing})` });
    return hits;
  }
  return [];
}
