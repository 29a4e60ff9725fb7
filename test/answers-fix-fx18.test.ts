/**
 * The fix answer's change block where a test's exception was raised in the code under test (session 55, helper fx18):
 * the check is the test's own frame (pytest's long form `tests/test_x.py:9: ` over its `_ _ _` rule, jest's and
 * Surefire's stacks), never the raise site in the code; a change that wrote that raise site is said as a change to the
 * code the test runs, not "the change edited the test itself". Made-up checkouts read as `cichat ask --workspace DIR`.
 */
import { askWithGit as ask, gitRepo, removeGitRepos } from './helpers/gitRepo.js';

afterAll(removeGitRepos);

const repo = (commits: { message: string; files: Record<string, string> }[]): { dir: string; ids: string[] } => gitRepo(commits, { prefix: 'cichat-fx18-' });
const EDITED_TEST = 'The change edited the test itself';

// pytest 9.0.3's own output (python -m pytest tests), the default `--tb=auto`: the test's frame is a bare place line.
const PYTEST_LOG = `+ python -m pytest tests
============================= test session starts ==============================
platform linux -- Python 3.11.7, pytest-9.0.3, pluggy-1.6.0
rootdir: /tmp/fx18/py
collected 2 items

tests/test_deliver.py .F                                                 [100%]

=================================== FAILURES ===================================
_________________________________ test_deliver _________________________________

    def test_deliver():
>       assert deliver({"count": 2}) == 3
               ^^^^^^^^^^^^^^^^^^^^^

tests/test_deliver.py:9: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

payload = {'count': 2}

    def deliver(payload):
>       return payload["count"] + "1"
               ^^^^^^^^^^^^^^^^^^^^^^
E       TypeError: unsupported operand type(s) for +: 'int' and 'str'

hooks/deliver.py:9: TypeError
=========================== short test summary info ============================
FAILED tests/test_deliver.py::test_deliver - TypeError: unsupported operand t...
========================= 1 failed, 1 passed in 1.65s ==========================
`;
const DELIVER = (ret: string): string => `"""Deliver a webhook payload."""\n\n\ndef headers_for(payload):\n    return {"X-Id": str(payload["id"])}\n\n\ndef deliver(payload):\n    ${ret}\n`;
const TEST_PY = (expect: string): string => `from hooks.deliver import deliver\n\n\ndef test_counts():\n    assert 1 == 1\n\n\ndef test_deliver():\n    assert deliver({"count": 2}) == ${expect}\n`;

