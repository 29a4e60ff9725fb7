/**
 * Paths the CI agent recorded, named as the user's checkout names them (issue 25 item 4, session 51, helper ws1):
 * `cichat ask --workspace DIR` on a log whose paths are the agent's. Made-up builds (a pytest traceback under a
 * Jenkins agent's workspace, a root-level file a log names by its absolute path), read the way the CLI reads a
 * checkout; every answer's citations checked against the log.
 */
import { askWithCheckout } from './helpers/askCheckout.js';
import { askLocal } from './helpers/askLocal.js';
import { checkCitations } from './helpers/claimChecks.js';
import { analyzedChatContext } from './answerFixtures.js';
import type { CiContextUpload } from '../protocol/schemas.js';

const PYTEST = [
  'Started by user admin',
  'Running on agent-7 in /home/jenkins/agent/workspace/billing',
  '[Pipeline] sh',
  '+ python -m pytest tests',
  '============================= test session starts ==============================',
  'collected 1 item',
  '',
  'tests/test_invoice.py F                                                  [100%]',
  '',
  '=================================== FAILURES ===================================',
  '_________________________________ test_total __________________________________',
  'Traceback (most recent call last):',
  '  File "/home/jenkins/agent/workspace/billing/tests/test_invoice.py", line 4, in test_total',
  '    assert total([1, 2]) == 3',
  '  File "/home/jenkins/agent/workspace/billing/src/invoice.py", line 3, in total',
  '    return sum(x["amount"] for x in items)',
  '  File "/home/jenkins/agent/workspace/billing/src/invoice.py", line 3, in <genexpr>',
  '    return sum(x["amount"] for x in items)',
  "TypeError: 'int' object is not subscriptable",
  '=========================== short test summary info ============================',
  "FAILED tests/test_invoice.py::test_total - TypeError: 'int' object is not subscriptable",
  '============================== 1 failed in 0.05s ===============================',
  'ERROR: script returned exit code 1',
  'Finished: FAILURE',
].join('\n');

const CHECKOUT = {
  'src/invoice.py': 'def total(items):\n    """Sum the amounts."""\n    return sum(x["amount"] for x in items)\n',
  'tests/test_invoice.py': 'from src.invoice import total\n\ndef test_total():\n    assert total([1, 2]) == 3\n',
};

const cited = (answer: string, log: string): void => expect(checkCitations(answer, log.split('\n'))).toEqual([]);

describe("the places an answer tells the user to open are the checkout's, not the agent's", () => {
  it('why, fix, "which line?": the raise site, its caller and the test frame as `src/...`, `tests/...`', async () => {
    const why = await askWithCheckout('why did the build fail?', PYTEST, CHECKOUT);
    const fix = await askWithCheckout('how do I fix it?', PYTEST, CHECKOUT);
    const where = await askWithCheckout('which line of my code is it?', PYTEST, CHECKOUT);
    // Before: "Open `/home/jenkins/agent/workspace/billing/src/invoice.py:3`", "called from `total` at `/home/jenkins/...`",
    // "The exception in a test is in `/home/jenkins/agent/workspace/billing/src/invoice.py`, line 3".
    expect(why).toContain('It was raised at `src/invoice.py:3` (in `<genexpr>`) [L17-L17].');
    expect(why).toContain('**Next step:** Open `src/invoice.py:3` (in `<genexpr>`) [L17-L17], where `TypeError` was raised');
    expect(fix).toContain('was called from `total` at `src/invoice.py:3` [L15-L15]');
    expect(where).toContain('**The exception in a test is in `src/invoice.py`, line 3**');
    for (const answer of [why, fix, where]) {
      // Outside the quoted log (fenced blocks) no sentence names the agent's workspace.
      expect(answer.replace(/```[\s\S]*?```/g, '')).not.toContain('`/home/jenkins/agent/workspace/billing/');
      cited(answer, PYTEST);
    }
  });

  it('a file at the top of the checkout, by the log line the reader found it for (no `Running on` line, no folder)', async () => {
    const log = ['+ ant dist', 'BUILD FAILED', '/tmp/agent/ws/tiles/build.xml:12: Problem creating jar: No space left on device', 'Finished: FAILURE'].join('\n');
    const files = { 'build.xml': Array.from({ length: 20 }, (_, i) => (i === 11 ? '    <jar destfile="dist/tiles.jar" basedir="build"/>' : `<!-- ${i + 1} -->`)).join('\n') };
    const why = await askWithCheckout('why did the build fail?', log, files);
    // Before: "The log points at `/tmp/agent/ws/tiles/build.xml:12`".
    expect(why).toContain('The log points at `build.xml:12` [L3-L3].');
    cited(why, log);
  });

  it("keeps the agent's path without a checkout, and a library's path always", async () => {
    const alone = await askLocal('why did the build fail?', analyzedChatContext({ buildDetails: { result: 'FAILURE', consoleLog: PYTEST } } as CiContextUpload, PYTEST));
    expect(alone).toContain('It was raised at `/home/jenkins/agent/workspace/billing/src/invoice.py:3`');
    const lib = PYTEST.replace('  File "/home/jenkins/agent/workspace/billing/src/invoice.py", line 3, in <genexpr>', '  File "/usr/lib/python3.11/json/decoder.py", line 353, in raw_decode');
    const why = await askWithCheckout('why did the build fail?', lib, CHECKOUT);
    expect(why).toContain('`/usr/lib/python3.11/json/decoder.py:353`');
    cited(why, lib);
  });
});
