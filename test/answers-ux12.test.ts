/**
 * Answers a new user got on failures made on this machine (helper ux12, session 50;
 * test/fixtures/ux12/<job>: fail.log, pass.log, the commit that broke it, the project, and what a
 * senior engineer would say), each checked against what the log and the workspace say.
 */

import { fileURLToPath } from 'node:url';
import { sessionFixtures } from './helpers/sessionFixtures.js';

const { ask, cited } = sessionFixtures(fileURLToPath(new URL('./fixtures/ux12/', import.meta.url)));

describe('a declarative `parallel` block whose branches print at once, unprefixed (ux12, perl-invoice)', () => {
  it('names the failed branch\'s stage and no other branch\'s command', async () => {
    const why = await ask('why did the build fail?', 'perl-invoice');
    // Before: "It failed in stage **syntax** [L26-L26], parallel branch **unit** [L57-L57], running `perl -Ilib -c
    // bin/invoice` [L34-L34]." (the stage and the command the other branch opened last above the error).
    expect(why).toContain('The error came in stage **unit** [L24-L24], parallel branch **unit** [L57-L57].');
    expect(why).not.toContain('perl -Ilib -c');
    cited(why, 'perl-invoice');
  });

  it('"how do I fix it?" does not reproduce with the other branch\'s command', async () => {
    const fix = await ask('how do I fix it?', 'perl-invoice');
    // Before: "**Reproduce it locally:** `perl -Ilib -c bin/invoice` (the command the build ran [L34-L34])".
    expect(fix).not.toContain('perl -Ilib -c');
    expect(fix).toContain('**Reproduce it locally:** `prove -lv t/money.t` (runs `t/money.t` [L49-L49] alone)');
    cited(fix, 'perl-invoice');
  });
});

describe('a go.work module go fetched from the network at v0.0.0 (ux12, go-shipping: `go vet` in a module workspace)', () => {
  it('is not "a finding of go vet": go could not fetch a module, and v0.0.0 is the repository\'s own', async () => {
    const why = await ask('why did the build fail?', 'go-shipping');
    // Before: "`go vet` reported a finding at `rates/rates.go:7:2` [L22-L22], and the step treats findings as a failure."
    expect(why).not.toContain('reported a finding');
    expect(why).toContain('The build could not reach `proxy.golang.org` [L22-L22].');
    expect(why).toContain('go looked for `example.com/shipping/rates@v0.0.0` through its module proxy [L22-L22], and `v0.0.0` is no published version');
    expect(why).toContain('`go work use ./DIR`');
    cited(why, 'go-shipping');
  });

  it('"should I retry?" does not say "not from the network" nor promise a pass once the host answers', async () => {
    const retry = await ask('is the network down? should I retry?', 'go-shipping');
    // Before: "That kind of error comes from the code or the build's own setup, not from timing, the network or the agent".
    expect(retry).not.toContain('not from timing, the network');
    expect(retry).toContain('**Not without a change:**');
    const fix = await ask('how do I fix it?', 'go-shipping');
    expect(fix).not.toContain('settings.xml');
    expect(fix).not.toContain('the install can go through');
    cited(retry, 'go-shipping');
    cited(fix, 'go-shipping');
  });
});

describe("an OCaml backtrace whose project frame ocamlopt inlined (ux12, ocaml-stock: `Fatal error: exception Not_found`)", () => {
  it('places it at the inlined frame, stock.ml:11, and names the lookup that raised it', async () => {
    const why = await ask('why did the build fail?', 'ocaml-stock');
    // Before: "the deepest frame in the project's own code is `stock.ml:17` (in `Stock.reorder.(fun)`) [L36-L36]": the
    // frame `Called from Stock.supplier_of in file "stock.ml" (inlined), line 11` was not read.
    expect(why).toContain("the deepest frame in the project's own code is `stock.ml:11` (in `Stock.supplier_of`) [L35-L35]");
    expect(why).toContain('**In the source:** `src/stock.ml:11`');
    const fix = await ask('how do I fix it?', 'ocaml-stock');
    expect(fix).toContain("The exception came from `Hashtbl.find` [L34-L34]: it found no entry for what the project's call at `stock.ml:11` asked it for, and nothing caught the `Not_found` it raised. Call `Hashtbl.find_opt` there");
    cited(why, 'ocaml-stock');
    cited(fix, 'ocaml-stock');
  });
});

