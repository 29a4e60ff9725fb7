import { MAX_LINE_CHARS } from '../core/log/clean.js';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { Chat } from '../protocol/types.js';
import { LocalEmbedder } from '../backend/retrieval/embed.js';
import type { Embedder } from '../backend/retrieval/embed.js';
import { retrieve } from '../backend/retrieval/retrieve.js';
import { indexDir } from '../backend/retrieval/vectorIndex.js';
import type { ContextService } from '../backend/services/context.js';
import { openDb } from '../backend/db.js';
import { chunksWithTerm, countContexts, currentContext, vectorToBytes } from '../backend/store/contexts.js';
import { testDialects } from './helpers/databases.js';
import type { TestDatabase } from './helpers/databases.js';
import { startTestBackend } from './helpers/backend.js';
import type { TestBackend } from './helpers/backend.js';

const dialects = await testDialects();
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const GH_TOKEN = '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';
const AWS_KEY = 'AKIAIOSFODNN7EXAMPLE';

/** A Rust build that fails on E0425, with ANSI colours, a Jenkins console note and secrets. */
function rustLog(extraLines = 200): string {
  const lines: string[] = [
    'Started by user admin',
    '\u001b[8mha:////4AAAAFxYWJjZGVm\u001b[0m[Pipeline] Start of Pipeline',
    `+ git clone https://${GH_TOKEN}@github.com/acme/app.git`,
    `+ export AWS_ACCESS_KEY_ID=${AWS_KEY}`,
    '+ export DB_PASSWORD=hunter2',
  ];
  for (let i = 0; i < extraLines; i++) lines.push(`\u001b[32m   Compiling\u001b[0m crate-${i} v0.${i}.0`);
  lines.push(
    '\u001b[1m\u001b[31merror[E0425]\u001b[0m: cannot find value `conifg` in this scope',
    ' --> src/main.rs:14:5',
    '   |',
    '14 |     conifg.load();',
    '   |     ^^^^^^ help: a local variable with a similar name exists: `config`',
    'error: could not compile `app` (bin "app") due to 1 previous error',
    'Finished: FAILURE',
  );
  return `${lines.join('\n')}\n`;
}

function ciContext(log: string | undefined, extra: Record<string, unknown> = {}) {
  return {
    currentScreen: 'Build app #7',
    rootUrl: 'http://jenkins.example.com/',
    systemMessage: `deploy with token=${'s3cr3t-value-123'}`,
    activePlugins: [{ shortName: 'git', version: '5.2.1', enabled: true }],
    masterNode: { executors: 2, isOnline: true, systemInfo: { 'os.name': 'Linux' } },
    agentStats: { onlineAgents: 1, offlineAgents: 0 },
    jobDetails: { name: 'app', fullName: 'team/app' },
    buildDetails: { number: 7, result: 'FAILURE', ...(log === undefined ? {} : { consoleLog: log }) },
    ...extra,
  };
}

/** Fails on any text holding the marker: an embedding server going down in the middle of an upload. */
class FailingEmbedder implements Embedder {
  private readonly inner = new LocalEmbedder();
  readonly id = this.inner.id;
  readonly dim = this.inner.dim;
  async embed(texts: string[]): Promise<Float32Array[]> {
    if (texts.some((t) => t.includes('EXPLODE'))) throw new Error('embedding server down');
    return this.inner.embed(texts);
  }
}

interface Started {
  backend: TestBackend;
  context: ContextService;
}

async function startWithContext(
  dialect: (typeof dialects)[number],
  options: { database?: TestDatabase; embedder?: Embedder; secret?: string } = {},
): Promise<Started> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-ctx-data-'));
  const backend = await startTestBackend(dialect, {
    database: options.database,
    dataDir,
    secret: options.secret,
    context: { embedder: options.embedder ?? new LocalEmbedder(), uploadsMax: 2 },
  });
  const context = backend.context;
  const close = backend.close.bind(backend);
  backend.close = async () => {
    await close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  return { backend, context };
}

