/**
 * The JENKINS_HOME reader against real homes, part 2 (part 1: jenkins-real-homes.test.ts): console
 * logs, secrets, more shapes, names and links, running builds, unreadable and forbidden files.
 */
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { CiContext } from '../protocol/types.js';
import { buildCiContextResult } from '../jenkins/context.js';
import { resolveBuildNumber } from '../jenkins/jobs.js';
import { parseReferer, resolveReferer } from '../jenkins/referer.js';
import { DECL, ESC, buildOf, buildXml, ctx, freestyleConfig, freestyleJob, jobOf, newHome, pipelineConfig, put, removeHomes, within } from './helpers/realHomes.js';

afterAll(removeHomes);


describe('console logs', () => {
  it('log.gz (compress-buildlog plugin) when log is missing: the tail is read from it, notes and ANSI removed', async () => {
    const home = await newHome();
    await freestyleJob(home, 'jobs/app', { 1: { result: 'FAILURE' } });
    await rm(path.join(home, 'jobs/app/builds/1/log'));
    const lines: string[] = [];
    for (let i = 1; i <= 5000; i++) lines.push(`line ${i}`);
    lines.push(`${ESC}[8mha:////4AAAAFakeNote==${ESC}[0m${ESC}[31mERROR: tests failed${ESC}[0m`, 'Finished: FAILURE');
    await put(home, 'jobs/app/builds/1/log.gz', gzipSync(Buffer.from(lines.join('\n') + '\n')));
    const b = await buildOf(home, 'app', 1);
    const tail = (b.consoleLogTail ?? '').split('\n');
    expect(tail).toHaveLength(1000);
    expect(tail[0]).toBe('line 4003');
    expect(tail.slice(-2)).toEqual(['ERROR: tests failed', 'Finished: FAILURE']);
    expect(b.consoleLogTruncated).toBe(true);
    expect(b.consoleLogCompressed).toBe(true);
  });

  it('a corrupt log.gz is an error on the log, not on the build', async () => {
    const home = await newHome();
    await freestyleJob(home, 'jobs/app', { 1: {} });
    await rm(path.join(home, 'jobs/app/builds/1/log'));
    await put(home, 'jobs/app/builds/1/log.gz', Buffer.concat([gzipSync(Buffer.from('a\nb\n'.repeat(1000))).subarray(0, 40), Buffer.from('garbage')]));
    const b = await buildOf(home, 'app', 1);
    expect(b.result).toBe('SUCCESS');
    expect(b.consoleLogError).toMatch(/log\.gz/);
  });

  it('no log at all: the build is still described, with no tail and no error', async () => {
    const home = await newHome();
    await freestyleJob(home, 'jobs/app', { 1: {} });
    await rm(path.join(home, 'jobs/app/builds/1/log'));
    const b = await buildOf(home, 'app', 1);
    expect(b.result).toBe('SUCCESS');
    expect(b.consoleLogTail).toBeUndefined();
    expect(b.consoleLogError).toBeUndefined();
  });
});

// --------------------------------------------------------------------------- secrets

describe('secrets never leave the home', () => {
  it('job config with encrypted values, passwords in attributes-free elements and credentials ids', async () => {
    const home = await newHome();
    await put(
      home,
      'jobs/app/config.xml',
      freestyleConfig(`
  <hudson.plugins.ws__cleanup.PreBuildCleanup/>
  <org.jenkinsci.plugins.credentialsbinding.impl.SecretBuildWrapper>
    <bindings>
      <org.jenkinsci.plugins.credentialsbinding.impl.StringBinding>
        <credentialsId>npm-token</credentialsId>
        <variable>NPM_TOKEN</variable>
      </org.jenkinsci.plugins.credentialsbinding.impl.StringBinding>
    </bindings>
  </org.jenkinsci.plugins.credentialsbinding.impl.SecretBuildWrapper>
  <deployPassword>{AQAAABAAAAAQl2YpXu1m1bOY0R3f0mR1bA1m0sB2vZ5aXx3nq8Ve0Xk=}</deployPassword>
  <webhookSecret>plain-text-secret-value</webhookSecret>`),
    );
    const j = await jobOf(home, 'app');
    expect(j.configXml).toContain('<credentialsId>npm-token</credentialsId>');
    expect(j.configXml).not.toContain('AQAAAB');
    expect(j.configXml).not.toContain('plain-text-secret-value');
  });
});

// ------------------------------------------------------------------- more real shapes

