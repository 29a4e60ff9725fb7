import { describe, expect, it } from '@jest/globals';
import { analyze } from '../log/analyze.js';
import type { Finding } from '../../protocol/types.js';

/**
 * Round 9's misses, opened for tuning (issue 25; docs/notes/analyzer.md, "Round 9 opened (helper
 * t9)"): each form on a made-up log of another project, with a counter-example.
 */
const top = (text: string): Finding | undefined => analyze(text)[0]?.finding;

describe('a C/C++ formatter or checker run by make prints compiler-shaped lines: lint, not the compiler', () => {
  it('clang-format --dry-run --Werror echoed by make', () => {
    const log = [
      '+ make style',
      'clang-format-15 --dry-run --Werror lib/ring.c lib/ring.h',
      'lib/ring.c:31:9: error: code should be clang-formatted [-Wclang-format-violations]',
      '    if(head==tail) {',
      '        ^',
      'make: *** [Makefile:21: style] Error 1',
      'Build step \'Execute shell\' marked build as failure',
    ].join('\n');
    const f = top(log);
    expect([f?.class, f?.tool, f?.location?.file, f?.location?.line]).toEqual(['lint', 'clang-format', 'lib/ring.c', 31]);
  });

  it('counter-example: the compiler echoed by make keeps its error a compile error', () => {
    const log = [
      '+ make',
      'cc -O2 -Wall -c -o lib/ring.o lib/ring.c',
      "lib/ring.c:31:9: error: 'tail' undeclared (first use in this function)",
      '    if(head==tail) {',
      '        ^',
      'make: *** [Makefile:9: lib/ring.o] Error 1',
    ].join('\n');
    expect(top(log)?.class).toBe('compile-error');
  });
});

describe("a linker's own name with a dot (`ld.lld: error:`) is a program, not a source file", () => {
  it('lld undefined symbol: link-error, the whole symbol', () => {
    const log = [
      '+ make',
      'clang++ -fuse-ld=lld -o tiler obj/main.o obj/grid.o',
      'ld.lld: error: undefined symbol: Grid::resize(int, int)',
      '>>> referenced by main.cpp',
      '>>>               obj/main.o:(main)',
      'clang++: error: linker command failed with exit code 1 (use -v to see invocation)',
      'make: *** [Makefile:12: tiler] Error 1',
    ].join('\n');
    const f = top(log);
    expect([f?.class, f?.tool, f?.symbol]).toEqual(['link-error', 'ld.lld', 'Grid::resize(int, int)']);
    expect(f?.message).toContain('undefined symbol: Grid::resize');
  });

  it('counter-example: a source file with no line that does not build stays a compile error', () => {
    const log = ['+ bison -Werror -o parse.c grammar.y', 'grammar.y: error: shift/reduce conflicts: 2 found, 0 expected', 'make: *** [Makefile:4: parse.c] Error 1'].join('\n');
    expect(top(log)?.class).toBe('compile-error');
  });
});

