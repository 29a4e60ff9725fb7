/**
 * Writing Jenkins homes as real ones are (XStream's on-disk formats) for the JENKINS_HOME reader's
 * tests (test/jenkins-real-homes*.test.ts), and reading them back through the reader.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { BuildDetails, CiContext, JobDetails } from '../../protocol/types.js';
import { buildCiContext } from '../../jenkins/context.js';

export const ESC = '\u001b';
const roots: string[] = [];

export async function newHome(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'cichat-real-home-'));
  roots.push(dir);
  return dir;
}

/** Removes the homes made so far (call it from afterAll). */
export async function removeHomes(): Promise<void> {
  for (const r of roots.splice(0)) await rm(r, { recursive: true, force: true });
}

export async function put(home: string, rel: string, content: string | Buffer): Promise<void> {
  const file = path.join(home, rel);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
}

export const DECL = "<?xml version='1.1' encoding='UTF-8'?>\n";

export function freestyleConfig(extra = ''): string {
  return `${DECL}<project>
  <description></description>
  <keepDependencies>false</keepDependencies>
  <properties/>
  <scm class="hudson.scm.NullSCM"/>
  <canRoam>true</canRoam>
  <disabled>false</disabled>
  <triggers/>
  <concurrentBuild>false</concurrentBuild>
  <builders>
    <hudson.tasks.Shell>
      <command>make test</command>
    </hudson.tasks.Shell>
  </builders>
  <publishers/>
  <buildWrappers/>${extra}
</project>
`;
}

export function pipelineConfig(): string {
  return `${DECL}<flow-definition plugin="workflow-job@1400.v7fd111b_ec82f">
  <actions/>
  <description></description>
  <keepDependencies>false</keepDependencies>
  <properties/>
  <definition class="org.jenkinsci.plugins.workflow.cps.CpsFlowDefinition" plugin="workflow-cps@3883.vb_3ff2a_e3eea_f">
    <script>node { sh 'make' }</script>
    <sandbox>true</sandbox>
  </definition>
  <triggers/>
  <disabled>false</disabled>
</flow-definition>
`;
}

export const FOLDER_CONFIG = `${DECL}<com.cloudbees.hudson.plugins.folder.Folder plugin="cloudbees-folder@6.928.v7c780211d66e">
  <actions/>
  <description></description>
  <properties/>
  <folderViews class="com.cloudbees.hudson.plugins.folder.views.DefaultFolderViewHolder">
    <views>
      <hudson.model.AllView>
        <owner class="com.cloudbees.hudson.plugins.folder.Folder" reference="../../../.."/>
        <name>All</name>
        <filterExecutors>false</filterExecutors>
        <filterQueue>false</filterQueue>
        <properties class="hudson.model.View$PropertyList"/>
      </hudson.model.AllView>
    </views>
    <tabBar class="hudson.views.DefaultViewsTabBar"/>
  </folderViews>
  <healthMetrics/>
  <icon class="com.cloudbees.hudson.plugins.folder.icons.StockFolderIcon"/>
</com.cloudbees.hudson.plugins.folder.Folder>
`;

interface BuildXmlOptions {
  root?: string;
  result?: string | null;
  timestamp?: number;
  duration?: number;
  actions?: string;
  extra?: string;
  builtOn?: string | null;
  number?: number;
}

export function buildXml(o: BuildXmlOptions = {}): string {
  const root = o.root ?? 'build';
  const ts = o.timestamp ?? 1_700_000_000_000;
  const result = o.result === null ? '' : `\n  <result>${o.result ?? 'SUCCESS'}</result>`;
  const builtOn = o.builtOn === null ? '' : `\n  <builtOn>${o.builtOn ?? ''}</builtOn>`;
  const number = o.number !== undefined ? `\n  <number>${o.number}</number>` : '';
  return `${DECL}<${root}>
  <actions>
    <hudson.model.CauseAction>
      <causeBag class="linked-hash-map">
        <entry>
          <hudson.model.Cause_-UserIdCause>
            <userId>admin</userId>
          </hudson.model.Cause_-UserIdCause>
          <int>1</int>
        </entry>
      </causeBag>
    </hudson.model.CauseAction>${o.actions ?? ''}
  </actions>${number}
  <queueId>12</queueId>
  <timestamp>${ts}</timestamp>
  <startTime>${ts + 15}</startTime>${result}
  <duration>${o.duration ?? 61_000}</duration>
  <charset>UTF-8</charset>
  <keepLog>false</keepLog>${builtOn}
  <workspace>/var/jenkins_home/workspace/x</workspace>
  <hudsonVersion>2.440.3</hudsonVersion>${o.extra ?? ''}
</${root}>
`;
}

export async function freestyleJob(home: string, rel: string, builds: Record<number, BuildXmlOptions> = {}, next?: string): Promise<void> {
  await put(home, `${rel}/config.xml`, freestyleConfig());
  for (const [n, opts] of Object.entries(builds)) {
    await put(home, `${rel}/builds/${n}/build.xml`, buildXml(opts));
    await put(home, `${rel}/builds/${n}/log`, `Started by user admin\nbuild ${n}\nFinished: ${opts.result ?? 'SUCCESS'}\n`);
  }
  if (next !== undefined) await put(home, `${rel}/nextBuildNumber`, next);
}

export async function ctx(home: string, jobName?: string, buildNumber?: number): Promise<CiContext> {
  return buildCiContext({ jenkinsHome: home, jobName, buildNumber, now: new Date(1_700_000_100_000) });
}

export async function jobOf(home: string, jobName: string): Promise<JobDetails> {
  const d = (await ctx(home, jobName)).jobDetails;
  if (!d) throw new Error('no jobDetails');
  return d;
}

export async function buildOf(home: string, jobName: string, n: number): Promise<BuildDetails> {
  const d = (await ctx(home, jobName, n)).buildDetails;
  if (!d) throw new Error('no buildDetails');
  return d;
}

/** Runs `fn` and fails when it takes longer than `ms` (a hang shows as a failure, not a stuck suite). */
export async function within<T>(ms: number, fn: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`took longer than ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([fn(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

