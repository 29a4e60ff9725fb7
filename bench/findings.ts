/**
 * Quality of the structured finding and of the offline answers on the real failures of issue 25
 * (test/fixtures/realfail/: builds made green then broken on this machine, each with an
 * `expected.json` written before any code was changed for it; see that README).
 *
 *   npm run bench -- findings [--data DIR] [--verbose] [--json] [--log-only] [--no-baseline] [--changes] [--git]
 *                             [--show ID]   (one case: its finding and both answers in full)
 *                             [--by-class]  (class right / location right / fix useful per class, dev)
 *                             [--by-confidence] (class right per the finding's confidence, and of the mediums calibration lowered from high; counts only, held-out rounds too)
 *                             [--show-heldout] (with --verbose / --show: held-out rows too)
 *                             [--tuning]    (leave out every case of a later held-out round)
 * Held-out cases are reported as aggregate figures only, unless --show-heldout is given: their
 * rows are for the final report, not for tuning. Cases of the current held-out round
 * (`"round": N` with N >= HELDOUT_ROUND, core of the figures; earlier rounds are tuning data): `--tuning` neither runs them nor prints anything of them (not even their
 * aggregate figures), so a developer tuning on the earlier rounds never sees them.
 *
 * For every case, as a user would run it:
 * - the analyzer as `cichat analyze fail.log --baseline pass.log --json` runs it (cleanLines +
 *   analyzeLines with the passing log's fingerprints); the finding is the top excerpt's
 *   `finding` (CONTRACT section 6). A case without one counts as "no finding" and is wrong on
 *   class, message and location;
 * - the offline answer engine on "why did the build fail?" and "how do I fix it?", over the
 *   context the backend builds at upload (the log, its excerpts, the last green build) plus the
 *   workspace snippets `cichat ask --workspace project/` reads from the case's project.
 *   `--log-only` drops the snippets and the baseline, `--no-baseline` only the baseline.
 *
 * Figures per split (dev / heldout; the held-out cases are never used to change code; in round 2
 * the held-out cases are those of plan4a.tsv / plan4b.tsv, the round-1 ones are dev, `rotated`):
 * - class right: the finding's class is the expected one (the rules' class); "incl. likely" also
 *   counts an `unknown` finding whose `likely_class` (the class model's hedged guess,
 *   core/finding/classModel.ts) is the expected class, and "likely class wrong" the guesses that are not;
 * - message right: after whitespace normalisation the expected message is inside the
 *   finding's message, or the finding's message is inside the expected one and at least half
 *   its length (so `error` alone never counts);
 * - location right: expected `null` -> the finding names no line; otherwise the finding's
 *   location has the expected file basename and line. "in chain" also accepts the raise or
 *   project frame;
 * - fix differs: the fix answer is not the why answer (whitespace normalised);
 * - fix useful: it differs and holds every `fixMustMention` token (case-insensitive);
 * - false claims: cases where either answer holds a `mustNotClaim` phrase (none of which
 *   occurs in the log, so it cannot be a quotation), outside fenced blocks (those quote the
 *   workspace's files or the log verbatim).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ChatContext } from '../backend/answer/engine.js';
import { createLocalEngine } from '../backend/answer/local.js';
import { analyzeLines, excerptText } from '../core/log/analyze.js';
import { baselineFromStream } from '../core/log/baseline.js';
import { cleanLines } from '../core/log/clean.js';
import { snippetsFromDir } from '../cli/snippets.js';
import { checkoutChanges, namedPaths } from '../jenkins/workspace/gitChanges.js';
import { throwAwayCheckout } from './gitCheckout.js';
import { FINDING_CLASSES } from '../protocol/types.js';
import type { CiContext, LogExcerpt } from '../protocol/types.js';
import { termRetriever } from '../test/answerFixtures.js';
import { flag } from './lib.js';

import { defaultRealfailDir, HELDOUT_ROUND, isDict, loadRealCases, type Expected, type RealCase } from './realCases.js';

export { defaultRealfailDir, HELDOUT_ROUND, loadRealCases, type Expected, type RealCase };

export const WHY = 'why did the build fail?';
export const FIX = 'how do I fix it?';

/** What the bench reads of a finding: the CONTRACT section 6 fields, read defensively. */
interface SeenFinding {
  class?: string;
  /** How sure the finding says its class is (high, medium, low). */
  confidence?: string;
  /** The rule's own level when calibration lowered `confidence` (core/finding/calibration.ts). */
  rules_confidence?: string;
  /** The rule's class when calibration set it aside (a medium or low class the words did not support; class `unknown`). */
  rules_class?: string;
  message?: string;
  file?: string;
  line?: number;
  chain: { file: string; line?: number }[];
  test?: string;
  /** `likely_class.class` of an unknown finding: the class model's guess (core/finding/classModel.ts). */
  likely?: string;
}

