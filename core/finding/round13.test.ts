import { describe, expect, it } from '@jest/globals';
import { analyze } from '../../test/helpers/rulesReading.js';
import type { Finding } from '../../protocol/types.js';

/**
 * Round 13's misses, opened for tuning (issue 25; docs/notes/analyzer.md, "Round 13 opened (helper t14)"): each
 * rule (rules13.ts, localDep.ts) on a made-up log of another project and tool version, with a counter-example.
 */
const top = (text: string): Finding | undefined => analyze(text)[0]?.finding;
const jenkins = (...lines: string[]): string => ['[ci] $ /bin/bash -xe ci.sh', ...lines, "Build step 'Execute shell' marked build as failure", 'Finished: FAILURE'].join('\n');
const gha = (...lines: string[]): string => ['##[group]Run ./build.sh', ...lines, '##[error]Process completed with exit code 1.'].join('\n');

describe("automake's required file is the project's build setup, not a compile error", () => {
  it('`Makefile.am: error: required file ./README not found` (gnu strictness)', () => {
    const f = top(gha('+ autoreconf -i', "src/Makefile.am:3: installing './depcomp'", "Makefile.am: error: required file './README' not found", 'autoreconf: automake failed with exit status: 1'));
    expect([f?.class, f?.tool]).toEqual(['ci-script', 'automake']);
  });

  it("counter-example: libtool's own ltmain.sh is not read as the project's file", () => {
    const f = top(gha('+ autoreconf -i', "configure.ac:12: error: required file './ltmain.sh' not found", 'autoreconf: automake failed with exit status: 1'));
    expect(f?.tool).not.toBe('automake');
  });
});

describe("cmake's stale build directory is the script's", () => {
  it('another generator than the one of the CMakeCache.txt', () => {
    const f = top(jenkins('+ cmake -S . -B out -G "Unix Makefiles"', 'CMake Error: Error: generator : Unix Makefiles', 'Does not match the generator used previously: Ninja', 'Either remove the CMakeCache.txt file and CMakeFiles directory or choose a different binary directory.'));
    expect([f?.class, f?.message]).toEqual(['ci-script', 'Does not match the generator used previously: Ninja']);
  });

  it('counter-example: a compiler cmake cannot find stays out of it', () => {
    expect(top(jenkins('+ cmake -S . -B out', 'CMake Error at CMakeLists.txt:2 (project):', '  No CMAKE_CXX_COMPILER could be found.'))?.class).not.toBe('ci-script');
  });
});

describe("maven's -pl naming no module is the script's selection", () => {
  it('`Could not find the selected project in the reactor`', () => {
    const f = top(jenkins('+ mvn -B -pl api-gateway verify', '[INFO] Scanning for projects...', '[ERROR] Could not find the selected project in the reactor: api-gateway -> [Help 1]'));
    expect([f?.class, f?.tool]).toEqual(['ci-script', 'maven']);
  });
});

describe("pip's invalid requirement line is a dependency list that does not resolve, at its line", () => {
  it('`Invalid requirement` from a constraints file', () => {
    const f = top(gha('+ pip install -r requirements/dev.txt', "ERROR: Invalid requirement: 'requests>=2,,<3' (from line 7 of requirements/dev.txt)"));
    expect([f?.class, f?.location?.file, f?.location?.line]).toEqual(['dependency-resolution', 'requirements/dev.txt', 7]);
  });

  it('counter-example: a requirement that resolves to nothing is still read by the resolver rule', () => {
    expect(top(gha('+ pip install -r requirements.txt', 'ERROR: Could not find a version that satisfies the requirement flask==9.9 (from versions: 2.3.3)', 'ERROR: No matching distribution found for flask==9.9'))?.class).toBe('dependency-resolution');
  });
});

describe("the JDK's HTTP client timing out is the network", () => {
  it('HttpConnectTimeoutException in a Gradle-run smoke test', () => {
    const f = top(gha('+ java -jar build/libs/probe.jar https://staging.internal', 'Exception in thread "main" java.net.http.HttpConnectTimeoutException: HTTP connect timed out', '\tat java.net.http/jdk.internal.net.http.HttpClientImpl.send(HttpClientImpl.java:951)', '\tat probe.Main.main(Main.java:31)'));
    expect(f?.class).toBe('network');
  });

  it('counter-example: another java.net.http exception is not read as a timeout', () => {
    const f = top(gha('+ java -jar probe.jar', 'Exception in thread "main" java.lang.IllegalArgumentException: invalid URI scheme ftp', '\tat java.net.http/jdk.internal.net.http.common.Utils.checkURI(Utils.java:40)', '\tat probe.Main.main(Main.java:12)'));
    expect(f?.class).not.toBe('network');
  });
});

