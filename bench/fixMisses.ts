/**
 * Why "how do I fix it?" misses (issue 25, session 48): for every row whose fix is not useful, the
 * `fixMustMention` tokens it lacks, each sorted into a kind and looked up in the evidence the engine has.
 *
 *   npm run bench -- fixMisses [--tune-max N] [--tune-min N] [--check-only] [--data DIR] [--rows] [--json] [--git]
 *
 * Rounds <= `--tune-max` (default 19) and the dev cases are the tuning rows: with `--rows`, each miss is printed.
 * The later open rounds (up to HELDOUT_ROUND - 1) are the check rows: only their counts are printed, never a row,
 * so a tuner does not choose a mechanism on them. Rounds >= HELDOUT_ROUND are never read (`loadRealCases` tuning).
 *
 * A token's kind is read from its shape (`kindOf`); where it is: the log (as the engine stores it, cleaned), a
 * snippet of the context the engine answered from, the case's project/ files, its commit.diff (which the engine
 * never sees unless `--changes`), or nowhere (knowledge).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { WorkspaceSnippet } from '../protocol/types.js';
import { createLocalEngine } from '../backend/answer/local.js';
import { cleanLines } from '../core/log/clean.js';
import { contextOf, defaultRealfailDir, FIX, HELDOUT_ROUND, loadRealCases, WHY, type RealCase } from './findings.js';
import { flag } from './lib.js';

export const TOKEN_KINDS = ['file', 'name', 'value', 'package/tool', 'host/port/credential', 'test', 'config key', 'command', 'word'] as const;
export type TokenKind = (typeof TOKEN_KINDS)[number];
export const PLACES = ['log', 'snippet', 'project', 'diff', 'nowhere'] as const;
export type Place = (typeof PLACES)[number];

const FILE_EXT = /\.(c|cc|cpp|h|hpp|go|rs|py|rb|js|ts|tsx|jsx|mjs|java|kt|scala|cs|php|pl|pm|sh|ml|hs|ex|exs|erl|lua|swift|toml|ya?ml|json|xml|ini|cfg|conf|lock|txt|md|gradle|properties|mk|cmake|sql|env|csv|tf|proto|html|css)$/i;
const TOOLS = /^(apt(-get)?|yum|dnf|apk|brew|pip3?|npm|yarn|pnpm|gem|cargo|go|mvn|gradle|make|cmake|gcc|g\+\+|clang|rustc|node|python3?|ruby|java|javac|docker|git|curl|wget|bash|sh|perl|php|composer|dotnet|nuget|bundle|bundler|rake|tox|pytest|jest|mocha|eslint|tsc|kubectl|helm|terraform|ansible|sudo|chmod|chown|mkdir|ln|export|ulimit)\b/;

/** The kind of a token, read from its shape only (the table's rows; a heuristic, said so in the notes). */
export function kindOf(token: string): TokenKind {
  const t = token.trim();
  if (/\s/.test(t) && TOOLS.test(t)) return 'command';
  if (/^(https?:\/\/|[\w.-]+:\d{2,5}$|\d{1,3}(\.\d{1,3}){3}|localhost)|\b(pass(word)?|token|secret|user(name)?|credential|port|host)\b/i.test(t)) return 'host/port/credential';
  if (/^-{1,2}[\w-]/.test(t) || /^v?\d+(\.\d+)*[a-z]?$/i.test(t) || /[<>=]=?\s*\d/.test(t) || /^\d/.test(t)) return 'value';
  if (/\//.test(t) || FILE_EXT.test(t) || /^(Makefile|Dockerfile|Jenkinsfile|Gemfile|Rakefile|CMakeLists\.txt|\.[\w-]+rc)$/.test(t)) return 'file';
  if (/^(test_|Test[A-Z_]|it\b|describe\b)|[Tt]est(s)?$|_test$|spec$/.test(t)) return 'test';
  if (/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$|^[a-z][\w-]*(\.[a-z][\w-]*)+$|=|^[a-z]+(-[a-z]+)+:$/.test(t)) return 'config key';
  if (TOOLS.test(t) || /^(lib[\w+-]+|[\w-]+-dev(el)?|python3?-[\w-]+)$/.test(t)) return 'package/tool';
  if (/[A-Z].*[a-z].*[A-Z]|[a-z][A-Z]|_|::|\(\)|\.[A-Za-z]|^[A-Z][a-z]+[A-Z]/.test(t) || /[(){}[\];]/.test(t)) return 'name';
  return 'word';
}

const SKIP_DIRS = new Set(['.git', 'node_modules', 'target', 'build', 'dist', '__pycache__', '.venv', 'vendor']);

/** The text of every small text file under `dir` (lowercased, joined), for a presence check. */
function projectText(dir: string): string {
  if (!existsSync(dir)) return '';
  const parts: string[] = [];
  const walk = (d: string, depth: number): void => {
    if (depth > 8) return;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) {
        if (!SKIP_DIRS.has(e.name)) walk(p, depth + 1);
      } else if (e.isFile() && statSync(p).size < 400_000) {
        const text = readFileSync(p, 'utf8');
        if (!text.slice(0, 8000).includes('\0')) parts.push(`${path.relative(dir, p)}\n${text}`);
      }
    }
  };
  walk(dir, 0);
  return parts.join('\n').toLowerCase();
}

interface Miss {
  id: string;
  round: number;
  token: string;
  kind: TokenKind;
  place: Place;
}

export interface RowOfMisses {
  id: string;
  round: number;
  useful: boolean;
  misses: Miss[];
}

