/**
 * Snippets at upload (issue 17) on Jenkins homes with classic and pipeline builds whose
 * workspaces hold the files their logs name, a file missing, paths outside the workspace, a huge
 * file and a binary; then the whole way: controller (reading JENKINS_HOME) -> backend (SQLite
 * and MariaDB) -> offline engine, where "how do I fix it?" quotes line 42 of File.java.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type RunningController } from '../controller/app.js';
import { buildCiContextResult } from '../jenkins/context.js';
import { parsePathMap } from '../jenkins/pathmap.js';
import { listWorkspaces } from '../jenkins/workspace/discover.js';
import { collectSnippets } from '../jenkins/workspace/snippets.js';
import type { Chat, CiContext, Page, QaPair, WorkspaceSnippet } from '../protocol/types.js';
import { makeSnippetHome, RECORDED, type SnippetHome } from './fixtures/snippet-home/build.js';
import { testDialects } from './helpers/databases.js';
import { type TestBackend } from './helpers/backend.js';
import { startInProcessStack } from './helpers/inProcessStack.js';
import { collectEvents, textOf } from './helpers/sse.js';

const dialects = await testDialects();
let fixture: SnippetHome;

beforeAll(async () => {
  fixture = await makeSnippetHome();
});
afterAll(async () => {
  await fixture.cleanup();
});

async function contextOf(jobName: string, buildNumber: number): Promise<CiContext> {
  const result = await buildCiContextResult({
    jenkinsHome: fixture.home,
    jobName,
    buildNumber,
    workspace: { pathMap: parsePathMap(fixture.pathMapSpec), confinement: { privateDirs: [path.join(fixture.root, 'data')] } },
  });
  expect(result.notFound).toBe(false);
  return result.context;
}

describe('the controller context of a failed build carries workspace snippets', () => {
  test('classic build: the named line with the lines around it, secrets masked; missing, outside, huge-line and binary files skipped', async () => {
    const ci = await contextOf('shop', 1);
    const snippets = ci.workspaceSnippets ?? [];
    const file = snippets.find((s) => s.path === 'src/main/java/com/acme/File.java');
    expect(file).toMatchObject({ workspaceId: 'ws-default', startLine: 36, endLine: 48, line: 42, kind: 'source' });
    const lines = file!.text.split('\n');
    expect(lines).toHaveLength(13);
    expect(lines[42 - 36]).toBe('        return totl;');
    expect(file!.message).toContain('cannot find symbol');
    expect(file!.message).toContain('symbol: variable totl');
    // Line 40 holds a password: it travels masked.
    expect(file!.text).not.toContain(fixture.secretValue);
    expect(file!.text).toContain('String password = "****"');
    // Huge.java:7 is read (only the first 1M characters are), line 150000 is beyond them.
    const huge = snippets.filter((s) => s.path.endsWith('Huge.java'));
    expect(huge.map((s) => s.line)).toEqual([7]);
    expect(huge[0]?.text.split('\n')[6]).toContain('field00000007');
    // Never: the missing file, /etc/passwd, ../../secrets, the link leading out, the binary.
    const paths = snippets.map((s) => s.path);
    expect(paths.some((p) => /Missing|master|Escape|Blob/.test(p))).toBe(false);
    expect(JSON.stringify(ci)).not.toContain(fixture.marker);
    // A freestyle job has no pipeline script.
    expect(snippets.some((s) => s.kind === 'pipeline')).toBe(false);
  });

  test('the reasons for what was skipped, from the same reader', async () => {
    const workspaces = await listWorkspaces({ jenkinsHome: fixture.home, pathMap: parsePathMap(fixture.pathMapSpec), jobName: 'shop', buildNumber: 1 });
    const log = fs.readFileSync(path.join(fixture.home, 'jobs', 'shop', 'builds', '1', 'log'), 'utf8');
    const { skipped } = await collectSnippets({ log, workspaces });
    const why = Object.fromEntries(skipped.map((s) => [`${s.path}:${s.line}`, s.reason]));
    expect(why['src/main/java/com/acme/Missing.java:3']).toBe('not found in the workspace');
    expect(why[`${path.join(fixture.root, 'outside')}/Escape.java:1`]).toBe('not found in the workspace');
    expect(why['../../secrets/master.java:1']).toBe('outside the workspace');
    expect(why['src/main/java/com/acme/Escape.java:1']).toMatch(/Path traversal/);
    expect(why['src/main/java/com/acme/Huge.java:150000']).toBe('line beyond the first 1000000 characters read');
    expect(why['src/main/java/com/acme/Blob.java:5']).toMatch(/binary/);
  });

  test('pipeline build: the tsc error line and the Jenkinsfile from its scriptPath, in the recorded workspace', async () => {
    const ci = await contextOf('web', 7);
    const snippets = ci.workspaceSnippets ?? [];
    const app = snippets.find((s) => s.path === 'src/app.ts');
    expect(app).toMatchObject({ workspaceId: '3', line: 12, startLine: 6, endLine: 14 });
    expect(app!.text.split('\n')[12 - 6]).toBe('  out.count = parsed.count;');
    const script = snippets.find((s) => s.kind === 'pipeline');
    expect(script).toMatchObject({ path: 'ci/Jenkinsfile', workspaceId: '3', startLine: 1, endLine: 9 });
    expect(script!.text).toContain("sh 'npx tsc --noEmit'");
    expect(script!.text).not.toContain('npm_abcdefghijklmnopqrstuvwxyz0123456789');
  });

  test('inline pipeline: the script from config.xml around the WorkflowScript line, without any workspace', async () => {
    const ci = await contextOf('inline', 1);
    const script = ci.workspaceSnippets?.find((s) => s.kind === 'pipeline');
    expect(script).toMatchObject({ path: 'WorkflowScript', workspaceId: 'job-config', line: 5, startLine: 1, endLine: 7 });
    expect(script!.message).toContain("expecting '}'");
  });

  test('the build records the workspaces found on disk (`buildDetails.workspaces`), even when none holds a file its log names', async () => {
    expect((await contextOf('shop', 1)).buildDetails?.workspaces).toEqual(['ws-default']);
    expect((await contextOf('web', 7)).buildDetails?.workspaces).toEqual(['3']);
    // No workspace on disk: only the inline script, no list.
    expect((await contextOf('inline', 1)).buildDetails?.workspaces).toBeUndefined();
    // A workspace that holds none of the files the log names: no snippet from it, the list still says it is there.
    const bare = path.join(fixture.root, 'bare');
    fs.cpSync(fixture.home, bare, { recursive: true });
    fs.rmSync(path.join(bare, 'workspace', 'shop', 'src'), { recursive: true, force: true });
    const found = await buildCiContextResult({ jenkinsHome: bare, jobName: 'shop', buildNumber: 1, workspace: { pathMap: parsePathMap(`${RECORDED}=${bare}`) } });
    expect(found.context.workspaceSnippets?.filter((s) => s.workspaceId === 'ws-default') ?? []).toEqual([]);
    expect(found.context.buildDetails?.workspaces).toEqual(['ws-default']);
    fs.rmSync(bare, { recursive: true, force: true });
  });

  test('a build that passed, was aborted or is running has its workspaces looked for too; a workspace outside the roots is never read', async () => {
    const otherHome = path.join(fixture.root, 'passed');
    fs.cpSync(fixture.home, otherHome, { recursive: true });
    const xml = path.join(otherHome, 'jobs', 'shop', 'builds', '1', 'build.xml');
    const failed = fs.readFileSync(xml, 'utf8');
    for (const result of ['SUCCESS', 'ABORTED', null]) {
      // null: a running build (no <result> yet)
      fs.writeFileSync(xml, result ? failed.replace('FAILURE', result) : failed.replace(/<result>FAILURE<\/result>/, ''));
      const other = await buildCiContextResult({ jenkinsHome: otherHome, jobName: 'shop', buildNumber: 1, workspace: { pathMap: parsePathMap(`${RECORDED}=${otherHome}`) } });
      expect([result, other.context.buildDetails?.workspaces]).toEqual([result, ['ws-default']]);
      expect([result, other.context.workspaceSnippets?.some((s) => s.workspaceId === 'ws-default')]).toEqual([result, true]);
    }
    // Roots that do not hold the workspace: nothing is read from it.
    const confined = await buildCiContextResult({
      jenkinsHome: fixture.home,
      jobName: 'shop',
      buildNumber: 1,
      workspace: { pathMap: parsePathMap(fixture.pathMapSpec), confinement: { roots: [path.join(fixture.root, 'elsewhere')] } },
    });
    expect(confined.context.workspaceSnippets).toBeUndefined();
    expect(confined.context.buildDetails?.workspaces).toBeUndefined();
    fs.rmSync(otherHome, { recursive: true, force: true });
  });
});

describe.each(dialects)('through the controller, offline, on $name', (dialect) => {
  const SECRET = randomBytes(32).toString('hex');
  let backend: TestBackend;
  let controller: RunningController;
  let tmp: string;

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-snippets-e2e-'));
    ({ backend, controller } = await startInProcessStack(dialect, {
      dir: tmp,
      secret: SECRET,
      controllerEnv: { JENKINS_HOME: fixture.home, JENKINS_PATH_MAP: fixture.pathMapSpec, LOG_LEVEL: 'silent' },
    }));
  });
  afterAll(async () => {
    await controller?.close(0);
    await backend?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const api = (p: string, init?: RequestInit) => fetch(`${controller.url}/chatbot-api${p}`, init);
  const json = { 'content-type': 'application/json' };

  async function chatAbout(jobName: string, buildNumber: number, extra: Record<string, unknown> = {}): Promise<{ chat: Chat; stored: CiContext }> {
    const chat = (await (await api('/chats/', { method: 'POST', headers: json, body: '{}' })).json()) as Chat;
    const res = await api(`/context/${chat.id}/`, { method: 'POST', headers: json, body: JSON.stringify({ jobName, buildNumber, ...extra }) });
    expect(res.status).toBe(200);
    return { chat, stored: ((await res.json()) as { received_data: CiContext }).received_data };
  }

  async function ask(chat: Chat, question: string): Promise<{ text: string; pair: QaPair }> {
    const res = await api('/messages/send', { method: 'POST', headers: json, body: JSON.stringify({ chat_id: chat.id, content: question }) });
    const events = await collectEvents(res);
    expect(events.at(-1)?.event).toBe('done');
    const page = (await (await api(`/chats/${chat.id}`)).json()) as Page<QaPair>;
    return { text: textOf(events), pair: page.items[0]! };
  }

  test('"how do I fix it?" quotes line 42 of File.java, marked, with similar names; the pair cites the file', async () => {
    const { chat, stored } = await chatAbout('shop', 1);
    expect(stored.workspaceSnippets?.some((s) => s.path.endsWith('File.java'))).toBe(true);
    const { text, pair } = await ask(chat, 'how do I fix it?');
    expect(text).toContain('src/main/java/com/acme/File.java:42');
    expect(text).toMatch(/^> 42 \|\s+return totl;$/m);
    expect(text).toMatch(/^ {2}41 \| /m);
    expect(text).toContain('`total`');
    expect(text).not.toContain(fixture.secretValue);
    expect(pair.answer?.sources).toContainEqual({ kind: 'file', path: 'src/main/java/com/acme/File.java', start_line: 36, end_line: 48 });
    // The declaration of the similar name (a member of the same kind of the class File) travelled too, and is cited.
    expect(text).toMatch(/`total` \((?:src\/main\/java\/com\/acme\/File\.java )?line 10\)/);
    expect(pair.answer?.sources).toContainEqual({ kind: 'file', path: 'src/main/java/com/acme/File.java', start_line: 9, end_line: 11 });
    const where = await ask(chat, 'which file and line broke?');
    expect(where.text).toMatch(/^> 42 \| {9}return totl;$/m);
  });

  test('"show me the Jenkinsfile" answers from the snippets; a file the context lacks says how to fetch it', async () => {
    const { chat } = await chatAbout('web', 7);
    const shown = await ask(chat, 'show me the Jenkinsfile');
    expect(shown.text).toContain('ci/Jenkinsfile');
    expect(shown.text).toContain("steps { sh 'npx tsc --noEmit' }");
    expect(shown.pair.answer?.sources).toContainEqual({ kind: 'file', path: 'ci/Jenkinsfile', start_line: 1, end_line: 9 });
    const fix = await ask(chat, 'how do I fix it?');
    expect(fix.text).toMatch(/^> 12 \|\s+out\.count = parsed\.count;$/m);
    expect(fix.text).toContain('gives a `string` where a `number` is needed');
    const missing = await ask(chat, 'show me package.json');
    expect(missing.text).toContain('`cichat ws cat web 7 package.json`');
  });

  test('snippets the caller read where the build ran are kept (and validated)', async () => {
    const mine: WorkspaceSnippet = { path: 'lib/x.py', workspaceId: 'local', startLine: 1, endLine: 2, text: 'a = 1\nb = a +' };
    const { stored } = await chatAbout('shop', 1, { workspaceSnippets: [mine] });
    expect(stored.workspaceSnippets?.[0]).toEqual(mine);
    expect(stored.workspaceSnippets?.some((s) => s.path === 'src/main/java/com/acme/File.java')).toBe(true);
    const chat = (await (await api('/chats/', { method: 'POST', headers: json, body: '{}' })).json()) as Chat;
    const bad = await api(`/context/${chat.id}/`, { method: 'POST', headers: json, body: JSON.stringify({ workspaceSnippets: [{ ...mine, startLine: 0 }] }) });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { detail: string }).detail).toBe('workspaceSnippets.0.startLine: must be a positive whole number');
    // The backend checks the field too (a client may post to it through the proxy's other paths).
    const long = await backend.request('local', 'POST', `/context/${chat.id}/`, { ciContext: { workspaceSnippets: [{ ...mine, text: 'x'.repeat(20_001) }] } });
    expect(long.status).toBe(422);
    expect(((await long.json()) as { detail: string }).detail).toBe("ciContext.workspaceSnippets.0.text: must be at most 20000 characters");
  });
});
