import { cp, mkdtemp, readFile, rm, writeFile, mkdir, chmod } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { BuildDetails, JobDetails } from '../protocol/types.js';
import { buildCiContext, buildCiContextResult } from './context.js';
import { BuildNotFoundError, JobNotFoundError } from './errors.js';
import { resolveBuildNumber } from './jobs.js';
import { parseManifest } from './system.js';
import { parseXml, XmlCorruptError } from './xml.js';

const FIXTURE = path.resolve('test/fixtures/jenkins-homes/samples');
const SEED_HOME = path.resolve('seeds/jenkins-home');
const ESC = '\u001b';

let home: string;

beforeAll(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'cichat-jenkins-home-'));
  await cp(FIXTURE, home, { recursive: true });
  await chmod(home, 0o755);
});
afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

async function job(jobName: string): Promise<JobDetails> {
  const { jobDetails } = await buildCiContext({ jenkinsHome: home, jobName });
  if (!jobDetails) throw new Error('no jobDetails');
  return jobDetails;
}

async function build(jobName: string, buildNumber: number, now?: Date): Promise<BuildDetails> {
  const { buildDetails } = await buildCiContext({ jenkinsHome: home, jobName, buildNumber, now });
  if (!buildDetails) throw new Error('no buildDetails');
  return buildDetails;
}

describe('instance-wide context from real files', () => {
  it('reads an XML 1.1 config.xml with a &#x1b; reference: version and executors', async () => {
    const ctx = await buildCiContext({ jenkinsHome: home });
    expect(ctx.ciVersion).toBe('1.480.1');
    expect(ctx.masterNode).toMatchObject({ executors: 2, isOnline: true });
    expect(ctx.masterNode?.systemInfo).toMatchObject({ cpus: os.cpus().length, arch: os.arch(), nodeVersion: process.version });
    expect(ctx.systemMessage).toBeUndefined();
    expect(ctx.currentScreen).toBe('Unknown Page');
    const label = parseXml(await readFile(path.join(home, 'config.xml'), 'utf8')).children.find((c) => c.name === 'label');
    expect(label?.text).toBe('LESS_TERMCAP_mb=[01;31m');
  });

  it('reads the root URL', async () => {
    expect((await buildCiContext({ jenkinsHome: home })).rootUrl).toBe('http://localhost:50076/jenkins/');
  });

  it('lists plugins by Short-Name with versions, marks .disabled ones, ignores .bak', async () => {
    const ci = await buildCiContext({ jenkinsHome: home });
    const plugins = ci.plugins ?? [];
    // CONTRACT section 3: activePlugins is the map of the enabled ones.
    expect(ci.activePlugins).toMatchObject({ htmlpublisher: '0.7' });
    expect(ci.activePlugins).not.toHaveProperty('token-macro');
    expect(plugins.map((p) => p.shortName)).toEqual([
      'custom-lifecycle',
      'htmlpublisher',
      'optional-depender',
      'Parameterized-Remote-Trigger',
      'require-system-in-initializer',
      'token-macro',
    ]);
    expect(plugins.find((p) => p.shortName === 'token-macro')).toMatchObject({ version: '1.9', enabled: false, longName: 'Token Macro Plugin' });
    expect(plugins.find((p) => p.shortName === 'htmlpublisher')).toMatchObject({ version: '0.7', enabled: true, longName: 'HTML Publisher plugin' });
    expect(plugins.find((p) => p.shortName === 'custom-lifecycle')?.version).toBe('1-SNAPSHOT (private-10/09/2023 16:27-jglick)');
  });

  it('joins CRLF manifest continuation lines wrapped mid-word', async () => {
    const text = await readFile(path.join(home, 'plugins/Parameterized-Remote-Trigger/META-INF/MANIFEST.MF'), 'utf8');
    expect(text).toContain('\r\n ');
    const m = parseManifest(text);
    expect(m['Url']).toBe('http://wiki.jenkins-ci.org/display/JENKINS/Parameterized+Remote+Trigger+Plugin');
    expect(m['Specification-Title']).toBe(
      'This plugin gives you the ability to trigger parameterized builds on a remote Jenkins server as part of your build.',
    );
    const tokenMacro = parseManifest(await readFile(path.join(home, 'plugins/token-macro/META-INF/MANIFEST.MF'), 'utf8'));
    expect(tokenMacro['Plugin-Developers']).toBe('Kohsuke Kawaguchi:kohsuke:kkawaguchi@cloudbees.com,Alex Earl:slide_o_mix:slide.o.mix@gmail.com');
  });

  it('counts agents, offline when temporaryOfflineCause is set', async () => {
    const stats = (await buildCiContext({ jenkinsHome: home })).agentStats;
    expect(stats).toMatchObject({ onlineAgents: 3, offlineAgents: 1 });
    const a1 = stats?.agents?.find((a) => a.name === 'a1');
    expect(a1).toMatchObject({ online: false, executors: 1 });
    expect(a1?.offlineReason).toContain('Disconnected by anonymous');
    expect(stats?.agents?.find((a) => a.name === 'Foo')).toMatchObject({ online: true, labels: ['foo', 'bar'], remoteFS: '/myfs/jenkins/agent' });
  });
});

