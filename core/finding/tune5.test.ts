import { describe, expect, it } from '@jest/globals';
import { analyze } from '../../test/helpers/rulesReading.js';
import type { Finding } from '../../protocol/types.js';

/**
 * The tune5 cases' misses (issue 25; docs/notes/analyzer.md, "Eighth session (helper t10)"), each form on
 * a made-up log of another project, with a counter-example.
 */
const top = (text: string): Finding | undefined => analyze(text)[0]?.finding;

describe("go vet type-checks first: its `vet: file:line:col:` error is the compiler's", () => {
  it('a package that does not compile under go vet is a compile error', () => {
    const log = [
      '+ go vet ./...',
      '# example.com/ledger/cmd/post',
      'vet: cmd/post/main.go:27:14: undefined: ledger.PostEntry',
      "Build step 'Execute shell' marked build as failure",
    ].join('\n');
    const f = top(log);
    expect([f?.class, f?.location?.file, f?.location?.line]).toEqual(['compile-error', 'cmd/post/main.go', 27]);
  });

  it('counter-example: a vet finding stays lint', () => {
    const log = [
      '+ go vet ./...',
      '# example.com/ledger/cmd/post',
      'cmd/post/main.go:31:3: fmt.Printf format %d has arg name of wrong type string',
      "Build step 'Execute shell' marked build as failure",
    ].join('\n');
    expect(top(log)?.class).toBe('lint');
  });
});

describe('go test -v prints a test\'s message under `=== RUN` and above its `--- FAIL:`', () => {
  const passing = Array.from({ length: 30 }, (_, n) => [`=== RUN   TestRound/${n}`, `--- PASS: TestRound/${n} (0.00s)`]).flat();

  it('the `x_test.go:N:` line above the verdict is the message and the place', () => {
    const log = [
      '+ go test -v -count=1 ./...',
      '=== RUN   TestRound',
      ...passing,
      '--- PASS: TestRound (0.00s)',
      '=== RUN   TestSplit',
      '    money_test.go:41: Split(100, 3) = [33 33 33], want [34 33 33]',
      '--- FAIL: TestSplit (0.00s)',
      'FAIL',
      'FAIL\texample.com/money\t0.011s',
    ].join('\n');
    const f = top(log);
    expect([f?.class, f?.location?.file, f?.location?.line, f?.test?.name]).toEqual(['test-assertion', 'money_test.go', 41, 'TestSplit']);
    expect(f?.message).toContain('want [34 33 33]');
  });

  it("counter-example: another test's output above its own verdict is not this test's message", () => {
    const log = [
      '+ go test -v -count=1 ./...',
      '=== RUN   TestRound',
      '    money_test.go:12: rounding 2.5 with banker\'s rounding, want 2',
      '--- PASS: TestRound (0.00s)',
      '=== RUN   TestSplit',
      '--- FAIL: TestSplit (0.00s)',
      'FAIL',
      'FAIL\texample.com/money\t0.011s',
    ].join('\n');
    const f = top(log);
    expect(f?.message).not.toContain('rounding 2.5');
    expect(f?.location?.line).not.toBe(12);
  });
});

describe("pytest --tb=line names the raise site with the exception's words", () => {
  it('the `path:N: Exception: words` line just below the failure is the place', () => {
    const log = [
      '+ python -m pytest -q --tb=line tests',
      '.F..                                                                     [100%]',
      '=================================== FAILURES ===================================',
      "E   AssertionError: assert 'b-c' == 'b_c'",
      '      - b_c',
      '      + b-c',
      '/ci/ws/tests/test_names.py:22: AssertionError: assert \'b-c\' == \'b_c\'',
      '=========================== short test summary info ============================',
      "FAILED tests/test_names.py::test_underscore - AssertionError: assert 'b-c' == 'b_c'",
      '1 failed, 3 passed in 0.21s',
    ].join('\n');
    const f = top(log);
    expect([f?.class, f?.location?.file, f?.location?.line]).toEqual(['test-assertion', '/ci/ws/tests/test_names.py', 22]);
  });

  it("counter-example: Python's own warning line is no place", () => {
    const log = [
      '+ python tools/report.py',
      '/ci/ws/tools/report.py:4: DeprecationWarning: the imp module is deprecated',
      '  import imp',
      'Traceback (most recent call last):',
      '  File "/ci/ws/tools/report.py", line 19, in <module>',
      '    main()',
      '  File "/ci/ws/tools/report.py", line 15, in main',
      "    rows = load(path)['rows']",
      "KeyError: 'rows'",
    ].join('\n');
    const f = top(log);
    expect([f?.class, f?.location?.line]).toEqual(['runtime-exception', 15]);
  });
});

