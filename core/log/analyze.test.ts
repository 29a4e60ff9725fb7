import { analyze } from './analyze.js';
import { chatter, covers, lineOf, log, top } from '../../test/helpers/logKit.js';

describe('analyze: ecosystems', () => {
  test('Maven compilation error', () => {
    const text = log(
      ...chatter(20),
      '[INFO] Compiling 12 source files to /w/target/classes',
      '[ERROR] COMPILATION ERROR : ',
      '[ERROR] /w/src/main/java/App.java:[12,5] cannot find symbol',
      '  symbol:   class Foo',
      '[INFO] 1 error',
      '[INFO] BUILD FAILURE',
      '[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.8.1:compile',
    );
    const e = top(text);
    expect(e.reason).toBe('Maven compilation error');
    expect(covers(e, lineOf(text, 'App.java:[12,5]'))).toBe(true);
    expect(covers(e, lineOf(text, 'Failed to execute goal'))).toBe(false);
  });

  test('Gradle: the failing test before "What went wrong"', () => {
    const text = log(
      ...chatter(10),
      'com.example.CalcTest > adds FAILED',
      '    java.lang.AssertionError: expected:<3> but was:<4>',
      '        at org.junit.Assert.fail(Assert.java:88)',
      '',
      '12 tests completed, 1 failed',
      '',
      'FAILURE: Build failed with an exception.',
      '',
      '* What went wrong:',
      "Execution failed for task ':test'.",
      '> There were failing tests.',
    );
    const e = top(text);
    expect(e.start_line).toBe(lineOf(text, 'CalcTest > adds FAILED'));
    expect(e.end_line).toBe(lineOf(text, 'Assert.java:88'));
    expect(e.reason).toBe('Gradle test failure');
  });

  test('npm: the error before the npm ERR! cascade', () => {
    const text = log(
      '$ npm test',
      ...chatter(5),
      '/w/src/index.js:3',
      'const x = ;',
      '          ^',
      '',
      'SyntaxError: Unexpected token ;',
      '    at Module._compile (module.js:549:28)',
      '    at Object.Module._extensions..js (module.js:586:10)',
      'npm ERR! code ELIFECYCLE',
      'npm ERR! errno 1',
      'npm ERR! Test failed.  See above for more details.',
      '',
      'The command "npm test" exited with 1.',
    );
    const e = top(text);
    expect(e.start_line).toBe(lineOf(text, '/w/src/index.js:3'));
    expect(e.end_line).toBe(lineOf(text, 'module.js:586'));
    expect(e.reason).toBe('SyntaxError');
  });

  test('Jest failure with its assertion', () => {
    const text = log(
      '$ yarn test',
      ' PASS  test/a.test.js',
      ' FAIL  test/b.test.js',
      '  ● sums › adds two numbers',
      '',
      '    expect(received).toBe(expected)',
      '',
      '    Expected: 3',
      '    Received: 4',
      '',
      'Tests:       1 failed, 4 passed, 5 total',
      'error Command failed with exit code 1.',
    );
    const e = top(text);
    expect(e.reason).toBe('Jest test failure');
    expect(e.start_line).toBe(lineOf(text, 'FAIL  test/b.test.js'));
    expect(covers(e, lineOf(text, 'Received: 4'))).toBe(true);
    expect(covers(e, lineOf(text, 'Tests:'))).toBe(false);
  });

  test('Mocha: the numbered failures after "N failing", up to the cascade', () => {
    const text = log(
      '$ npm test',
      '  12 passing (2s)',
      '  2 failing',
      '',
      '  1) parser',
      '       parses numbers:',
      '     AssertionError: expected 1 to equal 2',
      '      at Context.<anonymous> (test/parser.js:10:20)',
      '',
      '  2) parser',
      '       parses strings:',
      '     AssertionError: expected a to equal b',
      '',
      'npm ERR! Test failed.  See above for more details.',
    );
    const e = top(text);
    expect(e.start_line).toBe(lineOf(text, '1) parser'));
    expect(e.end_line).toBe(lineOf(text, 'expected a to equal b'));
  });

  test('pytest: the first failure item, not the short summary', () => {
    const text = log(
      '$ pytest',
      'tests/test_a.py ..F.                                                [100%]',
      '',
      '=================================== FAILURES ===================================',
      '_________________________________ test_divide __________________________________',
      '',
      '    def test_divide():',
      '>       assert divide(1, 0) == 0',
      'E       ZeroDivisionError: division by zero',
      '',
      'tests/test_a.py:7: ZeroDivisionError',
      '=========================== short test summary info ============================',
      'FAILED tests/test_a.py::test_divide - ZeroDivisionError: division by zero',
      '========================= 1 failed, 3 passed in 0.12s ==========================',
    );
    const e = top(text);
    expect(e.reason).toBe('pytest failure');
    expect(e.start_line).toBe(lineOf(text, '_ test_divide _'));
    expect(e.end_line).toBe(lineOf(text, 'tests/test_a.py:7: ZeroDivisionError'));
  });

  test('Go test failure and Go panic', () => {
    const failing = log(
      '=== RUN   TestSum',
      '--- FAIL: TestSum (0.00s)',
      '    sum_test.go:12: got 4, want 3',
      'FAIL',
      'FAIL\texample.com/sum\t0.003s',
    );
    const e = top(failing);
    expect(e.reason).toBe('Go test failure');
    expect([e.start_line, e.end_line]).toEqual([2, 3]);

    const panicking = log(...chatter(3), 'panic: runtime error: index out of range [3] with length 3', '', 'goroutine 1 [running]:', 'main.main()', '\t/w/main.go:8 +0x1d', 'exit status 2');
    const p = top(panicking);
    expect(p.reason).toBe('Go panic');
    expect(p.start_line).toBe(4);
  });

  test('cargo / rustc error with its source excerpt', () => {
    const text = log(
      '   Compiling demo v0.1.0 (/w)',
      'error[E0425]: cannot find value `y` in this scope',
      ' --> src/main.rs:3:13',
      '  |',
      '3 |     let x = y + 1;',
      '  |             ^ not found in this scope',
      '',
      'error: aborting due to previous error',
      'error: could not compile `demo`.',
    );
    const e = top(text);
    expect(e.reason).toBe('Rust compiler error');
    expect([e.start_line, e.end_line]).toEqual([2, 6]);
  });

  test('gcc error with its include chain, before make: ***', () => {
    const text = log(
      'gcc -c main.c -o main.o',
      'In file included from main.c:3:0:',
      'util.h:4:1: error: unknown type name ‘sizet’',
      ' sizet length(const char *s);',
      ' ^',
      'make: *** [main.o] Error 1',
    );
    const e = top(text);
    expect(e.reason).toBe('C/C++ compiler error');
    expect([e.start_line, e.end_line]).toEqual([2, 5]);
  });

  test('Python traceback ends with its exception line', () => {
    const text = log(
      '$ python setup.py test',
      'Traceback (most recent call last):',
      '  File "setup.py", line 4, in <module>',
      '    import numpy',
      "ModuleNotFoundError: No module named 'numpy'",
      'The command "python setup.py test" exited with 1.',
    );
    const e = top(text);
    expect(e.reason).toBe('Python traceback');
    expect([e.start_line, e.end_line]).toEqual([2, 5]);
  });

  test('Java stack trace keeps its Caused by chain', () => {
    const text = log(
      ...chatter(4),
      'Exception in thread "main" java.lang.IllegalStateException: boot failed',
      '\tat com.example.App.start(App.java:10)',
      '\tat com.example.App.main(App.java:4)',
      'Caused by: java.io.FileNotFoundException: config.yml',
      '\tat java.io.FileInputStream.open(Native Method)',
      '\t... 2 more',
      'Process finished',
    );
    const e = top(text);
    expect(e.reason).toBe('Java exception');
    expect(e.start_line).toBe(5);
    expect(e.end_line).toBe(10);
  });

  test('Docker build: the failing step output, not only the daemon summary', () => {
    const text = log(
      'Step 4/7 : RUN apt-get install -y libfoo',
      ' ---> Running in 1b2c3d',
      'E: Unable to locate package libfoo',
      "The command '/bin/sh -c apt-get install -y libfoo' returned a non-zero code: 100",
    );
    const e = top(text);
    expect(e.start_line).toBe(3);
    expect(e.reason).toBe('apt error');
  });

  test('shell: command not found inside the failing Travis command', () => {
    const text = log(
      '$ ./ci/setup.sh',
      'setting up',
      'The command "./ci/setup.sh" exited with 0.',
      '$ ./ci/build.sh',
      './ci/build.sh: line 3: shellcheck: command not found',
      'The command "./ci/build.sh" exited with 127.',
      '',
      'Done. Your build exited with 1.',
    );
    const e = top(text);
    expect(e.reason).toBe('shell: command not found');
    expect([e.start_line, e.end_line]).toEqual([5, 5]);
  });

  test('errors printed by a command that succeeded rank below the failing command', () => {
    const text = log(
      '$ ./lint.sh',
      'ERROR: style issue in a.js (ignored)',
      'The command "./lint.sh" exited with 0.',
      '$ ./test.sh',
      'Error: connection refused to db:5432',
      'The command "./test.sh" exited with 1.',
    );
    expect(top(text).start_line).toBe(5);
  });

  test('GitHub Actions ##[error] annotation', () => {
    const text = log(
      '##[group]Run ./build.sh',
      'building',
      '##[endgroup]',
      '##[error]The job exceeded the cache quota',
      '##[error]Process completed with exit code 1.',
    );
    const e = top(text);
    expect(e.start_line).toBe(4);
    expect(e.reason).toBe('GitHub Actions error');
  });

  test('Jenkins pipeline: WorkflowScript error and the failing sh step', () => {
    const script = log(
      'Started by user admin',
      'org.codehaus.groovy.control.MultipleCompilationErrorsException: startup failed:',
      'WorkflowScript: 12: Expected a step @ line 12, column 9.',
      '           sh "make',
      '           ^',
      '',
      '1 error',
      'Finished: FAILURE',
    );
    const e = top(script);
    expect(e.reason).toBe('Jenkins pipeline script error');
    expect(covers(e, 3)).toBe(true);

    const step = log(
      '[Pipeline] stage',
      '[Pipeline] { (Test)',
      '[Pipeline] sh',
      '+ ./run-tests.sh',
      'tests: 10 run, 0 passed',
      'all tests skipped: no database',
      '[Pipeline] }',
      '[Pipeline] // stage',
      'ERROR: script returned exit code 3',
      'Finished: FAILURE',
    );
    const excerpts = analyze(step);
    expect(excerpts.some((x) => x.reason === 'Jenkins: script returned exit code 3')).toBe(true);
    expect(excerpts.some((x) => covers(x, 6))).toBe(true);
  });
});