describe('rustc: a nightly feature on stable is a missing toolchain; the const evaluator out of memory is memory', () => {
  it('E0554 at the attribute', () => {
    const f = top(gha('+ cargo build', '   Compiling parser v1.2.0 (/ws)', 'error[E0554]: `#![feature]` may not be used on the stable release channel', ' --> crates/parser/src/lib.rs:3:12', '  |', '3 | #![feature(let_chains)]', '  |            ^^^^^^^^^^', 'error: could not compile `parser` (lib) due to 1 previous error'));
    expect([f?.class, f?.location?.file, f?.location?.line]).toEqual(['missing-tool', 'crates/parser/src/lib.rs', 3]);
  });

  it('E0080 allocation failure at the constant', () => {
    const f = top(gha('+ cargo build --release', 'error[E0080]: tried to allocate more memory than available to compiler', ' --> src/lut.rs:4:30', 'error: could not compile `lut` (lib) due to 1 previous error'));
    expect([f?.class, f?.location?.file]).toEqual(['out-of-memory', 'src/lut.rs']);
  });

  it('counter-example: another E0080 (an overflow in a constant) stays a compile error', () => {
    const f = top(gha('+ cargo build', 'error[E0080]: evaluation of constant value failed', ' --> src/lib.rs:1:19', '  |', '1 | const X: u8 = 255 + 1;', '  |               ^^^^^^^ attempt to compute `u8::MAX + 1_u8`, which would overflow', 'error: could not compile `x` (lib) due to 1 previous error'));
    expect(f?.class).toBe('compile-error');
  });
});

describe("go: an import that differs from the package's directory only in case is the source's", () => {
  it('`no required module provides package` over `case-insensitive import collision`', () => {
    const f = top(gha('+ go build ./...', 'internal/api/server.go:9:2: no required module provides package github.com/acme/shop/internal/Models; to add it:', '\tgo get github.com/acme/shop/internal/Models', 'case-insensitive import collision: "github.com/acme/shop/internal/models" and "github.com/acme/shop/internal/Models"'));
    expect([f?.class, f?.location?.line]).toEqual(['compile-error', 9]);
  });

  it('counter-example: without the collision, a module missing from go.mod', () => {
    const f = top(gha('+ go build ./...', 'cmd/api/main.go:7:2: no required module provides package github.com/go-chi/chi/v5; to add it:', '\tgo get github.com/go-chi/chi/v5'));
    expect(f?.class).toBe('dependency-resolution');
  });
});

describe("npm run where there is no package.json is the script's call; under an install, a local dependency", () => {
  const enoent = (cmd: string, dir: string): string =>
    jenkins(`+ ${cmd}`, 'npm error code ENOENT', 'npm error syscall open', `npm error path ${dir}/package.json`, `npm error enoent Could not read package.json: Error: ENOENT: no such file or directory, open '${dir}/package.json'`, 'npm error enoent This is related to npm not being able to find a file.');

  it('`npm run build` in the repository root of a monorepo', () => {
    expect(top(enoent('npm run build', '/var/lib/jenkins/workspace/shop'))?.class).toBe('ci-script');
  });

  it('counter-example: `npm ci` not finding a file: dependency stays a dependency', () => {
    expect(top(enoent('npm ci', '/var/lib/jenkins/workspace/shop/libs/ui'))?.class).toBe('dependency-resolution');
  });
});

describe("jest's `Test suite failed to run` is the suite's error, not a test's check", () => {
  it("a setup file's own throw (a variable not set)", () => {
    const f = top(gha('+ npx jest', 'FAIL src/api.test.ts', '  ● Test suite failed to run', '', '    Missing STRIPE_KEY in the environment', '', '      at Object.<anonymous> (tests/support/env.setup.ts:7:11)', 'Test Suites: 1 failed, 1 total', 'Tests:       0 total'));
    expect([f?.class, f?.message]).toEqual(['test-error', 'Missing STRIPE_KEY in the environment']);
  });

  it("counter-example: a test's expect() stays an assertion", () => {
    const f = top(gha('+ npx jest', 'FAIL src/sum.test.ts', '  ● sum › adds', '', '    expect(received).toBe(expected) // Object.is equality', '', '    Expected: 3', '    Received: 4', '', '      at Object.<anonymous> (src/sum.test.ts:4:21)', 'Tests:       1 failed, 1 total'));
    expect(f?.class).toBe('test-assertion');
  });
});