export interface CaseResult {
  id: string;
  family: string;
  split: 'dev' | 'heldout';
  /** `tune3`: a tuning case a tuner built (plan-tune3.tsv). */
  origin?: string;
  /** The held-out round that added the case (1 when it names none). */
  round: number;
  expectedClass: string;
  finding: SeenFinding | null;
  classRight: boolean;
  /** An unknown finding whose likely class (a guess) is the expected class. */
  likelyRight: boolean;
  /** An unknown finding whose likely class is not the expected class. */
  likelyWrong: boolean;
  messageRight: boolean;
  locationRight: boolean;
  locationInChain: boolean;
  fixDiffers: boolean;
  fixUseful: boolean;
  missingMentions: string[];
  falseClaims: string[];
  why: string;
  fix: string;
}


const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const norm = (s: string): string => s.replace(/\s+/g, ' ').trim();
const base = (p: string): string => p.slice(p.replace(/\\/g, '/').lastIndexOf('/') + 1);


/** The rounds among `rows`, ascending. */
function roundsOf(rows: CaseResult[]): number[] {
  return [...new Set(rows.map((r) => r.round))].sort((a, b) => a - b);
}

/** The finding of an excerpt, as far as it has the CONTRACT's shape; null without one. */
export function seenFinding(excerpt: LogExcerpt | undefined): SeenFinding | null {
  const f: unknown = excerpt ? (excerpt as unknown as Record<string, unknown>).finding : undefined;
  if (!isDict(f)) return null;
  const seen: SeenFinding = { class: str(f.class), confidence: str(f.confidence), message: str(f.message), chain: [] };
  if (typeof f.rules_confidence === 'string') seen.rules_confidence = f.rules_confidence;
  if (typeof f.rules_class === 'string') seen.rules_class = f.rules_class;
  const loc = f.location;
  if (isDict(loc)) {
    seen.file = str(loc.file);
    seen.line = num(loc.line);
    const frames = loc.frames;
    // CONTRACT section 6 names the frames; they come as {raise, project} or as a list.
    const list: unknown[] = Array.isArray(frames) ? frames : isDict(frames) ? [frames.raise, frames.project] : [];
    for (const fr of list) {
      if (isDict(fr) && typeof fr.file === 'string') seen.chain.push({ file: fr.file, line: num(fr.line) });
    }
  }
  const test = f.test;
  seen.test = isDict(test) ? str(test.name) : str(test);
  const likely = f.likely_class;
  if (isDict(likely) && typeof likely.class === 'string') seen.likely = likely.class;
  return seen;
}

export function messageRight(expected: string, got: string | undefined): boolean {
  if (!got) return false;
  const e = norm(expected);
  const g = norm(got);
  if (g.length === 0) return false;
  return g.includes(e) || (e.includes(g) && g.length * 2 >= e.length);
}

function locationMatches(expected: Expected['location'], file: string | undefined, line: number | undefined): boolean {
  if (expected === null) return line === undefined;
  return file !== undefined && base(file) === base(expected.file) && line === expected.line;
}

