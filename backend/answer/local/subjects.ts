/** What each intent's subject is called, for "does not say ..." and the no-context answer. */
import type { CiContext } from '../../../protocol/types.js';
import { buildLabel } from '../facts.js';
import { type IntentId } from '../intents.js';
import { type Reply, UPLOAD_HOWTO } from './reply.js';

function subjectOf(intent: IntentId | undefined, ci: CiContext | undefined): string {
  const build = ci ? buildLabel(ci) : 'the build';
  switch (intent) {
    case 'failure':
      return `why ${build} failed`;
    case 'fix':
      return `how to fix ${build}`;
    case 'tests':
      return `which tests failed in ${build}`;
    case 'ciVersion':
      return 'which Jenkins version this server runs';
    case 'plugins':
      return 'which plugins are installed';
    case 'executors':
      return 'how many executors there are';
    case 'master':
      return 'whether the built-in node is online';
    case 'agents':
      return 'which agents are online or offline';
    case 'system':
      return "the built-in node's OS and memory";
    case 'aborter':
      return `who aborted ${build}`;
    case 'causes':
      return `who or what started ${build}`;
    case 'parameters':
      return `which parameters ${build} ran with`;
    case 'duration':
      return `how long ${build} took`;
    case 'result':
      return `how ${build} ended`;
    case 'previous':
      return `how the build before ${build} ended`;
    case 'buildable':
      return 'whether the job is buildable';
    case 'jobType':
      return 'what type of job this is';
    case 'jobDescription':
      return "what the job's description is";
    case 'systemMessage':
      return 'what the system message is';
    case 'rootUrl':
      return "what the server's root URL is";
    case 'changes':
      return `which changes went into ${build}`;
    case 'builtOn':
      return `which node ran ${build}`;
    case 'startTime':
      return `when ${build} started`;
    case 'screen':
      return 'which Jenkins page you are on';
    case 'step':
      return `which step of ${build} failed`;
    case 'logLines':
      return 'what the build log says there';
    case 'flaky':
      return `whether ${build}'s failure is flaky`;
    case 'revision':
      return `which commit or branch ${build} built`;
    case 'rerun':
      return `how to re-run ${build}`;
    case 'showFile':
      return `what that file of ${build}'s workspace holds`;
    case 'jobName':
      return 'which job this is';
    case 'buildNumber':
      return 'which build this is';
    case 'health':
      return "the job's health score";
    case 'queue':
      return 'whether the build is queued or stuck';
    case 'upstream':
      return 'which projects trigger this job';
    case 'downstream':
      return 'which projects this job triggers';
    case 'config':
      return 'how the job is configured';
    case 'concurrency':
      return 'whether the job allows concurrent builds';
    case 'environment':
      return "the build's environment variables";
    case 'contextProblem':
      return 'whether part of the context could not be read';
    case 'lastSuccess':
      return 'when the job last passed';
    case 'failingSince':
      return `since when ${build}'s failure happens`;
    case 'infraOrCode':
      return `whether ${build} failed on the infrastructure or the code`;
    case 'seenBefore':
      return `whether ${build}'s failure happened before`;
    case 'worksLocally':
      return `what differs between ${build}'s run and your machine`;
    case 'summary':
    case 'help':
    case undefined:
      return 'anything about your build';
    default: {
      const unhandled: never = intent;
      return String(unhandled);
    }
  }
}

const FROM_BUILD = "the build's record in Jenkins";
const FROM_JOB = "the job's configuration in Jenkins";
const FROM_SERVER = 'the Jenkins server itself';
/** How each kind of fact reaches a chat: the upload from a Jenkins page, or the controller. */
const SENT_BY = 'The controller injects it from JENKINS_HOME when an upload names the job and build (`cichat context upload <chat-id> --job J --build N`)';

