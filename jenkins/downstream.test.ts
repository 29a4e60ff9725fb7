import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildCiContext } from './context.js';

const FIX = path.resolve('test/fixtures/jenkins-flow');
const folder = "<?xml version='1.1' encoding='UTF-8'?>\n<com.cloudbees.hudson.plugins.folder.Folder plugin=\"cloudbees-folder@6.9\"><description/></com.cloudbees.hudson.plugins.folder.Folder>";
const pipeline = "<?xml version='1.1' encoding='UTF-8'?>\n<flow-definition plugin=\"workflow-job@1400\"><keepDependencies>false</keepDependencies></flow-definition>";
const buildXml = (result: string, extra = ''): string =>
  `<?xml version='1.1' encoding='UTF-8'?>\n<flow-build plugin="workflow-job@1400"><actions><hudson.model.CauseAction><causeBag class="linked-hash-map"><entry><hudson.model.Cause_-UpstreamCause><upstreamProject>team/api-ci</upstreamProject><upstreamUrl>job/team/job/api-ci/</upstreamUrl><upstreamBuild>311</upstreamBuild><upstreamCauses><hudson.model.Cause_-UserIdCause><userId>alice</userId></hudson.model.Cause_-UserIdCause></upstreamCauses></hudson.model.Cause_-UpstreamCause><int>1</int></entry></causeBag></hudson.model.CauseAction></actions><timestamp>1795000000000</timestamp><result>${result}</result><duration>5000</duration><execution class="org.jenkinsci.plugins.workflow.cps.CpsFlowExecution"><result>${result}</result>${extra}<done>true</done></execution><completed>true</completed></flow-build>`;

describe('the downstream build that failed this one, one level deep', () => {
  let home: string;
  beforeEach(() => {
    home = mkdtempSync(path.join(os.tmpdir(), 'downstream-'));
    mkdirSync(path.join(home, 'jobs/team/jobs/release/builds/5'), { recursive: true });
    writeFileSync(path.join(home, 'jobs/team/config.xml'), folder);
    writeFileSync(path.join(home, 'jobs/team/jobs/release/config.xml'), pipeline);
    mkdirSync(path.join(home, 'jobs/team/jobs/deploy-staging/builds'), { recursive: true });
    writeFileSync(path.join(home, 'jobs/team/jobs/deploy-staging/config.xml'), pipeline);
    cpSync(path.join(FIX, 'completed'), path.join(home, 'jobs/team/jobs/deploy-staging/builds/17'), { recursive: true });
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  test('named by the console lines: followed to its failing step, tests and log end; the upstream cause named', async () => {
    const dir = path.join(home, 'jobs/team/jobs/release/builds/5');
    writeFileSync(path.join(dir, 'build.xml'), buildXml('FAILURE'));
    writeFileSync(
      path.join(dir, 'log'),
      [
        'Started by upstream project "team/api-ci" build number 311',
        '[Pipeline] build (Building team » deploy-staging)',
        'Scheduling project: team » deploy-staging',
        'Starting building: team » deploy-staging #17',
        'Build team » deploy-staging #17 completed: FAILURE',
        '[Pipeline] End of Pipeline',
        'ERROR: team » deploy-staging #17 completed with status FAILURE (propagate: false to ignore)',
        'Finished: FAILURE',
        '',
      ].join('\n'),
    );
    const ci = await buildCiContext({ jenkinsHome: home, jobName: 'team/release', buildNumber: 5 });
    const b = ci.buildDetails;
    expect(b?.causes?.[0]).toMatchObject({ upstreamProject: 'team/api-ci', upstreamBuild: 311 });
    expect(b?.downstreamFailure).toMatchObject({
      jobName: 'team/deploy-staging',
      number: 17,
      result: 'FAILURE',
      failingSteps: [expect.objectContaining({ stage: 'Test', branch: 'windows', step: 'bat' })],
    });
    expect(String((b?.downstreamFailure as { consoleLogTail?: string }).consoleLogTail)).toContain('error C2065');
  });

  test('a downstream build that is not on disk is named with the reason', async () => {
    const dir = path.join(home, 'jobs/team/jobs/release/builds/5');
    writeFileSync(path.join(dir, 'build.xml'), buildXml('FAILURE'));
    writeFileSync(path.join(dir, 'log'), 'ERROR: team » deploy-staging #99 completed with status UNSTABLE (propagate: false to ignore)\nFinished: FAILURE\n');
    const ci = await buildCiContext({ jenkinsHome: home, jobName: 'team/release', buildNumber: 5 });
    expect(ci.buildDetails?.downstreamFailure).toEqual({ jobName: 'team/deploy-staging', number: 99, error: 'No build #99 of job team/deploy-staging in JENKINS_HOME' });
  });

  test('a passing build is not followed', async () => {
    const dir = path.join(home, 'jobs/team/jobs/release/builds/5');
    writeFileSync(path.join(dir, 'build.xml'), buildXml('SUCCESS'));
    writeFileSync(path.join(dir, 'log'), 'Build team » deploy-staging #17 completed: FAILURE\nFinished: SUCCESS\n');
    const ci = await buildCiContext({ jenkinsHome: home, jobName: 'team/release', buildNumber: 5 });
    expect(ci.buildDetails?.downstreamFailure).toBeUndefined();
  });
});

describe('downstreamRefOf', () => {
  test('the build step\'s DownstreamFailureCause id wins; its message or the log lines otherwise', async () => {
    const { downstreamRefOf } = await import('./downstream.js');
    const flow = '<wf.a.ErrorAction><error class="org.jenkinsci.plugins.workflow.steps.FlowInterruptedException"><causes><org.jenkinsci.plugins.workflow.support.steps.build.DownstreamFailureCause><id>shop/integration-tests#203</id></org.jenkinsci.plugins.workflow.support.steps.build.DownstreamFailureCause></causes></error></wf.a.ErrorAction>';
    expect(downstreamRefOf({ failingSteps: [{ step: 'build', errorClass: 'x', errorMessage: '' }] }, flow)).toEqual({ jobName: 'shop/integration-tests', number: 203 });
    expect(downstreamRefOf({ failingSteps: [{ step: 'build', errorClass: 'hudson.AbortException', errorMessage: 'a » b » c #4 completed with status ABORTED (propagate: false to ignore)' }] })).toEqual({ jobName: 'a/b/c', number: 4 });
    expect(downstreamRefOf({ consoleLogTail: 'Finished: FAILURE' })).toBeUndefined();
  });
});