describe('analyze: extents', () => {
  test('a status-column failure stops at the next passing test', () => {
    const text = log(
      '$ make test',
      'core/open-file                                    PASS',
      'core/save-file                                    FAIL',
      'core/undo                                         PASS',
      'core/redo                                         PASS',
      'Tests ok 2/3',
      'make: *** [test] Error 1',
      'The command "make test" exited with 2.',
    );
    const e = top(text);
    expect(e.start_line).toBe(3);
    expect(e.end_line).toBe(3);
  });

  test('prove: the test name, its Dubious verdict and subtests, not the next ok tests', () => {
    const text = log(
      '$ make prove',
      '[12:45:01] t0001-init.sh ........................ ok    1200 ms ( 0.01 usr  0.00 sys +  0.50 cusr  0.20 csys =  0.71 CPU)',
      '[12:45:05] t9806-options.sh .................... ',
      'Dubious, test returned 1 (wstat 256, 0x100)',
      'Failed 1/5 subtests ',
      '[12:45:09] t9814-rename.sh ..................... ok    1300 ms ( 0.01 usr  0.00 sys +  0.50 cusr  0.20 csys =  0.71 CPU)',
      '[12:45:12] t9900-last.sh ....................... ok    1000 ms ( 0.01 usr  0.00 sys +  0.50 cusr  0.20 csys =  0.71 CPU)',
      'The command "make prove" exited with 2.',
    );
    const e = top(text);
    expect([e.start_line, e.end_line]).toEqual([3, 5]);
  });

  test('quoted source that ends in `:ok` is not a passing test', () => {
    const text = log(
      '$ mix test',
      '  1) test catches throws (MyApp.ThrowTest)',
      '     test/throw_test.exs:12',
      '     Assertion with == failed',
      '     code:  assert (catch_throw do',
      '              :ok',
      '            end) == :hello',
      '     left:  :ok',
      '     right: :hello',
      '',
      'Finished in 0.1 seconds',
      '3 tests, 1 failure',
      'The command "mix test" exited with 2.',
    );
    const e = top(text);
    expect(e.start_line).toBe(2);
    expect(e.end_line).toBe(9);
  });
});

