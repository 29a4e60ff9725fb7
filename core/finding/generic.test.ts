/**
 * Findings of tool formats met on one case and made general (issue 25, round 3's tuning): each
 * test is a small log in the tool's real format, not a copy of a fixture.
 */
import { analyze } from '../../test/helpers/rulesReading.js';
import type { Finding } from '../../protocol/types.js';

const top = (text: string): Finding => {
  const found = analyze(text)[0]?.finding;
  if (!found) throw new Error('no finding');
  return found;
};

describe('test names and runners', () => {
  it("names a JUnit 5 test whose method takes parameters (`Cls.method(Path) -- Time elapsed ... <<< ERROR!`)", () => {
    const log = [
      '+ mvn -B test',
      '[INFO] Running dev.x.ImporterTest',
      '[ERROR] Tests run: 1, Failures: 0, Errors: 1, Skipped: 0, Time elapsed: 10.1 s <<< FAILURE! -- in dev.x.ImporterTest',
      '[ERROR] dev.x.ImporterTest.readsRows(Path, int) -- Time elapsed: 10.06 s <<< ERROR!',
      'java.lang.IllegalStateException: no rows',
      '\tat dev.x.Importer.read(Importer.java:19)',
      '\tat dev.x.ImporterTest.readsRows(ImporterTest.java:17)',
      '',
      '[INFO] BUILD FAILURE',
    ].join('\n');
    expect(top(log)).toMatchObject({ class: 'test-error', test: { name: 'dev.x.ImporterTest.readsRows' } });
  });

  it('names the test a runner had started when the process ran out of memory (surefire `Running X`)', () => {
    const log = [
      '+ mvn -B test',
      '[INFO] Running org.x.DoneTest',
      '[INFO] Tests run: 2, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.1 s -- in org.x.DoneTest',
      '[INFO] Running org.x.TotalsTest',
      'Exception in thread "main" java.lang.OutOfMemoryError: Java heap space',
      '\tat java.base/java.util.Arrays.copyOf(Arrays.java:3537)',
      '[INFO] BUILD FAILURE',
    ].join('\n');
    expect(top(log)).toMatchObject({ class: 'out-of-memory', test: { name: 'org.x.TotalsTest' } });
  });

  it('names no running test when the runner closed it before the failure', () => {
    const log = ['+ mvn -B test', '[INFO] Running org.x.DoneTest', '[INFO] Tests run: 2, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.1 s -- in org.x.DoneTest', 'Exception in thread "main" java.lang.OutOfMemoryError: Java heap space', '\tat java.base/java.util.Arrays.copyOf(Arrays.java:3537)', '[INFO] BUILD FAILURE'].join('\n');
    expect(top(log).test).toBeUndefined();
  });
});

describe('npm', () => {
  it('npm 10 prints `Missing script:` with a capital: a CI-script error, ranked over an npm warning', () => {
    const log = ['+ npm run lint', 'npm warn Unknown user config "nodedir". This will stop working in the next major version of npm.', 'npm error Missing script: "lint"', 'npm error', 'npm error To see a list of scripts, run:', 'npm error   npm run', '##[error]Process completed with exit code 1.'].join('\n');
    expect(top(log)).toMatchObject({ class: 'ci-script', tool: 'npm', message: 'npm error Missing script: "lint"' });
  });
});

