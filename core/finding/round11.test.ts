import { describe, expect, it } from '@jest/globals';
import { analyze } from '../../test/helpers/rulesReading.js';
import type { Finding } from '../../protocol/types.js';

/**
 * Round 11's misses, opened for tuning (issue 25; docs/notes/analyzer.md, "Round 11 opened (helper t12)"): each
 * form on a made-up log of another project, with a counter-example.
 */
const top = (text: string): Finding | undefined => analyze(text)[0]?.finding;
const jenkins = (...lines: string[]): string => ['[ci] $ /bin/bash -xe ci.sh', ...lines, "Build step 'Execute shell' marked build as failure", 'Finished: FAILURE'].join('\n');

describe("a tool's word on the CI script's own construction is ci-script", () => {
  it('exit 141 (SIGPIPE) under pipefail', () => {
    const log = ['+ set -euo pipefail', '++ git log --format=%H', '++ head -n 1', '+ last=4f1c2a', '##[error]Process completed with exit code 141.'].join('\n');
    expect(top(log)?.class).toBe('ci-script');
  });

  it("E2BIG: the shell's `Argument list too long` over the step's exit 126, not a permission", () => {
    const f = top(jenkins('+ bash scripts/pack.sh', 'scripts/pack.sh: line 7: /usr/bin/tar: Argument list too long', '[Pipeline] }', 'ERROR: script returned exit code 126'));
    expect([f?.class, f?.location?.file, f?.location?.line]).toEqual(['ci-script', 'scripts/pack.sh', 7]);
  });

  it("counter-example: exit 126 under the shell's `Permission denied` stays a permission error", () => {
    expect(top(jenkins('+ ./deploy.sh', 'ci.sh: line 3: ./deploy.sh: Permission denied', 'ERROR: script returned exit code 126'))?.class).toBe('permission-credentials');
  });

  it('ESLint without its configuration file; pytest given a path that is not there', () => {
    expect(top(jenkins('+ npx eslint src', '', "Oops! Something went wrong! :(", '', 'ESLint: 9.12.0', '', "ESLint couldn't find an eslint.config.(js|mjs|cjs) file.", '', 'From ESLint v9.0.0, the default configuration file is now eslint.config.js.'))?.class).toBe('ci-script');
    expect([top(jenkins('+ pytest -q tests/integration', 'no tests ran in 0.02s', 'ERROR: file or directory not found: tests/integration'))?.class]).toEqual(['ci-script']);
  });
});

describe('npm meeting a protocol it does not know is a dependency error', () => {
  it('`workspace:*` (a pnpm/yarn spec) under npm install', () => {
    const f = top(jenkins('+ npm ci', 'npm error code EUNSUPPORTEDPROTOCOL', 'npm error Unsupported URL Type "workspace:": workspace:^', 'npm error A complete log of this run can be found in: /root/.npm/_logs/x-debug-0.log'));
    expect([f?.class, f?.message]).toEqual(['dependency-resolution', 'npm error Unsupported URL Type "workspace:": workspace:^']);
  });
});

describe("a standard module of another Python version is the wrong interpreter, not a missing package", () => {
  it('`zoneinfo` on 3.8', () => {
    const log = jenkins('+ python3 -m app', 'Traceback (most recent call last):', '  File "/ci/ws/app/clock.py", line 2, in <module>', '    from zoneinfo import ZoneInfo', "ModuleNotFoundError: No module named 'zoneinfo'");
    expect(top(log)?.class).toBe('missing-tool');
  });

  it('counter-example: a package of PyPI stays a dependency', () => {
    const log = jenkins('+ python3 -m app', 'Traceback (most recent call last):', '  File "/ci/ws/app/clock.py", line 2, in <module>', '    import pendulum', "ModuleNotFoundError: No module named 'pendulum'");
    expect(top(log)?.class).toBe('dependency-resolution');
  });
});

