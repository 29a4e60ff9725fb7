/**
 * Issue 29: answers from `buildDetails.history` (made by the controller from the job's builds):
 * "why did it fail?" says new / failing since / flaky / back with its builds; "is it flaky?",
 * "since when does it fail?", "did this happen before?" answer from it; without a history they
 * say the context does not hold one. The openai prompt carries it as a fact line.
 */
import { composeLocalAnswer } from '../backend/answer/local/index.js';
import { contextFactLines } from '../backend/answer/prompt.js';
import type { BuildHistory, CiContext } from '../protocol/types.js';
import { analyzedChatContext, failedMavenLog, richCiContext } from './answerFixtures.js';

function withHistory(history: BuildHistory | undefined) {
  const log = failedMavenLog();
  const ci = richCiContext(log) as CiContext;
  const ctx = analyzedChatContext({ ...ci, buildDetails: { ...(ci.buildDetails ?? {}), ...(history ? { history } : {}) } } as never, log);
  return ctx;
}

const recurring: BuildHistory = {
  fingerprint: '0123456789abcdef',
  window: 50,
  firstBuildLooked: 1,
  seenInLast: 7,
  firstSeen: 36,
  failingSince: 36,
  streak: 7,
  firstAfterCommit: 'a1b2c3d4e5f60718293a',
  passedBetween: [],
  verdict: 'recurring',
  evidenceBuilds: [36, 40, 41, 42],
  reason: 'It has failed this way in every counted build since #36 (7 builds), first with commit a1b2c3d4e5.',
};
const flaky: BuildHistory = {
  ...recurring,
  verdict: 'flaky',
  seenInLast: 4,
  streak: 1,
  failingSince: 42,
  evidenceBuilds: [30, 31],
  passedBetween: [31, 35],
  reason: '#31 passed on commit 9f8e7d6c5b, the same commit on which #30 failed this way.',
  tests: [{ name: 'com.acme.OrdersTest.rounding', failedIn: [30, 38, 42], passedIn: [31, 35], verdict: 'flaky', sameCommitPass: 31 }],
};
const fresh: BuildHistory = { ...recurring, verdict: 'new', seenInLast: 1, firstSeen: 42, failingSince: 42, streak: 1, evidenceBuilds: [42], reason: 'None of the 49 earlier builds looked at failed this way.' };

it('why: says failing since the build that started it, with the builds, and cites the history', async () => {
  const reply = await composeLocalAnswer('why did the build fail?', withHistory(recurring));
  expect(reply.text).toMatch(/Failing since #36\*\* \(7 builds in a row\), first with commit `a1b2c3d4e5`/);
  expect(reply.text).toMatch(/#36, #40, #41, #42/);
  expect(reply.sources).toContainEqual({ kind: 'context', field: 'buildDetails.history' });
});

it('why: a new failure says so', async () => {
  const reply = await composeLocalAnswer('why did the build fail?', withHistory(fresh));
  expect(reply.text).toMatch(/\*\*New:\*\* none of the 49 earlier builds looked at failed this way \(first seen in #42\)/);
});

it('is it flaky? answers from the history with its evidence builds, and the flaky test', async () => {
  const reply = await composeLocalAnswer('is this flaky?', withHistory(flaky));
  expect(reply.text).toMatch(/\*\*Yes, it looks flaky\.\*\* #31 passed on commit 9f8e7d6c5b/);
  expect(reply.text).toMatch(/evidence: #30, #31/);
  expect(reply.text).toMatch(/com\.acme\.OrdersTest\.rounding/);
  const notFlaky = await composeLocalAnswer('is this flaky?', withHistory(recurring));
  expect(notFlaky.text).toMatch(/No sign of flakiness/);
  expect(notFlaky.text).not.toMatch(/looks flaky/);
});

it('since when? and did this happen before?', async () => {
  const since = await composeLocalAnswer('since when does this fail?', withHistory(recurring));
  expect(since.text).toMatch(/Failing since #36/);
  const before = await composeLocalAnswer('did this happen before?', withHistory(recurring));
  expect(before.text).toMatch(/^\*\*Yes:\*\* it failed this way in 7 of the last 50 builds, first in #36/);
  const no = await composeLocalAnswer('did this happen before?', withHistory(fresh));
  expect(no.text).toMatch(/^\*\*No:\*\* none of the 49 earlier builds/);
});

it('without a history: no verdict, and it says so', async () => {
  const since = await composeLocalAnswer('since when does this fail?', withHistory(undefined));
  expect(since.text).toMatch(/does not say the job's earlier builds/);
  const why = await composeLocalAnswer('why did the build fail?', withHistory(undefined));
  expect(why.text).not.toMatch(/Failing since|\*\*New:\*\*|Flaky/);
  const malformed = await composeLocalAnswer('did this happen before?', withHistory({ ...recurring, evidenceBuilds: [] }));
  expect(malformed.text).toMatch(/does not say/);
});

it('without a history because the controller could not read it: says why (buildDetails.historyError)', async () => {
  const ctx = withHistory(undefined);
  const error = 'Could not read the history of team/api: EACCES: permission denied, open builds/41/build.xml';
  const ci = { ...ctx.ciContext, buildDetails: { ...ctx.ciContext.buildDetails, historyError: error } };
  const since = await composeLocalAnswer('since when does this fail?', { ...ctx, ciContext: ci });
  expect(since.text).toMatch(/^\*\*I can't tell since when this fails:\*\* the controller could not read the job's earlier builds: Could not read the history of team\/api: EACCES/);
  expect(since.sources).toContainEqual({ kind: 'context', field: 'buildDetails.historyError' });
  const before = await composeLocalAnswer('did this happen before?', { ...ctx, ciContext: ci });
  expect(before.text).toMatch(/whether this failure happened before:\*\* .*EACCES/);
  // The openai engine's facts carry a build's other scalar fields as they are.
  expect(contextFactLines(ci, 2000).join('\n')).toMatch(/historyError=Could not read the history of team\/api: EACCES/);
});

it('the openai prompt carries the history as a fact line', () => {
  const facts = contextFactLines(withHistory(flaky).ciContext, 2000).join('\n');
  expect(facts).toMatch(/Failure history \(last 50 builds\): verdict flaky; .*evidence builds #30 #31/);
  expect(facts).toMatch(/com\.acme\.OrdersTest\.rounding flaky/);
});

it('"when did the build start?" is about the start time, not the failure history', async () => {
  const reply = await composeLocalAnswer('when did the build start?', withHistory(recurring));
  expect(reply.text).not.toMatch(/Failing since|earlier builds/);
  const since = await composeLocalAnswer('when did the build start failing?', withHistory(recurring));
  expect(since.text).toMatch(/Failing since #36/);
  const since2 = await composeLocalAnswer('when did this failure first appear?', withHistory(recurring));
  expect(since2.text).toMatch(/Failing since #36/);
});
