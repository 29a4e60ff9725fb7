/**
 * A tired engineer's questions (helper qa, issue 25): each answer answers the question asked,
 * from the finding, and cites what it quotes. Made-up logs and projects (none of the realfail
 * cases), each rule with a counter-example it must leave alone.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { composeLocalAnswer } from '../backend/answer/local/index.js';
import { snippetsFromDir } from '../cli/snippets.js';
import { analyzedChatContext } from './answerFixtures.js';
import { checkCitations } from './helpers/claimChecks.js';
import type { CiContextUpload } from '../protocol/schemas.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'cichat-qa-'));
  dirs.push(dir);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

/** The answer to a question about a log (and a workspace), with every citation checked against the log. */
async function answer(question: string, lines: string[], workspace?: Record<string, string>): Promise<string> {
  const log = `${lines.join('\n')}\n`;
  const snippets = workspace ? await snippetsFromDir(project(workspace), log) : [];
  const upload = { buildDetails: { result: 'FAILURE', consoleLog: log }, workspaceSnippets: snippets } as CiContextUpload;
  const text = (await composeLocalAnswer(question, analyzedChatContext(upload, log))).text;
  expect(checkCitations(text, log.split('\n'))).toEqual([]);
  return text;
}

const START = ['Started by user ops', 'Building in workspace /var/lib/jenkins/workspace/ledger', '[ledger] $ /bin/sh -xe /tmp/jenkins1.sh'];
const END = ["Build step 'Execute shell' marked build as failure", 'Finished: FAILURE'];

/** pytest: a TypeError raised in the code under test, called from the test's line. */
const PYTEST_TYPEERROR = [
  ...START,
  '+ python3 -m pytest tests',
  '============================= test session starts ==============================',
  'collected 2 items',
  '',
  'tests/test_ledger.py .F                                                  [100%]',
  '',
  '=================================== FAILURES ===================================',
  '_________________________________ test_balance _________________________________',
  '',
  '    def test_balance():',
  '>       assert balance(ROWS) == 12.5',
  '               ^^^^^^^^^^^^^',
  '',
  'tests/test_ledger.py:9: ',
  '_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ ',
  '',
  "rows = [{'amount': '10', 'fee': '2.5'}]",
  '',
  '    def balance(rows):',
  '        total = 0',
  '        for row in rows:',
  '>           total += row["amount"] - row["fee"]',
  "E           TypeError: unsupported operand type(s) for -: 'str' and 'str'",
  '',
  'ledger/sums.py:6: TypeError',
  '=========================== short test summary info ============================',
  "FAILED tests/test_ledger.py::test_balance - TypeError: unsupported operand type(s) for -: 'str' and 'str'",
  '========================= 1 failed, 1 passed in 0.31s ==========================',
  ...END,
];
const LEDGER = {
  'ledger/sums.py': 'def balance(rows):\n    total = 0\n    for row in rows:\n        total += row["amount"] - row["fee"]\n    return total\n'.replace(/^/, '\n\n'),
  'tests/test_ledger.py': 'from ledger.sums import balance\n\nROWS = [{"amount": "10", "fee": "2.5"}]\n\n\n\n\ndef test_balance():\n    assert balance(ROWS) == 12.5\n',
};

/** JUnit under Maven: an NPE with its trace cut by the excerpt. */
const MAVEN_NPE = [
  ...START,
  '+ mvn -B test',
  '[INFO] Running com.acme.billing.InvoiceTest',
  '[ERROR] Tests run: 3, Failures: 0, Errors: 1, Skipped: 0, Time elapsed: 0.1 s <<< FAILURE! -- in com.acme.billing.InvoiceTest',
  '[ERROR] com.acme.billing.InvoiceTest.totalsEmptyInvoice -- Time elapsed: 0.02 s <<< ERROR!',
  'java.lang.NullPointerException: Cannot invoke "java.util.List.size()" because "this.lines" is null',
  '\tat com.acme.billing.Invoice.total(Invoice.java:21)',
  '\tat com.acme.billing.InvoiceTest.totalsEmptyInvoice(InvoiceTest.java:14)',
  '\tat java.base/java.lang.reflect.Method.invoke(Method.java:569)',
  '',
  '[ERROR] Failures: ',
  '[ERROR]   InvoiceTest.totalsEmptyInvoice:14 » NullPointer Cannot invoke "java.util.List.size()" because "this.lines" is null',
  '[ERROR] Tests run: 3, Failures: 0, Errors: 1, Skipped: 0',
  '[ERROR] Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:3.2.5:test (default-test) on project billing: There are test failures.',
  ...END,
];