async function answer(engine: ReturnType<typeof createLocalEngine>, question: string, context: ChatContext): Promise<string> {
  const stream = await engine.answer({ question, history: [], context, signal: new AbortController().signal });
  let text = '';
  for await (const piece of stream.pieces) text += piece;
  return text;
}

export interface RunOptions {
  workspace: boolean;
  baseline: boolean;
  /** The case's breaking commit as the build's changes (`--changes`): its files from commit.diff, a neutral message. */
  changes?: boolean;
  /** A throw-away git checkout per case (`--git`: bench/gitCheckout.ts): snippets from it and its last commit as `workspaceChanges`. */
  git?: boolean;
}

/**
 * The build's changes as Jenkins' changelog gives them (jenkins/changes.ts: `files` as `M path`):
 * the files of commit.diff's `diff --git a/x b/y` headers (A for a new file, D for a deleted one,
 * R for a rename), under a neutral commit id and message that say nothing of the fix.
 */
export function changesOfDiff(diff: string): { commitId: string; message: string; files: string[] }[] {
  const files: string[] = [];
  const blocks = diff.split(/^(?=diff --git )/m).filter((b) => b.startsWith('diff --git '));
  for (const b of blocks) {
    const head = /^diff --git a\/(\S+) b\/(\S+)/.exec(b);
    if (!head) continue;
    const [from, to] = [head[1] as string, head[2] as string];
    const status = /^new file mode/m.test(b) ? 'A' : /^deleted file mode/m.test(b) ? 'D' : from !== to ? 'R100' : 'M';
    files.push(status.startsWith('R') ? `${status} ${from} -> ${to}` : `${status} ${status === 'D' ? from : to}`);
  }
  return files.length > 0 ? [{ commitId: '5e1f2c3d4b5a69788796a5b4c3d2e1f0a9b8c7d6', message: 'The change built by this build', files: files.slice(0, 20) }] : [];
}

/** The excerpts `cichat analyze FAIL --baseline PASS --json` prints, and the context an upload makes. */
export async function contextOf(c: RealCase, opts: RunOptions): Promise<{ excerpts: LogExcerpt[]; context: ChatContext }> {
  const lines = cleanLines(c.failLog);
  const baseline = opts.baseline ? await baselineFromStream(Readable.from([c.passLog])) : undefined;
  const excerpts = analyzeLines(lines, baseline ? { baseline } : {});
  const stored = `${lines.join('\n')}\n`;
  const checkout = opts.workspace && opts.git ? throwAwayCheckout(c.dir) : undefined;
  let snippets: Awaited<ReturnType<typeof snippetsFromDir>>;
  let workspaceChanges: Awaited<ReturnType<typeof checkoutChanges>>;
  try {
    snippets = opts.workspace ? await snippetsFromDir(checkout?.dir ?? path.join(c.dir, 'project'), c.failLog) : [];
    // As `cichat ask --workspace` reads it (cli/commands/ask.ts): no last green commit known, so the last commit.
    if (checkout) workspaceChanges = await checkoutChanges(checkout.dir, { named: namedPaths(snippets), workspaceId: 'local', gitFileAllowed: true });
  } finally {
    checkout?.remove();
  }
  const ciContext = {
    jobDetails: { name: c.expected.id, fullName: `realfail/${c.expected.id}` },
    buildDetails: {
      number: 2,
      result: 'FAILURE',
      consoleLog: stored,
      previousBuild: { number: 1, result: 'SUCCESS' },
      ...(opts.baseline ? { lastSuccessfulBuild: { number: 1, result: 'SUCCESS', comparedLogLines: cleanLines(c.passLog).length } } : {}),
      ...(opts.changes && existsSync(path.join(c.dir, 'commit.diff')) ? { changes: changesOfDiff(readFileSync(path.join(c.dir, 'commit.diff'), 'utf8')) } : {}),
    },
    ...(snippets.length > 0 ? { workspaceSnippets: snippets } : {}),
    ...(workspaceChanges ? { workspaceChanges } : {}),
  } as unknown as CiContext;
  const context: ChatContext = {
    ciContext,
    uploadedAt: '2026-11-24T18:00:00.000Z',
    logLineCount: lines.length,
    failureExcerpts: excerpts.map((e) => ({ ...e, text: excerptText(lines, e) })),
    retrieve: termRetriever(stored),
  };
  return { excerpts, context };
}