describe("a Go test binary's panic before any test (a package's init) is a test error", () => {
  const panicking = (verdict: string[]): string =>
    gha('+ go test ./...', 'panic: template: page:1: unexpected "}" in operand', '', 'goroutine 1 [running]:', 'html/template.Must(...)', '\t/usr/local/go/src/html/template/template.go:368', 'example.com/site/render.init()', '\t/src/site/render/render.go:11 +0x8f', ...verdict);

  it('`FAIL\\tpkg\\t0.01s` below the panic', () => {
    expect(top(panicking(['FAIL\texample.com/site/render\t0.012s', 'FAIL']))?.class).toBe('test-error');
  });

  it('counter-example: the same panic under `go run` is the program\'s', () => {
    expect(top(panicking(['exit status 2']))?.class).toBe('runtime-exception');
  });
});

describe("Python: an import caught by the code (`During handling ...`) is context; what the handler raised stopped it", () => {
  it("a library's optional import caught, then its own error on the program's value", () => {
    const f = top(gha('+ python3 -m billing.invoice', 'Traceback (most recent call last):', '  File "/usr/lib/python3.12/importlib/__init__.py", line 90, in import_module', '    return _bootstrap._gcd_import(name[level:], package, level)', '  File "<frozen importlib._bootstrap>", line 1387, in _gcd_import', "ModuleNotFoundError: No module named 'babel_data'", 'During handling of the above exception, another exception occurred:', 'Traceback (most recent call last):', '  File "/src/billing/invoice.py", line 12, in <module>', '    fmt = format_currency(total, "EUR", locale="pt_BR")', '  File "/usr/lib/python3/dist-packages/babel/core.py", line 310, in parse', '    raise UnknownLocaleError(identifier)', "babel.core.UnknownLocaleError: unknown locale 'pt_BRR'"));
    expect([f?.class, f?.exception]).toEqual(['runtime-exception', 'UnknownLocaleError']);
  });

  it('counter-example: an import that was not caught stays a missing dependency', () => {
    const f = top(gha('+ python3 -m app.report', 'Traceback (most recent call last):', '  File "/src/app/report.py", line 3, in <module>', '    import yaml', "ModuleNotFoundError: No module named 'yaml'"));
    expect(f?.class).toBe('dependency-resolution');
  });
});

describe("ctest -V: the test's own output above its result line holds its check", () => {
  const run = (output: string[]): string =>
    gha('+ ctest --test-dir out -V', 'test 7', '        Start   7: parse_dates', '', '7: Test command: /ws/out/t_dates "iso"', '7: Test timeout computed to be: 1500', ...output, '7/9 Test  #7: parse_dates ......................***Failed    0.01 sec', '', '89% tests passed, 1 tests failed out of 9', '', 'The following tests FAILED:', '\t  7 - parse_dates (Failed)', 'Errors while running CTest');

  it('`7: tests/dates.c:41: parse("2024-02-30") = 0, want -1` is the test\'s check, at its place', () => {
    const f = top(run(['7: parsing 12 dates', '7: tests/dates.c:41: parse("2024-02-30") = 0, want -1']));
    expect([f?.class, f?.location?.file, f?.location?.line, f?.test?.name]).toEqual(['test-assertion', 'tests/dates.c', 41, 'parse_dates']);
  });

  it('counter-example: output without a check stays an error of the test', () => {
    expect(top(run(['7: parsing 12 dates', '7: could not open fixtures/dates.txt']))?.class).not.toBe('test-assertion');
  });
});

