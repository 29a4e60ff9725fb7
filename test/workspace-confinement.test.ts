/**
 * Issue 12, points 1 and 6 (file names): the hostile home of test/fixtures/hostile-home served by
 * a real controller over HTTP. Nothing outside the workspace roots is ever listed or served;
 * a refused workspace is a 404 naming why; folders linking out of JENKINS_HOME are not followed,
 * not even into a chat's context; a file name that is not valid UTF-8 is listed and fetchable.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pino } from 'pino';
import { startController } from '../controller/app.js';
import type { RunningController } from '../controller/app.js';
import { loadControllerConfig } from '../controller/config.js';
import { nameBytes, wireName } from '../jenkins/workspace/names.js';
import type { WorkspaceTreeEntry, WorkspaceTreeNode } from '../protocol/types.js';
import { makeHostileHome } from './fixtures/hostile-home/build.js';
import type { HostileHome } from './fixtures/hostile-home/build.js';

let h: HostileHome;
let backend: http.Server;
let backendUrl: string;
/** What reached the stand-in backend: the bodies of context uploads. */
const uploads: string[] = [];

interface Reply {
  status: number;
  body: unknown;
  text: string;
}

function request(base: string, method: string, rawPath: string, body?: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}/`, { method, path: rawPath, headers: body ? { 'content-type': 'application/json' } : {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          /* not JSON: assertions show it */
        }
        resolve({ status: res.statusCode ?? 0, body: parsed, text });
      });
    });
    req.setTimeout(10_000, () => req.destroy(new Error(`${method} ${rawPath} timed out`)));
    req.on('error', reject);
    req.end(body);
  });
}

async function withController<T>(env: Record<string, string>, work: (get: (p: string) => Promise<Reply>, c: RunningController) => Promise<T>): Promise<T> {
  const loaded = loadControllerConfig({
    CONTROLLER_PORT: '0',
    JWT_SECRET: randomBytes(32).toString('hex'),
    DATA_DIR: h.dataDir,
    JENKINS_HOME: h.home,
    JENKINS_PATH_MAP: h.pathMapSpec,
    BACKEND_URL: backendUrl,
    ...env,
  });
  if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
  const controller = await startController(loaded.config, { logger: pino({ level: 'silent' }) });
  try {
    return await work((p) => request(controller.url, 'GET', p), controller);
  } finally {
    await controller.close(0);
  }
}

const q = (params: Record<string, string>): string => new URLSearchParams(params).toString();
const treePath = (jobName: string, build = '1', depth = 3): string => `/chatbot-api/workspaceTree?${q({ jobName, buildNumber: build, depth: String(depth) })}`;
const filePath = (jobName: string, workspaceId: string, file: string, build = '1'): string =>
  `/chatbot-api/workspaceFile?${q({ jobName, buildNumber: build, workspaceId, filePath: file })}`;

/** Every answer is checked for the marker: nothing that must stay private ever travels. */
function clean(reply: Reply): Reply {
  expect(reply.text).not.toContain(h.marker);
  expect(reply.text).not.toContain('root:x:0:0');
  return reply;
}

function ids(reply: Reply): string[] {
  expect(reply.status).toBe(200);
  return (reply.body as WorkspaceTreeEntry[]).map((e) => e.workspaceId);
}

beforeAll(async () => {
  h = await makeHostileHome();
  backend = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      uploads.push(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ success: true }));
    });
  });
  await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve));
  backendUrl = `http://127.0.0.1:${(backend.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => backend.close(() => resolve()));
  await h.cleanup();
});

describe('recorded workspaces with the default roots (JENKINS_HOME/workspace, legacy item dirs)', () => {
  it('lists only the workspaces inside the roots, and serves none of the others, each 404 naming why', async () => {
    await withController({}, async (get) => {
      const listed = ids(clean(await get(treePath('evil'))));
      expect(listed.sort()).toEqual(h.cases.filter((c) => c.served === true).map((c) => c.id).sort());
      for (const c of h.cases) {
        for (const file of ['passwd', 'master.key', 'id_rsa', 'jwt-secret', 'secret.txt', 'agent.txt', 'package.json', 'admin/config.xml', 'environ']) {
          const reply = clean(await get(filePath('evil', c.id, file)));
          if (c.served === true) continue;
          expect([c.id, file, reply.status]).toEqual([c.id, file, 404]);
          expect(reply.body).toEqual({ status: 'error', message: expect.stringContaining(`recorded by build 1`) as unknown as string });
          expect([c.id, (reply.body as { message: string }).message]).toEqual([c.id, expect.stringMatching(c.why ?? /./)]);
          expect((reply.body as { message: string }).message).toContain(`workspace ${c.recorded} `);
        }
      }
      expect(clean(await get(filePath('evil', '9', 'ok.txt'))).body).toEqual({ status: 'success', content: 'legit workspace' });
      expect(clean(await get(filePath('evil', '16', 'legacy.txt'))).body).toEqual({ status: 'success', content: 'legacy item workspace' });
    });
  });

  it('a classic build that recorded /etc, or a job whose customWorkspace is /etc, shows no workspace and says why', async () => {
    await withController({}, async (get) => {
      expect(ids(clean(await get(treePath('classic-etc'))))).toEqual([]);
      const recorded = clean(await get(filePath('classic-etc', 'ws-default', 'passwd')));
      expect(recorded.status).toBe(404);
      expect((recorded.body as { message: string }).message).toMatch(/workspace \/etc recorded by build 1 lies in \/etc, which is never served/);
      expect(ids(clean(await get(treePath('custom-etc'))))).toEqual([]);
      const configured = clean(await get(filePath('custom-etc', 'ws-default', 'passwd')));
      expect(configured.status).toBe(404);
      expect((configured.body as { message: string }).message).toMatch(/the workspace its job configures lies in \/etc/);
    });
  });
});