/**
 * What an answer claims: its text without fenced blocks, which quote a file of the workspace or lines
 * of the log verbatim (a project's source may well hold `timeout`, `link` or `assertion`). Prose and
 * inline code count.
 */
export function claimText(answer: string): string {
  return answer.replace(/```[^\n]*\n[\s\S]*?```/g, '');
}

export async function runCase(c: RealCase, opts: RunOptions): Promise<CaseResult> {
  const e = c.expected;
  const { excerpts, context } = await contextOf(c, opts);
  const finding = seenFinding(excerpts[0]);
  const engine = createLocalEngine({ typingDelayMs: 0 });
  const why = await answer(engine, WHY, context);
  const fix = await answer(engine, FIX, context);
  const fixLower = fix.toLowerCase();
  const missingMentions = e.fixMustMention.filter((t) => !fixLower.includes(t.toLowerCase()));
  const fixDiffers = norm(fix) !== norm(why);
  const both = claimText(`${why}\n${fix}`).toLowerCase();
  const locationRight = finding !== null && locationMatches(e.location, finding.file, finding.line);
  return {
    id: e.id,
    family: e.family,
    split: e.split,
    ...(e.origin ? { origin: e.origin } : {}),
    round: e.round ?? 1,
    expectedClass: e.class,
    finding,
    classRight: finding?.class === e.class,
    likelyRight: finding?.class === 'unknown' && finding.likely === e.class,
    likelyWrong: finding?.class === 'unknown' && finding.likely !== undefined && finding.likely !== e.class,
    messageRight: messageRight(e.message, finding?.message),
    locationRight,
    locationInChain:
      locationRight || (finding !== null && e.location !== null && finding.chain.some((fr) => locationMatches(e.location, fr.file, fr.line))),
    fixDiffers,
    fixUseful: fixDiffers && missingMentions.length === 0,
    missingMentions,
    falseClaims: e.mustNotClaim.filter((p) => both.includes(p.toLowerCase())),
    why,
    fix,
  };
}

export interface SplitFigures {
  n: number;
  noFinding: number;
  classRight: number;
  /** Class right, or unknown with the expected class as its likely class (a guess, counted apart). */
  classRightInclLikely: number;
  /** Unknown findings whose likely class is another. */
  likelyWrong: number;
  messageRight: number;
  locationRight: number;
  locationInChain: number;
  fixDiffers: number;
  fixUseful: number;
  falseClaimCases: number;
}

export function figuresOf(results: readonly CaseResult[]): SplitFigures {
  const count = (p: (r: CaseResult) => boolean) => results.filter(p).length;
  return {
    n: results.length,
    noFinding: count((r) => r.finding === null),
    classRight: count((r) => r.classRight),
    classRightInclLikely: count((r) => r.classRight || r.likelyRight),
    likelyWrong: count((r) => r.likelyWrong),
    messageRight: count((r) => r.messageRight),
    locationRight: count((r) => r.locationRight),
    locationInChain: count((r) => r.locationInChain),
    fixDiffers: count((r) => r.fixDiffers),
    fixUseful: count((r) => r.fixUseful),
    falseClaimCases: count((r) => r.falseClaims.length > 0),
  };
}

const pct = (k: number, n: number): string => (n === 0 ? '-' : `${k}/${n} (${((100 * k) / n).toFixed(0)} %)`);