describe('a test-error raised in the code under test, on the line the change wrote', () => {
  it('pytest (long form): the check is tests/test_deliver.py:9, and the change is said to be the code\'s', async () => {
    const { dir, ids } = repo([
      { message: 'Deliver', files: { 'hooks/__init__.py': '', 'hooks/deliver.py': DELIVER('return payload["count"] + 1'), 'tests/test_deliver.py': TEST_PY('3') } },
      { message: 'Count as text', files: { 'hooks/deliver.py': DELIVER('return payload["count"] + "1"') } },
    ]);
    const fix = await ask('how do I fix it?', PYTEST_LOG, dir);
    expect(fix).toContain("**The test's own line:** `tests/test_deliver.py:9`");
    expect(fix).toContain(`Line 9 of \`hooks/deliver.py\`, the error's own line: commit \`${ids[1]?.slice(0, 10)}\` (Count as text) changed`);
    expect(fix).toContain('The change wrote the line that raised (`hooks/deliver.py:9`) in the code the test runs (the test reached it from `tests/test_deliver.py:9`), not in the test');
    expect(fix).not.toContain(EDITED_TEST);
    expect(fix).not.toContain('`hooks/deliver.py:9` is its check');
  });

  it('jest: the raise site src/money.js:7 was written by the change; the test\'s frame is test/money.test.js:4', async () => {
    // jest 29's own output for this project.
    const log = `+ npx jest
FAIL test/money.test.js
  ✕ formats an order (1 ms)

  ● formats an order

    TypeError: Cannot read properties of undefined (reading 'cents')

       5 |
       6 | function formatAmount(order) {
    >  7 |   const cents = order.total.cents;
         |                             ^
       8 |   return \`\${(cents / 100).toFixed(2)} \${currencyOf(order)}\`;
       9 | }
      10 |

      at cents (src/money.js:7:29)
      at Object.formatAmount (test/money.test.js:4:10)

Test Suites: 1 failed, 1 total
Tests:       1 failed, 1 total
`;
    const money = (line: string): string => `// Money helpers.\nfunction currencyOf(order) {\n  return order.currency;\n}\n\nfunction formatAmount(order) {\n  ${line}\n  return \`\${(cents / 100).toFixed(2)} \${currencyOf(order)}\`;\n}\n\nmodule.exports = { formatAmount };\n`;
    const test = "const { formatAmount } = require('../src/money');\n\ntest('formats an order', () => {\n  expect(formatAmount({ amount: { cents: 250 }, currency: 'EUR' })).toBe('2.50 EUR');\n});\n";
    const { dir } = repo([
      { message: 'Money', files: { 'src/money.js': money('const cents = order.amount.cents;'), 'test/money.test.js': test } },
      { message: 'Rename amount', files: { 'src/money.js': money('const cents = order.total.cents;') } },
    ]);
    const fix = await ask('how do I fix it?', log, dir);
    expect(fix).toContain('The change wrote the line that raised (`src/money.js:7`) in the code the test runs (the test reached it from `test/money.test.js:4`)');
    expect(fix).not.toContain(EDITED_TEST);
  });

  it('JUnit under Surefire: Invoice.java:5 raised, the test at InvoiceTest.java:6', async () => {
    const log = `+ mvn -B test
[INFO] Running com.acme.billing.InvoiceTest
[ERROR] Tests run: 3, Failures: 0, Errors: 1, Skipped: 0, Time elapsed: 0.1 s <<< FAILURE! -- in com.acme.billing.InvoiceTest
[ERROR] com.acme.billing.InvoiceTest.totalsEmptyInvoice -- Time elapsed: 0.02 s <<< ERROR!
java.lang.NullPointerException: Cannot invoke "java.util.List.size()" because "this.lines" is null
\tat com.acme.billing.Invoice.total(Invoice.java:5)
\tat com.acme.billing.InvoiceTest.totalsEmptyInvoice(InvoiceTest.java:6)
\tat java.base/java.lang.reflect.Method.invoke(Method.java:569)

[ERROR] Errors: 
[ERROR]   InvoiceTest.totalsEmptyInvoice:6 » NullPointer Cannot invoke "java.util.List.size()" because "this.lines" is null
[ERROR] Tests run: 3, Failures: 0, Errors: 1, Skipped: 0
[ERROR] Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:3.2.5:test (default-test) on project billing: There are test failures.
`;
    const invoice = (line: string): string => `package com.acme.billing;\nclass Invoice {\n  java.util.List<Integer> lines;\n  int total() {\n    ${line}\n  }\n}\n`;
    const test = 'package com.acme.billing;\nimport org.junit.jupiter.api.Test;\nclass InvoiceTest {\n  @Test\n  void totalsEmptyInvoice() {\n    new Invoice().total();\n  }\n}\n';
    const { dir } = repo([
      { message: 'Invoice', files: { 'src/main/java/com/acme/billing/Invoice.java': invoice('return lines == null ? 0 : lines.size();'), 'src/test/java/com/acme/billing/InvoiceTest.java': test } },
      { message: 'Simplify', files: { 'src/main/java/com/acme/billing/Invoice.java': invoice('return lines.size();') } },
    ]);
    const fix = await ask('how do I fix it?', log, dir);
    expect(fix).toContain('`src/main/java/com/acme/billing/Invoice.java:5`) in the code the test runs (the test reached it from `src/test/java/com/acme/billing/InvoiceTest.java:6`)');
    expect(fix).not.toContain(EDITED_TEST);
  });
});

describe('the cases that stay', () => {
  it('the change did edit the test\'s own check: still "edited the test itself"', async () => {
    const log = `+ python -m pytest tests
=================================== FAILURES ===================================
_________________________________ test_deliver _________________________________

    def test_deliver():
>       assert deliver({"count": 2}) == 4
E       assert 3 == 4
E        +  where 3 = deliver({'count': 2})

tests/test_deliver.py:9: AssertionError
=========================== short test summary info ============================
FAILED tests/test_deliver.py::test_deliver - assert 3 == 4
========================= 1 failed, 1 passed in 0.05s ==========================
`;
    const { dir } = repo([
      { message: 'Deliver', files: { 'hooks/__init__.py': '', 'hooks/deliver.py': DELIVER('return payload["count"] + 1'), 'tests/test_deliver.py': TEST_PY('3') } },
      { message: 'Expect four', files: { 'tests/test_deliver.py': TEST_PY('4') } },
    ]);
    const fix = await ask('how do I fix it?', log, dir);
    expect(fix).toContain(`${EDITED_TEST} (\`tests/test_deliver.py:9\` is its check)`);
  });

  it('no test frame on the stack: nothing about "the test itself", the written line is where to act', async () => {
    // pytest's `--tb=line`: the raise site alone.
    const log = `+ python -m pytest --tb=line tests
=================================== FAILURES ===================================
/ws/hooks/deliver.py:9: TypeError: unsupported operand type(s) for +: 'int' and 'str'
=========================== short test summary info ============================
FAILED tests/test_deliver.py::test_deliver - TypeError: unsupported operand t...
========================= 1 failed, 1 passed in 0.05s ==========================
`;
    const { dir } = repo([
      { message: 'Deliver', files: { 'hooks/__init__.py': '', 'hooks/deliver.py': DELIVER('return payload["count"] + 1'), 'tests/test_deliver.py': TEST_PY('3') } },
      { message: 'Count as text', files: { 'hooks/deliver.py': DELIVER('return payload["count"] + "1"') } },
    ]);
    const fix = await ask('how do I fix it?', log, dir);
    expect(fix).not.toContain(EDITED_TEST);
    expect(fix).not.toContain('is its check');
    expect(fix).toContain('The error is on a line this change wrote, so that line is where to act');
  });
});