describe('generic places and the command that ran (generic.ts)', () => {
  it('a compiler no rule knows: `file:line:col: message` under its command is a compile error at that place', () => {
    const log = ['+ erlc -o ebin src/limit.erl', "src/limit.erl:5:51: variable 'Burst' is unbound", "%    5| allow(C, L) when C < L + Burst -> true;", 'Build step \'Execute shell\' marked build as failure', 'Finished: FAILURE'].join('\n');
    expect(top(log)).toMatchObject({ class: 'compile-error', tool: 'erlc', location: { file: 'src/limit.erl', line: 5, column: 51 } });
  });

  it("a program-prefixed place (`luac: f.lua:7: ...`) is found behind Jenkins' pipeline lines", () => {
    const log = ['[Pipeline] sh', '+ luac -p lua/router.lua', "luac: lua/router.lua:7: 'end' expected (to close 'if' at line 5) near 'if'", '[Pipeline] }', '[Pipeline] // stage', '[Pipeline] }', '[Pipeline] // node', '[Pipeline] End of Pipeline', 'ERROR: script returned exit code 1', 'Finished: FAILURE'].join('\n');
    expect(top(log)).toMatchObject({ class: 'compile-error', location: { file: 'lua/router.lua', line: 7 } });
  });

  it('an interpreter running a script: its `prog: file:line: message` is a runtime error there', () => {
    const log = ['+ lua scripts/report.lua', "lua: scripts/report.lua:12: attempt to perform arithmetic on a nil value (field 'total')", 'stack traceback:', '\t[C]: in ?', 'Build step \'Execute shell\' marked build as failure', 'Finished: FAILURE'].join('\n');
    expect(top(log)).toMatchObject({ class: 'runtime-exception', location: { file: 'scripts/report.lua', line: 12 } });
  });

  it('a bare place above its `Error:` (gfortran) and below a bundler\'s error (esbuild)', () => {
    const fortran = ['+ gfortran -o build/heat src/heat.f90', 'src/heat.f90:10:53:', '', '   10 |     u(i) = u(i) + (u(i-1)', '      |                     1', 'Error: Expected a right parenthesis in expression at (1)', '##[error]Process completed with exit code 1.'].join('\n');
    expect(top(fortran)).toMatchObject({ class: 'compile-error', tool: 'gfortran', message: 'Error: Expected a right parenthesis in expression at (1)', location: { file: 'src/heat.f90', line: 10 } });
    const bundler = ['+ esbuild src/index.ts --bundle', '✘ [ERROR] Could not resolve "./money"', '', '    src/index.ts:1:28:', "      1 │ import { x } from './money';", '', '1 error', '##[error]Process completed with exit code 1.'].join('\n');
    expect(top(bundler)).toMatchObject({ class: 'compile-error', tool: 'esbuild', location: { file: 'src/index.ts', line: 1, column: 28 } });
  });

  it('a runtime error with its place (UBSan) is a runtime exception, not a compile error', () => {
    const log = ['+ make check', 'cc -fsanitize=undefined -o build/c src/c.c', './build/c', "src/c.c:6:50: runtime error: signed integer overflow: 94094958 * 31 cannot be represented in type 'int'", 'make: *** [Makefile:8: check] Error 1', '##[error]Process completed with exit code 2.'].join('\n');
    expect(top(log)).toMatchObject({ class: 'runtime-exception', location: { file: 'src/c.c', line: 6, column: 50 } });
  });

  it('a place under an unknown command keeps the class unknown (no evidence of one), with the place', () => {
    const log = ['+ ./tools/check-docs', 'docs/guide.md:14: broken link to #setup', '##[error]Process completed with exit code 1.'].join('\n');
    expect(top(log)).toMatchObject({ class: 'unknown', location: { file: 'docs/guide.md', line: 14 } });
  });

  it('`exit status 1` at a place says only that something failed: no runtime exception', () => {
    const log = ['+ go run build/ci.go test', 'util.go:45: exit status 1', '##[error]Process completed with exit code 1.'].join('\n');
    expect(top(log).class).toBe('unknown');
  });
});

