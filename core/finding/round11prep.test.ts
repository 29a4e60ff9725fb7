import { describe, expect, it } from '@jest/globals';
import { analyze } from '../../test/helpers/rulesReading.js';
import type { Finding } from '../../protocol/types.js';

/**
 * Round 10's misses left after its opening, at their general cause (issue 25; docs/notes/analyzer.md,
 * "Before round 11 (helper t12)"): each form on a made-up log of another project, with a counter-example.
 */
const top = (text: string): Finding | undefined => analyze(text)[0]?.finding;

describe("the go tool's own diagnostic at the margin is a compile error, wherever go test printed it", () => {
  const passing = (pkg: string, n: number): string[] => [
    ...Array.from({ length: n }, (_, i) => [`=== RUN   TestRoute/case_${i}`, `--- PASS: TestRoute/case_${i} (0.00s)`]).flat(),
    'PASS',
    `ok  \texample.com/gateway/${pkg}\t0.031s`,
  ];
  it('`go test -v ./...`: the test binary that does not compile, far above its `[build failed]` among passing packages', () => {
    const log = [
      '+ go test -v ./...',
      ...passing('route', 150),
      '# example.com/gateway/limits [example.com/gateway/limits.test]',
      'limits/bucket_test.go:21:9: undefined: newBucket',
      ...passing('auth', 150),
      'FAIL\texample.com/gateway/limits [build failed]',
      ...passing('tls', 40),
      'FAIL',
    ].join('\n');
    const f = top(log);
    expect([f?.class, f?.message, f?.location?.file, f?.location?.line]).toEqual(['compile-error', 'limits/bucket_test.go:21:9: undefined: newBucket', 'limits/bucket_test.go', 21]);
  });

  it('a diagnostic with no failure word (go vet\'s `format %s has arg n of wrong type int`) is still the excerpt', () => {
    const log = ['+ go vet ./...', '# example.com/shop/report', 'report/totals.go:5:34: fmt.Sprintf format %s has arg n of wrong type int', '##[error]Process completed with exit code 1.'].join('\n');
    const e = analyze(log)[0];
    expect([e?.reason, e?.finding?.location?.file, e?.finding?.location?.line]).toEqual(['Go build error', 'report/totals.go', 5]);
  });

  it("counter-example: a test's own t.Log line (indented) is not a build error", () => {
    const log = ['=== RUN   TestRoute', '    route_test.go:14: routing /a', '--- PASS: TestRoute (0.00s)', 'PASS', 'ok  \texample.com/gateway/route\t0.01s'].join('\n');
    expect(top(log)?.class ?? 'unknown').not.toBe('compile-error');
  });
});

describe('a JVM cause that names the very class its wrapper names leaves the wrapper as the message', () => {
  it('`NoClassDefFoundError: a/b/C` over `Caused by: ClassNotFoundException: a.b.C`', () => {
    const log = ['+ java -cp build/app org.acme.app.Main', 'Exception in thread "main" java.lang.NoClassDefFoundError: org/acme/util/Money', '\tat org.acme.app.Main.main(Main.java:8)', 'Caused by: java.lang.ClassNotFoundException: org.acme.util.Money', '\tat java.base/jdk.internal.loader.BuiltinClassLoader.loadClass(BuiltinClassLoader.java:641)', '\t... 1 more', 'Build step \'Execute shell\' marked build as failure'].join('\n');
    expect(top(log)?.message).toContain('NoClassDefFoundError: org/acme/util/Money');
  });

  it('counter-example: a cause with its own subject is still the message', () => {
    const log = ['+ java -cp build/app org.acme.app.Main', 'Exception in thread "main" java.lang.IllegalStateException: config not loaded', '\tat org.acme.app.Main.main(Main.java:8)', 'Caused by: java.io.FileNotFoundException: conf/app.properties (No such file or directory)', '\tat java.base/java.io.FileInputStream.open0(Native Method)', '\t... 1 more'].join('\n');
    expect(top(log)?.message).toContain('FileNotFoundException');
  });
});

