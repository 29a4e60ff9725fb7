/**
 * The controller reads a build's workspace as its checkout (session 53, helper fx15; fx14's leftover): the build's
 * recorded commit when the workspace holds it; else the workspace's HEAD only when no later build of the job has used
 * that workspace (said: `headFrom: "workspace-head"`); else nothing, and `workspaceChangesNotRead` says why, which
 * the fix answer words.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { buildCiContextResult } from '../jenkins/context.js';
import { parsePathMap } from '../jenkins/pathmap.js';
import type { CiContext } from '../protocol/types.js';
import type { CiContextUpload } from '../protocol/schemas.js';
import { makeSnippetHome, RECORDED, type SnippetHome } from './fixtures/snippet-home/build.js';
import { analyzedChatContext } from './answerFixtures.js';
import { askLocal } from './helpers/askLocal.js';

const ENV = { GIT_AUTHOR_NAME: 'Dana Dev', GIT_AUTHOR_EMAIL: 'dana@example.invalid', GIT_COMMITTER_NAME: 'Dana Dev', GIT_COMMITTER_EMAIL: 'dana@example.invalid', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };

let fixture: SnippetHome;
let home: string;
let ids: string[];
const FILE = path.join('src', 'main', 'java', 'com', 'acme', 'File.java');

beforeAll(async () => {
  fixture = await makeSnippetHome();
  home = path.join(fixture.root, 'git-home');
  fs.cpSync(fixture.home, home, { recursive: true });
  // The shop workspace as a git checkout: File.java's line 42 written by the last commit.
  const ws = path.join(home, 'workspace', 'shop');
  const git = (...args: string[]): string => execFileSync('git', args, { cwd: ws, env: { ...process.env, ...ENV }, encoding: 'utf8' }).trim();
  const now = fs.readFileSync(path.join(ws, FILE), 'utf8');
  git('init', '-q');
  fs.writeFileSync(path.join(ws, FILE), now.replace('        return totl;', '        return total;'));
  git('add', FILE);
  git('commit', '-q', '-m', 'File: the total');
  fs.writeFileSync(path.join(ws, FILE), now);
  git('add', FILE);
  git('commit', '-q', '-m', 'File: shorter names');
  ids = [git('rev-parse', 'HEAD~1'), git('rev-parse', 'HEAD')];
});
afterAll(async () => {
  await fixture.cleanup();
});

async function contextOf(jenkinsHome: string): Promise<CiContext> {
  const result = await buildCiContextResult({ jenkinsHome, jobName: 'shop', buildNumber: 1, workspace: { pathMap: parsePathMap(`${RECORDED}=${jenkinsHome}`) } });
  return result.context;
}

function withBuildData(jenkinsHome: string, sha: string): void {
  const xml = path.join(jenkinsHome, 'jobs', 'shop', 'builds', '1', 'build.xml');
  const data = `<actions>\n    <hudson.plugins.git.util.BuildData>\n      <buildsByBranchName>\n        <entry>\n          <string>refs/remotes/origin/main</string>\n          <hudson.plugins.git.util.Build>\n            <marked><sha1>${sha}</sha1></marked>\n            <revision><sha1>${sha}</sha1></revision>\n            <hudsonBuildNumber>1</hudsonBuildNumber>\n          </hudson.plugins.git.util.Build>\n        </entry>\n      </buildsByBranchName>\n    </hudson.plugins.git.util.BuildData>\n  </actions>`;
  fs.writeFileSync(xml, fs.readFileSync(xml, 'utf8').replace('<actions/>', data));
}

function copyHome(name: string): string {
  const dir = path.join(fixture.root, name);
  fs.cpSync(home, dir, { recursive: true });
  return dir;
}

describe("the controller reads the build's workspace as its checkout only when it is", () => {
  test('no commit recorded and no later build: the workspace HEAD, said as such in the fix answer', async () => {
    const ci = await contextOf(home);
    expect(ci.workspaceChanges).toMatchObject({ range: 'last-commit', head: ids[1], base: ids[0], headFrom: 'workspace-head', workspaceId: 'ws-default' });
    expect(ci.workspaceChangesNotRead).toBeUndefined();
    const log = ci.buildDetails?.consoleLogTail ?? '';
    const fix = await askLocal('How do I fix it?', analyzedChatContext(ci as CiContextUpload, log));
    expect(fix).toContain(`(\`${(ids[1] as string).slice(0, 10)}\` is the HEAD of the build's workspace: build #1 recorded no commit, and no later build has used that workspace, so I read it as this build's checkout)`);
    expect(fix).toContain('changed `return total;` to `return totl;`');
  });

  test('the recorded commit, when the workspace holds it: no hedge on where the head came from', async () => {
    const dir = copyHome('recorded');
    withBuildData(dir, ids[1] as string);
    fs.cpSync(path.join(dir, 'jobs', 'shop', 'builds', '1'), path.join(dir, 'jobs', 'shop', 'builds', '2'), { recursive: true });
    const ci = await contextOf(dir);
    expect(ci.workspaceChanges).toMatchObject({ head: ids[1], headFrom: 'recorded' });
  });

  test('a later build used the workspace: nothing read, and the fix answer says why', async () => {
    const dir = copyHome('later');
    fs.cpSync(path.join(dir, 'jobs', 'shop', 'builds', '1'), path.join(dir, 'jobs', 'shop', 'builds', '2'), { recursive: true });
    const ci = await contextOf(dir);
    expect(ci.workspaceChanges).toBeUndefined();
    expect(ci.workspaceChangesNotRead).toEqual({ workspaceId: 'ws-default', reason: 'no-recorded-commit', laterBuilds: [2] });
    const log = ci.buildDetails?.consoleLogTail ?? '';
    const fix = await askLocal('How do I fix it?', analyzedChatContext(ci as CiContextUpload, log));
    expect(fix).toContain("**The checkout's change was not read:** build #1 recorded no commit, and the later build #2 has used that workspace since");
    // A recorded commit the workspace lacks, with a later build: the same, naming the commit.
    const absent = copyHome('absent');
    withBuildData(absent, 'f'.repeat(40));
    fs.cpSync(path.join(absent, 'jobs', 'shop', 'builds', '1'), path.join(absent, 'jobs', 'shop', 'builds', '3'), { recursive: true });
    expect((await contextOf(absent)).workspaceChangesNotRead).toEqual({ workspaceId: 'ws-default', reason: 'recorded-commit-absent', recordedCommit: 'f'.repeat(40), laterBuilds: [3] });
  });

  test("a shallow clone of the build's recorded commit: nothing read, and the reason (session 55) said in the fix answer", async () => {
    const dir = copyHome('shallow');
    const ws = path.join(dir, 'workspace', 'shop');
    const full = path.join(fixture.root, 'shop-full');
    fs.renameSync(ws, full);
    execFileSync('git', ['clone', '-q', '--depth=1', `file://${full}`, ws], { env: { ...process.env, ...ENV } });
    // The workspace's files git does not track (the build's output) as they were.
    fs.cpSync(full, ws, { recursive: true, filter: (src) => !src.startsWith(path.join(full, '.git')) });
    withBuildData(dir, ids[1] as string);
    const ci = await contextOf(dir);
    expect(ci.workspaceChanges).toBeUndefined();
    expect(ci.workspaceChangesNotRead).toEqual({ workspaceId: 'ws-default', reason: 'shallow', head: ids[1], headSubject: 'File: shorter names', laterBuilds: [] });
    const fix = await askLocal('How do I fix it?', analyzedChatContext(ci as CiContextUpload, ci.buildDetails?.consoleLogTail ?? ''));
    expect(fix).toContain(`the checkout is a shallow clone: git holds commit \`${(ids[1] as string).slice(0, 10)}\` (File: shorter names) but not the commit before it`);
  });
});
