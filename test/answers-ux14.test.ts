/**
 * Answers a new user got (helper ux14, session 52): ux13's and rv1's left items on made-up logs, and the
 * failures made on this machine (test/fixtures/ux14/<job>: fail.log, the project, what a senior engineer
 * would say, written before asking), each checked against what the log and the workspace say.
 */

import { fileURLToPath } from 'node:url';
import { detectIntents } from '../backend/answer/intents.js';
import { askWithCheckout } from './helpers/askCheckout.js';
import { checkCitations } from './helpers/claimChecks.js';
import { sessionFixtures } from './helpers/sessionFixtures.js';

const ux13 = sessionFixtures(fileURLToPath(new URL('./fixtures/ux13/', import.meta.url)));
const ask = (question: string, lines: string[]): Promise<string> => askWithCheckout(question, lines.join('\n'), {});
const cited = (answer: string, lines: string[]): void => expect(checkCitations(answer, lines)).toEqual([]);

/** A declarative Pipeline with a `parallel` block whose two branches print at once, unprefixed; branch `unit` stops on a line no rule knows. */
const PARALLEL = [
  'Started by user admin',
  '[Pipeline] Start of Pipeline',
  '[Pipeline] node',
  'Running on agent-2 in /var/lib/jenkins/workspace/rates',
  '[Pipeline] {',
  '[Pipeline] stage',
  '[Pipeline] { (Checks)',
  '[Pipeline] parallel',
  '[Pipeline] { (Branch: unit)',
  '[Pipeline] { (Branch: lint)',
  '[Pipeline] { (Branch: docs)',
  '[Pipeline] stage',
  '[Pipeline] { (unit)',
  '[Pipeline] stage',
  '[Pipeline] { (lint)',
  '[Pipeline] stage',
  '[Pipeline] { (docs)',
  '[Pipeline] sh',
  '[Pipeline] sh',
  '[Pipeline] sh',
  '+ ./bin/check-rates',
  '+ ./bin/lint',
  '+ ./bin/docs',
  'lint: 14 files clean',
  'checking zones',
  'docs: 3 pages',
  'transit table incomplete: no rows for Express',
  '[Pipeline] }',
  '[Pipeline] // stage',
  '[Pipeline] }',
  'Failed in branch unit',
  '[Pipeline] }',
  '[Pipeline] // stage',
  '[Pipeline] }',
  '[Pipeline] }',
  '[Pipeline] // stage',
  '[Pipeline] }',
  '[Pipeline] // parallel',
  '[Pipeline] }',
  '[Pipeline] // stage',
  '[Pipeline] stage',
  '[Pipeline] { (Package)',
  'Stage "Package" skipped due to earlier failure(s)',
  '[Pipeline] }',
  '[Pipeline] // stage',
  '[Pipeline] }',
  '[Pipeline] // node',
  '[Pipeline] End of Pipeline',
  'ERROR: script returned exit code 1',
  'Finished: FAILURE',
];

describe('an unrecognised error in a parallel branch heads the answer, never the skip notice (ux13 left item)', () => {
  it('why: the failed branch\'s last line, said as that, with the branch\'s own stage and no command', async () => {
    const why = await ask('why did the build fail?', PARALLEL);
    // Before: "the first line that looks like an error is [L43-L43]: `Stage "Package" skipped due to earlier failure(s)`",
    // "The error came in stage **docs** [L17-L17], parallel branch **unit** [L31-L31]".
    expect(why.split('\n')[0]).not.toContain('skipped due to');
    expect(why).toContain("**The build ended `FAILURE`:** Jenkins' own lines say only that parallel branch `unit` failed [L31-L31] and stage `Package` was skipped after an earlier failure [L43-L43]; the last line printed before the failed branch ended is [L27-L27] (the parallel branches printed at once, unprefixed, so it may be another branch's line): `transit table incomplete: no rows for Express`");
    expect(why).toContain('stage **unit** [L13-L13], parallel branch **unit** [L31-L31]');
    expect(why).not.toContain('while running');
    cited(why, PARALLEL);
  });

  it('"which command failed?": not the nearest echoed one, which may be another branch\'s', async () => {
    const which = await ask('which command failed?', PARALLEL);
    expect(which).toContain('The log does not say which command failed: the error was printed inside a parallel block [L8-L8]');
    expect(which).toContain('The error [L27-L27]: `transit table incomplete: no rows for Express`');
    cited(which, PARALLEL);
  });

  it('a sequential Pipeline: the failed stage\'s last line over the next stage\'s skip notice, and its command', async () => {
    const lines = ['[Pipeline] node', 'Running on built-in in /var/jenkins_home/workspace/rates', '[Pipeline] {', '[Pipeline] stage', '[Pipeline] { (Test)', '[Pipeline] sh', '+ ./run-checks', 'checking zones', 'carrier table stale: 3 carriers without rates', '[Pipeline] }', '[Pipeline] // stage', '[Pipeline] stage', '[Pipeline] { (Deploy)', 'Stage "Deploy" skipped due to earlier failure(s)', '[Pipeline] }', '[Pipeline] // stage', '[Pipeline] }', '[Pipeline] // node', '[Pipeline] End of Pipeline', 'ERROR: script returned exit code 4', 'Finished: FAILURE'];
    const why = await ask('why did the build fail?', lines);
    expect(why).toContain("Jenkins' own lines say only that stage `Deploy` was skipped after an earlier failure [L14-L14]; the last line printed before the failed stage ended is [L9-L9]: `carrier table stale: 3 carriers without rates`");
    expect(why).toContain('stage **Test** [L5-L5], while running `./run-checks` [L7-L7]');
    cited(why, lines);
  });
});

