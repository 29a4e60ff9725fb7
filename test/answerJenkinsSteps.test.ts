/** Answers over what Jenkins recorded (issue 26): the failing step from the flow nodes, the JUnit report. */
import path from 'node:path';
import { readFileSync } from 'node:fs';
import type { ChatContext } from '../backend/answer/engine.js';
import { createLocalEngine } from '../backend/answer/local.js';
import { readFailingSteps } from '../jenkins/flow.js';
import { readTestResult } from '../jenkins/tests.js';
import { parseXml } from '../jenkins/xml.js';
import { analyzedChatContext } from './answerFixtures.js';

async function ask(question: string, context: ChatContext): Promise<string> {
  const engine = createLocalEngine({ typingDelayMs: 0 });
  const stream = await engine.answer({ question, history: [], context, signal: new AbortController().signal });
  let text = '';
  for await (const piece of stream.pieces) text += piece;
  return text;
}

const dir = path.resolve('test/fixtures/jenkins-flow/bulk');

async function parallelContext(): Promise<ChatContext> {
  const failingSteps = await readFailingSteps(dir, parseXml(readFileSync(path.join(dir, 'build.xml'), 'utf8')));
  const log = readFileSync(path.join(dir, 'log'), 'utf8');
  return analyzedChatContext({ buildDetails: { number: 7, result: 'FAILURE', failingSteps } }, log);
}

describe('answers name the failing stage, branch and step Jenkins recorded', () => {
  test('why did it fail: the record, and the step wrapper explained', async () => {
    const text = await ask('why did the build fail?', await parallelContext());
    expect(text).toMatch(/Jenkins recorded the failure in step `bat` in stage `Test`, parallel branch `windows`/);
    expect(text).toMatch(/AbortException: script returned exit code 2/);
    expect(text).toMatch(/cause is in the step's own output/);
  });

  test('which stage failed: the recorded stage, not the log\'s nearest stage line', async () => {
    const text = await ask('which stage failed?', await parallelContext());
    expect(text).toMatch(/stage `Test`, parallel branch `windows`/);
    expect(text).not.toMatch(/It failed in stage `Compile`/);
  });

  test('which tests failed: class and test name from junitResult.xml', async () => {
    const testResults = await readTestResult(path.resolve('seeds/jenkins-home/jobs/team/jobs/api/builds/42'), 42);
    const ctx = analyzedChatContext({ buildDetails: { number: 42, result: 'FAILURE', testResults } }, 'Started by user alice\n[ERROR] Tests run: 10, Failures: 1\nFinished: FAILURE\n');
    const text = await ask('which tests failed?', ctx);
    expect(text).toMatch(/\*\*1 of 10 tests? failed\*\*/);
    expect(text).toMatch(/`OrderTotalsTest\.totalAppliesDiscountBeforeTax`/);
  });

  test('a failed downstream build: named, with its own failing step', async () => {
    const downstream = await parallelContext();
    const steps = downstream.ciContext.buildDetails?.failingSteps;
    const log = 'Started by upstream project "team/api-ci" build number 311\nStarting building: team » deploy #17\nBuild team » deploy #17 completed: FAILURE\nERROR: team » deploy #17 completed with status FAILURE (propagate: false to ignore)\nFinished: FAILURE\n';
    const ctx = analyzedChatContext(
      { buildDetails: { number: 5, result: 'FAILURE', downstreamFailure: { jobName: 'team/deploy', number: 17, result: 'FAILURE', failingSteps: steps, consoleLogTail: "tests\\t_path.c(31): error C2065: 'PATH_MAX': undeclared identifier\nFinished: FAILURE" } } },
      log,
    );
    const text = await ask('why did the build fail?', ctx);
    expect(text).toMatch(/downstream build `team\/deploy #17` it triggered finished `FAILURE`; there Jenkins recorded the failure in step `bat` in stage `Test`, parallel branch `windows`/);
    expect(text).toMatch(/Its log ends with: `.*error C2065/);
  });
});

