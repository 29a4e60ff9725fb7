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

// vitest's real output for `--reporter=github-action` (a misspelt built-in reporter), paths mapped to the agent's
// workspace; the second context gives it another name (a reporter package), in the same grammar.
const VITEST = readFileSync(fileURLToPath(new URL('./fixtures/fc1/vitest-reporter-not-found.log', import.meta.url)), 'utf8');

describe('a reporter name vitest could not load', () => {
  it('is a name the step gave the tool, not a package the code imports: the near built-in first, install last', async () => {
    const fix = (await askLocalAnswer('how do I fix it?', analyzedChatContext(CI, VITEST))).text;
    // Before: "`github-action` is imported [L15-L15] but is not installed: ... `npm install github-action` if the program needs it".
    expect(fix).not.toMatch(/is imported|npm install github-action/);
    expect(fix).toContain('vitest loads `github-action` as a custom reporter [L6-L6] because it is not one of its own reporters, and no package of that name is installed [L15-L15]; the step\'s command gives it as `--reporter=github-action` [L3-L3].');
    expect(fix).toContain('`github-actions` is one of vitest\'s own reporters, 1 letter from it');
    expect(fix).toContain('(`npm install --save-dev github-action`)');
  });

  it('names no built-in reporter that is far from the name', async () => {
    const fix = (await askLocalAnswer('how do I fix it?', analyzedChatContext(CI, VITEST.replaceAll('github-action', 'vitest-sonar-reporter')))).text;
    expect(fix).toContain('vitest loads `vitest-sonar-reporter` as a custom reporter');
    expect(fix).not.toMatch(/letters? from it/);
    expect(fix).toContain("Check the name there against vitest's own reporters");
  });
});

// A GitHub runner's real log (stamps removed): a Java program could not start `rpmbuild`, then the runner's exit line.
const RUNNER = readFileSync(fileURLToPath(new URL('./fixtures/fc1/java-cannot-run-program-runner-exit.log', import.meta.url)), 'utf8');

describe("the analyzer's label over an exit line", () => {
  it('names the status, not a command that exited: rpmbuild never ran', async () => {
    const why = (await askLocalAnswer('why did the build fail?', analyzedChatContext(CI, RUNNER))).text;
    // Before: "[L24-L24] *command exited with 1*" over `##[error]Process completed with exit code 1.`
    expect(why).toContain('[L24-L24] *step ended (exit 1)*');
    expect(claimText(why)).not.toMatch(/exited with/);
  });
});
