/**
 * Calibration in the answers (core/finding/calibration.ts, docs/notes/analyzer.md "Calibration (helper cal1, session
 * 45)"): a rule's `high` whose class the excerpt's words do not support is said at `medium`, so both answers say the
 * class is likely rather than certain; a `high` that stands is said without that hedge. Real tuning cases, and a made-up
 * test's assertion lowered by hand (its answer keeps the rule's reading of the check).
 */
import { composeLocalAnswer } from '../backend/answer/local/index.js';
import { analyzedChatContext } from './answerFixtures.js';
import { TUNED_CASES } from './helpers/realfail.js';
import { realfailContext } from './helpers/realfailContext.js';
import type { ChatContext } from '../backend/answer/engine.js';
import type { Finding } from '../protocol/types.js';

const HEDGE = 'The evidence for this kind of failure is not conclusive, so take it as likely rather than certain.';
const topOf = (ctx: ChatContext): Finding => (ctx.failureExcerpts[0] as { finding?: Finding }).finding as Finding;

async function answers(id: string): Promise<{ top: Finding; why: string; fix: string }> {
  expect(TUNED_CASES).toContain(id);
  const { ctx } = await realfailContext(id, true);
  return { top: topOf(ctx), why: (await composeLocalAnswer('why did the build fail?', ctx)).text, fix: (await composeLocalAnswer('how do I fix it?', ctx)).text };
}

describe('a calibrated confidence in the answers', () => {
  it.each([
    ['pytest-merge-conflict-markers-syntaxerror', 'compile-error'],
    ['maven-junit5-timeout', 'timeout-aborted'],
  ])("%s: a rule's high the words do not support is said as likely, in both answers, with its class kept", async (id, cls) => {
    const { top, why, fix } = await answers(id);
    expect([top.class, top.confidence, top.rules_confidence]).toEqual([cls, 'medium', 'high']);
    expect(why).toContain(HEDGE);
    expect(fix).toContain(HEDGE);
  });

  it.each(['ant-javac-incompatible', 'node-err-invalid-arg-type'])('%s: a high that stands is not hedged', async (id) => {
    const { top, why, fix } = await answers(id);
    expect([top.confidence, top.rules_confidence]).toEqual(['high', undefined]);
    expect(why).not.toContain(HEDGE);
    expect(fix).not.toContain(HEDGE);
    expect(`${why}\n${fix}`).not.toMatch(/likely rather than certain|take it as a guess/);
  });

  it("a lowered test assertion keeps the rule's reading of the check (the words' doubt is about the class, not the log's lines)", async () => {
    const log = ['+ pytest -q', '    def test_total():', '>       assert total([1, 2]) == 4', 'E       assert 3 == 4', 'FAILED tests/test_sum.py::test_total', 'Finished: FAILURE'].join('\n');
    const ctx = analyzedChatContext({ buildDetails: { result: 'FAILURE' } }, log);
    const top = topOf(ctx);
    expect(top.class).toBe('test-assertion');
    // The finding as if read off the runner's verdict line alone, which shows no check.
    const medium: Finding = { ...top, confidence: 'medium', message: 'FAILED tests/test_sum.py::test_total', message_line: 5, evidence: [5] };
    const whyOf = async (f: Finding): Promise<string> => {
      (ctx.failureExcerpts[0] as { finding?: Finding }).finding = f;
      return (await composeLocalAnswer('why did the build fail?', ctx)).text;
    };
    // A medium no rule held at high: the log says the test failed, not how.
    expect(await whyOf(medium)).toContain('its lines do not show whether a check failed');
    // A rule's high that calibration lowered: the rule read a check.
    const lowered = await whyOf({ ...medium, rules_confidence: 'high' });
    expect(lowered).toContain('its check did not hold');
    expect(lowered).not.toContain('its lines do not show whether a check failed');
  });
});
