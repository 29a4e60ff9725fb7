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

export function noContextReply(intents: IntentId[]): Reply {
  const intent = intents[0];
  const greeting = intent === 'help' || intent === undefined;
  const lead = greeting
    ? "No CI context has been uploaded to this chat yet, so I have nothing to answer from: I answer from a build's log and its Jenkins facts."
    : `No CI context has been uploaded to this chat yet, so I can't tell ${subjectOf(intent, undefined)}.`;
  return { text: `${lead}\n\n${UPLOAD_HOWTO}`, sources: [] };
}