describe('TAP diagnostics', () => {
  it("Test::More's `Failed test` printed before the harness's verdict: an assertion at `at t/x.t line N`", () => {
    const log = ['+ prove -v t/', '', "#   Failed test 'pre-release first'", '#   at t/compare.t line 10.', "#          got: '1'", "#     expected: '-1'", '# Looks like you failed 1 test of 4.', 't/compare.t .. ', '1..4', 'ok 1 - patch', 'ok 2 - major', 'ok 3 - equal', 'not ok 4 - pre-release first', 'Dubious, test returned 1 (wstat 256, 0x100)', 'Result: FAIL', 'Build step \'Execute shell\' marked build as failure'].join('\n');
    expect(top(log)).toMatchObject({ class: 'test-assertion', message: "#   Failed test 'pre-release first'", location: { file: 't/compare.t', line: 10 }, test: { name: 'pre-release first' } });
  });

  it("bats' failed check after its verdict: the first failing test, at its file and line", () => {
    const log = ['+ bats test', '1..2', 'not ok 1 greets by default', '# (in test file test/greet.bats, line 6)', '#   `[ "$output" = "Hello, there" ]\' failed', 'not ok 2 greets by name', '# (in test file test/greet.bats, line 12)', '#   `[ "$output" = "Hello, Ann" ]\' failed', 'Build step \'Execute shell\' marked build as failure'].join('\n');
    expect(top(log)).toMatchObject({ class: 'test-assertion', location: { file: 'test/greet.bats', line: 6 }, test: { name: 'greets by default' } });
  });
});

describe('more runtimes', () => {
  it("Ruby's uncaught exception (`x.rb:7:in 'm': msg (NoMethodError)`) is raised at that line", () => {
    const log = ['+ ruby script/notes.rb', "script/notes.rb:7:in `title_of': undefined method `lines' for nil:NilClass (NoMethodError)", '', '  section.lines.first.strip', '         ^^^^^^', "\tfrom script/notes.rb:11:in `<main>'", 'Build step \'Execute shell\' marked build as failure', 'Finished: FAILURE'].join('\n');
    expect(top(log)).toMatchObject({ class: 'runtime-exception', exception: 'NoMethodError', location: { file: 'script/notes.rb', line: 7 } });
  });

  it("Go's race detector: the test it failed, at the racing access of its report", () => {
    const log = [
      '+ go test -race ./...',
      '==================',
      'WARNING: DATA RACE',
      'Read at 0x00c0000b2158 by goroutine 8:',
      '  example.com/hits.Count.func1()',
      '      /ws/hits.go:13 +0x74',
      '',
      'Previous write at 0x00c0000b2158 by goroutine 57:',
      '  example.com/hits.Count.func1()',
      '      /ws/hits.go:13 +0x86',
      '==================',
      '--- FAIL: TestCount (0.00s)',
      '    testing.go:1319: race detected during execution of test',
      'FAIL',
      'FAIL\texample.com/hits\t0.012s',
      '##[error]Process completed with exit code 1.',
    ].join('\n');
    expect(top(log)).toMatchObject({ class: 'test-error', message: 'WARNING: DATA RACE', location: { file: '/ws/hits.go', line: 13 }, test: { name: 'TestCount' } });
  });

  it("Ant's `[javac]` task prefix is set aside: javac's error at its place", () => {
    const log = ['+ ant jar', 'compile:', '    [javac] Compiling 2 source files to /ws/build/classes', '    [javac] /ws/src/org/m/Report.java:6: error: incompatible types: possible lossy conversion from double to long', '    [javac]         long median = Stats.median(ms);', '    [javac] 1 error', '', 'BUILD FAILED', '/ws/build.xml:4: Compile failed; see the compiler error output for details.', 'Build step \'Execute shell\' marked build as failure'].join('\n');
    expect(top(log)).toMatchObject({ class: 'compile-error', tool: 'javac', location: { file: '/ws/src/org/m/Report.java', line: 6 } });
  });

  it('pylint: `x.py:13:8: W0612: ...` is a lint finding; configure: error naming a library is a dependency', () => {
    expect(top(['+ pylint queue', '************* Module queue.bounded', "queue/bounded.py:13:8: W0612: Unused variable 'dropped' (unused-variable)", '', 'Your code has been rated at 9.09/10', '##[error]Process completed with exit code 4.'].join('\n'))).toMatchObject({ class: 'lint', tool: 'pylint', code: 'W0612', location: { file: 'queue/bounded.py', line: 13 } });
    expect(top(['+ ./configure', 'checking for library containing git_libgit2_init... no', 'configure: error: libgit2 not found: install libgit2-dev', 'Build step \'Execute shell\' marked build as failure'].join('\n'))).toMatchObject({ class: 'dependency-resolution', tool: 'configure' });
  });
});

