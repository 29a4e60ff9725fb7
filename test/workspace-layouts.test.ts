/**
 * The workspace endpoints over real HTTP against the real controller (startController), on the
 * Jenkins-home layouts the shared reader (controller/jenkins) understands: matrix configurations,
 * Maven modules, organization folder > multibranch > renamed branch, NFD names, names with
 * spaces and dots, timestamp build folders, dangling and looping build links, permalinks to
 * deleted builds, an unreadable builds/, FIFOs where files should be, custom workspaces.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { startController, type RunningController } from '../controller/app.js';
import { loadControllerConfig } from '../controller/config.js';
import type { WorkspaceTreeEntry } from '../protocol/types.js';

const MARKER = `CICHAT-LAYOUT-SECRET-${process.pid}`;
const DECL = "<?xml version='1.1' encoding='UTF-8'?>\n";
const RECORDED = '/var/jenkins_home';

let root: string;
let home: string;
let controller: RunningController;

async function put(rel: string, content: string | Buffer, under = home): Promise<void> {
  const file = path.join(under, rel);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, content);
}

function mkfifo(file: string): void {
  execFileSync('mkfifo', [file]);
}

const FREESTYLE = (extra = ''): string => `${DECL}<project>\n  <description></description>\n  <builders/>${extra}\n</project>\n`;
const PIPELINE = `${DECL}<flow-definition plugin="workflow-job@1400.v7fd111b_ec82f">\n  <definition class="org.jenkinsci.plugins.workflow.cps.CpsFlowDefinition"><script>node {}</script></definition>\n</flow-definition>\n`;
const FOLDER = `${DECL}<com.cloudbees.hudson.plugins.folder.Folder plugin="cloudbees-folder@6.928">\n  <description></description>\n</com.cloudbees.hudson.plugins.folder.Folder>\n`;

interface BuildOptions {
  root?: string;
  result?: string;
  workspace?: string | null;
  builtOn?: string;
  number?: number;
  extra?: string;
}

function buildXml(o: BuildOptions = {}): string {
  const rootName = o.root ?? 'build';
  const ws = o.workspace === null || o.workspace === undefined ? '' : `\n  <workspace>${o.workspace}</workspace>`;
  const num = o.number !== undefined ? `\n  <number>${o.number}</number>` : '';
  return `${DECL}<${rootName}>\n  <actions/>${num}\n  <timestamp>1700000000000</timestamp>\n  <result>${o.result ?? 'SUCCESS'}</result>\n  <duration>1000</duration>\n  <builtOn>${o.builtOn ?? ''}</builtOn>${ws}\n  <hudsonVersion>2.440.3</hudsonVersion>${o.extra ?? ''}\n</${rootName}>\n`;
}

/** A flow-build whose flow nodes (per-node storage) recorded `node`/`ws` workspaces. */
async function pipelineBuild(buildDir: string, workspaces: { id: string; path: string; node?: string }[]): Promise<void> {
  await put(`${buildDir}/build.xml`, buildXml({ root: 'flow-build', result: 'FAILURE', extra: '\n  <execution class="org.jenkinsci.plugins.workflow.cps.CpsFlowExecution"><storageDir>workflow</storageDir></execution>' }));
  for (const w of workspaces) {
    await put(
      `${buildDir}/workflow/${w.id}.xml`,
      `${DECL}<Tag plugin="workflow-support@907.v6713a_ed8a_573">\n  <node class="cps.n.StepStartNode"><id>${w.id}</id></node>\n  <actions>\n    <s.a.WorkspaceActionImpl>\n      <node>${w.node ?? ''}</node>\n      <path>${w.path}</path>\n    </s.a.WorkspaceActionImpl>\n  </actions>\n</Tag>\n`,
    );
  }
}

interface Reply {
  status: number;
  body: unknown;
  text: string;
}

