import fs from 'node:fs';
import path from 'node:path';
import { JenkinsHome, buildXml } from '../test/helpers/jenkinsHome.js';
import { locateJob, newestBuildWhere, readJobDetails } from './jobs.js';
import { listJobs, similarJobNames } from './scan.js';

let jh: JenkinsHome;
let home: string;
let outside: string;
const write = async (rel: string, text: string): Promise<void> => {
  await jh.file(rel, text);
};
const build = (jobRel: string, n: number, result: string | null): Promise<void> => write(`${jobRel}/builds/${n}/build.xml`, buildXml({ result }));

beforeEach(async () => {
  jh = await JenkinsHome.create('cichat-scan-');
  home = jh.home;
  outside = path.join(jh.root, 'outside');
});
afterEach(() => jh.cleanup());

describe('listJobs', () => {
  it('walks jobs, folders and multibranch branches by their real names', async () => {
    await write('jobs/hello/config.xml', '<project/>');
    await write('jobs/team/config.xml', '<folder/>');
    await write('jobs/team/jobs/api/config.xml', '<flow-definition/>');
    await build('jobs/team/jobs/api', 1, 'SUCCESS');
    await write('jobs/org/config.xml', '<multibranch/>');
    await write('jobs/org/branches/feature-x.abc123/name-utf8.txt', 'feature/x'.replace('/', '%2F'));
    await write('jobs/org/branches/main/config.xml', '<flow-definition/>');
    await build('jobs/org/branches/main', 3, 'FAILURE');
    const names = (await listJobs(home)).map((j) => j.fullName).sort();
    expect(names).toEqual(['hello', 'org/feature%2Fx', 'org/main', 'team/api']);
  });

  it('does not follow a job folder that links out of the home', async () => {
    fs.mkdirSync(path.join(outside, 'builds/1'), { recursive: true });
    fs.writeFileSync(path.join(outside, 'builds/1/build.xml'), '<build><result>FAILURE</result></build>');
    fs.mkdirSync(path.join(home, 'jobs'), { recursive: true });
    fs.symlinkSync(outside, path.join(home, 'jobs/evil'));
    await write('jobs/good/config.xml', '<project/>');
    expect((await listJobs(home)).map((j) => j.fullName)).toEqual(['good']);
  });

  it('answers nothing for a home without jobs', async () => {
    expect(await listJobs(home)).toEqual([]);
    expect(await listJobs(path.join(home, 'missing'))).toEqual([]);
  });
});

describe('similarJobNames', () => {
  beforeEach(async () => {
    for (const rel of ['jobs/eng', 'jobs/eng/jobs/platform', 'jobs/eng/jobs/platform/jobs/svc', 'jobs/ops/jobs/svc', 'jobs/ops', 'jobs/Api']) {
      await write(`${rel}/config.xml`, '<project/>');
    }
  });

  it('finds the full name of a job named without its folders, as Jenkins shows it, or in another case', async () => {
    expect((await similarJobNames(home, 'svc')).sort()).toEqual(['eng/platform/svc', 'ops/svc']);
    expect(await similarJobNames(home, 'platform/svc')).toEqual(['eng/platform/svc']);
    expect(await similarJobNames(home, 'eng » platform » svc')).toEqual(['eng/platform/svc']);
    expect(await similarJobNames(home, 'https://ci.example.com/jenkins/job/eng/job/platform/job/svc/5/console')).toEqual(['eng/platform/svc']);
    expect(await similarJobNames(home, 'job/ops/job/svc/')).toEqual(['ops/svc']);
    expect(await similarJobNames(home, 'api')).toEqual(['Api']);
    await write('jobs/org/branches/feature-x.abc123/name-utf8.txt', 'feature%2Fx');
    await write('jobs/org/branches/feature-x.abc123/config.xml', '<flow-definition/>');
    expect(await similarJobNames(home, 'org/feature/x')).toEqual(['org/feature%2Fx']);
  });

  it('knows a branch named only by the <displayName> of its config (no name-utf8.txt), slash kept encoded', async () => {
    await write('jobs/org/config.xml', '<org.jenkinsci.plugins.workflow.multibranch.WorkflowMultiBranchProject/>');
    await write('jobs/org/branches/release-2-x.k2f9a/config.xml', '<flow-definition><displayName>release/2.x</displayName></flow-definition>');
    await build('jobs/org/branches/release-2-x.k2f9a', 4, 'FAILURE');
    expect((await listJobs(home)).map((j) => j.fullName)).toContain('org/release%2F2.x');
    expect(await similarJobNames(home, 'release/2.x')).toEqual(['org/release%2F2.x']);
    expect(await similarJobNames(home, 'org/Release/2.x')).toEqual(['org/release%2F2.x']);
    expect(await similarJobNames(home, 'release%2F2.x')).toEqual(['org/release%2F2.x']);
    // the multibranch project's own list of branches names it the same way
    expect((await readJobDetails(home, await locateJob(home, 'org'))).jobs).toEqual(['release%2F2.x']);
  });

  it('finds a job a typo away, by its full name or its own name', async () => {
    await write('jobs/java-calc/config.xml', '<project/>');
    expect(await similarJobNames(home, 'java-calcc')).toEqual(['java-calc']);
    expect(await similarJobNames(home, 'jav-calc')).toEqual(['java-calc']);
    expect(await similarJobNames(home, 'eng/platform/svcc')).toEqual(['eng/platform/svc']);
    expect(await similarJobNames(home, 'sv')).toEqual([]);
  });

  it('suggests nothing for a name like no job, nor the name itself', async () => {
    expect(await similarJobNames(home, 'web')).toEqual([]);
    expect(await similarJobNames(home, '  ')).toEqual([]);
    expect(await similarJobNames(home, 'ops/svc')).toEqual([]);
  });
});

describe('newestBuildWhere', () => {
  it('reads build.xml newest first and skips running builds', async () => {
    await write('jobs/a/config.xml', '<project/>');
    await build('jobs/a', 1, 'FAILURE');
    await build('jobs/a', 2, 'SUCCESS');
    await build('jobs/a', 3, 'FAILURE');
    await build('jobs/a', 4, null);
    const [job] = await listJobs(home);
    expect((await newestBuildWhere(job!, (s) => s.result === 'FAILURE'))?.number).toBe(3);
    expect((await newestBuildWhere(job!, (s) => s.result === 'ABORTED'))).toBeNull();
    expect((await newestBuildWhere(job!, (s) => s.result === 'FAILURE', 1))).toBeNull();
  });
});
