import { describe, expect, it } from '@jest/globals';
import { analyze } from '../../test/helpers/rulesReading.js';
import type { Finding } from '../../protocol/types.js';

/**
 * Rounds 14 and 15, opened for tuning (issue 25; docs/notes/analyzer.md, "Rounds 14 and 15 opened (helper t16)"):
 * each general fact on made-up logs of other projects and tool versions, with a counter-example.
 */
const top = (text: string): Finding | undefined => analyze(text)[0]?.finding;
const jenkins = (...lines: string[]): string => ['[Pipeline] sh', ...lines, '[Pipeline] }', '[Pipeline] End of Pipeline', 'ERROR: script returned exit code 101', 'Finished: FAILURE'].join('\n');
const gha = (...lines: string[]): string => ['##[group]Run ./build.sh', ...lines, '##[error]Process completed with exit code 1.'].join('\n');

const backtrace = [
  'stack backtrace:',
  '   0: __rustc::rust_begin_unwind',
  '             at /rustc/0123456789abcdef/library/std/src/panicking.rs:689:5',
  '   1: core::panicking::panic_fmt',
  '             at /rustc/0123456789abcdef/library/core/src/panicking.rs:80:14',
  '   2: tally::main',
  '             at ./src/main.rs:14:21',
  'note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.',
];

describe("Rust's panic heading with the thread's id (Rust >= 1.88: `thread 'main' (7423) panicked at`)", () => {
  it('is the failure, over a backtrace and the step exit', () => {
    const f = top(jenkins('+ cargo run --release', '', "thread 'main' (2211) panicked at src/main.rs:14:21:", 'index out of bounds: the len is 3 but the index is 7', ...backtrace));
    expect([f?.class, f?.message, f?.location?.file, f?.location?.line]).toEqual(['runtime-exception', 'index out of bounds: the len is 3 but the index is 7', 'src/main.rs', 14]);
  });

  it("a `#[should_panic(expected)]` test whose panic said something else: libtest's note is the verdict", () => {
    const f = top(
      jenkins(
        '+ cargo test',
        'test limits::rejects_zero - should panic ... FAILED',
        '',
        'failures:',
        '',
        '---- limits::rejects_zero stdout ----',
        '',
        "thread 'limits::rejects_zero' (918) panicked at src/limits.rs:9:13:",
        'limit must be positive, got 0',
        ...backtrace,
        'note: panic did not contain expected string',
        '      panic message: "limit must be positive, got 0"',
        ' expected substring: "limit out of range"',
        '',
        'test result: FAILED. 4 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s',
      ),
    );
    expect([f?.class, f?.message]).toEqual(['test-assertion', 'note: panic did not contain expected string']);
  });

  it("counter-example: a panic followed by another note is the panic's", () => {
    const f = top(gha('+ cargo test', "thread 'limits::rejects_zero' (918) panicked at src/limits.rs:9:13:", 'limit must be positive, got 0', ...backtrace, '', 'test result: FAILED. 4 passed; 1 failed'));
    expect(f?.message).toBe('limit must be positive, got 0');
  });
});

describe("a server's HTTP status is the class, whatever the client", () => {
  it("Gradle's `Could not resolve` over `Received status code 401 from server`: the credentials", () => {
    const f = top(
      gha(
        '+ ./gradlew publish',
        '* What went wrong:',
        "Execution failed for task ':app:compileJava'.",
        "> Could not resolve all files for configuration ':app:compileClasspath'.",
        '   > Could not resolve org.acme:billing:4.1.0.',
        "      > Could not GET 'https://repo.acme.example/maven/org/acme/billing/4.1.0/billing-4.1.0.pom'. Received status code 401 from server: Unauthorized",
      ),
    );
    expect([f?.class, f?.host]).toEqual(['permission-credentials', 'repo.acme.example']);
  });

  it("a rate limit (429) or a gateway's 503 is the service's, the network: requests' and wget's wording", () => {
    expect(top(gha('+ python3 fetch.py', 'Traceback (most recent call last):', '  File "fetch.py", line 9, in <module>', '    r.raise_for_status()', 'requests.exceptions.HTTPError: 429 Client Error: Too Many Requests for url: https://api.tiles.example/v2/z1'))?.class).toBe('network');
    expect(top(gha('+ wget -q https://mirror.example.org/pkg.tar.xz', 'HTTP request sent, awaiting response... 503 Service Unavailable', '2026-11-29 04:10:00 ERROR 503: Service Unavailable.'))?.class).toBe('network');
  });

  it("counter-example: a test that checks a status (jest's `Expected: 403`) stays the test's check", () => {
    const f = top(
      gha(
        '+ npx jest',
        ' FAIL  test/auth.test.js',
        '  ● rejects a stale token',
        '',
        '    expect(received).toBe(expected) // Object.is equality',
        '',
        '    Expected: 403',
        '    Received: 200',
        '',
        '      12 |     expect(res.status).toBe(403);',
        '',
        '      at Object.<anonymous> (test/auth.test.js:12:24)',
      ),
    );
    expect(f?.class).toBe('test-assertion');
  });
});

