import { promises as fs } from 'node:fs';
import path from 'node:path';
import { PathMapError, applyPathMap, parsePathMap } from '../jenkins/pathmap.js';
import { expandWorkspaceDir, findWorkspace, listWorkspaces } from '../jenkins/workspace/discover.js';
import { WorkspaceError } from '../jenkins/workspace/errors.js';
import type { Workspace } from '../jenkins/workspace/types.js';
import { ROOT_CONFIGS, makeTempHome } from './fixtures/workspace-homes/fixture.js';
import type { TempHome } from './fixtures/workspace-homes/fixture.js';

describe('JENKINS_PATH_MAP', () => {
  it('parses several pairs, trims blanks and trailing slashes, longest first', () => {
    expect(parsePathMap(' /var/jenkins_home/=/srv/jenkins/ , /var=/mnt/var')).toEqual([
      { from: '/var/jenkins_home', to: '/srv/jenkins' },
      { from: '/var', to: '/mnt/var' },
    ]);
    expect(parsePathMap(undefined)).toEqual([]);
    expect(parsePathMap('  ')).toEqual([]);
  });

  it('names every bad pair at once', () => {
    let message = '';
    try {
      parsePathMap('/a,relative=/x,/b=relative,,/c=/d,/c=/e');
    } catch (err) {
      expect(err).toBeInstanceOf(PathMapError);
      message = (err as Error).message;
    }
    expect(message).toMatch(/^JENKINS_PATH_MAP: /);
    expect(message).toContain('"/a" has no "="');
    expect(message).toContain('"relative" is not an absolute path');
    expect(message).toContain('"relative" is not an absolute path on this host');
    expect(message).toContain('empty pair');
    expect(message).toContain('"/c" is mapped twice');
  });

  it('maps the longest prefix, only at segment boundaries', () => {
    const map = parsePathMap('/var/jenkins_home=/srv/jenkins,/var/jenkins_home/workspace=/fast/ws');
    expect(applyPathMap(map, '/var/jenkins_home/jobs/a')).toBe('/srv/jenkins/jobs/a');
    expect(applyPathMap(map, '/var/jenkins_home/workspace/a@2')).toBe('/fast/ws/a@2');
    expect(applyPathMap(map, '/var/jenkins_home')).toBe('/srv/jenkins');
    expect(applyPathMap(map, '/var/jenkins_home/')).toBe('/srv/jenkins');
    expect(applyPathMap(map, '/var/jenkins_home2/workspace/a')).toBe('/var/jenkins_home2/workspace/a');
    expect(applyPathMap(map, '/var/jenkins_homework')).toBe('/var/jenkins_homework');
    expect(applyPathMap(map, '/other/x')).toBe('/other/x');
  });

  it('maps a root and Windows agent paths', () => {
    expect(applyPathMap(parsePathMap('/=/mnt/agent'), '/home/j/ws')).toBe('/mnt/agent/home/j/ws');
    const windows = parsePathMap('C:\\jenkins=/mnt/win');
    expect(applyPathMap(windows, 'C:\\jenkins\\workspace\\p@2')).toBe('/mnt/win/workspace/p@2');
    expect(applyPathMap(windows, 'c:\\Jenkins\\workspace\\p')).toBe('/mnt/win/workspace/p');
    expect(applyPathMap(windows, 'C:\\jenkins2\\workspace')).toBe('C:\\jenkins2\\workspace');
  });
});

describe('workspaceDir templates', () => {
  it('expands the three variables and maps a template rooted elsewhere', () => {
    const map = parsePathMap('/ssd=/mnt/ssd');
    expect(expandWorkspaceDir('${JENKINS_HOME}/workspace/${ITEM_FULL_NAME}', '/h', 'team/app', map)).toBe('/h/workspace/team/app');
    expect(expandWorkspaceDir('${JENKINS_HOME}/workspace/${ITEM_FULLNAME}', '/h', 'a', map)).toBe('/h/workspace/a');
    expect(expandWorkspaceDir('${ITEM_ROOTDIR}/workspace', '/h', 'team/app', map)).toBe('/h/jobs/team/jobs/app/workspace');
    expect(expandWorkspaceDir('/ssd/ws/${ITEM_FULL_NAME}', '/h', 'a', map)).toBe('/mnt/ssd/ws/a');
    expect(expandWorkspaceDir('${JENKINS_HOME}/w/${ITEM_FULL_NAME}', '/h$&', 'a', map)).toBe('/h$&/w/a');
    expect(expandWorkspaceDir('${UNKNOWN}/x', '/h', 'a', map)).toBeNull();
    expect(expandWorkspaceDir('${JENKINS_HOME}/x', '/h', '../a', map)).toBeNull();
  });
});