describe('Rust: a panic on a poisoned lock is the aftermath of the panic that poisoned it', () => {
  const panics = (second: string): string =>
    gha('+ cargo run --release', "thread '<unnamed>' panicked at src/pool.rs:88:21:", 'attempt to divide by zero', 'note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace', '', "thread 'main' panicked at src/main.rs:40:38:", second);

  it('the first panic (a spawned thread) is the cause', () => {
    const f = top(panics('called `Result::unwrap()` on an `Err` value: PoisonError { .. }'));
    expect([f?.class, f?.location?.file, f?.location?.line]).toEqual(['runtime-exception', 'src/pool.rs', 88]);
  });

  it("a program's own thread (`main`, `<unnamed>`) names no test", () => {
    const f = top(gha('+ cargo run', "thread '<unnamed>' (4411) panicked at src/shard.rs:9:5:", 'index out of bounds: the len is 2 but the index is 2'));
    expect([f?.class, f?.test]).toEqual(['runtime-exception', undefined]);
  });

  it('counter-example: without a PoisonError, the later panic is not replaced', () => {
    const f = top(panics('called `Option::unwrap()` on a `None` value'));
    expect(f?.location?.file).not.toBe('src/pool.rs');
  });
});

describe('go test -v: nested subtests, the first failing leaf and its message far above', () => {
  const run = (message: string): string =>
    gha('+ go test -v ./...', '=== RUN   TestParse', '=== RUN   TestParse/dates', '=== RUN   TestParse/dates/iso', `    parse_test.go:31: ${message}`, '=== RUN   TestParse/dates/rfc', '    parse_test.go:31: Parse("Mon, 02 Jan"): bad layout', ...Array.from({ length: 400 }, (_, i) => `=== RUN   TestParse/other_${i}`), '--- FAIL: TestParse (0.00s)', '    --- FAIL: TestParse/dates (0.00s)', '        --- FAIL: TestParse/dates/iso (0.00s)', '        --- FAIL: TestParse/dates/rfc (0.00s)', ...Array.from({ length: 400 }, (_, i) => `    --- PASS: TestParse/other_${i} (0.00s)`), 'FAIL', 'FAIL\texample.com/feed/parse\t0.004s', 'FAIL');

  it("a check in the Go wiki's form (`Parse(\"2024-13-01\"): month out of range`) is the test's assertion, at its line", () => {
    const f = top(run('Parse("2024-13-01"): month out of range'));
    expect([f?.class, f?.location?.line, f?.test?.name]).toEqual(['test-assertion', 31, 'TestParse/dates/iso']);
  });

  it('counter-example: an error the test met (a fixture it could not open) stays an error of the test', () => {
    expect(top(run('ReadFile("testdata/iso.txt"): open testdata/iso.txt: no such file or directory'))?.class).toBe('test-error');
  });
});

describe('round 12 rows read by documented wordings (pip 401, CMake build tree not writable)', () => {
  it("pip's `401 Error, Credentials not correct` above the resolver's verdict is the cause", () => {
    const f = top(jenkins('+ pip install -r requirements/prod.txt', 'Looking in indexes: https://__token__:****@pypi.corp.example/simple/', 'WARNING: 401 Error, Credentials not correct for https://pypi.corp.example/simple/corp-auth/', 'ERROR: Could not find a version that satisfies the requirement corp-auth==3.1 (from versions: none)', 'ERROR: No matching distribution found for corp-auth==3.1'));
    expect([f?.class, f?.host]).toEqual(['permission-credentials', 'pypi.corp.example']);
  });

  it("counter-example: the resolver's verdict alone stays a resolution failure", () => {
    const f = top(jenkins('+ pip install -r requirements/prod.txt', 'ERROR: Could not find a version that satisfies the requirement corp-auth==3.1 (from versions: none)', 'ERROR: No matching distribution found for corp-auth==3.1'));
    expect(f?.class).toBe('dependency-resolution');
  });

  it("CMake that cannot create its pkgRedirects directory: the build tree is not the user's", () => {
    const f = top(gha('+ sudo -u builder cmake -S . -B /srv/build', 'CMake Error: Unable to (re)create the private pkgRedirects directory:', '/srv/build/CMakeFiles/pkgRedirects'));
    expect([f?.class, f?.confidence]).toEqual(['permission-credentials', 'medium']);
  });
});

