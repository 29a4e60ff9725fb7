import { describe, expect, it } from '@jest/globals';
import { analyze } from '../../test/helpers/rulesReading.js';

/**
 * Session 52 (helper t27; docs/notes/analyzer.md "Session 52 (helper t27)"): round 26's misses by mechanism, each on a
 * made-up minimal log in the tool's own words (every row read another class before the change), with counter-examples
 * that must not move.
 * 1. A compiler's verdict on what is installed: GHC's `Could not find module ‘X’` under its `file:l:c: error:` heading (no package holds the module: a dependency
 *    at medium, as Python's `No module named` is; a module of the project misspelt says the same).
 * 3. An interpreter's runtime error at the margin in words no failure list holds (t26's and loc4's leftovers, round 25):
 *    Perl's `Not a HASH reference at F line N.` (its die's `at F line N.` ending) and Tcl's `invalid command name "x"`
 *    over errorInfo's `    while executing` now open an excerpt (core/log/shapes.ts), so the runtime's own grammar
 *    (generic.ts' Perl place, uncaught.ts' Tcl report) gives the class and the place.
 * 2. A compiler's own grammar under a build driver: gfortran's `Error: ... at (1)` below its `file:l:c:` place and the
 *    source line it marks with `1` is a compile error whatever command ran gfortran (make, a script).
 */
const top = (log: string) => analyze(log)[0]?.finding;
const script = (...lines: string[]) => ['+ ./run', ...lines, 'Build step \'Execute shell\' marked build as failure', 'Finished: FAILURE', ''].join('\n');
/** A Pipeline's `sh` step and its end (`ERROR: script returned exit code 1`). */
const pipeline = (...lines: string[]) =>
  ['[Pipeline] Start of Pipeline', '[Pipeline] node', '[Pipeline] {', '[Pipeline] stage', '[Pipeline] { (Build)', '[Pipeline] sh', ...lines,
    '[Pipeline] }', '[Pipeline] // stage', '[Pipeline] }', '[Pipeline] // node', '[Pipeline] End of Pipeline', 'ERROR: script returned exit code 1', 'Finished: FAILURE', ''].join('\n');

const ROWS: [name: string, log: string, cls: string, message: string, place?: string][] = [
  ['ghc Could not find module', script('+ ghc -o build/tool app/Tool.hs', '[1 of 1] Compiling Main             ( app/Tool.hs, build/Main.o )', '',
    'app/Tool.hs:7:1: error:', '    Could not find module ‘Network.HTTP.Simple’', '    Perhaps you meant Network.URI (from network-uri-2.6.4.1)', '    Use -v (or `:set -v` in ghci) to see a list of the files searched for.', '  |', '7 | import Network.HTTP.Simple', '  | ^^^^^^^^^^^^^^^^^^^^^^^^^^'),
  'dependency-resolution', 'Could not find module ‘Network.HTTP.Simple’', 'Tool.hs:7'],
  ['gfortran under make', script('+ make', 'gfortran -O2 -c src/grid.f90 -o build/grid.o', 'src/grid.f90:12:20:', '', '   12 |   call smooth(field, 3)', '      |                    1',
    'Error: Type mismatch in argument ‘n’ at (1); passed INTEGER(4) to REAL(8)', 'make: *** [Makefile:9: build/grid.o] Error 1'), 'compile-error', 'Type mismatch in argument', 'grid.f90:12'],
  ['perl runtime error', script('+ perl bin/load.pl', 'Not an ARRAY reference at lib/Rates.pm line 22.', ...Array.from({ length: 90 }, (_, k) => `rate R-${100 + k}    ${(k * 1.07).toFixed(2)}`)), 'runtime-exception', 'Not an ARRAY reference', 'Rates.pm:22'],
  ['tclsh invalid command name', pipeline('+ tclsh bin/report.tcl', 'rows 12', 'invalid command name "fmt_total"', '    while executing', '"fmt_total $sum"', '    invoked from within', '"puts [fmt_total $sum]"', '    (file "bin/report.tcl" line 14)'),
    'runtime-exception', 'invalid command name "fmt_total"', 'report.tcl:14'],
];

describe('round 26 by mechanism (session 52, t27)', () => {
  it.each(ROWS)('%s', (_name, log, cls, message, place) => {
    const f = top(log);
    const where = f?.location ? `${f.location.file.replace(/^.*\//, '')}:${f.location.line}` : undefined;
    expect([f?.class, f?.message.includes(message), where]).toEqual([cls, true, place]);
  });

  it('a GHC type error, a runtime error, a syntax check and a failed test keep their classes', () => {
    expect(top(script('+ ghc app/Tool.hs', 'app/Tool.hs:9:12: error:', '    • Couldn\'t match expected type ‘Int’ with actual type ‘String’'))?.class).toBe('compile-error');
    // gfortran's runtime error (no `at (1)`) is no compile error.
    // Perl's syntax check (`-wc` after other flags) keeps its compile error, now that its lines open an excerpt.
    expect(top(script('+ perl -Ilib -wc lib/Rotate/Policy.pm', 'elseif should be elsif at lib/Rotate/Policy.pm line 12.', 'syntax error at lib/Rotate/Policy.pm line 12, near ") {"', 'lib/Rotate/Policy.pm had compilation errors.'))?.class).toBe('compile-error');
    // Test::More's `#   at t/x.t line 10.` under its failed test stays the test's.
    expect(top(script('+ prove t/', 'not ok 2 - totals', "#   Failed test 'totals'", '#   at t/sum.t line 10.', '#          got: 3', '#     expected: 4', 'Failed 1/2 subtests'))?.class).toBe('test-assertion');
    expect(top(script('+ ./build/heat', 'At line 14 of file src/heat.f90', "Fortran runtime error: Index '11' of dimension 1 of array 'u' above upper bound of 10"))?.class).not.toBe('compile-error');
  });
});
