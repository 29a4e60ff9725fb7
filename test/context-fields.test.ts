/**
 * Question tables generated from the CiContext field table (test/helpers/ciFields.ts, CONTRACT
 * section 2): for every field, each of its phrasings is asked of the offline engine with the
 * fact present and absent, in the original plugin's shape and in the alias shape; and every
 * fact appears in the openai engine's prompt.
 */
import type { ChatContext } from '../backend/answer/engine.js';
import { composeLocalAnswer } from '../backend/answer/local.js';
import { contextFactLines } from '../backend/answer/prompt.js';
import { saneCiContext } from '../backend/answer/sanitize.js';
import { ciContextSchema, normaliseCiContext } from '../protocol/schemas.js';
import { normaliseCiContext as issue14Normaliser } from '../backend/migrations/011_canonical_contexts.js';
import type { CiContext } from '../protocol/types.js';
import { analyzedChatContext } from './answerFixtures.js';
import { ABSENT_DEFAULT, FIELD_TABLE, caseContext, contextOfShape, getPath, originalPluginContext, type FieldRow, type Shape } from './helpers/ciFields.js';

const SHAPES: Shape[] = ['original', 'alias'];

function chatContext(ci: Record<string, unknown>, log?: string): ChatContext {
  if (log !== undefined) return analyzedChatContext(ci, log);
  return { ciContext: ci as CiContext, uploadedAt: '2026-11-22T02:10:00.000Z', logLineCount: 0, failureExcerpts: [], retrieve: async () => [] };
}

function check(text: string, wants: (RegExp | string)[], present: boolean, where: string): void {
  for (const want of wants) {
    const ok = typeof want === 'string' ? text.includes(want) : want.test(text);
    if (ok !== present) throw new Error(`${where}: expected the answer ${present ? 'to show' : 'not to show'} ${String(want)}\n--- answer ---\n${text}`);
  }
}

describe('the field table', () => {
  it('has at least three phrasings for every field, and every field is in the original plugin fixture', () => {
    const fixture = originalPluginContext();
    for (const row of FIELD_TABLE) {
      expect(row.questions.length).toBeGreaterThanOrEqual(3);
      if (!row.optIn) expect([row.field, getPath(fixture, row.field)]).not.toEqual([row.field, undefined]);
    }
  });

  it('covers every field of the contract table', () => {
    const fields = new Set(FIELD_TABLE.map((r) => r.field));
    for (const field of [
      'currentScreen', 'ciVersion', 'rootUrl', 'systemMessage', 'activePlugins', 'plugins', 'masterNode.executors', 'masterNode.isOnline',
      'masterNode.systemInfo', 'agentStats.onlineAgents', 'agentStats.offlineAgents', 'agentStats.agents', 'jobDetails.fullName',
      'jobDetails.jobType', 'jobDetails.url', 'jobDetails.isBuildable', 'jobDetails.inQueue', 'jobDetails.healthScore',
      'jobDetails.description', 'jobDetails.configXml', 'jobDetails.isPipeline', 'jobDetails.concurrentBuild',
      'jobDetails.upstreamProjects', 'jobDetails.downstreamProjects', 'buildDetails.number', 'buildDetails.result',
      'buildDetails.duration', 'buildDetails.timestamp', 'buildDetails.causes', 'buildDetails.parameters', 'buildDetails.testResults',
      'buildDetails.builtOnNode', 'buildDetails.changes', 'buildDetails.consoleLog', 'buildDetails.previousBuild',
      'buildDetails.lastSuccessfulBuild', 'ciEnvironment.GIT_COMMIT', 'ciEnvironment.GIT_BRANCH', 'ciEnvironment.NODE_NAME',
      'ciEnvironment.BUILD_NUMBER', 'ciEnvironment.JOB_NAME', 'contextParsingError',
    ]) {
      expect([field, fields.has(field)]).toEqual([field, true]);
    }
  });

  it.each(SHAPES)('the %s shape passes the upload schema and normalises to the same canonical context', (shape) => {
    const ci = contextOfShape(shape);
    expect(ciContextSchema.safeParse(ci).success).toBe(true);
    const canonical = normaliseCiContext(ci);
    const fromOriginal = normaliseCiContext(originalPluginContext());
    // The shapes carry the same facts: their canonical forms agree field by field.
    for (const row of FIELD_TABLE.filter((r) => !r.optIn)) {
      if (row.field === 'plugins') continue; // the alias shape's array has no `pinned`
      if (row.field === 'buildDetails.causes') continue; // the alias shape's causes carry user ids besides
      if (row.field === 'masterNode.systemInfo') continue; // Java property names there, kept as sent
      if (row.field === 'agentStats.agents') continue; // labels as a string there, split
      if (row.field === 'buildDetails.previousBuild' || row.field === 'buildDetails.lastSuccessfulBuild') continue;
      expect([row.field, getPath(canonical as Record<string, unknown>, row.field)]).toEqual([row.field, getPath(fromOriginal as Record<string, unknown>, row.field)]);
    }
    expect(canonical.activePlugins).toEqual({
      git: '5.2.1',
      'git-client': '4.6.0',
      'workflow-aggregator': '596.v8c21c963d92d',
      'docker-workflow': '572.v950f58993843',
      junit: '1265.v65b_14fa_f12f0',
    });
    expect(canonical.buildDetails?.parameters).toEqual({ TARGET_ENV: 'staging', DEPLOY_PASSWORD: '****', DRY_RUN: false });
    expect(canonical.buildDetails?.causes?.[0]?.shortDescription).toBe('Started by user Alice Martin');
    expect(canonical.buildDetails?.previousBuild).toMatchObject({ number: 41, result: 'FAILURE', duration: 185000 });
  });
});