describe("round 9's tool wordings, each a form many projects print", () => {
  it.each<[string, string, string, string, string]>([
    [
      'ld: an object without -fPIC in a shared object',
      'cc -shared -o libx.so x.o -Lcore -lcore\n/usr/bin/ld: core/libcore.a(pool.o): warning: relocation against `pool_size\' in read-only section `.text\'\n/usr/bin/ld: core/libcore.a(pool.o): relocation R_X86_64_PC32 against symbol `pool_size\' can not be used when making a shared object; recompile with -fPIC\n/usr/bin/ld: final link failed: bad value\ncollect2: error: ld returned 1 exit status\nmake: *** [Makefile:9: libx.so] Error 1',
      'link-error',
      'ld',
      'recompile with -fPIC',
    ],
    ['cargo: rust-version newer than the toolchain', '+ cargo build --locked\nerror: rustc 1.70.0 is not supported by the following package:\n  tinyjson@2.1.0 requires rustc 1.74\n\nERROR: script returned exit code 101', 'missing-tool', 'cargo', 'rustc 1.70.0 is not supported'],
    [
      'cmake: the compiler CC names is not installed',
      '+ CC=gcc-14 cmake -S . -B out\nCMake Error at /usr/share/cmake-3.28/Modules/CMakeDetermineCCompiler.cmake:49 (message):\n  Could not find compiler set in environment variable CC:\n\n  gcc-14.\n\nCall Stack (most recent call first):\n  CMakeLists.txt:3 (project)\n\n\nCMake Error: CMAKE_C_COMPILER not set, after EnableLanguage\n-- Configuring incomplete, errors occurred!',
      'missing-tool',
      'cmake',
      'Could not find compiler set in environment variable CC',
    ],
    ['cmake: a preset the project does not define', '+ cmake --preset nightly\nCMake Error: No such preset in /src/geo: "nightly"\nAvailable configure presets:\n\n  "dev"\nERROR: script returned exit code 1', 'ci-script', 'cmake', 'No such preset'],
    ['go: a vendor directory out of step with go.mod', '+ go test ./...\ngo: inconsistent vendoring in /src/shop:\n\tgithub.com/a/b@v1.2.0: is explicitly required in go.mod, but not marked as explicit in vendor/modules.txt\n\n\tTo sync the vendor directory, run:\n\t\tgo mod vendor\nBuild step \'Execute shell\' marked build as failure', 'dependency-resolution', 'go', 'inconsistent vendoring'],
    ["gradle: an Exec task's program is not installed", ':genParser FAILED\n\nFAILURE: Build failed with an exception.\n\n* What went wrong:\nExecution failed for task \':genParser\'.\n> A problem occurred starting process \'command \'antlr4\'\'\n\n* Try:\nRun with --stacktrace option to get the stack trace.\n\nBUILD FAILED in 3s', 'missing-tool', 'gradle', "starting process 'command 'antlr4''"],
    ['cmake --install refused by the file system', '+ cmake --install out\n-- Install configuration: "Release"\nCMake Error at out/cmake_install.cmake:52 (file):\n  file cannot create directory: /usr/share/geo.  Maybe need\n  administrative privileges.\n\n\nERROR: script returned exit code 1', 'permission-credentials', 'cmake', 'file cannot create directory: /usr/share/geo'],
  ])('%s', (_name, log, cls, tool, message) => {
    const f = top(log);
    expect([f?.class, f?.tool]).toEqual([cls, tool]);
    expect(f?.message).toContain(message);
  });

  it("the script CMake generated in the build tree is no place of the project's", () => {
    const log = '+ cmake --install out\nCMake Error at out/cmake_install.cmake:52 (file):\n  file cannot create directory: /usr/share/geo.  Maybe need\n  administrative privileges.\n\nERROR: script returned exit code 1';
    expect(top(log)?.location).toBeUndefined();
  });

  it("counter-example: a CMake error at the project's listfile keeps that place", () => {
    const log = '+ cmake -S . -B out\nCMake Error at CMakeLists.txt:7 (find_package):\n  By not providing "FindZstd.cmake" in CMAKE_MODULE_PATH this project has\n  asked CMake to find a package configuration file provided by "Zstd", but\n  CMake did not find one.\n-- Configuring incomplete, errors occurred!';
    expect([top(log)?.location?.file, top(log)?.location?.line]).toEqual(['CMakeLists.txt', 7]);
  });

  it("counter-example: ld's relocation warning alone is no error", () => {
    const log = "+ make\n/usr/bin/ld: obj/a.o: warning: relocation against `tbl' in read-only section `.text'\n/usr/bin/ld: warning: creating DT_TEXTREL in a PIE\n+ ./run-tests\nok";
    expect(top(log)?.class).not.toBe('link-error');
  });

  it("Gradle's plain console: the task's name glued to javac's error line", () => {
    const log = '> Task :app:compileJava\n:app:compileJava/home/ci/ws/app/src/main/java/a/Cart.java:21: error: cannot find symbol\n        total += item.price();\n                     ^\n  symbol:   method price()\n1 error\n FAILED\n\nFAILURE: Build failed with an exception.';
    const f = top(log);
    expect([f?.class, f?.tool, f?.location?.line]).toEqual(['compile-error', 'javac', 21]);
    expect(f?.location?.file).toMatch(/app\/src\/main\/java\/a\/Cart\.java$/);
  });
});

