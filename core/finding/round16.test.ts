import { describe, expect, it } from '@jest/globals';
import { analyze } from '../../test/helpers/rulesReading.js';
import type { Finding } from '../../protocol/types.js';

/**
 * Round 16, opened for tuning (issue 25; docs/notes/analyzer.md, "Round 16 opened (helper t17)"): each general fact
 * on made-up logs of other projects and tool versions, with a counter-example.
 */
const top = (text: string): Finding | undefined => analyze(text)[0]?.finding;
const jenkins = (...lines: string[]): string => ['[Pipeline] sh', ...lines, '[Pipeline] }', '[Pipeline] End of Pipeline', 'ERROR: script returned exit code 1', 'Finished: FAILURE'].join('\n');
const gha = (...lines: string[]): string => ['##[group]Run ./ci.sh', ...lines, '##[error]Process completed with exit code 1.'].join('\n');

describe("Node's `TypeError: fetch failed` (undici rejects so only on a network error)", () => {
  const fetchFailed = (cause: string[]): string =>
    gha(
      '+ node tools/publish.mjs',
      'node:internal/deps/undici/undici:13502',
      '      Error.captureStackTrace(err);',
      '            ^',
      '',
      'TypeError: fetch failed',
      '    at node:internal/deps/undici/undici:13502:13',
      '    at async publish (file:///home/runner/work/docs/tools/publish.mjs:11:20) {',
      ...cause,
      '}',
      '',
      'Node.js v22.11.0',
    );

  it('is the network, whatever cause undici names below it', () => {
    const f = top(fetchFailed(['  [cause]: Error: unable to verify the first certificate', '      at TLSSocket.onConnectSecure (node:_tls_wrap:1677:34) {', "    code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE'", '  }']));
    // The cause says why (session 53, ux15: core/finding/causes.ts withNodeCause; Node's unknown leaf is a TLS refusal).
    expect([f?.class, f?.confidence, f?.message]).toEqual(['network', 'high', '[cause]: Error: unable to verify the first certificate']);
  });

  it('a cause another rule reads stays the message (a refused connection)', () => {
    const f = top(fetchFailed(['  [cause]: Error: connect ECONNREFUSED 10.1.2.3:8443', '      at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1607:16) {', "    code: 'ECONNREFUSED'", '  }']));
    expect([f?.class, f?.message]).toEqual(['network', '[cause]: Error: connect ECONNREFUSED 10.1.2.3:8443']);
  });

  it('counter-example: `TypeError: fetch is not a function` is the program\'s own error', () => {
    const f = top(gha('+ node tools/publish.mjs', 'file:///home/runner/work/docs/tools/publish.mjs:11', '  const res = await fetch(url);', '                    ^', '', 'TypeError: fetch is not a function', '    at publish (file:///home/runner/work/docs/tools/publish.mjs:11:21)', '', 'Node.js v16.20.2'));
    expect(f?.class).toBe('runtime-exception');
  });
});

describe("Go's `context deadline exceeded` (an operation's own deadline, not the CI's time limit: not `high`)", () => {
  it("in a Go test's report line is a test error, not the CI's time-out", () => {
    const f = top(jenkins('+ go test ./...', '--- FAIL: TestQueryOrders (2.00s)', '    store_test.go:41: query orders: context deadline exceeded', 'FAIL', 'FAIL\tgithub.com/acme/shop/store\t2.014s', 'FAIL'));
    expect([f?.class, f?.test?.name]).toEqual(['test-error', 'TestQueryOrders']);
  });

  it("counter-example: a deploy tool's wait that ran out is still a time-out, at medium (helm's `--wait --timeout`)", () => {
    const f = top(jenkins('+ helm upgrade --install orders charts/orders --wait --timeout 5m', 'Error: UPGRADE FAILED: context deadline exceeded'));
    expect([f?.class, f?.confidence]).toEqual(['timeout-aborted', 'medium']);
  });

  it("counter-example: go test's own time limit stays the time-out", () => {
    const f = top(jenkins('+ go test -timeout 30s ./...', 'panic: test timed out after 30s', '\trunning tests:', '\t\tTestQueryOrders (30s)', '', 'goroutine 7 [running]:', 'testing.(*M).startAlarm.func1()', '\t/usr/local/go/src/testing/testing.go:2366 +0x265'));
    expect(f?.class).toBe('timeout-aborted');
  });
});

