/**
 * The demo chat `cichat serve` creates on first start: the context of the sample failing build
 * of seeds/jenkins-home, so that a new user can ask "why did the last build fail?" at once.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { newestBuildWhere } from '../jenkins/jobs.js';
import { listJobs } from '../jenkins/scan.js';
import type { CichatClient } from './client.js';

/** The job the demo prefers (the seed's failing pipeline); any failed build is taken otherwise. */
export const DEMO_JOB = 'team/api';
export const DEMO_MARKER = 'demo-chat.json';

export interface FailedBuild {
  jobName: string;
  buildNumber: number;
}

/**
 * The newest failed build (result FAILURE in its build.xml) of DEMO_JOB, else the newest failed
 * build of any job (by build number), folders and branches included.
 */
export async function findFailedBuild(jenkinsHome: string, preferredJob = DEMO_JOB): Promise<FailedBuild | undefined> {
  const failed: FailedBuild[] = [];
  for (const job of await listJobs(jenkinsHome)) {
    const build = await newestBuildWhere(job, (s) => s.result === 'FAILURE');
    if (build) failed.push({ jobName: job.fullName, buildNumber: build.number });
  }
  const newest = (list: FailedBuild[]): FailedBuild | undefined =>
    list.reduce<FailedBuild | undefined>((best, b) => (!best || b.buildNumber > best.buildNumber ? b : best), undefined);
  return newest(failed.filter((b) => b.jobName === preferredJob)) ?? newest(failed);
}

export interface DemoChat {
  chat_id: number;
  title: string;
  jobName: string;
  buildNumber: number;
}

/**
 * Creates the demo chat once: the marker file in DATA_DIR remembers it. Answers the demo chat
 * (new or remembered), or undefined when the seeds hold no failed build.
 */
export async function ensureDemoChat(client: CichatClient, dataDir: string, jenkinsHome: string): Promise<DemoChat | undefined> {
  const marker = path.join(dataDir, DEMO_MARKER);
  try {
    return JSON.parse(await fs.readFile(marker, 'utf8')) as DemoChat;
  } catch {
    // first start
  }
  const build = await findFailedBuild(jenkinsHome);
  if (!build) return undefined;
  const title = `Demo: ${build.jobName} #${build.buildNumber} failed`;
  const chat = await client.createChat(title);
  try {
    await client.uploadContext(chat.id, { jobName: build.jobName, buildNumber: build.buildNumber, currentScreen: `Build ${build.jobName} #${build.buildNumber}` });
  } catch (err) {
    // No half-made demo: the next start tries again.
    await client.deleteChat(chat.id).catch(() => undefined);
    throw err;
  }
  const demo: DemoChat = { chat_id: chat.id, title, ...build };
  await fs.mkdir(dataDir, { recursive: true, mode: 0o700 });
  await fs.writeFile(marker, JSON.stringify(demo, null, 2) + '\n');
  return demo;
}