describe('analyze: test reporters', () => {
  test('minitest Failure: block up to its blank line, not the rake aborted cascade', () => {
    const text = log(
      '$ bundle exec rake test',
      'Run options: --seed 1234',
      '..........F.....',
      '',
      'Failure:',
      'TestMarkdown#test_highlighter [/w/test/test_markdown.rb:42]:',
      'Minitest::Assertion: Expected true to not be truthy.',
      '',
      'Finished in 1.2s, 100 runs/s.',
      '120 runs, 300 assertions, 1 failures, 0 errors, 0 skips',
      'rake aborted!',
      'Command failed with status (1): [ruby -w -I"lib:test" ...]',
      '/w/vendor/bundle/gems/rake-12.3.2/exe/rake:27:in `<top (required)>\'',
      'Tasks: TOP => test',
      '(See full trace by running task with --trace)',
      'The command "bundle exec rake test" exited with 1.',
    );
    const e = top(text);
    expect(e.reason).toBe('minitest failure');
    expect([e.start_line, e.end_line]).toEqual([5, 7]);
  });

  test('PHPUnit failure keeps its whole expected/actual diff (`+ ` lines are not shell traces)', () => {
    const text = log(
      '$ vendor/bin/phpunit',
      'There was 1 failure:',
      '',
      '1) App\\Test\\SolverTest::testUnsatisfiable',
      'Failed asserting that two strings are equal.',
      '--- Expected',
      '+++ Actual',
      '@@ @@',
      "  - It's a private package",
      "+ - It's a private package you forgot to authenticate",
      '',
      '/w/tests/SolverTest.php:717',
      '',
      'FAILURES!',
      'Tests: 10, Assertions: 20, Failures: 1.',
      'The command "vendor/bin/phpunit" exited with 1.',
    );
    const e = top(text);
    expect(e.start_line).toBe(4);
    expect(e.end_line).toBe(12);
  });
});