describe('parallel branches named in a question (rv1 item 7)', () => {
  it('two branches that did not fail share one sentence: "this log names only" is said once', async () => {
    const answer = await ask('did the lint or docs branch fail?', PARALLEL);
    expect(answer).toContain("**Parallel branches `lint` and `docs` did not fail** [L10-L10] [L11-L11]: Jenkins prints `Failed in branch NAME` for each parallel branch that failed, and this log names only `unit` [L31-L31].");
    expect(answer.match(/names only/g)).toHaveLength(1);
    cited(answer, PARALLEL);
  });
});

describe("a runtime's own words (ux13 left items)", () => {
  it("Elixir's exception keeps the module name the runtime prints (`Protocol.UndefinedError`)", async () => {
    const lines = ['  1) test renders (MailTest)', '     test/mail_test.exs:5', '     ** (Protocol.UndefinedError) protocol String.Chars not implemented for %Shop.Price{cents: 5} of type Shop.Price (a struct)', '     stacktrace:', '       (shop 0.1.0) lib/mail.ex:9: Mail.body/1', '       test/mail_test.exs:6: (test)', '', '1 test, 1 failure'];
    const why = await ask('why did the build fail?', lines);
    expect(why).toContain('stopped on `Protocol.UndefinedError`');
    expect(why).not.toContain('`UndefinedError`');
  });

  it('"was it the infrastructure or the code?" says runtime error, not exception, of gfortran and Lua', async () => {
    for (const job of ['tide-report', 'meter-billing']) {
      const answer = await ux13.ask('was it the infrastructure or the code?', job);
      expect(answer).toContain('The runtime error came from the program');
      expect(answer).not.toContain('exception');
    }
  });
});

describe('an error code asked about is no environment variable (rv1 item 4)', () => {
  it('intents: ERR_*, EXIT_*, errno names and *_ERROR_* are the failure\'s; a CI variable stays the environment\'s', () => {
    for (const q of ['what does ERR_PACKAGE_PATH_NOT_EXPORTED mean?', 'what does EXIT_FAILURE mean', 'what does ENOENT mean?', 'what is EAI_AGAIN?', 'what does SSL_ERROR_SYSCALL mean?']) expect(detectIntents(q)).toEqual(['failure']);
    for (const q of ['what is GIT_URL?', 'what is BUILD_NUMBER set to?', 'what is DEPLOY_ENV?', 'is ERROR_LOG_DIR set?']) expect(detectIntents(q)).toEqual(['environment']);
  });

  it('the answer: the meaning of the error that prints it; a code this log does not print is said to be absent', async () => {
    const meaning = await ux13.ask('what does ERR_PACKAGE_PATH_NOT_EXPORTED mean?', 'label-printer');
    // Before: "The uploaded context does not say what `ERR_PACKAGE_PATH_NOT_EXPORTED` was. It would come from `ciEnvironment`".
    expect(meaning).not.toContain('ciEnvironment');
    expect(meaning).toContain('**What `Error [ERR_PACKAGE_PATH_NOT_EXPORTED]');
    const absent = await ux13.ask('what does ENOENT mean?', 'label-printer');
    expect(absent).toContain('**This log does not print `ENOENT`**, so it does not say what `ENOENT` had to do with this build; the first error is [L42-L42]');
    ux13.cited(meaning, 'label-printer');
    ux13.cited(absent, 'label-printer');
  });
});

