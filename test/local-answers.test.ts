import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLocalEngine } from '../backend/answer/local.js';
import type { Chat, Page, QaPair } from '../protocol/types.js';
import { startTestBackend } from './helpers/backend.js';
import type { TestBackend } from './helpers/backend.js';
import { testDialects } from './helpers/databases.js';
import { collectEvents, textOf } from './helpers/sse.js';

const dialects = await testDialects();

const LOG = [
  'Started by user Alice',
  '[Pipeline] node',
  'Running on linux-agent-1 in /home/jenkins/workspace/team/api',
  '[Pipeline] sh',
  '+ ./gradlew build',
  '> Task :compileJava',
  '/home/jenkins/workspace/team/api/src/main/java/com/acme/Cart.java:42: error: cannot find symbol',
  '        return totals.sumOf(items);',
  '                     ^',
  '  symbol:   method sumOf(List<Item>)',
  '  location: variable totals of type Totals',
  '1 error',
  '',
  'FAILURE: Build failed with an exception.',
  '',
  "* What went wrong:",
  "Execution failed for task ':compileJava'.",
  '> Compilation failed; see the compiler error output for details.',
  '',
  'BUILD FAILED in 14s',
  '[Pipeline] }',
  'ERROR: script returned exit code 1',
  'Finished: FAILURE',
].join('\n');

/** The offline engine end to end: upload a build's context over HTTP, ask, read the stored pair. */
describe.each(dialects)('offline answers from an uploaded build on $name', (dialect) => {
  let backend: TestBackend;
  const user = `local-${dialect.name}-${Date.now()}`;
  let chat: Chat;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-local-answers-'));
    backend = await startTestBackend(dialect, {
      dataDir,
      deps: {
        engine: createLocalEngine({ typingDelayMs: 0 }),
      },
    });
    chat = (await (await backend.request(user, 'POST', '/chats/', { title: 'api #7' })).json()) as Chat;
    const upload = await backend.request(user, 'POST', `/context/${chat.id}`, {
      ciContext: {
        ciVersion: '2.462.3',
        activePlugins: [{ shortName: 'git', longName: 'Git plugin', version: '5.2.1', enabled: true }],
        masterNode: { executors: 2, isOnline: true },
        jobDetails: { fullName: 'team/api', type: 'pipeline', buildable: true },
        buildDetails: { number: 7, result: 'FAILURE', durationMs: 754000, consoleLog: LOG },
      },
    });
    expect(upload.status).toBe(200);
  });
  afterAll(async () => {
    await backend?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function ask(question: string): Promise<{ text: string; pair: QaPair }> {
    const events = await collectEvents(await backend.request(user, 'POST', '/messages/send', { chat_id: chat.id, content: question }));
    expect(events.at(-1)).toEqual({ event: 'done' });
    const page = (await (await backend.request(user, 'GET', `/chats/${chat.id}?limit=1`)).json()) as Page<QaPair>;
    return { text: textOf(events), pair: page.items[0]! };
  }

  test('"why did it fail?" quotes the compiler error with its line citation and records it as a source', async () => {
    const { text, pair } = await ask('why did the build fail?');
    expect(text).toContain('cannot find symbol');
    const cited = /\[L(\d+)-L(\d+)\]/.exec(text);
    expect(cited).not.toBeNull();
    const start = Number(cited![1]);
    expect(start).toBeLessThanOrEqual(7);
    expect(Number(cited![2])).toBeGreaterThanOrEqual(7);
    const logSources = pair.answer!.sources.filter((s) => s.kind === 'log');
    expect(logSources.length).toBeGreaterThan(0);
    expect(logSources.some((s) => s.kind === 'log' && s.start_line <= 7 && s.end_line >= 7)).toBe(true);
    expect(pair.answer!.content).toBe(text);
  });

  test('facts come from the context and are recorded as context sources', async () => {
    const plugin = await ask('is the git plugin installed?');
    expect(plugin.text).toMatch(/5\.2\.1/);
    expect(plugin.pair.answer!.sources.some((s) => s.kind === 'context')).toBe(true);
    const duration = await ask('how long did the build take?');
    expect(duration.text).toMatch(/12 min/);
  });

  test('what the context does not hold is said plainly, never invented', async () => {
    const aborted = await ask('who aborted the build?');
    expect(aborted.text).toMatch(/was not aborted/);
    const { text } = await ask('which commit was built?');
    expect(text.toLowerCase()).toMatch(/does not say|not in the uploaded context/);
    expect(text).not.toMatch(/\b[0-9a-f]{7,40}\b/);
  });
});
