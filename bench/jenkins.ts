/**
 * Benchmark of the analyzer on Jenkins console logs (test/fixtures/jenkins-console, labelled
 * before the rules for them were written; split `held` is never used for tuning: round 2 moved
 * round 1's held logs to `dev`, marked `was: held-round1`, see the fixture README).
 *
 *   npm run bench -- jenkins [--data DIR] [--show] [--json] [--tuning] [--unknown-tool]
 *
 * `--tuning` drops every log of a later held-out round (`round` >= HELDOUT_ROUND in index.jsonl, or a split
 * other than `dev` and `held`) before anything is read or printed: rules are tuned with it, so
 * the new held set's figures and rows are never seen while tuning.
 *
 * For each log: hit@1 / hit@3 (an excerpt among the top 1 / 3 overlaps a labelled cause range),
 * and the line F1 of the top excerpt against the union of the labelled lines. Two baselines in
 * the same run: the last 30 and the last 100 lines as the only excerpt. Figures per split
 * (dev, held) and for short and long logs (long: more than 100 lines).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { analyze } from '../core/log/analyze.js';
import type { LogExcerpt } from '../protocol/types.js';

interface Entry {
  id: string;
  split: string;
  /** Held-out round the log was added in (absent: the first). */
  round?: number;
  /** The split the log had in an earlier round (`held-round1`: held out then, tuned on since). */
  was?: string;
  /** A named set of tuning logs reported on its own (`tune3`: round 3's pastes from issue threads). */
  set?: string;
  kind: string;
  file: string;
  lines: number;
  causes: [number, number][];
}

interface Score {
  hit1: number;
  hit3: number;
  f1: number;
}

interface Row {
  entry: Entry;
  long: boolean;
  analyzer: Score;
  last30: Score;
  last100: Score;
  top: LogExcerpt | undefined;
}

const LONG = 100;

function overlaps(a: number, b: number, causes: [number, number][]): boolean {
  return causes.some(([c, d]) => a <= d && c <= b);
}

function f1Of(a: number, b: number, causes: [number, number][]): number {
  const labelled = new Set<number>();
  for (const [c, d] of causes) for (let k = c; k <= d; k++) labelled.add(k);
  let hit = 0;
  for (let k = a; k <= b; k++) if (labelled.has(k)) hit++;
  if (hit === 0) return 0;
  const p = hit / (b - a + 1);
  const r = hit / labelled.size;
  return (2 * p * r) / (p + r);
}

function scoreExcerpts(excerpts: LogExcerpt[], causes: [number, number][]): Score {
  const top = excerpts[0];
  const hit1 = top !== undefined && overlaps(top.start_line, top.end_line, causes) ? 1 : 0;
  const hit3 = excerpts.slice(0, 3).some((e) => overlaps(e.start_line, e.end_line, causes)) ? 1 : 0;
  return { hit1, hit3, f1: top !== undefined ? f1Of(top.start_line, top.end_line, causes) : 0 };
}

function tail(lineCount: number, n: number, causes: [number, number][]): Score {
  const a = Math.max(1, lineCount - n + 1);
  const hit = overlaps(a, lineCount, causes) ? 1 : 0;
  return { hit1: hit, hit3: hit, f1: f1Of(a, lineCount, causes) };
}

function mean(rows: Row[], pick: (r: Row) => number): number {
  return rows.length === 0 ? 0 : rows.reduce((s, r) => s + pick(r), 0) / rows.length;
}

/** The held-out round being measured now (earlier rounds were reported, then tuned on). */
export const HELDOUT_ROUND = 10;

/**
 * `--unknown-tool`: each log again with every labelled line replaced by a made-up tool's message
 * (its Timestamper, clock or `[branch] ` prefix kept), in three wordings: with `cannot`, with
 * `Error:`, and with no failure word. No shape knows them, so the figures say how the console
 * reading (step structure, framing, ranking) fares on a tool no rule has seen: the held-out rounds'
 * usual short-log miss (session 53, helper jt6). Replacing Jenkins' own lines (a Groovy error over
 * its stack) makes some logs unrealistic; the counts compare code against code on the same logs.
 */
const UNKNOWN_TOOL: Record<string, string> = {
  cannot: "frobctl: cannot open widget store '/srv/w/abc'",
  'Error:': 'Error: widget store /srv/w/abc is unreachable',
  'no word': 'widget store /srv/w/abc is unreachable, giving up',
};
const KEPT_PREFIX = /^(\s*(?:\[[^\]]*\]\s*|\d\d:\d\d:\d\d\s+)*)/;

function unknownTool(entries: Entry[], texts: string[]): void {
  console.log('--unknown-tool: the labelled lines replaced by a made-up message; hit@1 of the analyzer / of the last 30 lines');
  for (const [name, message] of Object.entries(UNKNOWN_TOOL)) {
    const hits: Record<'short' | 'long', [number, number, number]> = { short: [0, 0, 0], long: [0, 0, 0] };
    entries.forEach((entry, n) => {
      const text = texts[n] ?? '';
      const lines = text.split('\n');
      for (const [a, b] of entry.causes) for (let k = a; k <= b; k++) lines[k - 1] = (KEPT_PREFIX.exec(lines[k - 1] ?? '')?.[1] ?? '') + message;
      const count = text.endsWith('\n') ? lines.length - 1 : lines.length;
      const g = hits[count > LONG ? 'long' : 'short'];
      g[0]++;
      g[1] += scoreExcerpts(analyze(lines.join('\n')), entry.causes).hit1;
      g[2] += tail(count, 30, entry.causes).hit1;
    });
    console.log(`${name.padEnd(8)} short ${hits.short[1]}/${hits.short[0]} (last-30 ${hits.short[2]})   long ${hits.long[1]}/${hits.long[0]} (last-30 ${hits.long[2]})`);
  }
}

