/**
 * Every networked command of the real CLI process against a real stack (backend and
 * controller spawned on ephemeral ports, SQLite in a temp dir, the sample JENKINS_HOME).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Chat, QaPair } from '../protocol/types.js';
import { runCli, stackMissing, startStack, type Stack } from './helpers/stack.js';

const missing = stackMissing();
if (missing) {
  console.warn(`cli-commands: ${missing}`);
}
const describeStack = missing ? describe.skip : describe;

describeStack('cichat commands against a real stack', () => {
  let stack: Stack;
  const cli = (args: string[], input?: string, extraEnv: NodeJS.ProcessEnv = {}) =>
    runCli(args, { env: { ...stack.cliEnv, ...extraEnv }, input, timeoutMs: 90000 });

  beforeAll(async () => {
    stack = await startStack();
  }, 120000);
  afterAll(async () => {
    await stack?.stop();
  });

  it('chats new / list / rename / show / rm', async () => {
    const created = await cli(['chats', 'new', 'pipeline triage']);
    expect(created.code).toBe(0);
    const id = Number(created.stdout.trim());
    expect(id).toBeGreaterThan(0);

    const listed = await cli(['--json', 'chats', 'list']);
    const chats = JSON.parse(listed.stdout) as Chat[];
    expect(chats.find((c) => c.id === id)?.title).toBe('pipeline triage');
    const text = await cli(['chats', 'list']);
    expect(text.stdout).toMatch(new RegExp(`^\\s*${id}\\s+\\S+ \\S+\\s+pipeline triage$`, 'm'));

    const renamed = await cli(['chats', 'rename', String(id), 'nightly', 'failures', '--json']);
    expect((JSON.parse(renamed.stdout) as Chat).title).toBe('nightly failures');

    const empty = await cli(['chats', 'show', String(id), '--json']);
    expect(JSON.parse(empty.stdout)).toEqual([]);

    const removed = await cli(['chats', 'rm', String(id)]);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain(`Chat ${id} deleted.`);
    const gone = await cli(['chats', 'show', String(id)]);
    expect(gone.code).toBe(1);
    expect(gone.stderr.split('\n')[0]).toMatch(/^cichat: .+/);
    expect(gone.stderr).not.toMatch(/\n\s+at /);
  });

  it('ask with a piped log uploads it to a new chat, then streams the answer', async () => {
    const log = ['+ npm test', 'FAIL src/totals.test.ts', '  ● totals › includes tax', '    Expected: 107', '    Received: 100', 'npm ERR! Test failed.', 'Finished: FAILURE', ''].join('\n');
    const r = await cli(['ask', 'why did it fail?'], log);
    expect(r.code).toBe(0);
    expect(r.stdout.trim().length).toBeGreaterThan(0);
    expect(r.stdout).not.toMatch(/\u001b\[/); // no colour when stdout is not a terminal
    const chatId = Number(/chat (\d+)/.exec(r.stderr)?.[1]);
    expect(chatId).toBeGreaterThan(0);

    const shown = await cli(['chats', 'show', String(chatId), '--json']);
    const pairs = JSON.parse(shown.stdout) as QaPair[];
    expect(pairs).toHaveLength(1);
    expect(pairs[0]?.question.content).toBe('why did it fail?');
    expect(pairs[0]?.answer?.status).toBe('complete');
    // what was printed is the answer the backend stored, as it streamed
    expect(r.stdout.trimEnd()).toBe(pairs[0]?.answer?.content.trimEnd());
    // the answer rests on the log, and `chats show` says where
    const first = pairs[0]!.answer!.sources.find((s) => s.kind === 'log');
    expect(first).toBeDefined();
    const text = await cli(['chats', 'show', String(chatId)]);
    expect(text.stdout).toMatch(/^sources: log L\d+/m);
    if (first?.kind === 'log') expect(text.stdout).toContain(first.start_line === first.end_line ? `log L${first.start_line}` : `log L${first.start_line}-L${first.end_line}`);

    const last = await cli(['context', 'last', String(chatId), '--json']);
    expect((JSON.parse(last.stdout) as { last_upload_at: string | null }).last_upload_at).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
  });

  it('ask --json in an existing chat answers one JSON object', async () => {
    const id = Number((await cli(['chats', 'new'])).stdout.trim());
    const r = await cli(['--json', 'ask', '--chat', String(id), 'hello?']);
    expect(r.code).toBe(0);
    const answer = JSON.parse(r.stdout) as { chat_id: number; qa_pair_id: number; status: string; content: string };
    expect(answer.chat_id).toBe(id);
    expect(answer.status).toBe('complete');
    expect(answer.qa_pair_id).toBeGreaterThan(0);
    expect(answer.content.length).toBeGreaterThan(0);
  });

  it('ask in a chat that does not exist prints the detail, exit 1', async () => {
    const r = await cli(['ask', '--chat', '987654', 'anyone?']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^cichat: /);
    expect(r.stdout).toBe('');
  });

  it('context upload --from-env --log sends the build and its log; context last shows it', async () => {
    const id = Number((await cli(['chats', 'new', 'from a pipeline'])).stdout.trim());
    const before = await cli(['context', 'last', String(id)]);
    expect(before.stdout.trim()).toBe('never');
    const logFile = path.join(stack.dataDir, 'pipeline.log');
    fs.writeFileSync(logFile, 'step one\nUNIQUE-MARKER-7f3a: compilation failed\nFinished: FAILURE\n');
    const r = await cli(['--json', 'context', 'upload', String(id), '--from-env', '--log', logFile], undefined, {
      JOB_NAME: 'team/api',
      BUILD_NUMBER: '42',
      BUILD_URL: 'http://ci.example/job/team/job/api/42/',
      NODE_NAME: 'built-in',
      GITHUB_SHA: 'abc123',
    });
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout) as { success: boolean; received_data: { buildDetails?: { consoleLog?: string; number?: number } } };
    expect(result.success).toBe(true);
    expect(result.received_data.buildDetails?.consoleLog).toContain('UNIQUE-MARKER-7f3a');
    const after = await cli(['context', 'last', String(id)]);
    expect(after.stdout).toMatch(/^\d{4}-\d\d-\d\dT\S+Z\t/);

    // The chat list shows the job and build the upload named (not in the title).
    const listed = JSON.parse((await cli(['--json', 'chats', 'list'])).stdout) as Chat[];
    expect(listed.find((c) => c.id === id)).toMatchObject({ title: 'from a pipeline', job_name: 'team/api', build_number: 42 });
    const text = await cli(['chats', 'list']);
    expect(text.stdout).toMatch(/^\s*ID\s+UPDATED\s+JOB\s+TITLE$/m);
    expect(text.stdout).toMatch(new RegExp(`^\\s*${id}\\s+\\S+ \\S+\\s+team/api #42\\s+from a pipeline$`, 'm'));
  });

  it('context upload reads the log from stdin', async () => {
    const id = Number((await cli(['chats', 'new'])).stdout.trim());
    const r = await cli(['context', 'upload', String(id), '--log', '-'], 'line 1\nline 2\nerror: boom\n');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Uploaded the context of chat ${id}`);
    expect(r.stdout).toContain('log of 3 lines');
  });

  it('context upload --from-env still uploads the log when this controller does not know JOB_NAME', async () => {
    const id = Number((await cli(['chats', 'new'])).stdout.trim());
    const r = await cli(['--json', 'context', 'upload', String(id), '--from-env', '--log', '-'], 'remote build\nerror: boom\n', {
      JOB_NAME: 'elsewhere/unknown-job',
      BUILD_NUMBER: '5',
    });
    expect(r.code).toBe(0);
    // one warning that says what is uploaded instead, never the controller's "no context was uploaded"
    expect(r.stderr.trim().split('\n')).toEqual([
      "cichat: warning: job elsewhere/unknown-job #5 is not in the controller's JENKINS_HOME; uploading the log and the CI environment variables without the job's facts",
    ]);
    expect(r.stderr).not.toContain('no context was uploaded');
    const result = JSON.parse(r.stdout) as { received_data: { buildDetails?: { consoleLog?: string } } };
    expect(result.received_data.buildDetails?.consoleLog).toContain('error: boom');
    // an explicit --job that does not exist is an error the user must see
    const explicit = await cli(['context', 'upload', String(id), '--job', 'elsewhere/unknown-job', '--log', '-'], 'x\n');
    expect(explicit.code).toBe(1);
  });

  it('ws tree draws the workspace of the sample build like tree; ws cat prints a file', async () => {
    const tree = await cli(['ws', 'tree', 'team/api', '42']);
    expect(tree.code).toBe(0);
    expect(tree.stdout).toMatch(/^├── README\.md$/m);
    expect(tree.stdout).toMatch(/^└── src\/$/m);
    expect(tree.stdout).toMatch(/\d+ directories, \d+ files/);
    const json = JSON.parse((await cli(['ws', 'tree', 'team/api', '42', '--depth', '1', '--json'])).stdout) as { workspaceId: string }[];
    expect(json.length).toBeGreaterThan(0);

    const cat = await cli(['ws', 'cat', 'team/api', '42', 'README.md']);
    expect(cat.code).toBe(0);
    expect(cat.stdout).toBe(fs.readFileSync(path.join('seeds', 'jenkins-home', 'workspace', 'team', 'api', 'README.md'), 'utf8'));
    const explicit = await cli(['ws', 'cat', 'team/api', '42', 'pom.xml', '--workspace', json[0]!.workspaceId]);
    expect(explicit.stdout).toContain('<project');

    const traversal = await cli(['ws', 'cat', 'team/api', '42', '../../secrets']);
    expect(traversal.code).toBe(1);
    expect(traversal.stderr).toContain('Path traversal');
  });
});