describe('the codec reads as the hand normaliser it replaced (issue 31)', () => {
  const json = (v: unknown): unknown => JSON.parse(JSON.stringify(v));
  it.each(SHAPES)('the %s shape: the same canonical context as migration 011\'s frozen normaliser, and reading it again changes nothing', (shape) => {
    const ci = contextOfShape(shape);
    const canonical = ciContextSchema.parse(ci);
    expect(json(canonical)).toEqual(json(issue14Normaliser(ci)));
    expect(json(normaliseCiContext(ci))).toEqual(json(canonical));
    expect(json(normaliseCiContext(canonical))).toEqual(json(canonical));
  });

  it('reads odd values as the old normaliser did (coerced when an obvious spelling, else dropped)', () => {
    // One known difference: a change's non-string commitId was kept by the old normaliser and
    // dropped by the engines' old sanitize; the codec drops it at once.
    const odd: unknown[] = [
      { jobDetails: { upstreamProjects: ['a', { fullName: 'f/b' }, 3], downstreamProjects: 'x, y', inQueue: 'true', healthScore: '80' }, ciEnvironment: { BUILD_NUMBER: 42, DRY: true, BAD: { x: 1 } }, custom: { kept: 1 } },
      { activePlugins: [null, 1, 'a', { shortName: 'git', version: 5 }], buildDetails: { previousBuild: 'x', causes: [null, { userId: 'al' }], parameters: [{ value: 1 }] }, agentStats: { agents: [null, { name: 'a1' }] } },
      { activePlugins: 'git', masterNode: 4, buildDetails: [] },
      { buildDetails: { duration: '3 min', durationMs: 180000 } },
      { activePlugins: { git: true, ant: '1' } },
      { buildDetails: { causes: [{ shortDescription: 5 }], testResults: { failed: '2', total: 'x' } } },
      { agentStats: { agents: [{ name: 'a', labels: 'x y', online: 'true', executors: '2' }], onlineAgents: '3' } },
      { plugins: [{ shortName: ' ', version: 1 }, { shortName: 'git', enabled: 'false' }] },
      { ciVersion: '', jenkinsVersion: '2.1', currentScreen: 5 },
      null,
      [1],
    ];
    for (const value of odd) expect([value, json(normaliseCiContext(value))]).toEqual([value, json(issue14Normaliser(value))]);
  });
});

const cases: [string, FieldRow, Shape, boolean, string][] = [];
for (const row of FIELD_TABLE) {
  for (const shape of SHAPES) {
    for (const present of [true, false]) {
      for (const question of row.questions) cases.push([`${row.field} · ${shape} · ${present ? 'present' : 'absent'} · ${question}`, row, shape, present, question]);
    }
  }
}

describe('every field answers in the offline engine, present and absent, in both shapes', () => {
  it.each(cases)('%s', async (_name, row, shape, present, question) => {
    const { ci, log } = caseContext(row, shape, present);
    const answer = await composeLocalAnswer(question, chatContext(ci, log));
    const where = `${row.field} (${shape}, ${present ? 'present' : 'absent'}) "${question}"`;
    expect(answer.text).not.toMatch(/undefined|\[object Object\]|NaN/);
    if (present) {
      check(answer.text, row.present, true, where);
    } else {
      check(answer.text, row.absent ?? ABSENT_DEFAULT, true, where);
      check(answer.text, row.notWhenAbsent ?? row.present.filter((w) => typeof w === 'string'), false, where);
    }
  });
});

