/**
 * Answers a new user got on failures made on this machine (helper ux13, session 51;
 * test/fixtures/ux13/<job>: fail.log, pass.log, the commit that broke it, the project, and what a
 * senior engineer would say, written before asking), each checked against what the log and the workspace say;
 * and the same mechanisms on minimal made-up logs.
 */

import { fileURLToPath } from 'node:url';
import type { CiContextUpload } from '../protocol/schemas.js';
import { analyzedChatContext } from './answerFixtures.js';
import { askLocal } from './helpers/askLocal.js';
import { askWithCheckout } from './helpers/askCheckout.js';
import { sessionFixtures } from './helpers/sessionFixtures.js';
import { detectIntents } from '../backend/answer/intents.js';

const { ask, cited } = sessionFixtures(fileURLToPath(new URL('./fixtures/ux13/', import.meta.url)));
const made = (lines: string[]): Promise<string> => askWithCheckout('how do I fix it?', lines.join('\n'), {});

describe('what a runtime\'s own error words ask for (made-up logs)', () => {
  it("GHC's non-exhaustive patterns: the missing equation, and the compiler's warning for it when the log has one", async () => {
    const fix = await made(['+ ghc -Wall -c src/M.hs', '', 'src/M.hs:7:1: warning: [-Wincomplete-patterns]', '    Pattern match(es) are non-exhaustive', "    In an equation for ‘days’: Patterns not matched: C", '+ ./t', 't: src/M.hs:(7,1)-(8,12): Non-exhaustive patterns in function days', '', 'Finished: FAILURE']);
    expect(fix).toContain('no equation of `days` matches the arguments it was called with [L7-L7]');
    expect(fix).toContain('GHC said so when it compiled the module [L3-L5]');
    expect(fix).toContain('`C`');
    expect(fix).toContain('`-Werror=incomplete-patterns`');
    expect(fix).not.toContain('values it gets');
  });

  it("Lua's `number has no integer representation`: `/` gives a float; `//` or math.floor, or a float format", async () => {
    const fix = await made(['+ lua run.lua', "lua: avg.lua:3: bad argument #2 to 'format' (number has no integer representation)", 'stack traceback:', "\t[C]: in function 'string.format'", "\tavg.lua:3: in main chunk", '\t[C]: in ?', 'Finished: FAILURE']);
    expect(fix).toContain('Argument #2 of `format` (counted from the format string, argument #1) is a number with a fraction where Lua needs an integer [L2-L2]');
    expect(fix).toContain('`//`');
    expect(fix).not.toContain('values it gets');
    expect(fix).not.toContain('`error`');
  });

  it("Elixir's protocol with no implementation for a struct: a same-named function is not one; defimpl", async () => {
    const fix = await made(['  1) test renders (MailTest)', '     test/mail_test.exs:5', '     ** (Protocol.UndefinedError) protocol String.Chars not implemented for %Shop.Price{cents: 5} of type Shop.Price (a struct)', '     stacktrace:', '       (shop 0.1.0) lib/mail.ex:9: Mail.body/1', '       test/mail_test.exs:6: (test)', '', '1 test, 1 failure']);
    expect(fix).toContain('`Shop.Price` (a struct) has no implementation of it [L3-L3]');
    expect(fix).toContain('`defimpl String.Chars, for: Shop.Price do ... end`');
    expect(fix).not.toContain('@derive String.Chars');
    expect(fix).not.toContain('values it gets');
  });

  it("gfortran's list-directed read that met text: the input (a header row...), not the line's values", async () => {
    const fix = await made(['+ ./tides data.csv', 'At line 31 of file src/stations.f90', 'Fortran runtime error: Bad integer for item 1 in list input', '', 'Error termination. Backtrace:', '#6  0x55 in __stations_MOD_read_stations', '\tat src/stations.f90:31', 'make: *** [Makefile:8: check] Error 2']);
    expect(fix).toContain('wanted an integer as item 1 of the record it read, and the input held text that is not one [L3-L3]');
    expect(fix).toContain('a header row');
    expect(fix).not.toContain('values it gets');
    const why = await askWithCheckout('why did the build fail?', ['+ ./tides data.csv', 'At line 31 of file src/stations.f90', 'Fortran runtime error: Bad integer for item 1 in list input', 'make: *** [Makefile:8: check] Error 2'].join('\n'), {});
    // Before: "The program raised `an exception` and stopped" (gfortran names no exception).
    expect(why).not.toContain('`an exception`');
    // A logical is no number (review rv1, session 51).
    const logical = await made(['+ ./tides data.csv', 'At line 31 of file src/stations.f90', 'Fortran runtime error: Bad logical for item 3 in list input', 'make: *** [Makefile:8: check] Error 2']);
    expect(logical).toContain('wanted a logical as item 3');
    expect(logical).not.toContain('expects a number');
  });

  it('a log held as the last lines of a longer one says where its line numbers start', async () => {
    // The controller's tail ends with the log's last newline.
    const text = `${['ok 998 - a', 'ok 999 - b', "lua: u.lua:20: bad argument #3 to 'format' (number has no integer representation)", 'stack traceback:', "\tu.lua:20: in function 'u.summary'", 'ERROR: script returned exit code 1', 'Finished: FAILURE'].join('\n')}\n`;
    // As the controller sends a build read from JENKINS_HOME: its log's tail, no whole log.
    const tailOnly = (extra: Record<string, unknown>) => {
      const ctx = analyzedChatContext({ buildDetails: { result: 'FAILURE', consoleLogTail: text, consoleLogTruncated: true, ...extra } } as CiContextUpload, text);
      delete (ctx.ciContext.buildDetails as Record<string, unknown>)['consoleLog'];
      return ctx;
    };
    const ctx = tailOnly({});
    const why = await askLocal('why did the build fail?', ctx);
    expect(why).toContain("*Line numbers count from the first of the log's last 7 lines (what was read of this longer log), not from the top of Jenkins' console.*");
    const known = tailOnly({ consoleLogTailStartLine: 4244 });
    expect(await askLocal('why did the build fail?', known)).toContain('[L3-L3] is its line 4246.*');
  });

  it('a code name with an underscore is no environment variable; a variable in capitals or with a CI prefix is', () => {
    // Before: "but i defined to_string in Money" got "The uploaded context does not say what `TO_STRING` was".
    expect(detectIntents('but i defined to_string in Money, why doesnt it work')).not.toContain('environment');
    expect(detectIntents('what is GIT_URL?')).toContain('environment');
    expect(detectIntents('what was git_commit')).toContain('environment');
    expect(detectIntents('what is the deploy_target variable set to')).toContain('environment');
  });
});

