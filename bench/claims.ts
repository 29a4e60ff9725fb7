/**
 * Adversarial review of the offline engine's answers (issue 25, Deliver 2: "say only what the
 * evidence says"): asks the questions a tired engineer asks of every tuning log and checks each
 * answer for sentences the log, the context or the workspace does not support.
 *
 *   npm run bench -- claims --tuning [--dump DIR] [--only realfail|jenkins|logchunks] [--every N]
 *                                    [--show KIND] [--json]
 *
 * Data (tuning only; `--tuning` is required so no held-out round is ever read):
 * - test/fixtures/realfail cases of rounds 1-5 (`loadRealCases(..., {tuning: true})`), each as
 *   three uploads: the log alone; the log and the project as workspace; the log, the workspace
 *   and pass.log as the last green build's baseline;
 * - test/fixtures/jenkins-console logs whose `round` is below the held-out round (dev, round 2,
 *   tune3*), the log alone;
 * - ../shared/data/logchunks-dev logs (every `--every`-th example, default 8), the log alone.
 *
 * Checks (test/helpers/claimChecks.ts, shared with test/answer-claims.test.ts): every citation `[La-Lb]` lies in the log and the text quoted
 * with it is on those lines; and sentence kinds that need evidence the answer must have had
 * (an assertion, a linker error called a compile error, "returned" without a value, flakiness
 * or history without a previous build, "the last change" without commits, ...).
 * `--dump DIR` writes every answer to DIR/<data>/<case>.md for reading.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ChatContext } from '../backend/answer/engine.js';
import { composeLocalAnswer } from '../backend/answer/local/index.js';
import { analyzeLines, excerptText } from '../core/log/analyze.js';
import { baselineFromStream } from '../core/log/baseline.js';
import { cleanLines } from '../core/log/clean.js';
import { snippetsFromDir } from '../cli/snippets.js';
import type { CiContext } from '../protocol/types.js';
import { termRetriever } from '../test/answerFixtures.js';
import { checkAnswer, type Problem } from '../test/helpers/claimChecks.js';
import { defaultRealfailDir, loadRealCases } from './findings.js';
import { defaultData } from './ranker.js';

export const QUESTIONS = [
  'Why did the build fail?',
  'How do I fix it?',
  'Which test failed?',
  'Where is the error?',
  'What changed since the last green build?',
  'Is this flaky?',
  'Was it the infrastructure or the code?',
  'Show me the stack trace',
  'What does this error mean?',
  'Can I just retry?',
] as const;

/** The jenkins-console held-out round being measured now: never read here. */
const JENKINS_HELDOUT_ROUND = 10;

interface Upload {
  data: 'realfail' | 'jenkins' | 'logchunks';
  id: string;
  variant: string;
  log: string[];
  context: ChatContext;
}

function contextOf(lines: string[], extra: Record<string, unknown>): ChatContext {
  const stored = `${lines.join('\n')}\n`;
  return {
    ciContext: { ...extra, buildDetails: { result: 'FAILURE', consoleLog: stored, ...((extra.buildDetails as object | undefined) ?? {}) } } as unknown as CiContext,
    uploadedAt: '2026-11-24T18:00:00.000Z',
    logLineCount: lines.length,
    failureExcerpts: [],
    retrieve: termRetriever(stored),
  };
}

async function realfailUploads(): Promise<Upload[]> {
  const cases = await loadRealCases(defaultRealfailDir(), { tuning: true });
  const out: Upload[] = [];
  for (const c of cases) {
    const lines = cleanLines(c.failLog);
    const snippets = await snippetsFromDir(path.join(c.dir, 'project'), c.failLog);
    const baseline = await baselineFromStream(Readable.from([c.passLog]));
    const variants: [string, Record<string, unknown>, boolean][] = [
      ['log', {}, false],
      ['workspace', snippets.length > 0 ? { workspaceSnippets: snippets } : {}, false],
      ['workspace+green', { ...(snippets.length > 0 ? { workspaceSnippets: snippets } : {}), buildDetails: { number: 2, lastSuccessfulBuild: { number: 1, result: 'SUCCESS', comparedLogLines: cleanLines(c.passLog).length } } }, true],
    ];
    for (const [variant, extra, withBaseline] of variants) {
      const context = contextOf(lines, extra);
      context.failureExcerpts = analyzeLines(lines, withBaseline ? { baseline } : {}).map((e) => ({ ...e, text: excerptText(lines, e) }));
      out.push({ data: 'realfail', id: c.expected.id, variant, log: lines, context });
    }
  }
  return out;
}