describe('an error code inside a path is not the error', () => {
  it("Node's uncaught `Error: spawn x EACCES` under a heading whose path holds the word", () => {
    const log = ['+ node tools/release.js', '/ci/ws/eacces-demo/tools/release.js:9', '  if (err) throw err;', '           ^', '', 'Error: spawn ./tools/stamp.sh EACCES', '    at ChildProcess._handle.onexit (node:internal/child_process:285:19)', '    at onErrorNT (node:internal/child_process:483:16) {', "  errno: -13,", "  code: 'EACCES',", '}', '', 'Node.js v20.20.2'].join('\n');
    const f = top(log);
    expect([f?.class, f?.message]).toEqual(['permission-credentials', 'Error: spawn ./tools/stamp.sh EACCES']);
  });

  it('counter-example: a path with the word and no refusal is not a permission error', () => {
    const log = ['+ make -C eperm-tests', 'make: Entering directory \'/ci/eperm-tests\'', 'cc -o t t.c', 't.c:3:1: error: expected \';\' before \'}\' token', 'make: *** [Makefile:2: t] Error 1'].join('\n');
    expect(top(log)?.class).toBe('compile-error');
  });
});

describe("a test harness's verdict is read at the failed test's own output", () => {
  it("ctest's closing summary, the failed result far above among passing tests, its output under it", () => {
    const passing = (from: number, to: number): string[] => Array.from({ length: to - from + 1 }, (_, i) => [`        Start ${from + i}: parse_${from + i}`, `${from + i}/400 Test #${from + i}: parse_${from + i} ..........   Passed    0.01 sec`]).flat();
    const log = [
      '+ ctest --output-on-failure', 'Test project /ci/geo/build', ...passing(1, 99),
      '        Start 100: bounds', "100/400 Test #100: bounds ..........Subprocess aborted***Exception:   0.02 sec", "terminate called after throwing an instance of 'std::invalid_argument'", '  what():  stod', '',
      ...passing(101, 400), '', '99% tests passed, 1 tests failed out of 400', '', 'The following tests FAILED:', '\t100 - bounds (Subprocess aborted)', 'Errors while running CTest', 'ERROR: script returned exit code 8',
    ].join('\n');
    const f = top(log);
    expect([f?.class, f?.message, f?.test?.name]).toEqual(['test-error', "terminate called after throwing an instance of 'std::invalid_argument' what(): stod", 'bounds']);
  });

  it("automake's test-suite.log: the test program's own line, not the driver's trailer", () => {
    const log = [
      '+ make check', 'PASS: tests/test_parse', 'FAIL: tests/test_render', '# TOTAL: 2', '# PASS:  1', '# FAIL:  1', 'See ./test-suite.log',
      "make[2]: *** [Makefile:612: test-suite.log] Error 1", '+ cat test-suite.log', '# TOTAL: 2', '# FAIL:  1', '', 'FAIL: tests/test_render', '=======================', '',
      'ok: render("a") = "<p>a</p>"', 'tests/test_render.c:31: render("**b**") = "<p>**b**</p>", want "<p><b>b</b></p>"', 'FAIL tests/test_render (exit status: 1)', '', '+ exit 1',
    ].join('\n');
    const f = top(log);
    expect([f?.class, f?.location?.file, f?.location?.line, f?.test?.name]).toEqual(['test-assertion', 'tests/test_render.c', 31, 'tests/test_render']);
  });

  it('counter-example: a test that crashed with no check of its own is an error of the test, not an assertion', () => {
    const log = ['+ cat test-suite.log', 'FAIL: tests/test_io', '===================', '', 'opening fixtures/a.bin', 'Segmentation fault (core dumped)', 'FAIL tests/test_io (exit status: 139)', '+ exit 1'].join('\n');
    expect(top(log)?.class).not.toBe('test-assertion');
  });
});

describe('a program stopped from outside (SIGTERM) is a timeout or an abort', () => {
  it("make's `*** [...] Terminated` after a silent test program run under `timeout`", () => {
    const log = ['+ timeout 30 make test', './run_queue_tests', 'make: *** [Makefile:14: test] Terminated', 'Build step \'Execute shell\' marked build as failure', 'Finished: FAILURE'].join('\n');
    expect([top(log)?.class, top(log)?.message]).toEqual(['timeout-aborted', 'make: *** [Makefile:14: test] Terminated']);
  });

  it("counter-example: make's `Error 2` for a failed recipe is not a timeout", () => {
    const log = ['+ make test', './run_queue_tests', 'make: *** [Makefile:14: test] Error 2', 'Build step \'Execute shell\' marked build as failure'].join('\n');
    expect(top(log)?.class ?? 'unknown').not.toBe('timeout-aborted');
  });
});

describe("npm's install that cannot read another package's manifest is a local dependency that did not resolve", () => {
  const enoent = (command: string): string => [`+ ${command}`, 'npm error code ENOENT', 'npm error syscall open', 'npm error path /ci/shop/libs/tax/package.json', 'npm error errno -2', "npm error enoent Could not read package.json: Error: ENOENT: no such file or directory, open '/ci/shop/libs/tax/package.json'", 'npm error enoent This is related to npm not being able to find a file.', 'Build step \'Execute shell\' marked build as failure'].join('\n');
  it('under `npm ci`', () => {
    expect([top(enoent('npm ci'))?.class, top(enoent('npm ci'))?.tool]).toEqual(['dependency-resolution', 'npm']);
  });

  it('counter-example: under `npm run build` it is the project\'s own manifest, not a dependency', () => {
    expect(top(enoent('npm run build'))?.class).not.toBe('dependency-resolution');
  });
});