describe('job details', () => {
  it('types items from their root element, folders and files without declaration included', async () => {
    expect(await job('foo')).toMatchObject({ jobType: 'folder', isBuildable: false, jobs: ['child1'] });
    expect(await job('d')).toMatchObject({ jobType: 'folder', jobs: ['badBuildStep', 'valid'] });
    expect(await job('d/valid')).toMatchObject({ name: 'valid', fullName: 'd/valid', jobType: 'freestyle', isBuildable: true });
    expect(await job('p')).toMatchObject({ jobType: 'pipeline' });
    expect(await job('org')).toMatchObject({ jobType: 'organization-folder' });
    expect(await job('org/repo')).toMatchObject({ jobType: 'multibranch', jobs: ['master'] });
  });

  it('resolves folder-nested full names', async () => {
    const child = await job('foo/child1');
    expect(child).toMatchObject({ name: 'child1', fullName: 'foo/child1', jobType: 'freestyle', nextBuildNumber: 1, lastBuild: null });
    expect(child.url).toBe('http://localhost:50076/jenkins/job/foo/job/child1/');
  });

  it('finds mangled multibranch folders and branches by their recorded names', async () => {
    const branch = await job('mangled/Россия/особенность%2Fновый');
    expect(branch).toMatchObject({ displayName: 'особенность/новый', lastBuild: { number: 1, result: 'SUCCESS' } });
    expect((await job('mangled/Россия/особенность/новый')).error).toMatch(/No job/);
  });

  it('reports next build number, last builds, and skips copied permalink folders', async () => {
    const parameterized = await job('parameterized');
    expect(parameterized).toMatchObject({
      nextBuildNumber: 2,
      buildCount: 1,
      lastBuild: { number: 1, result: 'SUCCESS' },
      lastSuccessfulBuild: { number: 1 },
      lastFailedBuild: null,
      parameterDefinitions: [
        { name: 'FOO', type: 'String' },
        { name: 'BAR', type: 'String' },
      ],
    });
    expect(parameterized.configXml).toContain('<hudson.model.StringParameterDefinition>');
  });

  it('masks secrets in config and cuts description and config', async () => {
    const upstream = await job('upstream');
    expect(upstream.configXml).toContain('<authToken>****</authToken>');
    expect(upstream.configXml).not.toContain('<authToken>test</authToken>');

    const dir = path.join(home, 'jobs', 'long');
    await mkdir(dir, { recursive: true });
    const description = 'd'.repeat(3000);
    const padding = `<padding>${'p'.repeat(8000)}</padding>`;
    await writeFile(
      path.join(dir, 'config.xml'),
      `<?xml version='1.1' encoding='UTF-8'?>\n<project>\n<description>${description}</description>\n<disabled>true</disabled>\n` +
        `<password>{AQAAABAAAAAQabcdefghijklmnop}</password><apiToken>hunter2</apiToken><credentialsId>deploy-key</credentialsId>\n${padding}\n</project>\n`,
    );
    const long = await job('long');
    expect(long.isBuildable).toBe(false);
    expect(long.description?.startsWith('ddd')).toBe(true);
    expect(long.description?.length).toBeLessThanOrEqual(1000 + '\n[TRUNCATED]'.length);
    expect(long.configXml?.length).toBeLessThanOrEqual(5000 + '\n[TRUNCATED]'.length);
    expect(long.configXml).not.toContain('AQAAAB');
    expect(long.configXml).not.toContain('hunter2');
    expect(long.configXml).toContain('<credentialsId>deploy-key</credentialsId>');
  });

  it('answers an unknown or unsafe job with an error, and a typed not-found', async () => {
    const result = await buildCiContextResult({ jenkinsHome: home, jobName: 'team/nope', buildNumber: 42 });
    expect(result.context.jobDetails).toEqual({ fullName: 'team/nope', error: 'No job team/nope in JENKINS_HOME' });
    expect(result.context.buildDetails?.error).toMatch(/no job team\/nope/);
    expect(result.notFound).toBe(true);
    expect(result.problems[0]?.error).toBeInstanceOf(JobNotFoundError);
    expect((await job('../../etc')).error).toMatch(/No job/);
    expect(result.context.ciVersion).toBe('1.480.1'); // the rest of the context is still there
  });
});