/** gcc: a compile error, printed without a trace. */
const GCC_ERROR = [
  ...START,
  '+ make',
  'cc -Wall -c -o parse.o parse.c',
  "parse.c:12:5: error: 'count' undeclared (first use in this function)",
  '   12 |     count++;',
  '      |     ^~~~~',
  'make: *** [<builtin>: parse.o] Error 1',
  ...END,
];

/** jest: a failed check whose frame is the check itself. */
const JEST_CHECK = [
  ...START,
  '+ npx jest',
  'FAIL src/price.test.js',
  '  ● rounds to cents',
  '',
  '    expect(received).toBe(expected) // Object.is equality',
  '',
  '    Expected: 1.1',
  '    Received: 1.1000000000000001',
  '',
  '       3 | test(\'rounds to cents\', () => {',
  '    >  4 |   expect(price(0.1, 11)).toBe(1.1);',
  '         |                          ^',
  '       5 | });',
  '',
  '      at Object.toBe (src/price.test.js:4:26)',
  '',
  'Tests:       1 failed, 1 passed, 2 total',
  ...END,
];

/** make: a missing target printed just above the CI's exit-code line. */
const MAKE_NO_RULE = [
  'Run make all docs',
  'make: *** No rule to make target \'docs\'.  Stop.',
  '##[error]Process completed with exit code 2.',
];

describe('answers to the questions a tired engineer asks', () => {
  it('"where is the error?" of an exception leads with its raise site, not the test line that called it', async () => {
    const text = await answer('where is the error?', PYTEST_TYPEERROR, LEDGER);
    expect(text).toMatch(/^\*\*The exception in a test is in `ledger\/sums\.py`, line 6\*\*/);
    // The workspace step is the exception's, not "change the test's line as the error says".
    expect(text).not.toContain('as the error says');
    expect(text).toContain('In the source:** `ledger/sums.py:');
    // The place's message is the exception's, not the test header above it.
    expect(text).toMatch(/^\*\*The exception in a test is in `ledger\/sums\.py`, line 6\*\* \(`sums\.py:6`\) \[L\d+-L\d+\]: `TypeError: unsupported operand/);
    // A TypeError is not a value "not set": that advice is for null, None, nil and undefined.
    expect(text).not.toContain('make sure that value is set');
  });

  it('"where is the error?" of a failed check does not tell to change the check as the error says', async () => {
    const text = await answer('where is the error?', JEST_CHECK, { 'src/price.test.js': "const { price } = require('./price');\n\ntest('rounds to cents', () => {\n  expect(price(0.1, 11)).toBe(1.1);\n});\n", 'src/price.js': 'exports.price = (a, n) => a * n;\n' });
    expect(text).not.toContain('as the error says');
    expect(text).toContain('Decide which is right');
  });

  it('"show me the stack trace" is the trace with its raise site, frames past the excerpt included', async () => {
    const text = await answer('show me the stack trace', MAVEN_NPE);
    expect(text).toMatch(/^\*\*The stack trace of `NullPointerException`\*\* \[L\d+-L\d+\]/);
    expect(text).toContain('It was raised at `com/acme/billing/Invoice.java:21`');
    expect(text).toContain('at java.base/java.lang.reflect.Method.invoke');
    expect(text).not.toContain('**What it means:**');
    // A compiler's error has no trace: said so, not dressed up as one.
    expect(await answer('show me the stack trace', GCC_ERROR)).toContain('The log shows no stack trace for this error');
  });

  it('"what does this error mean?" leads with the meaning and what such an error usually asks for', async () => {
    const text = await answer('what does this error mean?', MAVEN_NPE);
    expect(text).toMatch(/^\*\*What `java\.lang\.NullPointerException: .*` \[L\d+-L\d+\] means:\*\* The test `/);
    expect(text).toContain('**What this error usually asks for:**');
    // "Why did it fail?" keeps its own answer.
    expect(await answer('why did the build fail?', MAVEN_NPE)).toMatch(/^\*\*The build ended `FAILURE`:\*\* the first real error/);
  });

  it('"can I just retry?" answers yes or no first, from the class', async () => {
    expect(await answer('can I just retry?', JEST_CHECK)).toMatch(/^\*\*Not without a change:\*\* The first error is a failing test check \[L\d+-L\d+\]\./);
    expect(await answer('should I re-run it?', GCC_ERROR)).toMatch(/^\*\*Not without a change:\*\* The first error is a compile error/);
    const net = await answer('can I just retry?', [...START, '+ curl -fsS https://artifacts.example.org/ledger.tgz -o ledger.tgz', 'curl: (6) Could not resolve host: artifacts.example.org', ...END]);
    expect(net).toMatch(/^\*\*It may pass:\*\*/);
    // The reason is said once, in the lead.
    const again = await answer('can I just retry?', JEST_CHECK);
    expect(again.split('will most likely fail the same way').length).toBe(2);
    // "Is this flaky?" keeps its own lead.
    expect(await answer('is this flaky?', JEST_CHECK)).toMatch(/^\*\*One build's context can't prove flakiness\*\*/);
  });

  it('a failed check\'s next step is not its expected and actual values again', async () => {
    const text = await answer('why did the build fail?', JEST_CHECK);
    expect(text).toMatch(/It expected `1\.1` and got `1\.1000000000000001`/);
    expect(text).not.toMatch(/\*\*Next step:\*\* The test expects/);
    expect(text).toMatch(/\*\*Next step:\*\* Look at the code under test/);
    // The check's place is said once, not again as where it "was raised".
    expect(text).not.toMatch(/did not hold at `src\/price\.test\.js:4:26`.*It was raised at `src\/price\.test\.js:4`/);
  });

  it('the quote under the headline holds the line the headline cites', async () => {
    const text = await answer('why did the build fail?', MAKE_NO_RULE);
    const quoted = text.split('```')[1] ?? '';
    expect(quoted).toContain("No rule to make target 'docs'");
  });
});