function printFigures(name: string, f: SplitFigures): void {
  console.log(`\n${name}: ${f.n} cases${f.noFinding > 0 ? `, ${f.noFinding} with no finding` : ''}`);
  console.log(`  class right        ${pct(f.classRight, f.n)}`);
  console.log(`    incl. likely     ${pct(f.classRightInclLikely, f.n)}   (likely class wrong: ${f.likelyWrong})`);
  console.log(`  message right      ${pct(f.messageRight, f.n)}`);
  console.log(`  location right     ${pct(f.locationRight, f.n)}   (in the location chain: ${pct(f.locationInChain, f.n)})`);
  console.log(`  fix differs        ${pct(f.fixDiffers, f.n)}`);
  console.log(`  fix useful         ${pct(f.fixUseful, f.n)}`);
  console.log(`  false claims       ${f.falseClaimCases} case${f.falseClaimCases === 1 ? '' : 's'}`);
}

const mark = (ok: boolean): string => (ok ? 'ok' : '--');

function printRow(r: CaseResult): void {
  const got = r.finding === null ? 'no finding' : `${r.finding.class ?? '?'}${r.finding.likely ? ` (likely ${r.finding.likely})` : ''}${r.finding.file ? ` @ ${base(r.finding.file)}:${r.finding.line ?? '-'}` : ''}`;
  console.log(
    `  ${r.id.padEnd(32)} ${r.expectedClass.padEnd(22)} class ${mark(r.classRight)}  msg ${mark(r.messageRight)}  loc ${mark(r.locationRight)}  fix ${mark(r.fixUseful)}${r.fixDiffers ? '' : ' (same as why)'}` +
      `${r.falseClaims.length ? `  CLAIMS ${JSON.stringify(r.falseClaims)}` : ''}  [${got}]${r.missingMentions.length ? `  fix lacks ${JSON.stringify(r.missingMentions)}` : ''}`,
  );
}

