/**
 * make's `$f` in a recipe (helper ux17, session 55; issue 25; docs/notes/answer.md "Session 55 (helper ux17)"): make
 * expands `$` and one character as its own variable before the shell sees the line, so a shell loop's `$f` is empty
 * (GNU make manual, "Variables in Recipes"). Made on this machine (test/fixtures/ux17, README.md there).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { askWithCheckout } from './helpers/askCheckout.js';
import { checkCitations } from './helpers/claimChecks.js';
import { sessionFixtures } from './helpers/sessionFixtures.js';

const ux17 = sessionFixtures(fileURLToPath(new URL('./fixtures/ux17/', import.meta.url)));

describe("a recipe's `$f` that make expanded to nothing", () => {
  it('conf-install: the why is the command\'s own error, the build\'s own script, not make\'s verdict', async () => {
    const why = await ux17.ask('Why did the build fail?', 'conf-install');
    ux17.cited(why, 'conf-install');
    // Before (a Pipeline's log): "its first error line [L16-L16] only reports that a step failed, not why: `make: *** ...`".
    expect(why).toContain("the first real error is [L23-L23]: `cp: missing destination file operand after 'out/etc/'`");
    expect(why).toContain("A command of the build's own scripts failed at `Makefile:8`");
    expect(why).not.toContain('The CI script itself is wrong');
    // The senior engineer's why: make took `$f` for its own variable, as the echoed line shows.
    expect(why).toContain('Line 8 of `Makefile` has `$f` (`for f in conf/*.conf; do cp $f $(DEST)/; done`), and make echoed it as `for f in conf/*.conf; do cp  out/etc/; done` [L22-L22], so make expanded `$f` as its own variable `f` (empty) before the shell ran the line');
  });

  it("the why says nothing of `$f` for make's automatic `$^` nor for `$$f`", async () => {
    for (const job of ['tarball', 'conf-copy-escaped']) expect(await ux17.ask('Why did the build fail?', job)).not.toContain('as its own variable');
  });

  it('conf-install: the fix quotes both lines and says to write `$$f`', async () => {
    const fix = await ux17.ask('How do I fix it?', 'conf-install');
    ux17.cited(fix, 'conf-install');
    // Before: only "**Fix:** change line 8 of `Makefile` as the error says (`for f in ...`)".
    expect(fix).toContain('make ran line 8 of `Makefile`, `for f in conf/*.conf; do cp $f $(DEST)/; done`, as `for f in conf/*.conf; do cp  out/etc/; done` [L22-L22], so `$f` expanded to nothing before the shell saw the line.');
    expect(fix).toContain('(GNU make manual, "Variables in Recipes")');
    expect(fix).toContain('The line sets the shell\'s variable `f` itself (`for f in`), so write `$$f`: `for f in conf/*.conf; do cp $$f $(DEST)/; done`.');
    expect(fix).not.toContain('as the error says (`for f in');
    // Before: "Fix the `cp` command the CI script runs (or the file it reads its settings from) at `Makefile:8` as the message says".
    expect(fix).toContain('`cp` ran without a word its command line needs [L23-L23]: a word of the line expanded to nothing (an empty variable, a glob that matched no file) or is missing.');
    expect(fix).toContain("with the recipe line at `Makefile:8`, and give that word its value.");
    expect(fix).not.toContain('the CI script runs');
  });

  it("under `bash -xe` (no make, no checkout): the usage error's step, the script's words", async () => {
    const log = readFileSync(fileURLToPath(new URL('./fixtures/grammar/bash-mkdir-missing-operand.log', import.meta.url)), 'utf8');
    const fix = await askWithCheckout('How do I fix it?', log, {});
    expect(checkCitations(fix, log.split('\n'))).toEqual([]);
    expect(fix).toContain('`mkdir` ran without a word its command line needs');
    expect(fix).not.toContain('recipe');
  });

  it('pkg-release: `$i` in a loop of `mv`', async () => {
    const fix = await ux17.ask('How do I fix it?', 'pkg-release');
    ux17.cited(fix, 'pkg-release');
    expect(fix).toContain('`$i` expanded to nothing before the shell saw the line.');
    expect(fix).toContain('`for i in *.tar.gz; do mv $$i $(ARCHIVE)/; done`');
  });

  it("tarball: make's automatic `$^`, empty by make's own meaning, is not called a shell variable", async () => {
    const fix = await ux17.ask('How do I fix it?', 'tarball');
    ux17.cited(fix, 'tarball');
    expect(fix).not.toContain('$$');
    expect(fix).not.toContain('for its own variable');
  });

  it('conf-copy-escaped: `$$f`, written right, is left alone', async () => {
    const fix = await ux17.ask('How do I fix it?', 'conf-copy-escaped');
    ux17.cited(fix, 'conf-copy-escaped');
    expect(fix).not.toContain('for its own variable');
    expect(fix).not.toContain('$$$f');
  });

  it('without the Makefile: what the echoed loop shows, said as a sign, not as the Makefile\'s line', async () => {
    const fix = await askWithCheckout('How do I fix it?', ux17.log('conf-install'), {});
    expect(checkCitations(fix, ux17.log('conf-install').split('\n'))).toEqual([]);
    expect(fix).toContain("`cp: missing destination file operand after 'out/etc/'`");
    expect(fix).toContain('make echoed the recipe line as `for f in conf/*.conf; do cp  out/etc/; done` [L22-L22]; the loop sets `f` and nothing in it uses it.');
    expect(fix).toContain("I do not have the Makefile's line to confirm it: if it has `$f`, write `$$f` there");
    expect(fix).not.toContain('make ran line');
  });

  it('without the Makefile, a loop that uses its variable says nothing of it', async () => {
    const fix = await askWithCheckout('How do I fix it?', ux17.log('conf-copy-escaped'), {});
    expect(fix).not.toContain('$$f');
    expect(fix).not.toContain("The loop's variable");
  });
});