describe("the second tune5 batch's forms", () => {
  it("Hamcrest's assertThat: the `Expected:` line under the wordless AssertionError is the message, the test's frame the place", () => {
    const log = [
      '+ mvn -o -B test',
      '[INFO] --- maven-surefire-plugin:3.2.5:test (default-test) @ shop ---',
      '[INFO] Running io.shop.CartTest',
      '[ERROR] Tests run: 3, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.2 s <<< FAILURE! -- in io.shop.CartTest',
      '[ERROR] io.shop.CartTest.totalsTheLines -- Time elapsed: 0.03 s <<< FAILURE!',
      'java.lang.AssertionError: ',
      '',
      'Expected: is <42>',
      '     but: was <40>',
      '\tat org.hamcrest.MatcherAssert.assertThat(MatcherAssert.java:20)',
      '\tat org.hamcrest.MatcherAssert.assertThat(MatcherAssert.java:8)',
      '\tat io.shop.CartTest.totalsTheLines(CartTest.java:27)',
      '',
      '[INFO] Results:',
      '[ERROR] Failures: ',
      '[ERROR] Tests run: 3, Failures: 1, Errors: 0, Skipped: 0',
      '[INFO] BUILD FAILURE',
    ].join('\n');
    const f = top(log);
    expect([f?.class, f?.message, f?.location?.line]).toEqual(['test-assertion', 'Expected: is <42>', 27]);
  });

  it('counter-example: an exception with its own words keeps them', () => {
    const log = [
      '+ mvn -o -B test',
      '[INFO] --- maven-surefire-plugin:3.2.5:test (default-test) @ shop ---',
      '[INFO] Running io.shop.CartTest',
      '[ERROR] Tests run: 3, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.2 s <<< FAILURE! -- in io.shop.CartTest',
      '[ERROR] io.shop.CartTest.totalsTheLines -- Time elapsed: 0.03 s <<< FAILURE!',
      'java.lang.AssertionError: expected:<42> but was:<40>',
      '\tat org.junit.Assert.fail(Assert.java:89)',
      '\tat io.shop.CartTest.totalsTheLines(CartTest.java:27)',
      '',
      '[INFO] Results:',
      '[ERROR] Failures: ',
      '[ERROR] Tests run: 3, Failures: 1, Errors: 0, Skipped: 0',
      '[INFO] BUILD FAILURE',
    ].join('\n');
    expect(top(log)?.message).toBe('java.lang.AssertionError: expected:<42> but was:<40>');
  });

  it("pytest's chained exceptions: an AssertionError last in the chain is an assertion", () => {
    const log = [
      '+ python -m pytest tests',
      '_______________________________ test_bad_port ________________________________',
      '',
      '>           raise PortError("no port configured")',
      'E           app.conf.PortError: no port configured',
      '',
      'app/conf.py:7: PortError',
      '',
      'During handling of the above exception, another exception occurred:',
      '',
      '    def test_bad_port():',
      '>       with pytest.raises(PortError, match="missing port"):',
      'E       AssertionError: Regex pattern did not match.',
      "E         Expected regex: 'missing port'",
      "E         Actual message: 'no port configured'",
      '',
      'tests/test_conf.py:9: AssertionError',
      '=========================== short test summary info ============================',
      'FAILED tests/test_conf.py::test_bad_port - AssertionError: Regex patt...',
      '1 failed in 0.05s',
    ].join('\n');
    const f = top(log);
    expect([f?.class, f?.message, f?.location?.line]).toEqual(['test-assertion', 'AssertionError: Regex pattern did not match.', 9]);
  });

  it("counter-example: a chain that ends in the code's own error stays a test error", () => {
    const log = [
      '+ python -m pytest tests',
      '_______________________________ test_load ________________________________',
      '',
      '>       assert cfg["port"] == 80',
      "E       KeyError: 'port'",
      '',
      'tests/test_conf.py:5: KeyError',
      '',
      'During handling of the above exception, another exception occurred:',
      '',
      '>       raise ConfigError("bad config") from None',
      'E       app.conf.ConfigError: bad config',
      '',
      'app/conf.py:12: ConfigError',
      '=========================== short test summary info ============================',
      'FAILED tests/test_conf.py::test_load - app.conf.ConfigError: bad config',
      '1 failed in 0.05s',
    ].join('\n');
    expect(top(log)?.class).toBe('test-error');
  });

  it("a C++ template's error in a standard header (no extension) after hundreds of candidate notes: the first error is the finding", () => {
    const notes = Array.from({ length: 60 }, (_, n) => [`/usr/include/c++/12/ostream:${100 + n}:7: note: candidate: 'operator<<(int)'`, `  ${100 + n} |       operator<<(int __n)`, '      |       ^~~~~~~~', `/usr/include/c++/12/ostream:${100 + n}:30: note:   no known conversion for argument 1`]).flat();
    const log = [
      '+ make',
      'g++ -std=c++17 -c -o src/dump.o src/dump.cpp',
      "src/dump.hpp:9:17: error: no match for 'operator<<' (operand types are 'std::ostream' and 'const std::set<int>')",
      '    9 |     out << value;',
      ...notes,
      "/usr/include/c++/12/ostream:754:5: error: no type named 'type' in 'struct std::enable_if<false, void>'",
      'make: *** [<builtin>: src/dump.o] Error 1',
    ].join('\n');
    const f = top(log);
    expect([f?.class, f?.location?.file, f?.location?.line]).toEqual(['compile-error', 'src/dump.hpp', 9]);
  });
});

