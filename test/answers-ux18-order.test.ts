/**
 * No test-order speculation the change block makes moot (helper ux18, session 56; docs/notes/answer.md "Session 56
 * (helper ux18)"): the fix's "a test that ran before it in the same process left shared state behind" paragraph is
 * kept only when nothing links the failure to the checkout's change; when the last commit changed the code under test
 * that the failing check calls, the change block says so and the paragraph goes. Made-up checkouts; unittest's `-v`
 * lines as Python 3.12 prints them.
 */
import { askWithGit as ask, gitIn, gitRepo, removeGitRepos } from './helpers/gitRepo.js';

afterAll(removeGitRepos);

const LOG = `Started by an SCM change
[shop] $ /bin/sh -xe /tmp/jenkins1.sh
+ python3 -m unittest -v
test_a_discount (tests.test_prices.PricesTest.test_a_discount) ... ok
test_b_total (tests.test_prices.PricesTest.test_b_total) ... FAIL

======================================================================
FAIL: test_b_total (tests.test_prices.PricesTest.test_b_total)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/var/lib/jenkins/workspace/shop/tests/test_prices.py", line 9, in test_b_total
    self.assertEqual(prices.total([10, 20]), 30)
AssertionError: 33 != 30

----------------------------------------------------------------------
Ran 2 tests in 0.001s

FAILED (failures=1)
Build step 'Execute shell' marked build as failure
Finished: FAILURE
`;

const TEST = `import unittest
from shop import prices


class PricesTest(unittest.TestCase):
    def test_a_discount(self):
        self.assertEqual(prices.discount(100), 90)

    def test_b_total(self):
        self.assertEqual(prices.total([10, 20]), 30)
`;
const prices = (total: string): string => `def discount(amount):
    return amount * 9 // 10


def total(items):
    return ${total}
`;

function checkout(changed: Record<string, string>, message: string): { dir: string; last: string } {
  const { dir } = gitRepo(
    [
      { message: 'Start', files: { 'shop/__init__.py': '', 'shop/prices.py': prices('sum(items)'), 'tests/__init__.py': '', 'tests/test_prices.py': TEST, 'README.md': 'shop\n' } },
      { message, files: changed },
    ],
    { prefix: 'cichat-ux18-' },
  );
  return { dir, last: gitIn(dir, 'rev-parse', 'HEAD').slice(0, 10) };
}

describe("the test-order paragraph against the checkout's change", () => {
  it('the last commit changed the code the failing check calls: no test-order speculation', async () => {
    const { dir } = checkout({ 'shop/prices.py': prices('round(sum(items) * 1.1)') }, 'Add VAT to the total');
    const fix = await ask('how do I fix it?', LOG, dir);
    expect(fix).toContain('`shop/prices.py`');
    expect(fix).toContain('Line 6 of `shop/prices.py`, the code under test: commit');
    expect(fix).toContain('changed `return sum(items)` to `return round(sum(items) * 1.1)`');
    // Before: "In this run, `test_a_discount` ran before `test_b_total` [L4-L5]. If `test_b_total` passes when it runs
    // alone, a test that ran before it in the same process left shared state behind ..." under the change's hunk.
    expect(fix).not.toContain('left shared state behind');
  });

  it('counter-example: the commit touched only the README, so the paragraph stays and says the change does not link', async () => {
    const { dir } = checkout({ 'README.md': 'shop, the prices module\n' }, 'Docs');
    const fix = await ask('how do I fix it?', LOG, dir);
    expect(fix).toContain('In this run, `test_a_discount` ran before `test_b_total` [L4-L5]. If `test_b_total` passes when it runs alone, a test that ran before it in the same process left shared state behind');
    expect(fix).toContain('did not touch');
    expect(fix).toContain("The checkout's change below shows no changed line of what the error names");
  });
});
