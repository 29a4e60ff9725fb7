/**
 * Answers a new user got on failures made on this machine (helper ux9, session 48;
 * test/fixtures/ux9/<job>: fail.log, pass.log, the commit that broke it, the project, and what a
 * senior engineer would say), each checked against what the log and the workspace say.
 */

import { fileURLToPath } from 'node:url';
import { sessionFixtures } from './helpers/sessionFixtures.js';

const { ask, cited } = sessionFixtures(fileURLToPath(new URL('./fixtures/ux9/', import.meta.url)));
const ux8 = sessionFixtures(fileURLToPath(new URL('./fixtures/ux8/', import.meta.url)));

describe('pytest setup errors (ux9, orders-service: a Django fixture without `db`)', () => {
  it('counts each test once when the summary names it by its node id', async () => {
    const tests = await ask('which tests failed?', 'orders-service');
    // Before: "**The log shows 5 failing tests**", `test_place_order_keeps_subtotal` and
    // `orders/tests/test_services.py::test_place_order_keeps_subtotal` listed apart.
    expect(tests).toContain('**The log shows 4 failing tests**');
    expect(tests.split('\n').filter((line) => line.startsWith('- `') && line.includes('test_place_order_keeps_subtotal'))).toHaveLength(1);
    cited(tests, 'orders-service');
  });

  it('says a setup error stopped the test before its code ran, not "an exception the code raised while it ran"', async () => {
    const why = await ask('why did the build fail?', 'orders-service');
    expect(why).not.toContain('an exception the code raised while it ran');
    expect(why).toContain("The test `test_place_order_keeps_subtotal` [L50-L50] did not start: pytest's setup of it (its fixtures) raised `RuntimeError` [L87-L87]");
    cited(why, 'orders-service');
    const fix = await ask('how do I fix it?', 'orders-service');
    // Before: "The test did not get as far as checking a result, so fix the code (or the test's setup) ...".
    expect(fix).toContain("The error came in the test's setup [L50-L50], before its body ran: fix the fixture that raised it");
    cited(fix, 'orders-service');
  });

  it("names pytest-django's own remedy and the fixture's scope, not only \"change what that line does with the values it gets\"", async () => {
    const fix = await ask('how do I fix it?', 'orders-service');
    expect(fix).toContain('pytest-django blocks the database for code that did not ask for it [L87-L87], and the fixture `customer` [L53-L53] queried it while setting up `test_place_order_keeps_subtotal` [L50-L50]');
    expect(fix).toContain('It is `scope="module"` [L52-L52], and the `db` fixture is function-scoped');
    expect(fix).toContain('`django_db_blocker.unblock()`');
    cited(fix, 'orders-service');
  });
});

describe('a make variable that expanded to nothing (ux9, logship: `VERSION := $(RELEASE_VERSION)`, never set)', () => {
  it('reads the empty value from the echoed recipe line and names where the Makefile sets it', async () => {
    const fix = await ask('how do I fix it?', 'logship');
    // Before: only "change line 19 of `Makefile` as the error says (`dpkg-deb ...`)" and "line 7 `STAGE := build/pkg`".
    expect(fix).toContain("make ran line 18 of `Makefile`, `sed 's/@VERSION@/$(VERSION)/' packaging/control.in > $(STAGE)/DEBIAN/control`, as `sed 's/@VERSION@//' packaging/control.in > build/pkg/DEBIAN/control` [L39-L39], so `$(VERSION)` expanded to nothing.");
    expect(fix).toContain('Line 5 sets it from `$(RELEASE_VERSION)` (`VERSION := $(RELEASE_VERSION)`), and nothing in the log sets `RELEASE_VERSION`.');
    expect(fix).not.toContain('as the error says (`dpkg-deb');
    cited(fix, 'logship');
  });

  it('does not call a Makefile command "the pipeline script" nor send the user to Replay', async () => {
    for (const question of ['why did the build fail?', 'how do I fix it?']) {
      const answer = await ask(question, 'logship');
      // Before: "The CI script itself is wrong at `Makefile:19` ...: the build's commands were not the problem." and
      // "Fix the pipeline script at `Makefile:19` ...; Replay on the build's page lets you try the edit without a commit."
      expect(answer).not.toContain('pipeline script');
      expect(answer).not.toContain('Replay');
      expect(answer).not.toContain("the build's commands were not the problem");
      cited(answer, 'logship');
    }
    expect(await ask('why did the build fail?', 'logship')).toContain("A command of the build's own scripts failed at `Makefile:19`");
  });
});

