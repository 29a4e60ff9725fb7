/**
 * Phrasings written apart from the field table's (other words, other word order, the questions
 * a person types in a hurry), asked of the offline engine over the original plugin's context in
 * both shapes. Each names what the answer must show. Found wanting when first run: the page, up
 * to date, pinned plugins, "can this job be built", "is it disabled", stability, "what does
 * <job> do", the SCM repo, the Jenkinsfile, concurrency, downstream, "which run", a parameter by
 * name, missing context; the cues and composers were fixed, then these became this test.
 */
import { composeLocalAnswer } from '../backend/answer/local.js';
import type { CiContext } from '../protocol/types.js';
import { contextOfShape, type Shape } from './helpers/ciFields.js';

/** Question, what the answer shows, and (when the alias shape lacks the fact) what it shows there. */
const PHRASINGS: [string, RegExp, RegExp?][] = [
  ['what jenkins page is this?', /Console team\/api #42/],
  ['what screen was I on when I uploaded?', /Console team\/api #42/],
  ['which jenkins version do we run?', /2\.440\.3/],
  ['is jenkins up to date?', /2\.440\.3[\s\S]*changelog/],
  ['what is the url of this jenkins instance?', /https:\/\/ci\.example\.com\//],
  ['is there a system message set?', /Maintenance window/],
  ['what does the notice on the dashboard say?', /Maintenance window/],
  ['do we have kubernetes plugin?', /No — `kubernetes` is not installed/],
  ['what version is git-client?', /4\.6\.0/],
  ['how many plugins do we have?', /6 plugins are installed/],
  // The alias shape's plugin array has no pinned state.
  ['is any plugin pinned?', /docker-workflow/, /does not say which plugins are pinned/],
  ['how many executors on master?', /2 executors/],
  ['is the master online?', /Yes — the built-in node is online/],
  ['what OS is the jenkins server running?', /Linux/],
  ['how many cpus does the controller have?', /CPUs \*\*8\*\*/],
  // The alias shape's systemInfo (Java property names) has no free memory.
  ['how much ram is free on the controller?', /Free memory \*\*6 GiB\*\*/, /does not say how much memory is free/],
  ['how many agents are there?', /2 agents online/],
  ['which agents are down and why?', /windows-agent-1[\s\S]*patching/],
  ['what labels does linux-agent-1 have?', /`linux-agent-1`: `linux` `docker`/],
  ['what is the name of this job?', /team\/api/],
  ['what kind of job is team/api?', /Pipeline/],
  ['is it a multibranch pipeline?', /No — `team\/api` is a Pipeline/],
  ['link to this build?', /https:\/\/ci\.example\.com\/job\/team\/job\/api\/42\//],
  ['can this job be built?', /Yes — `team\/api` is buildable/],
  ['is it disabled?', /No — `team\/api` is not disabled/],
  ['is there a build waiting in the queue?', /Yes — a build of `team\/api` is waiting in the queue/],
  ['why is my build pending?', /waiting in the queue[\s\S]*built-in node is \*\*online\*\*/],
  ['my build is not starting, why?', /waiting in the queue[\s\S]*Agents: 2 agents online, 1 offline/],
  ['is the build stuck because no agents are online?', /2 agents online/],
  ['health of the job?', /60%/],
  ['is this job stable?', /60%/],
  ['what does team/api do?', /orders.*API service/],
  ['what scm repo does the job use?', /orders-api\.git/],
  ['where is the Jenkinsfile?', /ci\/Jenkinsfile/],
  ['does it run concurrent builds?', /does not allow concurrent builds/],
  ['which upstream job triggers this?', /team\/lib-core/],
  ['what gets triggered after this job?', /team\/deploy-staging/],
  ['what is the build number?', /#42/],
  ['which run is this?', /#42/],
  ['was the build green?', /No — build #42/],
  ['when did it run?', /2025-11-22 08:26 UTC/],
  ['who triggered it?', /Alice Martin/],
  ['what value did TARGET_ENV have?', /`TARGET_ENV` = \*\*`staging`\*\*/],
  ['how many tests were skipped?', /2 skipped/],
  ['what node was used?', /linux-agent-1/],
  ['who committed what?', /Bob Chen/],
  ['when was the last successful build?', /#40/],
  ['which build last passed?', /#40/],
  ['what commit did this build use?', /a1b2c3d4e5f6/],
  ['what git branch?', /release-2\.1/],
  ['what was NODE_NAME?', /linux-agent-1/],
  ['show me the env vars', /GIT_URL/],
  ['what is BUILD_URL?', /api\/42\//],
  ['was anything missing from the context?', /windows-agent-1: agent offline/],
];

describe.each<Shape>(['original', 'alias'])('phrasings apart from the field table (%s shape)', (shape) => {
  it.each(PHRASINGS)('%s', async (question, wanted, inAlias) => {
    const ci = contextOfShape(shape) as CiContext;
    const answer = await composeLocalAnswer(question, { ciContext: ci, uploadedAt: '2026-11-22T02:10:00.000Z', logLineCount: 0, failureExcerpts: [], retrieve: async () => [] });
    expect(answer.text).toMatch(shape === 'alias' && inAlias ? inAlias : wanted);
    expect(answer.text).not.toMatch(/undefined|\[object Object\]/);
  });
});
