/**
 * Answers a new user got on failures made on this machine (helper ux8, session 47;
 * test/fixtures/ux8/<job>: fail.log, pass.log, the commit that broke it, the project, and what a
 * senior engineer would say), each checked against what the log and the workspace say.
 */

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { askWithCheckout } from './helpers/askCheckout.js';
import { checkCitations } from './helpers/claimChecks.js';

const root = fileURLToPath(new URL('./fixtures/ux8/', import.meta.url));
const log = (job: string): string => readFileSync(path.join(root, job, 'fail.log'), 'utf8');

/** The job's project as checked out (path -> content), as `cichat ask --workspace DIR` reads it. */
function project(job: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else files[path.relative(path.join(root, job, 'project'), full)] = readFileSync(full, 'utf8');
    }
  };
  walk(path.join(root, job, 'project'));
  return files;
}

const ask = (question: string, job: string): Promise<string> => askWithCheckout(question, log(job), project(job));
const cited = (answer: string, job: string): void => expect(checkCitations(answer, log(job).split('\n'))).toEqual([]);

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