describe('"it works on my machine, why not on CI?" (ux14)', () => {
  it('what the run shows of where and with what it ran, each cited, and what it does not show', async () => {
    const lines = ['Running on agent-7 in /home/ci/workspace/app', '[Pipeline] sh', '+ node --version', 'v18.19.0', '+ export TZ=UTC', '+ npm test', 'Error: Cannot find module \'./Utils/format\'', 'Require stack:', '- /home/ci/workspace/app/src/index.js', 'ERROR: script returned exit code 1'];
    const answer = await ask('it works on my mac, why not on CI?', lines);
    expect(detectIntents('it works on my mac, why not on CI?')).toEqual(['worksLocally']);
    expect(answer).toContain("**What the CI run shows of where and with what it ran** (I see only the build's side, not your machine: compare each with yours):");
    expect(answer).toContain('- Where it ran: `Running on agent-7 in /home/ci/workspace/app` [L1-L1].');
    expect(answer).toContain('- The tool versions it printed: `node: v18.19.0` [L4-L4].');
    expect(answer).toContain('- Settings the build\'s shell set: `+ export TZ=UTC` [L5-L5].');
    expect(answer).toContain('The log prints no system (OS, architecture) of the run');
    expect(answer).toContain("macOS's and Windows' file systems ignore letter case by default");
    cited(answer, lines);
  });

  it("says it can't tell when the log shows none of it", async () => {
    const lines = ['+ ./check', 'carrier table stale', 'Build step \'Execute shell\' marked build as failure', 'Finished: FAILURE'];
    const answer = await ask('why does it only fail on CI? it passes locally', lines);
    expect(answer).toContain("**I can't tell from the log what differs from your machine:**");
    expect(answer).not.toContain('file systems ignore');
    cited(answer, lines);
  });
});

const ux14 = sessionFixtures(fileURLToPath(new URL('./fixtures/ux14/', import.meta.url)));

describe('failures made on this machine (test/fixtures/ux14)', () => {
  it('awk-invoice (Pipeline, parallel totals / lint, a check script\'s own line): that line heads the answer, not the skip notice', async () => {
    const why = await ux14.ask('why did the build fail?', 'awk-invoice');
    // Before: "the first line that looks like an error is [L53-L53]: `Stage "Package" skipped due to earlier failure(s)`".
    expect(why).toContain("Jenkins' own lines say only that parallel branch `totals` failed [L44-L44] and stage `Package` was skipped after an earlier failure [L53-L53]; the last line printed before the failed branch ended is [L40-L40]");
    expect(why).toContain('`1042.txt: total 0, expected 2475`');
    expect(why).toContain('stage **totals** [L32-L32], parallel branch **totals** [L44-L44]');
    ux14.cited(why, 'awk-invoice');
  });

  it('tcl-rates (tcltest, freestyle): errorInfo\'s procedure and line, and no exception named `error`', async () => {
    const fix = await ux14.ask('how do I fix it?', 'tcl-rates');
    // Before: "The log names no line that raised the exception; its message [L31-L31] is all it printed".
    expect(fix).toContain("Tcl's errorInfo places it in procedure `rates::quote`, line 3 of its body [L34-L34], executing `rate_for $zone` [L33-L33]");
    expect(fix).not.toContain('names no line');
    const why = await ux14.ask('why did the build fail?', 'tcl-rates');
    // Before: "stopped on `error`, an exception the code raised".
    expect(why).toContain('stopped on an error the code raised while it ran [L31-L31]');
    ux14.cited(fix, 'tcl-rates');
    ux14.cited(why, 'tcl-rates');
  });

  it('tz-report (GitHub Actions, a step of two lines run untraced): no command named, and what the runner shows for "works on my Mac"', async () => {
    const why = await ux14.ask('why did the build fail?', 'tz-report');
    // Before: "The error came while running `python --version` [L33-L33]" (the step's first line, which passed).
    expect(why).not.toContain('while running `python --version`');
    const which = await ux14.ask('which command failed?', 'tz-report');
    expect(which).toContain("The log does not say which command failed: the step's script has several lines [L33-L35]");
    const mac = await ux14.ask('it works on my mac, why not on CI?', 'tz-report');
    expect(mac).toContain('- The system: `Image: ubuntu-22.04` [L8-L8].');
    expect(mac).toContain('`Python 3.11.7` [L38-L38]');
    expect(mac).toContain("The log prints no locale, time zone or settings of the run: I can't compare it.");
    for (const a of [why, which, mac]) ux14.cited(a, 'tz-report');
  });
});