describe('the CI script calling a tool wrongly, or a silent check', () => {
  it("a tool refusing the script's option (argparse, getopt, Go's flag package) is a CI-script error", () => {
    expect(top(['+ python3 tools/release.py --dry 1.4.0', 'usage: release.py [-h] [--preview] version', 'release.py: error: unrecognized arguments: --dry', '##[error]Process completed with exit code 2.'].join('\n'))).toMatchObject({ class: 'ci-script', message: 'release.py: error: unrecognized arguments: --dry' });
    expect(top(['+ ./bin/gen -outdir build', 'flag provided but not defined: -outdir', 'Usage of ./bin/gen:', '  -out string', '##[error]Process completed with exit code 2.'].join('\n'))).toMatchObject({ class: 'ci-script' });
  });

  it('a traced check that printed nothing before the step failed (`+ test -s dist/x.js`) is the message, a CI-script error', () => {
    const log = ['[Pipeline] sh', '+ ./build.sh', '+ test -s dist/bundle.js', '[Pipeline] }', '[Pipeline] // stage', '[Pipeline] }', '[Pipeline] // node', '[Pipeline] End of Pipeline', 'ERROR: script returned exit code 1', 'Finished: FAILURE'].join('\n');
    expect(top(log)).toMatchObject({ class: 'ci-script', message: 'test -s dist/bundle.js' });
  });

  it("Perl's `die ... at file line N.` and Tcl's error over its trace are runtime errors of the script", () => {
    expect(top(['+ perl scripts/hosts.pl', "Can't open config/hosts.ini: No such file or directory at scripts/hosts.pl line 6.", "Build step 'Execute shell' marked build as failure"].join('\n'))).toMatchObject({ class: 'runtime-exception', location: { file: 'scripts/hosts.pl', line: 6 } });
    const tcl = ['+ tclsh tools/version.tcl', 'can\'t read "build": no such variable', '    while executing', '"return "$major.$minor+$build""', '    (procedure "version" line 2)', '    invoked from within', '"version $major $minor"', '    (file "tools/version.tcl" line 6)', '##[error]Process completed with exit code 1.'].join('\n');
    expect(top(tcl)).toMatchObject({ class: 'runtime-exception', message: 'can\'t read "build": no such variable', location: { file: 'tools/version.tcl', line: 6 } });
  });
});

describe('what a script reports is not its own error', () => {
  it("a checker script's `file:line: message` about other files stays unknown (with the place); Perl's die in a module is the runtime's", () => {
    expect(top(['+ python3 tools/check_headers.py', 'src/app.py:1: missing license header', 'src/db.py:1: missing license header', '##[error]Process completed with exit code 1.'].join('\n'))).toMatchObject({ class: 'unknown', location: { file: 'src/app.py', line: 1 } });
    expect(top(['+ perl bin/deploy.pl', 'Missing host list at lib/Deploy.pm line 12.', "Build step 'Execute shell' marked build as failure"].join('\n'))).toMatchObject({ class: 'runtime-exception', location: { file: 'lib/Deploy.pm', line: 12 } });
  });
});

