/**
 * "How do I fix it?" on real tuning failures (helper fx2, issue 25 deliverable 3): the test's own line on
 * the stack, the sources the build compiled when the log names no line, the code under test opened at
 * what the test calls, and where the failing line's values are set.
 */
import { TUNED_CASES } from './helpers/realfail.js';
import { realfailAnswer } from './helpers/realfailAnswer.js';

async function fixOf(id: string): Promise<string> {
  expect(TUNED_CASES).toContain(id);
  return realfailAnswer(id, 'How do I fix it?', true);
}

describe("fx2: what the fix answer reads off the stack, the build's commands and the failing file", () => {
  it("a check that failed in the test while the stack's place is in the code: the test's line, said as the check, and the runner given the test file", async () => {
    const fix = await fixOf('jest-tothrow-message-mismatch');
    expect(fix).toContain("**The test's own line:** `test/parse.test.js:8` [L31-L31]");
    expect(fix).toContain('line 8 of `src/duration.js` is in the code under test; the check that failed is the test\'s, at `test/parse.test.js:8`.');
    expect(fix).not.toContain('the check at line 8 of `src/duration.js`');
    expect(fix).toContain("`npx jest test/parse.test.js -t 'rejects unknown units'`");
    expect(await fixOf('node-test-hook-error')).toContain("`node --test --test-name-pattern 'notes app' test/app.test.js`");
  });
  it('a crash the log places in no line: the code under test of the test program, else the sources its build line compiled', async () => {
    // Since loc2 names the test program make ran (`./test_stats`), its code under test is shown, which
    // is nearer than the list of compiled sources (that list is the fallback: builtSources.test.ts).
    const crash = await fixOf('c-test-sigfpe-average');
    expect(crash).toContain('**The code under test** (`src/stats.c`, lines 1-15, which `tests/test_stats.c` tests)');
    expect(crash).toContain('return sum / used;');
    expect(crash).not.toContain('**The sources the build compiled**');
    const link = await fixOf('ld-header-global-multiple-definition');
    expect(link).toContain('**Where to look:** The log compiles `main.c` [L13-L13], `queue.c` [L14-L14], `stats.c` [L15-L15] for this link: the definitions it found twice come from these');
  });
  it('the code under test opens at the function the test is named after', async () => {
    expect(await fixOf('go-test-subtest-table-mismatch')).toMatch(/\*\*The code under test\*\* \(`semver\/semver\.go`, lines \d+-\d+, [^\n]*\n```go\n[\s\S]*func comparePre\(/);
  });
  it("the failing line's value assigned further up its file", async () => {
    expect(await fixOf('node-err-invalid-arg-type')).toContain('**Where its values are set**, further up `scripts/build-manifest.mjs`: line 6 `const outDir = process.env.DIST_DIR;`.');
  });
});