describe("a Rust panic at the test file's own line, in the test's own words, is a failed check", () => {
  const run = (at: string, message: string): string => ['+ cargo test', '     Running tests/quota.rs (target/debug/deps/quota-1f2e3d4c5b6a7988)', '', 'running 2 tests', 'test quota_rounds_up ... FAILED', 'test quota_zero ... ok', '', 'failures:', '', '---- quota_rounds_up stdout ----', '', `thread 'quota_rounds_up' (311) panicked at ${at}:`, message, 'note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace', '', 'failures:', '    quota_rounds_up', '', 'test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s', '', 'error: test failed, to rerun pass `--test quota`'].join('\n');
  it('`assert!(cond, "...")` in tests/quota.rs', () => {
    const f = top(run('tests/quota.rs:12:5', '1.5 GiB should round up to 2, got 1'));
    expect([f?.class, f?.location?.file, f?.location?.line]).toEqual(['test-assertion', 'tests/quota.rs', 12]);
  });

  it("counter-examples: the runtime's own panic in the test file, or a panic in the code under test, is an error of the test", () => {
    expect(top(run('tests/quota.rs:12:40', 'called `Result::unwrap()` on an `Err` value: Overflow'))?.class).toBe('test-error');
    expect(top(run('src/quota.rs:30:9', 'quota table is empty'))?.class).toBe('test-error');
  });
});

describe("the project's frame when the innermost cause's stack is wholly the runtime's", () => {
  it("a JVM cause raised on the client's own thread: the wrapper's project frame is the place", () => {
    const log = ['+ java -cp build Ping', 'Exception in thread "main" java.net.ConnectException', '\tat java.net.http/jdk.internal.net.http.HttpClientImpl.send(HttpClientImpl.java:574)', '\tat org.acme.ping.Ping.main(Ping.java:22)', 'Caused by: java.net.ConnectException', '\tat java.net.http/jdk.internal.net.http.common.Utils.toConnectException(Utils.java:1083)', '\tat java.base/java.util.concurrent.CompletableFuture$AsyncSupply.run(CompletableFuture.java:1773)', '\tat java.base/java.lang.Thread.run(Thread.java:840)', 'Caused by: java.nio.channels.ClosedChannelException', '\tat java.base/sun.nio.ch.SocketChannelImpl.ensureOpen(SocketChannelImpl.java:195)', '\t... 2 more', 'Build step \'Execute shell\' marked build as failure'].join('\n');
    const f = top(log);
    expect([f?.class, f?.location?.file, f?.location?.line]).toEqual(['network', 'org/acme/ping/Ping.java', 22]);
  });

  it("CMake's call stack under an error in its own module: the project's row", () => {
    const log = ['+ cmake -S . -B build', 'CMake Error at /usr/share/cmake-3.28/Modules/FetchContent.cmake:1679 (message):', '  Build step for fmtlib failed: 2', 'Call Stack (most recent call first):', '  /usr/share/cmake-3.28/Modules/FetchContent.cmake:1819:EVAL:2 (__FetchContent_directPopulate)', '  /usr/share/cmake-3.28/Modules/FetchContent.cmake:2033 (FetchContent_Populate)', '  cmake/deps.cmake:14 (FetchContent_MakeAvailable)', '  CMakeLists.txt:6 (include)', '', '-- Configuring incomplete, errors occurred!'].join('\n');
    const f = top(log);
    expect([f?.location?.file, f?.location?.line]).toEqual(['cmake/deps.cmake', 14]);
  });

  it("counter-example: CMake's error at the project's own file keeps that place", () => {
    const log = ['+ cmake -S . -B build', 'CMake Error at src/CMakeLists.txt:12 (add_executable):', '  Cannot find source file:', '', '    main.cc', '', 'Call Stack (most recent call first):', '  CMakeLists.txt:3 (add_subdirectory)', '', '-- Configuring incomplete, errors occurred!'].join('\n');
    const f = top(log);
    expect([f?.location?.file, f?.location?.line]).toEqual(['src/CMakeLists.txt', 12]);
  });
});