describe('memory that ran out, in any runtime\'s words', () => {
  it("Node's worker at its resourceLimits (`ERR_WORKER_OUT_OF_MEMORY ... JS heap out of memory`)", () => {
    const f = top(gha('+ node scripts/thumbs.mjs', 'node:internal/event_target:1090', '  process.nextTick(() => { throw err; });', 'Error [ERR_WORKER_OUT_OF_MEMORY]: Worker terminated due to reaching memory limit: JS heap out of memory', '    at [kOnExit] (node:internal/worker:326:26)', 'Node.js v22.11.0'));
    expect(f?.class).toBe('out-of-memory');
  });

  it("a program's own `out of memory` (an allocator's, an interpreter's)", () => {
    expect(top(gha('+ ./bin/render scene.json', 'render: error: out of memory while allocating 1073741824 bytes'))?.class).toBe('out-of-memory');
  });
});

describe("a Go test's own report line is its check unless it reports an error it met", () => {
  const goTest = (message: string): string =>
    jenkins('+ go test -count=1 -v ./...', '=== RUN   TestResolve', `    resolve_test.go:27: ${message}`, '--- FAIL: TestResolve (0.00s)', 'FAIL', 'FAIL\texample.com/dns/cache\t0.003s', 'FAIL');
  it('`Resolve("a.local") returned nothing; cache holds [b.local]` (no got/want words) under -v', () => {
    expect(top(goTest('Resolve("a.local") returned nothing; cache holds [b.local]'))?.class).toBe('test-assertion');
  });

  it('counter-example: `t.Fatal(err)` of an error met on the way (`open testdata/zones.json: no such file or directory`)', () => {
    expect(top(goTest('open testdata/zones.json: no such file or directory'))?.class).not.toBe('test-assertion');
    expect(top(goTest('load fixture: invalid character } in object'))?.class).not.toBe('test-assertion');
  });
});

describe("a path the failing command was given is not there: the script's error", () => {
  it('`tar: public: Cannot stat: No such file or directory` under `+ tar -czf site.tgz public`', () => {
    const f = top(jenkins('+ npm run build', '+ tar -czf site.tgz public', 'tar: public: Cannot stat: No such file or directory', 'tar: Exiting with failure status due to previous errors'));
    expect([f?.class, f?.message]).toEqual(['ci-script', 'tar: public: Cannot stat: No such file or directory']);
  });

  it('a tool that prints the path made absolute (`Error: /ws/app/out is not a directory` for `out`)', () => {
    expect(top(gha('+ ninja -C out', 'ninja: Entering directory `out', 'Error: /ws/app/out is not a directory'))?.class).toBe('ci-script');
  });

  it("counter-example: a file the tool read on its own (its config), not the command's argument, stays unknown", () => {
    expect(top(gha('+ ./bin/render scene.json', 'render: cannot open config/render.ini: No such file or directory'))?.class).not.toBe('ci-script');
  });
});

describe('a test runner that found nothing to run: the selection the script gave it', () => {
  it("vitest's and jest's `No test files found` / `No tests found, exiting with code 1`", () => {
    expect(top(gha('+ npx vitest run src/**/*.spec.ts', '', 'No test files found, exiting with code 1', '', 'include: **/*.{test,spec}.?(c|m)[jt]s?(x)'))?.class).toBe('ci-script');
    expect(top(gha('+ npx jest --testPathPattern=e2e/', 'No tests found, exiting with code 1', 'Run with `--passWithNoTests` to exit with code 0'))?.class).toBe('ci-script');
  });

  it("counter-example: jest's note under --onlyChanged names no selection error", () => {
    expect(top(gha('+ npx jest --onlyChanged', 'No tests found related to files changed since last commit.', 'Error: connect ECONNREFUSED 127.0.0.1:5432'))?.class).not.toBe('ci-script');
  });
});

describe("an earlier sure failure over a later line no rule reads (the first error and its aftermath)", () => {
  it("ssh's refused key file (`Permissions 0640 for 'k' are too open`) over a later step's unread error", () => {
    const f = top(
      gha(
        '+ install -m 0640 /dev/stdin ci/sign_key',
        '+ git -c gpg.format=ssh -c user.signingkey=ci/sign_key tag -s v3.1.0 -m v3.1.0',
        'error: @@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@',
        '@         WARNING: UNPROTECTED PRIVATE KEY FILE!          @',
        '@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@',
        "Permissions 0640 for 'ci/sign_key' are too open.",
        'It is required that your private key files are NOT accessible by others.',
        'This private key will be ignored.',
        '+ git verify-tag v3.1.0',
        'error: no signature found',
      ),
    );
    expect([f?.class, f?.message]).toEqual(['permission-credentials', "Permissions 0640 for 'ci/sign_key' are too open."]);
  });

  it('counter-example: a later sure failure does not replace an unknown top (it may be the aftermath)', () => {
    const f = top(gha('+ ./tools/check-generated.sh', 'error: src/gen.h is out of date with spec/ops.yaml; run tools/gen.py and commit the result', '+ exit 1'));
    expect(f?.message).toContain('is out of date');
  });
});

describe("a test program's check in either order (`f(x) = got, expected want`) under a runner's failed row", () => {
  it("ctest's `***Failed` over the test program's `FAIL f.c: crc32(\"ab\") = 0x1A, expected 0x2B`", () => {
    const f = top(gha('+ ctest --output-on-failure', '    Start 1: crc_vectors', '1/1 Test #1: crc_vectors ......................***Failed    0.01 sec', 'FAIL tests/test_crc.c: crc32("ab") = 0x1A, expected 0x2B', '', '0% tests passed, 1 tests failed out of 1', 'Errors while running CTest'));
    expect([f?.class, f?.message]).toEqual(['test-assertion', 'FAIL tests/test_crc.c: crc32("ab") = 0x1A, expected 0x2B']);
  });
});