describe('more shapes of real homes', () => {
  it('descriptions and display names of jobs and builds are masked like everything else', async () => {
    const home = await newHome();
    await put(
      home,
      'jobs/app/config.xml',
      freestyleConfig().replace('<description></description>', '<description>Deploys with DEPLOY_PASSWORD=hunter2-prod and {AQAAABAAAAAQl2YpXu1m1bOY0R3f0mR1bA1m0sB2vZ5aXx3nq8Ve0Xk=}</description>'),
    );
    await put(
      home,
      'jobs/app/builds/1/build.xml',
      buildXml().replace('<queueId>', '<description>token ghp_abcdefghijklmnopqrstuvwxyz0123456789 used</description>\n  <queueId>'),
    );
    const c = await ctx(home, 'app', 1);
    const text = JSON.stringify(c);
    expect(c.jobDetails?.description).toContain('Deploys with');
    expect(c.buildDetails?.description).toContain('used');
    expect(text).not.toContain('hunter2-prod');
    expect(text).not.toContain('ghp_abcdefghijklmnopqrstuvwxyz0123456789');
    expect(text).not.toContain('AQAAAB');
  });

  it('cloud agents of any class, and the reason given when an admin disconnected one', async () => {
    const home = await newHome();
    await put(
      home,
      'nodes/ec2-build (i-0abc)/config.xml',
      `${DECL}<hudson.plugins.ec2.EC2OndemandSlave plugin="ec2@1648.vf3d852ef4f58">
  <name>ec2-build (i-0abc)</name>
  <description>Linux build agent</description>
  <remoteFS>/home/ec2-user</remoteFS>
  <numExecutors>4</numExecutors>
  <mode>NORMAL</mode>
  <retentionStrategy class="hudson.plugins.ec2.EC2RetentionStrategy"/>
  <launcher class="hudson.plugins.ec2.ssh.EC2UnixLauncher"/>
  <label>linux docker</label>
  <temporaryOfflineCause class="hudson.slaves.OfflineCause$UserCause">
    <timestamp>1700000000000</timestamp>
    <description>
      <holder>
        <owner>hudson.slaves.Messages</owner>
      </holder>
      <key>SlaveComputer.DisconnectedBy</key>
      <args>
        <string>admin</string>
        <string> : disk full on /var</string>
      </args>
    </description>
    <userId>admin</userId>
  </temporaryOfflineCause>
</hudson.plugins.ec2.EC2OndemandSlave>
`,
    );
    const stats = (await ctx(home)).agentStats;
    expect(stats).toMatchObject({ onlineAgents: 0, offlineAgents: 1 });
    expect(stats?.agents?.[0]).toMatchObject({
      name: 'ec2-build (i-0abc)',
      executors: 4,
      labels: ['linux', 'docker'],
      launcher: 'EC2UnixLauncher',
      offlineReason: 'Disconnected by admin: disk full on /var',
    });
  });

  it('hundreds of unlinked timestamp folders (a home restored from a zip) are read by their build.xml numbers', async () => {
    const home = await newHome();
    await put(home, 'jobs/old/config.xml', freestyleConfig());
    const start = Date.UTC(2014, 0, 1);
    for (let n = 1; n <= 400; n++) {
      const d = new Date(start + n * 3_600_000).toISOString().slice(0, 19).replace('T', '_').replace(/:/g, '-');
      await put(home, `jobs/old/builds/${d}/build.xml`, buildXml({ number: n, result: n === 17 ? 'SUCCESS' : 'FAILURE' }));
    }
    const c = await ctx(home, 'old', 400);
    expect(c.jobDetails).toMatchObject({ buildCount: 400, lastBuild: { number: 400, result: 'FAILURE' }, lastSuccessfulBuild: { number: 17, result: 'SUCCESS' } });
    expect(c.buildDetails).toMatchObject({ number: 400, result: 'FAILURE', previousBuild: { number: 399 } });
  }, 30_000);

  it('a job config.xml of several megabytes is typed, masked and cut without reading it all into the tree', async () => {
    const home = await newHome();
    const steps: string[] = [];
    for (let i = 0; i < 40_000; i++) steps.push(`    <hudson.tasks.Shell>\n      <command>echo step ${i}</command>\n    </hudson.tasks.Shell>`);
    const config = freestyleConfig()
      .replace('<builders>\n    <hudson.tasks.Shell>\n      <command>make test</command>\n    </hudson.tasks.Shell>\n  </builders>', `<builders>\n${steps.join('\n')}\n  </builders>`)
      .replace('<description></description>', '<description>Big one</description>');
    expect(config.length).toBeGreaterThan(3 * 1024 * 1024);
    await put(home, 'jobs/big/config.xml', config);
    const j = await jobOf(home, 'big');
    expect(j).toMatchObject({ jobType: 'freestyle', description: 'Big one', isBuildable: true, lastBuild: null });
    expect(j.configXml?.endsWith('[TRUNCATED]')).toBe(true);
  });

  it('maven projects: modules under modules/<groupId>$<artifactId>, reached from the Referer', async () => {
    const home = await newHome();
    await put(home, 'jobs/shop/config.xml', `${DECL}<maven2-moduleset plugin="maven-plugin@3.23">\n  <description></description>\n  <rootModule>\n    <groupId>com.acme</groupId>\n    <artifactId>shop</artifactId>\n  </rootModule>\n  <goals>clean install</goals>\n</maven2-moduleset>\n`);
    await put(home, 'jobs/shop/builds/3/build.xml', buildXml({ root: 'maven2-moduleset-build', result: 'UNSTABLE' }));
    await put(home, 'jobs/shop/modules/com.acme$core/config.xml', `${DECL}<maven2 plugin="maven-plugin@3.23">\n  <groupId>com.acme</groupId>\n  <artifactId>core</artifactId>\n</maven2>\n`);
    await put(home, 'jobs/shop/modules/com.acme$core/builds/3/build.xml', buildXml({ root: 'maven-build', result: 'UNSTABLE', builtOn: 'linux-1' }));
    await put(home, 'jobs/shop/modules/com.acme$core/builds/3/log', 'Tests run: 10, Failures: 1\n');
    const parent = await ctx(home, 'shop', 3);
    expect(parent.jobDetails).toMatchObject({ jobType: 'maven', modules: ['com.acme$core'] });
    expect(parent.buildDetails).toMatchObject({ result: 'UNSTABLE', kind: 'maven' });
    const info = await resolveReferer(home, '/job/shop/com.acme$core/3/console');
    expect(info).toMatchObject({ jobName: 'shop/com.acme$core', buildNumber: 3 });
    const mod = await ctx(home, info.jobName, info.buildNumber);
    expect(mod.jobDetails).toMatchObject({ jobType: 'maven-module' });
    expect(mod.buildDetails).toMatchObject({ result: 'UNSTABLE', kind: 'maven-module', builtOnNode: 'linux-1' });
    expect(mod.buildDetails?.consoleLogTail).toBe('Tests run: 10, Failures: 1');
  });

  it('a build folder that is itself a file, and a log that is a directory, are reported, not crashed on', async () => {
    const home = await newHome();
    await freestyleJob(home, 'jobs/app', { 1: {} });
    await put(home, 'jobs/app/builds/2', 'not a folder');
    await rm(path.join(home, 'jobs/app/builds/1/log'));
    await mkdir(path.join(home, 'jobs/app/builds/1/log'));
    const r = await buildCiContextResult({ jenkinsHome: home, jobName: 'app', buildNumber: 1 });
    expect(r.context.buildDetails).toMatchObject({ result: 'SUCCESS' });
    expect(r.context.buildDetails?.consoleLogError).toMatch(/not a regular file/);
    expect((await buildCiContextResult({ jenkinsHome: home, jobName: 'app', buildNumber: 2 })).context.buildDetails?.error).toBe('No build #2 of job app in JENKINS_HOME');
    expect((await jobOf(home, 'app')).buildCount).toBe(1);
  });
});

