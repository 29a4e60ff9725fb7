/**
 * The raw-log upload through the controller (issue 28): streamed to the backend as it comes,
 * gzip kept as sent, the facts of JENKINS_HOME for `?jobName&buildNumber` in X-Cichat-Context.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Chat, CiContext } from '../protocol/types.js';
import type { RunningController } from '../controller/app.js';
import { factsHeader } from '../controller/routes/context.js';
import { currentContext } from '../backend/store/contexts.js';
import { startInProcessStack, type InProcessStack } from './helpers/inProcessStack.js';
import { sqlite } from './helpers/databases.js';

const user = `raw-log-${Date.now()}`;
let stack: InProcessStack;
let controller: RunningController;
let tmp: string;
beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-context-log-'));
  stack = await startInProcessStack(sqlite, { dir: tmp, secret: 's'.repeat(48), controllerEnv: { CONTROLLER_USER: user, JENKINS_HOME: path.resolve('seeds/jenkins-home') } });
  controller = stack.controller;
});
afterAll(async () => {
  await stack?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

function log(lines: number): string {
  const out = ['Started by user admin', '+ npm test'];
  for (let i = 0; i < lines; i++) out.push(`  ✓ renders widget ${i} (${i % 40} ms)`);
  out.push('  1) checkout flow', '     AssertionError: expected 200 but got 500', 'npm ERR! Test failed.  See above for more details.', 'Finished: FAILURE');
  return `${out.join('\n')}\n`;
}

test('a gzip raw log goes through the controller with the facts JENKINS_HOME holds for the named build', async () => {
  const chat = (await (await stack.backend.request(user, 'POST', '/chats/', {})).json()) as Chat;
  const res = await fetch(`${controller.url}/chatbot-api/context/${chat.id}/log?jobName=team/api&buildNumber=42`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain', 'content-encoding': 'gzip' },
    body: gzipSync(log(40_000)),
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { received_data: CiContext; log_lines: number };
  expect(body.log_lines).toBe(40_006);
  // Facts from the home (its server's root URL, the build's number), the log from the body.
  expect(body.received_data.rootUrl).toBe('http://localhost:8081/');
  expect(body.received_data.buildDetails?.number).toBe(42);
  expect(body.received_data.buildDetails?.consoleLog).toContain('AssertionError: expected 200 but got 500');
  const stored = await currentContext(stack.backend.db, chat.id);
  expect(stored?.failureExcerpts.map((e) => e.text).join('\n')).toContain('AssertionError');
});

test('an empty raw log through the controller is refused and the chat keeps its context', async () => {
  const chat = (await (await stack.backend.request(user, 'POST', '/chats/', {})).json()) as Chat;
  const url = `${controller.url}/chatbot-api/context/${chat.id}/log`;
  expect((await fetch(url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: log(3) })).status).toBe(200);
  const before = await currentContext(stack.backend.db, chat.id);
  const empty = await fetch(url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '' });
  expect(empty.status).toBe(422);
  expect(await currentContext(stack.backend.db, chat.id)).toEqual(before);
});

test('a raw log with a buildNumber that is neither a number nor a permalink is a 422 naming it, and the chat keeps its context', async () => {
  const chat = (await (await stack.backend.request(user, 'POST', '/chats/', {})).json()) as Chat;
  const url = `${controller.url}/chatbot-api/context/${chat.id}/log`;
  expect((await fetch(url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: log(3) })).status).toBe(200);
  const before = await currentContext(stack.backend.db, chat.id);
  for (const query of ['buildNumber=abc', 'buildNumber=-1', 'buildNumber=0', 'buildNumber=99999999999999999999', 'buildNumber=1&buildNumber=2']) {
    const res = await fetch(`${url}?jobName=team/api&${query}`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: log(3) });
    expect([query, res.status]).toEqual([query, 422]);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/^buildNumber: must be a positive whole number or one of lastBuild/);
  }
  expect(await currentContext(stack.backend.db, chat.id)).toEqual(before);
  // an empty buildNumber is no build named: the job's facts without a build's
  expect((await fetch(`${url}?jobName=team/api&buildNumber=`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: log(3) })).status).toBe(200);
});

test('facts too big for the header lose their biggest parts first and say so', () => {
  const header = factsHeader({ jobDetails: { name: 'a' }, buildDetails: { number: 1, changeSet: 'x'.repeat(20_000) } as CiContext['buildDetails'] });
  const facts = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as CiContext & { factsOmitted?: string };
  expect(facts.jobDetails).toEqual({ name: 'a' });
  expect(facts.buildDetails).toBeUndefined();
  expect(facts.factsOmitted).toContain('buildDetails');
});

test("the caller's workspace snippets come first and the controller's own for other files follow, as on the JSON route", async () => {
  const mine = { workspaceId: 'local', path: 'src/checkout.ts', startLine: 1, endLine: 2, text: 'export const total = 1;\nexport const tax = 0;', kind: 'source' };
  const paths = async (chatId: number) => ((await currentContext(stack.backend.db, chatId))?.ciContext.workspaceSnippets as { path: string }[] | undefined)?.map((s) => s.path);
  const raw = (await (await stack.backend.request(user, 'POST', '/chats/', {})).json()) as Chat;
  const res = await fetch(`${controller.url}/chatbot-api/context/${raw.id}/log?jobName=team/api&buildNumber=42`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain', 'x-cichat-context': Buffer.from(JSON.stringify({ workspaceSnippets: [mine] })).toString('base64url') },
    body: log(10),
  });
  expect(res.status).toBe(200);
  const json = (await (await stack.backend.request(user, 'POST', '/chats/', {})).json()) as Chat;
  const viaJson = await fetch(`${controller.url}/chatbot-api/context/${json.id}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jobName: 'team/api', buildNumber: 42, consoleLog: log(10), workspaceSnippets: [mine] }),
  });
  expect(viaJson.status).toBe(200);
  const rawPaths = await paths(raw.id);
  expect(rawPaths?.[0]).toBe('src/checkout.ts');
  expect(rawPaths).toEqual(await paths(json.id));
});
