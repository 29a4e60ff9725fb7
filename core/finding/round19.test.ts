import { describe, expect, it } from '@jest/globals';
import { analyze } from '../log/analyze.js';
import { genericFinding } from './generic.js';
import type { Finding } from '../../protocol/types.js';

/**
 * Round 19, opened for tuning (issue 25; docs/notes/analyzer.md, "Round 19 tuning (helper t20)"): each tool's own
 * wording on made-up logs of other projects and tool versions, with a counter-example.
 */
const top = (text: string): Finding | undefined => analyze(text)[0]?.finding;
const jenkins = (...lines: string[]): string => ['[Pipeline] sh', ...lines, '[Pipeline] }', '[Pipeline] End of Pipeline', 'ERROR: script returned exit code 1', 'Finished: FAILURE'].join('\n');
const actions = (...lines: string[]): string => ['##[group]Run bash -xe ci.sh', 'bash -xe ci.sh', '##[endgroup]', ...lines, '##[error]Process completed with exit code 1.'].join('\n');

describe('a system error met while writing or storing is that error, not the tool\'s own', () => {
  it("tsc's TS5033 (could not write its output: EACCES) is a permission error, not a compile error", () => {
    const f = top(actions('+ npx tsc -p tsconfig.build.json', "error TS5033: Could not write file '/srv/ci/ws/web/lib/main.js': EACCES: permission denied, open '/srv/ci/ws/web/lib/main.js'."));
    expect(f?.class).toBe('permission-credentials');
  });

  it("counter-example: tsc's TS5023 (an unknown compiler option) stays tsc's compile error", () => {
    const f = top(actions('+ npx tsc -p tsconfig.json', "error TS5023: Unknown compiler option 'strictNullCheck'."));
    expect(f?.class).toBe('compile-error');
  });

  it("SQLite's `attempt to write a readonly database` (any binding) is a permission error", () => {
    const f = top(jenkins('+ python3 tools/stamp.py', 'Traceback (most recent call last):', '  File "/srv/ci/ws/shop/tools/stamp.py", line 8, in <module>', '    db.execute("UPDATE meta SET built = ?", (now,))', 'sqlite3.OperationalError: attempt to write a readonly database'));
    expect(f?.class).toBe('permission-credentials');
  });

  it("counter-example: SQLite's `no such table` stays the program's exception", () => {
    const f = top(jenkins('+ python3 tools/stamp.py', 'Traceback (most recent call last):', '  File "/srv/ci/ws/shop/tools/stamp.py", line 8, in <module>', '    db.execute("UPDATE meta SET built = ?", (now,))', 'sqlite3.OperationalError: no such table: meta'));
    expect(f?.class).toBe('runtime-exception');
  });

  it('a program that aborted right after `cannot allocate memory` (lower case) ran out of memory', () => {
    const f = top(jenkins('+ ulimit -v 200000', '+ ./summarise.sh', 'error: cannot allocate memory', "./summarise.sh: line 3: 4182 Aborted                 jq -s 'map(.ms) | add' timings.ndjson"));
    expect([f?.class, f?.message]).toEqual(['out-of-memory', 'error: cannot allocate memory']);
  });
});

describe('pytest collection errors are no checks', () => {
  const collect = (...under: string[]): string =>
    jenkins('+ python3 -m pytest -q', 'collected 5 items / 1 error', '', '==================================== ERRORS ====================================', '_______________________ ERROR collecting tests/unit/test_io.py _______________________', ...under, '=========================== short test summary info ============================', 'ERROR tests/unit/test_io.py', '!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!');

  it("`import file mismatch:` under `ERROR collecting` is a test error, not an assertion (its `mismatch` is the importer's word)", () => {
    const f = top(collect('import file mismatch:', "imported module 'test_io' has this __file__ attribute:", '  /srv/ci/ws/app/tests/int/test_io.py', 'which is not the same as the test file we want to collect:', '  /srv/ci/ws/app/tests/unit/test_io.py'));
    expect(f?.class).toBe('test-error');
  });

  it('counter-example: a failed test whose check says `mismatch` is still an assertion', () => {
    const f = top(jenkins('+ python3 -m pytest -q', '=================================== FAILURES ===================================', '_________________________________ test_header _________________________________', '', '    def test_header():', '>       assert read_header(ROWS) == 3, "header mismatch"', 'E       AssertionError: header mismatch', 'E       assert 4 == 3', '', 'tests/test_csv.py:9: AssertionError', '=========================== short test summary info ============================', 'FAILED tests/test_csv.py::test_header - AssertionError: header mismatch', '1 failed in 0.12s'));
    expect(f?.class).toBe('test-assertion');
  });
});