describe("Node's heading of an ES module's error names the place as a file URL", () => {
  it('`file:///ws/main.js:1` over the import and its caret', () => {
    const log = ['+ node main.js', 'file:///ci/ws/app/main.js:3', 'import { total } from "./cart.js";', '         ^^^^^', "SyntaxError: The requested module './cart.js' does not provide an export named 'total'", '    at ModuleJob._instantiate (node:internal/modules/esm/module_job:213:21)', '    at async ModuleJob.run (node:internal/modules/esm/module_job:320:5)', '', 'Node.js v20.20.2', '##[error]Process completed with exit code 1.'].join('\n');
    const f = top(log);
    expect([f?.location?.file, f?.location?.line]).toEqual(['/ci/ws/app/main.js', 3]);
  });

  it('counter-example: an http URL with a port is no place', () => {
    const log = ['+ curl -fsS http://registry.internal:8081/health', 'curl: (7) Failed to connect to registry.internal port 8081 after 0 ms: Connection refused', '##[error]Process completed with exit code 7.'].join('\n');
    expect(top(log)?.location).toBeUndefined();
  });
});

describe("a tool refusing the CI script's own words is the script's error", () => {
  const step = (...lines: string[]): string => ['[job] $ /bin/bash -xe ci.sh', ...lines, "Build step 'Execute shell' marked build as failure", 'Finished: FAILURE'].join('\n');
  it("GNU sed's error in its own expression", () => {
    const f = top(step("+ sed -i -e 's/VERSION/1.4.0' chart/Chart.yaml", "sed: -e expression #1, char 14: unterminated `s' command"));
    expect([f?.class, f?.tool]).toEqual(['ci-script', 'sed']);
  });

  it('git run outside the checkout', () => {
    expect(top(step('+ git describe --tags', 'fatal: not a git repository (or any of the parent directories): .git'))?.class).toBe('ci-script');
  });

  it("python3 and node asked to run a script the checkout lacks", () => {
    expect(top(step('+ python3 tools/release.py', "python3: can't open file '/ci/ws/tools/release.py': [Errno 2] No such file or directory"))?.class).toBe('ci-script');
    const node = step('+ node scripts/bundle.js', 'node:internal/modules/cjs/loader:1210', '  throw err;', '  ^', '', "Error: Cannot find module '/ci/ws/scripts/bundle.js'", '    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)', '    at Module._load (node:internal/modules/cjs/loader:1038:27)', '    at node:internal/main/run_main_module:28:49 {', "  code: 'MODULE_NOT_FOUND',", '  requireStack: []', '}', '', 'Node.js v20.20.2');
    expect(top(node)?.class).toBe('ci-script');
  });

  it("counter-example: a module the project's code requires is not the script's", () => {
    const node = step('+ node index.js', "Error: Cannot find module './lib/rates'", 'Require stack:', '- /ci/ws/index.js', '    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)', '    at Object.<anonymous> (/ci/ws/index.js:2:15) {', "  code: 'MODULE_NOT_FOUND',", "  requireStack: [ '/ci/ws/index.js' ]", '}', '', 'Node.js v20.20.2');
    expect(top(node)?.class).not.toBe('ci-script');
  });
});

describe("the failing test's name where the runner prints several", () => {
  it("go test: the first `--- FAIL` over the message, not the second one after it", () => {
    const log = ['+ go test ./...', '--- FAIL: TestQuotaFull (0.00s)', '    quota_test.go:18: Reserve(10) = nil, want ErrFull', '--- FAIL: TestQuotaEmpty (0.00s)', '    quota_test.go:27: Free() = 1, want 0', 'FAIL', 'FAIL\texample.com/store/quota\t0.012s', 'FAIL', '##[error]Process completed with exit code 1.'].join('\n');
    const f = top(log);
    expect([f?.test?.name, f?.location?.line]).toEqual(['TestQuotaFull', 18]);
  });

  it("pytest: an error at teardown is named by its node id", () => {
    const log = ['+ pytest -q', '==================================== ERRORS ====================================', '_____________ ERROR at teardown of test_export_writes_header _____________', '', '    @pytest.fixture', '    def out(tmp_path):', '        yield tmp_path / "out.csv"', '>       (tmp_path / "out.csv").unlink()', '', 'tests/conftest.py:9: ', 'E   FileNotFoundError: [Errno 2] No such file or directory: \'/tmp/p/out.csv\'', '=========================== short test summary info ============================', 'ERROR tests/test_export.py::test_export_writes_header - FileNotFoundError: [Er...', '1 passed, 1 error in 0.05s'].join('\n');
    expect(top(log)?.test?.name).toBe('tests/test_export.py::test_export_writes_header');
  });
});
