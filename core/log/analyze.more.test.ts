/** The analyzer, part 2 (part 1: analyze.test.ts): Jenkins pipelines, line handling, cascades, size, generalisation. */
import { analyze, analyzeLines, excerptText } from './analyze.js';
import { cleanLines } from './clean.js';
import { chatter, covers, lineOf, log, top } from '../../test/helpers/logKit.js';

describe('analyze: Jenkins pipelines', () => {
  // What a failing declarative pipeline prints: the step output inside [Pipeline] lines, the
  // post actions (junit, archive, cleanup, notifications) after it, and only then
  // `ERROR: script returned exit code N` and `Finished: FAILURE`.
  test('Maven compilation error inside the failing sh step, not the post-build noise', () => {
    const lines = [
      'Started by user admin',
      'Obtained Jenkinsfile from git https://git.example.com/shop.git',
      '[Pipeline] Start of Pipeline',
      '[Pipeline] node',
      'Running on agent-2 in /var/lib/jenkins/workspace/shop_main',
      '[Pipeline] {',
      '[Pipeline] stage',
      '[Pipeline] { (Checkout)',
      '[Pipeline] checkout',
      'The recommended git tool is: NONE',
      ' > git rev-parse --resolve-git-dir /var/lib/jenkins/workspace/shop_main/.git # timeout=10',
      'Fetching changes from the remote Git repository',
      'Checking out Revision 3f2a1b (refs/remotes/origin/main)',
      '[Pipeline] }',
      '[Pipeline] // stage',
      '[Pipeline] stage',
      '[Pipeline] { (Build)',
      '[Pipeline] sh',
      '+ mvn -B -ntp clean verify',
      '[INFO] Scanning for projects...',
      '[INFO] Building shop 1.4.0-SNAPSHOT',
      '[INFO] --- maven-compiler-plugin:3.11.0:compile (default-compile) @ shop ---',
      '[INFO] Compiling 42 source files to /var/lib/jenkins/workspace/shop_main/target/classes',
      '[INFO] -------------------------------------------------------------',
      '[ERROR] COMPILATION ERROR : ',
      '[INFO] -------------------------------------------------------------',
      '[ERROR] /var/lib/jenkins/workspace/shop_main/src/main/java/shop/Cart.java:[57,21] cannot find symbol',
      '  symbol:   method totl()',
      '  location: class shop.Order',
      '[INFO] 1 error',
      '[INFO] -------------------------------------------------------------',
      '[INFO] BUILD FAILURE',
      '[INFO] -------------------------------------------------------------',
      '[INFO] Total time:  12.345 s',
      '[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.11.0:compile (default-compile) on project shop: Compilation failure',
      '[ERROR] /var/lib/jenkins/workspace/shop_main/src/main/java/shop/Cart.java:[57,21] cannot find symbol',
      '[ERROR]   symbol:   method totl()',
      '[ERROR] -> [Help 1]',
      '[Pipeline] }',
      '[Pipeline] // stage',
      '[Pipeline] stage',
      '[Pipeline] { (Deploy)',
      'Stage "Deploy" skipped due to earlier failure(s)',
      '[Pipeline] }',
      '[Pipeline] // stage',
      '[Pipeline] stage',
      '[Pipeline] { (Declarative: Post Actions)',
      '[Pipeline] junit',
      'Recording test results',
      'ERROR: Step ‘Publish JUnit test result report’ failed: No test report files were found. Configuration error?',
      '[Pipeline] archiveArtifacts',
      'Archiving artifacts',
      'WARN: No artifacts found that match the file pattern "target/*.jar". Configuration error?',
      '[Pipeline] cleanWs',
      '[WS-CLEANUP] Deleting project workspace...',
      '[WS-CLEANUP] done',
      '[Pipeline] }',
      '[Pipeline] // stage',
      '[Pipeline] }',
      '[Pipeline] // node',
      '[Pipeline] End of Pipeline',
      'ERROR: script returned exit code 1',
      'Finished: FAILURE',
    ];
    const text = log(...lines);
    const excerpts = analyze(text);
    const e = excerpts[0];
    if (e === undefined) throw new Error('no excerpt');
    expect(e.reason).toBe('Maven compilation error');
    expect(covers(e, lineOf(text, 'Cart.java:[57,21] cannot find symbol'))).toBe(true);
    expect(e.start_line).toBeGreaterThan(lineOf(text, '+ mvn -B'));
    expect(e.end_line).toBeLessThan(lineOf(text, 'BUILD FAILURE'));
    // The junit step's complaint after the failure ranks below the compiler error.
    const junit = excerpts.findIndex((x) => covers(x, lineOf(text, 'No test report files')));
    expect(junit === -1 || junit > 0).toBe(true);
  });

  test('Jest failure inside `npm test` in a sh step, before the npm ERR! cascade and post actions', () => {
    const lines = [
      'Started by an SCM change',
      '[Pipeline] Start of Pipeline',
      '[Pipeline] node',
      '[Pipeline] {',
      '[Pipeline] stage',
      '[Pipeline] { (Install)',
      '[Pipeline] sh',
      '+ npm ci',
      'added 812 packages in 14s',
      '[Pipeline] }',
      '[Pipeline] // stage',
      '[Pipeline] stage',
      '[Pipeline] { (Test)',
      '[Pipeline] sh',
      '+ npm test',
      '',
      '> web@2.0.0 test',
      '> jest --ci',
      '',
      'PASS src/utils/format.test.ts',
      'FAIL src/cart/total.test.ts',
      '  ● cart total › applies the discount',
      '',
      '    expect(received).toBe(expected) // Object.is equality',
      '',
      '    Expected: 90',
      '    Received: 100',
      '',
      '      12 |     const cart = makeCart([item(100)]);',
      '      13 |     applyDiscount(cart, 0.1);',
      '    > 14 |     expect(total(cart)).toBe(90);',
      '         |                         ^',
      '',
      '      at Object.<anonymous> (src/cart/total.test.ts:14:25)',
      '',
      'Test Suites: 1 failed, 1 passed, 2 total',
      'Tests:       1 failed, 7 passed, 8 total',
      'npm ERR! code 1',
      'npm ERR! path /var/lib/jenkins/workspace/web_main',
      'npm ERR! command failed',
      'npm ERR! command sh -c jest --ci',
      '[Pipeline] }',
      '[Pipeline] // stage',
      '[Pipeline] stage',
      '[Pipeline] { (Declarative: Post Actions)',
      '[Pipeline] junit',
      'Recording test results',
      '[Checks API] No suitable checks publisher found.',
      '[Pipeline] slackSend',
      'Slack Send Pipeline step running, values are - baseUrl: <empty>, teamDomain: acme, channel: #ci, color: danger',
      '[Pipeline] }',
      '[Pipeline] // stage',
      '[Pipeline] }',
      '[Pipeline] // node',
      '[Pipeline] End of Pipeline',
      'ERROR: script returned exit code 1',
      'Finished: FAILURE',
    ];
    const text = log(...lines);
    const excerpts = analyze(text);
    const e = excerpts[0];
    if (e === undefined) throw new Error('no excerpt');
    expect(e.reason).toBe('Jest test failure');
    expect(e.start_line).toBe(lineOf(text, 'FAIL src/cart/total.test.ts'));
    expect(covers(e, lineOf(text, 'Received: 100'))).toBe(true);
    expect(e.end_line).toBeLessThan(lineOf(text, 'Test Suites: 1 failed'));
    expect(excerpts.some((x) => covers(x, lineOf(text, 'Slack Send')))).toBe(false);
    const exit = excerpts.find((x) => x.reason === 'Jenkins: script returned exit code 1');
    expect(exit).toBeDefined();
    expect((exit?.score ?? Infinity) < e.score).toBe(true);
  });
});

