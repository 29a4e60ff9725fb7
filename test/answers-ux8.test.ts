/**
 * Answers a new user got on failures made on this machine (helper ux8, session 47;
 * test/fixtures/ux8/<job>: fail.log, pass.log, the commit that broke it, the project, and what a
 * senior engineer would say), each checked against what the log and the workspace say.
 */

import { fileURLToPath } from 'node:url';
import type { CiContextUpload } from '../protocol/schemas.js';
import { analyzedChatContext } from './answerFixtures.js';
import { askLocal } from './helpers/askLocal.js';
import { sessionFixtures } from './helpers/sessionFixtures.js';

const { log, ask, cited } = sessionFixtures(fileURLToPath(new URL('./fixtures/ux8/', import.meta.url)));

describe('follow-ups a user types at 2 a.m. (ux8, sensor-buffer)', () => {
  it('"where is it?" answers where the failure is', async () => {
    const where = await ask('where is it?', 'sensor-buffer');
    // Before: "I can't answer that from the uploaded context."
    expect(where).not.toContain("I can't answer that");
    expect(where).toContain('`tests/test_ringbuf.c:27`');
    cited(where, 'sensor-buffer');
  });

  it('"should I change src/ringbuf.c?" is about the fix, not about the changes the build holds', async () => {
    const named = await ask('should I change src/ringbuf.c?', 'sensor-buffer');
    // Before: "The uploaded context does not say which changes went into the build ...".
    expect(named).not.toContain('does not say which changes went into');
    expect(named).toContain('**The code under test** (`src/ringbuf.c`');
    cited(named, 'sensor-buffer');
  });

  it('"what changed?" quotes the message of the commit the log checked out', async () => {
    const changed = await ask('what changed?', 'sensor-buffer');
    // Before: "its log shows only the commit it built, `0340b26acd91` [L11-L11]." (the message on L12 left out)
    expect(changed).toMatch(/its log shows only the commit it built, `[0-9a-f]{12}` \[L11-L11\], whose message is `ringbuf: mask instead of modulo in slot\(\)` \[L12-L12\]/);
    expect(changed).toContain('the log does not show whether it is the only one since the last green build');
    cited(changed, 'sensor-buffer');
  });
});

describe('a name the compiler cannot see (ux8)', () => {
  it("C: a function defined in another source file gets its prototype for a header, not 'import it there'", async () => {
    const fix = await ask('how do I fix it?', 'csvscan');
    // Before: "no similar name is in the source the context holds" above a clue quoting the definition, and "import it there".
    expect(fix).not.toContain('no similar name is in the source');
    expect(fix).not.toContain('import it there');
    expect(fix).toContain('**Fix:** `line_is_blank` is defined in `src/csvscan/fields.c` (line 13), but line 10 of `src/csvscan/_scan.c` cannot see it');
    expect(fix).toContain('add its prototype, `int line_is_blank(const char *line, size_t len);`, to the header');
    cited(fix, 'csvscan');
  });

  it("Rust: the method rustc's help names, not a similar name from the snippets, and a field is no import away", async () => {
    const fix = await ask('how do I fix it?', 'route-planner');
    // Before: "Similar names in the source I can see: `from_metres`" and "`metres: f64,` ... cannot see it: import it there".
    expect(fix).not.toContain('Similar names in the source I can see: `from_metres`');
    expect(fix).not.toContain('import it there');
    expect(fix).toContain('the compiler sees `as_metres` with a similar name [L31-L31]');
    expect(fix).toContain('declares `metres` (`metres: f64,`) as a field, not a method');
    cited(fix, 'route-planner');
  });
});

describe("a type argument outside a generic's constraint (ux8, metrics-agg: Go generics)", () => {
  it('names the constraint where the workspace declares it and the two ways out, not "change line 13 as the error says"', async () => {
    const fix = await ask('how do I fix it?', 'metrics-agg');
    // Before: "**Fix:** change line 13 of `cmd/report/main.go` as the error says (...), then re-run the build."
    expect(fix).not.toContain('as the error says (');
    expect(fix).toContain('uses a generic with `float64`, which its constraint `Number` (agg/agg.go line 5) does not allow');
    expect(fix).toContain('`agg/agg.go:5` declares the constraint `Number`');
    expect(fix).toContain('add `~float64` to that set');
    cited(fix, 'metrics-agg');
  });
});