describe.each(dialects)('context API on $name', (dialect) => {
  let backend: TestBackend;
  let context: ContextService;
  let n = 0;
  const newUser = () => `ctx-${dialect.name}-${++n}-${Math.random().toString(36).slice(2)}`;

  beforeAll(async () => {
    ({ backend, context } = await startWithContext(dialect));
  });
  afterAll(async () => {
    await backend?.close();
  });

  async function buildChat(user: string): Promise<Chat> {
    const res = await backend.request(user, 'POST', '/chats/', {});
    expect(res.status).toBe(201);
    return (await res.json()) as Chat;
  }

  async function upload(user: string, chatId: number, body: unknown, b: TestBackend = backend): Promise<Response> {
    return b.request(user, 'POST', `/context/${chatId}/`, body);
  }

  test('an empty log is 422 naming the field, and the chat keeps its context (issue 27)', async () => {
    const user = newUser();
    const chat = await buildChat(user);
    expect((await upload(user, chat.id, { ciContext: ciContext(rustLog(5)) })).status).toBe(200);
    const before = (await (await backend.request(user, 'GET', `/context/${chat.id}/last-upload`)).json()) as { last_upload_at: string };
    for (const empty of ['', '\n\n', '  \r\n']) {
      const res = await upload(user, chat.id, { ciContext: ciContext(empty) });
      expect(res.status).toBe(422);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/^buildDetails\.consoleLog: the log is empty;.*keeps its previous context/);
    }
    const after = (await (await backend.request(user, 'GET', `/context/${chat.id}/last-upload`)).json()) as { last_upload_at: string };
    expect(after.last_upload_at).toBe(before.last_upload_at);
    const log = (await (await backend.request(user, 'GET', `/context/${chat.id}/log`)).json()) as { total_lines: number; lines: unknown[] };
    expect(log.total_lines).toBeGreaterThan(5);
    // a context without any log is still an upload (a job's facts alone)
    expect((await upload(user, chat.id, { ciContext: ciContext(undefined) })).status).toBe(200);
  });

  test('upload: masked, cleaned, echoed; jenkinsVersion read as ciVersion; unknown fields kept', async () => {
    const user = newUser();
    const chat = await buildChat(user);
    const before = await backend.request(user, 'GET', `/context/${chat.id}/last-upload`);
    expect(await before.json()).toEqual({ last_upload_at: null });

    const res = await upload(user, chat.id, {
      jenkinsContext: ciContext(rustLog(), { jenkinsVersion: '2.440.1', customField: { kept: [1, 2] } }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { success: boolean; received_data: Record<string, unknown> };
    expect(body.success).toBe(true);
    const data = body.received_data as ReturnType<typeof ciContext> & { ciVersion: string; customField: unknown };
    expect(data.ciVersion).toBe('2.440.1');
    expect(data).not.toHaveProperty('jenkinsVersion');
    expect(data.customField).toEqual({ kept: [1, 2] });
    expect(data.systemMessage).toBe('deploy with token=****');
    const echoed = JSON.stringify(body);
    for (const secret of [GH_TOKEN, AWS_KEY, 'hunter2', 's3cr3t-value-123', '\u001b', 'ha:////']) {
      expect(echoed).not.toContain(secret);
    }
    const log = data.buildDetails.consoleLog!;
    expect(log.split('\n')[1]).toBe('[Pipeline] Start of Pipeline');
    expect(log).toContain('error[E0425]: cannot find value `conifg` in this scope');

    for (const p of [`/context/${chat.id}/last-upload`, `/context/${chat.id}/last-upload/`]) {
      const last = (await (await backend.request(user, 'GET', p)).json()) as { last_upload_at: string };
      expect(last.last_upload_at).toMatch(ISO);
    }

    // What the answer engines get: the masked context, the analyzer's excerpts, and retrieval.
    const loaded = await context.loadContext(chat.id);
    expect(loaded).not.toBeNull();
    expect(loaded!.logLineCount).toBe(rustLog().split('\n').length - 1);
    expect(JSON.stringify(loaded!.ciContext)).not.toContain(GH_TOKEN);
    const excerpt = loaded!.failureExcerpts[0]!;
    expect(excerpt.text).toContain('E0425');
    expect(excerpt.start_line).toBeGreaterThan(200);
    const passages = await loaded!.retrieve('what does E0425 mean?', 3);
    expect(passages.length).toBeGreaterThan(0);
    expect(passages[0]!.text).toContain('E0425');
    const lines = log.split('\n');
    const first = passages[0]!;
    expect(first.text).toBe(lines.slice(first.start_line - 1, first.end_line).join('\n'));
    // Secrets never reach a chunk either.
    const all = await retrieve(context.deps, chat.id, 'git clone github token export', 20);
    expect(all.some((p) => p.start_line === 1)).toBe(true);
    for (const p of all) expect(p.text).not.toMatch(new RegExp(`${GH_TOKEN}|${AWS_KEY}|hunter2`));
  });

  test('ciEnvironment and parameters are masked by name; log, stored context and chunks by the same rules', async () => {
    const user = newUser();
    const chat = await buildChat(user);
    const log = [
      '+ curl -u admin:CurlPw111 https://nexus/upload',
      '+ docker login -u ci -p DockerPw222 registry.example.com',
      '+ mysql -uroot -pMysqlPw333 -e "select 1"',
      '+ PGPASSWORD=PgPw444 psql -h db',
      'SLACK xapp-1-A0123456789-1234567890123-abcdef0123456789abcdef',
      'error: build failed',
    ].join('\n');
    const res = await upload(user, chat.id, {
      ciContext: {
        ciEnvironment: { JOB_NAME: 'team/api', DB_PASS: 'EnvPw555', NPM_TOKEN: 'EnvTok666', KEYBOARD_LAYOUT: 'us', PWD: '/ws/api' },
        buildDetails: {
          number: 7,
          result: 'FAILURE',
          consoleLog: log,
          parameters: { DEPLOY_KEY: 'ParamKey777', BRANCH: 'main' },
          previousBuild: { number: 6, parameters: [{ name: 'SIGNING_SECRET', value: 'PrevSecret888' }] },
        },
      },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { received_data: { ciEnvironment: Record<string, string>; buildDetails: { parameters: Record<string, unknown> } } };
    expect(body.received_data.ciEnvironment).toEqual({ JOB_NAME: 'team/api', DB_PASS: '****', NPM_TOKEN: '****', KEYBOARD_LAYOUT: 'us', PWD: '/ws/api' });
    expect(body.received_data.buildDetails.parameters).toEqual({ DEPLOY_KEY: '****', BRANCH: 'main' });
    const secrets = ['CurlPw111', 'DockerPw222', 'MysqlPw333', 'PgPw444', 'xapp-1-A0123456789', 'EnvPw555', 'EnvTok666', 'ParamKey777', 'PrevSecret888'];
    const loaded = await context.loadContext(chat.id);
    const chunks = await retrieve(context.deps, chat.id, 'curl docker mysql psql slack', 20);
    for (const text of [JSON.stringify(body), JSON.stringify(loaded!.ciContext), ...chunks.map((c) => c.text)]) {
      for (const secret of secrets) expect(text).not.toContain(secret);
    }
    expect(chunks.map((c) => c.text).join('\n')).toContain('docker login -u ci -p ****');
  });

  test('POST without the trailing slash, and ciContext with no log at all', async () => {
    const user = newUser();
    const chat = await buildChat(user);
    const res = await backend.request(user, 'POST', `/context/${chat.id}`, { ciContext: ciContext(undefined) });
    expect(res.status).toBe(200);
    const loaded = await context.loadContext(chat.id);
    expect(loaded!.logLineCount).toBe(0);
    expect(loaded!.failureExcerpts).toEqual([]);
    expect(await loaded!.retrieve('why did it fail', 5)).toEqual([]);
    expect(loaded!.ciContext.buildDetails).toEqual({ number: 7, result: 'FAILURE' });
  });

  test('an empty log (refused, CONTRACT section 6) and a consoleLogTail', async () => {
    const user = newUser();
    const chat = await buildChat(user);
    expect((await upload(user, chat.id, { ciContext: ciContext('') })).status).toBe(422);
    expect(await context.loadContext(chat.id)).toBeNull();
    const tail = { ...ciContext(undefined), buildDetails: { consoleLogTail: 'a\nb\nERROR: boom\n' } };
    const res = await upload(user, chat.id, { ciContext: tail });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { received_data: { buildDetails: { consoleLogTail: string } } };
    expect(body.received_data.buildDetails.consoleLogTail).toBe('a\nb\nERROR: boom\n');
    expect((await context.loadContext(chat.id))!.logLineCount).toBe(3);
  });

  test('a new upload replaces the previous context, its chunks and its index file', async () => {
    const user = newUser();
    const chat = await buildChat(user);
    expect((await upload(user, chat.id, { ciContext: ciContext(rustLog(300)) })).status).toBe(200);
    const firstCounts = await countContexts(backend.db, chat.id);
    expect(firstCounts.ready).toBe(1);
    const indexFiles = () => fs.readdirSync(indexDir(backend.dataDir)).filter((f) => f.startsWith(`chat-${chat.id}-`));
    const firstFiles = indexFiles();
    expect(firstFiles).toHaveLength(1);

    const second = 'Started\n[ERROR] Failed to execute goal maven-surefire-plugin: There are test failures.\nFinished: FAILURE\n';
    expect((await upload(user, chat.id, { ciContext: ciContext(second) })).status).toBe(200);
    const counts = await countContexts(backend.db, chat.id);
    expect(counts).toEqual({ ready: 1, building: 0, chunks: 1 });
    expect(indexFiles()).toHaveLength(1);
    expect(indexFiles()).not.toEqual(firstFiles);
    const loaded = await context.loadContext(chat.id);
    expect(loaded!.logLineCount).toBe(3);
    expect((await loaded!.retrieve('surefire test failures', 1))[0]!.text).toContain('surefire');
  });

  test('a failed upload leaves the previous context whole and nothing half-stored', async () => {
    const failing = await startWithContext(dialect, { embedder: new FailingEmbedder() });
    try {
      const user = newUser();
      const res = await failing.backend.request(user, 'POST', '/chats/', {});
      const chat = (await res.json()) as Chat;
      expect((await upload(user, chat.id, { ciContext: ciContext(rustLog()) }, failing.backend)).status).toBe(200);
      const before = await failing.context.loadContext(chat.id);
      const log = `${rustLog(600)}EXPLODE here\n`;
      const bad = await upload(user, chat.id, { ciContext: ciContext(log) }, failing.backend);
      expect(bad.status).toBe(500);
      expect(await bad.json()).toEqual({ detail: 'Internal error' });
      const counts = await countContexts(failing.backend.db, chat.id);
      expect(counts.ready).toBe(1);
      expect(counts.building).toBe(0);
      const after = await failing.context.loadContext(chat.id);
      expect(after!.uploadedAt).toBe(before!.uploadedAt);
      expect(after!.logLineCount).toBe(before!.logLineCount);
      expect((await after!.retrieve('E0425', 1))[0]!.text).toContain('E0425');
    } finally {
      await failing.backend.close();
    }
  });

  test('an upload cut off mid-body stores nothing and leaves the previous context', async () => {
    const user = newUser();
    const chat = await buildChat(user);
    expect((await upload(user, chat.id, { ciContext: ciContext(rustLog()) })).status).toBe(200);
    const before = await context.loadContext(chat.id);
    const body = Buffer.from(JSON.stringify({ ciContext: ciContext(rustLog(20_000)) }));
    const token = await backend.token(user);
    await new Promise<void>((resolve) => {
      const req = http.request(`${backend.url}/context/${chat.id}/`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': String(body.length),
        },
      });
      req.on('error', () => resolve());
      req.write(body.subarray(0, Math.floor(body.length / 2)), () => {
        setTimeout(() => {
          req.destroy();
          resolve();
        }, 100);
      });
    });
    // The server notices the cut; give it a moment, then nothing of the second upload exists.
    for (let i = 0; i < 20 && (await countContexts(backend.db, chat.id)).building > 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await countContexts(backend.db, chat.id)).toMatchObject({ ready: 1, building: 0 });
    const after = await context.loadContext(chat.id);
    expect(after!.uploadedAt).toBe(before!.uploadedAt);
    expect(after!.logLineCount).toBe(before!.logLineCount);
  });

  test('wrong types answer 422 naming the field', async () => {
    const user = newUser();
    const chat = await buildChat(user);
    const cases: [unknown, string][] = [
      [{ ciContext: { buildDetails: { consoleLog: 42 } } }, 'ciContext.buildDetails.consoleLog: must be a string'],
      [{ jenkinsContext: { masterNode: { executors: 'two' } } }, 'jenkinsContext.masterNode.executors: must be a number'],
      [{ ciContext: { activePlugins: 'git' } }, 'ciContext.activePlugins: must be an object of plugin name -> version'],
      // Inside one of the two accepted shapes, the field within it is named.
      [{ ciContext: { activePlugins: [{ shortName: 7 }] } }, 'ciContext.activePlugins.0.shortName: must be a string'],
      [{ ciContext: { activePlugins: { git: true } } }, 'ciContext.activePlugins.git: must be a version string'],
      [{ ciContext: { buildDetails: { parameters: 'A=1' } } }, 'ciContext.buildDetails.parameters: must be an object of name -> value'],
      [{ ciContext: { buildDetails: { duration: '3 min' } } }, 'ciContext.buildDetails.duration: must be a number'],
      [{ ciContext: { buildDetails: { durationMs: '3 min' } } }, 'ciContext.buildDetails.durationMs: must be a number'],
      [{ ciContext: { buildDetails: { causes: [42] } } }, 'ciContext.buildDetails.causes.0: must be a string or an object'],
      [{ ciContext: { buildDetails: { testResults: { failed: 'x' } } } }, 'ciContext.buildDetails.testResults.failed: must be a number'],
      [{ ciContext: { jobDetails: { isBuildable: 'yes' } } }, 'ciContext.jobDetails.isBuildable: must be a boolean'],
      [{ ciContext: { jobDetails: { healthScore: 'good' } } }, 'ciContext.jobDetails.healthScore: must be a number'],
      [{ ciContext: { jobDetails: { upstreamProjects: 'a' } } }, 'ciContext.jobDetails.upstreamProjects: must be an array'],
      [{ ciContext: { ciEnvironment: { GIT_COMMIT: { sha: 1 } } } }, 'ciContext.ciEnvironment.GIT_COMMIT: must be a string, a number or a boolean'],
      [{ ciContext: 'text' }, 'ciContext: must be an object'],
      [{}, 'ciContext: is required'],
      [[1, 2], 'body: must be an object'],
    ];
    for (const [body, detail] of cases) {
      const res = await upload(user, chat.id, body);
      expect(res.status).toBe(422);
      expect(((await res.json()) as { detail: string }).detail).toContain(detail);
    }
    expect((await countContexts(backend.db, chat.id)).ready).toBe(0);
  });

  test('unknown chat, another user\'s chat and a bad id are 404', async () => {
    const owner = newUser();
    const chat = await buildChat(owner);
    for (const [user, p] of [
      [owner, '/context/999999999/'],
      [newUser(), `/context/${chat.id}/`],
      [owner, '/context/abc/'],
    ] as const) {
      const res = await backend.request(user, 'POST', p, { ciContext: ciContext(rustLog()) });
      expect(res.status).toBe(404);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/Chat .* not found/);
    }
    const other = await backend.request(newUser(), 'GET', `/context/${chat.id}/last-upload`);
    expect(other.status).toBe(404);
    expect((await countContexts(backend.db, chat.id)).ready).toBe(0);
  });

  test('oversize body 413, invalid UTF-8 400, not JSON 415, no token 401', async () => {
    const user = newUser();
    const chat = await buildChat(user);
    const big = Buffer.alloc(64 * 1024 * 1024 + 10, 0x61);
    const over = await fetch(`${backend.url}/context/${chat.id}/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await backend.token(user)}`, 'content-type': 'application/json' },
      body: big,
    });
    expect(over.status).toBe(413);
    const invalid = Buffer.concat([Buffer.from('{"ciContext":{"systemMessage":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}}')]);
    const bad = await fetch(`${backend.url}/context/${chat.id}/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await backend.token(user)}`, 'content-type': 'application/json' },
      body: invalid,
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { detail: string }).detail).toMatch(/UTF-8/);
    const text = await backend.request(user, 'POST', `/context/${chat.id}/`, 'hello', { 'content-type': 'text/plain' });
    expect(text.status).toBe(415);
    const anonymous = await backend.request(null, 'POST', `/context/${chat.id}/`, { ciContext: {} });
    expect(anonymous.status).toBe(401);
    expect((await countContexts(backend.db, chat.id)).ready).toBe(0);
  });

  test('a log that is one 10 MB line is stored as bounded chunks of line 1', async () => {
    const user = newUser();
    const chat = await buildChat(user);
    const line = `ERROR ${'x'.repeat(10 * 1024 * 1024)}`;
    const res = await upload(user, chat.id, { ciContext: ciContext(line) });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { received_data: { buildDetails: Record<string, string> } };
    // Too big to echo whole: the stored context keeps the tail (here the one line).
    expect(body.received_data.buildDetails.consoleLog).toBeUndefined();
    const loaded = await context.loadContext(chat.id);
    expect(loaded!.logLineCount).toBe(1);
    const counts = await countContexts(backend.db, chat.id);
    // A line is kept up to MAX_LINE_CHARS (1 MiB), then says how long it was (issue 28).
    expect(counts.chunks).toBe(Math.ceil((MAX_LINE_CHARS + ` [line cut: ${line.length} characters]`.length) / 4000));
    const passages = await loaded!.retrieve('ERROR', 2);
    for (const p of passages) {
      expect([p.start_line, p.end_line]).toEqual([1, 1]);
      expect(p.text.length).toBeLessThanOrEqual(4000);
    }
  });

  // With CONTEXT_UPLOADS_MAX above 1 (this backend: 2), two uploads to one chat race in ingest.
  test('two uploads to one chat at once: both succeed, one whole context remains', async () => {
    const user = newUser();
    const chat = await buildChat(user);
    const a = `${rustLog(400)}marker-alpha\n`;
    const b = 'marker-beta line\nFinished: SUCCESS\n';
    const [ra, rb] = await Promise.all([
      upload(user, chat.id, { ciContext: ciContext(a) }),
      upload(user, chat.id, { ciContext: ciContext(b) }),
    ]);
    expect([ra.status, rb.status]).toEqual([200, 200]);
    const counts = await countContexts(backend.db, chat.id);
    expect(counts.ready).toBe(1);
    expect(counts.building).toBe(0);
    const loaded = await context.loadContext(chat.id);
    const lines = loaded!.logLineCount;
    expect([a.split('\n').length - 1, 2]).toContain(lines);
    // The chunks are exactly those of the winning upload.
    const passages = await loaded!.retrieve('marker', 100);
    const markers = new Set(passages.flatMap((p) => p.text.match(/marker-(alpha|beta)/g) ?? []));
    expect(markers.size).toBe(1);
  });

  test('an identifier in the question finds its chunk among thousands of look-alike chunks', async () => {
    const user = newUser();
    const chat = await buildChat(user);
    const lines: string[] = [];
    for (let i = 0; i < 6000; i++) lines.push(`worker-${i % 7} processed batch ${i} of table orders in ${i % 90} ms`);
    lines[4321] = 'worker-3 failed batch 4321: ORA-00942: table or view does not exist';
    expect((await upload(user, chat.id, { ciContext: ciContext(`${lines.join('\n')}\n`) })).status).toBe(200);
    const stored = await currentContext(backend.db, chat.id);
    const exact = await chunksWithTerm(backend.db, stored!, 'ora-00942', 10);
    expect(exact.length).toBeGreaterThanOrEqual(1);
    for (const c of exact) {
      expect(c.start_line).toBeLessThanOrEqual(4322);
      expect(c.end_line).toBeGreaterThanOrEqual(4322);
    }
    expect(await chunksWithTerm(backend.db, stored!, 'ora-0094', 10)).toEqual([]);
    const [best] = await retrieve(context.deps, chat.id, 'worker processed batch table ORA-00942', 1);
    expect(best!.text).toContain('ORA-00942');
    expect(best!.start_line).toBeLessThanOrEqual(4322);
    expect(best!.end_line).toBeGreaterThanOrEqual(4322);
  });

  test('deleting the chat deletes its contexts, chunks and index files', async () => {
    const user = newUser();
    const chat = await buildChat(user);
    expect((await upload(user, chat.id, { ciContext: ciContext(rustLog()) })).status).toBe(200);
    const files = () => fs.readdirSync(indexDir(backend.dataDir)).filter((f) => f.startsWith(`chat-${chat.id}-`) || f === `chat-${chat.id}.json`);
    expect(files().length).toBe(2);
    expect((await backend.request(user, 'DELETE', `/chats/${chat.id}`)).status).toBe(200);
    expect(files()).toEqual([]);
    expect(await countContexts(backend.db, chat.id)).toEqual({ ready: 0, building: 0, chunks: 0 });
    expect(await context.loadContext(chat.id)).toBeNull();
  });

  test('two backends on one database with their own DATA_DIRs answer from the same context', async () => {
    const database = await dialect.create();
    const one = await startWithContext(dialect, { database, secret: 'x'.repeat(40) });
    const two = await startWithContext(dialect, { database, secret: 'x'.repeat(40) });
    try {
      const user = newUser();
      const chat = (await (await one.backend.request(user, 'POST', '/chats/', {})).json()) as Chat;
      expect((await upload(user, chat.id, { ciContext: ciContext(rustLog(500)) }, one.backend)).status).toBe(200);
      // The second process has no index file: it rebuilds from the database and finds the same.
      expect(fs.existsSync(indexDir(two.backend.dataDir))).toBe(false);
      const viaTwo = await (await two.context.loadContext(chat.id))!.retrieve('E0425 conifg', 3);
      const viaOne = await (await one.context.loadContext(chat.id))!.retrieve('E0425 conifg', 3);
      expect(viaTwo).toEqual(viaOne);
      expect(viaTwo[0]!.text).toContain('E0425');
      expect(fs.readdirSync(indexDir(two.backend.dataDir)).some((f) => f.endsWith('.hnsw'))).toBe(true);
      const last = await two.backend.request(user, 'GET', `/context/${chat.id}/last-upload`);
      expect(((await last.json()) as { last_upload_at: string }).last_upload_at).toMatch(ISO);

      // A new upload through the second is seen by the first (its cached index is stale now).
      const next = 'only line about ORA-00942: table or view does not exist\n';
      expect((await upload(user, chat.id, { ciContext: ciContext(next) }, two.backend)).status).toBe(200);
      const fresh = await (await one.context.loadContext(chat.id))!.retrieve('ORA-00942', 3);
      expect(fresh).toHaveLength(1);
      expect(fresh[0]!.text).toContain('ORA-00942');
    } finally {
      await one.backend.close();
      await two.backend.close();
      await database.drop();
    }
  });
});

