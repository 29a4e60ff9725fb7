/**
 * Writes Jenkins homes for the watcher's tests and bench, as Jenkins lays them out: job folders
 * with config.xml, folders (`jobs/`), multibranch projects (`branches/` with mangled names and
 * name-utf8.txt), and builds written in Jenkins' order: build folder, log, then build.xml.
 */
import fs from 'node:fs';
import path from 'node:path';

export type JobKind = 'freestyle' | 'pipeline';

const CONFIG: Record<JobKind | 'folder' | 'multibranch', string> = {
  freestyle: '<project><description></description><builders/></project>',
  pipeline: '<flow-definition plugin="workflow-job@1400.v7fd111b_ec82f"><description></description></flow-definition>',
  folder: '<com.cloudbees.hudson.plugins.folder.Folder plugin="cloudbees-folder@6.9"><description></description></com.cloudbees.hudson.plugins.folder.Folder>',
  multibranch: '<org.jenkinsci.plugins.workflow.multibranch.WorkflowMultiBranchProject plugin="workflow-multibranch@795.ve0cb_1f45ca_9a_"/>',
};

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

/** An empty home: a root config.xml and a location configuration naming the root URL. */
export function makeHome(home: string, rootUrl = 'http://ci.example.test/'): void {
  write(path.join(home, 'config.xml'), "<?xml version='1.1' encoding='UTF-8'?>\n<hudson><version>2.462.3</version><numExecutors>2</numExecutors></hudson>\n");
  write(
    path.join(home, 'jenkins.model.JenkinsLocationConfiguration.xml'),
    `<?xml version='1.1' encoding='UTF-8'?>\n<jenkins.model.JenkinsLocationConfiguration><jenkinsUrl>${rootUrl}</jenkinsUrl></jenkins.model.JenkinsLocationConfiguration>\n`,
  );
  fs.mkdirSync(path.join(home, 'jobs'), { recursive: true });
}

/** The folder of a job by full name; folders on the way are created as Folder items. */
export function makeJob(home: string, fullName: string, kind: JobKind = 'freestyle'): string {
  const segments = fullName.split('/');
  let dir = home;
  segments.forEach((segment, i) => {
    dir = path.join(dir, 'jobs', segment);
    const last = i === segments.length - 1;
    if (!fs.existsSync(path.join(dir, 'config.xml'))) write(path.join(dir, 'config.xml'), last ? CONFIG[kind] : CONFIG.folder);
  });
  return dir;
}

/** A multibranch project `project` with one branch (mangled folder, name-utf8.txt); the branch's folder. */
export function makeBranch(home: string, project: string, branch: string): string {
  const projectDir = makeJob(home, project, 'pipeline');
  write(path.join(projectDir, 'config.xml'), CONFIG.multibranch);
  const mangled = `${branch.replace(/[^A-Za-z0-9]/g, '-')}.a1b2c3`;
  const dir = path.join(projectDir, 'branches', mangled);
  // Jenkins names a branch item with `/` encoded (`feature%2Fx`).
  write(path.join(dir, 'name-utf8.txt'), branch.replace(/\//g, '%2F'));
  write(path.join(dir, 'config.xml'), CONFIG.pipeline);
  return dir;
}

export interface BuildSpec {
  number: number;
  /** Omitted: a running build (build.xml without a result). */
  result?: 'SUCCESS' | 'FAILURE' | 'UNSTABLE' | 'ABORTED';
  log?: string;
  kind?: JobKind;
}

export function buildXml(spec: BuildSpec, timestamp = Date.now()): string {
  const root = spec.kind === 'pipeline' ? 'flow-build' : 'build';
  const plugin = spec.kind === 'pipeline' ? ' plugin="workflow-job@1400.v7fd111b_ec82f"' : '';
  const result = spec.result ? `  <result>${spec.result}</result>\n  <duration>4321</duration>\n` : '';
  const completed = spec.kind === 'pipeline' ? `  <completed>${spec.result ? 'true' : 'false'}</completed>\n` : '';
  return (
    `<?xml version='1.1' encoding='UTF-8'?>\n<${root}${plugin}>\n  <actions>\n    <hudson.model.CauseAction><causeBag class="linked-hash-map"><entry>` +
    `<hudson.model.Cause_-UserIdCause><userId>alice</userId></hudson.model.Cause_-UserIdCause><int>1</int></entry></causeBag></hudson.model.CauseAction>\n  </actions>\n` +
    `  <queueId>${spec.number}</queueId>\n  <timestamp>${timestamp}</timestamp>\n  <startTime>${timestamp + 5}</startTime>\n${result}` +
    `  <charset>UTF-8</charset>\n  <keepLog>false</keepLog>\n  <builtOn></builtOn>\n${completed}</${root}>\n`
  );
}

export const FAILING_LOG = [
  'Started by user alice',
  'Building in workspace /var/jenkins_home/workspace/app',
  '+ mvn -B test',
  '[INFO] Running com.acme.OrderTotalsTest',
  '[ERROR] Tests run: 4, Failures: 1, Errors: 0, Skipped: 0',
  '[ERROR] totalAppliesDiscountBeforeTax(com.acme.OrderTotalsTest)  Time elapsed: 0.01 s  <<< FAILURE!',
  'org.opentest4j.AssertionFailedError: expected: <90.0> but was: <99.0>',
  '\tat com.acme.OrderTotalsTest.totalAppliesDiscountBeforeTax(OrderTotalsTest.java:31)',
  '[ERROR] BUILD FAILURE',
  'Build step "Execute shell" marked build as failure',
  'Finished: FAILURE',
  '',
].join('\n');

/**
 * Writes a build as Jenkins does: the folder, the log, then build.xml (replaced atomically,
 * as Jenkins' AtomicFileWriter does). Answers the build folder.
 */
export function writeBuild(jobDir: string, spec: BuildSpec): string {
  const dir = path.join(jobDir, 'builds', String(spec.number));
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'log'), spec.log ?? (spec.result === 'SUCCESS' ? 'Finished: SUCCESS\n' : FAILING_LOG));
  const tmp = path.join(dir, `atomic${process.pid}.tmp`);
  fs.writeFileSync(tmp, buildXml(spec));
  fs.renameSync(tmp, path.join(dir, 'build.xml'));
  return dir;
}