describe('a crash inside a test run is an error of the test', () => {
  it("go's `fatal error: concurrent map writes` in a test's goroutine", () => {
    const log = ['+ go test -race=false -v ./...', '=== RUN   TestFill', 'fatal error: concurrent map writes', '', 'goroutine 21 [running]:', 'example.com/shop/stock.(*Index).Put(...)', '\t/ci/ws/stock/index.go:31 +0x8c', 'example.com/shop/stock.TestFill.func1(0x0?)', '\t/ci/ws/stock/index_test.go:14 +0x45', 'created by example.com/shop/stock.TestFill in goroutine 20', '\t/ci/ws/stock/index_test.go:12 +0x5a', 'FAIL\texample.com/shop/stock\t0.011s', '##[error]Process completed with exit code 1.'].join('\n');
    expect([top(log)?.class, top(log)?.test?.name]).toEqual(['test-error', 'TestFill']);
  });

  it("make's signal report for a test program it ran; counter-example: the project's own program is a run-time crash", () => {
    expect(top(jenkins('+ make check', 'cc -g -o test_ring tests/test_ring.c src/ring.c', './test_ring', 'make: *** [Makefile:6: check] Segmentation fault'))?.class).toBe('test-error');
    expect(top(jenkins('+ make run', 'cc -g -o lookup lookup.c', './lookup', 'make: *** [Makefile:6: run] Segmentation fault'))?.class).toBe('runtime-exception');
  });
});

describe("go's `f(x) = y` report under --- FAIL is a check the test made", () => {
  it('a fuzz seed that did not round-trip', () => {
    const log = ['+ go test ./...', '--- FAIL: FuzzParse (0.00s)', '    --- FAIL: FuzzParse/seed#1 (0.00s)', '        parse_test.go:19: Format(Parse("1e3")) = "1000"', 'FAIL', 'FAIL\texample.com/num\t0.004s', '##[error]Process completed with exit code 1.'].join('\n');
    expect(top(log)?.class).toBe('test-assertion');
  });

  it('counter-example: an error the test met (`open testdata/x: no such file`) is not', () => {
    const log = ['+ go test ./...', '--- FAIL: TestLoad (0.00s)', '    load_test.go:9: open testdata/prices.csv: no such file or directory', 'FAIL', 'FAIL\texample.com/num\t0.004s', '##[error]Process completed with exit code 1.'].join('\n');
    expect(top(log)?.class).not.toBe('test-assertion');
  });
});

describe('the cause, not its consequence', () => {
  it('a header not found that a refused submodule clone should have brought', () => {
    const log = jenkins('+ git submodule update --init', "Cloning into '/ci/ws/third_party/cbor'...", "fatal: unable to access 'https://git.example.com/libs/cbor.git/': Could not resolve host: git.example.com", "fatal: clone of 'https://git.example.com/libs/cbor.git' into submodule path '/ci/ws/third_party/cbor' failed", '+ make', 'cc -Ithird_party/cbor/src -c src/enc.c', 'src/enc.c:3:10: fatal error: cbor.h: No such file or directory', 'compilation terminated.', 'make: *** [Makefile:5: enc.o] Error 1');
    expect(top(log)?.class).toBe('network');
  });

  it('counter-example: a header the fetch did not name stays a compile error', () => {
    const log = jenkins('+ git submodule update --init', "fatal: unable to access 'https://git.example.com/libs/tinycbor.git/': Could not resolve host: git.example.com", '+ make', 'src/enc.c:3:10: fatal error: zstd.h: No such file or directory', 'make: *** [Makefile:5: enc.o] Error 1');
    expect(top(log)?.class).toBe('compile-error');
  });

  it("the go command's module fetch refused by the proxy: the status decides", () => {
    const at = (status: string): string => ['+ go build ./...', 'go: downloading example.com/kit v1.2.0', `cmd/api/main.go:7:2: example.com/kit@v1.2.0: reading https://goproxy.internal/example.com/kit/@v/v1.2.0.zip: ${status}`, '##[error]Process completed with exit code 1.'].join('\n');
    expect([top(at('403 Forbidden'))?.class, top(at('404 Not Found'))?.class]).toEqual(['permission-credentials', 'dependency-resolution']);
    expect([top(at('403 Forbidden'))?.location?.file, top(at('403 Forbidden'))?.location?.line]).toEqual(['cmd/api/main.go', 7]);
  });

  it("cargo: a path dependency's manifest not there, a vendored crate's checksum changed", () => {
    const moved = jenkins('+ cargo build --offline', 'error: failed to load manifest for workspace member `/ci/ws/crates/app`', 'referenced by workspace at `/ci/ws/Cargo.toml`', '', 'Caused by:', '  failed to load manifest for dependency `units`', '', 'Caused by:', '  failed to read `/ci/ws/crates/units/Cargo.toml`', '', 'Caused by:', '  No such file or directory (os error 2)');
    expect(top(moved)?.class).toBe('dependency-resolution');
    const vendored = jenkins('+ cargo test --offline', 'error: the listed checksum of `/ci/ws/vendor/crc/src/lib.rs` has changed:', 'expected: 1f0e', 'actual:   9a3c', '', 'directory sources are not intended to be edited, if modifications are required then it is recommended that `[patch]` is used with a forked copy of the source');
    expect(top(vendored)?.class).toBe('dependency-resolution');
  });
});