describe('"which command failed?" inside an interleaved parallel block (ux12, perl-invoice, asked on the page)', () => {
  it('says why the log cannot tell, not "the log echoes no command"', async () => {
    const answer = await ask('which command failed?', 'perl-invoice');
    // Before the fix: "The failing command was `perl -Ilib -c bin/invoice` [L34-L34]" (the other branch's); with the
    // command no longer named: "The uploaded log does not say which command failed (the log echoes no command before the error)".
    expect(answer).not.toContain('echoes no command');
    expect(answer).not.toContain('perl -Ilib -c');
    expect(answer).toContain("The log does not say which command failed: the error was printed inside a parallel block [L20-L20] whose branches ran at once and print their lines unprefixed, so the commands echoed above it may be another branch's.");
    cited(answer, 'perl-invoice');
  });
});

describe('a question about a parallel branch, not the git branch (ux12, perl-invoice)', () => {
  it('"did the syntax branch fail too?" answers from `Failed in branch`', async () => {
    const answer = await ask('did the syntax branch fail too?', 'perl-invoice');
    // Before: "The build built branch `main` at `50715cbf99d0`, according to the log [L13-L13]."
    expect(answer).not.toContain('built branch `main`');
    expect(answer).toContain('**Parallel branch `syntax` did not fail** [L22-L22]: Jenkins prints `Failed in branch NAME` for each parallel branch that failed, and this log names only `unit` [L57-L57].');
    const unit = await ask('did the unit branch fail?', 'perl-invoice');
    expect(unit).toContain('**Yes: parallel branch `unit` failed** [L21-L21]: Jenkins says `Failed in branch unit` [L57-L57].');
    cited(answer, 'perl-invoice');
    cited(unit, 'perl-invoice');
  });
});

describe('a PHP class no file declares (ux12, php-shop: PSR-4 autoloading, `Taxtable.php` for `TaxTable`)', () => {
  it('names the uncaught Error and where an autoloader looks, not "change what that line does with the values"', async () => {
    const fix = await ask('how do I fix it?', 'php-shop');
    // Before: "where the log places `Fatal error`, and change what that line does with the values it gets".
    expect(fix).not.toContain('`Fatal error`');
    expect(fix).not.toContain('with the values it gets');
    expect(fix).toContain('that line is where the program first needed `Shop\\Pricing\\TaxTable`, which no file it loaded declares [L33-L33]');
    expect(fix).toContain('looks for it in a file named after it, `TaxTable.php` and the folder of its namespace (`Shop\\Pricing`), with the same case');
    cited(fix, 'php-shop');
  });
});

describe("R's error, which names calls and no line (ux12, r-sales: `match.arg(stat)`)", () => {
  it('reads the Calls line and match.arg\'s choices, not "the program raised `error`" and "the log names no line"', async () => {
    const why = await ask('why did the build fail?', 'r-sales');
    // Before: "The program raised `error` and stopped [L22-L22]." and "The log names no line that raised `error`".
    expect(why).not.toContain('raised `error`');
    expect(why).toContain('R stopped the script on an error in `match.arg(stat)` [L22-L22].');
    expect(why).toContain('R names no file and line for this error, only the calls it was in: `main -> summarise_sales -> match.arg` [L23-L23]');
    const fix = await ask('how do I fix it?', 'r-sales');
    expect(fix).toContain('`Rscript -e \'options(keep.source = TRUE, error = function() { traceback(2); quit(status = 1) }); source("report.R")\'`');
    expect(fix).toContain('`match.arg(stat)` accepts only the choices the function\'s definition lists for `stat` (here “median”, “trimmed”), or a unique prefix of one [L22-L22], so `summarise_sales` was called with another value for `stat`. Pass one of them where it is called (from `main`)');
    cited(why, 'r-sales');
    cited(fix, 'r-sales');
  });
});

