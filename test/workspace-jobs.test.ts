import Router from '@koa/router';
import Koa from 'koa';
import { promises as fs } from 'node:fs';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { findWorkspace, listWorkspaces } from '../jenkins/workspace/discover.js';
import { WorkspaceError } from '../jenkins/workspace/errors.js';
import { registerWorkspaceRoutes } from '../controller/workspace/routes.js';
import type { Workspace } from '../jenkins/workspace/types.js';
import type { WorkspaceFileAnswer, WorkspaceTreeEntry } from '../protocol/types.js';
import { ROOT_CONFIGS, makeTempHome, writeFiles } from './fixtures/workspace-homes/fixture.js';
import type { TempHome } from './fixtures/workspace-homes/fixture.js';

// branch-api's name-mangling sample: organization folder `foo`, multibranch project `Россия`,
// branch `особенность/новый` (item name `особенность%2Fновый`), all in mangled directories.
const MANGLED_PROJECT = '0_04_20_04_3.pei3d7._04_38_04_4f';
const MANGLED_BRANCH = '0_04_3e_0.n168ksdsksof._4b_04_39';
const MANGLED_JOB = 'foo/Россия/особенность%2Fновый';
const MANGLED_WORKSPACE = 'foo_-OHCFEZBUPIWLQGVNOG7ZN5MVT7MO565TZLRUI4FVGBDEWIL6KTSQ';
const MANGLED_RECORDED =
  '/var/folders/dn/v8254wg95jzgydt0v_r8mf580000gn/T/jenkinsTests.tmp/jenkins5403390668385678499test/workspace/' + MANGLED_WORKSPACE;

let t: TempHome;

const list = (jobName: string, buildNumber: number | string): Promise<Workspace[]> =>
  listWorkspaces({ jenkinsHome: t.home, pathMap: t.pathMap, jobName, buildNumber });
const mkdir = async (dir: string): Promise<string> => {
  await fs.mkdir(dir, { recursive: true });
  return dir;
};

async function statusOf(promise: Promise<unknown>): Promise<[number, string]> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof WorkspaceError) return [err.status, err.message];
    throw err;
  }
  return [200, ''];
}

/** Sets the top-level <result> of a build of the temp home. */
async function setResult(buildXml: string, result: string): Promise<void> {
  const text = await fs.readFile(buildXml, 'utf8');
  const changed = text.replace(/<result>[A-Z]+<\/result>/, `<result>${result}</result>`);
  expect(changed).not.toBe(text);
  await fs.writeFile(buildXml, changed);
}