describe('analyze: nested and multi-part shapes', () => {
  test('CMake Error keeps its message and its Call Stack', () => {
    const text = log(
      '$ cmake ..',
      '-- Found Boost 1.54.0',
      'CMake Error at /usr/share/cmake-3.2/Modules/FindPackageHandleStandardArgs.cmake:138 (message):',
      '  Could NOT find Halide (missing: HALIDE_LIBRARIES HALIDE_INCLUDE_DIR)',
      'Call Stack (most recent call first):',
      '  /usr/share/cmake-3.2/Modules/FindPackageHandleStandardArgs.cmake:374 (_FPHSA_FAILURE_MESSAGE)',
      '  cmake/Modules/FindHalide.cmake:38 (find_package_handle_standard_args)',
      '  CMakeLists.txt:46 (include)',
      '',
      '',
      '-- Configuring incomplete, errors occurred!',
      'The command "cmake .." exited with 1.',
    );
    const e = top(text);
    expect(e.reason).toBe('CMake error');
    expect([e.start_line, e.end_line]).toEqual([3, 8]);
  });

  test('Go: the failing subtest with its messages, not the parent listing its subtests', () => {
    const text = log(
      '$ go test ./...',
      '--- FAIL: TestAlpha (0.02s)',
      '    --- PASS: TestAlpha/Actors (0.00s)',
      '    --- PASS: TestAlpha/Books (0.00s)',
      '    --- FAIL: TestAlpha/Meetups (0.00s)',
      "        repo_test.go:131: expected 'auckland' but actual is 'baltimore'",
      "        repo_test.go:131: expected 'baltimore' but actual is 'bangalore'",
      '    --- PASS: TestAlpha/Tools (0.00s)',
      'FAIL',
      'FAIL\tgithub.com/x/list\t0.031s',
      'The command "go test ./..." exited with 1.',
    );
    const e = top(text);
    expect([e.start_line, e.end_line]).toEqual([5, 7]);
  });
});