describe("A C++ test program's uncaught exception under `make check` (make echoed the program, then reports its abort)", () => {
  const run = (program: string): string =>
    jenkins('+ make check', `g++ -std=c++20 -g -o ${program} ${program}.cpp`, `./${program}`, "terminate called after throwing an instance of 'std::runtime_error'", '  what():  bad header in frame 3', `make: *** [Makefile:12: check] Aborted (core dumped)`);

  it('is a test error', () => {
    expect(top(run('test_frames'))?.class).toBe('test-error');
  });

  it("counter-example: the project's own program (not a test) is a run-time exception", () => {
    expect(top(run('framedump'))?.class).toBe('runtime-exception');
  });
});

describe("Node's ESM linker: an import the other module does not export (a SyntaxError thrown once the code parsed)", () => {
  it('is an error of the run, read from Node\'s uncaught-error print (place, source line, caret)', () => {
    const f = top(
      gha(
        '+ node server.mjs',
        'file:///srv/app/server.mjs:3',
        "import { Router } from './lib/router.cjs';",
        '         ^^^^^^',
        "SyntaxError: The requested module './lib/router.cjs' does not provide an export named 'Router'",
        '',
        'Node.js v18.19.0',
      ),
    );
    expect([f?.class, f?.location?.file, f?.location?.line]).toEqual(['runtime-exception', '/srv/app/server.mjs', 3]);
  });

  it("counter-example: `node --check`'s syntax error in the source stays a compile error", () => {
    const f = top(gha('+ node --check lib/rota.js', '/srv/app/lib/rota.js:8', '  return shifts.map((s) => s.id));', '                                 ^', '', "SyntaxError: Unexpected token ')'", '    at wrapSafe (node:internal/modules/cjs/loader:1281:20)', '    at checkSyntax (node:internal/main/check_syntax:78:3)', '', 'Node.js v20.20.2'));
    expect(f?.class).toBe('compile-error');
  });
});

describe("The shell's `Aborted` under a failed assertion (the program's assert called abort())", () => {
  const run = (reason: string[]): string => gha('+ ./bin/resize in.png', ...reason, 'ci.sh: line 4:  4242 Aborted                 ./bin/resize in.png');

  it('the assertion is the message, and outside a test the run-time class is not sure', () => {
    const f = top(run(["resize: src/scale.c:88: scale_rows: Assertion `w > 0' failed."]));
    expect([f?.class, f?.confidence, f?.message, f?.exception]).toEqual(['runtime-exception', 'medium', "resize: src/scale.c:88: scale_rows: Assertion `w > 0' failed.", undefined]);
  });

  it("counter-example: the C++ runtime's uncaught exception stays the sure reason", () => {
    const f = top(run(["terminate called after throwing an instance of 'std::length_error'", '  what():  vector::reserve']));
    expect([f?.class, f?.confidence, f?.message]).toEqual(['runtime-exception', 'high', "terminate called after throwing an instance of 'std::length_error'"]);
  });
});

describe('Out of memory in a runtime\'s own words', () => {
  it("numpy's `_ArrayMemoryError` (a MemoryError subclass) is out of memory, at the project's frame", () => {
    const f = top(
      gha(
        '+ python -m tiles.render',
        'Traceback (most recent call last):',
        '  File "/home/runner/work/maps/tiles/render.py", line 31, in <module>',
        '    grid = np.zeros((n, 40000, 40000))',
        'numpy.core._exceptions._ArrayMemoryError: Unable to allocate 35.8 GiB for an array with shape (3, 40000, 40000) and data type float64',
      ),
    );
    expect([f?.class, f?.location?.line]).toEqual(['out-of-memory', 31]);
  });

  it("counter-example: a project's own exception whose name ends in Error is not memory", () => {
    const f = top(gha('+ python -m tiles.render', 'Traceback (most recent call last):', '  File "/home/runner/work/maps/tiles/render.py", line 31, in <module>', '    raise GridError("empty grid")', 'tiles.errors.GridError: empty grid'));
    expect(f?.class).toBe('runtime-exception');
  });
});

describe("Go's crypto/x509 refusing the server's certificate", () => {
  it('is the network (TLS), as other clients\' certificate refusals', () => {
    const f = top(jenkins('+ ./bin/sync', '2026/01/12 10:01:02 sync: Post "https://registry.internal:8443/v1/push": tls: failed to verify certificate: x509: certificate signed by unknown authority'));
    expect([f?.class, f?.confidence]).toEqual(['network', 'high']);
  });

  it("counter-example: x509's parse error of a local file is not the network", () => {
    const f = top(jenkins('+ ./bin/sync', '2026/01/12 10:01:02 load key: x509: failed to parse private key (use ParsePKCS1PrivateKey instead for this key format)'));
    expect(f?.class).not.toBe('network');
  });
});