describe('a `.resolves` matcher on a promise that rejected: the code threw, no value was compared', () => {
  const vitest = [
    ' FAIL  test/orders.test.ts > orders > places an order',
    'AssertionError: promise rejected "TypeError: Cannot read properties of undefined (reading \'id\')…" instead of resolving',
    ' ❯ test/orders.test.ts:9:40',
    '      7|   it(\'places an order\', async () => {',
    '      9|     await expect(place(cart)).resolves.toBe(7);',
    '       |                                        ^',
    '',
    "Caused by: TypeError: Cannot read properties of undefined (reading 'id')",
    ' ❯ place src/orders.ts:14:22',
    ' ❯ test/orders.test.ts:9:18',
    '',
    ' Test Files  1 failed (1)',
  ].join('\n');

  it('vitest: test-error, the cause is the message, its first frame the place', () => {
    const f = top(vitest);
    expect([f?.class, f?.message, f?.location?.file, f?.location?.line]).toEqual(['test-error', "TypeError: Cannot read properties of undefined (reading 'id')", 'src/orders.ts', 14]);
  });

  it('jest: `Received promise rejected instead of resolved` is no assertion', () => {
    const log = ['  ● cart › totals', '', '    expect(received).resolves.toEqual()', '', '    Received promise rejected instead of resolved', '    Rejected to value: [TypeError: price is not a function]', '', '      at Object.toEqual (test/cart.test.js:8:33)', '', 'Tests:       1 failed, 3 passed, 4 total'].join('\n');
    expect(top(log)?.class).not.toBe('test-assertion');
  });

  it('counter-example: a `.resolves` matcher whose value differs stays an assertion', () => {
    const log = [' FAIL  test/orders.test.ts > orders > places an order', 'AssertionError: expected 8 to be 7 // Object.is equality', ' ❯ test/orders.test.ts:9:40', '', '- Expected', '+ Received', '', '- 7', '+ 8', '', ' Test Files  1 failed (1)'].join('\n');
    expect(top(log)?.class).toBe('test-assertion');
  });
});

describe("JUnit's test timeout under Gradle", () => {
  const log = [
    'com.acme.PollerTest > stopsWhenDrained FAILED',
    '    org.junit.runners.model.TestTimedOutException: test timed out after 500 milliseconds',
    '        at java.base@21.0.2/java.lang.Object.wait0(Native Method)',
    '        at app//com.acme.Poller.awaitEmpty(Poller.java:44)',
    '        at app//com.acme.PollerTest.stopsWhenDrained(PollerTest.java:17)',
    '',
    '3 tests completed, 1 failed',
  ].join('\n');

  it('`timed out after N milliseconds` is a timeout, at the project frame under `app//`', () => {
    const f = top(log);
    expect([f?.class, f?.location?.file, f?.location?.line]).toEqual(['timeout-aborted', 'com/acme/Poller.java', 44]);
    expect(f?.test?.name).toBe('com.acme.PollerTest > stopsWhenDrained');
  });

  it('counter-example: an exception under `app//` frames stays a test error, at its project frame', () => {
    const f = top(log.replace('org.junit.runners.model.TestTimedOutException: test timed out after 500 milliseconds', 'java.lang.IllegalStateException: queue closed'));
    expect([f?.class, f?.location?.file, f?.location?.line]).toEqual(['test-error', 'com/acme/Poller.java', 44]);
  });
});

describe("Maven's wrapper around a plugin execution's failure", () => {
  it('`Execution X of goal Y failed: <cause>`: the cause is the message', () => {
    const log = [
      '[INFO] BUILD FAILURE',
      '[ERROR] Failed to execute goal org.codehaus.mojo:exec-maven-plugin:3.1.0:exec (gen-schema) on project billing: Execution gen-schema of goal org.codehaus.mojo:exec-maven-plugin:3.1.0:exec failed: Plugin org.codehaus.mojo:exec-maven-plugin:3.1.0 or one of its dependencies could not be resolved: Could not find artifact org.codehaus.mojo:exec-maven-plugin:jar:3.1.0 in internal (https://repo.internal.example/maven2) -> [Help 1]',
      '[ERROR] ',
    ].join('\n');
    const f = top(log);
    expect(f?.message).toMatch(/^Plugin org\.codehaus\.mojo:exec-maven-plugin:3\.1\.0 or one of its dependencies could not be resolved/);
  });

  it('counter-example: a goal that failed with no execution wrapper keeps its words', () => {
    const log = ['[INFO] BUILD FAILURE', '[ERROR] Failed to execute goal org.apache.maven.plugins:maven-enforcer-plugin:3.4.1:enforce (ban) on project billing: Rule 0: org.apache.maven.enforcer.rules.dependency.BannedDependencies failed with message: Found Banned Dependency: log4j:log4j:jar:1.2.17 -> [Help 1]'].join('\n');
    expect(top(log)?.message).toMatch(/^Failed to execute goal org\.apache\.maven\.plugins:maven-enforcer-plugin/);
  });
});