describe('what a type or a declaration does not offer the line that uses it (ux9)', () => {
  it('C++: an unordered_set of a key without std::hash gets the hash to write, not only "change it so that it compiles"', async () => {
    const fix = await ask('how do I fix it?', 'tilecache');
    // Before: "open `src/index.cpp` at line 10, column 22 and change it so that it compiles" and "change line 10 ... as the error says".
    expect(fix).toContain('`tilecache::TileKey` has no `std::hash<tilecache::TileKey>` [L50-L50]');
    expect(fix).toContain("the project's line that uses it is `src/index.cpp:10` [L46-L46]");
    expect(fix).toContain('specialise `std::hash<tilecache::TileKey>` after its declaration');
    cited(fix, 'tilecache');
  });

  it("\"which line of my code is it?\" leads with the project's line, not the library header the template failed in", async () => {
    const where = await ask('which line of my code is it?', 'tilecache');
    // Before: "**The compile error is in `/usr/include/c++/12/bits/hashtable_policy.h`, line 1268, column 23**".
    expect(where).toMatch(/^\*\*The compile error is in `src\/index.cpp`, line 10, column 22\*\* \(`index.cpp:10:22`\) \[L46-L46\]/);
    cited(where, 'tilecache');
  });

  it("Kotlin: `internal` in another module, with the module the compiler's command line names", async () => {
    const fix = await ask('how do I fix it?', 'invoice-kt');
    // Before: only "open `.../Main.kt` at line 6, column 21 and change it so that it compiles" and "change line 6 ... as the error says".
    expect(fix).toContain('`roundCents` is declared `internal` in `invoice.core` [L44-L44]: `internal` is visible only inside the module that compiles it, and this file is compiled in another (`-module-name app` [L42-L42])');
    expect(fix).toContain('make `roundCents` public (drop `internal`)');
    cited(fix, 'invoice-kt');
  });

  it('"should I make roundCents public again?" is about the fix, not about `make`', async () => {
    const asked = await ask('should I make roundCents public again?', 'invoice-kt');
    // Before: "I can't answer that from the build facts, but the log mentions `make` here".
    expect(asked).not.toContain("I can't answer that");
    expect(asked).toContain('make `roundCents` public (drop `internal`)');
    cited(asked, 'invoice-kt');
  });
});

describe("a Rust doc test's panic (ux9, spanparse: the crate's own example no longer parses)", () => {
  it('places it in the doc example, not at the line number of the program rustdoc built', async () => {
    const why = await ask('why did the build fail?', 'spanparse');
    // Before: "It was raised at `src/lib.rs:6` [L57-L57]." (line 6 of the doc-test program, not of the file).
    expect(why).not.toContain('It was raised at `src/lib.rs:6`');
    expect(why).toContain('The panic is in the doc example that starts at line 3 of `src/lib.rs` (the doc test `src/lib.rs - (line 3)` [L52-L52]): `src/lib.rs:6` [L57-L57] numbers the lines of the program rustdoc builds from that example');
    cited(why, 'spanparse');
    const fix = await ask('how do I fix it?', 'spanparse');
    // Before: "Open `src/lib.rs:6` [L57-L57], where `panic` was raised" and "line 6 of `src/lib.rs` (...) is where `panic` came from".
    expect(fix).not.toContain('where `panic` was raised');
    expect(fix).not.toContain('is where `panic` came from');
    expect(fix).toContain('Read the doc example that starts at line 3 of `src/lib.rs`');
    cited(fix, 'spanparse');
  });

  it('"line 7" of a source file the question names is not the log\'s line 7', async () => {
    const asked = await ask('why does rustc say src/lib.rs:7 when line 7 is a comment?', 'spanparse');
    // Before: "Line 7 [L7-L7] reads: `[Pipeline] { (Checkout)`".
    expect(asked).not.toContain('Line 7 [L7-L7] reads');
    expect(asked).toContain('`src/lib.rs`');
    cited(asked, 'spanparse');
  });

  it('reproduces it with a command a shell can run (a doc test name has spaces and parentheses)', async () => {
    const fix = await ask('how do I fix it?', 'spanparse');
    // Before: "`cargo test src/lib.rs - (line 3) -- --exact`": a syntax error in a shell, and rustdoc splits a filter on spaces.
    expect(fix).not.toContain('cargo test src/lib.rs - (line 3)');
    expect(fix).toContain('**Reproduce it locally:** `cargo test --doc` (runs the doc tests, `src/lib.rs - (line 3)` [L52-L52] among them)');
  });
});

describe("ux8's left: a C test's own `expected 4, got 10` under ctest (sensor-buffer)", () => {
  it('reads the two values into the why and the fix', async () => {
    const why = await ux8.ask('why did the build fail?', 'sensor-buffer');
    // Before: "its check did not hold at `.../tests/test_ringbuf.c:27` [L52-L52]." and no values.
    expect(why).toContain('It expected `4` and got `10` [L52-L52].');
    ux8.cited(why, 'sensor-buffer');
    const fix = await ux8.ask('how do I fix it?', 'sensor-buffer');
    // The steps say both values and the check's place (ws1, session 51: the place as the checkout names it, no longer the
    // agent's `/var/jenkins_home/...` path), so the source block's Fix line, which said the same, is left out as repeated.
    expect(fix).toContain('- The test expects `4` and the code gave `10` [L52-L52].');
    expect(fix).toContain('(the check is at `tests/test_ringbuf.c:27`)');
    ux8.cited(fix, 'sensor-buffer');
  });
});

describe("ux8's left: route-planner's file compiled only with a feature", () => {
  it("says the module's `#[cfg(feature)]`, the reason a build without it passed", async () => {
    const fix = await ux8.ask('how do I fix it?', 'route-planner');
    // Before: nothing said that `imperial.rs` is compiled only with the feature `imperial`.
    expect(fix).toContain('`crates/geo/src/lib.rs:4` declares the module `imperial` (`pub mod imperial;`) under `#[cfg(feature = "imperial")]` (line 3): `crates/geo/src/imperial.rs` is compiled only with the feature `imperial`');
    ux8.cited(fix, 'route-planner');
  });
});
