/**
 * Both shapes of CiContext through HTTP on SQLite and MariaDB (CONTRACT section 2): the original
 * plugin's full context (test/fixtures/ci-context/original-plugin.json) and the alias shape of
 * older cichat clients are 200 through the backend and through the controller, stored and echoed
 * in the canonical form, and the offline engine answers from their facts. A context stored
 * before the canonical names (aliases in the database) still answers.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ingestContext } from '../backend/retrieval/ingest.js';
import { up as canonicalContexts } from '../backend/migrations/011_canonical_contexts.js';
import { saneCiContext } from '../backend/answer/sanitize.js';
import { ciContextSchema } from '../protocol/schemas.js';
import { canonicalFields, sampleOf } from './helpers/schemaSamples.js';
import type { ContextService } from '../backend/services/context.js';
import { type RunningController } from '../controller/app.js';
import type { Chat, CiContext, Page, QaPair } from '../protocol/types.js';
import { type TestBackend } from './helpers/backend.js';
import { startInProcessStack } from './helpers/inProcessStack.js';
import { contextOfShape, type Shape } from './helpers/ciFields.js';
import { testDialects } from './helpers/databases.js';
import { collectEvents, textOf } from './helpers/sse.js';

const dialects = await testDialects();
const SECRET = randomBytes(32).toString('hex');

/** Questions whose answers must carry the uploaded facts, the same for both shapes. */
const FACT_QUESTIONS: [string, RegExp][] = [
  ['which commit was built?', /a1b2c3d4e5f6/],
  ['is the git plugin installed?', /Yes — `git` 5\.2\.1 is installed/],
  ['is blueocean installed?', /installed but disabled|not installed/],
  ['how long did the build take?', /3 min 12 s/],
  ['what parameters did the build use?', /TARGET_ENV.*staging[\s\S]*DEPLOY_PASSWORD.*\*\*\*\*/],
  ['how many tests failed?', /\b3\b/],
  ['which node did the build run on?', /linux-agent-1/],
  ['what type of job is this?', /Pipeline/],
  ['what is the job health?', /60%/],
  ['why is it queued?', /waiting in the queue[\s\S]*built-in node is \*\*online\*\*[\s\S]*2 agents online/],
  ['what page am I looking at?', /Console team\/api #42/],
  ['who started the build?', /Alice Martin/],
];

describe.each(dialects)('both CiContext shapes through HTTP on $name', (dialect) => {
  let backend: TestBackend;
  let context: ContextService;
  let controller: RunningController;
  let tmp: string;
  const user = `shapes-${dialect.name}-${Date.now()}`;

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-context-shapes-'));
    ({ backend, controller, context } = await startInProcessStack(dialect, {
      dir: tmp,
      secret: SECRET,
      controllerEnv: { CONTROLLER_USER: user, JENKINS_HOME: path.resolve('seeds/jenkins-home') },
    }));
  });
  afterAll(async () => {
    await controller?.close(0);
    await backend?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  async function newChat(title: string): Promise<Chat> {
    return (await (await backend.request(user, 'POST', '/chats/', { title })).json()) as Chat;
  }

  async function ask(chatId: number, question: string): Promise<{ text: string; pair: QaPair }> {
    const events = await collectEvents(await backend.request(user, 'POST', '/messages/send', { chat_id: chatId, content: question }));
    expect(events.at(-1)).toEqual({ event: 'done' });
    const page = (await (await backend.request(user, 'GET', `/chats/${chatId}?limit=1`)).json()) as Page<QaPair>;
    return { text: textOf(events), pair: page.items[0] as QaPair };
  }

  async function expectFactAnswers(chatId: number, skip: string[] = []): Promise<void> {
    for (const [question, wanted] of FACT_QUESTIONS.filter(([q]) => !skip.includes(q))) {
      const { text, pair } = await ask(chatId, question);
      expect([question, text]).toEqual([question, expect.stringMatching(wanted)]);
      expect(pair.answer?.sources.some((s) => s.kind === 'context')).toBe(true);
    }
  }

  function expectCanonical(data: CiContext): void {
    expect(data.ciVersion).toBe('2.440.3');
    expect(data).not.toHaveProperty('jenkinsVersion');
    expect(data.activePlugins).toMatchObject({ git: '5.2.1', junit: '1265.v65b_14fa_f12f0' });
    expect(data.activePlugins).not.toHaveProperty('blueocean');
    expect(data.plugins?.find((p) => p.shortName === 'blueocean')).toMatchObject({ enabled: false });
    expect(data.jobDetails).toMatchObject({ fullName: 'team/api', isBuildable: true, inQueue: true, healthScore: 60, upstreamProjects: ['team/lib-core'] });
    expect(typeof data.jobDetails?.jobType).toBe('string');
    expect(data.jobDetails?.configXml).toContain('orders-api.git');
    expect(data.jobDetails).not.toHaveProperty('type');
    expect(data.jobDetails).not.toHaveProperty('buildable');
    expect(data.buildDetails).toMatchObject({
      number: 42,
      duration: 192000,
      timestamp: '2025-11-22T08:26:40.000Z',
      parameters: { TARGET_ENV: 'staging', DEPLOY_PASSWORD: '****', DRY_RUN: false },
      testResults: { total: 120, failed: 3, skipped: 2 },
      builtOnNode: 'linux-agent-1',
      previousBuild: { number: 41, duration: 185000 },
    });
    expect(data.buildDetails?.causes?.[0]).toMatchObject({ shortDescription: 'Started by user Alice Martin' });
    for (const alias of ['durationMs', 'tests', 'builtOn']) expect(data.buildDetails).not.toHaveProperty(alias);
    expect(data.ciEnvironment).toMatchObject({ GIT_COMMIT: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678', BUILD_NUMBER: '42' });
    expect(JSON.stringify(data)).not.toContain('hunter2');
  }

  test.each<Shape>(['original', 'alias'])('the %s shape: 200 through the backend, canonical received_data, answers use its facts', async (shape) => {
    const chat = await newChat(`backend ${shape}`);
    const res = await backend.request(user, 'POST', `/context/${chat.id}/`, { ciContext: contextOfShape(shape) });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { success: boolean; received_data: CiContext };
    expect(body.success).toBe(true);
    expectCanonical(body.received_data);
    await expectFactAnswers(chat.id);
  });

  test.each<Shape>(['original', 'alias'])('the %s shape: 200 through the controller, its facts laid over JENKINS_HOME\'s', async (shape) => {
    const chat = await newChat(`controller ${shape}`);
    const res = await fetch(`${controller.url}/chatbot-api/context/${chat.id}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ciContext: contextOfShape(shape) }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { received_data: CiContext };
    expectCanonical(body.received_data);
    // The sample home has team/api #42 too: its log tail and server facts came from disk, the
    // client's facts over them (its plugin map, not the home's).
    expect(body.received_data.buildDetails?.consoleLogTail).toContain('Checking out Revision 3c8e1f0d2b4a');
    expect(body.received_data.rootUrl).toBe('https://ci.example.com/');
    // The log's checkout line answers "which commit" before the client's GIT_COMMIT.
    const commit = await ask(chat.id, 'which commit was built?');
    expect(commit.text).toContain('3c8e1f0d2b4a');
    await expectFactAnswers(chat.id, ['which commit was built?']);
  });

  // Adding a CiContext field is the schema, its answer, its test (docs/notes/house.md): every
  // field of the schema's shapes, the day it is added, reaches the stored context and the engines'
  // view with nothing else to change. The log fields are the exception: stored as chunks.
  test('every canonical field of the schema flows from the upload to the stored context and the engines\' view', async () => {
    const ci: Record<string, unknown> = {};
    const fields: string[] = [];
    for (const [name, field] of Object.entries(canonicalFields(ciContextSchema))) {
      ci[name] = sampleOf(field, name);
      fields.push(name);
    }
    for (const shape of ['jobDetails', 'buildDetails'] as const) {
      const sub: Record<string, unknown> = {};
      for (const [name, field] of Object.entries(canonicalFields(canonicalFields(ciContextSchema)[shape]!))) {
        if (shape === 'buildDetails' && (name === 'consoleLog' || name === 'consoleLogTail' || name === 'consoleLogTailStartLine')) continue;
        sub[name] = sampleOf(field, `${shape}.${name}`);
        fields.push(`${shape}.${name}`);
      }
      ci[shape] = sub;
    }
    expect(fields.length).toBeGreaterThan(40);
    const chat = await newChat('every field');
    const res = await backend.request(user, 'POST', `/context/${chat.id}/`, { ciContext: ci });
    expect([res.status, res.status === 200 ? '' : await res.text()]).toEqual([200, '']);
    const loaded = await context.loadContext(chat.id);
    const view = saneCiContext(loaded?.ciContext);
    const at = (o: unknown, field: string): unknown => field.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], o);
    expect(fields).toEqual(expect.arrayContaining(['ciVersion', 'jobDetails.configXml', 'buildDetails.failingSteps', 'buildDetails.history']));
    for (const field of fields) {
      expect([field, 'stored', at(loaded?.ciContext, field) !== undefined]).toEqual([field, 'stored', true]);
      expect([field, 'engines', at(view, field) !== undefined]).toEqual([field, 'engines', true]);
    }
  });

  test('a wrong type inside the client context is 422 naming the field, through the controller too', async () => {
    const chat = await newChat('bad types');
    const res = await fetch(`${controller.url}/chatbot-api/context/${chat.id}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ciContext: { buildDetails: { duration: 'long' } } }),
    });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { detail: string }).detail).toBe('ciContext.buildDetails.duration: must be a number');
  });

  test('a context stored before the canonical names (aliases in the database) still answers, in canonical form', async () => {
    const chat = await newChat('stored earlier');
    // What the previous code stored: the uploaded object with its alias names, not normalised.
    await ingestContext(context.deps, chat.id, contextOfShape('alias') as CiContext);
    const stored = await context.deps.db('contexts').where({ chat_id: chat.id }).first('ci_context');
    expect(JSON.parse(String(stored.ci_context))).toHaveProperty('buildDetails.durationMs', 192000);
    // Migration 011 normalises such contexts once; the read path trusts what is stored.
    await canonicalContexts(context.deps.db);
    const loaded = await context.loadContext(chat.id);
    expect(loaded?.ciContext.buildDetails).toMatchObject({ duration: 192000, builtOnNode: 'linux-agent-1' });
    expect(loaded?.ciContext.activePlugins).toMatchObject({ git: '5.2.1' });
    await expectFactAnswers(chat.id);
  });
});