describe('build details', () => {
  it('reads causes in the <causeBag> shape', async () => {
    const downstream = await build('downstream', 1);
    expect(downstream.causes).toEqual([
      expect.objectContaining({
        shortDescription: 'Started by upstream project "upstream" build number 1',
        upstreamProject: 'upstream',
        upstreamBuild: 1,
        upstreamCauses: [expect.objectContaining({ shortDescription: 'Started by an SCM change' })],
      }),
    ]);
    expect((await build('fs', 1)).causes?.[0]?.shortDescription).toBe('Started by remote host <img src=x onerror=alert(1)> with note: note');
    const security = await build('SECURITY-1793', 4);
    expect(security.causes?.[0]).toMatchObject({ shortDescription: 'Started by user admin', userId: 'admin', userName: 'admin' });
    expect(security.parameters).toEqual({ 'html.html': 'html.html' });
    expect(security.parameterTypes).toEqual({ 'html.html': 'File' });
  });

  it('reads causes in the old <causes> shape, parameters, timing and the built-in node', async () => {
    const b = await build('parameterized', 1);
    expect(b).toMatchObject({
      number: 1,
      result: 'SUCCESS',
      building: false,
      duration: 211,
      durationText: '211 ms',
      timestamp: new Date(1461781549192).toISOString(),
      builtOnNode: 'built-in',
      previousBuild: null,
      changes: [],
    });
    expect(b.causes).toEqual([expect.objectContaining({ shortDescription: 'Started by user anonymous' })]);
    // Recorded in the build though no longer defined by the job (SECURITY-170's case): UNDEF.
    expect(b.parameters).toEqual({ FOO: 'foo', BAR: 'bar', UNDEF: 'undef' });
  });

  it('finds the previous build', async () => {
    // The same shape as the build's own facts, without the log (CONTRACT section 2).
    expect((await build('upstream', 2)).previousBuild).toEqual({
      number: 1,
      result: 'SUCCESS',
      building: false,
      duration: 2,
      timestamp: '2020-07-28T12:05:41.553Z',
      builtOnNode: 'built-in',
    });
  });

  it('strips old and new console notes from the log tail', async () => {
    const j = await build('j', 2);
    expect(j.consoleLogTail?.split('\n')[0]).toBe('Started by user anonymous');
    expect(j.consoleLogTail).toMatch(/Finished: SUCCESS$/);
    const p = await build('p', 1, new Date(1638308102633 + 90_000));
    expect(p.consoleLogTail).not.toContain(ESC);
    expect(p.consoleLogTail).toContain('Running on remote in /home/jenkins/agent/workspace/p');
  });

  it('reports a running build as IN_PROGRESS, ignoring the result nested in <execution>', async () => {
    const now = new Date(1638308102633 + 90_000);
    expect(await build('p', 1, now)).toMatchObject({ result: 'IN_PROGRESS', building: true, duration: 90_000, durationText: '1 min 30 sec so far' });
  });

  it('reads a build.xml in the encoding its declaration names, and a Latin-1 log line (ux3, session 42)', async () => {
    const dir = path.join(home, 'jobs/latin/builds/3');
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(home, 'jobs/latin/config.xml'), '<project/>');
    const xml = `<?xml version='1.1' encoding='ISO-8859-1'?>
<build>
  <actions>
    <hudson.model.CauseAction><causeBag class="linked-hash-map"><entry>
      <hudson.model.Cause_-UserIdCause><userId>josé</userId></hudson.model.Cause_-UserIdCause><int>1</int>
    </entry></causeBag></hudson.model.CauseAction>
  </actions>
  <timestamp>1795599712904</timestamp>
  <result>FAILURE</result>
  <duration>1000</duration>
</build>`;
    await writeFile(path.join(dir, 'build.xml'), Buffer.from(xml, 'latin1'));
    await writeFile(path.join(dir, 'log'), Buffer.from('Started by user José\nE   assert price(\'café\') == 3\n', 'latin1'));
    const b = await build('latin', 3);
    expect(b.causes?.[0]).toMatchObject({ userId: 'josé' });
    expect(b.consoleLogTail).toBe("Started by user José\nE   assert price('café') == 3");
  });

  it('finds builds of old homes in timestamp-named folders', async () => {
    const legacy = await build('legacy', 1);
    expect(legacy).toMatchObject({ number: 1, result: 'IN_PROGRESS', timestamp: new Date(1483971594447).toISOString() });
    expect(legacy.consoleLogTail).toContain('+ sleep infinity');
  });

  it('reads XML change logs of pipelines (changelog0.xml) in multibranch branches', async () => {
    const master = await build('org/repo/master', 1);
    expect(master.causes?.[0]?.shortDescription).toBe('Branch indexing');
    expect(master.changes).toEqual([
      expect.objectContaining({ commitId: '2851c9369a8d81120227b8dd250f01e4e20c39cf', message: 'First!' }),
      expect.objectContaining({ commitId: '798290637d5581473c6aafd0538673ea8d2d7060' }),
    ]);
  });

  it('reads raw git whatchanged text stored as changelog.xml, at most 50 changes', async () => {
    const commits = Array.from({ length: 60 }, (_, i) => {
      const sha = (i + 1).toString(16).padStart(40, 'a');
      return (
        `commit ${sha}\ntree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\nparent ${'b'.repeat(40)}\n` +
        `author Dev ${i} <dev${i}@example.com> ${1700000000 + i} +0100\ncommitter Dev ${i} <dev${i}@example.com> ${1700000000 + i} +0100\n\n` +
        `    Change number ${i}\n    \n    password=hunter2 in the body\n\n` +
        `:100644 100644 ${'1'.repeat(40)} ${'2'.repeat(40)} M\tsrc/file${i}.c\n`
      );
    });
    await writeFile(path.join(home, 'jobs/fs/builds/1/changelog.xml'), commits.join('\n'));
    const changes = (await build('fs', 1)).changes ?? [];
    expect(changes).toHaveLength(50);
    expect(changes[0]).toMatchObject({
      commitId: '1'.padStart(40, 'a'),
      author: 'Dev 0',
      authorEmail: 'dev0@example.com',
      timestamp: new Date(1700000000 * 1000).toISOString(),
      files: ['M src/file0.c'],
    });
    expect(changes[0]?.message).toMatch(/^Change number 0\n/);
    expect(changes[0]?.message).not.toContain('hunter2');
  });

  it('answers a missing build with an error, and a typed not-found', async () => {
    const result = await buildCiContextResult({ jenkinsHome: home, jobName: 'fs', buildNumber: 42 });
    expect(result.context.buildDetails).toEqual({ number: 42, error: 'No build #42 of job fs in JENKINS_HOME' });
    expect(result.context.jobDetails?.name).toBe('fs');
    expect(result.notFound).toBe(true);
    expect(result.problems.map((p) => p.error)).toEqual([expect.any(BuildNotFoundError)]);
    await expect(resolveBuildNumber(home, 'fs', 42)).rejects.toBeInstanceOf(BuildNotFoundError);
    await expect(resolveBuildNumber(home, 'nope', 1)).rejects.toBeInstanceOf(JobNotFoundError);
  });

  it('survives a corrupt build.xml: an error, and still the log tail', async () => {
    const dir = path.join(home, 'jobs/downstream/builds/3');
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'build.xml'), "<?xml version='1.1' encoding='UTF-8'?>\n<build>\n  <actions>\n    <hudson.model.CauseAction>\n      <causeBag");
    await writeFile(path.join(dir, 'log'), 'Started\nsomething broke\nFinished: FAILURE\n');
    const result = await buildCiContextResult({ jenkinsHome: home, jobName: 'downstream', buildNumber: 3 });
    expect(result.context.buildDetails?.error).toMatch(/build\.xml of downstream #3 is corrupt/);
    expect(result.context.buildDetails?.consoleLogTail).toBe('Started\nsomething broke\nFinished: FAILURE');
    expect(result.notFound).toBe(false);
    expect(result.problems).toHaveLength(1);
    // The job's own "last build" summary does not break on it either.
    expect(result.context.jobDetails?.lastBuild).toEqual({ number: 3 });
  });

  it('uses the caller log instead of reading the tail', async () => {
    const b = (await buildCiContext({ jenkinsHome: home, jobName: 'j', buildNumber: 2, consoleLog: 'my own log', currentScreen: 'Console j #2' }));
    expect(b.currentScreen).toBe('Console j #2');
    expect(b.buildDetails?.consoleLog).toBe('my own log');
    expect(b.buildDetails?.consoleLogTail).toBeUndefined();
  });

  it('throws XmlCorruptError from parseXml for truncated, empty and mismatched XML', () => {
    expect(() => parseXml('<build><result>SUCCESS</result><dur')).toThrow(XmlCorruptError);
    expect(() => parseXml('')).toThrow(XmlCorruptError);
    expect(() => parseXml('<a><b></a>')).toThrow(XmlCorruptError);
    expect(parseXml('<project/>\n').name).toBe('project');
  });
});