describe('CICHAT_WORKSPACE_ROOTS', () => {
  it('replaces the default roots: the agent mount served, the legacy dir no longer, the rest still refused', async () => {
    const roots = `\${JENKINS_HOME}/workspace,${path.join(h.agent, 'workspace')}`;
    await withController({ CICHAT_WORKSPACE_ROOTS: roots }, async (get) => {
      expect(ids(clean(await get(treePath('evil')))).sort()).toEqual(['10', '9']);
      expect(clean(await get(filePath('evil', '10', 'agent.txt'))).body).toEqual({ status: 'success', content: 'agent workspace' });
      // Recorded on agent `other` without a JENKINS_PATH_MAP entry: not read, although it lies in a root.
      const unmapped = clean(await get(filePath('evil', '11', 'agent.txt')));
      expect(unmapped.status).toBe(404);
      expect((unmapped.body as { message: string }).message).toMatch(/agent other and no JENKINS_PATH_MAP entry maps it/);
      expect(clean(await get(filePath('evil', '16', 'legacy.txt'))).status).toBe(404);
      for (const id of ['3', '4', '5', '6', '7', '8', '12', '13', '14', '17', '18', '19']) {
        expect([id, clean(await get(filePath('evil', id, 'passwd'))).status]).toEqual([id, 404]);
      }
    });
  });

  it('follows a workspace root replaced by a link: to the home or / it serves nothing, to another disk only once named', async () => {
    const ws = path.join(h.home, 'workspace');
    const real = path.join(h.root, 'workspace-real');
    await fs.rename(ws, real);
    try {
      for (const target of [h.home, '/', path.join(h.home, 'secrets'), '/etc']) {
        await fs.symlink(target, ws);
        await withController({}, async (get) => {
          expect([target, ids(clean(await get(treePath('evil')))).sort()]).toEqual([target, ['16']]);
          expect([target, clean(await get(filePath('evil', '9', 'ok.txt'))).status]).toEqual([target, 404]);
        });
        await fs.unlink(ws);
      }
      // The usual reason for such a link: workspaces on a bigger disk. A default root resolves
      // inside JENKINS_HOME only (issue 24 point 5): the link is followed once it is named.
      await fs.symlink(real, ws);
      await withController({}, async (get) => {
        expect(ids(clean(await get(treePath('evil')))).sort()).toEqual(['16']);
        const refused = clean(await get(filePath('evil', '9', 'ok.txt')));
        expect(refused.status).toBe(404);
        expect((refused.body as { message: string }).message).toMatch(/outside the workspace roots \(CICHAT_WORKSPACE_ROOTS\)/);
      });
      await withController({ CICHAT_WORKSPACE_ROOTS: real }, async (get) => {
        expect(ids(clean(await get(treePath('evil')))).sort()).toEqual(['9']);
        expect(clean(await get(filePath('evil', '9', 'ok.txt'))).body).toEqual({ status: 'success', content: 'legit workspace' });
      });
      await fs.unlink(ws);
    } finally {
      await fs.rm(ws, { force: true });
      await fs.rename(real, ws);
    }
  });

  it('bad values stop start-up, one line each naming the entry', () => {
    const result = loadControllerConfig({
      JWT_SECRET: randomBytes(32).toString('hex'),
      DATA_DIR: h.dataDir,
      JENKINS_HOME: h.home,
      CICHAT_WORKSPACE_ROOTS: ['relative/ws', '/', h.home, '/etc/ws', path.join(h.dataDir, 'ws'), path.join(h.home, 'secrets'), '${WORKSPACE}/x', '${ITEM_ROOTDIR}/../x', h.root].join(','),
    });
    expect(result.ok).toBe(false);
    const problems = result.ok ? [] : result.problems.filter((p) => p.startsWith('CICHAT_WORKSPACE_ROOTS: '));
    expect(problems).toEqual([
      expect.stringContaining('"relative/ws" is not an absolute path'),
      expect.stringContaining('"/" holds JENKINS_HOME'),
      expect.stringContaining(`"${h.home}" holds JENKINS_HOME`),
      expect.stringContaining('"/etc/ws" lies in /etc'),
      expect.stringContaining(`lies in ${h.dataDir}`),
      expect.stringContaining(`"${path.join(h.home, 'secrets')}" lies in`),
      expect.stringContaining('only ${JENKINS_HOME} and ${ITEM_ROOTDIR} may be used'),
      expect.stringContaining('"${ITEM_ROOTDIR}/../x"'),
      expect.stringContaining(`"${h.root}" holds JENKINS_HOME`),
    ]);
    const good = loadControllerConfig({
      JWT_SECRET: randomBytes(32).toString('hex'),
      DATA_DIR: h.dataDir,
      JENKINS_HOME: h.home,
      CICHAT_WORKSPACE_ROOTS: `\${JENKINS_HOME}/workspace:${h.agent}/workspace, \${ITEM_ROOTDIR}/workspace`,
    });
    if (!good.ok) throw new Error(good.problems.join('\n'));
    expect(good.config.workspaceRoots).toEqual([path.join(h.home, 'workspace'), path.join(h.agent, 'workspace'), '${ITEM_ROOTDIR}/workspace']);
  });
});