describe('"where is the error?" of a place only the finding reads', () => {
  it('a Go panic names its frame, not "no file and line"', async () => {
    const text = await answer('where is the error?', [
      ...START,
      '+ go test ./...',
      '--- FAIL: TestMerge (0.00s)',
      'panic: assignment to entry in nil map [recovered]',
      '\tpanic: assignment to entry in nil map',
      '',
      'goroutine 7 [running]:',
      'testing.tRunner.func1.2({0x5a1b20, 0x5f3c40})',
      '\t/usr/lib/go-1.22/src/testing/testing.go:1631 +0x24a',
      'example.com/ledger.(*Book).Add(...)',
      '\t/home/ci/ledger/book.go:17 +0x5c',
      'example.com/ledger.TestMerge(0xc000007a00)',
      '\t/home/ci/ledger/book_test.go:9 +0x3d',
      'FAIL\texample.com/ledger\t0.004s',
      ...END,
    ]);
    expect(text).not.toContain('names no file and line');
    expect(text).toMatch(/is in `[^`]*book\.go`, line 17/);
  });
});

describe('what an exception usually asks for', () => {
  it('a Python operator given text where a number was meant says so, with the operator and the types', async () => {
    const text = await answer('what does this error mean?', PYTEST_TYPEERROR);
    expect(text).toContain("The operator `-` was given operands of types `str` and `str`");
    expect(text).toContain('`float(...)`');
    // A TypeError of another kind gets no such hint.
    const other = await answer('what does this error mean?', PYTEST_TYPEERROR.map((l) => l.replace("unsupported operand type(s) for -: 'str' and 'str'", "balance() missing 1 required positional argument: 'rows'")));
    expect(other).not.toContain('was given operands');
  });
});

describe('"show me the stack trace" of a message without an exception type', () => {
  it('is the trace printed around it, cited once, with no source line promised', async () => {
    const text = await answer('show me the stack trace', [
      'Started by timer',
      'Building remotely on win-7 in workspace C:\\jenkins\\workspace\\viewer',
      '[viewer] $ cmd /c call C:\\Temp\\jenkins1.bat',
      'FATAL: command execution failed',
      'Agent went offline during the build',
      'ERROR: Connection was broken: java.io.IOException: Unexpected termination of the channel',
      '\tat hudson.remoting.SynchronousCommandTransport$ReaderThread.run(SynchronousCommandTransport.java:80)',
      'Caused by: java.io.EOFException',
      '\t... 1 more',
      'Finished: FAILURE',
    ]);
    expect(text).not.toMatch(/^\*\*The stack trace of `Agent went offline/);
    expect(text).not.toMatch(/(\[L\d+-L\d+\]) \1/);
    expect(text).not.toContain('and the source line');
  });
});