describe('Tools refusing before any work (round 16)', () => {
  it("node's `bad option:` is a Node that does not know the flag (medium)", () => {
    const f = top(jenkins('+ node --experimental-require-module src/cli.js', 'node: bad option: --experimental-require-module'));
    expect([f?.class, f?.confidence, f?.message]).toEqual(['missing-tool', 'medium', 'node: bad option: --experimental-require-module']);
  });

  it("git's `'x' is not a git command` is the git extension missing (medium)", () => {
    const f = top(gha('+ git crypt unlock', "git: 'crypt' is not a git command. See 'git --help'."));
    expect([f?.class, f?.symbol]).toEqual(['missing-tool', 'git-crypt']);
  });

  it("git's dubious ownership refusal is a permission matter", () => {
    expect(top(gha('+ git -C vendor/schemas pull', "fatal: detected dubious ownership in repository at '/srv/cache/schemas'", "To add an exception for this directory, call:", '', "\tgit config --global --add safe.directory /srv/cache/schemas"))?.class).toBe('permission-credentials');
  });

  it("a remote's `repository 'URL' not found` is the fetched repository missing (medium)", () => {
    const f = top(gha('+ git clone https://git.example.org/team/proto.git vendor/proto', "Cloning into 'vendor/proto'...", "fatal: repository 'https://git.example.org/team/proto.git/' not found"));
    expect([f?.class, f?.confidence]).toEqual(['dependency-resolution', 'medium']);
  });

  it("`git describe` without a tag is the script's assumption about the clone (medium)", () => {
    expect(top(jenkins('+ git describe --tags', 'fatal: No names found, cannot describe anything.'))?.class).toBe('ci-script');
  });

  it("cargo's cyclic package dependency is the dependency graph", () => {
    expect(top(gha('+ cargo build --workspace', 'error: cyclic package dependency: package `core v1.2.0 (/home/runner/work/app/core)` depends on itself. Cycle:', 'package `core v1.2.0 (/home/runner/work/app/core)`', '    ... which satisfies path dependency `core` of package `util v1.2.0`'))?.class).toBe('dependency-resolution');
  });

  it("gradle's `Project 'x' not found in root project` is the script's project path", () => {
    const f = top(jenkins('+ ./gradlew :billing:test', '', 'FAILURE: Build failed with an exception.', '', '* What went wrong:', "Project 'billing' not found in root project 'shop'."));
    expect([f?.class, f?.tool]).toEqual(['ci-script', 'gradle']);
  });

  it("Go's template execution error is the program's, at the template's place", () => {
    const f = top(jenkins('+ go run ./cmd/mail', '2026/01/12 10:01:02 render: template: welcome.html:12:7: executing "welcome.html" at <.User.Name>: nil pointer evaluating *main.User.Name', 'exit status 1'));
    expect([f?.class, f?.location?.file, f?.location?.line]).toEqual(['runtime-exception', 'welcome.html', 12]);
  });

  it("counter-example: a template that does not parse is not an execution error", () => {
    const f = top(jenkins('+ go run ./cmd/mail', '2026/01/12 10:01:02 parse: template: welcome.html:12: unexpected "}" in operand', 'exit status 1'));
    expect(f?.exception).not.toBe('template.ExecError');
  });
});

describe("The C++ runtime's reason for std::terminate over the shell's `Aborted`", () => {
  const run = (reason: string[]): string => jenkins('+ ./bin/worker', ...reason, 'ci.sh: line 5:  5150 Aborted                 ./bin/worker');

  it('a joinable thread destroyed: `terminate called without an active exception` is the message', () => {
    expect(top(run(['terminate called without an active exception']))?.message).toBe('terminate called without an active exception');
  });

  it('a pure virtual call (its line glued to unfinished output) is the reason above it', () => {
    const f = top(run(['worker 3 ready, queue=1pure virtual method called', 'terminate called without an active exception']));
    expect([f?.class, f?.message, f?.exception]).toEqual(['runtime-exception', 'worker 3 ready, queue=1pure virtual method called', 'pure virtual method called']);
  });
});