describe("tools' own words for a cause the rules did not read", () => {
  it("CMake's find_package() config of a version the call does not accept is a dependency error, at the call", () => {
    const f = top(actions('+ cmake -S . -B build', 'CMake Error at src/CMakeLists.txt:12 (find_package):', '  Could not find a configuration file for package "Zstd" that is', '  compatible with requested version "1.6".', '', '  The following configuration files were considered but not accepted:', '', '    /opt/zstd/lib/cmake/Zstd/ZstdConfig.cmake, version: 1.4.8', '', '-- Configuring incomplete, errors occurred!'));
    expect([f?.class, f?.location?.file, f?.location?.line]).toEqual(['dependency-resolution', 'src/CMakeLists.txt', 12]);
  });

  it("CMake's generator whose build program is missing is a missing tool", () => {
    const f = top(jenkins('+ cmake -G "Unix Makefiles" -S . -B out', 'CMake Error: CMake was unable to find a build program corresponding to "Unix Makefiles".  CMAKE_MAKE_PROGRAM is not set.  You probably need to select a different build tool.', 'CMake Error: CMAKE_CXX_COMPILER not set, after EnableLanguage', '-- Configuring incomplete, errors occurred!'));
    expect(f?.class).toBe('missing-tool');
  });

  it("pkg-config's installed version below the one asked for is a dependency error", () => {
    const f = top(jenkins('+ ./configure.sh', "Package dependency requirement 'libpng16 >= 1.7' could not be satisfied.", "Package 'libpng16' has version '1.6.43', required version is '>= 1.7'"));
    expect([f?.class, f?.message]).toEqual(['dependency-resolution', "Package 'libpng16' has version '1.6.43', required version is '>= 1.7'"]);
  });

  it('counter-example: a program that prints a version and a requirement in other words is not read so', () => {
    const f = top(jenkins('+ ./check-versions.sh', 'schema has version 4, required version is 5: run migrations first'));
    expect(f?.class).not.toBe('dependency-resolution');
  });

  it("`git apply`'s `patch does not apply` is the script's patch, at the place `patch failed:` names", () => {
    const f = top(jenkins('+ git apply patches/0003-fix-overflow.patch', 'error: patch failed: vendor/lz/lz.c:88', 'error: vendor/lz/lz.c: patch does not apply'));
    expect([f?.class, f?.location?.file, f?.location?.line]).toEqual(['ci-script', 'vendor/lz/lz.c', 88]);
  });

  it("npx's `could not determine executable to run` and `python -m` of a package without __main__ are the script's", () => {
    expect(top(actions('+ npx @corp/lint-rules --fix', 'npm error could not determine executable to run', 'npm error A complete log of this run can be found in: /home/ci/.npm/_logs/x-debug-0.log'))?.class).toBe('ci-script');
    expect(top(jenkins('+ python3 -m reports', "/usr/bin/python3: No module named reports.__main__; 'reports' is a package and cannot be directly executed"))?.class).toBe('ci-script');
  });

  it('counter-example: `python -m` of a module that is not installed is not the script\'s', () => {
    const f = top(jenkins('+ python3 -m reports', '/usr/bin/python3: No module named reports'));
    expect(f?.class).not.toBe('ci-script');
  });

  it("http.client's `RemoteDisconnected` (a peer that closed without an answer) is the network", () => {
    const f = top(jenkins('+ python3 tools/push.py', 'Traceback (most recent call last):', '  File "/srv/ci/ws/app/tools/push.py", line 22, in <module>', '    urllib.request.urlopen(req)', '  File "/usr/lib/python3.12/http/client.py", line 300, in _read_status', '    raise RemoteDisconnected("Remote end closed connection without"', 'http.client.RemoteDisconnected: Remote end closed connection without response'));
    expect(f?.class).toBe('network');
  });
});

describe("ssh's refusal of a key others may read", () => {
  const ssh = (...lines: string[]): string => ['Started by user ci', '[deploy] $ /bin/bash -xe ci.sh', '+ ./ship.sh', ...lines, "Build step 'Execute shell' marked build as failure", 'Finished: FAILURE'].join('\n');

  it('the login refused under `Permissions 0640 for ... are too open.` has the key\'s mode as its message', () => {
    const f = top(ssh('@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@', '@         WARNING: UNPROTECTED PRIVATE KEY FILE!          @', '@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@', "Permissions 0640 for 'keys/ship_ed25519' are too open.", 'It is required that your private key files are NOT accessible by others.', 'This private key will be ignored.', 'Load key "keys/ship_ed25519": bad permissions', 'deploy@10.0.4.7: Permission denied (publickey).'));
    expect([f?.class, f?.message]).toEqual(['permission-credentials', "Permissions 0640 for 'keys/ship_ed25519' are too open."]);
  });

  it('counter-example: a login refused with no key refusal above keeps its own line', () => {
    const f = top(ssh('Warning: Permanently added \'10.0.4.7\' (ED25519) to the list of known hosts.', 'deploy@10.0.4.7: Permission denied (publickey).'));
    expect([f?.class, f?.message]).toEqual(['permission-credentials', 'deploy@10.0.4.7: Permission denied (publickey).']);
  });
});

