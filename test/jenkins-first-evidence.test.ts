/**
 * Issue 26's "done when", end to end: a pipeline build read from JENKINS_HOME by the real
 * controller, ingested by the real backend (SQLite, offline engine). In every flow fixture
 * (parallel branches and nested stages, the three flow-node storage generations, a gzipped log,
 * Groovy code failing in a stage, a 2017 build) the first evidence is the failing step's own
 * output with its error, and the answer (offline engine, and the model's prompt) names the
 * failing stage, branch and step.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildPrompt } from '../backend/answer/prompt.js';
import type { Chat, CiContext } from '../protocol/types.js';
import { sqlite } from './helpers/databases.js';
import { startInProcessStack, type InProcessStack } from './helpers/inProcessStack.js';
import { collectEvents, textOf } from './helpers/sse.js';

const FIX = path.resolve('test/fixtures/jenkins-flow');

interface Case {
  job: string;
  fixture: string;
  gzip?: boolean;
  /** What the step's own output says (the first evidence's text). */
  error: RegExp;
  /** How the answer names where it failed. */
  where: RegExp;
}

const PARALLEL = /step `bat` in stage `Test`, parallel branch `windows`/;
const CASES: Case[] = [
  { job: 'per-node', fixture: 'per-node', error: /error C2065/, where: PARALLEL },
  { job: 'bulk', fixture: 'bulk', error: /error C2065/, where: PARALLEL },
  { job: 'completed', fixture: 'completed', error: /error C2065/, where: PARALLEL },
  { job: 'completed-gz', fixture: 'completed', gzip: true, error: /error C2065/, where: PARALLEL },
  { job: 'nested', fixture: 'nested', error: /b\.c:12:5: error: .tmp. undeclared/, where: /step `sh` in stage `Compile` \(Build › Compile\)|step `sh` in stage `Compile`/ },
  { job: 'groovy', fixture: 'groovy', error: /MissingPropertyException: No such property: releaseVersion/, where: /in stage `Deploy`/ },
  { job: 'legacy-2017', fixture: 'legacy-2017', error: /ModuleNotFoundError: No module named 'yaml'/, where: /step `sh` in stage `Test`/ },
];

let tmp: string;
let stack: InProcessStack;
const secret = randomBytes(32).toString('hex');

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-first-evidence-'));
  const home = path.join(tmp, 'jenkins-home');
  for (const c of CASES) {
    const job = path.join(home, 'jobs', c.job);
    fs.mkdirSync(path.join(job, 'builds'), { recursive: true });
    fs.writeFileSync(path.join(job, 'config.xml'), "<?xml version='1.1' encoding='UTF-8'?>\n<flow-definition plugin=\"workflow-job@1400\"><keepDependencies>false</keepDependencies></flow-definition>");
    const build = path.join(job, 'builds', '1');
    fs.cpSync(path.join(FIX, c.fixture), build, { recursive: true });
    if (c.gzip === true) {
      fs.writeFileSync(path.join(build, 'log.gz'), gzipSync(fs.readFileSync(path.join(build, 'log'))));
      fs.rmSync(path.join(build, 'log'));
    }
  }
  stack = await startInProcessStack(sqlite, { dir: tmp, secret, controllerEnv: { JENKINS_HOME: home, CONTROLLER_USER: 'dana' } });
}, 60_000);