describe("the user's checkout, not the agent's paths, and the file the log does not name (ws1, session 51: php-shop, go-shipping)", () => {
  it('php-shop: every sentence that says where to look names `src/Pricing/Cart.php`; the log keeps its own path', async () => {
    const why = await ask('why did the build fail?', 'php-shop');
    const fix = await ask('how do I fix it?', 'php-shop');
    const where = await ask('which line of my code is it?', 'php-shop');
    // Before: "The log points at `/var/jenkins_home/workspace/php-shop/src/Pricing/Cart.php:28`" and "Open `/var/jenkins_home/...`".
    for (const answer of [why, fix, where]) {
      expect(answer).not.toMatch(/(?:Open|points at|is in) `\/var\/jenkins_home/);
      cited(answer, 'php-shop');
    }
    expect(why).toContain('The log points at `src/Pricing/Cart.php:28` [L33-L33].');
    expect(why).toContain('**Next step:** Open `src/Pricing/Cart.php:28`, where the log places `Error`');
    expect(fix).toContain('- Open `src/Pricing/Cart.php:28`, where the log places `Error`');
    expect(where).toContain('**The runtime exception is in `src/Pricing/Cart.php`, line 28**');
    // The quoted message stays the log's.
    expect(fix).toContain('not found in /var/jenkins_home/workspace/php-shop/src/Pricing/Cart.php:28` [L33-L33]');
  });

  it('php-shop: the class file the log does not name, whose name differs only in letter case, and the rename', async () => {
    const fix = await ask('how do I fix it?', 'php-shop');
    // Before: only where an autoloader looks; the workspace's `src/Pricing/Taxtable.php` was never read (not named by the log).
    expect(fix).toContain("The workspace has `src/Pricing/Taxtable.php` (line 6: `final class TaxTable`), whose name differs from `TaxTable.php` only in letter case: PHP's autoloader (PSR-4, composer's or the project's own) looks for the class `Shop\\Pricing\\TaxTable` in a file named after it, in the folder of its namespace, and a Linux agent's file system tells the two apart");
    // Nothing shows it was run on macOS or Windows (review rv1, session 51).
    expect(fix).not.toContain('so it works there');
    expect(fix).toContain('so it may work there');
    expect(fix).toContain('Rename it to the class\'s spelling: `git mv src/Pricing/Taxtable.php src/Pricing/TaxTable.php`');
    const why = await ask('why did the build fail?', 'php-shop');
    expect(why).toContain('**In the workspace:** The workspace has `src/Pricing/Taxtable.php`');
    cited(fix, 'php-shop');
    cited(why, 'php-shop');
  });

  it('go-shipping: the module go.work lacks is `zones`, not the `rates` go printed', async () => {
    const fix = await ask('how do I fix it?', 'go-shipping');
    // Before: "check that `go.work` `use`s ... every module of the repository ... (`go work use ./DIR`)", no module named.
    expect(fix).toContain('`zones/go.mod:1` declares the module `example.com/shipping/zones` (`module example.com/shipping/zones`), which `rates` requires, and `go.work` does not `use` its directory `zones`');
    expect(fix).toContain('That is the module to add (`go work use ./zones`), whichever module go named when it failed.');
    expect(fix).toContain("`go.work:3` is where `go.work` lists the module directories of the build's workspace: it uses `./api`, `./rates` and not `./zones`.");
    const why = await ask('why did the build fail?', 'go-shipping');
    expect(why).toContain('**In the workspace:** `zones/go.mod:1` declares the module `example.com/shipping/zones`');
    cited(fix, 'go-shipping');
    cited(why, 'go-shipping');
  });
});