describe('analyze: line handling', () => {
  test('CRLF and \\r\\r\\n line ends keep line numbers of the original', () => {
    const crlf = ['ok', 'still ok', 'fatal: repository not found', 'done'].join('\r\n') + '\r\n';
    expect(top(crlf).start_line).toBe(3);
    const travis = ['ok', 'still ok', 'fatal: repository not found', 'done'].join('\r\r\n') + '\r\r\n';
    expect(top(travis).start_line).toBe(3);
  });

  test('progress-bar \\r overwrites and ANSI codes do not hide or shift errors', () => {
    const text =
      'Receiving objects:  10%\rReceiving objects:  50%\rReceiving objects: 100%\n' +
      '\u001b[31mfatal: unable to access https://example.com/\u001b[0m\n' +
      '\u001b[8mha:////4GvH8a+base64==\u001b[0mnext line\n';
    const e = top(text);
    expect(e.start_line).toBe(2);
    expect(e.reason).toBe('git error');
  });

  test('a log without a trailing newline and an empty log', () => {
    expect(top('a\nb\nError: boom').start_line).toBe(3);
    expect(analyze('')).toEqual([]);
  });

  test('analyzeLines takes cleaned lines with the same numbering', () => {
    const text = log(...chatter(7), 'error: linker `cc` not found');
    expect(analyzeLines(cleanLines(text))).toEqual(analyze(text));
  });

  test('a log with no recognisable failure falls back to its last lines', () => {
    const text = log(...chatter(30), '', '');
    const e = top(text);
    expect(e.reason).toBe('no failure found');
    expect(e.end_line).toBe(30);
  });

  test('maxExcerpts bounds the answer and excerpts are ranked best first', () => {
    const text = log(...Array.from({ length: 12 }, (_, i) => [`step ${i}`, `fatal: failure number ${i}`, '']).flat());
    const excerpts = analyze(text, { maxExcerpts: 3 });
    expect(excerpts).toHaveLength(3);
    const scores = excerpts.map((e) => e.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(analyze(text)).toHaveLength(5);
  });
});

describe('analyze: cascades and repeats', () => {
  test('the first real error beats the same error repeated later', () => {
    const text = log(
      '$ ./build.sh',
      ...chatter(3),
      'src/a.c:1:1: error: expected identifier',
      ...chatter(3, 'compiling'),
      'src/b.c:9:2: error: expected identifier',
      '2 errors generated.',
      'make: *** [all] Error 2',
      'The command "./build.sh" exited with 2.',
    );
    expect(top(text).start_line).toBe(5);
  });

  test('consecutive errors of one kind form one excerpt', () => {
    const text = log(
      ...chatter(3),
      'Foo.cs(20,40): error CS0103: The name key does not exist',
      'Foo.cs(21,17): error CS0103: The name key does not exist',
      'Foo.cs(23,24): error CS0029: Cannot implicitly convert type',
      '    0 Warning(s)',
    );
    const e = top(text);
    expect([e.start_line, e.end_line]).toEqual([4, 6]);
  });

  test('excerptText folds runs of repeated lines', () => {
    const lines = ['start', ...Array.from({ length: 50 }, (_, i) => `retrying connection ${i}`), 'Error: gave up'];
    const text = excerptText(lines, { start_line: 1, end_line: lines.length, score: 1, reason: 'x' });
    const out = text.split('\n');
    expect(out).toEqual(['start', 'retrying connection 0', '[... 49 similar lines folded ...]', 'Error: gave up']);
  });

  test('excerptText keeps short runs and clamps to the log', () => {
    const lines = ['a', 'a', 'b'];
    expect(excerptText(lines, { start_line: 0, end_line: 9, score: 0, reason: 'x' })).toBe('a\na\nb');
  });
});

describe('analyze: size', () => {
  test('one 10 MB line is analysed and an error after it is still found', () => {
    const huge = 'x'.repeat(10 * 1024 * 1024) + ' error: at the very end of a huge line';
    const text = `${huge}\nsomething\nfatal: could not read from remote repository\n`;
    const excerpts = analyze(text);
    expect(excerpts[0]?.start_line).toBe(3);
  });

  test('40k lines with a failure in the middle', () => {
    const lines = chatter(40000, '[INFO] Downloaded');
    lines[25000] = 'Traceback (most recent call last):';
    lines.splice(25001, 0, '  File "x.py", line 1, in <module>', 'ValueError: bad value');
    const excerpts = analyze(log(...lines));
    expect(excerpts[0]).toMatchObject({ start_line: 25001, end_line: 25003, reason: 'Python traceback' });
  });
});

describe('analyze: generalisation round 2026-11', () => {
  test('R CMD check: the failed check with its verdict line and the output tail, not the later dump', () => {
    const text = log(
      '$ R CMD check mypkg_0.1.tar.gz',
      '* checking examples ... OK',
      '* checking tests ...',
      '  Running ‘testthat.R’ [4s/5s]',
      ' ERROR',
      'Running the tests in ‘tests/testthat.R’ failed.',
      'Last 6 lines of output:',
      '  sum_pair(1, 2) not equal to 4.',
      '  1/1 mismatches',
      '  [1] 3 - 4 == -1',
      '  ══ testthat results  ═══════════════════',
      '  [ OK: 41 | SKIPPED: 0 | WARNINGS: 0 | FAILED: 1 ]',
      '  Error: testthat unit tests failed',
      '* checking PDF version of manual ... OK',
      '* DONE',
      '',
      'Status: 1 ERROR',
      '$ cat mypkg.Rcheck/tests/testthat.Rout.fail',
      '> library(testthat)',
      '> test_check("mypkg")',
      '── 1. Failure: sums are right (@test-sum.R#3)  ─────────',
      'sum_pair(1, 2) not equal to 4.',
      '1/1 mismatches',
      '',
      '══ testthat results  ═══════════════════',
      '[ OK: 41 | SKIPPED: 0 | WARNINGS: 0 | FAILED: 1 ]',
      'Error: testthat unit tests failed',
      'Execution halted',
    );
    const e = top(text);
    expect(e.reason).toBe('R CMD check failure');
    expect(e.start_line).toBe(lineOf(text, '* checking tests ...'));
    expect(covers(e, lineOf(text, 'Running the tests in'))).toBe(true);
    expect(covers(e, lineOf(text, '  [1] 3 - 4 == -1'))).toBe(true);
    expect(e.end_line).toBeLessThan(lineOf(text, '* checking PDF'));
  });

  test('testthat 3 failure heading opens its block', () => {
    const text = log(
      '$ Rscript -e "devtools::test()"',
      ...chatter(5, 'loading'),
      '── Failure (test-parse.R:12:3): parse() keeps names ────────',
      'names(out) not identical to c("a", "b").',
      'Lengths differ: 1 is not 2',
      '',
      '[ FAIL 1 | WARN 0 | SKIP 0 | PASS 20 ]',
      'The command "Rscript -e \\"devtools::test()\\"" exited with 1.',
    );
    const e = top(text);
    expect(e.reason).toBe('testthat failure');
    expect(e.start_line).toBe(lineOf(text, '── Failure (test-parse.R'));
    expect(e.end_line).toBe(lineOf(text, 'Lengths differ'));
  });

  test('xcpretty: the failure summary with location and snippet outranks the ✗ marks printed during the run', () => {
    const text = log(
      '$ set -o pipefail && xcodebuild test -scheme Kit | xcpretty',
      'KitTests.ParserTests',
      '    ✓ testParsesEmpty (0.001 seconds)',
      '    ✗ testParsesNested, XCTAssertEqual failed: ("1") is not equal to ("2")',
      '    ✓ testParsesFlat (0.002 seconds)',
      '',
      '',
      'KitTests.ParserTests',
      '  testParsesNested, XCTAssertEqual failed: ("1") is not equal to ("2")',
      '  /Users/ci/Kit/Tests/ParserTests.swift:42',
      '  ```',
      '          let tree = parse("[[1]]")',
      '          XCTAssertEqual(tree.depth, 2)',
      '  ```',
      '',
      '',
      '',
      '         Executed 3 tests, with 1 failure (0 unexpected) in 0.010 (0.012) seconds',
      'The command "set -o pipefail && xcodebuild test -scheme Kit | xcpretty" exited with 65.',
    );
    const e = top(text);
    expect(e.reason).toBe('XCTest failure');
    expect(e.start_line).toBe(lineOf(text, '  testParsesNested,'));
    expect(e.end_line).toBe(lineOf(text, 'XCTAssertEqual(tree.depth') + 1);
  });

  test('a refused command-line flag is the message; the usage text after it is not', () => {
    const text = log(
      '$ ./ci/check.sh',
      ...chatter(6, 'checked file'),
      'All checks passed.',
      'flag provided but not defined: -event_file',
      'Usage of ./validator:',
      '  -event-file string',
      '    \tfile to validate',
      '  -strict',
      '    \treject unknown keys',
      'The command "./ci/check.sh" exited with 2.',
    );
    const e = top(text);
    expect(e.reason).toBe('command-line usage error');
    expect(e.start_line).toBe(lineOf(text, 'flag provided but not defined'));
    expect(e.end_line).toBe(e.start_line);
  });

  test('a Windows access violation is a crash, above earlier deprecation warnings', () => {
    const text = log(
      '$ stack build',
      'text-1.2  > src/Data/Text.hs:12:1: warning: [-Wdeprecations]',
      'text-1.2  >     In the use of: Deprecated: "use other instead"',
      ...chatter(10, 'text-1.2  > [2 of 9] Compiling Data.Text.Part'),
      'Access violation in generated code when reading 0xffffffffffffffff',
      'The command "stack build" exited with 1.',
    );
    const e = top(text);
    expect(e.reason).toBe('crash');
    expect(e.start_line).toBe(lineOf(text, 'Access violation'));
  });

  test('a reporter\'s "Module Failed: / Test Failed:" heading with its assertions outranks rake aborted', () => {
    const text = log(
      '$ bundle exec rake qunit:test',
      ...chatter(8, 'ok - widget renders'),
      'Module Failed: date-range',
      '  Test Failed: end is not before start',
      '    Assertion Failed: expected falsy, was: true',
      '      Expected: false, Actual: true',
      '',
      'Time: 3012ms, Total: 120, Passed: 119, Failed: 1',
      'rake aborted!',
      'Command failed with status (1): [node test/run.js]',
      '/app/lib/tasks/qunit.rake:92:in `block in <main>\'',
      'Tasks: TOP => qunit:test',
      'The command "bundle exec rake qunit:test" exited with 1.',
    );
    const e = top(text);
    expect(e.reason).toBe('test failure');
    expect(e.start_line).toBe(lineOf(text, 'Module Failed'));
    expect(e.end_line).toBe(lineOf(text, 'Expected: false'));
  });

  test('PHPUnit: "There were 2 failures:" heads both numbered failures, not the FAILURES! summary', () => {
    const text = log(
      '$ vendor/bin/phpunit',
      'PHPUnit 9.5.0 by Sebastian Bergmann and contributors.',
      '',
      '..F.F                                                               5 / 5 (100%)',
      '',
      'There were 2 failures:',
      '',
      '1) App\\Tests\\CartTest::testTotal',
      'Failed asserting that 9 matches expected 10.',
      '',
      '/app/tests/CartTest.php:21',
      '',
      '2) App\\Tests\\CartTest::testEmpty',
      'Failed asserting that false is true.',
      '',
      '/app/tests/CartTest.php:30',
      '',
      'FAILURES!',
      'Tests: 5, Assertions: 7, Failures: 2.',
      'The command "vendor/bin/phpunit" exited with 1.',
    );
    const e = top(text);
    expect(e.start_line).toBe(lineOf(text, '1) App'));
    expect(e.end_line).toBe(lineOf(text, 'CartTest.php:30'));
  });

  test('a YAML syntax error (Psych: "(file): problem at line N column M") is one line, above the rake cascade', () => {
    const text = log(
      '$ bundle exec rake',
      'ruby tests/front_matter.rb',
      '(./posts/2020-01-01-hello.md): mapping values are not allowed in this context at line 3 column 9',
      'Some front matter could not be parsed.',
      'Command failed with status (1): [ruby tests/front_matter.rb...]',
      'rake aborted!',
      '/app/Rakefile:12:in `block in <top (required)>\'',
      'Tasks: TOP => default',
      'The command "bundle exec rake" exited with 1.',
    );
    const e = top(text);
    expect(e.reason).toBe('YAML syntax error');
    expect(e.start_line).toBe(lineOf(text, 'mapping values'));
    expect(e.end_line).toBe(e.start_line);
  });

  test('a checker\'s closing count ("[ERROR] Found 1 error") points at the findings table above it', () => {
    const text = log(
      '$ vendor/bin/phpstan analyse src',
      ' 12/12 [============================] 100%',
      '',
      ' ------ ----------------------------------------- ',
      '  Line   src/Cart.php                              ',
      ' ------ ----------------------------------------- ',
      '  42     Method Cart::total() should return int    ',
      '         but returns string.                       ',
      ' ------ ----------------------------------------- ',
      '',
      ' [ERROR] Found 1 error                             ',
      '',
      'The command "vendor/bin/phpstan analyse src" exited with 1.',
    );
    const e = top(text);
    expect(e.reason).toBe('output before the failure');
    expect(covers(e, lineOf(text, 'should return int'))).toBe(true);
    expect(covers(e, lineOf(text, 'Found 1 error'))).toBe(false);
  });

  test('a diff printed last ("please apply the changes below") is the excerpt, whole, across a CI marker', () => {
    const text = log(
      '$ ./ci/check-generated.sh',
      'Regenerating docs...',
      'Done.',
      '',
      'PLEASE APPLY THE CHANGES BELOW:',
      'diff --git a/docs/keys.md b/docs/keys.md',
      'index 1a2b3c4..5d6e7f8 100644',
      '--- a/docs/keys.md',
      '+++ b/docs/keys.md',
      '@@ -1,4 +1,4 @@',
      ' | Key | Action |',
      '-| a   | add one     |',
      '+| a   | add one |',
      ' | d   | delete |',
      '',
      'travis_time:end:0a1b2c3d:start=1,finish=2,duration=1',
      'The command "./ci/check-generated.sh" exited with 2.',
    );
    const e = top(text);
    expect(e.reason).toBe('output before the failure');
    expect(e.start_line).toBe(lineOf(text, 'diff --git'));
    expect(e.end_line).toBe(lineOf(text, ' | d   | delete |'));
  });

  test('after a task runner\'s timestamped records, the plain line before the failure is the message', () => {
    const text = log(
      '$ yarn build-and-verify',
      "[09:15:02] Starting 'styles'...",
      "[09:15:03] Finished 'styles' after 1.1 s",
      "[09:15:03] Starting 'bundle'...",
      "[09:15:04] Finished 'bundle' after 820 ms",
      "[09:15:04] Finished 'default' after 2.3 s",
      'The generated files differ from the committed ones: run the build and commit them.',
      'error Command failed with exit code 1.',
      'The command "yarn build-and-verify" exited with 1.',
    );
    const e = top(text);
    expect(e.reason).toBe('output before the failure');
    expect(e.start_line).toBe(lineOf(text, 'The generated files differ'));
    expect(e.end_line).toBe(e.start_line);
  });

  test('TAP: "not ok N" takes back the output its test printed before the verdict', () => {
    const text = log(
      '$ make test',
      '# Starting Test: parser - numbers',
      'ok 1 parser - numbers',
      '',
      '# Starting Test: parser - strings',
      '  tests/parser.lua:40: expected "a" got "b"',
      '  stack traceback:',
      "  \t[C]: in function 'error'",
      "  \ttests/parser.lua:40: in function 'check'",
      'not ok 2 parser - strings',
      '',
      '# Starting Test: parser - lists',
      'ok 3 parser - lists',
      'The command "make test" exited with 2.',
    );
    const e = top(text);
    expect(e.reason).toBe('TAP test failure');
    expect(e.start_line).toBe(lineOf(text, '# Starting Test: parser - strings'));
    expect(e.end_line).toBe(lineOf(text, 'not ok 2'));
  });

  test('Python: a chained traceback is one report, from the first Traceback to the last exception', () => {
    const text = log(
      '$ python -m app.migrate',
      'Connecting to the database',
      'Traceback (most recent call last):',
      '  File "/app/db.py", line 10, in connect',
      '    return driver.open(url)',
      'drivers.base.ConnectError: connection refused',
      '',
      'The above exception was the direct cause of the following exception:',
      '',
      'Traceback (most recent call last):',
      '  File "/app/migrate.py", line 4, in <module>',
      '    db = connect()',
      '  File "/app/db.py", line 12, in connect',
      '    raise SetupError("no database") from e',
      'app.errors.SetupError: no database',
      'Cleaning up temporary files',
      'The command "python -m app.migrate" exited with 1.',
    );
    const e = top(text);
    expect(e.reason).toBe('Python traceback');
    expect(e.start_line).toBe(lineOf(text, 'Traceback'));
    expect(e.end_line).toBe(lineOf(text, 'app.errors.SetupError'));
  });

  test('minitest\'s numbered "  1) Failure:" block, above the rake aborted cascade', () => {
    const text = log(
      '$ bundle exec rake test',
      '# Running:',
      '',
      '..........F.....',
      '',
      'Finished in 1.204s, 13.3 runs/s, 40.1 assertions/s.',
      '',
      '  1) Failure:',
      'CartTest#test_total [/app/test/cart_test.rb:14]:',
      'Expected: 10',
      '  Actual: 9',
      '',
      '16 runs, 48 assertions, 1 failures, 0 errors, 0 skips',
      'rake aborted!',
      'Command failed with status (1): [ruby -Ilib:test ...]',
      '/app/vendor/bundle/gems/rake-12.3.3/exe/rake:27:in `<top (required)>\'',
      'Tasks: TOP => test',
      'The command "bundle exec rake test" exited with 1.',
    );
    const e = top(text);
    expect(e.reason).toBe('minitest failure');
    expect(e.start_line).toBe(lineOf(text, '1) Failure:'));
    expect(e.end_line).toBe(lineOf(text, '  Actual: 9'));
  });

  test('LaTeX: "! message" with its l.NN input line, above Emergency stop and latexmk\'s summary', () => {
    const text = log(
      '$ latexmk -pdf -interaction=nonstopmode thesis.tex',
      'This is pdfTeX, Version 3.141592653-2.6-1.40.24 (TeX Live 2022) (preloaded format=pdflatex)',
      '(./thesis.tex',
      'LaTeX2e <2022-11-01>',
      '(/usr/share/texlive/texmf-dist/tex/latex/base/report.cls',
      'Document Class: report 2022/07/02 v1.4n Standard LaTeX document class)',
      '! Undefined control sequence.',
      'l.42 \\includegrapics',
      '                     [width=5cm]{fig/plot}',
      '',
      '! Emergency stop.',
      'l.42',
      '',
      '==> Fatal error occurred, no output PDF file produced!',
      'Latexmk: Errors, so I did not complete making targets',
      'The command "latexmk -pdf -interaction=nonstopmode thesis.tex" exited with 12.',
    );
    const e = top(text);
    expect(e.reason).toBe('LaTeX error');
    expect(e.start_line).toBe(lineOf(text, '! Undefined control sequence.'));
    expect(e.end_line).toBe(lineOf(text, '[width=5cm]'));
  });

  test('EUnit: the *failed* test with its location and error, not the Failed/Passed count', () => {
    const text = log(
      '$ rebar3 eunit',
      '===> Performing EUnit tests...',
      'module \'cart_tests\'',
      '  cart_tests: total_test...ok',
      '  cart_tests: discount_test...*failed*',
      "in function cart_tests:'-discount_test/0-fun-0-'/0 (test/cart_tests.erl, line 14)",
      '**error:{assertEqual,[{module,cart_tests},{line,14},{expected,90},{value,100}]}',
      '  output:<<"">>',
      '',
      '=======================================================',
      '  Failed: 1.  Skipped: 0.  Passed: 1.',
      'The command "rebar3 eunit" exited with 1.',
    );
    const e = top(text);
    expect(e.reason).toBe('EUnit test failure');
    expect(e.start_line).toBe(lineOf(text, 'discount_test...*failed*'));
    expect(covers(e, lineOf(text, '**error:{assertEqual'))).toBe(true);
    expect(covers(e, lineOf(text, 'Failed: 1.'))).toBe(false);
  });
});
