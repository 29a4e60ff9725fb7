import Router from '@koa/router';
import Koa from 'koa';
import { promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import querystring from 'node:querystring';
import { registerWorkspaceRoutes } from '../controller/workspace/routes.js';
import { makeTempHome, writeFiles } from './fixtures/workspace-homes/fixture.js';
import type { TempHome } from './fixtures/workspace-homes/fixture.js';

const MARKER = `CICHAT-SECRET-${process.pid}-b2f9d4`;
let t: TempHome;
let server: http.Server;
let base: string;

interface Reply {
  status: number;
  text: string;
}

/** GET with the path sent byte for byte as given (no client-side normalisation of `..`). */
function get(rawPath: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}/`, { method: 'GET', path: rawPath }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A payload as the lists give it, inserted raw into the query (only query syntax escaped). */
function raw(payload: string): string {
  return payload.replace(/[&#+ ]/g, (c) => encodeURIComponent(c)).replace(/[^\x21-\x7e]/gu, (c) => encodeURIComponent(c));
}

function fileUrl(filePath: string, opts: { encode?: boolean; job?: string; build?: string; ws?: string } = {}): string {
  const fp = opts.encode ? encodeURIComponent(filePath) : raw(filePath);
  return `/chatbot-api/workspaceFile?jobName=${opts.job ?? 'freestyle'}&buildNumber=${opts.build ?? '1'}&workspaceId=${opts.ws ?? 'ws-default'}&filePath=${fp}`;
}

function json(reply: Reply): unknown {
  return JSON.parse(reply.text);
}

/** The test's own reading of "this is a traversal attempt", independent of the guard's code. */
function looksLikeTraversal(payload: string): boolean {
  const forms = [payload];
  let current = payload;
  for (let i = 0; i < 5; i++) {
    try {
      const next = decodeURIComponent(current);
      if (next === current) break;
      forms.push(next);
      current = next;
    } catch {
      return true; // malformed encodings are refused as traversal
    }
  }
  return forms.some((f) => /(^|\/)\.\.(\/|$)/.test(f) || f.includes('\\') || f.startsWith('/') || /^[a-z]:/i.test(f) || f.includes('\0'));
}

beforeAll(async () => {
  t = await makeTempHome();
  const ws = path.join(t.home, 'workspace', 'freestyle');
  await writeFiles(t.root, { 'secret.txt': MARKER, 'etc/passwd': `root:${MARKER}:0:0` });
  await writeFiles(t.home, { 'secrets/master.key': MARKER, 'workspace/other/secret.txt': MARKER, 'credentials.xml': MARKER });
  await writeFiles(ws, {
    'README.md': '# freestyle\n',
    'src/App.java': 'class App {}',
    'build/app.bin': Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x00]),
    '.git/config': MARKER,
  });
  await fs.symlink(path.join(t.root, 'secret.txt'), path.join(ws, 'evil'));
  await fs.symlink('../../../secret.txt', path.join(ws, 'evil-rel'));
  await fs.symlink(t.root, path.join(ws, 'evil-dir'));
  await fs.symlink('../other', path.join(ws, 'evil-sibling'));
  await fs.mkdir(path.join(t.agent, 'workspace', 'p'), { recursive: true });
  await writeFiles(path.join(t.agent, 'workspace', 'p'), { 'Jenkinsfile': "node('remote') {}" });

  const app = new Koa();
  const router = new Router({ prefix: '/chatbot-api' });
  registerWorkspaceRoutes(router, { jenkinsHome: t.home, pathMap: t.pathMap, confinement: t.withAgentRoots });
  app.use(router.routes()).use(router.allowedMethods());
  server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await t.cleanup();
});

describe('GET /workspaceTree', () => {
  it('answers the workspaces of a classic build, with and without a trailing slash', async () => {
    for (const route of ['workspaceTree', 'workspaceTree/']) {
      const reply = await get(`/chatbot-api/${route}?jobName=freestyle&buildNumber=1`);
      expect(reply.status).toBe(200);
      const body = json(reply) as { workspaceId: string; node: string; path: string; tree: { children: { name: string; type: string }[] } }[];
      expect(body).toHaveLength(1);
      expect(body[0]).toMatchObject({ workspaceId: 'ws-default', node: 'built-in', path: '/var/jenkins_home/workspace/freestyle' });
      expect(body[0]?.tree.children.map((c) => `${c.name}:${c.type}`)).toEqual([
        'README.md:file', 'build:directory', 'evil:file', 'evil-dir:file', 'evil-rel:file', 'evil-sibling:file', 'src:directory',
      ]);
      expect(reply.text).not.toContain(MARKER);
    }
  });

  it('answers a pipeline build on an agent, the flow node id as workspaceId', async () => {
    const reply = await get('/chatbot-api/workspaceTree?jobName=p-pernode&buildNumber=1&depth=1');
    expect(reply.status).toBe(200);
    expect(json(reply)).toEqual([
      {
        workspaceId: '3',
        node: 'remote',
        path: '/home/jenkins/agent/workspace/p',
        tree: { name: 'p', type: 'directory', children: [{ name: 'Jenkinsfile', type: 'file', size: 17 }] },
      },
    ]);
  });

  it('an empty array when no workspace of the build is on this host', async () => {
    const reply = await get('/chatbot-api/workspaceTree?jobName=p-bulk&buildNumber=1');
    expect(reply.status).toBe(200);
    expect(json(reply)).toEqual([]);
  });

  it.each([
    ['jobName=freestyle', 400],
    ['buildNumber=1', 400],
    ['jobName=freestyle&buildNumber=abc', 400],
    ['jobName=freestyle&buildNumber=1&depth=0', 400],
    ['jobName=freestyle&buildNumber=1&depth=21', 400],
    ['jobName=freestyle&buildNumber=1&depth=two', 400],
    ['jobName=freestyle&jobName=x&buildNumber=1', 400],
    ['jobName=nope&buildNumber=1', 404],
    ['jobName=freestyle&buildNumber=42', 404],
  ])('%s -> %d', async (query, status) => {
    const reply = await get(`/chatbot-api/workspaceTree?${query}`);
    expect(reply.status).toBe(status);
    expect(json(reply)).toMatchObject({ status: 'error', message: expect.any(String) });
  });

  it('accepts depth 20', async () => {
    expect((await get('/chatbot-api/workspaceTree?jobName=freestyle&buildNumber=1&depth=20')).status).toBe(200);
  });
});

describe('GET /workspaceFile', () => {
  it('answers content, with and without a trailing slash', async () => {
    for (const route of ['workspaceFile', 'workspaceFile/']) {
      const reply = await get(`/chatbot-api/${route}?jobName=freestyle&buildNumber=1&workspaceId=ws-default&filePath=src%2FApp.java`);
      expect(reply.status).toBe(200);
      expect(json(reply)).toEqual({ status: 'success', content: 'class App {}' });
    }
    const agent = await get('/chatbot-api/workspaceFile?jobName=p-pernode&buildNumber=1&workspaceId=3&filePath=Jenkinsfile');
    expect(json(agent)).toEqual({ status: 'success', content: "node('remote') {}" });
  });

  it.each([
    ['missing filePath', 'jobName=freestyle&buildNumber=1&workspaceId=ws-default', 400],
    ['missing workspaceId', 'jobName=freestyle&buildNumber=1&filePath=README.md', 400],
    ['missing jobName', 'buildNumber=1&workspaceId=ws-default&filePath=README.md', 400],
    ['unknown job', 'jobName=nope&buildNumber=1&workspaceId=ws-default&filePath=README.md', 404],
    ['unknown build', 'jobName=freestyle&buildNumber=9&workspaceId=ws-default&filePath=README.md', 404],
    ['unknown workspace', 'jobName=freestyle&buildNumber=1&workspaceId=17&filePath=README.md', 404],
    ['unknown file', 'jobName=freestyle&buildNumber=1&workspaceId=ws-default&filePath=nope.txt', 404],
    ['binary file', 'jobName=freestyle&buildNumber=1&workspaceId=ws-default&filePath=build/app.bin', 415],
  ])('%s (%s) -> %d', async (_what, query, status) => {
    const reply = await get(`/chatbot-api/workspaceFile?${query}`);
    expect(reply.status).toBe(status);
    expect(json(reply)).toEqual({ status: 'error', message: expect.any(String) });
  });
});

// Units from public path-traversal lists (PayloadsAllTheThings "Directory Traversal",
// OWASP testing guide, SecLists Fuzzing/LFI): each is repeated to climb 3 and 6 levels.
const UNITS = [
  '../', '..%2f', '%2e%2e/', '%2e%2e%2f', '..%252f', '%252e%252e%252f', '%252e%252e/', '....//',
  '..\\', '..%5c', '%2e%2e%5c', '..%255c', '%c0%ae%c0%ae/', '..%c0%af', '..%c1%9c', '%uff0e%uff0e/',
  '.%2e/', '%2e./', '..;/', '..///', '%%32%65%%32%65/', '..%u2215', '..%00/', '.../',
];
const TARGETS = ['secret.txt', 'etc/passwd', 'home/secrets/master.key'];
const STANDALONE = [
  '/etc/passwd', '/etc/shadow', 'C:\\Windows\\win.ini', 'C:/Windows/win.ini', 'c:\\boot.ini', '\\\\localhost\\c$\\windows\\win.ini',
  'file:///etc/passwd', 'file://localhost/etc/passwd', '%2fetc%2fpasswd', '%252fetc%252fpasswd', '//etc/passwd',
  'secret.txt%00.md', '../../../secret.txt%00.md', 'README.md%00../../../secret.txt', '%00../../../secret.txt',
  './../../../secret.txt', 'src/../../../../secret.txt', 'src/./../../../../secret.txt', '..', '.', '%2e%2e', '%2e',
  '../workspace/other/secret.txt', '../other/secret.txt', '../../secrets/master.key', '../../credentials.xml',
  'evil', 'evil-rel', 'evil-dir/secret.txt', 'evil-dir/home/secrets/master.key', 'evil-sibling/secret.txt', 'evil-dir',
  '.git/config', 'node_modules/../../../../secret.txt',
];

function filePayloads(): string[] {
  const out = new Set<string>();
  for (const unit of UNITS) {
    for (const levels of [3, 6]) for (const target of TARGETS) out.add(unit.repeat(levels) + target);
  }
  for (const p of STANDALONE) out.add(p);
  return [...out];
}

describe('path traversal', () => {
  const payloads = filePayloads();

  it('has a real list of payloads', () => {
    expect(payloads.length).toBeGreaterThanOrEqual(50);
  });

  it('workspaceFile never returns a byte from outside the workspace', async () => {
    let refusedAsTraversal = 0;
    for (const payload of payloads) {
      for (const encode of [false, true]) {
        const reply = await get(fileUrl(payload, { encode }));
        const context = `${encode ? 'encoded' : 'raw'} ${payload} -> ${reply.status} ${reply.text}`;
        expect([context, reply.text.includes(MARKER)]).toEqual([context, false]);
        expect([context, reply.status]).not.toEqual([context, 200]);
        expect(json(reply)).toMatchObject({ status: 'error' });
        if (looksLikeTraversal(encode ? payload : decodeOnceLikeServer(payload))) {
          expect([context, reply.status, reply.text.includes('Path traversal')]).toEqual([context, 400, true]);
          refusedAsTraversal++;
        }
      }
    }
    expect(refusedAsTraversal).toBeGreaterThan(100);
  });

  it('workspaceTree and workspaceFile refuse traversal through jobName, buildNumber and workspaceId', async () => {
    const jobNames = [
      '..', '../..', '../../..', '..%2f..%2f..', '%2e%2e', '%252e%252e', 'freestyle/../..', 'freestyle%2f..%2f..%2f..',
      '/etc', raw(t.root), '..\\..', 'C:\\', 'freestyle%00', 'team/../../..', '....//....//', 'file:///etc',
      '%c0%ae%c0%ae', 'jobs/../..', '.', 'team/./..',
    ];
    const buildNumbers = ['../1', '1/../..', '..%2f1', '1%00', '%2e%2e', '1/../../../secret.txt', '-1', '0', '1e3', '0x1'];
    const workspaceIds = ['..', '../..', '%2e%2e', 'ws-default/../..', '..%2f..', '%252e%252e%252f', '/', 'ws-default%00', '3/../../'];
    const urls: string[] = [];
    for (const job of jobNames) {
      urls.push(`/chatbot-api/workspaceTree?jobName=${raw(job)}&buildNumber=1&depth=20`);
      urls.push(`/chatbot-api/workspaceTree?jobName=${encodeURIComponent(job)}&buildNumber=1&depth=20`);
      urls.push(fileUrl('README.md', { job: raw(job) }));
      urls.push(fileUrl('secret.txt', { job: encodeURIComponent(job) }));
    }
    for (const build of buildNumbers) {
      urls.push(`/chatbot-api/workspaceTree?jobName=freestyle&buildNumber=${raw(build)}`);
      urls.push(fileUrl('README.md', { build: raw(build) }));
    }
    for (const ws of workspaceIds) {
      urls.push(fileUrl('secret.txt', { ws: raw(ws) }));
      urls.push(fileUrl('home/secrets/master.key', { ws: encodeURIComponent(ws) }));
    }
    for (const url of urls) {
      const reply = await get(url);
      const context = `${url} -> ${reply.status} ${reply.text.slice(0, 300)}`;
      expect([context, [400, 404].includes(reply.status)]).toEqual([context, true]);
      expect([context, /CICHAT-SECRET|secret\.txt"|master\.key|credentials\.xml/.test(reply.text)]).toEqual([context, false]);
      expect(json(reply)).toMatchObject({ status: 'error' });
    }
    expect(urls.length).toBeGreaterThan(50);
  });
});

/** What Koa's query parser hands the route for a raw payload: one lenient round of decoding. */
function decodeOnceLikeServer(payload: string): string {
  const value = querystring.parse(`v=${raw(payload)}`).v;
  return typeof value === 'string' ? value : payload;
}