describe('more place forms and test programs', () => {
  it("gfortran's runtime error names its place on the line above (`At line N of file f`)", () => {
    const log = ['+ ./build/heat', 'At line 10 of file src/heat.f90', "Fortran runtime error: Index '11' of dimension 1 of array 'u' above upper bound of 10", '', 'Error termination. Backtrace:', '##[error]Process completed with exit code 2.'].join('\n');
    expect(top(log)).toMatchObject({ class: 'runtime-exception', location: { file: 'src/heat.f90', line: 10 } });
  });

  it("Terraform's `on main.tf line 12` gives the place, and no class without evidence of one", () => {
    const log = ['+ terraform validate', '╷', '│ Error: Unsupported argument', '│', '│   on main.tf line 12, in resource "aws_s3_bucket" "logs":', '│   12:   acl2 = "private"', '╵', '##[error]Process completed with exit code 1.'].join('\n');
    expect(top(log)).toMatchObject({ class: 'unknown', location: { file: 'main.tf', line: 12 } });
  });

  it('a test program run by path (`./build/tests`) is a test runner: its failed check at a place is an assertion', () => {
    const log = ['+ ./build/tests', 'tests/ring.cpp:14: FAILED:', '  REQUIRE( ring.size() == 4 )', 'with expansion:', '  3 == 4', '', 'test cases: 3 | 2 passed | 1 failed', '##[error]Process completed with exit code 1.'].join('\n');
    expect(top(log)).toMatchObject({ class: 'test-assertion', location: { file: 'tests/ring.cpp', line: 14 } });
  });
});

describe('a process killed by signal 9 and Sass places', () => {
  it("the linker killed by signal 9 (`collect2: fatal error: ld terminated with signal 9 [Killed]`) is out of memory", () => {
    expect(top(['+ make -j8', '[ 98%] Linking CXX executable app', 'collect2: fatal error: ld terminated with signal 9 [Killed]', 'compilation terminated.', 'make[2]: *** [CMakeFiles/app.dir/build.make:97: app] Error 1', '##[error]Process completed with exit code 2.'].join('\n'))).toMatchObject({ class: 'out-of-memory', exception: 'killed' });
  });

  it('the linker killed by signal 7 (a bus error: its mmap-ed output on a full volume) is disk-full, in any build tool', () => {
    // cargo's linker note (cargo-target-dir-tmpfs-full's shape, a made-up crate), then make's.
    const cargo = ['+ cargo build', '   Compiling shop v0.1.0 (/ws/shop)', 'error: linking with `cc` failed: exit status: 1', '  |', '  = note:  "cc" "-m64" "-fuse-ld=lld" "-o" "/scratch/target/debug/deps/shop-1"', '          collect2: fatal error: ld terminated with signal 7 [Bus error]', '          compilation terminated.', '', 'error: could not compile `shop` (bin "shop") due to 1 previous error'];
    expect(top(cargo.join('\n'))).toMatchObject({ class: 'disk-full', confidence: 'medium', exception: 'SIGBUS', message: 'collect2: fatal error: ld terminated with signal 7 [Bus error]' });
    const make = ['+ make', 'cc -fuse-ld=gold -o /tmp/out/app main.o', 'collect2: fatal error: ld.gold terminated with signal 7 [Bus error]', 'compilation terminated.', 'make: *** [Makefile:4: /tmp/out/app] Error 1'];
    expect(top(make.join('\n'))).toMatchObject({ class: 'disk-full', exception: 'SIGBUS' });
    // The compiler's own bus error is no linker writing its output: not read as a full disk.
    const cc1 = ['+ make', 'g++ -c big.cpp', "g++: internal compiler error: Bus error signal terminated program cc1plus", 'make: *** [Makefile:4: big.o] Error 1'];
    expect(top(cc1.join('\n')).class).not.toBe('disk-full');
  });

  it("Sass's `on line N of file` is the place of its error", () => {
    expect(top(['+ npx gulp sass', 'Error: Undefined variable: "$divider-color".', '        on line 98 of sass/components/dropdown.sass', '>>   background-color: $divider-color', '##[error]Process completed with exit code 1.'].join('\n'))).toMatchObject({ location: { file: 'sass/components/dropdown.sass', line: 98 } });
  });
});

describe('a silent check fed by a formatter', () => {
  it('`test -z "$(gofmt -l .)"` failing is a lint finding of gofmt, not a CI-script error', () => {
    expect(top(['++ gofmt -l .', '+ test -z limits.go', '##[error]Process completed with exit code 1.'].join('\n'))).toMatchObject({ class: 'lint', tool: 'gofmt', message: 'test -z limits.go' });
  });
});