/** What the prompt shows for each field when present (the model answers from these lines). */
const PROMPT: Record<string, (RegExp | string)[]> = {
  currentScreen: ["User's current page: Console team/api #42"],
  ciVersion: ['Jenkins version: 2.440.3'],
  rootUrl: ['Root URL: https://ci.example.com/'],
  systemMessage: ['System message: Maintenance window Sunday'],
  activePlugins: ['git 5.2.1', 'docker-workflow 572.v950f58993843'],
  plugins: ['blueocean 1.27.9 (disabled)'],
  'masterNode.executors': ['2 executors'],
  'masterNode.isOnline': ['Built-in node: online'],
  'masterNode.systemInfo': ['Linux', '17.0.9'],
  'agentStats.onlineAgents': ['Agents: 2 online'],
  'agentStats.offlineAgents': ['1 offline'],
  'agentStats.agents': ['windows-agent-1 2 executors [windows]: Disconnected by admin: patching'],
  'jobDetails.fullName': ['Job: team/api'],
  'jobDetails.jobType': ['WorkflowJob'],
  'jobDetails.url': ['Job URL: https://ci.example.com/job/team/job/api/'],
  'jobDetails.isBuildable': ['buildable'],
  'jobDetails.inQueue': ['IN THE QUEUE'],
  'jobDetails.healthScore': ['health 60%'],
  'jobDetails.description': ['Job description: Builds and deploys the orders API service.'],
  'jobDetails.configXml': ['https://github.com/acme/orders-api.git'],
  'jobDetails.isPipeline': ['a pipeline'],
  'jobDetails.concurrentBuild': ['no concurrent builds'],
  'jobDetails.upstreamProjects': ['Upstream projects: team/lib-core'],
  'jobDetails.downstreamProjects': ['Downstream projects: team/deploy-staging, team/smoke-tests'],
  'buildDetails.number': ['Build: build #42'],
  'buildDetails.result': ['result FAILURE'],
  'buildDetails.duration': ['took 3 min 12 s'],
  'buildDetails.timestamp': ['started 2025-11-22T08:26:40.000Z'],
  'buildDetails.causes': ['Causes: Started by user Alice Martin'],
  'buildDetails.parameters': ['Parameters: TARGET_ENV=staging, DEPLOY_PASSWORD=****, DRY_RUN=false'],
  'buildDetails.testResults': ['Tests: 120 total, 3 failed, 2 skipped'],
  'buildDetails.builtOnNode': ['built on linux-agent-1'],
  'buildDetails.changes': ['Changes: 9f8e7d6c5b "Apply the discount before tax in OrderTotals" by Bob Chen'],
  'buildDetails.previousBuild': ['Previous build: #41, result FAILURE, took 3 min 5 s'],
  'buildDetails.lastSuccessfulBuild': ['Last successful build: #40, result SUCCESS'],
  'ciEnvironment.GIT_COMMIT': ['GIT_COMMIT=a1b2c3d4e5f60718293a4b5c6d7e8f9012345678'],
  'ciEnvironment.GIT_BRANCH': ['GIT_BRANCH=origin/release-2.1'],
  'ciEnvironment.NODE_NAME': ['NODE_NAME=linux-agent-1'],
  'ciEnvironment.BUILD_NUMBER': ['BUILD_NUMBER=42'],
  'ciEnvironment.JOB_NAME': ['JOB_NAME=team/api'],
  'ciEnvironment.GIT_URL': ['GIT_URL=https://github.com/acme/orders-api.git'],
  contextParsingError: ['Context problem reported by the client: Could not read the workspace'],
};

describe('every fact appears in the openai prompt', () => {
  const rows = FIELD_TABLE.filter((r) => !r.optIn);
  it.each(SHAPES.flatMap((shape) => rows.map((row) => [row.field, shape, row] as const)))('%s (%s shape)', (field, shape, row) => {
    const wants = PROMPT[field];
    expect(wants).toBeDefined();
    const { ci } = caseContext(row, shape, true);
    const text = contextFactLines(saneCiContext(ci), 100_000).join('\n');
    check(text, wants ?? [], true, `prompt ${field} (${shape})`);
  });

  it('states an absent system message from a server as none set', () => {
    const { ci } = caseContext(FIELD_TABLE.find((r) => r.field === 'systemMessage') as FieldRow, 'original', false);
    expect(contextFactLines(saneCiContext(ci), 100_000)).toContain('System message: none set');
  });
});
