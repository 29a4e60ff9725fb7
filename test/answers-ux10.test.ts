/**
 * Answers a new user got on failures made on this machine (helper ux10, session 49;
 * test/fixtures/ux10/<job>: fail.log, pass.log, the commit that broke it, the project, and what a
 * senior engineer would say), each checked against what the log and the workspace say.
 */

import { fileURLToPath } from 'node:url';
import type { CiContextUpload } from '../protocol/schemas.js';
import { analyzedChatContext } from './answerFixtures.js';
import { askLocal } from './helpers/askLocal.js';
import { sessionFixtures } from './helpers/sessionFixtures.js';

const { ask, cited, log } = sessionFixtures(fileURLToPath(new URL('./fixtures/ux10/', import.meta.url)));

describe('an earlier stage whose failure `| tee` hid (ux10, pktstat: `make clean all 2>&1 | tee build.log`)', () => {
  it("says the Build stage failed and went on, not \"the CI script itself is wrong\"", async () => {
    const why = await ask('why did the build fail?', 'pktstat');
    // Before: "The CI script itself is wrong [L38-L38]: the build's commands were not the problem." and
    // "Next step: Fix the shell script at the line the shell names [L38-L38], as its message says."
    expect(why).not.toContain("the build's commands were not the problem");
    expect(why).not.toContain('Fix the shell script at the line the shell names');
    expect(why).toContain('An earlier stage failed without stopping the build: stage **Build** [L19-L19] printed `make: *** [Makefile:13: build/main.o] Error 1` [L31-L31], but its command `make clean all` [L21-L21] pipes its output into `tee build.log` [L22-L22]');
    expect(why).toContain('Its first error: `src/main.c:36:9: error: implicit declaration of function');
    cited(why, 'pktstat');
  });

  it('"why did the Build stage pass?" gets how the stage hid its failure, not "No — the build failed"', async () => {
    const answer = await ask('why did the Build stage pass?', 'pktstat');
    // Before: "**No — the build failed (`FAILURE`).**" (the question read as "did the build pass?").
    expect(answer).not.toContain('No — ');
    expect(answer).toContain('pipes its output into `tee build.log` [L22-L22], and a pipeline\'s exit status is its last command\'s (`tee`), so the stage passed');
    cited(answer, 'pktstat');
  });

  it('"which line of my code is it?" does not call the compile error "the error in the CI script"', async () => {
    const answer = await ask('which line of my code is it?', 'pktstat');
    // Before: "**The error in the CI script is in `src/main.c`, line 36, column 9**": the finding's class is the later step's.
    expect(answer).toContain('**The compile error is in `src/main.c`, line 36, column 9** (`main.c:36:9`) [L26-L26]');
    cited(answer, 'pktstat');
  });

  it('"is this flaky?" names the compile error the pipe hid, not an error in the CI script (ux11)', async () => {
    const answer = await ask('is this flaky?', 'pktstat');
    // Before: the finding's class was the later step's (ci-script): "an error in the CI script".
    expect(answer).not.toMatch(/CI script/i);
    expect(answer).toContain("The failure is a compile error");
    cited(answer, 'pktstat');
  });

  it('fixes the first error and makes the stage fail with `pipefail`', async () => {
    const fix = await ask('how do I fix it?', 'pktstat');
    expect(fix).not.toContain('Fix the shell script at the line the shell names');
    expect(fix).toContain('- Fix the error of stage **Build** first, `src/main.c:36:9: error: implicit declaration');
    expect(fix).toContain('put `set -o pipefail` before the pipeline [L22-L22]');
    expect(fix).toContain('`make clean all > build.log 2>&1 || { cat build.log; exit 1; }`');
    // Before: "`Jenkinsfile:10` names `pktstat` too ..., and the check looks for `./build/pktstat`: make the two agree".
    expect(fix).not.toContain('make the two agree');
    // Before: "`stats_merge` is not defined where line 36 of `src/main.c` uses it, and no similar name is in the source the
    // context holds" (gcc named `stats_mean`; `stats_merge` is defined in stats.c, not declared).
    expect(fix).not.toContain('no similar name');
    expect(fix).toContain('C needs `stats_merge` declared before line 36 of `src/main.c` calls it');
    cited(fix, 'pktstat');
  });
});

describe('a test file that failed to load (ux10, notify-hook: node --test, ERR_REQUIRE_ASYNC_MODULE; ux11)', () => {
  it('"which tests failed?" says the file did not load and its tests did not run, not "1 failing test"', async () => {
    const answer = await ask('which tests failed?', 'notify-hook');
    // Before: "**The log shows 1 failing test** in the build:" (node's runner reports the file that did not load as its one test).
    expect(answer).not.toContain('1 failing test');
    expect(answer).toContain("**A test file failed to load** in the build: node's test runner reports a file whose process failed before its tests started as one failed test (`failureType: 'testCodeFailure'` [L51-L51], `exitCode: 1` [L52-L52]). None of its tests ran, so how many tests it holds, and whether they pass, is not known from the log.");
    expect(answer).toContain('- `/var/jenkins_home/workspace/notify-hook/test/notify.test.js` [L47-L47] (did not load: its tests did not run)');
    expect(answer).toContain('Why it did not load:');
    cited(answer, 'notify-hook');
  });
});

