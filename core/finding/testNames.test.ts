import { analyze } from '../../test/helpers/rulesReading.js';
import { multilineNameIn } from './testNames.js';

describe('test names a runner prints over several lines', () => {
  it("mocha: the header's suites and the test's title joined, placed at the title", () => {
    const lines = ['  2 failing', '', '  1) Queue', '       drain', '         resolves when idle:', '     Error: Timeout of 2000ms exceeded.'];
    expect(multilineNameIn(lines, 5)).toMatchObject({ index: 4, name: 'Queue drain resolves when idle', tool: 'mocha' });
    // The progress list (`1) title` without the colon) and rspec's header over its Failure/Error are no names.
    expect(multilineNameIn(['  Queue', '    1) runs every task', '    2) never runs more'], 2)).toBeUndefined();
    expect(multilineNameIn(['  1) Invoice#total adds the tax', '     Failure/Error: expect(x).to eq(1)', ''], 2)).toBeUndefined();
  });

  it("PHPUnit testdox: the class heading and the failing test, the one nearest before the message", () => {
    const lines = ['Checkout (App\\Tests\\Checkout)', ' ✘ Shipping below threshold', '   │', '   │ Error: boom', '   │', '', ' ✘ Free shipping', '   │ Error: boom'];
    expect(multilineNameIn(lines, 3)).toMatchObject({ index: 1, name: 'Checkout (App\\Tests\\Checkout) Shipping below threshold', tool: 'phpunit' });
    expect(multilineNameIn(lines, 7)?.name).toBe('Checkout (App\\Tests\\Checkout) Free shipping');
  });
});

describe('findings read around their excerpt', () => {
  it("a step's exit that names a time limit explains output that says nothing", () => {
    const log = ['[Pipeline] sh', '+ timeout 15 rspec', '', 'Finished in 14.81 seconds (files took 0.1 seconds to load)', '1 example, 0 failures', '[Pipeline] }', 'ERROR: script returned exit code 124', 'Finished: FAILURE'].join('\n');
    for (const e of analyze(log)) expect([e.start_line, e.finding?.class]).toEqual([e.start_line, 'timeout-aborted']);
  });

  it("a compiler's hint just above its error at the same place is the message", () => {
    const log = ['+ perl -Ilib -wc lib/P.pm', 'elseif should be elsif at lib/P.pm line 12.', 'syntax error at lib/P.pm line 12, near ") {"', 'lib/P.pm had compilation errors.'].join('\n');
    expect(analyze(log)[0]?.finding).toMatchObject({ class: 'compile-error', message: 'elseif should be elsif at lib/P.pm line 12.', message_line: 2, location: { file: 'lib/P.pm', line: 12 } });
  });

  it("a command's own refusal under make is not placed at the recipe line; make's own refusal is", () => {
    const own = analyze(['+ make install', "install: cannot create regular file '/usr/local/bin/x': Permission denied", 'make: *** [Makefile:10: install] Error 1'].join('\n'))[0]?.finding;
    expect(own).toMatchObject({ class: 'permission-credentials' });
    expect(own?.location).toBeUndefined();
    const makes = analyze(['+ make', 'make: ./gen.sh: Permission denied', 'make: *** [Makefile:4: gen] Error 127'].join('\n'))[0]?.finding;
    expect(makes).toMatchObject({ class: 'permission-credentials', location: { file: 'Makefile', line: 4 } });
  });

  it('EUnit and meson name the test that ran out of time on the line that says so', () => {
    expect(analyze(['  module \'q_tests\'', '    q_tests: push_test...*timed out*', 'in function q:push/2 (src/q.erl, line 7)', 'undefined'].join('\n'))[0]?.finding?.test?.name).toBe('q_tests: push_test');
    const meson = ['+ meson test -C build', '[4/4] Linking target t', 'flush writes every entry time out (After 10 seconds)', '1/2 flush writes every entry TIMEOUT 10.08s   killed by signal 15 SIGTERM', '', 'Summary of Failures:', '', '1/2 flush writes every entry TIMEOUT 10.08s   killed by signal 15 SIGTERM', '', 'Timeout:            1', 'Build step \'Execute shell\' marked build as failure', 'Finished: FAILURE'];
    expect(analyze(meson.join('\n'))[0]?.finding?.test?.name).toBe('flush writes every entry');
  });
});

describe('a suite that failed to run', () => {
  it("names its file as the test (jest's `FAIL x` over `● Test suite failed to run`, vitest's `FAIL  x [ x ]`)", () => {
    const jest = ['+ npx jest', 'FAIL test/codes.test.js', '  ● Test suite failed to run', '', '    Jest encountered an unexpected token', '', "    SyntaxError: Cannot use import statement outside a module", '', 'Test Suites: 1 failed, 1 total', "Build step 'Execute shell' marked build as failure"];
    expect(analyze(jest.join('\n'))[0]?.finding?.test?.name).toBe('test/codes.test.js');
    const vitest = ['+ npx vitest run', '⎯⎯⎯⎯⎯⎯ Failed Suites 1 ⎯⎯⎯⎯⎯⎯⎯', '', ' FAIL  test/convert.test.js [ test/convert.test.js ]', "SyntaxError: Unexpected token '}', \"{\"a\": 1,}\" is not valid JSON", ' ❯ test/convert.test.js:4:19', '', ' Test Files  1 failed (1)', "Build step 'Execute shell' marked build as failure"];
    expect(analyze(vitest.join('\n'))[0]?.finding?.test?.name).toBe('test/convert.test.js');
  });

  it("counter-example: jest's FAIL line over a test's own `● Suite › name` names that test", () => {
    const jest = ['+ npx jest', 'FAIL test/a.test.js', '  ● money › rounds', '', '    expect(received).toBe(expected)', '', '    Expected: 3', '    Received: 2', '', 'Tests: 1 failed, 1 total', "Build step 'Execute shell' marked build as failure"];
    expect(analyze(jest.join('\n'))[0]?.finding?.test?.name).toBe('money › rounds');
  });
});

describe("a test program make's recipe ran", () => {
  const log = (program: string): string => ['+ make check', 'gcc -O2 -o test_queue tests/test_queue.c src/queue.c', program, 'make: *** [Makefile:6: check] Alarm clock', "Build step 'Execute shell' marked build as failure", 'Finished: FAILURE'].join('\n');
  it("is the failing test when make's verdict on the recipe ends the build, not the target (`check`)", () => {
    expect(analyze(log('./test_queue'))[0]?.finding?.test?.name).toBe('test_queue');
  });
  it('counter-example: a program not named as a test names none', () => {
    expect(analyze(log('./queue_demo'))[0]?.finding?.test?.name).not.toBe('queue_demo');
  });
});

describe("surefire's row of a parameterized test", () => {
  it('names the test method, whatever invocation index JUnit 5 gives it', () => {
    const log = [
      '[INFO] Running org.example.tax.RateTest',
      '[ERROR] Tests run: 6, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.41 s <<< FAILURE! -- in org.example.tax.RateTest',
      '[ERROR] org.example.tax.RateTest.rateFor(String, int)[3] -- Time elapsed: 0.012 s <<< FAILURE!',
      'org.opentest4j.AssertionFailedError: expected: <19> but was: <7>',
      '\tat org.junit.jupiter.api.AssertionFailureBuilder.build(AssertionFailureBuilder.java:151)',
      '\tat org.example.tax.RateTest.rateFor(RateTest.java:31)',
      '[ERROR] BUILD FAILURE',
    ].join('\n');
    expect(analyze(log)[0]?.finding?.test?.name).toBe('org.example.tax.RateTest.rateFor');
  });
});