describe("make's include of a missing file is the cause; its `No rule to make target` the consequence", () => {
  it('`GNUmakefile:4: local.mk: No such file or directory` over the stop', () => {
    const f = top(gha('+ make -j4 all', 'GNUmakefile:4: local.mk: No such file or directory', "make: *** No rule to make target 'local.mk'.  Stop."));
    expect([f?.message, f?.location?.file, f?.location?.line]).toEqual(['GNUmakefile:4: local.mk: No such file or directory', 'GNUmakefile', 4]);
  });

  it('counter-example: a recipe\'s missing input (no include) is still read from the stop', () => {
    const f = top(gha('+ make dist', "make: *** No rule to make target 'docs/manual.pdf'.  Stop."));
    expect(f?.message).toContain('No rule to make target');
  });
});

describe('general wordings probed on made-up logs of other tools (no tuning case holds them)', () => {
  it("coreutils' `timeout --verbose` is the command's time limit", () => {
    expect(top(gha('+ timeout --verbose 60 npm test', '> jest', "timeout: sending signal TERM to command 'npm'"))?.class).toBe('timeout-aborted');
  });

  it("git's `RPC failed; curl 92` is the network; counter-example: git's refusal of a ref is not", () => {
    expect(top(gha('+ git fetch origin', 'error: RPC failed; curl 92 HTTP/2 stream 5 was not closed cleanly: CANCEL (err 8)', 'fatal: the remote end hung up unexpectedly'))?.class).toBe('network');
    expect(top(gha('+ git checkout v9.9', "error: pathspec 'v9.9' did not match any file(s) known to git"))?.class).not.toBe('network');
  });

  it("BuildKit's `exit code: 137` is a kill (memory); counter-example: exit code 1 is not", () => {
    expect(top(gha('+ docker build .', 'ERROR: failed to solve: process "/bin/sh -c npm ci" did not complete successfully: exit code: 137'))?.class).toBe('out-of-memory');
    expect(top(gha('+ docker build .', 'ERROR: failed to solve: process "/bin/sh -c npm ci" did not complete successfully: exit code: 1'))?.class).not.toBe('out-of-memory');
  });

  it("rustc's `linker `cc` not found` is a missing tool", () => {
    expect(top(gha('+ cargo build', '   Compiling app v0.1.0 (/ws)', 'error: linker `cc` not found', '  |', '  = note: No such file or directory (os error 2)'))?.class).toBe('missing-tool');
  });

  it("env's interpreter not on PATH is a missing tool; counter-example: env's own run of a present script's error is not", () => {
    expect(top(gha('+ ./scripts/gen.py', "/usr/bin/env: 'python': No such file or directory"))?.class).toBe('missing-tool');
    expect(top(gha('+ ./bin/cli', 'env: ‘node’: No such file or directory'))?.class).toBe('missing-tool');
    expect(top(gha('+ env -C build make', 'env: cannot change directory to build: No such file or directory'))?.class).not.toBe('missing-tool');
  });
});

describe('more tools probed (hadolint, lld, NuGet, Ruby)', () => {
  it("hadolint's `Dockerfile:4 DL3008 warning:` is lint at the Dockerfile's line", () => {
    const f = top(gha('+ hadolint docker/Dockerfile', 'docker/Dockerfile:4 DL3008 warning: Pin versions in apt get install.'));
    expect([f?.class, f?.location?.line]).toEqual(['lint', 4]);
  });

  it("lld's `duplicate symbol` is a link error; counter-example: a compiler's redefinition stays a compile error", () => {
    expect(top(gha('+ ninja', 'ld.lld: error: duplicate symbol: log_init', '>>> defined at log.c:4 (src/log.c:4)'))?.class).toBe('link-error');
    expect(top(gha('+ ninja', "src/log.c:9:6: error: redefinition of 'log_init'"))?.class).toBe('compile-error');
  });

  it("NuGet's NU1101 is a resolution failure; counter-example: its NU1603 warning alone is not", () => {
    expect(top(gha('+ dotnet restore', '/ws/App.csproj : error NU1101: Unable to find package Acme.Lib. No packages exist with this id in source(s): nuget.org'))?.class).toBe('dependency-resolution');
    expect(top(gha('+ dotnet restore', '/ws/App.csproj : warning NU1603: App depends on Acme.Lib (>= 1.0.0) but Acme.Lib 1.0.0 was not found.'))?.tool).not.toBe('nuget');
  });

  it("Ruby's uncaught exception is a run-time exception at the script's line; its LoadError of a library a missing gem", () => {
    const f = top(gha('+ ruby bin/import', "bin/import:9:in 'block in <main>': undefined method 'strip' for nil (NoMethodError)"));
    expect([f?.class, f?.location?.file, f?.location?.line]).toEqual(['runtime-exception', 'bin/import', 9]);
    expect(top(gha('+ ruby bin/import', "<internal:/usr/lib/ruby/3.3.0/rubygems/core_ext/kernel_require.rb>:136:in `require': cannot load such file -- nokogiri (LoadError)"))?.class).toBe('dependency-resolution');
  });

  it("counter-example: Ruby's LoadError on a relative path is the project's own file, no dependency", () => {
    expect(top(gha('+ ruby bin/import', "bin/import:2:in `require_relative': cannot load such file -- /ws/lib/importer (LoadError)"))?.class).not.toBe('dependency-resolution');
  });
});