describe("a property line of Node's error object is not the error", () => {
  const node = (...lines: string[]): string => jenkins('+ node scripts/ping-gateway.js', ...lines, '', 'Node.js v22.11.0');

  it("`code: 'ECONNRESET'` under the stack: the message is `Error: socket hang up` over it", () => {
    const f = top(node('node:events:497', '      throw er; // Unhandled \'error\' event', '      ^', '', 'Error: socket hang up', '    at Socket.socketOnEnd (node:_http_client:524:23)', '    at Socket.emit (node:events:531:35)', "Emitted 'error' event on ClientRequest instance at:", '    at emitErrorEvent (node:_http_client:101:11) {', "  code: 'ECONNRESET'", '}'));
    expect([f?.class, f?.message]).toEqual(['network', 'Error: socket hang up']);
  });

  it('counter-example: an error line that names the code itself stays the message', () => {
    const f = top(node('Error: connect ECONNREFUSED 127.0.0.1:8081', '    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1607:16) {', '  errno: -111,', "  code: 'ECONNREFUSED',", "  syscall: 'connect',", "  address: '127.0.0.1',", '  port: 8081', '}'));
    expect([f?.class, f?.message]).toEqual(['network', 'Error: connect ECONNREFUSED 127.0.0.1:8081']);
  });
});

describe("make's report of the recipe a time limit ended", () => {
  const gha = (...lines: string[]): string => ['##[group]Run bash -xe ci.sh', 'bash -xe ci.sh', '##[endgroup]', '+ timeout 30 make e2e', './tests/e2e.sh', ...lines].join('\n');

  it("`make: *** [Makefile:N: t] Terminated` over the runner's exit code 124 is the message", () => {
    const f = top(gha('make: *** [Makefile:12: e2e] Terminated', '##[error]Process completed with exit code 124.'));
    expect([f?.class, f?.message]).toEqual(['timeout-aborted', 'make: *** [Makefile:12: e2e] Terminated']);
  });

  it("counter-example: make's `Error 2` over exit code 124 is not taken for it", () => {
    const f = top(gha('make: *** [Makefile:12: e2e] Error 2', '##[error]Process completed with exit code 124.'));
    expect(f?.message).not.toBe('make: *** [Makefile:12: e2e] Error 2');
  });
});

describe("ruff's full output format", () => {
  const ruff = (...diag: string[]): string => actions('+ ruff check --output-format=full src', ...diag, 'Found 1 error.');

  it('the diagnostic is the code\'s line over ` --> file:line:col`, at that place', () => {
    const f = top(ruff('PLR2004 Magic value used in comparison, consider replacing `3` with a constant variable', '  --> src/tiles/grid.py:14:22', '   |', '14 |     if len(row) > 3:', '   |                   ^', '   |', ''));
    expect([f?.class, f?.message, f?.location?.file, f?.location?.line]).toEqual(['lint', 'PLR2004 Magic value used in comparison, consider replacing `3` with a constant variable', 'src/tiles/grid.py', 14]);
  });

  it('a window that opens at the arrow: the message is the line above it (generic.ts), not the excerpt under it', () => {
    const above = ['+ ruff check --output-format=full src', 'S307 Use of possibly insecure function; consider using `ast.literal_eval`'];
    const body = ['  --> src/tiles/grid.py:9:12', '   |', '9 |     return eval(spec)', '   |            ^^^^^^^^^^', '   |'];
    const g = genericFinding(body, () => undefined, 0, above);
    expect([g?.index, g?.place?.line]).toEqual([-1, 9]);
  });

  it("counter-example: webpack's place heading keeps its message below", () => {
    const g = genericFinding(['ERROR in ./src/index.js 3:0-32', "Module not found: Error: Can't resolve './missing' in '/srv/ci/ws/web/src'"], () => undefined, 0, ['> webpack --mode production']);
    expect(g?.index).toBe(1);
  });

  it("counter-example: rustc's `error[E0308]` over its arrow stays rustc's compile error", () => {
    const f = top(actions('+ cargo build', 'error[E0308]: mismatched types', ' --> src/main.rs:4:18', '  |', '4 |     let n: u32 = "4";', '  |            ---   ^^^ expected `u32`, found `&str`', 'error: could not compile `tiles` (bin "tiles") due to 1 previous error'));
    expect([f?.class, f?.message]).toEqual(['compile-error', 'error[E0308]: mismatched types']);
  });
});