async function jenkinsUploads(): Promise<Upload[]> {
  const dir = path.join(process.cwd(), 'test', 'fixtures', 'jenkins-console');
  const entries = (await readFile(path.join(dir, 'index.jsonl'), 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { id: string; file: string; split: string; round?: number })
    .filter((e) => (e.round ?? 1) < JENKINS_HELDOUT_ROUND && (e.split === 'dev' || e.split === 'held'));
  const out: Upload[] = [];
  for (const e of entries) {
    const lines = cleanLines(await readFile(path.join(dir, e.file), 'utf8'));
    const context = contextOf(lines, {});
    context.failureExcerpts = analyzeLines(lines).map((x) => ({ ...x, text: excerptText(lines, x) }));
    out.push({ data: 'jenkins', id: e.id, variant: 'log', log: lines, context });
  }
  return out;
}

async function logchunksUploads(every: number): Promise<Upload[]> {
  const dir = defaultData();
  if (!existsSync(path.join(dir, 'index.jsonl'))) return [];
  const entries = (await readFile(path.join(dir, 'index.jsonl'), 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { id: string; log: string })
    .filter((_, i) => i % every === 0);
  const out: Upload[] = [];
  for (const e of entries) {
    const lines = cleanLines(await readFile(path.join(dir, e.log), 'utf8'));
    const context = contextOf(lines, {});
    context.failureExcerpts = analyzeLines(lines).map((x) => ({ ...x, text: excerptText(lines, x) }));
    out.push({ data: 'logchunks', id: e.id, variant: 'log', log: lines, context });
  }
  return out;
}

export async function run(args: string[]): Promise<void> {
  if (!args.includes('--tuning')) throw new Error('claims reads tuning data only: run it with --tuning');
  const opt = (name: string): string | undefined => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const dump = opt('--dump');
  const only = opt('--only');
  const show = opt('--show');
  const every = Number(opt('--every') ?? 8);
  const uploads = [
    ...(only === undefined || only === 'realfail' ? await realfailUploads() : []),
    ...(only === undefined || only === 'jenkins' ? await jenkinsUploads() : []),
    ...(only === undefined || only === 'logchunks' ? await logchunksUploads(every) : []),
  ];
  const problems: (Problem & { data: string; id: string; variant: string; question: string })[] = [];
  let asked = 0;
  for (const u of uploads) {
    const parts: string[] = [];
    for (const question of QUESTIONS) {
      const { text } = await composeLocalAnswer(question, u.context);
      asked++;
      const found = checkAnswer(question, text, u.log, u.context);
      for (const p of found) problems.push({ ...p, data: u.data, id: u.id, variant: u.variant, question });
      parts.push(`## ${question}\n\n${text}\n${found.map((p) => `\n> PROBLEM ${p.kind}: ${p.detail}`).join('')}\n`);
    }
    if (dump) {
      const file = path.join(dump, u.data, `${u.id.replace(/[^\w.-]+/g, '_')}.${u.variant}.md`);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, parts.join('\n'));
    }
  }
  const byKind = new Map<string, number>();
  for (const p of problems) byKind.set(p.kind, (byKind.get(p.kind) ?? 0) + 1);
  if (args.includes('--json')) {
    console.log(JSON.stringify({ uploads: uploads.length, asked, problems: Object.fromEntries(byKind) }, null, 2));
    return;
  }
  const perData = (d: string) => uploads.filter((u) => u.data === d).length;
  console.log(`claims: ${QUESTIONS.length} questions x ${uploads.length} uploads = ${asked} answers (realfail ${perData('realfail')}, jenkins ${perData('jenkins')}, logchunks ${perData('logchunks')}); --tuning: no held-out round read`);
  console.log(`unsupported or mis-cited sentences: ${problems.length}`);
  for (const [kind, n] of [...byKind].sort((a, b) => b[1] - a[1])) console.log(`  ${kind.padEnd(28)} ${n}`);
  if (show) {
    for (const p of problems.filter((x) => show === 'all' || x.kind === show)) console.log(`\n[${p.kind}] ${p.data}/${p.id} (${p.variant}) "${p.question}": ${p.detail}`);
  }
}
