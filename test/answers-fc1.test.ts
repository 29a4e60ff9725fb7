/**
 * False claims by mechanism (helper fc1, session 50; docs/notes/answer.md "Session 50 (helper fc1)"): the
 * answers' own templates must not say a word the evidence does not hold. Here "failed": it is also a
 * tool's verdict (pytest's and tcltest's `FAILED`, unittest's `FAILED (failures=1)`, go's `[build failed]`),
 * and a build whose tests passed before a later command broke never had that verdict.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { claimText } from '../bench/findings.js';
import { analyzedChatContext } from './answerFixtures.js';
import { askLocalAnswer } from './helpers/askLocal.js';
import type { CiContextUpload } from '../protocol/schemas.js';

// Real output (python3 -m pytest, then a program that raised), the paths mapped to the agent's workspace.
const LOG = readFileSync(fileURLToPath(new URL('./fixtures/fc1/tests-passed-then-program-raised.log', import.meta.url)), 'utf8');
const CI = { jobDetails: { fullName: 'calib' }, buildDetails: { number: 7, result: 'FAILURE' } } as CiContextUpload;

describe('a build whose tests passed, then a program raised', () => {
  it('says how the build ended in the CI server\'s word and where the error came, never "failed"', async () => {
    const ctx = analyzedChatContext(CI, LOG);
    const why = (await askLocalAnswer('why did the build fail?', ctx)).text;
    const fix = (await askLocalAnswer('how do I fix it?', ctx)).text;
    // Before: "**Build #7 of `calib` failed (`FAILURE`):** ..." and "It failed running `python3 -m calib.run 4 -1`".
    expect(why).toMatch(/^\*\*Build #7 of `calib` ended `FAILURE`:\*\* the first real error is \[L\d+-L\d+\]: `ValueError: math domain error`/);
    expect(why).toMatch(/The error came while running `python3 -m calib\.run 4 -1` \[L8-L8\]\./);
    // Before: "`scale` (where it failed) was called from `main` ...".
    expect(fix).toMatch(/`scale` \(where the error was raised\) was called from `<listcomp>`|`scale` \(where the error was raised\) was called from `main`/);
    expect([claimText(why), claimText(fix)].filter((t) => /\bfailed\b/i.test(t))).toEqual([]);
  });
});
