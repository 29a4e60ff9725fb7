import { fingerprintOf } from './fingerprint.js';
import { signatureOfLines } from './signature.js';
import { historyOf, type BuildRecord } from './verdict.js';

const F = 'aaaa';
const G = 'bbbb';
const pass = (number: number, extra: Partial<BuildRecord> = {}): BuildRecord => ({ number, result: 'SUCCESS', ...extra });
const fail = (number: number, fingerprint = F, extra: Partial<BuildRecord> = {}): BuildRecord => ({ number, result: 'FAILURE', fingerprint, ...extra });

describe('fingerprintOf', () => {
  it('is the same for two runs that differ in numbers, hashes, temp paths and line numbers', () => {
    const a = fingerprintOf({ class: 'compile-error', message: 'error: cannot find symbol getName() at 12:03:55 in /tmp/tmp.AbC123/x', file: '/var/jenkins_home/workspace/api/src/App.java' });
    const b = fingerprintOf({ class: 'compile-error', message: 'error: cannot find symbol getName() at 09:14:01 in /tmp/tmp.Zz9/x', file: '/home/agent/workspace/api@2/src/App.java' });
    expect(a.id).toBe(b.id);
    expect(a.file).toBe('src/App.java');
  });
  it('differs by class, message and file', () => {
    const base = { class: 'compile-error', message: 'cannot find symbol getName', file: 'src/App.java' };
    const id = fingerprintOf(base).id;
    expect(fingerprintOf({ ...base, class: 'test-error' }).id).not.toBe(id);
    expect(fingerprintOf({ ...base, message: 'cannot find symbol getTitle' }).id).not.toBe(id);
    expect(fingerprintOf({ ...base, file: 'src/Other.java' }).id).not.toBe(id);
  });
  it('with failed tests, the tests decide (a message quoting a random value does not split them)', () => {
    const a = fingerprintOf({ class: 'test-assertion', message: 'expected 3 but was 7 (seed abcdefX)', tests: ['a.B.c', 'a.B.d'] });
    const b = fingerprintOf({ class: 'test-assertion', message: 'expected 3 but was 9 (seed qqqqqY)', tests: ['a.B.d', 'a.B.c'] });
    expect(a.id).toBe(b.id);
    expect(fingerprintOf({ class: 'test-assertion', message: '', tests: ['a.B.c'] }).id).not.toBe(a.id);
  });
});

describe('signatureOfLines', () => {
  it('takes the line that carries the error, not the framing line', () => {
    const lines = ['[INFO] Building api', '[ERROR] COMPILATION ERROR :', '[ERROR] /ws/src/App.java:[12,5] cannot find symbol', '[INFO] BUILD FAILURE'];
    const sig = signatureOfLines(lines);
    expect(sig?.message).toMatch(/cannot find symbol/);
  });
  it('gives nothing for a log without a failure and without failed tests', () => {
    expect(signatureOfLines(['all good', 'Finished: SUCCESS'])).toBeUndefined();
  });
});

describe('historyOf', () => {
  it('no fingerprint: no verdict', () => {
    expect(historyOf([pass(1), { number: 2, result: 'FAILURE' }], 2)).toBeUndefined();
  });
  it('new: none of the earlier builds failed this way', () => {
    const h = historyOf([pass(1), fail(2, G), pass(3), fail(4)], 4);
    expect(h).toMatchObject({ verdict: 'new', firstSeen: 4, seenInLast: 1, window: 4, evidenceBuilds: [4] });
    expect(h?.reason).toMatch(/None of the 3 earlier builds/);
  });
  it('new on the first build says there is nothing to compare with', () => {
    expect(historyOf([fail(1)], 1)?.reason).toMatch(/no earlier build/);
  });
  it('recurring: failing since the first build of the unbroken run, with its commit', () => {
    const h = historyOf([pass(1, { commit: 'c1' }), fail(2, F, { commit: 'c2abcdef1234567' }), { number: 3, result: 'ABORTED' }, fail(4, F, { commit: 'c3' }), fail(5)], 5);
    expect(h).toMatchObject({ verdict: 'recurring', failingSince: 2, streak: 3, seenInLast: 3, firstAfterCommit: 'c2abcdef1234567' });
    expect(h?.evidenceBuilds).toEqual([2, 4, 5]);
  });
  it('fixed-and-back: failed, passed after a change, back', () => {
    const h = historyOf([fail(1, F, { commit: 'a', changes: 1 }), pass(2, { commit: 'b', changes: 1 }), fail(3, F, { commit: 'c', changes: 2 })], 3);
    expect(h).toMatchObject({ verdict: 'fixed-and-back', passedBetween: [2], evidenceBuilds: [1, 2, 3] });
  });
  it('flaky: passed on the same commit that failed this way', () => {
    const h = historyOf([fail(1, F, { commit: 'x' }), pass(2, { commit: 'x' }), fail(3, F, { commit: 'y' })], 3);
    expect(h).toMatchObject({ verdict: 'flaky', evidenceBuilds: [1, 2] });
    expect(h?.reason).toMatch(/#2 passed on commit x/);
  });
  it('flaky: a pass between two such failures with no change in between', () => {
    const h = historyOf([fail(1, F, { changes: 1 }), pass(2, { changes: 0 }), fail(3, F, { changes: 0 })], 3);
    expect(h).toMatchObject({ verdict: 'flaky', evidenceBuilds: [1, 2, 3] });
  });
  it('a pass between with unknown changes is not evidence of flakiness', () => {
    expect(historyOf([fail(1), pass(2), fail(3)], 3)?.verdict).toBe('fixed-and-back');
  });
  it('flaky: alternating four times', () => {
    const h = historyOf([fail(1), pass(2), fail(3), pass(4), fail(5)], 5);
    expect(h?.verdict).toBe('flaky');
  });
  it('a failure on a commit that passed before is flaky even the first time it is seen', () => {
    expect(historyOf([pass(1, { commit: 'x' }), fail(2, F, { commit: 'x' })], 2)?.verdict).toBe('flaky');
  });
  it('builds after the one asked about are ignored', () => {
    expect(historyOf([fail(1), fail(2), pass(3)], 2)?.verdict).toBe('recurring');
  });
  it('per test: flaky when it passed on a commit it also failed on', () => {
    const t = (n: number, commit: string, failed: string[], result = failed.length ? 'UNSTABLE' : 'SUCCESS'): BuildRecord => ({
      number: n,
      result,
      commit,
      testsReported: true,
      ...(failed.length ? { failedTests: failed, fingerprint: F } : {}),
    });
    const h = historyOf([t(1, 'a', ['T.x']), t(2, 'a', []), t(3, 'b', ['T.x', 'T.y'])], 3);
    expect(h?.tests).toEqual([
      { name: 'T.x', failedIn: [1, 3], passedIn: [2], verdict: 'flaky', sameCommitPass: 2 },
      { name: 'T.y', failedIn: [3], passedIn: [1, 2], verdict: 'new' },
    ]);
  });
});