/** The field a fact would come from and who sends it, for "the context does not say ..." answers. */
export function whereFrom(intent: IntentId): string | undefined {
  const table: Partial<Record<IntentId, [string, string]>> = {
    tests: ['`buildDetails.testResults`', `${FROM_BUILD} (the JUnit results), or the test report lines of the log`],
    ciVersion: ['`ciVersion`', FROM_SERVER],
    plugins: ['`activePlugins` / `plugins`', FROM_SERVER],
    executors: ['`masterNode.executors` and `agentStats.agents`', FROM_SERVER],
    master: ['`masterNode.isOnline`', FROM_SERVER],
    agents: ['`agentStats`', FROM_SERVER],
    system: ['`masterNode.systemInfo`', FROM_SERVER],
    aborter: ['the log\'s "Aborted by" line', 'the console log'],
    causes: ['`buildDetails.causes`', FROM_BUILD],
    parameters: ['`buildDetails.parameters`', FROM_BUILD],
    duration: ['`buildDetails.duration`', FROM_BUILD],
    result: ['`buildDetails.result`', FROM_BUILD],
    previous: ['`buildDetails.previousBuild`', FROM_BUILD],
    buildable: ['`jobDetails.isBuildable`', FROM_JOB],
    jobType: ['`jobDetails.jobType` / `jobDetails.isPipeline`', FROM_JOB],
    jobDescription: ['`jobDetails.description`', FROM_JOB],
    systemMessage: ['`systemMessage`', FROM_SERVER],
    rootUrl: ['`rootUrl` / `jobDetails.url`', FROM_SERVER],
    changes: ['`buildDetails.changes`', `${FROM_BUILD} (its change log)`],
    builtOn: ['`buildDetails.builtOnNode` (or `NODE_NAME` in `ciEnvironment`)', FROM_BUILD],
    startTime: ['`buildDetails.timestamp`', FROM_BUILD],
    screen: ['`currentScreen`', 'the Jenkins page the chat was opened from'],
    revision: ['`GIT_COMMIT` / `GIT_BRANCH` in `ciEnvironment`, or the log\'s checkout line', "the build's environment (`cichat context upload --from-env` inside the build)"],
    jobName: ['`jobDetails.fullName` (or `JOB_NAME` in `ciEnvironment`)', FROM_JOB],
    buildNumber: ['`buildDetails.number` (or `BUILD_NUMBER` in `ciEnvironment`)', FROM_BUILD],
    health: ['`jobDetails.healthScore`', `${FROM_JOB} (its recent builds)`],
    queue: ['`jobDetails.inQueue`', "the Jenkins queue"],
    upstream: ['`jobDetails.upstreamProjects`', FROM_JOB],
    downstream: ['`jobDetails.downstreamProjects`', FROM_JOB],
    config: ['`jobDetails.configXml`', FROM_JOB],
    concurrency: ['`jobDetails.concurrentBuild`', FROM_JOB],
    environment: ['`ciEnvironment`', "the build's environment (`cichat context upload --from-env` inside the build)"],
    lastSuccess: ['`buildDetails.lastSuccessfulBuild`', FROM_BUILD],
  };
  const entry = table[intent];
  if (!entry) return undefined;
  const [field, source] = entry;
  const sender = intent === 'revision' || intent === 'environment' ? 'A pipeline step running `cichat context upload CHAT --from-env` sends it' : SENT_BY;
  return `It would come from ${field}, read from ${source}. ${sender}.`;
}

export function noContextReply(intents: IntentId[]): Reply {
  const intent = intents[0];
  const greeting = intent === 'help' || intent === undefined;
  const lead = greeting
    ? "No CI context has been uploaded to this chat yet, so I have nothing to answer from: I answer from a build's log and its Jenkins facts."
    : `No CI context has been uploaded to this chat yet, so I can't tell ${subjectOf(intent, undefined)}.`;
  return { text: `${lead}\n\n${UPLOAD_HOWTO}`, sources: [] };
}