describe('names and links that real homes carry', () => {
  it('a job whose name is NFD on disk (copied from a Mac) is found from an NFC Referer', async () => {
    const home = await newHome();
    const nfd = 'Café-build'.normalize('NFD');
    await freestyleJob(home, `jobs/${nfd}`, { 1: { result: 'FAILURE' } });
    const info = parseReferer(`/job/${encodeURIComponent('Café-build'.normalize('NFC'))}/1/`);
    const c = await ctx(home, info.jobName, info.buildNumber);
    expect(c.jobDetails).toMatchObject({ jobType: 'freestyle' });
    expect(c.buildDetails).toMatchObject({ result: 'FAILURE' });
  });

  it('old-style "-1" permalink symlinks mean none, and a builds path that is a file means no builds', async () => {
    const home = await newHome();
    await freestyleJob(home, 'jobs/app', { 1: { result: 'FAILURE' } });
    await symlink('-1', path.join(home, 'jobs/app/builds/lastSuccessfulBuild'));
    await symlink('1', path.join(home, 'jobs/app/builds/lastFailedBuild'));
    expect(await jobOf(home, 'app')).toMatchObject({ lastSuccessfulBuild: null, lastFailedBuild: { number: 1, result: 'FAILURE' } });
    await put(home, 'jobs/flat/config.xml', freestyleConfig());
    await put(home, 'jobs/flat/builds', 'oops');
    expect(await jobOf(home, 'flat')).toMatchObject({ jobType: 'freestyle', buildCount: 0, lastBuild: null, nextBuildNumber: 1 });
  });

  it('hostile names and numbers: overlong, NUL, backslash, huge build numbers; each a clear not-found', async () => {
    const home = await newHome();
    await freestyleJob(home, 'jobs/app', { 1: {} });
    for (const name of ['x'.repeat(5000), 'app\0', 'a\\..\\..', 'app/../../..', '/']) {
      const r = await buildCiContextResult({ jenkinsHome: home, jobName: name, buildNumber: 1 });
      expect(r.notFound).toBe(true);
      expect(r.context.jobDetails?.error).toMatch(/^No job /);
    }
    const huge = await buildCiContextResult({ jenkinsHome: home, jobName: 'app', buildNumber: 2 ** 60 });
    expect(huge.context.buildDetails?.error).toMatch(/positive integer/);
    expect(parseReferer('/job/app/99999999999999999999999/').jobName).toBe('app');
    await expect(resolveBuildNumber(home, 'app', '99999999999999999999999')).rejects.toThrow(/No build/);
  });
});

