/**
 * A failed downstream build that made this one fail (issue 26): the `build` step's error (its
 * `DownstreamFailureCause` id `job#N`, or its message `job #N completed with status FAILURE`)
 * or, for jobs without flow nodes (Parameterized Trigger), the console line saying so. It is
 * followed one level: its result, its own failing steps, test report and log end.
 */
import path from 'node:path';
import type { BuildDetails } from '../protocol/types.js';
import { maskSecrets } from '../core/secrets.js';
import { cleanLine } from '../core/log/clean.js';
import { readFailingSteps } from './flow.js';
import { findBuildDir, locateJob } from './jobs.js';
import { readLogTail } from './logTail.js';
import { readTestResult } from './tests.js';
import { childText, errorMessage, readTextFile, readXmlFile } from './xml.js';

const DOWNSTREAM_TAIL_LINES = 200;
const STATUS = '(FAILURE|UNSTABLE|ABORTED|NOT_BUILT)';
/** `ERROR: team » deploy #17 completed with status FAILURE (propagate: false to ignore)`, `Build team » deploy #17 completed: FAILURE`. */
const LINE_PATTERNS = [new RegExp(`^(?:ERROR: )?(\\S.*?) #(\\d+) completed with status ${STATUS}`), new RegExp(`^Build (\\S.*?) #(\\d+) completed: ${STATUS}`)];

export interface DownstreamRef {
  jobName: string;
  number: number;
}

/** `team » deploy` as Jenkins prints a full display name -> `team/deploy`. */
function jobNameOf(printed: string): string {
  return printed.split(' » ').map((s) => s.trim()).join('/');
}

/** The downstream build named by a failing `build` step or by the log's lines, if any. */
export function downstreamRefOf(details: BuildDetails, flowText?: string): DownstreamRef | undefined {
  const id = flowText ? /<(?:\w+\.)*DownstreamFailureCause[^>]*>\s*<id>([^<#]+)#(\d+)<\/id>/.exec(flowText) : null;
  if (id?.[1] && id[2]) return { jobName: id[1], number: Number(id[2]) };
  const texts: string[] = [];
  for (const s of details.failingSteps ?? []) if (s.step === 'build' && typeof s.errorMessage === 'string') texts.push(s.errorMessage);
  const tail = typeof details.consoleLogTail === 'string' ? details.consoleLogTail : typeof details.consoleLog === 'string' ? details.consoleLog : '';
  texts.push(...tail.split('\n').slice(-400).map((l) => cleanLine(l)));
  for (const text of texts) {
    for (const re of LINE_PATTERNS) {
      const m = re.exec(text);
      if (m?.[1] && m[2]) return { jobName: jobNameOf(m[1]), number: Number(m[2]) };
    }
  }
  return undefined;
}

/** `buildDetails.downstreamFailure`: the failed downstream build, one level deep. */
export async function fillDownstream(details: BuildDetails, jenkinsHome: string, buildDir: string): Promise<void> {
  let flowText: string | undefined;
  if ((details.failingSteps ?? []).some((s) => s.step === 'build')) {
    for (const f of ['workflow-completed/flowNodeStore.xml', 'workflow/flowNodeStore.xml']) {
      try {
        flowText = await readTextFile(path.join(buildDir, f));
        break;
      } catch {
        /* the other generation, or per-node files (the message is enough then) */
      }
    }
  }
  const ref = downstreamRefOf(details, flowText);
  if (!ref) return;
  const out: Record<string, unknown> = { jobName: ref.jobName, number: ref.number };
  try {
    const job = await locateJob(jenkinsHome, ref.jobName);
    const dir = await findBuildDir(job.buildsDir, ref.number);
    if (!dir) {
      out['error'] = `No build #${ref.number} of job ${ref.jobName} in JENKINS_HOME`;
    } else {
      const build = await readXmlFile(path.join(dir, 'build.xml'));
      const result = build ? childText(build, 'result') : undefined;
      if (result) out['result'] = result;
      if (build) {
        const steps = await readFailingSteps(dir, build);
        if (steps.length > 0) out['failingSteps'] = steps;
      }
      const tests = await readTestResult(dir, ref.number);
      if (tests) out['testResults'] = tests;
      try {
        const tail = await readLogTail(path.join(dir, 'log'), DOWNSTREAM_TAIL_LINES);
        out['consoleLogTail'] = maskSecrets(tail.lines.map((l) => cleanLine(l)).join('\n'));
      } catch {
        /* no log of its own */
      }
    }
  } catch (err) {
    out['error'] = `The downstream build ${ref.jobName} #${ref.number} could not be read: ${errorMessage(err)}`;
  }
  details.downstreamFailure = out;
}