describe('listWorkspaces', () => {
  let t: TempHome;
  beforeEach(async () => {
    t = await makeTempHome();
  });
  afterEach(async () => {
    await t.cleanup();
  });

  const list = (jobName: string, buildNumber: number): Promise<Workspace[]> =>
    listWorkspaces({ jenkinsHome: t.home, pathMap: t.pathMap, jobName, buildNumber });
  // Agent `remote`'s workspaces are served once its mount is a workspace root.
  const listWithAgent = (jobName: string, buildNumber: number): Promise<Workspace[]> =>
    listWorkspaces({ jenkinsHome: t.home, pathMap: t.pathMap, jobName, buildNumber, confinement: t.withAgentRoots });
  const mkdir = (dir: string): Promise<string | undefined> => fs.mkdir(dir, { recursive: true });

  async function statusOf(promise: Promise<unknown>): Promise<[number, string]> {
    try {
      await promise;
    } catch (err) {
      if (err instanceof WorkspaceError) return [err.status, err.message];
      throw err;
    }
    return [200, ''];
  }

  it('classic build: the recorded <workspace> on the built-in node', async () => {
    const dir = path.join(t.home, 'workspace', 'freestyle');
    await mkdir(dir);
    expect(await list('freestyle', 1)).toEqual([
      { workspaceId: 'ws-default', node: 'built-in', path: '/var/jenkins_home/workspace/freestyle', dir },
    ]);
  });

  it('classic concurrent build: the @2 workspace it recorded', async () => {
    await mkdir(path.join(t.home, 'workspace', 'freestyle'));
    const dir = path.join(t.home, 'workspace', 'freestyle@2');
    await mkdir(dir);
    expect(await list('freestyle', 2)).toEqual([
      { workspaceId: 'ws-default', node: 'built-in', path: '/var/jenkins_home/workspace/freestyle@2', dir },
    ]);
  });

  it('classic build without <workspace>: the configured workspaceDir, only when it exists', async () => {
    expect(await list('freestyle', 3)).toEqual([]);
    const dir = path.join(t.home, 'workspace', 'freestyle');
    await mkdir(dir);
    expect(await list('freestyle', 3)).toEqual([{ workspaceId: 'ws-default', node: 'built-in', dir }]);
  });

  it('reads ${ITEM_FULLNAME} and the old ${ITEM_ROOTDIR}/workspace from config.xml', async () => {
    await fs.copyFile(path.join(ROOT_CONFIGS, 'item-fullname.xml'), path.join(t.home, 'config.xml'));
    const byFullName = path.join(t.home, 'workspace', 'team', 'app');
    await mkdir(byFullName);
    expect((await list('team/app', 7))[0]?.dir).toBe(byFullName);

    await fs.copyFile(path.join(ROOT_CONFIGS, 'item-rootdir.xml'), path.join(t.home, 'config.xml'));
    const inJobDir = path.join(t.home, 'jobs', 'team', 'jobs', 'app', 'workspace');
    await mkdir(inJobDir);
    expect((await list('team/app', 7))[0]?.dir).toBe(inJobDir);
  });

  it('falls back to ${ITEM_ROOTDIR}/workspace for a home migrated from an old install', async () => {
    const inJobDir = path.join(t.home, 'jobs', 'freestyle', 'workspace');
    await mkdir(inJobDir);
    expect(await list('freestyle', 3)).toEqual([{ workspaceId: 'ws-default', node: 'built-in', dir: inJobDir }]);
  });

  it('folder job: workspace/<folder>/<job>', async () => {
    const dir = path.join(t.home, 'workspace', 'team', 'app');
    await mkdir(dir);
    expect(await list('team/app', 7)).toEqual([{ workspaceId: 'ws-default', node: 'built-in', dir }]);
    expect(await list('/team//app/', 7)).toEqual([{ workspaceId: 'ws-default', node: 'built-in', dir }]);
  });

  it('pipeline, per-node storage, short class name: the agent workspace through the path map', async () => {
    const dir = path.join(t.agent, 'workspace', 'p');
    expect(await listWithAgent('p-pernode', 1)).toEqual([]);
    await mkdir(dir);
    // Outside the default roots (JENKINS_HOME/workspace): not listed until its mount is a root.
    expect(await list('p-pernode', 1)).toEqual([]);
    expect(await listWithAgent('p-pernode', 1)).toEqual([
      { workspaceId: '3', node: 'remote', path: '/home/jenkins/agent/workspace/p', dir },
    ]);
  });

  it('pipeline from 2017: timestamp build directory, long class name, empty <node> is built-in', async () => {
    const dir = path.join(t.home, 'jobs', 'p-old', 'workspace');
    await mkdir(dir);
    expect(await list('p-old', 1)).toEqual([
      { workspaceId: '3', node: 'built-in', path: '/space/tmp/AbstractStepExecutionImpl-upgrade/jobs/p/workspace', dir },
    ]);
    expect((await statusOf(list('p-old', 2)))[0]).toBe(404);
  });

  it('pipeline in a folder: the @script workspace of the start node', async () => {
    const dir = path.join(t.home, 'workspace', 'org_repo_master@script');
    await mkdir(dir);
    expect(await list('org/repo', 1)).toEqual([
      { workspaceId: '2', node: 'built-in', path: '/tmp/jkh5808174774495399667/workspace/org_repo_master@script', dir },
    ]);
  });

  it('pipeline, bulk storage, both spellings; the @2 workspace; absent agents left out', async () => {
    const first = path.join(t.home, 'workspace', 'p-bulk');
    const second = path.join(t.home, 'workspace', 'p-bulk@2');
    await mkdir(first);
    await mkdir(second);
    expect(await list('p-bulk', 1)).toEqual([
      { workspaceId: '3', node: 'built-in', path: '/var/jenkins_home/workspace/p-bulk', dir: first },
      { workspaceId: '5', node: 'built-in', path: '/var/jenkins_home/workspace/p-bulk@2', dir: second },
    ]);
    // The agent's workspace appears once its file system is reachable.
    const gone = path.join(t.agent, 'workspace', 'never-here');
    await mkdir(gone);
    expect((await listWithAgent('p-bulk', 1)).map((w) => [w.workspaceId, w.node])).toEqual([
      ['3', 'built-in'],
      ['4', 'gone-agent'],
      ['5', 'built-in'],
    ]);
  });

  it('pipeline finished under workflow-cps 3806+: reads <storageDir>workflow-completed', async () => {
    const dir = path.join(t.home, 'workspace', 'p-completed');
    await mkdir(dir);
    await mkdir(path.join(t.home, 'workspace', 'decoy'));
    expect(await list('p-completed', 1)).toEqual([
      { workspaceId: '3', node: 'built-in', path: '/var/jenkins_home/workspace/p-completed', dir },
    ]);
  });

  it('lists a workspace reused by two node steps once, and finds it by either id', async () => {
    const storage = path.join(t.home, 'jobs', 'p-pernode', 'builds', '1', 'workflow');
    const again = (await fs.readFile(path.join(storage, '3.xml'), 'utf8')).replace('<id>3</id>', '<id>6</id>');
    await fs.writeFile(path.join(storage, '6.xml'), again);
    await mkdir(path.join(t.agent, 'workspace', 'p'));
    expect((await listWithAgent('p-pernode', 1)).map((w) => w.workspaceId)).toEqual(['3']);
    const query = { jenkinsHome: t.home, pathMap: t.pathMap, jobName: 'p-pernode', buildNumber: 1, confinement: t.withAgentRoots };
    expect((await findWorkspace({ ...query, workspaceId: '6' })).dir).toBe(path.join(t.agent, 'workspace', 'p'));
    expect((await statusOf(findWorkspace({ ...query, workspaceId: '4' })))[0]).toBe(404);
  });

  it('without a path map, recorded paths outside this host are not listed', async () => {
    await mkdir(path.join(t.home, 'workspace', 'p-bulk'));
    expect(await listWorkspaces({ jenkinsHome: t.home, pathMap: [], jobName: 'p-bulk', buildNumber: 1 })).toEqual([]);
  });

  it('404 for a missing job or build, 400 for a name that leaves the home', async () => {
    expect((await statusOf(list('nope', 1)))[0]).toBe(404);
    expect((await statusOf(list('freestyle', 99)))[0]).toBe(404);
    const [status, message] = await statusOf(list('team/../../etc', 1));
    expect(status).toBe(400);
    expect(message).toContain('Path traversal');
    expect((await statusOf(list('freestyle', 0)))[0]).toBe(400);
  });
});