describe("go test -v: a subtest's message thousands of lines above the verdicts", () => {
  const table = (n: number): string[] => Array.from({ length: n }, (_, k) => [`=== RUN   TestParse/case_${k}`, `--- PASS: TestParse/case_${k} (0.00s)`]).flat();

  it('the first failing subtest\'s `x_test.go:N:` line under its `=== RUN` (kept by the analyzer) is the message and the place', () => {
    const log = [
      '+ go test -v -count=1 ./...',
      '=== RUN   TestParse',
      '=== RUN   TestParse/v1.2.3-beta_vs_v1.2.3',
      '    parse_test.go:58: Less(v1.2.3-beta, v1.2.3) = false, want true',
      ...table(1500),
      '--- FAIL: TestParse (0.31s)',
      '    --- FAIL: TestParse/v1.2.3-beta_vs_v1.2.3 (0.00s)',
      ...Array.from({ length: 1500 }, (_, k) => `    --- PASS: TestParse/case_${k} (0.00s)`),
      'FAIL',
      'FAIL\texample.com/semver\t0.412s',
      "Build step 'Execute shell' marked build as failure",
    ].join('\n');
    const f = top(log);
    expect([f?.class, f?.location?.file, f?.location?.line, f?.test?.name]).toEqual(['test-assertion', 'parse_test.go', 58, 'TestParse/v1.2.3-beta_vs_v1.2.3']);
  });

  it("counter-example: a failing subtest that printed nothing keeps its verdict (another subtest's output is not its own)", () => {
    const log = [
      '+ go test -v -count=1 ./...',
      '=== RUN   TestParse',
      '=== RUN   TestParse/passes',
      '    parse_test.go:58: parsed v1.2.3, want v1.2.3',
      '=== RUN   TestParse/silent',
      ...table(1500),
      '--- FAIL: TestParse (0.31s)',
      '    --- PASS: TestParse/passes (0.00s)',
      '    --- FAIL: TestParse/silent (0.00s)',
      'FAIL',
      'FAIL\texample.com/semver\t0.412s',
      "Build step 'Execute shell' marked build as failure",
    ].join('\n');
    const f = top(log);
    expect(f?.message).not.toContain('parse_test.go:58');
  });
});