describe('pytest: the line that reports, not the code it quotes', () => {
  it("pytest-timeout's `Failed: Timeout (>Ns)` is the timeout's message, not a docstring's `timed out`", () => {
    const log = [
      '________________________________ test_drains _________________________________',
      '',
      '    def wait(self, timeout=None):',
      '        """Wait until notified or until a timeout occurs.',
      '        awakened or timed out, it re-acquires the lock and returns.',
      '        """',
      '>       waiter.acquire()',
      'E       Failed: Timeout (>2.0s) from pytest-timeout.',
      '',
      '/usr/lib/python3.11/threading.py:320: Failed',
      '=========================== short test summary info ============================',
      'FAILED tests/test_queue.py::test_drains - Failed: Timeout (>2.0s) from pytest-timeout.',
    ].join('\n');
    const f = top(log);
    expect([f?.class, f?.message]).toEqual(['timeout-aborted', 'Failed: Timeout (>2.0s) from pytest-timeout.']);
  });

  it('--showlocals `expected = ...` / `actual = ...` and a docstring naming AssertionError are not the assertion', () => {
    const log = [
      '________________________________ test_notifies ________________________________',
      '',
      'self = <Mock name="mock.post" id="1">',
      "expected = call('ops', 'disk full')",
      "actual = call('ops', 'disk  full')",
      '',
      '    def assert_called_with(self, /, *args, **kwargs):',
      '        """This method is a convenient way of asserting that the last call has been',
      '        made in a particular way. Raises an AssertionError if the call differs."""',
      '        if actual != expected:',
      '>           raise AssertionError(_error_message()) from cause',
      'E           AssertionError: expected call not found.',
      "E           Expected: post('ops', 'disk full')",
      "E             Actual: post('ops', 'disk  full')",
      '',
      '/usr/lib/python3.11/unittest/mock.py:939: AssertionError',
      '=========================== short test summary info ============================',
      'FAILED tests/test_alerts.py::test_notifies - AssertionError: expected call not found.',
    ].join('\n');
    const f = top(log);
    expect([f?.class, f?.message]).toEqual(['test-assertion', 'AssertionError: expected call not found.']);
  });

  it("counter-example: Gradle's short `java.lang.AssertionError at T.java:15` is an assertion", () => {
    const log = ['com.acme.RetryTest > capsWait FAILED', '    java.lang.AssertionError at RetryTest.java:15', '', '2 tests completed, 1 failed', ':test FAILED'].join('\n');
    expect(top(log)?.class).toBe('test-assertion');
  });
});

describe("a time limit's bare exit over the words of what hung", () => {
  it('the program that did not end says so above the exit: its words are the message', () => {
    const log = ['+ timeout 60 npx mocha', '  14 passing (2s)', '', 'Worker pool did not terminate after the last spec; 2 sockets open.', 'ERROR: script returned exit code 124', 'Finished: FAILURE'].join('\n');
    const f = top(log);
    expect([f?.class, f?.message]).toEqual(['timeout-aborted', 'Worker pool did not terminate after the last spec; 2 sockets open.']);
  });

  it('counter-example: a time limit with no such words keeps its exit as the message', () => {
    const log = ['+ timeout 60 ./long-job.sh', 'step 1 of 9', 'step 2 of 9', 'ERROR: script returned exit code 124', 'Finished: FAILURE'].join('\n');
    const f = top(log);
    expect([f?.class, f?.message]).toEqual(['timeout-aborted', 'ERROR: script returned exit code 124']);
  });
});