describe('the sample home shipped in seeds/', () => {
  it('describes the failing pipeline build of team/api', async () => {
    const ctx = await buildCiContext({ jenkinsHome: SEED_HOME, jobName: 'team/api', buildNumber: 42 });
    expect(ctx).toMatchObject({ ciVersion: '2.462.3', rootUrl: 'http://localhost:8081/', agentStats: { onlineAgents: 1, offlineAgents: 0 } });
    expect(ctx.systemMessage).toContain('cichat demo');
    expect(ctx.plugins?.find((p) => p.shortName === 'ansicolor')?.enabled).toBe(false);
    expect(ctx.plugins?.filter((p) => p.shortName === 'junit')).toHaveLength(1);
    expect(ctx.jobDetails).toMatchObject({ fullName: 'team/api', jobType: 'pipeline', nextBuildNumber: 43, lastFailedBuild: { number: 42 } });
    expect(ctx.jobDetails?.configXml).not.toContain('AQAAAB');
    const b = ctx.buildDetails;
    expect(b).toMatchObject({
      number: 42,
      result: 'FAILURE',
      duration: 61877,
      durationText: '1 min 1 sec',
      previousBuild: { number: 41, result: 'SUCCESS' },
      testResults: { total: 10, failed: 1, skipped: 0, passed: 9 },
    });
    expect(b?.causes?.[0]).toMatchObject({ shortDescription: 'Started by user Alice Martin', userId: 'alice', userName: 'Alice Martin' });
    expect(b?.parameters).toEqual({ BRANCH: 'main', DEPLOY_TOKEN: '****' });
    expect(b?.parameterTypes).toEqual({ DEPLOY_TOKEN: 'Password' });
    expect(b?.changes?.[0]).toMatchObject({ author: 'Alice Martin', message: 'Apply the discount before tax in OrderTotals' });
    expect(b?.consoleLogTail).not.toContain(ESC);
    expect(b?.consoleLogTail).toContain('[Pipeline] Start of Pipeline');
    expect(b?.consoleLogTail).toMatch(/ERROR: script returned exit code 1\nFinished: FAILURE$/);
  });

  it('describes the freestyle job', async () => {
    const ctx = await buildCiContext({ jenkinsHome: SEED_HOME, jobName: 'hello-freestyle', buildNumber: 1 });
    expect(ctx.jobDetails).toMatchObject({ jobType: 'freestyle', isBuildable: true, lastSuccessfulBuild: { number: 1 } });
    expect(ctx.buildDetails).toMatchObject({ result: 'SUCCESS', builtOnNode: 'built-in', causes: [{ shortDescription: 'Started by an SCM change' }] });
    expect(ctx.buildDetails?.changes?.[0]?.files).toEqual(['M src/hello.c', 'M tests/test_hello.sh']);
  });
});
