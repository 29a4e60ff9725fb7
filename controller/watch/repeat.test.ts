import { quietRepeat, REPEAT_POST_MS } from './index.js';
import type { FailureRecord } from './store.js';
import { webhookText } from './webhook.js';

const NOW = Date.parse('2026-11-24T12:00:00.000Z');
const iso = (ms: number): string => new Date(ms).toISOString();

function rec(build: number, history: Partial<NonNullable<FailureRecord['history']>> | undefined, extra: Partial<FailureRecord> = {}): FailureRecord {
  return {
    key: `app#${build}`,
    job: 'app',
    build,
    result: 'FAILURE',
    cause: 'Compile error: cannot find symbol getTotal()',
    citedLines: [],
    detectedAt: iso(NOW),
    diagnosedAt: iso(NOW),
    chats: [],
    unread: [],
    ...(history ? { history: { fingerprint: 'f1', verdict: 'recurring', failingSince: 10, streak: 2, seenInLast: 2, window: 50, reason: 'r', ...history } } : {}),
    ...extra,
  };
}

describe('quietRepeat (issue 29: one webhook message for a repeated failure)', () => {
  it('the next build failing the same way within a day is folded into the run\'s message', () => {
    const first = rec(10, { verdict: 'new', streak: 1 }, { postedAt: iso(NOW - 3600_000) });
    expect(quietRepeat(rec(11, {}), [first], NOW)).toBe(10);
    // and the one after: still the message of #10
    const second = rec(11, {}, { quietRepeatOf: 10 });
    expect(quietRepeat(rec(12, { streak: 3 }), [second, first], NOW)).toBe(10);
  });
  it('a day later the run is posted again (still failing since)', () => {
    const first = rec(10, { verdict: 'new' }, { postedAt: iso(NOW - REPEAT_POST_MS - 1) });
    expect(quietRepeat(rec(11, {}), [first], NOW)).toBeUndefined();
  });
  it('another failure, a flaky one, a return after a pass, or no history: posted', () => {
    const first = rec(10, { verdict: 'new' }, { postedAt: iso(NOW) });
    expect(quietRepeat(rec(11, { fingerprint: 'f2', verdict: 'new', failingSince: 11 }), [first], NOW)).toBeUndefined();
    expect(quietRepeat(rec(11, { verdict: 'flaky' }), [first], NOW)).toBeUndefined();
    expect(quietRepeat(rec(11, { verdict: 'fixed-and-back' }), [first], NOW)).toBeUndefined();
    expect(quietRepeat(rec(11, undefined), [first], NOW)).toBeUndefined();
    // the previous failure is older than the current run (a pass in between started a new run)
    expect(quietRepeat(rec(15, { failingSince: 15 }), [first], NOW)).toBeUndefined();
    // another job's failure is not this job's run
    expect(quietRepeat(rec(11, {}), [{ ...first, job: 'other' }], NOW)).toBeUndefined();
  });
});

describe('webhookText with the history', () => {
  it('says how long it has been failing, or that it is flaky', () => {
    expect(webhookText(rec(12, { streak: 3 }))).toMatch(/Still failing since #10 \(3 builds in a row\)\./);
    expect(webhookText(rec(12, { verdict: 'flaky', seenInLast: 4, window: 20, reason: '#9 passed on commit abc, the same commit on which #8 failed this way.' }))).toMatch(
      /Flaky: failed this way in 4 of the last 20 builds\. #9 passed on commit abc/,
    );
    expect(webhookText(rec(12, undefined))).not.toMatch(/Still failing|Flaky/);
  });
});