describe('resolvers, runners and bundlers of more ecosystems', () => {
  it('Bundler, Composer and Perl name the gem, package or module they cannot provide: dependency resolution', () => {
    expect(top(['+ bundle exec rake', "Could not find gem 'rake (~> 13.0)' in locally installed gems.", '', 'Run `bundle install` to install missing gems.', "Build step 'Execute shell' marked build as failure"].join('\n'))).toMatchObject({ class: 'dependency-resolution', tool: 'bundler', dependency: 'rake' });
    expect(top(['+ composer install', 'Your requirements could not be resolved to an installable set of packages.', '', '  Problem 1', '    - Root composer.json requires acme/money ^3.0, found acme/money[1.0.0, 2.1.0] but it does not match the constraint.', '##[error]Process completed with exit code 2.'].join('\n'))).toMatchObject({ class: 'dependency-resolution', tool: 'composer' });
    expect(top(['+ perl bin/report.pl', "Can't locate JSON/XS.pm in @INC (you may need to install the JSON::XS module) (@INC contains: /etc/perl /usr/share/perl5) at bin/report.pl line 4.", 'BEGIN failed--compilation aborted at bin/report.pl line 4.', "Build step 'Execute shell' marked build as failure"].join('\n'))).toMatchObject({ class: 'dependency-resolution', tool: 'perl', dependency: 'JSON::XS' });
  });

  it("Perl's syntax error (`syntax error at f line N, near ...`) is a compile error at that line", () => {
    expect(top(['+ perl -c lib/Report.pm', 'syntax error at lib/Report.pm line 12, near "}"', 'lib/Report.pm had compilation errors.', "Build step 'Execute shell' marked build as failure"].join('\n'))).toMatchObject({ class: 'compile-error', location: { file: 'lib/Report.pm', line: 12 } });
  });

  it("the `groovy` runner's `Caught:` is a script's runtime error at its frame, not a Jenkins pipeline error", () => {
    const log = ['+ groovy scripts/bump.groovy', 'Caught: groovy.lang.MissingPropertyException: No such property: groupId for class: bump', 'groovy.lang.MissingPropertyException: No such property: groupId for class: bump', '\tat bump.run(bump.groovy:5)', "Build step 'Execute shell' marked build as failure"].join('\n');
    expect(top(log)).toMatchObject({ class: 'runtime-exception', tool: 'groovy', location: { file: 'bump.groovy', line: 5 } });
  });

  it("webpack's `ERROR in ./src/x.js 3:0-32` is the place of the module it could not resolve", () => {
    const log = ['+ npx webpack --mode production', 'ERROR in ./src/index.js 1:0-40', "Module not found: Error: Can't resolve './money' in '/ws/src'", '', 'webpack 5.90.0 compiled with 1 error in 231 ms', '##[error]Process completed with exit code 1.'].join('\n');
    expect(top(log)).toMatchObject({ class: 'compile-error', location: { file: './src/index.js', line: 1 } });
  });

  it("Ant's JUnit task names the test case of a failed assertion", () => {
    const log = ['+ ant test', 'test:', '    [junit] Testsuite: com.acme.CartTest', '    [junit] Tests run: 2, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.02 sec', '    [junit] Testcase: totalWithTax took 0.004 sec', '    [junit] \tFAILED', '    [junit] expected:<12> but was:<11>', '    [junit] junit.framework.AssertionFailedError: expected:<12> but was:<11>', '    [junit] \tat com.acme.CartTest.totalWithTax(CartTest.java:21)', '    [junit] Test com.acme.CartTest FAILED', '', 'BUILD FAILED', "Build step 'Execute shell' marked build as failure"].join('\n');
    expect(top(log)).toMatchObject({ class: 'test-assertion', location: { file: 'com/acme/CartTest.java', line: 21 } });
  });
});