describe('the five failures made here (ux13)', () => {
  it('parcel-rates (GHC, a failed parallel branch): the runtime error, its branch and the missing equation, not the skipped stage', async () => {
    const why = await ask('why did the build fail?', 'parcel-rates');
    // Before: "the first line that looks like an error is [L90-L90]: `Stage "Package" skipped due to earlier failure(s)`",
    // "stage **examples** [L40-L40], parallel branch **unit** [L76-L76], while running `ghc ... examples/Tracking.hs` [L80-L80]".
    expect(why).toContain('[L71-L71]: `unit-tests: src/Shipping.hs:(28,1)-(29,40): Non-exhaustive patterns in function transitDays`');
    expect(why).toContain('stage **unit** [L38-L38], parallel branch **unit** [L76-L76]');
    expect(why).not.toContain('examples/Tracking.hs');
    expect(why).not.toContain('Stage "Package" skipped');
    cited(why, 'parcel-rates');
    const fix = await ask('how do I fix it?', 'parcel-rates');
    expect(fix).toContain('GHC said so when it compiled the module [L24-L26]');
    expect(fix).toContain('`Express _`');
    cited(fix, 'parcel-rates');
  });

  it('parcel-rates: "which branch failed, unit or examples?" is no yes-or-no question, and each branch named is answered', async () => {
    const which = await ask('which branch failed, unit or examples?', 'parcel-rates');
    // Before: "**Yes: parallel branch `unit` failed**", nothing on `examples`.
    expect(which).toContain('**Parallel branch `unit` failed** [L35-L35]');
    expect(which).toContain('**Parallel branch `examples` did not fail** [L36-L36]');
    expect(which).not.toContain('Yes:');
    cited(which, 'parcel-rates');
  });

  it('tide-report (gfortran, freestyle): the header row the read met, not "change what that line does with the values it gets"', async () => {
    const fix = await ask('how do I fix it?', 'tide-report');
    expect(fix).toContain('A list-directed read (`read(unit, *) ...`) at `src/stations.f90:31` [L26-L26] wanted an integer as item 1');
    expect(fix).not.toContain('values it gets');
    expect(fix).not.toContain('values this line works on');
    cited(fix, 'tide-report');
  });

  it('invoice_mailer (Elixir, a GitHub Actions log): String.Chars and defimpl', async () => {
    const fix = await ask('how do I fix it?', 'invoice_mailer');
    expect(fix).toContain('`InvoiceMailer.Money` (a struct) has no implementation of it [L54-L54]');
    expect(fix).toContain('At `lib/invoice_mailer.ex:11`');
    expect(fix).not.toContain('values it gets');
    cited(fix, 'invoice_mailer');
  });

  it('meter-billing (Lua, 5,249 lines): the float that reached %d, at usage.lua:20', async () => {
    const why = await ask('why did the build fail?', 'meter-billing');
    // Before: "The program raised `error` and stopped".
    expect(why).toContain('The program stopped on a runtime error [L5232-L5232].');
    const fix = await ask('how do I fix it?', 'meter-billing');
    expect(fix).toContain('At `src/usage.lua:20`, make that value an integer');
    expect(fix).not.toContain('`error`');
    cited(fix, 'meter-billing');
  });

  it('label-printer (a workspace package that gained `exports`): the import, not the values of the line', async () => {
    const fix = await ask('how do I fix it?', 'label-printer');
    expect(fix).toContain("that line imports a subpath that the package's `exports` map does not list [L42-L42]");
    expect(fix).not.toContain('values it gets');
    expect(fix).not.toContain('values this line works on');
    cited(fix, 'label-printer');
  });
});