describe("surefire's forked VM that died in the tests is a test error; killed, it is memory", () => {
  const fork = (code: string): string =>
    jenkins('+ mvn -B verify', '[INFO] BUILD FAILURE', '[ERROR] Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:3.5.2:test (default-test) on project billing: ', '[ERROR] The forked VM terminated without properly saying goodbye. VM crash or System.exit called?', "[ERROR] Command was /bin/sh -c cd '/ws/billing' && '/opt/java/bin/java' '-jar' 'surefirebooter.jar'", `[ERROR] Process Exit Code: ${code}`, '[ERROR] Crashed tests:', '[ERROR] com.acme.billing.ExportTest');

  it('System.exit(3) in a test', () => {
    expect(top(fork('3'))?.class).toBe('test-error');
  });

  it('counter-example: exit code 137 (SIGKILL) is the memory limit', () => {
    expect(top(fork('137'))?.class).toBe('out-of-memory');
  });
});

describe("configure's syntax error on an unexpanded m4 macro is the macro's package missing", () => {
  const configure = (quoted: string): string => gha('+ autoreconf -fi', '+ ./configure --prefix=/usr', 'checking for gcc... gcc', "./configure: line 4120: syntax error near unexpected token `glib-2.0,'", `./configure: line 4120: \`${quoted}'`);

  it('`PKG_CHECK_MODULES(` left in configure (pkg.m4 not installed)', () => {
    expect(top(configure('PKG_CHECK_MODULES(GLIB, glib-2.0, ,'))?.class).toBe('missing-tool');
  });

  it("counter-example: a shell line of the project's own configure.ac stays the script's error", () => {
    expect(top(configure('if test "x$with_glib" = xyes ]; then glib-2.0,'))?.class).not.toBe('missing-tool');
  });
});

describe("CMake's add_subdirectory of a directory without CMakeLists.txt is a dependency not there", () => {
  const log = (heading: string): string => gha('+ cmake -S . -B out', `CMake Error at ${heading}:`, '  The source directory', '', '    /ws/extern/json', '', '  does not contain a CMakeLists.txt file.', '', '-- Configuring incomplete, errors occurred!');

  it('a submodule not checked out, at the add_subdirectory line', () => {
    const f = top(log('cmake/deps.cmake:12 (add_subdirectory)'));
    expect([f?.class, f?.location?.file, f?.location?.line]).toEqual(['dependency-resolution', 'cmake/deps.cmake', 12]);
  });

  it('counter-example: the same words under another command are not read so', () => {
    expect(top(log('CMakeLists.txt:5 (include)'))?.class).not.toBe('dependency-resolution');
  });
});

describe("CMake's compile feature the compiler does not know is a compiler too old", () => {
  const log = (feature: string, heading = 'src/CMakeLists.txt:9 (target_compile_features)'): string =>
    gha('+ cmake -S . -B out', `CMake Error at ${heading}:`, `  target_compile_features The compiler feature "${feature}" is not known to`, '  C compiler', '', '  "Clang"', '', '  version 11.0.1.', '', '-- Configuring incomplete, errors occurred!');

  it('c_std_23 on an old clang: missing-tool at the call', () => {
    const f = top(log('c_std_23'));
    expect([f?.class, f?.confidence, f?.location?.file, f?.location?.line]).toEqual(['missing-tool', 'medium', 'src/CMakeLists.txt', 9]);
  });

  it('counter-example: the same words under another command are not read so', () => {
    expect(top(log('c_std_23', 'CMakeLists.txt:5 (message)'))?.class).not.toBe('missing-tool');
  });
});