describe('the command far above a long output', () => {
  it('a compiler run 70 lines above its error still names the kind of tool', () => {
    const log = ['+ erlc -o ebin src/*.erl', ...Array.from({ length: 70 }, (_, i) => `compiling module m${i}`), "src/limit.erl:5:51: variable 'Burst' is unbound", "Build step 'Execute shell' marked build as failure"].join('\n');
    expect(top(log)).toMatchObject({ class: 'compile-error', location: { file: 'src/limit.erl', line: 5 } });
  });
});

describe("configure's errors", () => {
  it('a missing library is a dependency; missing auxiliary files of the build system are not', () => {
    expect(top(['+ ./configure', 'configure: error: libgit2 not found: install libgit2-dev', "Build step 'Execute shell' marked build as failure"].join('\n')).class).toBe('dependency-resolution');
    expect(top(['+ ./configure', 'configure: error: cannot find required auxiliary files: install-sh config.guess', "Build step 'Execute shell' marked build as failure"].join('\n')).class).not.toBe('dependency-resolution');
  });
});

describe('the message of an unknown failure', () => {
  it('is not a warning, whatever words the warning holds', () => {
    const log = ['+ ./scripts/release', 'WARNING: GPG key not found, signing skipped', 'release: the changelog has no entry for 2.4.1', '##[error]Process completed with exit code 3.'].join('\n');
    expect(top(log).message).not.toMatch(/^WARNING/);
  });
});

describe("old GNU make's recipe line", () => {
  it("`Makefile:6: recipe for target 'deploy' failed` (make 4.1) is the place of a failed recipe command", () => {
    const log = ['+ make deploy', 'scp build/app.tar.gz deploy@10.0.0.5:/srv', 'ssh: connect to host 10.0.0.5 port 22: Connection refused', 'lost connection', "Makefile:6: recipe for target 'deploy' failed", 'make: *** [deploy] Error 1', "Build step 'Execute shell' marked build as failure"].join('\n');
    expect(top(log)).toMatchObject({ class: 'network' });
    const unknown = ['+ make check', './tools/verify --strict', 'verify: 3 files differ from the manifest', "Makefile:9: recipe for target 'check' failed", 'make: *** [check] Error 1', "Build step 'Execute shell' marked build as failure"].join('\n');
    expect(top(unknown)).toMatchObject({ location: { file: 'Makefile', line: 9 } });
  });
});

describe('a syntax error at a line of the file the command was given (session 53, cl2)', () => {
  it('reads coffee\'s `file:line:col: error: unexpected indentation` under `coffee -c -o lib src` as a compile error', () => {
    const log = [
      '+ node_modules/.bin/coffee -c -o lib src',
      '/tmp/ws/shop/src/shipping.coffee:12:1: error: unexpected indentation',
      '    rate = 4',
      '^^^^',
      'Build step \'Execute shell\' marked build as failure',
    ].join('\n');
    expect(top(log)).toMatchObject({ class: 'compile-error', location: { file: '/tmp/ws/shop/src/shipping.coffee', line: 12 } });
  });

  it('reads a template compiler\'s `ParseError: file:line:col` over its `unexpected "}"` as a compile error (stylus\'s form)', () => {
    const log = [
      '+ npx lessish themes/main.tpl --out build',
      '/ci/node_modules/lessish/bin/lessish:84',
      '      throw err;',
      '      ^',
      '',
      'ParseError: themes/main.tpl:9:1',
      '    8|   }}',
      '    9| .title',
      '-------^',
      '',
      'unexpected "}"',
      '',
      '    at Parser.error (/ci/node_modules/lessish/lib/parser.js:252:11)',
    ].join('\n');
    expect(top(log)).toMatchObject({ class: 'compile-error', location: { file: 'themes/main.tpl', line: 9 } });
  });

  it('leaves unknown a syntax error in a file the command did not name', () => {
    const log = ['+ ./tools/confcheck conf/site.conf', 'other/main.conf:5: syntax error: unexpected token \'}\'', '##[error]Process completed with exit code 1.'].join('\n');
    expect(top(log).class).toBe('unknown');
  });
});