describe('analyze: linter reports', () => {
  test('ESLint stylish report: every file paragraph up to the problem count', () => {
    const text = log(
      '$ npm run lint',
      "> eslint '.'",
      '',
      '/w/gulp-tasks/css.js',
      '  12:2  error  Unnecessary semicolon  no-extra-semi',
      '',
      '/w/gulp-tasks/images.js',
      '  16:2  error  Unnecessary semicolon  no-extra-semi',
      '',
      '✖ 2 problems (2 errors, 0 warnings)',
      'The command "npm run lint" exited with 1.',
    );
    const e = top(text);
    expect([e.start_line, e.end_line]).toEqual([4, 8]);
  });

  test('stylelint findings aligned on their line numbers form one block', () => {
    const text = log(
      '$ stylelint normalize.css',
      '',
      'normalize.css',
      '  49:11  ✖  Expected a leading zero   number-leading-zero',
      ' 188:12  ✖  Expected a leading zero   number-leading-zero',
      ' 312:24  ✖  Expected a leading zero   number-leading-zero',
      '',
      'npm ERR! Test failed.  See above for more details.',
      'The command "stylelint normalize.css" exited with 1.',
    );
    const e = top(text);
    expect([e.start_line, e.end_line]).toEqual([3, 6]);
  });
});

describe('analyze: shapes without a failure word', () => {
  test('RuboCop offense with its source line and caret', () => {
    const text = log(
      '$ bundle exec rubocop',
      'Inspecting 3173 files',
      '....C....',
      '',
      'Offenses:',
      '',
      'db/migrate/20190731_rename.rb:1:1: C: Style/FrozenStringLiteralComment: Missing magic comment.',
      'class RenameSetting < ActiveRecord::Migration[5.2]',
      '^',
      '',
      '3173 files inspected, 1 offense detected',
      'The command "bundle exec rubocop" exited with 1.',
    );
    const e = top(text);
    expect(e.reason).toBe('RuboCop offense');
    expect([e.start_line, e.end_line]).toEqual([7, 9]);
  });

  test('Rust test failure heading `---- name stdout ----` opens its block', () => {
    const text = log(
      '$ cargo test',
      'running 2 tests',
      'test parses ... FAILED',
      '',
      'failures:',
      '',
      '---- parses stdout ----',
      "thread 'parses' panicked at 'assertion failed: ok', src/lib.rs:9:5",
      'note: Run with `RUST_BACKTRACE=1` for a backtrace.',
      '',
      'test result: FAILED. 1 passed; 1 failed',
      'The command "cargo test" exited with 101.',
    );
    const e = top(text);
    expect(e.start_line).toBe(7);
    expect(covers(e, 8)).toBe(true);
  });
});