async function answerOf(engine: ReturnType<typeof createLocalEngine>, question: string, context: Awaited<ReturnType<typeof contextOf>>['context']): Promise<string> {
  const stream = await engine.answer({ question, history: [], context, signal: new AbortController().signal });
  let text = '';
  for await (const piece of stream.pieces) text += piece;
  return text;
}

const norm = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** One case: whether its fix is useful (bench/findings.ts' check) and, if not, where each missing token is. */
export async function missesOf(c: RealCase, git = false): Promise<RowOfMisses> {
  const { context } = await contextOf(c, { workspace: true, baseline: true, git });
  const engine = createLocalEngine({ typingDelayMs: 0 });
  const why = await answerOf(engine, WHY, context);
  const fix = await answerOf(engine, FIX, context);
  const lower = fix.toLowerCase();
  const missing = c.expected.fixMustMention.filter((t) => !lower.includes(t.toLowerCase()));
  const round = c.expected.round ?? 1;
  const useful = norm(fix) !== norm(why) && missing.length === 0;
  if (useful) return { id: c.expected.id, round, useful, misses: [] };
  const log = cleanLines(c.failLog).join('\n').toLowerCase();
  const snippets = ((context.ciContext as { workspaceSnippets?: WorkspaceSnippet[] }).workspaceSnippets ?? []).map((s) => `${s.path}\n${s.text}`).join('\n').toLowerCase();
  const project = projectText(path.join(c.dir, 'project'));
  const diffFile = path.join(c.dir, 'commit.diff');
  const diff = existsSync(diffFile) ? readFileSync(diffFile, 'utf8').toLowerCase() : '';
  const misses = missing.map((token): Miss => {
    const t = token.toLowerCase();
    const place: Place = log.includes(t) ? 'log' : snippets.includes(t) ? 'snippet' : project.includes(t) ? 'project' : diff.includes(t) ? 'diff' : 'nowhere';
    return { id: c.expected.id, round, token, kind: kindOf(token), place };
  });
  return { id: c.expected.id, round, useful, misses };
}

function table(rows: RowOfMisses[], title: string): void {
  const misses = rows.flatMap((r) => r.misses);
  console.log(`\n${title}: ${rows.length} rows, fix useful ${rows.filter((r) => r.useful).length}, missing tokens ${misses.length}`);
  console.log(`  ${'kind'.padEnd(22)} ${'tokens'.padStart(6)} ${PLACES.map((p) => p.padStart(8)).join('')}`);
  for (const kind of TOKEN_KINDS) {
    const of = misses.filter((m) => m.kind === kind);
    if (of.length === 0) continue;
    console.log(`  ${kind.padEnd(22)} ${String(of.length).padStart(6)} ${PLACES.map((p) => String(of.filter((m) => m.place === p).length).padStart(8)).join('')}`);
  }
  // A row is fixable from the evidence when every token it lacks is in the log or a snippet the engine holds.
  const inReach = rows.filter((r) => !r.useful && r.misses.length > 0 && r.misses.every((m) => m.place === 'log' || m.place === 'snippet')).length;
  console.log(`  rows whose every missing token is in the log or a held snippet: ${inReach}`);
}

export async function run(args: string[]): Promise<void> {
  const dir = path.resolve(flag(args, 'data') ?? defaultRealfailDir());
  const tuneMax = Number(flag(args, 'tune-max') ?? '19');
  // `--tune-min N`: tuning rows of rounds >= N only (dev cases, round 1, left out then); `--check-only`: no tuning
  // rows at all. Both to spare a loaded machine the slow `--git` runs; the check rounds are always all run.
  const tuneMin = Number(flag(args, 'tune-min') ?? '0');
  const checkOnly = args.includes('--check-only');
  const cases = (await loadRealCases(dir, { tuning: true })).filter((c) => {
    const round = c.expected.round ?? 1;
    return round > tuneMax || (!checkOnly && round >= tuneMin);
  });
  const rows: RowOfMisses[] = [];
  for (const c of cases) rows.push(await missesOf(c, args.includes('--git')));
  const tuning = rows.filter((r) => r.round <= tuneMax);
  const check = rows.filter((r) => r.round > tuneMax && r.round < HELDOUT_ROUND);
  if (args.includes('--json')) {
    console.log(JSON.stringify({ tuneMax, tuning: tuning, check: [...new Set(check.map((r) => r.round))].map((n) => ({ round: n, rows: check.filter((r) => r.round === n).length, useful: check.filter((r) => r.round === n && r.useful).length })) }, null, 2));
    return;
  }
  if (tuning.length > 0) table(tuning, `tuning rows (rounds ${tuneMin > 1 ? `${tuneMin}-` : '<= '}${tuneMax}${tuneMin > 1 ? '' : ', dev'})`);
  for (const n of [...new Set(tuning.map((r) => r.round))].sort((a, b) => a - b)) table(tuning.filter((r) => r.round === n), `round ${n}`);
  for (const n of [...new Set(check.map((r) => r.round))].sort((a, b) => a - b)) {
    const of = check.filter((r) => r.round === n);
    console.log(`\ncheck round ${n} (counts only): ${of.length} rows, fix useful ${of.filter((r) => r.useful).length}`);
  }
  if (args.includes('--rows')) {
    for (const r of tuning.filter((x) => !x.useful)) {
      console.log(`${r.id}\tr${r.round}\t${r.misses.map((m) => `${m.token} [${m.kind}; ${m.place}]`).join(' | ') || '(same as why)'}`);
    }
  }
}