describe('the class a diagnostic names, whatever command ran it', () => {
  it("javac's error under `mvn verify` is a compile error, not a test's", () => {
    const log = ['+ mvn -B verify', '[INFO] --- compiler:3.13.0:compile (default-compile) @ orders ---', '[INFO] -------------------------------------------------------------', '[ERROR] COMPILATION ERROR : ', '[INFO] -------------------------------------------------------------', '[ERROR] /ci/ws/orders/src/main/java/shop/Orders.java:[12,5] method does not override or implement a method from a supertype', '[INFO] 1 error', '[INFO] BUILD FAILURE'].join('\n');
    expect(top(log)?.class).toBe('compile-error');
  });

  it("rustdoc's broken intra-doc link under -D warnings is lint", () => {
    const log = ['+ cargo doc --no-deps', ' Documenting geo v0.3.0 (/ci/ws)', 'error: unresolved link to `Point::norm`', ' --> src/lib.rs:4:12', '  |', '4 | /// Uses [`Point::norm`].', '  |            ^^^^^^^^^^^^^ no item named `norm` in `Point`', '  |', '  = note: `-D rustdoc::broken-intra-doc-links` implied by `-D warnings`', 'error: could not document `geo`', '##[error]Process completed with exit code 101.'].join('\n');
    expect([top(log)?.class, top(log)?.tool]).toEqual(['lint', 'rustdoc']);
  });

  it("JSON.parse's SyntaxError while a test runs is the test's error", () => {
    const json = ['+ npx vitest run', ' FAIL  test/rates.test.js [ test/rates.test.js ]', 'SyntaxError: Unexpected end of JSON input', ' ❯ test/rates.test.js:5:18', '      5|   const r = JSON.parse(readFileSync(\'fixtures/r.json\', \'utf8\'));', ' Test Files  1 failed (1)'].join('\n');
    expect(top(json)?.class).toBe('test-error');
  });
});

describe("ctest's summary over a check's own expected/got line far above", () => {
  it('the first failed result and its output, read as any excerpt is', () => {
    const passing = (from: number, to: number): string[] => Array.from({ length: to - from + 1 }, (_, i) => [`        Start ${from + i}: unit.${from + i}`, `${from + i}/300 Test #${from + i}: unit.${from + i} ..........   Passed    0.01 sec`]).flat();
    const log = jenkins('+ ctest --output-on-failure', 'Test project /ci/ws/build', ...passing(1, 250), '        Start 251: round.half', '251/300 Test #251: round.half ................***Failed    0.00 sec', 'tests/round_test.c:17: round_half(2.5): expected 3, got 2', '', ...passing(252, 300), '', '99% tests passed, 1 tests failed out of 300', '', 'The following tests FAILED:', '\t251 - round.half (Failed)', 'Errors while running CTest');
    const f = top(log);
    expect([f?.class, f?.location?.file, f?.location?.line, f?.test?.name]).toEqual(['test-assertion', 'tests/round_test.c', 17, 'round.half']);
  });
});