export async function run(args: string[]): Promise<void> {
  const tuning = args.includes('--tuning');
  const at = args.indexOf('--data');
  const dir = at >= 0 && args[at + 1] !== undefined ? (args[at + 1] as string) : path.resolve('test/fixtures/jenkins-console');
  const entries = (await readFile(path.join(dir, 'index.jsonl'), 'utf8'))
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Entry)
    .filter((e) => !tuning || ((e.round ?? 1) < HELDOUT_ROUND && (e.split === 'dev' || e.split === 'held')));
  if (args.includes('--unknown-tool')) {
    if (!tuning) throw new Error('--unknown-tool reads the logs line by line: only with --tuning (held-out rounds left out)');
    unknownTool(entries, await Promise.all(entries.map((e) => readFile(path.join(dir, e.file), 'utf8'))));
    return;
  }
  const rows: Row[] = [];
  for (const entry of entries) {
    const text = await readFile(path.join(dir, entry.file), 'utf8');
    const excerpts = analyze(text);
    const count = text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length;
    rows.push({
      entry,
      long: count > LONG,
      analyzer: scoreExcerpts(excerpts, entry.causes),
      last30: tail(count, 30, entry.causes),
      last100: tail(count, 100, entry.causes),
      top: excerpts[0],
    });
  }
  const splits = [...new Set(rows.map((r) => r.entry.split))];
  const groups: [string, Row[]][] = [['all', rows]];
  for (const s of splits) groups.push([s, rows.filter((r) => r.entry.split === s)]);
  for (const s of splits) {
    groups.push([`${s} short`, rows.filter((r) => r.entry.split === s && !r.long)]);
    groups.push([`${s} long`, rows.filter((r) => r.entry.split === s && r.long)]);
  }
  // Each round of the held set on its own: only the current one (HELDOUT_ROUND) was never tuned on.
  for (const n of [...new Set(rows.filter((r) => r.entry.split === 'held').map((r) => r.entry.round ?? 1))].sort((a, b) => a - b)) {
    const rs = rows.filter((r) => r.entry.split === 'held' && (r.entry.round ?? 1) === n);
    groups.push([`held round ${n}`, rs], [`  short`, rs.filter((r) => !r.long)], [`  long`, rs.filter((r) => r.long)]);
  }
  for (const w of new Set(rows.map((r) => r.entry.was).filter((w): w is string => w !== undefined))) {
    const rs = rows.filter((r) => r.entry.was === w);
    groups.push([`was ${w}`, rs], [`  short`, rs.filter((r) => !r.long)], [`  long`, rs.filter((r) => r.long)]);
  }
  for (const t of new Set(rows.map((r) => r.entry.set).filter((t): t is string => t !== undefined))) {
    const rs = rows.filter((r) => r.entry.set === t);
    groups.push([`set ${t}`, rs], [`  short`, rs.filter((r) => !r.long)], [`  long`, rs.filter((r) => r.long)]);
  }
  const figures = groups.map(([name, rs]) => ({
    group: name,
    n: rs.length,
    analyzer: { hit1: mean(rs, (r) => r.analyzer.hit1), hit3: mean(rs, (r) => r.analyzer.hit3), f1: mean(rs, (r) => r.analyzer.f1) },
    last30: { hit1: mean(rs, (r) => r.last30.hit1), f1: mean(rs, (r) => r.last30.f1) },
    last100: { hit1: mean(rs, (r) => r.last100.hit1), f1: mean(rs, (r) => r.last100.f1) },
  }));
  if (args.includes('--json')) {
    console.log(JSON.stringify({ data: dir, tuning, figures }, null, 2));
    return;
  }
  const f = (x: number): string => x.toFixed(2).padStart(6);
  console.log(`jenkins: ${rows.length} labelled console logs from ${dir} (long: more than ${LONG} lines)${tuning ? '; --tuning: later held-out rounds left out' : ''}`);
  console.log('hit@1/hit@3 of the analyzer\'s excerpts; F1 of the top excerpt\'s lines; baselines = the last N lines as the only excerpt');
  console.log(`${'group'.padEnd(18)} ${'n'.padStart(3)} | analyzer hit1   hit3     F1 | last-30 hit1     F1 | last-100 hit1     F1`);
  for (const g of figures) {
    console.log(
      `${g.group.padEnd(18)} ${String(g.n).padStart(3)} |      ${f(g.analyzer.hit1)} ${f(g.analyzer.hit3)} ${f(g.analyzer.f1)} |     ${f(g.last30.hit1)} ${f(g.last30.f1)} |      ${f(g.last100.hit1)} ${f(g.last100.f1)}`,
    );
  }
  if (args.includes('--show')) {
    console.log('');
    for (const r of rows) {
      const t = r.top;
      const mark = r.analyzer.hit1 === 1 ? 'ok  ' : r.analyzer.hit3 === 1 ? 'top3' : 'MISS';
      console.log(`${mark} ${r.entry.split} ${r.entry.id.padEnd(34)} label ${JSON.stringify(r.entry.causes)} top ${t ? `${t.start_line}-${t.end_line} ${t.reason}` : 'none'}`);
    }
  }
}
