/**
 * Jenkins waiting for an agent that never came (lead, session 42; core/finding/noAgent.ts): the
 * label line is the finding (agent-lost, the label as its symbol), not the time-out that ended the
 * wait, and the answers say no agent with the label was online, never that an agent went away.
 */
import { askLocal } from './helpers/askLocal.js';
import { readFileSync } from 'node:fs';
import { analyzeLines } from '../core/log/analyze.js';
import { analyzedChatContext } from './answerFixtures.js';

const LOG = [
  'Started by user alice',
  '[Pipeline] Start of Pipeline',
  '[Pipeline] timeout',
  'Timeout set to expire in 30 min',
  '[Pipeline] {',
  '[Pipeline] node',
  'Still waiting to schedule task',
  'All nodes of label ‘docker-arm64’ are offline',
  'Cancelling nested steps due to timeout',
  '[Pipeline] // node',
  '[Pipeline] }',
  '[Pipeline] // timeout',
  '[Pipeline] End of Pipeline',
  'Timeout has been exceeded',
  'Finished: ABORTED',
].join('\n');

const ask = askLocal;

describe('no agent for the label', () => {
  it('is the finding, over the time-out that ended the wait', () => {
    const top = analyzeLines(LOG.split('\n'))[0];
    // The rule's high, lowered by calibration (core/finding/calibration.ts, cal1 session 45): the excerpt's other words
    // (timeout, cancelling, exceeded, aborted) read as a time-out, and agent-lost has 9 labelled cases; the class stands.
    expect(top?.finding).toMatchObject({ class: 'agent-lost', message: 'All nodes of label ‘docker-arm64’ are offline', symbol: 'docker-arm64', confidence: 'medium', rules_confidence: 'high' });
  });

  it("in Jenkins' other wordings, with a timestamp in front (a real console: tune3-33)", () => {
    const lines = readFileSync(new URL('./fixtures/jenkins-console/logs/tune3-33-no-node-label-timeout.log', import.meta.url), 'utf8').split('\n');
    expect(analyzeLines(lines)[0]?.finding).toMatchObject({ class: 'agent-lost', symbol: 'test-aws-rhel8-x64-1&&ci.project.openj9' });
  });

  it('an agent lost during the build keeps its own words (counter-example)', () => {
    const lines = ['Started by user alice', '+ mvn test', '[INFO] Running a.BTest', 'Agent went offline during the build', 'Finished: FAILURE'];
    const f = analyzeLines(lines)[0]?.finding;
    expect(f?.class).toBe('agent-lost');
    expect(f?.symbol).toBeUndefined();
  });

  it('the answers say no agent with the label was online, and how to get one; never that an agent went away', async () => {
    const context = analyzedChatContext({}, LOG);
    const why = await ask('why did the build fail?', context);
    expect(why).toContain('No agent with the label `docker-arm64` was online to run the build');
    const fix = await ask('how do I fix it?', analyzedChatContext({}, LOG));
    expect(fix).toContain('**How to fix a build no agent came for** (`All nodes of label ‘docker-arm64’ are offline`');
    expect(fix).toContain('Bring an agent with the label `docker-arm64` online');
    for (const text of [why, fix]) expect(text).not.toMatch(/went away|stays connected|lost agent/);
  });
});