afterAll(async () => {
  await stack?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const api = (p: string, body?: unknown): Promise<Response> =>
  fetch(`${stack.controller.url}/chatbot-api${p}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) });

describe.each(CASES)('$job', (c) => {
  let chat: Chat;
  let stored: CiContext;

  beforeAll(async () => {
    chat = (await (await api('/chats/', { title: c.job })).json()) as Chat;
    const res = await api(`/context/${chat.id}/`, { jobName: c.job, buildNumber: 1 });
    expect(res.status).toBe(200);
    stored = ((await res.json()) as { received_data: CiContext }).received_data;
  });

  test('the first evidence is the failing step\'s own output with its error', async () => {
    const steps = stored.buildDetails?.failingSteps ?? [];
    expect(steps.length).toBeGreaterThan(0);
    const ctx = await stack.context.loadContext(chat.id);
    const first = ctx?.failureExcerpts[0];
    expect(first?.text).toMatch(c.error);
    const lines = steps[0]?.logLines;
    if (lines !== undefined) {
      // Within the step's own lines, in the stored log's numbering.
      const shift = typeof stored.buildDetails?.consoleLogTailStartLine === 'number' && typeof stored.buildDetails?.consoleLog !== 'string' ? stored.buildDetails.consoleLogTailStartLine - 1 : 0;
      expect(first?.start_line).toBeGreaterThanOrEqual(lines[0] - shift);
      expect(first?.end_line).toBeLessThanOrEqual(lines[1] - shift);
    } else {
      // No log-index (2017, Groovy code of a stage): the step's own text came with the step or the error is Jenkins' own.
      expect(`${steps[0]?.log ?? ''}\n${steps[0]?.errorClass}: ${steps[0]?.errorMessage}`).toMatch(c.error);
    }
  });

  test('the offline answer names the failing stage, branch and step, and leads with the step\'s error', async () => {
    const res = await api('/messages/send', { chat_id: chat.id, content: 'why did the build fail?' });
    expect(res.status).toBe(200);
    const answer = textOf(await collectEvents(res));
    expect(answer).toMatch(c.where);
    expect(answer).toMatch(c.error);
  });

  test('the model\'s prompt states the failing step Jenkins recorded', async () => {
    const ctx = await stack.context.loadContext(chat.id);
    const prompt = buildPrompt({ question: 'why did the build fail?', history: [], context: ctx, passages: [], contextTokens: 8000 });
    const text = prompt.messages.map((m) => m.content).join('\n');
    const step = stored.buildDetails?.failingSteps?.[0];
    expect(text).toMatch(/Failing step \(recorded by Jenkins\)/);
    expect(text).toContain(step?.step === '(pipeline script)' ? 'the pipeline script itself' : `step \`${step?.step}\``);
    expect(text).toContain(`stage \`${step?.stage}\``);
    if (step?.branch !== undefined) expect(text).toContain(`parallel branch \`${step.branch}\``);
    expect(text).toContain(`${step?.errorClass}: ${step?.errorMessage}`);
  });
});

describe('the prompt\'s lines for what Jenkins recorded', () => {
  test('the step\'s lines in the tail\'s numbering, the failed tests, the failed downstream build', async () => {
    const { contextFactLines } = await import('../backend/answer/prompt.js');
    const lines = contextFactLines(
      {
        buildDetails: {
          number: 9,
          result: 'FAILURE',
          consoleLogTail: 'x\n'.repeat(50),
          consoleLogTailStartLine: 101,
          failingSteps: [{ stage: 'Compile', stagePath: ['Build', 'Compile'], step: 'sh', errorClass: 'hudson.AbortException', errorMessage: 'script returned exit code 2', logLines: [120, 130], wrapper: true }],
          testResults: { total: 10, failed: 1, failedTests: [{ className: 'com.acme.CartTest', name: 'total', message: 'expected: <7> but was: <8>' }] },
          downstreamFailure: { jobName: 'team/deploy', number: 17, result: 'FAILURE', failingSteps: [{ stage: 'Deploy', step: 'sh', errorClass: 'hudson.AbortException', errorMessage: 'script returned exit code 1' }] },
        },
      },
      1000,
    );
    expect(lines).toContain(
      "Failing step (recorded by Jenkins): step `sh` in stage `Compile` (`Build` › `Compile`): hudson.AbortException: script returned exit code 2 (the step's exit status: the cause is in its own output), its own output [L20-L30]",
    );
    expect(lines).toContain('Failed tests (JUnit report): com.acme.CartTest.total (expected: <7> but was: <8>)');
    expect(lines).toContain('Downstream build that failed this one: team/deploy #17 FAILURE; its failing step: step `sh` in stage `Deploy`: hudson.AbortException: script returned exit code 1');
  });
});