describe('default roots resolve inside JENKINS_HOME only; home key directories are never served (issue 24 point 5)', () => {
  it('JENKINS_HOME/workspace linked to a home-like directory serves nothing of it until named, and never its .ssh', async () => {
    const ws = path.join(h.home, 'workspace');
    const real = path.join(h.root, 'workspace-real-5');
    await fs.rename(ws, real);
    try {
      await fs.symlink(h.fakeHome, ws);
      await withController({}, async (get) => {
        expect(ids(clean(await get(treePath('evil')))).sort()).toEqual(['16']);
        expect(clean(await get(filePath('evil', '9', '../.ssh/id_rsa'))).status).toBe(400);
        for (const file of ['ok.txt', '.ssh/id_rsa']) expect([file, clean(await get(filePath('evil', '9', file))).status]).toEqual([file, 404]);
      });
      await withController({ CICHAT_WORKSPACE_ROOTS: h.fakeHome }, async (get) => {
        expect(clean(await get(filePath('evil', '9', 'ok.txt'))).body).toEqual({ status: 'success', content: 'legit workspace' });
        const key = clean(await get(filePath('evil', '9', '.ssh/id_rsa')));
        expect(key.status).toBe(400);
        expect((key.body as { message: string }).message).toMatch(/home's \.ssh directory are not served/);
      });
    } finally {
      await fs.rm(ws, { force: true });
      await fs.rename(real, ws);
    }
  });

  it("a root config.xml <workspaceDir> outside JENKINS_HOME is no root until CICHAT_WORKSPACE_ROOTS names it", async () => {
    await withController({}, async (get) => {
      expect(ids(clean(await get(treePath('wsdir'))))).toEqual([]);
      const refused = clean(await get(filePath('wsdir', 'ws-default', 'ok.txt')));
      expect(refused.status).toBe(404);
      expect((refused.body as { message: string }).message).toMatch(/outside the workspace roots/);
    });
    await withController({ CICHAT_WORKSPACE_ROOTS: h.elsewhere }, async (get) => {
      expect(ids(clean(await get(treePath('wsdir'))))).toEqual(['ws-default']);
      expect(clean(await get(filePath('wsdir', 'ws-default', 'ok.txt'))).body).toEqual({ status: 'success', content: 'workspace elsewhere' });
    });
  });

  it('files under .ssh, .gnupg, .aws, .docker and .kube of a workspace are refused; its other files served', async () => {
    await withController({}, async (get) => {
      expect(clean(await get(filePath('keys', 'ws-default', 'ok.txt'))).body).toEqual({ status: 'success', content: 'keys workspace' });
      for (const file of ['.ssh/id_ed25519', '.gnupg/private-keys-v1.d/key.key', '.aws/credentials', '.docker/config.json', '.kube/config']) {
        const reply = clean(await get(filePath('keys', 'ws-default', file)));
        expect([file, reply.status]).toEqual([file, 400]);
        expect((reply.body as { message: string }).message).toMatch(/are not served: they hold keys and credentials/);
      }
    });
  });
});

describe('.git reached through a link (issue 24 point 6)', () => {
  it('gitlink/config, a link to .git/config and sub/up/config are refused like .git/config', async () => {
    await withController({}, async (get) => {
      expect(clean(await get(filePath('gitrepo', 'ws-default', 'README.md'))).body).toEqual({ status: 'success', content: 'a repository' });
      for (const file of ['.git/config', 'gitlink/config', 'config-link', 'sub/up/config']) {
        const reply = clean(await get(filePath('gitrepo', 'ws-default', file)));
        expect([file, reply.status]).toEqual([file, 400]);
        expect((reply.body as { message: string }).message).toMatch(/Files under \.git are not served/);
      }
    });
  });
});

describe('job and build folders that link out of JENKINS_HOME', () => {
  it('are not followed by the workspace routes', async () => {
    await withController({}, async (get) => {
      const job = clean(await get(treePath('linked-job')));
      expect(job.status).toBe(404);
      expect((job.body as { message: string }).message).toMatch(/linked-job is not read: its folder is a symbolic link leading out of JENKINS_HOME/);
      const builds = clean(await get(treePath('linked-builds')));
      expect(builds.status).toBe(404);
      expect((builds.body as { message: string }).message).toMatch(/builds folder is a symbolic link leading out of JENKINS_HOME/);
      expect(clean(await get(treePath('linked-build'))).status).toBe(404);
      expect(clean(await get(filePath('linked-build', 'ws-default', 'ok.txt'))).status).toBe(404);
    });
  });

  it('never bring a log from outside the home into a chat: 404 and nothing uploaded, or the log left out', async () => {
    await withController({}, async (_get, controller) => {
      const post = (body: object): Promise<Reply> => request(controller.url, 'POST', '/chatbot-api/context/1/', JSON.stringify(body));
      uploads.length = 0;
      for (const jobName of ['linked-job', 'linked-builds', 'linked-build']) {
        const reply = clean(await post({ jobName, buildNumber: 1 }));
        expect([jobName, reply.status]).toEqual([jobName, 404]);
        expect((reply.body as { detail: string }).detail).toMatch(/no context was uploaded/);
      }
      expect(uploads).toEqual([]);
      const reply = await post({ jobName: 'linked-log', buildNumber: 1 });
      expect(reply.status).toBe(200);
      expect(uploads).toHaveLength(1);
      expect(uploads[0]).not.toContain(h.marker);
      const sent = JSON.parse(uploads[0] ?? '{}') as { ciContext: { buildDetails: { consoleLogError?: string; consoleLogTail?: string } } };
      expect(sent.ciContext.buildDetails.consoleLogTail).toBeUndefined();
      expect(sent.ciContext.buildDetails.consoleLogError).toMatch(/symbolic link leading out of its build folder/);
    });
  });
});

describe('file names that are not valid UTF-8', () => {
  it('escape losslessly and round-trip', () => {
    const samples = [h.latin1Name, Buffer.from([0xff, 0xfe]), Buffer.from('ok-\u00e9', 'utf8'), Buffer.concat([Buffer.from('\uef80', 'utf8'), Buffer.of(0xe9)]), Buffer.of(0xed, 0xa0, 0x80), Buffer.of(0xc0, 0xae)];
    for (const bytes of samples) expect(nameBytes(wireName(bytes)).equals(bytes)).toBe(true);
    expect(wireName(h.latin1Name)).toBe('caf\uefe9.txt');
    expect(wireName(Buffer.from('plain é.txt'))).toBe('plain é.txt');
  });

  it('are listed with their size and fetched by the listed name, in a directory so named too', async () => {
    await withController({}, async (get) => {
      const reply = clean(await get(treePath('evil')));
      const legit = (reply.body as WorkspaceTreeEntry[]).find((e) => e.workspaceId === '9');
      const children = legit?.tree.children ?? [];
      const latin1 = children.find((c) => c.name === 'caf\uefe9.txt');
      expect(latin1).toEqual({ name: 'caf\uefe9.txt', type: 'file', size: Buffer.byteLength('latin-1 name') });
      const dir = children.find((c) => c.name === 'r\uefe9sum\uefe9') as (WorkspaceTreeNode & { children?: WorkspaceTreeNode[] }) | undefined;
      expect(dir?.children).toEqual([{ name: 'inner.txt', type: 'file', size: Buffer.byteLength('inside a latin-1 directory') }]);
      expect(clean(await get(filePath('evil', '9', 'caf\uefe9.txt'))).body).toEqual({ status: 'success', content: 'latin-1 name' });
      expect(clean(await get(filePath('evil', '9', 'r\uefe9sum\uefe9/inner.txt'))).body).toEqual({ status: 'success', content: 'inside a latin-1 directory' });
      // The escape names only bytes >= 0x80: no way to spell `..`, `/` or a NUL with it.
      expect(clean(await get(filePath('evil', '9', 'caf\uefe9.txt/../../../link-to-etc/passwd'))).status).toBe(400);
      expect(clean(await get(filePath('evil', '9', 'missing\uefe9'))).status).toBe(404);
    });
  });
});
