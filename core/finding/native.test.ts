import { analyze } from '../log/analyze.js';
import type { Finding } from '../../protocol/types.js';

const top = (lines: string[]): Finding => {
  const found = analyze(lines.join('\n') + '\n')[0]?.finding;
  if (!found) throw new Error('no finding');
  return found;
};
const steps = (...out: string[]): string[] => ['Started by user ci', '+ make check', ...out, 'Build step \'Execute shell\' marked build as failure', 'Finished: FAILURE'];

describe('native tools\' own lines (rules.ts NATIVE_RULES)', () => {
  it.each([
    ['erlc', steps('erlc -o ebin src/ring.erl', 'src/ring.erl:12:5: function push/2 undefined', 'make: *** [Makefile:3: all] Error 1'), 'compile-error', 'function push/2 undefined', 'src/ring.erl', 12],
    ['OCaml', steps('ocamlc -c src/sum.ml', 'File "src/sum.ml", line 3, characters 10-14:', '3 | let n = "a" + 1', 'Error: This expression has type string but an expression was expected of type int', 'make: *** [Makefile:2: all] Error 2'), 'compile-error', 'Error: This expression has type string', 'src/sum.ml', 3],
    ['meson', steps('Run-time dependency libfoo found: NO (tried pkgconfig)', '', 'meson.build:7:0: ERROR: Dependency "libfoo" not found, tried pkgconfig', '', 'A full log can be found at /b/meson-logs/meson-log.txt'), 'dependency-resolution', 'Dependency "libfoo" not found', 'meson.build', 7],
    ['gtest', steps('[ RUN      ] Csv.SplitsQuoted', 'tests/csv_test.cc:21: Failure', 'Expected equality of these values:', '  split("a,\\"b,c\\"").size()', '    Which is: 3', '  2', '[  FAILED  ] Csv.SplitsQuoted (0 ms)', '[==========] 2 tests from 1 test suite ran. (0 ms total)', '[  PASSED  ] 1 test.', '[  FAILED  ] 1 test, listed below:', '[  FAILED  ] Csv.SplitsQuoted', '', ' 1 FAILED TEST', 'make: *** [Makefile:5: check] Error 1'), 'test-assertion', 'Expected equality of these values:', 'tests/csv_test.cc', 21],
    ['valgrind', steps('==901== Invalid write of size 4', '==901==    at 0x1091A2: fill (buf.c:17)', '==901==    by 0x109200: main (buf.c:30)', '==901== ', 'make: *** [Makefile:9: check] Error 1'), 'runtime-exception', 'Invalid write of size 4', 'buf.c', 17],
    ['tcltest', steps('==== parse-2.3 empty input FAILED', '==== Contents of test case:', '    parse {}', '---- Result was:', '1', '---- Result should have been (exact matching):', '0', '==== parse-2.3 FAILED', '', 'parse.test:\tTotal\t3\tPassed\t2\tSkipped\t0\tFailed\t1'), 'test-assertion', '==== parse-2.3 empty input FAILED', undefined, undefined],
    ['SQLite', steps('+ sqlite3 /data/x.db < load.sql', 'Runtime error near line 40: database or disk is full (13)'), 'disk-full', 'database or disk is full', undefined, undefined],
    ['git merge', steps('+ git merge --no-edit origin/release', 'Auto-merging src/app.c', 'CONFLICT (content): Merge conflict in src/app.c', 'Automatic merge failed; fix conflicts and then commit the result.'), 'ci-script', 'Merge conflict in src/app.c', undefined, undefined],
  ])('%s', (_name, lines, cls, message, file, line) => {
    const f = top(lines);
    expect(f.class).toBe(cls);
    expect(f.message).toContain(message);
    expect(f.location?.file).toBe(file);
    expect(f.location?.line).toBe(line);
  });

  it('pkg-config\'s missing package outranks the compiler error it causes', () => {
    const f = top(steps('Package libbar was not found in the pkg-config search path.', "Package 'libbar', required by 'virtual:world', not found", 'cc -o build/x src/x.c', 'src/x.c:2:10: fatal error: bar.h: No such file or directory', 'compilation terminated.', 'make: *** [Makefile:4: build/x] Error 1'));
    expect(f.class).toBe('dependency-resolution');
  });

  it('a script\'s own exit 1 is read back to what its check printed (gofmt)', () => {
    const f = top(['Started by user ci', '+ gofmt -l .', '+ out=main.go', "+ echo 'Files not gofmt'\\''ed:'", "Files not gofmt'ed:", '+ gofmt -d main.go', 'diff main.go.orig main.go', '--- main.go.orig', '+++ main.go', '@@ -4,6 +4,6 @@', ' import "fmt"', '-func main() { fmt.Println("x") }', '+func main() {', '+\tfmt.Println("x")', '+}', '+ exit 1', 'ERROR: script returned exit code 1', 'Finished: FAILURE']);
    expect(f.class).toBe('lint');
    expect(f.message).toContain("not gofmt'ed");
    expect(f.location?.file).toBe('main.go');
    expect(f.location?.line).toBe(4);
  });
});

describe('more native lines', () => {
  it('ShellCheck: the SC line, at its heading\'s file and line', () => {
    const f = top(steps('In bin/deploy.sh line 7:', 'cp $src /opt/app/', '   ^--^ SC2086 (info): Double quote to prevent globbing and word splitting.', '', 'For more information:', ' https://www.shellcheck.net/wiki/SC2086 -- Double quote to prevent globbing ...'));
    expect([f.class, f.code, f.location?.file, f.location?.line]).toEqual(['lint', 'SC2086', 'bin/deploy.sh', 7]);
    expect(f.message).toContain('SC2086 (info)');
  });

  it('gfortran: an ALLOCATE the memory limit refuses, at the program frame', () => {
    const f = top(steps('./build/grid', "In file 'src/grid.f90', around line 12: Error allocating 800000000 bytes: Cannot allocate memory", '', 'Error termination. Backtrace:', '#0  0x7f00 in ???', '#1  0x5600 in grid', '\tat src/grid.f90:11', '#2  0x5601 in main', '\tat src/grid.f90:30', 'make: *** [Makefile:6: run] Error 1'));
    expect([f.class, f.location?.file, f.location?.line]).toEqual(['out-of-memory', 'src/grid.f90', 11]);
  });

  it('erlc: the first error of the run, not the -Werror warning after it', () => {
    const f = top(steps('erlc -Werror -o ebin src/q.erl', 'src/q.erl:4:9: function pop/1 undefined', '%    4|     X = pop(Q),', '%     |         ^', '', 'src/q.erl:9:1: function peek/1 is unused', '%    9| peek(Q) ->', '%     | ^', '', 'make: *** [Makefile:3: all] Error 1'));
    expect([f.class, f.location?.file, f.location?.line]).toEqual(['compile-error', 'src/q.erl', 4]);
  });
});