describe('running builds, old root URLs and huge change logs', () => {
  it('a pipeline still running after a step set currentBuild.result: building, with the result so far', async () => {
    const home = await newHome();
    await put(home, 'jobs/p/config.xml', pipelineConfig());
    await put(home, 'jobs/p/builds/1/build.xml', buildXml({ root: 'flow-build', result: 'SUCCESS', builtOn: null }).replace('<hudsonVersion>', '<completed>true</completed>\n  <hudsonVersion>'));
    await put(home, 'jobs/p/builds/2/build.xml', buildXml({ root: 'flow-build', result: 'UNSTABLE', builtOn: null, duration: 0 }).replace('<hudsonVersion>', '<completed>false</completed>\n  <hudsonVersion>'));
    const c = await ctx(home, 'p', 2);
    expect(c.buildDetails).toMatchObject({ result: 'IN_PROGRESS', building: true, interimResult: 'UNSTABLE' });
    expect(c.jobDetails).toMatchObject({ lastBuild: { number: 2, result: 'IN_PROGRESS' }, lastSuccessfulBuild: { number: 1, result: 'SUCCESS' } });
  });

  it('the root URL of a home last run before core 1.494 (hudson.tasks.Mailer.xml) places the context path', async () => {
    const home = await newHome();
    await put(home, 'hudson.tasks.Mailer.xml', `<?xml version='1.0' encoding='UTF-8'?>\n<hudson.tasks.Mailer_-DescriptorImpl>\n  <hudsonUrl>http://ci.example.com/ci/</hudsonUrl>\n  <smtpAuthPassword>{AQAAABAAAAAQl2YpXu1m1bOY0R3f0mR1bA1m0sB2vZ5aXx3nq8Ve0Xk=}</smtpAuthPassword>\n</hudson.tasks.Mailer_-DescriptorImpl>\n`);
    await freestyleJob(home, 'jobs/job', { 1: {} });
    const c = await ctx(home);
    expect(c.rootUrl).toBe('http://ci.example.com/ci/');
    // Without the root URL, `/ci/job/job/1/` has two `job` segments to choose from.
    expect(await resolveReferer(home, 'http://ci.example.com/ci/job/job/1/')).toMatchObject({ jobName: 'job', buildNumber: 1 });
    expect(JSON.stringify(c)).not.toContain('AQAAAB');
  });

  it('a change log of many megabytes: the first 50 changes, read from its head only', async () => {
    const home = await newHome();
    await freestyleJob(home, 'jobs/app', { 1: {} });
    const commits: string[] = [];
    for (let i = 0; i < 60_000; i++) {
      const sha = (i + 1).toString(16).padStart(40, '0');
      commits.push(`commit ${sha}\nauthor Dev ${i} <dev${i}@example.com> 1700000000 +0000\ncommitter Dev <dev@example.com> 1700000000 +0000\n\n    Change number ${i}\n\n:100644 100644 aaaaaaa bbbbbbb M\tsrc/File${i}.java\n`);
    }
    const text = commits.join('\n');
    expect(text.length).toBeGreaterThan(10 * 1024 * 1024);
    await put(home, 'jobs/app/builds/1/changelog.xml', text);
    const b = await buildOf(home, 'app', 1);
    expect(b.changes).toHaveLength(50);
    expect(b.changes?.[0]).toMatchObject({ author: 'Dev 0', message: 'Change number 0' });
    expect(b.changes?.[49]).toMatchObject({ message: 'Change number 49' });
  });
});