export async function run(args: string[]): Promise<void> {
  const dir = path.resolve(flag(args, 'data') ?? defaultRealfailDir());
  const opts: RunOptions = { workspace: !args.includes('--log-only'), baseline: !args.includes('--log-only') && !args.includes('--no-baseline'), changes: args.includes('--changes'), git: args.includes('--git') };
  // --tuning: a later round's held-out cases are not read at all (nothing of them can be printed).
  const tuning = args.includes('--tuning');
  const laterRounds: string[] = [];
  const cases = await loadRealCases(dir, { tuning, leftOut: laterRounds });
  const leftOut = laterRounds.length;
  const show = flag(args, 'show');
  if (show !== undefined) {
    const c = cases.find((x) => x.expected.id === show);
    if (!c) throw new Error(`--show ${show}: no such case in ${dir}${tuning ? ' (or a later round left out by --tuning)' : ''}`);
    if (c.expected.split === 'heldout' && !args.includes('--show-heldout')) {
      throw new Error(`--show ${show}: a held-out case (not for tuning); add --show-heldout to see it anyway`);
    }
    const r = await runCase(c, opts);
    const { why, fix, ...rest } = r;
    console.log(JSON.stringify(rest, null, 2));
    console.log(`\n--- ${WHY}\n${why}\n\n--- ${FIX}\n${fix}`);
    return;
  }
  const results: CaseResult[] = [];
  for (const c of cases) results.push(await runCase(c, opts));
  const dev = results.filter((r) => r.split === 'dev');
  const heldout = results.filter((r) => r.split === 'heldout');
  const families = new Set(cases.map((c) => c.expected.family));
  if (args.includes('--json')) {
    console.log(
      JSON.stringify(
        {
          data: dir,
          options: opts,
          ...(tuning ? { tuning: { leftOut } } : {}),
          dev: figuresOf(dev),
          heldout: figuresOf(heldout),
          heldoutByRound: Object.fromEntries(roundsOf(heldout).map((n) => [String(n), figuresOf(heldout.filter((r) => r.round === n))])),
          cases: (args.includes('--show-heldout') ? results : dev).map(({ why: _w, fix: _f, ...rest }) => rest),
        },
        null,
        2,
      ),
    );
    return;
  }
  console.log(`Real failures: ${cases.length} cases, ${families.size} tool families (${dir})`);
  if (tuning) console.log(`--tuning: ${leftOut} case(s) of later held-out rounds left out, not run`);
  console.log(`context: the log${opts.baseline ? ', the passing build as baseline' : ''}${opts.workspace ? ', workspace snippets from project/' : ''}${opts.changes ? ", the breaking commit's files as the build's changes" : ''}${opts.git ? ', a git checkout of project/ whose last commit is commit.diff (workspaceChanges)' : ''}`);
  printFigures('dev', figuresOf(dev));
  for (const origin of ['tune3', 'tune4', 'tune5', 'tune6', 'tune7']) {
    const built = dev.filter((r) => r.origin === origin);
    if (built.length > 0) printFigures(`dev, of which built by a tuner (origin ${origin})`, figuresOf(built));
  }
  printFigures('heldout', figuresOf(heldout));
  // Each held-out round on its own: only the current one (HELDOUT_ROUND) was never tuned on.
  for (const n of roundsOf(heldout)) {
    printFigures(`heldout round ${n}${n >= HELDOUT_ROUND ? ' (held out now)' : ' (tuned on since)'}`, figuresOf(heldout.filter((r) => r.round === n)));
  }
  if (args.includes('--by-confidence')) {
    // Aggregates only (held-out rounds included: counts, no case): is a class said at `high` right more often than one at `low`?
    console.log('\nby the finding\'s confidence: cases, class right (of them unknown)');
    for (const [name, rows] of [['dev', dev], ...roundsOf(heldout).map((n) => [`heldout round ${n}`, heldout.filter((r) => r.round === n)] as const)] as const) {
      const parts = ['high', 'medium', 'low'].map((level) => {
        const at = rows.filter((r) => r.finding?.confidence === level);
        return `${level} ${at.filter((r) => r.classRight).length}/${at.length} (${at.filter((r) => r.finding?.class === 'unknown').length} unknown)`;
      });
      // The rules' `high` that calibration lowered to medium (core/finding/calibration.ts): how often their class was right.
      const lowered = rows.filter((r) => r.finding?.rules_confidence === 'high');
      // A rule's medium or low class set aside as unknown (calibration.ts `supported`): how often that class was the expected one.
      const aside = rows.filter((r) => r.finding?.rules_class !== undefined);
      const asideRight = aside.filter((r) => r.finding?.rules_class === r.expectedClass).length;
      console.log(`  ${name.padEnd(20)} ${parts.join('   ')}   (medium lowered from high ${lowered.filter((r) => r.classRight).length}/${lowered.length}; medium/low class set aside, it was right ${asideRight}/${aside.length})`);
    }
  }
  if (args.includes('--by-class')) {
    console.log('\nper class (dev): cases, class right, location right, fix useful, false-claim cases');
    for (const cls of FINDING_CLASSES) {
      const rows = dev.filter((r) => r.expectedClass === cls);
      if (rows.length === 0) continue;
      const f = figuresOf(rows);
      console.log(`  ${cls.padEnd(24)} ${String(f.n).padStart(2)}  class ${f.classRight}/${f.n}  loc ${f.locationRight}/${f.n}  fix ${f.fixUseful}/${f.n}  claims ${f.falseClaimCases}`);
    }
  }
  if (args.includes('--verbose')) {
    const shown = args.includes('--show-heldout') ? [['dev', dev] as const, ['heldout', heldout] as const] : [['dev', dev] as const];
    for (const [name, rows] of shown) {
      console.log(`\n${name} cases:`);
      for (const r of rows) printRow(r);
    }
  }
}
