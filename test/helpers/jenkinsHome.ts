/**
 * The one Jenkins-home builder of the tests: a JENKINS_HOME written at test time in a temp
 * folder, laid out as Jenkins lays it out (folders nest under `jobs/`, builds under
 * `builds/<n>` with `build.xml` and `log`). Tests that need an unusual layout (links,
 * timestamp folders, broken XML) write those files with `file()` next to what it makes.
 * Static sample homes (test/fixtures/jenkins-homes, workspace-homes) stay files.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const XML_DECL = "<?xml version='1.1' encoding='UTF-8'?>\n";

/** config.xml of a pipeline job with an inline script. */
export const pipelineConfig = (script = 'node {}'): string =>
  `${XML_DECL}<flow-definition plugin="workflow-job@1400.v7fd111b_ec82f">\n  <definition class="org.jenkinsci.plugins.workflow.cps.CpsFlowDefinition"><script>${script}</script></definition>\n</flow-definition>\n`;
/** config.xml of a freestyle job; `extra` goes inside `<project>` (e.g. a customWorkspace). */
export const freestyleConfig = (extra = ''): string => `${XML_DECL}<project>\n  <description></description>\n  <builders/>${extra}\n</project>\n`;
export const folderConfig = (): string => `${XML_DECL}<com.cloudbees.hudson.plugins.folder.Folder plugin="cloudbees-folder@6.9"/>\n`;

export interface BuildXmlOptions {
  /** Root element: `build` (freestyle), `flow-build` (pipeline), `matrix-run`... */
  root?: string;
  /** The result; null writes none (a running build). */
  result?: string | null;
  number?: number;
  timestamp?: number;
  duration?: number;
  builtOn?: string;
  /** The recorded `<workspace>` of a classic build. */
  workspace?: string;
  /** Raw XML placed inside the root element. */
  extra?: string;
}

/** A build.xml as Jenkins writes it. */
export function buildXml(o: BuildXmlOptions = {}): string {
  const root = o.root ?? 'build';
  const parts = ['  <actions/>'];
  if (o.number !== undefined) parts.push(`  <number>${o.number}</number>`);
  parts.push(`  <timestamp>${o.timestamp ?? 1700000000000}</timestamp>`);
  if (o.result !== null) parts.push(`  <result>${o.result ?? 'FAILURE'}</result>`);
  parts.push(`  <duration>${o.duration ?? 1000}</duration>`);
  parts.push(`  <builtOn>${o.builtOn ?? ''}</builtOn>`);
  if (o.workspace) parts.push(`  <workspace>${o.workspace}</workspace>`);
  return `${XML_DECL}<${root}>\n${parts.join('\n')}${o.extra ?? ''}\n</${root}>\n`;
}

export interface BuildOptions extends BuildXmlOptions {
  /** The console log (`log`); none when absent. */
  log?: string;
  /** More files of the build folder (path relative to it -> content). */
  files?: Record<string, string | Buffer>;
}

export class JenkinsHome {
  private constructor(
    /** The temp folder holding the home (and whatever a test puts beside it). */
    readonly root: string,
    /** JENKINS_HOME. */
    readonly home: string,
  ) {}

  /** A new empty home in a temp folder (real path, so links compare as the controller sees them). */
  static async create(prefix = 'cichat-home-'): Promise<JenkinsHome> {
    const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), prefix)));
    const home = path.join(root, 'home');
    await fs.mkdir(home);
    return new JenkinsHome(root, home);
  }

  /** Writes a file under the home (or an absolute path), parents created; answers its path. */
  async file(rel: string, content: string | Buffer): Promise<string> {
    const file = path.isAbsolute(rel) ? rel : path.join(this.home, rel);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, content);
    return file;
  }

  /** The folder of a job by full name (`team/api` -> jobs/team/jobs/api). */
  jobDir(fullName: string): string {
    return path.join(this.home, ...fullName.split('/').flatMap((s) => ['jobs', s]));
  }

  /** A job and the folders above it (each with a folder config.xml); answers the job's folder. */
  async job(fullName: string, config: string = pipelineConfig()): Promise<string> {
    const segments = fullName.split('/');
    for (let i = 1; i < segments.length; i++) {
      const folder = this.jobDir(segments.slice(0, i).join('/'));
      await fs.mkdir(folder, { recursive: true });
      await fs.writeFile(path.join(folder, 'config.xml'), folderConfig(), { flag: 'wx' }).catch(() => undefined);
    }
    const dir = this.jobDir(fullName);
    await this.file(path.join(dir, 'config.xml'), config);
    return dir;
  }

  /** A build of a job (the job is made when missing); answers the build's folder. */
  async build(fullName: string, n: number, o: BuildOptions = {}): Promise<string> {
    const jobDir = this.jobDir(fullName);
    if (!(await exists(path.join(jobDir, 'config.xml')))) await this.job(fullName);
    const dir = path.join(jobDir, 'builds', String(n));
    await this.file(path.join(dir, 'build.xml'), buildXml(o));
    if (o.log !== undefined) await this.file(path.join(dir, 'log'), o.log);
    for (const [rel, content] of Object.entries(o.files ?? {})) await this.file(path.join(dir, rel), content);
    return dir;
  }

  cleanup(): Promise<void> {
    return fs.rm(this.root, { recursive: true, force: true });
  }
}

async function exists(p: string): Promise<boolean> {
  try {
    await fs.access(p);
    return true;
  } catch {
    return false;
  }
}