describe('"what changed?" with a Jenkins record that lists no change (ux8, csvscan #2 from JENKINS_HOME)', () => {
  it('names the commit the log built, and introduces no empty list', async () => {
    const text = log('csvscan');
    const upload = { buildDetails: { number: 2, result: 'FAILURE', changes: [], previousBuild: { number: 1, result: 'SUCCESS' }, consoleLog: text } } as CiContextUpload;
    const changed = await askLocal('what changed?', analyzedChatContext(upload, text));
    // Before: "has no recorded changes** (same revision as before, or started by hand)" and "The previous build, #1,
    // passed: these are the changes since the last green build." with no change after it.
    expect(changed).not.toContain('these are the changes');
    expect(changed).not.toContain('same revision as before');
    expect(changed).toMatch(/has no recorded changes\*\* in its Jenkins record; its log shows the commit it built, `[0-9a-f]{12}` \[L11-L11\], whose message is `count_fields: a blank line has no fields` \[L12-L12\]/);
    expect(changed).toContain('The previous build, #1, passed, and the record lists no change since: the commit the log shows is the one to look at first.');
    cited(changed, 'csvscan');
  });
});

describe('is a new compile error flaky? can I ignore it? (ux8, csvscan #2 with the job history from JENKINS_HOME)', () => {
  const fresh = { fingerprint: '0123456789abcdef', window: 2, firstBuildLooked: 1, seenInLast: 1, firstSeen: 2, failingSince: 2, streak: 1, passedBetween: [], verdict: 'new', evidenceBuilds: [2], reason: 'None of the 1 earlier builds looked at failed this way.' };
  const context = () => {
    const text = log('csvscan');
    return analyzedChatContext({ buildDetails: { number: 2, result: 'FAILURE', history: fresh, consoleLog: text } } as unknown as CiContextUpload, text);
  };

  it('says a re-run will not clear a compile error, not "re-run it without changes: a pass would make it flaky"', async () => {
    const flaky = await askLocal('is this flaky?', context());
    // Before: "**Can't tell yet:** this failure is new (first seen in #2); ... Re-run it without changes: a pass would make it flaky."
    expect(flaky).not.toContain('a pass would make it flaky');
    expect(flaky).toContain('**Not without a change:** The first error is a compile error [L27-L27].');
    expect(flaky).toContain("The job's history cannot settle it yet: this failure is new (first seen in #2)");
    cited(flaky, 'csvscan');
    const ignore = await askLocal('can I ignore it?', context());
    expect(ignore).toContain('Ignoring it is safe only when the failure is noise that a re-run clears. **Not without a change:**');
    cited(ignore, 'csvscan');
  });
});

describe("node --test's child stderr is the evidence (nt1, shop-monorepo: an `exports` map refuses a deep import)", () => {
  it('the why quotes Node\'s error [L53] and the project\'s frame cart.js:2 [L62], and never says the log shows no exception', async () => {
    const why = await ask('why did it fail?', 'shop-monorepo');
    // Before: "the first real error is [L75-L75]: `test failed`" and "the log does not show an exception or a checked value for it".
    expect(why).not.toContain('the log does not show an exception');
    expect(why).toContain('the first real error is [L53-L53]: `Error [ERR_PACKAGE_PATH_NOT_EXPORTED]');
    // The checkout's path since session 51 (ws1: the agent's path mapped to the workspace the question came with).
    expect(why).toContain('`packages/web/src/cart.js:2` (in `Object.<anonymous>`) [L62-L62]');
    // Before: the source shown was the test file's line 1, `'use strict';`.
    expect(why).toContain('**In the source:** `packages/web/src/cart.js:2`');
    cited(why, 'shop-monorepo');
  });
});

describe("an `exports` map's refusal is its own remedy (lead, session 47; ux8's shop-monorepo)", () => {
  it('the fix names the package\'s exports map and the subpath, never "used without being declared or imported"', async () => {
    const fix = await ask('how do I fix it?', 'shop-monorepo');
    // Before: "`'./src/money'` is used without being declared or imported in that scope: import or declare it".
    expect(fix).not.toContain('without being declared or imported');
    expect(fix).toContain('declares an `exports` map in its `package.json` that does not list `./src/money`');
    // Before: `node --test --test-name-pattern '/var/.../test/cart.test.js' /var/.../src/cart.js`, which runs the code, not the test.
    expect(fix).toContain('**Reproduce it locally:** `node --test test/cart.test.js`');
    cited(fix, 'shop-monorepo');
  });
});