describe("a console script's entry point that names a missing function (ux10, ledgerq: `lq = \"ledgerq.cli:mian\"`)", () => {
  it('reads the wrapper pip wrote, not "the log names no line that raised ImportError"', async () => {
    for (const question of ['why did the build fail?', 'how do I fix it?']) {
      const answer = await ask(question, 'ledgerq');
      // Before: "The log names no line that raised `ImportError`; its message [L43-L43] is all it printed: run it again locally
      // with a stack trace" (the traceback's one frame is `.venv/bin/lq`, line 5).
      expect(answer).not.toContain('The log names no line that raised');
      expect(answer).toContain('`.venv/bin/lq` [L41-L41] is a console script that pip wrote when it installed the project: its line 5 imports `mian` from `ledgerq.cli` [L42-L42], and `ledgerq.cli` has no `mian` [L43-L43]');
      expect(answer).toContain('`lq = "ledgerq.cli:mian"`');
      expect(answer).toContain('then install the project again');
      cited(answer, 'ledgerq');
    }
  });
});

describe("Node's require() of the project's own ES module with a top-level await (ux10, notify-hook)", () => {
  it('says the module is the project\'s and how to change it, not "pin the package"', async () => {
    const fix = await ask('how do I fix it?', 'notify-hook');
    // Before: "... or pin the package to a version that still loads with `require()`" and "(or which version of the package the
    // build installs)": `./settings.mjs` is a file of the project.
    expect(fix).not.toContain('pin the package');
    expect(fix).not.toContain('which version of the package');
    expect(fix).toContain("`lib/settings.mjs` [L32-L32] is the project's own ES module, and `lib/notify.js` [L31-L31] loads it with `require()`");
    expect(fix).toContain('take the top-level `await` out of `lib/settings.mjs`');
    cited(fix, 'notify-hook');
  });
});

describe("Elixir's FunctionClauseError (ux10, shipping_quote: zones became strings, the rate clauses match atoms)", () => {
  it('compares the arguments given with the clauses tried, not "change what that line does with the values it gets"', async () => {
    const fix = await ask('how do I fix it?', 'shipping_quote');
    // Before: "Open `lib/shipping_quote/rates.ex:4` ..., where `FunctionClauseError` was raised, and change what that line does
    // with the values it gets" (line 4 is a clause that is right for atoms).
    expect(fix).not.toContain('change what that line does with the values it gets');
    expect(fix).toContain('No clause of `ShippingQuote.Rates.rate/2` takes these arguments [L29-L29]: argument 1 was the string `"domestic"` [L34-L34], and the clauses match atoms there (`:domestic`, `:eu`, `:world` [L41-L43]); a string never matches an atom, not even `:domestic`.');
    expect(fix).toContain('ExUnit marks with `-…-` the parts of each clause that did not match.');
    cited(fix, 'shipping_quote');
    const why = await ask('why did the build fail?', 'shipping_quote');
    expect(why).toContain('**Next step:** No clause of `ShippingQuote.Rates.rate/2` takes these arguments');
    cited(why, 'shipping_quote');
  });
});

describe("Ruby's FrozenError under minitest (ux10, changelog-gen: `# frozen_string_literal: true` added to every file)", () => {
  it("names the test from minitest's `Class#test_name:` line, not its `1) Error:` header", async () => {
    const why = await ask('why did the build fail?', 'changelog-gen');
    // Before: "The test `Error` [L33-L33] stopped on `FrozenError`" (read as mocha's `1) title:` header).
    expect(why).not.toContain('The test `Error`');
    expect(why).toContain('The test `TestRenderer#test_groups_by_type` [L34-L34] stopped on `FrozenError`');
    cited(why, 'changelog-gen');
  });

  it('says why a literal is frozen and how to make it mutable', async () => {
    const fix = await ask('how do I fix it?', 'changelog-gen');
    expect(fix).toContain('The String `"- "` is frozen [L35-L35]');
    expect(fix).toContain('`# frozen_string_literal: true`');
    expect(fix).toContain('`+"- "` or `String.new("- ")`');
    cited(fix, 'changelog-gen');
  });
});

describe('a question no intent takes quotes the lines that mention its words (ux10)', () => {
  it('"why is the string frozen?" over a 40-line passage quotes the FrozenError, not the passage\'s first 12 lines', async () => {
    const text = log('changelog-gen');
    const ctx = analyzedChatContext({ buildDetails: { result: 'FAILURE', consoleLog: text } } as CiContextUpload, text);
    // The server's index holds 40-line passages (`[L1-L40]` in the live answer); the quote shows 12 lines.
    ctx.retrieve = async () => [{ start_line: 1, end_line: 40, text: text.split('\n').slice(0, 40).join('\n'), score: 1 }];
    const answer = await askLocal('why is the string frozen?', ctx);
    // Before: "the log mentions `string` here: [L1-L40]" over `Started by an SCM change` ... (no line that mentions it shown).
    expect(answer).not.toContain('Started by an SCM change');
    expect(answer).toContain('FrozenError: can\'t modify frozen String: "- "');
    cited(answer, 'changelog-gen');
  });
});