describe("pytest: Python's chained exceptions, the last one propagated", () => {
  const section = (chain: boolean): string =>
    [
      '________________________________ test_publish ________________________________',
      '',
      '    def connect(self):',
      '>       sock.connect((self.host, self.port))',
      'E       ConnectionRefusedError: [Errno 111] Connection refused',
      '',
      '.venv/lib/python3.12/site-packages/amqp/transport.py:188: ConnectionRefusedError',
      ...(chain
        ? [
            '',
            'The above exception was the direct cause of the following exception:',
            '',
            '    @pytest.fixture',
            '    def channel():',
            '>       conn = amqp.Connection("127.0.0.1:5673")',
            '',
            'tests/fixtures.py:8: ',
            '_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ ',
            '.venv/lib/python3.12/site-packages/amqp/connection.py:322: in connect',
            '    raise ConnectionError(msg) from exc',
            'E   amqp.exceptions.ConnectionError: cannot reach broker at 127.0.0.1:5673',
            '',
            '.venv/lib/python3.12/site-packages/amqp/connection.py:322: ConnectionError',
          ]
        : []),
      '=========================== short test summary info ============================',
      'ERROR tests/test_pub.py::test_publish - ConnectionRefusedError: [Errno 111] Connection refused',
    ].join('\n');

  it("the chain's last exception is the message, its project frame the place", () => {
    const f = top(section(true));
    expect([f?.message, f?.location?.file, f?.location?.line]).toEqual(['amqp.exceptions.ConnectionError: cannot reach broker at 127.0.0.1:5673', 'tests/fixtures.py', 8]);
  });

  it('counter-example: one exception with no chain keeps its message', () => {
    expect(top(section(false))?.message).toBe('ConnectionRefusedError: [Errno 111] Connection refused');
  });

  it("the place is the chain's deepest project frame (its raise site), not the test's frame over it (loc2, round 15)", () => {
    const log = [
      '____________________________ test_collect _____________________________',
      '',
      '    def write(self, sensor, value):',
      '        with self.db:',
      '>           self.db.execute("INSERT INTO readings VALUES (?, ?)", (sensor, value))',
      'E           sqlite3.ProgrammingError: SQLite objects created in a thread can only be used in that same thread.',
      '',
      'metrics/store.py:13: ProgrammingError',
      '',
      'During handling of the above exception, another exception occurred:',
      '',
      '>       collect_parallel(store, ["probe-1"])',
      '',
      'tests/test_store.py:12: ',
      '_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ ',
      'metrics/store.py:26: in collect_parallel',
      '    pool.submit(store.write, name, value).result()',
      '/usr/lib/python3.11/concurrent/futures/thread.py:58: in run',
      '    result = self.fn(*self.args, **self.kwargs)',
      '_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ ',
      '>       with self.db:',
      'E       sqlite3.ProgrammingError: SQLite objects created in a thread can only be used in that same thread.',
      '',
      'metrics/store.py:12: ProgrammingError',
      '=========================== short test summary info ============================',
      'FAILED tests/test_store.py::test_collect - sqlite3.ProgrammingError: SQLite objects created in a thread ...',
    ].join('\n');
    const f = top(log);
    expect([f?.location?.file, f?.location?.line]).toEqual(['metrics/store.py', 12]);
  });
});

describe("Maven's model problem at a line of the POM Maven names", () => {
  const log = (summary: boolean): string =>
    [
      '+ mvn -B -o verify',
      '[INFO] Scanning for projects...',
      '[ERROR] [ERROR] Some problems were encountered while processing the POMs:',
      "[ERROR] Non-resolvable parent POM for org.acme:ledger:1.4.0: The following artifacts could not be resolved: org.acme:parent:pom:7 (absent) @ line 5, column 11",
      ' @ ',
      '[ERROR] The build could not read 1 project -> [Help 1]',
      '[ERROR]   ',
      ...(summary ? ['[ERROR]   The project org.acme:ledger:1.4.0 (/home/ci/ws/ledger/pom.xml) has 1 error'] : []),
      "[ERROR]     Non-resolvable parent POM for org.acme:ledger:1.4.0: The following artifacts could not be resolved: org.acme:parent:pom:7 (absent) @ line 5, column 11 -> [Help 2]",
    ].join('\n');

  it('`@ line N, column M` is in the POM of `The project ... (path) has N errors`', () => {
    const f = top(log(true));
    expect([f?.class, f?.location?.file, f?.location?.line, f?.location?.column]).toEqual(['dependency-resolution', '/home/ci/ws/ledger/pom.xml', 5, 11]);
  });

  it('counter-example: with no POM named, no place is made up', () => {
    expect(top(log(false))?.location).toBeUndefined();
  });
});

describe("an enum's generated valueOf is not the project's frame", () => {
  const trace = (viaEnum: boolean): string =>
    [
      '[ERROR] Tests run: 3, Failures: 0, Errors: 1, Skipped: 0, Time elapsed: 0.05 s <<< FAILURE! -- in com.acme.ShipTest',
      '[ERROR] com.acme.ShipTest.parsesMode -- Time elapsed: 0.01 s <<< ERROR!',
      'java.lang.IllegalArgumentException: No enum constant com.acme.Mode.air',
      ...(viaEnum ? ['\tat java.base/java.lang.Enum.valueOf(Enum.java:273)'] : []),
      '\tat com.acme.Mode.valueOf(Mode.java:3)',
      '\tat com.acme.Ship.mode(Ship.java:27)',
      '\tat com.acme.ShipTest.parsesMode(ShipTest.java:12)',
      '',
    ].join('\n');

  it('the caller of `X.valueOf` under `java.lang.Enum.valueOf` is the place', () => {
    expect([top(trace(true))?.location?.file, top(trace(true))?.location?.line]).toEqual(['com/acme/Ship.java', 27]);
  });

  it("counter-example: a project's own valueOf (not called by Enum.valueOf) stays the place", () => {
    expect([top(trace(false))?.location?.file, top(trace(false))?.location?.line]).toEqual(['com/acme/Mode.java', 3]);
  });
});