describe('an unreadable builds directory', () => {
  it('a builds/ that is a symlink loop costs the build fields only, with a reason', async () => {
    const home = await newHome();
    await put(home, 'jobs/app/config.xml', freestyleConfig().replace('<description></description>', '<description>The app</description>'));
    await symlink('builds', path.join(home, 'jobs/app/builds'));
    const r = await within(30_000, () => buildCiContextResult({ jenkinsHome: home, jobName: 'app', buildNumber: 1 }));
    expect(r.context.jobDetails).toMatchObject({ jobType: 'freestyle', description: 'The app', buildCount: 0, lastBuild: null });
    expect(r.context.jobDetails?.buildsError).toMatch(/Builds of app are unreadable: ELOOP/);
    expect(r.context.buildDetails?.error).toBe('No build #1 of job app in JENKINS_HOME');
  });
});

describe('files the controller may not read (permissions)', () => {
  /**
   * The context as an unprivileged user sees it: in this process when it is not root, else in
   * a child process run as nobody (root reads everything, whatever the modes say).
   */
  async function contextUnprivileged(home: string, jobName: string, buildNumber: number): Promise<{ context: CiContext; problems: string[] }> {
    if (process.getuid?.() !== 0) {
      const r = await buildCiContextResult({ jenkinsHome: home, jobName, buildNumber });
      return { context: r.context, problems: r.problems.map((p) => p.field) };
    }
    const script = path.join(home, '..', 'perm-check.mts');
    const contextModule = path.resolve('jenkins/context.ts');
    await writeFile(
      script,
      `import { buildCiContextResult } from ${JSON.stringify(contextModule)};\n` +
        `const r = await buildCiContextResult({ jenkinsHome: process.argv[2], jobName: process.argv[3], buildNumber: Number(process.argv[4]) });\n` +
        `process.stdout.write(JSON.stringify({ context: r.context, problems: r.problems.map((p) => p.field) }));\n`,
    );
    await chmod(script, 0o644);
    const tsx = path.resolve('node_modules/tsx/dist/cli.mjs');
    const out = execFileSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, tsx, script, home, jobName, String(buildNumber)], {
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: os.tmpdir() },
      timeout: 30_000,
    });
    return JSON.parse(out.toString()) as { context: CiContext; problems: string[] };
  }

  it('an unreadable log, build.xml, plugins folder and agent config each cost only their own part', async () => {
    const parent = await newHome();
    await chmod(parent, 0o755);
    const home = path.join(parent, 'home');
    await put(home, 'config.xml', `${DECL}<hudson>\n  <version>2.440.3</version>\n</hudson>\n`);
    await freestyleJob(home, 'jobs/app', { 1: { result: 'FAILURE' }, 2: { result: 'SUCCESS' } }, '3');
    await put(home, 'nodes/a1/config.xml', `${DECL}<slave>\n  <name>a1</name>\n</slave>\n`);
    await put(home, 'plugins/git.jpi', 'zip');
    await chmod(path.join(home, 'jobs/app/builds/1/log'), 0o000);
    await chmod(path.join(home, 'jobs/app/builds/2/build.xml'), 0o000);
    await chmod(path.join(home, 'nodes/a1/config.xml'), 0o000);
    await chmod(path.join(home, 'plugins'), 0o000);
    const one = await contextUnprivileged(home, 'app', 1);
    expect(one.context.ciVersion).toBe('2.440.3');
    expect(one.context.jobDetails).toMatchObject({ jobType: 'freestyle', nextBuildNumber: 3, lastBuild: { number: 2 } });
    expect(one.context.buildDetails).toMatchObject({ number: 1, result: 'FAILURE' });
    expect(one.context.buildDetails?.consoleLogError).toMatch(/Log of app #1 is unreadable: EACCES/);
    expect(one.context.agentStats?.agents?.[0]).toMatchObject({ name: 'a1', online: false, offlineReason: 'configuration unreadable' });
    expect(one.problems).toContain('activePlugins');
    const two = await contextUnprivileged(home, 'app', 2);
    expect(two.context.buildDetails?.error).toMatch(/build\.xml of app #2 is unreadable: EACCES/);
    expect(two.context.buildDetails?.consoleLogTail).toContain('Finished: SUCCESS');
  }, 60_000);
});
