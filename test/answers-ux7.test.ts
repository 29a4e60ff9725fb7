/**
 * Answers a new user got on failures made on this machine (helper ux7, session 46;
 * test/fixtures/ux7/<job>: fail.log, pass.log, the commit that broke it, the project, and what a
 * senior engineer would say), each checked against what the log and the workspace say.
 */

import { fileURLToPath } from 'node:url';
import { sessionFixtures } from './helpers/sessionFixtures.js';

const { ask, cited } = sessionFixtures(fileURLToPath(new URL('./fixtures/ux7/', import.meta.url)));

describe('answers on failures made by ux7', () => {
  it("require() of an ES module that awaits at its top level: the fix is how the line loads it, not the line's values", async () => {
    const fix = await ask('how do I fix it?', 'sales-report');
    // Before: "change what that line does with the values it gets" and "read what the message says about the values".
    expect(fix).not.toMatch(/values it gets|values this line works on/);
    expect(fix).toContain('that line loads a module in a way its format does not allow [L35-L35]');
    expect(fix).toContain("load it with `await import('...')`");
    expect(fix).toContain('awaits at its top level');
    cited(fix, 'sales-report');
    const why = await ask('why did the build fail?', 'sales-report');
    expect(why).not.toMatch(/values it gets/);
    cited(why, 'sales-report');
  });

  it('the stage of a step whose exit Jenkins printed after the stages closed is the stage its command ran in', async () => {
    const why = await ask('why did the build fail?', 'ledger-cli');
    // Before: "the log does not say which stage failed; the last stage it shows starting is **Smoke**".
    expect(why).toContain('The error came in stage **Smoke** [L23-L23], while running `java -jar build/ledger.jar --selftest` [L25-L25].');
    expect(why).not.toContain('does not say which stage failed');
    cited(why, 'ledger-cli');
  });
});

describe('a test that failed its own time limit (ux7, billing-worker)', () => {
  it('says the check is a time limit and what one log cannot tell, not "why it gives a different value"', async () => {
    const fix = await ask('how do I fix it?', 'billing-worker');
    // Before: "Look at the code under test ... to see why it gives a different value" and "update the test's expected value".
    expect(fix).not.toContain('gives a different value');
    expect(fix).not.toContain("expected value");
    expect(fix).toContain('The check that failed is a time limit the test sets itself [L28-L28]: what it waited for had not happened within `25ms`');
    expect(fix).toContain("I can't tell from one build's log whether the code became slower or the limit of `25ms` is too tight");
    cited(fix, 'billing-worker');
  });
});

describe('is a failed time limit flaky? (ux7, billing-worker)', () => {
  it('does not say a re-run will most likely fail the same way', async () => {
    const flaky = await ask('is this flaky?', 'billing-worker');
    // Before: "A re-run without changes will most likely fail the same way" (the same commit passed on a re-run here).
    expect(flaky).not.toContain('most likely fail the same way');
    expect(flaky).toContain("The test's check is a time limit (`25ms`): whether it holds depends on how fast the agent ran the code, so a re-run without changes may pass or fail");
    cited(flaky, 'billing-worker');
  });
});

describe('show me the failing test (ux7, billing-worker)', () => {
  it("quotes the test's own message that `go test -v` printed above its verdict", async () => {
    const shown = await ask('show me the failing test', 'billing-worker');
    // Before: only `--- FAIL: TestProcessEmptyBatch (0.03s)` [L29-L29], without the check that failed.
    expect(shown).toContain('How the first one failed:\n[L28-L29]');
    expect(shown).toContain('worker_test.go:32: batch not posted within 25ms');
    cited(shown, 'billing-worker');
  });
});

describe("a Python warning is not the error (ux7, inventory-lib: pip's metadata step)", () => {
  it("quotes setuptools' own error, not the warning above it whose category is not named ...Warning", async () => {
    const why = await ask('why did the build fail?', 'inventory-lib');
    // Before: "the first line that looks like an error is [L28-L28]: `.../pyprojecttoml.py:108: _BetaConfiguration: ...`".
    expect(why.split('\n')[0]).toContain("[L38-L38]: `error: package directory 'inventory' does not exist`");
    expect(why).not.toMatch(/error is \[L28-L28\]|The log's error is `[^`]*_BetaConfiguration/);
    cited(why, 'inventory-lib');
  });
});

describe('can I ignore it? can I just retry? (ux7)', () => {
  it('answers from the failure: a time limit may pass on a re-run, a module that cannot load will not', async () => {
    const timed = await ask('can I ignore it?', 'billing-worker');
    // Before: "I can't answer that from the uploaded context."
    expect(timed).not.toContain("I can't answer that");
    expect(timed).toContain('Ignoring it is safe only when the failure is noise that a re-run clears. **It may pass:** The first error is a failing test check [L28-L28].');
    cited(timed, 'billing-worker');
    // Before: "Not without a change", then that a re-run may pass or fail.
    const retry = await ask('can I just retry?', 'billing-worker');
    expect(retry).toContain('**It may pass:**');
    expect(retry).not.toContain('Not without a change');
    const code = await ask('is it safe to ignore this?', 'sales-report');
    expect(code).toContain('Ignoring it is safe only when the failure is noise that a re-run clears. **Not without a change:**');
    cited(code, 'sales-report');
  });
});