describe.each(dialects)('migration 007 on $name', (dialect) => {
  test('converts the per-chunk term lists of existing contexts into the bucketed term index', async () => {
    const database = await dialect.create();
    const db = openDb(database.url);
    try {
      // The schema as it was before 007, with one stored context of 3 chunks.
      for (let i = 1; i <= 6; i++) await db.migrate.up();
      expect(await db.schema.hasTable('context_chunk_terms')).toBe(true);
      expect(await db.schema.hasTable('context_terms')).toBe(false);
      const [chatId] = await db('chats').insert({ user_id: 'u', title: 't', created_at: 1, updated_at: 1 });
      const [contextId] = await db('contexts').insert({
        chat_id: Number(chatId),
        state: 'ready',
        ci_context: '{}',
        created_at: 1,
        uploaded_at: 2,
        log_line_count: 3,
        chunk_count: 3,
        failure_excerpts: '[]',
        embedder_id: 'local-hash-v2-256',
        dim: 4,
      });
      const id = Number(contextId);
      const vector = vectorToBytes(new Float32Array([1, 0, 0, 0]));
      await db('context_chunks').insert(
        [0, 1, 2].map((seq) => ({ context_id: id, seq, start_line: seq + 1, end_line: seq + 1, text: `line ${seq}`, embedding: vector })),
      );
      await db('context_chunk_terms').insert([
        { context_id: id, seq: 0, terms: ' e0425 src/main.rs main.rs ' },
        { context_id: id, seq: 2, terms: ' e0425 ora-00942 ' },
      ]);
      // A bigger context: 400 chunks (128 buckets), a term in 20 of them (16 postings kept).
      const [bigId] = await db('contexts').insert({
        chat_id: Number(chatId), state: 'ready', ci_context: '{}', created_at: 1, uploaded_at: 2, log_line_count: 400,
        chunk_count: 400, failure_excerpts: '[]', embedder_id: 'local-hash-v2-256', dim: 4,
      });
      const big = Number(bigId);
      await db('context_chunks').insert(
        Array.from({ length: 400 }, (_, seq) => ({ context_id: big, seq, start_line: seq + 1, end_line: seq + 1, text: `big ${seq}`, embedding: vector })),
      );
      await db('context_chunk_terms').insert(Array.from({ length: 20 }, (_, k) => ({ context_id: big, seq: k * 10, terms: ` npe-${k % 2} common ` })));
      await db.migrate.latest();
      expect(await db.schema.hasTable('context_chunk_terms')).toBe(false);
      expect((await chunksWithTerm(db, { id: big, chunkCount: 400 }, 'common', 32)).map((c) => c.seq)).toEqual(Array.from({ length: 16 }, (_, k) => k * 10));
      expect((await chunksWithTerm(db, { id: big, chunkCount: 400 }, 'npe-1', 32)).map((c) => c.seq)).toEqual(Array.from({ length: 10 }, (_, k) => k * 20 + 10));
      const context = { id, chunkCount: 3 };
      expect((await chunksWithTerm(db, context, 'e0425', 16)).map((c) => c.seq)).toEqual([0, 2]);
      expect((await chunksWithTerm(db, context, 'e0425', 1)).map((c) => c.seq)).toEqual([0]);
      expect((await chunksWithTerm(db, context, 'ora-00942', 16)).map((c) => c.text)).toEqual(['line 2']);
      expect(await chunksWithTerm(db, context, 'main', 16)).toEqual([]);
      expect(await chunksWithTerm(db, context, 'e042', 16)).toEqual([]);
    } finally {
      await db.destroy();
      await database.drop();
    }
  });
});