describe("an EXIT trap's output after the failure is its aftermath", () => {
  const log = (failing: string[]): string => ['+ trap \'echo "publishing"; tar czf out.tgz out/ && ls -l out.tgz\' EXIT', '+ python3 tools/build_index.py', ...failing, '+ echo publishing', 'publishing', '+ tar czf out.tgz out/', 'tar: out: Cannot stat: No such file or directory', 'tar: Exiting with failure status due to previous errors', '##[error]Process completed with exit code 2.'].join('\n');
  it("the failed command's traceback, not the trap's tar error", () => {
    const f = top(log(['Traceback (most recent call last):', '  File "/ci/ws/tools/build_index.py", line 12, in <module>', '    rows = load(sys.argv[1])', 'IndexError: list index out of range']));
    expect([f?.class, f?.location?.line]).toEqual(['runtime-exception', 12]);
  });

  it('counter-example: with no failure before it, the trap\'s own error stands', () => {
    expect(top(log(['indexed 42 files']))?.class).not.toBe('runtime-exception');
  });
});

describe('places the resolvers print apart from their verdict', () => {
  it("Maven's model warning at the POM line of a systemPath dependency whose jar is not there", () => {
    const log = ['+ mvn -B package', "[WARNING] 'dependencies.dependency.systemPath' for org.old:codec:jar refers to a non-existing file /ci/ws/lib/codec-0.9.jar @ line 31, column 19", '[INFO] BUILD FAILURE', '[ERROR] Failed to execute goal on project app: Could not resolve dependencies for project g:app:jar:1.0: Could not find artifact org.old:codec:jar:0.9 at specified path /ci/ws/lib/codec-0.9.jar -> [Help 1]'].join('\n');
    expect([top(log)?.location?.file, top(log)?.location?.line]).toEqual(['pom.xml', 31]);
  });

  it("pip's one requirement that cannot be installed; counter-example: two that conflict name no one place", () => {
    const one = ['+ pip install -c constraints.txt -r requirements.txt', 'ERROR: Cannot install -r requirements.txt (line 3) because these package versions have conflicting dependencies.', '', 'The conflict is caused by:', '    The user requested (constraint) urllib3<2'].join('\n');
    expect([top(one)?.location?.file, top(one)?.location?.line]).toEqual(['requirements.txt', 3]);
    const two = ['+ pip install -r requirements.txt', 'ERROR: Cannot install -r requirements.txt (line 1) and urllib3==2.2.0 because these package versions have conflicting dependencies.'].join('\n');
    expect(top(two)?.location?.line).toBeUndefined();
  });
});

describe("Gradle's task name glued to its first output line", () => {
  it('`:compileJava/ws/src/A.java:12: warning: ...` is javac\'s first warning under -Werror', () => {
    const log = ['+ gradle build', ':compileJava/ci/ws/src/main/java/shop/Cart.java:9: warning: [rawtypes] found raw type: Map', '    private Map items = new HashMap<>();', '            ^', '/ci/ws/src/main/java/shop/Cart.java:11: warning: [unchecked] unchecked call to put(K,V)', 'error: warnings found and -Werror specified', '1 error', ':compileJava FAILED', 'BUILD FAILED in 2s'].join('\n');
    const f = top(log);
    expect([f?.message, f?.location?.line]).toEqual(['/ci/ws/src/main/java/shop/Cart.java:9: warning: [rawtypes] found raw type: Map', 9]);
  });
});
