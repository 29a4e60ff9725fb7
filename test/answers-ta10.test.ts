/**
 * Answers as a user reads them (helper ta10, issue 25): the error that carries the failure leads
 * even when a keyword would not call it one, a strict xfail that passed is said as such, and the
 * fix answer's steps are concrete. Made-up logs (none of the realfail cases), each rule with a
 * counter-example it must leave alone; every citation checked against the log.
 */
import { composeLocalAnswer } from '../backend/answer/local/index.js';
import { analyzedChatContext } from './answerFixtures.js';
import { checkAnswer } from './helpers/claimChecks.js';
import type { CiContextUpload } from '../protocol/schemas.js';

async function answer(question: string, lines: string[]): Promise<string> {
  const log = `${lines.join('\n')}\n`;
  const upload = { buildDetails: { result: 'FAILURE', consoleLog: log } } as CiContextUpload;
  const ctx = analyzedChatContext(upload, log);
  const text = (await composeLocalAnswer(question, ctx)).text;
  expect(checkAnswer(question, text, log.split('\n'), ctx)).toEqual([]);
  return text;
}

const START = ['Started by user ops', '[orders] $ /bin/sh -xe /tmp/jenkins7.sh'];
const END = ["Build step 'Execute shell' marked build as failure", 'Finished: FAILURE'];

describe('pytest: a strict expected failure that passed', () => {
  const XPASS = [
    ...START,
    '+ python3 -m pytest -q',
    '..F.                                                                     [100%]',
    '=================================== FAILURES ===================================',
    '____________________________ test_discount_caps_at_50 ____________________________',
    '[XPASS(strict)] GH-88: the cap is applied after tax',
    '=========================== short test summary info ============================',
    'FAILED tests/test_discount.py::test_discount_caps_at_50 - [XPASS(strict)] GH-88: the cap is...',
    '1 failed, 3 passed in 0.31s',
    ...END,
  ];

  it('leads with the XPASS line, not the count line under it, and says the test passed', async () => {
    const why = await answer('Why did the build fail?', XPASS);
    expect(why).toMatch(/the first real error is \[L7-L7\]: `\[XPASS\(strict\)\] GH-88/);
    expect(why).toContain('is marked as an expected failure (`xfail`, strict) and it passed');
    expect(why).not.toMatch(/check did not hold|`1 failed, 3 passed/);
  });

  it('the fix removes the xfail marker from the test, in its file', async () => {
    const fix = await answer('How do I fix it?', XPASS);
    expect(fix).toMatch(/remove the `xfail` marker from `test_discount_caps_at_50` in `tests\/test_discount\.py`/);
    expect(fix).not.toContain('gives a different value');
  });

  it('counter-example: a failed assert keeps its own words', async () => {
    const fail = XPASS.map((l) => (l.startsWith('[XPASS') ? 'E       assert 50 == 45' : l.replace('[XPASS(strict)] GH-88: the cap is...', 'assert 50 == 45')));
    const why = await answer('Why did the build fail?', fail);
    expect(why).toMatch(/first real error is \[L7-L7\]: `assert 50 == 45`/);
    expect(why).not.toContain('xfail');
  });
});