/** GET with the path sent byte for byte; fails (instead of hanging the suite) after `ms`. */
function get(rawPath: string, ms = 5000): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${controller.url}/`, { method: 'GET', path: rawPath }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          /* not JSON: the assertion on body shows it */
        }
        resolve({ status: res.statusCode ?? 0, body, text });
      });
    });
    req.setTimeout(ms, () => {
      req.destroy();
      reject(new Error(`GET ${rawPath} took longer than ${ms} ms`));
    });
    req.on('error', reject);
    req.end();
  });
}

const q = (params: Record<string, string>): string => new URLSearchParams(params).toString();
const tree = (jobName: string, buildNumber: string | number, depth = 4): Promise<Reply> =>
  get(`/chatbot-api/workspaceTree?${q({ jobName, buildNumber: String(buildNumber), depth: String(depth) })}`);
const file = (jobName: string, buildNumber: string | number, filePath: string, workspaceId = 'ws-default'): Promise<Reply> =>
  get(`/chatbot-api/workspaceFile?${q({ jobName, buildNumber: String(buildNumber), workspaceId, filePath })}`);

function entries(reply: Reply): WorkspaceTreeEntry[] {
  expect([reply.status, reply.text.slice(0, 300)]).toEqual([200, expect.any(String)]);
  return reply.body as WorkspaceTreeEntry[];
}

function names(entry: WorkspaceTreeEntry | undefined): string[] {
  return (entry?.tree.children ?? []).map((c) => c.name);
}

/** A clear client error: the expected status, a message matching `pattern`, no internals, no secret. */
function expectError(reply: Reply, status: number, pattern: RegExp): void {
  expect(reply.status).toBe(status);
  expect(reply.body).toEqual({ status: 'error', message: expect.stringMatching(pattern) as unknown as string });
  expect(reply.text).not.toContain(MARKER);
  expect(reply.text).not.toContain(root);
}

beforeAll(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cichat-ws-layouts-')));
  home = path.join(root, 'home');
  await put('secret.txt', MARKER, root);
  await put('config.xml', `${DECL}<hudson>\n  <version>2.440.3</version>\n</hudson>\n`);
  await put('secrets/master.key', MARKER);

  // Matrix project: parent build 5, configurations jdk=11|17 x label=linux; build 6 recorded no
  // workspaces (Jenkins' rule applies: the parent's workspace + axis/value/axis/value).
  await put('jobs/mx/config.xml', `${DECL}<matrix-project plugin="matrix-project@822">\n  <axes>\n    <hudson.matrix.TextAxis><name>jdk</name><values><string>11</string><string>17</string></values></hudson.matrix.TextAxis>\n    <hudson.matrix.LabelAxis><name>label</name><values><string>linux</string></values></hudson.matrix.LabelAxis>\n  </axes>\n  <builders/>\n</matrix-project>\n`);
  await put('jobs/mx/builds/5/build.xml', buildXml({ root: 'matrix-build', result: 'FAILURE', workspace: `${RECORDED}/workspace/mx` }));
  await put('jobs/mx/builds/6/build.xml', buildXml({ root: 'matrix-build', result: 'FAILURE' }));
  for (const jdk of ['11', '17']) {
    const conf = `jobs/mx/configurations/axis-jdk/${jdk}/axis-label/linux`;
    await put(`${conf}/config.xml`, `${DECL}<matrix-config>\n  <keepDependencies>false</keepDependencies>\n</matrix-config>\n`);
    await put(`${conf}/builds/5/build.xml`, buildXml({ root: 'matrix-run', builtOn: '', workspace: `${RECORDED}/workspace/mx/jdk/${jdk}/label/linux` }));
    await put(`${conf}/builds/6/build.xml`, buildXml({ root: 'matrix-run', builtOn: '' }));
    await put(`workspace/mx/jdk/${jdk}/label/linux/out-${jdk}.txt`, `jdk ${jdk} output`);
  }
  await put('workspace/mx/shared.txt', 'parent workspace');
  // A matrix project with a custom workspace and a child custom workspace.
  await put('jobs/mxc/config.xml', `${DECL}<matrix-project plugin="matrix-project@822">\n  <axes>\n    <hudson.matrix.TextAxis><name>os</name><values><string>alpine</string></values></hudson.matrix.TextAxis>\n  </axes>\n  <customWorkspace>ws/mxc-root</customWorkspace>\n  <childCustomWorkspace>cells/\${COMBINATION}</childCustomWorkspace>\n</matrix-project>\n`);
  await put('jobs/mxc/builds/1/build.xml', buildXml({ root: 'matrix-build' }));
  await put('jobs/mxc/configurations/axis-os/alpine/config.xml', `${DECL}<matrix-config/>\n`);
  await put('jobs/mxc/configurations/axis-os/alpine/builds/1/build.xml', buildXml({ root: 'matrix-run' }));
  await put('ws/mxc-root/cells/os/alpine/cell.txt', 'custom cell');

  // Maven module set `shop`, module com.acme$core (relativePath core); build 3 recorded no workspaces.
  await put('jobs/shop/config.xml', `${DECL}<maven2-moduleset plugin="maven-plugin@3.23">\n  <rootModule><groupId>com.acme</groupId><artifactId>shop</artifactId></rootModule>\n  <goals>verify</goals>\n</maven2-moduleset>\n`);
  await put('jobs/shop/builds/3/build.xml', buildXml({ root: 'maven2-moduleset-build', result: 'FAILURE' }));
  await put('jobs/shop/modules/com.acme$core/config.xml', `${DECL}<maven2 plugin="maven-plugin@3.23">\n  <rootModule><groupId>com.acme</groupId><artifactId>core</artifactId></rootModule>\n  <relativePath>core</relativePath>\n</maven2>\n`);
  await put('jobs/shop/modules/com.acme$core/builds/3/build.xml', buildXml({ root: 'maven-build', result: 'FAILURE' }));
  // A module whose relativePath climbs out of the module set's workspace (a hostile config).
  await put('jobs/shop/modules/com.acme$evil/config.xml', `${DECL}<maven2>\n  <relativePath>../../secrets</relativePath>\n</maven2>\n`);
  await put('jobs/shop/modules/com.acme$evil/builds/3/build.xml', buildXml({ root: 'maven-build' }));
  await put('workspace/shop/pom.xml', '<project/>');
  await put('workspace/shop/core/pom.xml', '<project><artifactId>core</artifactId></project>');
  await put('workspace/shop/core/target/surefire-reports/CoreTest.txt', 'Tests run: 3, Failures: 1');

  // Organization folder > multibranch > branch renamed into a mangled folder; pipeline with node + ws.
  await put('jobs/acme/config.xml', `${DECL}<jenkins.branch.OrganizationFolder plugin="branch-api@2.1152">\n  <actions/>\n</jenkins.branch.OrganizationFolder>\n`);
  await put('jobs/acme/jobs/shop/config.xml', `${DECL}<org.jenkinsci.plugins.workflow.multibranch.WorkflowMultiBranchProject plugin="workflow-multibranch@773">\n  <actions/>\n</org.jenkinsci.plugins.workflow.multibranch.WorkflowMultiBranchProject>\n`);
  const branch = 'jobs/acme/jobs/shop/branches/feature-login.a8c3k1';
  await put(`${branch}/config.xml`, PIPELINE.replace('<definition', '<displayName>feature/login</displayName>\n  <definition'));
  await put(`${branch}/name-utf8.txt`, 'feature%2Flogin');
  await pipelineBuild(`${branch}/builds/2`, [
    { id: '3', path: `${RECORDED}/workspace/acme_shop_feature-login` },
    { id: '9', path: `${RECORDED}/custom-ws/login` },
  ]);
  await put('workspace/acme_shop_feature-login/Jenkinsfile', 'node { ws("custom-ws/login") {} }');
  await put('custom-ws/login/result.txt', 'from the ws step');

  // A job name stored in NFD (copied from a Mac), asked for in NFC; no recorded workspace.
  const nfd = 'Cafe\u0301 team';
  await put(`jobs/${nfd}/config.xml`, FOLDER);
  await put(`jobs/${nfd}/jobs/re\u0301sumé/config.xml`.normalize('NFD'), FREESTYLE());
  await put(`jobs/${nfd}/jobs/re\u0301sumé/builds/1/build.xml`.normalize('NFD'), buildXml({}));
  await put(`workspace/${nfd}/re\u0301sumé/notes.txt`.normalize('NFD'), 'nfd workspace');

  // Names with spaces and dots in a folder.
  await put('jobs/team.x/config.xml', FOLDER);
  await put('jobs/team.x/jobs/my app v1.2/config.xml', FREESTYLE());
  await put('jobs/team.x/jobs/my app v1.2/builds/4/build.xml', buildXml({ workspace: `${RECORDED}/workspace/team.x/my app v1.2` }));
  await put('workspace/team.x/my app v1.2/read me.txt', 'spaces and dots');

  // Freestyle with customWorkspace: relative (to the built-in node's root, JENKINS_HOME) and absolute.
  await put('jobs/cw-rel/config.xml', FREESTYLE('\n  <customWorkspace>shared/cw-rel</customWorkspace>'));
  await put('jobs/cw-rel/builds/1/build.xml', buildXml({}));
  await put('shared/cw-rel/a.txt', 'relative custom workspace');
  await put('jobs/cw-abs/config.xml', FREESTYLE(`\n  <customWorkspace>${RECORDED}/abs-ws/\${JOB_NAME}</customWorkspace>`));
  await put('jobs/cw-abs/builds/1/build.xml', buildXml({}));
  await put('abs-ws/cw-abs/b.txt', 'absolute custom workspace');
  await put('jobs/cw-evil/config.xml', FREESTYLE('\n  <customWorkspace>../</customWorkspace>'));
  await put('jobs/cw-evil/builds/1/build.xml', buildXml({}));

  // Old home: timestamp folders, number symlinks, permalink symlinks, a dangling and a looping link.
  await put('jobs/legacy/config.xml', FREESTYLE());
  await put('jobs/legacy/builds/2014-03-01_10-00-00/build.xml', buildXml({ number: 1, workspace: `${RECORDED}/workspace/legacy` }));
  await put('jobs/legacy/builds/2014-03-02_10-00-00/build.xml', buildXml({ number: 2, result: 'FAILURE', workspace: `${RECORDED}/workspace/legacy` }));
  await put('jobs/legacy/builds/2013-12-24_08-00-00/build.xml', buildXml({ number: 7, result: 'FAILURE', workspace: `${RECORDED}/workspace/legacy` }));
  await fs.symlink('2014-03-01_10-00-00', path.join(home, 'jobs/legacy/builds/1'));
  await fs.symlink('2014-03-02_10-00-00', path.join(home, 'jobs/legacy/builds/2'));
  await fs.symlink('2015-01-01_00-00-00', path.join(home, 'jobs/legacy/builds/3'));
  await fs.symlink('4', path.join(home, 'jobs/legacy/builds/4'));
  await fs.symlink('2', path.join(home, 'jobs/legacy/builds/lastFailedBuild'));
  await fs.symlink('-1', path.join(home, 'jobs/legacy/builds/lastUnstableBuild'));
  await put('workspace/legacy/build.log', 'legacy workspace');

  // Permalinks naming a deleted build.
  await put('jobs/pl/config.xml', FREESTYLE());
  await put('jobs/pl/builds/4/build.xml', buildXml({ result: 'FAILURE', workspace: `${RECORDED}/workspace/pl` }));
  await put('jobs/pl/builds/6/build.xml', buildXml({ result: 'SUCCESS', workspace: `${RECORDED}/workspace/pl` }));
  await put('jobs/pl/builds/permalinks', 'lastFailedBuild 5\r\nlastSuccessfulBuild 6\r\nlastUnstableBuild -1\r\n');
  await put('workspace/pl/x.txt', 'pl');

  // builds/ that cannot be read: a symlink loop.
  await put('jobs/loop/config.xml', FREESTYLE());
  await fs.symlink('builds', path.join(home, 'jobs/loop/builds'));
  await put('workspace/loop/x.txt', 'loop');

  // FIFOs where files should be.
  await put('jobs/fifo-build/config.xml', FREESTYLE());
  await fs.mkdir(path.join(home, 'jobs/fifo-build/builds/1'), { recursive: true });
  mkfifo(path.join(home, 'jobs/fifo-build/builds/1/build.xml'));
  await put('workspace/fifo-build/ok.txt', 'found by the default rule');
  await put('jobs/fifo-flow/config.xml', PIPELINE);
  await pipelineBuild('jobs/fifo-flow/builds/1', [{ id: '3', path: `${RECORDED}/workspace/fifo-flow` }]);
  mkfifo(path.join(home, 'jobs/fifo-flow/builds/1/workflow/5.xml'));
  await put('workspace/fifo-flow/ok.txt', 'pipeline workspace');
  await fs.mkdir(path.join(home, 'jobs/fifo-job'), { recursive: true });
  mkfifo(path.join(home, 'jobs/fifo-job/config.xml'));
  await put('workspace/legacy/pipe.keep', '');
  mkfifo(path.join(home, 'workspace/legacy/named-pipe'));

  const config = loadControllerConfig({
    CONTROLLER_PORT: '0',
    JWT_SECRET: randomBytes(32).toString('hex'),
    DATA_DIR: path.join(root, 'data'),
    JENKINS_HOME: home,
    JENKINS_PATH_MAP: `${RECORDED}=${home}`,
    // The customWorkspace and ws() directories below lie in JENKINS_HOME outside workspace/:
    // served because the operator lists them (the default roots would refuse them).
    CICHAT_WORKSPACE_ROOTS: ['workspace', 'ws', 'custom-ws', 'shared', 'abs-ws'].map((d) => `\${JENKINS_HOME}/${d}`).join(',') + ',${ITEM_ROOTDIR}/workspace',
    BACKEND_URL: 'http://127.0.0.1:9',
  });
  if (!config.ok) throw new Error(config.problems.join('\n'));
  controller = await startController(config.config, { logger: pino({ level: 'silent' }) });
});

afterAll(async () => {
  await controller.close(0);
  await fs.rm(root, { recursive: true, force: true });
});

describe('matrix projects', () => {
  it('a configuration shows its own workspace, under the parent workspace as axis/value/axis/value', async () => {
    const [entry, ...rest] = entries(await tree('mx/jdk=17,label=linux', 5));
    expect(rest).toEqual([]);
    expect(entry).toMatchObject({ workspaceId: 'ws-default', node: 'built-in', path: `${RECORDED}/workspace/mx/jdk/17/label/linux` });
    expect(names(entry)).toEqual(['out-17.txt']);
    expect((await file('mx/jdk=17,label=linux', 5, 'out-17.txt')).body).toEqual({ status: 'success', content: 'jdk 17 output' });
    // Axis order in the name does not matter.
    expect((await file('mx/label=linux,jdk=11', 5, 'out-11.txt')).body).toEqual({ status: 'success', content: 'jdk 11 output' });
    // The parent build shows the parent workspace.
    expect(names(entries(await tree('mx', 5, 1))[0])).toEqual(['jdk', 'shared.txt']);
  });

  it('a configuration build that recorded no workspace is found by Jenkins\' rule (parent workspace + combination)', async () => {
    const [entry] = entries(await tree('mx/jdk=11,label=linux', 6));
    expect(entry).toMatchObject({ workspaceId: 'ws-default', node: 'built-in' });
    expect(names(entry)).toEqual(['out-11.txt']);
    expect((await file('mx/label=linux,jdk=17', 'lastBuild', 'out-17.txt')).body).toEqual({ status: 'success', content: 'jdk 17 output' });
  });

  it('customWorkspace and childCustomWorkspace of the matrix project are honoured', async () => {
    const [entry] = entries(await tree('mxc/os=alpine', 1));
    expect(names(entry)).toEqual(['cell.txt']);
    expect((await file('mxc/os=alpine', 1, 'cell.txt')).body).toEqual({ status: 'success', content: 'custom cell' });
  });

  it('a combination that does not exist names the job', async () => {
    expectError(await tree('mx/jdk=21,label=linux', 5), 404, /Job not found: mx\/jdk=21,label=linux/);
    expectError(await file('mx/jdk=17,label=linux', 9, 'out-17.txt'), 404, /Build not found: mx\/jdk=17,label=linux/);
  });

  it.each([
    'mx/jdk=..,label=linux',
    'mx/jdk=%2e%2e,label=linux',
    'mx/jdk=%252e%252e,label=linux',
    'mx/jdk=17,label=../../..',
    'mx/jdk=17\\..\\..,label=linux',
    'mx/jdk=17\0,label=linux',
    'mx/jdk=..%2f..%2fsecrets,label=linux',
  ])('an axis value that tries to climb out (%j) is refused, never a file outside', async (jobName) => {
    for (const reply of [await tree(jobName, 5), await file(jobName, 5, 'master.key'), await file(jobName, 5, 'secret.txt')]) {
      expect([400, 404]).toContain(reply.status);
      expect(reply.body).toMatchObject({ status: 'error', message: expect.any(String) as unknown as string });
      expect(reply.text).not.toContain(MARKER);
    }
  });
});

describe('Maven module sets', () => {
  it('a module shows the module set workspace + its relativePath; the module set its own', async () => {
    const [entry] = entries(await tree('shop/com.acme$core', 3));
    expect(entry).toMatchObject({ workspaceId: 'ws-default', node: 'built-in' });
    expect(names(entry)).toEqual(['pom.xml']);
    expect((await file('shop/com.acme$core', 3, 'target/surefire-reports/CoreTest.txt')).body).toEqual({ status: 'success', content: 'Tests run: 3, Failures: 1' });
    expect(names(entries(await tree('shop', 3, 1))[0])).toEqual(['core', 'pom.xml']);
  });

  it('a module whose relativePath climbs out of the workspace gets no workspace, never the files outside', async () => {
    expect(entries(await tree('shop/com.acme$evil', 3))).toEqual([]);
    expectError(await file('shop/com.acme$evil', 3, 'master.key'), 404, /Workspace ws-default not found/);
  });

  it.each(['shop/com.acme$..', 'shop/..$core', 'shop/com.acme%24%2e%2e', 'shop/com.acme$core/../../..'])(
    'a module name holding a traversal (%j) is refused',
    async (jobName) => {
      const reply = await file(jobName, 3, 'secret.txt');
      expect([400, 404]).toContain(reply.status);
      expect(reply.text).not.toContain(MARKER);
    },
  );
});

describe('organization folder > multibranch > renamed branch folder', () => {
  it('the pipeline branch lists its node and ws workspaces by flow node id', async () => {
    const list = entries(await tree('acme/shop/feature%2Flogin', 2));
    expect(list.map((e) => [e.workspaceId, e.node, e.path, names(e)])).toEqual([
      ['3', 'built-in', `${RECORDED}/workspace/acme_shop_feature-login`, ['Jenkinsfile']],
      ['9', 'built-in', `${RECORDED}/custom-ws/login`, ['result.txt']],
    ]);
    expect((await file('acme/shop/feature%2Flogin', 'lastBuild', 'result.txt', '9')).body).toEqual({ status: 'success', content: 'from the ws step' });
    expectError(await file('acme/shop/feature%2Flogin', 2, 'result.txt', '4'), 404, /Workspace 4 not found for acme\/shop\/feature%2Flogin #2/);
    expectError(await tree('acme/shop', 2), 404, /acme\/shop/);
  });
});

describe('names', () => {
  it('a job stored in NFD is found from an NFC name, and so is its default workspace', async () => {
    const job = 'Café team/résumé'.normalize('NFC');
    const [entry] = entries(await tree(job, 1));
    expect(names(entry)).toEqual(['notes.txt']);
    expect((await file(job, 1, 'notes.txt')).body).toEqual({ status: 'success', content: 'nfd workspace' });
  });

  it('spaces and dots in folder and job names', async () => {
    const [entry] = entries(await tree('team.x/my app v1.2', 4));
    expect(entry).toMatchObject({ path: `${RECORDED}/workspace/team.x/my app v1.2` });
    expect((await file('team.x/my app v1.2', 4, 'read me.txt')).body).toEqual({ status: 'success', content: 'spaces and dots' });
  });
});

describe('custom workspaces of classic jobs', () => {
  it('a relative customWorkspace is under the built-in node root (JENKINS_HOME); an absolute one goes through the path map', async () => {
    expect((await file('cw-rel', 1, 'a.txt')).body).toEqual({ status: 'success', content: 'relative custom workspace' });
    expect((await file('cw-abs', 1, 'b.txt')).body).toEqual({ status: 'success', content: 'absolute custom workspace' });
  });

  it('a customWorkspace that is the parent of JENKINS_HOME is never served', async () => {
    expectError(await file('cw-evil', 1, 'secret.txt'), 404, /Workspace ws-default of cw-evil #1 is not served: .*holds JENKINS_HOME/);
  });
});

describe('build folders of old and damaged homes', () => {
  it('timestamp folders behind number symlinks, an unlinked timestamp folder, permalink symlinks', async () => {
    for (const build of ['1', '2', '7', 'lastFailedBuild', 'lastBuild']) {
      const [entry] = entries(await tree('legacy', build, 1));
      expect([build, entry?.path]).toEqual([build, `${RECORDED}/workspace/legacy`]);
    }
    expect((await file('legacy', 2, 'build.log')).body).toEqual({ status: 'success', content: 'legacy workspace' });
  });

  it('a dangling or looping build symlink is a missing build, answered at once', async () => {
    expectError(await tree('legacy', 3), 404, /Build not found: legacy/);
    expectError(await file('legacy', 4, 'build.log'), 404, /Build not found: legacy/);
    expectError(await tree('legacy', 'lastUnstableBuild'), 404, /legacy has no lastUnstableBuild/);
  });

  it('a permalink to a deleted build falls back to the newest existing match; -1 is none', async () => {
    expect((await file('pl', 'lastFailedBuild', 'x.txt')).body).toEqual({ status: 'success', content: 'pl' });
    expectError(await tree('pl', 'lastUnstableBuild'), 404, /pl has no lastUnstableBuild/);
  });

  it('an unreadable builds/ (a symlink loop) is a clear error naming it, for numbers and permalinks', async () => {
    for (const build of ['1', 'lastBuild', 'lastFailedBuild']) {
      for (const reply of [await tree('loop', build), await file('loop', build, 'x.txt')]) {
        expect([build, reply.status]).toEqual([build, 404]);
        expect(reply.body).toEqual({ status: 'error', message: expect.stringMatching(/Builds of loop are unreadable/) as unknown as string });
        expect(reply.text).not.toContain(root);
      }
    }
  });

  it('FIFOs where build.xml, a flow node file or config.xml should be: an answer, never a hang', async () => {
    // build.xml is a FIFO: the build's record cannot be read, the default workspace rule still applies.
    expect(names(entries(await tree('fifo-build', 1))[0])).toEqual(['ok.txt']);
    // One flow node file is a FIFO: the others are still read.
    const flow = entries(await tree('fifo-flow', 1));
    expect(flow.map((e) => [e.workspaceId, names(e)])).toEqual([['3', ['ok.txt']]]);
    // config.xml is a FIFO: not a job.
    expectError(await tree('fifo-job', 1), 404, /Job not found: fifo-job/);
    // A FIFO inside a workspace is listed, and refused as a file.
    const legacy = entries(await tree('legacy', 1));
    expect(names(legacy[0])).toContain('named-pipe');
    const pipe = await file('legacy', 1, 'named-pipe');
    expect(pipe.status).toBe(415);
  });
});

describe('a FIFO in place of the root config.xml', () => {
  it('is read as a home without settings (defaults), answered at once', async () => {
    const other = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cichat-ws-fifo-root-')));
    const otherHome = path.join(other, 'home');
    await put('jobs/app/config.xml', FREESTYLE(), otherHome);
    await put('jobs/app/builds/1/build.xml', buildXml({}), otherHome);
    await put('workspace/app/main.c', 'int main(void) { return 0; }', otherHome);
    mkfifo(path.join(otherHome, 'config.xml'));
    const config = loadControllerConfig({
      CONTROLLER_PORT: '0',
      JWT_SECRET: randomBytes(32).toString('hex'),
      DATA_DIR: path.join(other, 'data'),
      JENKINS_HOME: otherHome,
      BACKEND_URL: 'http://127.0.0.1:9',
    });
    if (!config.ok) throw new Error(config.problems.join('\n'));
    const second = await startController(config.config, { logger: pino({ level: 'silent' }) });
    const main = controller;
    try {
      controller = second;
      expect((await file('app', 1, 'main.c')).body).toEqual({ status: 'success', content: 'int main(void) { return 0; }' });
      expect(names(entries(await tree('app', 'lastBuild'))[0])).toEqual(['main.c']);
    } finally {
      controller = main;
      await second.close(0);
      await fs.rm(other, { recursive: true, force: true });
    }
  });
});