describe('multibranch branch jobs', () => {
  beforeEach(async () => {
    t = await makeTempHome();
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it('finds a branch of a mangled multibranch project in an organization folder by its item names', async () => {
    const dir = await mkdir(path.join(t.home, 'workspace', MANGLED_WORKSPACE));
    expect(await list(MANGLED_JOB, 1)).toEqual([{ workspaceId: 'ws-default', node: 'built-in', path: MANGLED_RECORDED, dir }]);
    // The branch's display name spelled with a decoded slash is three segments: no such job.
    expect((await statusOf(list('foo/Россия/особенность/новый', 1)))[0]).toBe(404);
    expect((await statusOf(list(MANGLED_JOB, 2)))[0]).toBe(404);
  });

  it('expands ${ITEM_ROOTDIR} and ${ITEM_FULL_NAME} for a branch whose build recorded no workspace', async () => {
    const branchDir = path.join(t.home, 'jobs', 'foo', 'jobs', MANGLED_PROJECT, 'branches', MANGLED_BRANCH);
    const buildXml = path.join(branchDir, 'builds', '1', 'build.xml');
    await fs.writeFile(buildXml, (await fs.readFile(buildXml, 'utf8')).replace(/<workspace>[^<]*<\/workspace>/, ''));
    expect(await list(MANGLED_JOB, 1)).toEqual([]);

    // Jenkins core's default: the item's full name, `%2F` kept as it is in the name.
    const byFullName = await mkdir(path.join(t.home, 'workspace', 'foo', 'Россия', 'особенность%2Fновый'));
    expect(await list(MANGLED_JOB, 1)).toEqual([{ workspaceId: 'ws-default', node: 'built-in', dir: byFullName }]);

    await fs.copyFile(path.join(ROOT_CONFIGS, 'item-rootdir.xml'), path.join(t.home, 'config.xml'));
    await fs.rm(byFullName, { recursive: true });
    const inBranchDir = await mkdir(path.join(branchDir, 'workspace'));
    expect(await list(MANGLED_JOB, 1)).toEqual([{ workspaceId: 'ws-default', node: 'built-in', dir: inBranchDir }]);
  });

  it('pipeline branch `mb/feature%2Fx` in branches/<mangled>/: the workspace of its flow nodes', async () => {
    const dir = await mkdir(path.join(t.home, 'workspace', 'mb_feature-x@script'));
    expect(await list('mb/feature%2Fx', 1)).toEqual([
      { workspaceId: '2', node: 'built-in', path: '/tmp/jkh5808174774495399667/workspace/mb_feature-x@script', dir },
    ]);
    const found = await findWorkspace({ jenkinsHome: t.home, pathMap: t.pathMap, jobName: 'mb/feature%2Fx', buildNumber: 1, workspaceId: '2' });
    expect(found.dir).toBe(dir);
    // The multibranch project itself has no builds.
    expect((await statusOf(list('mb', 1)))[0]).toBe(404);
    expect((await statusOf(list('mb/feature-x', 1)))[0]).toBe(404);
  });
});

describe('custom buildsDir', () => {
  beforeEach(async () => {
    t = await makeTempHome();
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it('reads builds from ${ITEM_ROOTDIR}/ze-previous-custom-builds and workspaces from the custom workspaceDir', async () => {
    await fs.copyFile(path.join(ROOT_CONFIGS, 'custom-builds-dir.xml'), path.join(t.home, 'config.xml'));
    const job = path.join(t.home, 'jobs', 'freestyle');
    // The builds are still where the default would put them: the setting is obeyed, not guessed.
    expect((await statusOf(list('freestyle', 3)))[0]).toBe(404);
    await fs.rename(path.join(job, 'builds'), path.join(job, 'ze-previous-custom-builds'));

    const custom = await mkdir(path.join(t.home, 'previous-custom-workspace', 'freestyle'));
    expect(await list('freestyle', 3)).toEqual([{ workspaceId: 'ws-default', node: 'built-in', dir: custom }]);
    const recorded = await mkdir(path.join(t.home, 'workspace', 'freestyle'));
    expect(await list('freestyle', 1)).toEqual([
      { workspaceId: 'ws-default', node: 'built-in', path: '/var/jenkins_home/workspace/freestyle', dir: recorded },
    ]);
    expect((await list('freestyle', 'lastBuild'))[0]?.dir).toBe(custom);
  });

  it('reads builds from ${JENKINS_HOME}/builds/${ITEM_FULL_NAME}, for folder jobs and multibranch branches', async () => {
    const config = (await fs.readFile(path.join(ROOT_CONFIGS, 'custom-builds-dir.xml'), 'utf8')).replace(
      '${ITEM_ROOTDIR}/ze-previous-custom-builds',
      '${JENKINS_HOME}/builds/${ITEM_FULL_NAME}',
    );
    await fs.writeFile(path.join(t.home, 'config.xml'), config);
    await mkdir(path.join(t.home, 'builds', 'team'));
    await fs.rename(path.join(t.home, 'jobs', 'team', 'jobs', 'app', 'builds'), path.join(t.home, 'builds', 'team', 'app'));
    const teamApp = await mkdir(path.join(t.home, 'previous-custom-workspace', 'team', 'app'));
    expect(await list('team/app', 7)).toEqual([{ workspaceId: 'ws-default', node: 'built-in', dir: teamApp }]);

    await mkdir(path.join(t.home, 'builds', 'mb'));
    await fs.rename(path.join(t.home, 'jobs', 'mb', 'branches', 'feature-x.5u3o8c', 'builds'), path.join(t.home, 'builds', 'mb', 'feature%2Fx'));
    const branch = await mkdir(path.join(t.home, 'workspace', 'mb_feature-x@script'));
    expect((await list('mb/feature%2Fx', 1)).map((w) => [w.workspaceId, w.dir])).toEqual([['2', branch]]);
  });
});

describe('permalinks as buildNumber', () => {
  beforeEach(async () => {
    t = await makeTempHome();
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it('resolves every permalink to its build, by scanning the builds when nothing is recorded', async () => {
    const builds = path.join(t.home, 'jobs', 'freestyle', 'builds');
    await setResult(path.join(builds, '2', 'build.xml'), 'FAILURE');
    const first = await mkdir(path.join(t.home, 'workspace', 'freestyle'));
    const second = await mkdir(path.join(t.home, 'workspace', 'freestyle@2'));
    const dirOf = async (ref: string): Promise<string | undefined> => (await list('freestyle', ref))[0]?.dir;

    // Build 3 recorded no workspace: the configured workspaceDir, which is the first one.
    expect(await dirOf('lastBuild')).toBe(first);
    expect(await dirOf('lastSuccessfulBuild')).toBe(first);
    expect(await dirOf('lastStableBuild')).toBe(first);
    expect(await dirOf('lastCompletedBuild')).toBe(first);
    expect(await dirOf('lastFailedBuild')).toBe(second);
    expect(await dirOf('lastUnsuccessfulBuild')).toBe(second);
    expect((await statusOf(list('freestyle', 'lastUnstableBuild')))[0]).toBe(404);

    await setResult(path.join(builds, '3', 'build.xml'), 'UNSTABLE');
    expect(await dirOf('lastSuccessfulBuild')).toBe(first);
    expect((await statusOf(list('freestyle', 'lastStableBuild')))[0]).toBe(200);
    expect(await dirOf('lastUnstableBuild')).toBe(first);
    await fs.rm(path.join(builds, '1'), { recursive: true });
    await setResult(path.join(builds, '3', 'build.xml'), 'FAILURE');
    expect((await statusOf(list('freestyle', 'lastStableBuild')))[0]).toBe(404);
  });

  it('trusts builds/permalinks (Jenkins\' own record, -1 for none) over the build results', async () => {
    // The real sample's permalinks file says no successful build, although build 1 says SUCCESS.
    await mkdir(path.join(t.agent, 'workspace', 'p'));
    // p-pernode ran on agent `remote`: its mount must be a workspace root.
    const list = (jobName: string, buildNumber: number | string): Promise<Workspace[]> =>
      listWorkspaces({ jenkinsHome: t.home, pathMap: t.pathMap, jobName, buildNumber, confinement: t.withAgentRoots });
    expect((await list('p-pernode', 'lastBuild')).map((w) => w.workspaceId)).toEqual(['3']);
    const [status, message] = await statusOf(list('p-pernode', 'lastSuccessfulBuild'));
    expect([status, message]).toEqual([404, expect.stringContaining('lastSuccessfulBuild')]);

    await fs.writeFile(path.join(t.home, 'jobs', 'p-pernode', 'builds', 'permalinks'), 'lastFailedBuild 1\n');
    expect((await list('p-pernode', 'lastFailedBuild')).map((w) => w.workspaceId)).toEqual(['3']);
  });

  it('resolves permalinks of multibranch branches and of custom builds directories', async () => {
    const dir = await mkdir(path.join(t.home, 'workspace', 'mb_feature-x@script'));
    expect((await list('mb/feature%2Fx', 'lastSuccessfulBuild'))[0]?.dir).toBe(dir);
    const mangled = await mkdir(path.join(t.home, 'workspace', MANGLED_WORKSPACE));
    expect((await list(MANGLED_JOB, 'lastCompletedBuild'))[0]?.dir).toBe(mangled);
  });

  it('400 for anything else, 404 for a job without builds', async () => {
    for (const bad of ['lastbuild', 'LASTBUILD', 'lastBuild ', 'permalinks', 'last', '0', '-1', '1.5', 'lastBuild/..', '']) {
      expect([bad, (await statusOf(list('freestyle', bad)))[0]]).toEqual([bad, 400]);
    }
    expect((await statusOf(list('nope', 'lastBuild')))[0]).toBe(404);
    await fs.rm(path.join(t.home, 'jobs', 'freestyle', 'builds'), { recursive: true });
    expect((await statusOf(list('freestyle', 'lastBuild')))[0]).toBe(404);
  });
});

describe('HTTP: permalinks and multibranch jobs on both endpoints', () => {
  let server: http.Server;
  let base: string;

  beforeAll(async () => {
    t = await makeTempHome();
    await setResult(path.join(t.home, 'jobs', 'freestyle', 'builds', '2', 'build.xml'), 'FAILURE');
    await writeFiles(path.join(t.home, 'workspace', 'freestyle'), { 'README.md': 'build 3 and 1' });
    await writeFiles(path.join(t.home, 'workspace', 'freestyle@2'), { 'README.md': 'build 2 failed here' });
    await writeFiles(path.join(t.home, 'workspace', 'mb_feature-x@script'), { Jenkinsfile: 'node { sh "mvn verify" }' });
    const app = new Koa();
    const router = new Router({ prefix: '/chatbot-api' });
    registerWorkspaceRoutes(router, { jenkinsHome: t.home, pathMap: t.pathMap });
    app.use(router.routes()).use(router.allowedMethods());
    server = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/chatbot-api`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await t.cleanup();
  });

  async function get<T>(route: string, params: Record<string, string>): Promise<{ status: number; body: T }> {
    const res = await fetch(`${base}/${route}?${new URLSearchParams(params).toString()}`);
    return { status: res.status, body: (await res.json()) as T };
  }

  it('workspaceTree and workspaceFile take lastFailedBuild and lastBuild', async () => {
    const failed = await get<WorkspaceTreeEntry[]>('workspaceTree', { jobName: 'freestyle', buildNumber: 'lastFailedBuild' });
    expect(failed.status).toBe(200);
    expect(failed.body.map((e) => [e.workspaceId, e.path])).toEqual([['ws-default', '/var/jenkins_home/workspace/freestyle@2']]);

    const file = (buildNumber: string): Promise<{ status: number; body: WorkspaceFileAnswer }> =>
      get<WorkspaceFileAnswer>('workspaceFile', { jobName: 'freestyle', buildNumber, workspaceId: 'ws-default', filePath: 'README.md' });
    expect(await file('lastFailedBuild')).toEqual({ status: 200, body: { status: 'success', content: 'build 2 failed here' } });
    expect(await file('lastUnsuccessfulBuild')).toEqual({ status: 200, body: { status: 'success', content: 'build 2 failed here' } });
    expect(await file('lastBuild')).toEqual({ status: 200, body: { status: 'success', content: 'build 3 and 1' } });
    expect(await file('2')).toEqual({ status: 200, body: { status: 'success', content: 'build 2 failed here' } });
  });

  it('a bad buildNumber is 400, a permalink that points nowhere 404, on both endpoints', async () => {
    for (const route of ['workspaceTree', 'workspaceFile']) {
      const params = { jobName: 'freestyle', workspaceId: 'ws-default', filePath: 'README.md' };
      for (const bad of ['lastbuild', 'nextBuild', 'last Build', '1e3']) {
        const reply = await get<WorkspaceFileAnswer>(route, { ...params, buildNumber: bad });
        expect([route, bad, reply.status, reply.body.status]).toEqual([route, bad, 400, 'error']);
      }
      const none = await get<WorkspaceFileAnswer>(route, { ...params, buildNumber: 'lastUnstableBuild' });
      expect([route, none.status, none.body]).toEqual([route, 404, { status: 'error', message: expect.stringContaining('lastUnstableBuild') }]);
    }
  });

  it('a multibranch branch by its item name, `%2F` sent encoded as a client does', async () => {
    const tree = await get<WorkspaceTreeEntry[]>('workspaceTree', { jobName: 'mb/feature%2Fx', buildNumber: 'lastBuild', depth: '1' });
    expect(tree).toEqual({
      status: 200,
      body: [
        {
          workspaceId: '2',
          node: 'built-in',
          path: '/tmp/jkh5808174774495399667/workspace/mb_feature-x@script',
          tree: { name: 'mb_feature-x@script', type: 'directory', children: [{ name: 'Jenkinsfile', type: 'file', size: 24 }] },
        },
      ],
    });
    const file = await get<WorkspaceFileAnswer>('workspaceFile', { jobName: 'mb/feature%2Fx', buildNumber: '1', workspaceId: '2', filePath: 'Jenkinsfile' });
    expect(file).toEqual({ status: 200, body: { status: 'success', content: 'node { sh "mvn verify" }' } });
    // Decoded once more by the server, the name is three segments: not a job.
    const decoded = await get<WorkspaceFileAnswer>('workspaceTree', { jobName: 'mb/feature/x', buildNumber: '1' });
    expect(decoded.status).toBe(404);
  });
});