describe("bash's report of a job the kernel killed, glued to the output the job left without a newline", () => {
  it('`tests/x.py ..ci.sh: line 4:  4242 Killed  python -m pytest` is out of memory', () => {
    const log = [
      '+ python -m pytest tests/test_import.py',
      '============================= test session starts ==============================',
      'collected 4 items',
      '',
      'tests/test_import.py ...ci.sh: line 6:  9151 Killed                  python -m pytest tests/test_import.py',
      "Build step 'Execute shell' marked build as failure",
    ].join('\n');
    expect(top(log)?.class).toBe('out-of-memory');
  });

  it('counter-example: a sentence naming a killed process without the job report is not read as one', () => {
    const log = ['+ ./deploy.sh', 'deploy.sh: the old worker was Killed by the operator at 10:02', 'deploy.sh: line 9: syntax error near unexpected token `fi\'', "Build step 'Execute shell' marked build as failure"].join('\n');
    expect(top(log)?.class).not.toBe('out-of-memory');
  });
});

describe('an exception message that starts with a line break', () => {
  const log = (second: string): string =>
    [
      '+ mvn -o -B test',
      '[INFO] Running io.geo.AddressTest',
      '[ERROR] Tests run: 1, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.1 s <<< FAILURE! -- in io.geo.AddressTest',
      '[ERROR] io.geo.AddressTest.normalises -- Time elapsed: 0.05 s <<< FAILURE!',
      'org.opentest4j.MultipleFailuresError: ',
      second,
      '\torg.opentest4j.AssertionFailedError: expected: <Ave> but was: <AVE>',
      '\tat org.junit.jupiter.api.AssertAll.assertAll(AssertAll.java:200)',
      '\tat io.geo.AddressTest.normalises(AddressTest.java:14)',
      '',
      '[ERROR] Tests run: 1, Failures: 1, Errors: 0, Skipped: 0',
      '[INFO] BUILD FAILURE',
    ].join('\n');

  it("JUnit 5's assertAll heading on the next line joins the exception's line", () => {
    expect(top(log('street (1 failure)'))?.message).toBe('org.opentest4j.MultipleFailuresError: street (1 failure)');
  });

  it('counter-example: a frame right under a wordless exception is no message', () => {
    expect(top(log('\tat org.junit.jupiter.api.AssertAll.assertAll(AssertAll.java:199)'))?.message).toBe('org.opentest4j.MultipleFailuresError:');
  });
});

describe("surefire's forked VM that died: its exit code says why", () => {
  const log = (code: number): string =>
    [
      '+ mvn -o -B test',
      '[INFO] --- maven-surefire-plugin:3.2.5:test (default-test) @ shop ---',
      '[INFO] Running io.shop.BulkImportTest',
      '[INFO] BUILD FAILURE',
      '[ERROR] Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:3.2.5:test (default-test) on project shop: ',
      '[ERROR] The forked VM terminated without properly saying goodbye. VM crash or System.exit called?',
      "[ERROR] Command was /bin/sh -c cd '/ci/ws' && '/usr/bin/java' '-jar' '/ci/ws/target/surefire/surefirebooter.jar'",
      '[ERROR] Error occurred in starting fork, check output in log',
      `[ERROR] Process Exit Code: ${code}`,
      '[ERROR] -> [Help 1]',
    ].join('\n');

  it('exit code 137 (SIGKILL): out of memory, the verdict the message', () => {
    const f = top(log(137));
    expect([f?.class, f?.message]).toEqual(['out-of-memory', 'The forked VM terminated without properly saying goodbye. VM crash or System.exit called?']);
  });

  it('counter-example: another exit code is not explained', () => {
    expect(top(log(1))?.class).not.toBe('out-of-memory');
  });
});

describe("CMake's sentence that names its value in the next paragraph", () => {
  const log = (value: string): string =>
    [
      '+ cmake -S . -B build',
      'CMake Error at /usr/share/cmake-3.25/Modules/CMakeDetermineCCompiler.cmake:49 (message):',
      '  Could not find compiler set in environment variable CC:',
      '',
      value,
      '',
      'Call Stack (most recent call first):',
      '  CMakeLists.txt:3 (project)',
      '',
      '-- Configuring incomplete, errors occurred!',
    ].join('\n');

  it('the value paragraph ends the sentence', () => {
    expect(top(log('  gcc-14.'))?.message).toBe('Could not find compiler set in environment variable CC: gcc-14.');
  });

  it('counter-example: a paragraph of words is not a value', () => {
    expect(top(log('  Tell CMake where to find the compiler by setting either the environment variable "CC" or the CMake cache entry.'))?.message).toBe('Could not find compiler set in environment variable CC:');
  });
});
