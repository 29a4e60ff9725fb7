import { describe, expect, it } from '@jest/globals';
import { analyze } from '../../test/helpers/rulesReading.js';
import { goJsonText } from '../log/goJson.js';
import { ruleLineAbove } from './back.js';
import { cFamilyCompiler } from './compilerName.js';
import type { Finding } from '../../protocol/types.js';

/**
 * Output modes of everyday tools (docs/notes/analyzer.md, "Eighth session (helper g10)"): `mvn -e`'s stack
 * trace, `go test -v` and `go test -json`, a `bash -x` trace of a command substitution. Made-up logs of other
 * projects; each fails without its change, with a counter-example.
 */
const top = (text: string): Finding | undefined => analyze(text)[0]?.finding;
const row = (f: Finding | undefined): unknown[] => [f?.class, f?.tool, f?.location?.file, f?.location?.line];

describe("Maven's own stack trace (`mvn -e`: `at org.apache.maven.X.y (X.java:N)`, a space before the parenthesis)", () => {
  const head = [
    '+ mvn -B -e -o test',
    '[INFO] Building ledger 2.0.0',
    '[ERROR] Failed to execute goal on project ledger: Could not resolve dependencies for project io.ledger:ledger:jar:2.0.0: Cannot access central (https://repo.maven.apache.org/maven2) in offline mode and the artifact org.yaml:snakeyaml:jar:2.9 has not been downloaded from it before. -> [Help 1]',
    'org.apache.maven.lifecycle.LifecycleExecutionException: Failed to execute goal on project ledger: Could not resolve dependencies',
    '    at org.apache.maven.lifecycle.internal.LifecycleDependencyResolver.getDependencies (LifecycleDependencyResolver.java:269)',
    '    at org.apache.maven.cli.MavenCli.main (MavenCli.java:196)',
    '    at jdk.internal.reflect.NativeMethodAccessorImpl.invoke0 (Native Method)',
    '    at org.codehaus.plexus.classworlds.launcher.Launcher.launchEnhanced (Launcher.java:283)',
    'Caused by: org.eclipse.aether.resolution.ArtifactResolutionException: Cannot access central in offline mode',
    '    at org.eclipse.aether.internal.impl.DefaultArtifactResolver.resolve (DefaultArtifactResolver.java:374)',
    '    at org.codehaus.plexus.classworlds.launcher.Launcher.main (Launcher.java:348)',
  ];
  it("names no place: every frame is Maven's, its launcher's or the resolver's", () => {
    const f = top([...head, '[ERROR] ', "Build step 'Execute shell' marked build as failure"].join('\n'));
    expect(row(f)).toEqual(['dependency-resolution', 'maven', undefined, undefined]);
  });
  it("a project class in the same spaced form is the project's frame (a plugin running the project's code)", () => {
    const log = [
      '+ mvn -B -e exec:java',
      '[ERROR] Failed to execute goal org.codehaus.mojo:exec-maven-plugin:3.1.0:java (default-cli) on project ledger: An exception occurred while executing the Java class. null: InvocationTargetException: Index 3 out of bounds for length 3 -> [Help 1]',
      'java.lang.ArrayIndexOutOfBoundsException: Index 3 out of bounds for length 3',
      '    at io.ledger.Book.entry (Book.java:41)',
      '    at io.ledger.Main.main (Main.java:12)',
      '    at org.codehaus.mojo.exec.ExecJavaMojo$1.run (ExecJavaMojo.java:279)',
      '    at java.lang.Thread.run (Thread.java:840)',
      "Build step 'Execute shell' marked build as failure",
    ].join('\n');
    const f = top(log);
    expect([f?.location?.file, f?.location?.line]).toEqual(['io/ledger/Book.java', 41]);
  });
  it('a Node frame (`at fn (file.js:3:9)`) is still read as Node', () => {
    const log = [
      '+ node scripts/build.js',
      '/ci/site/scripts/build.js:3',
      "TypeError: Cannot read properties of undefined (reading 'title')",
      '    at render (/ci/site/scripts/build.js:3:21)',
      '    at Object.<anonymous> (/ci/site/scripts/build.js:9:1)',
      '    at Module._compile (node:internal/modules/cjs/loader:1554:14)',
      "Build step 'Execute shell' marked build as failure",
    ].join('\n');
    expect(row(top(log))).toEqual(['runtime-exception', 'node', '/ci/site/scripts/build.js', 3]);
  });
});

describe('`go test -v`: the messages of a test come between its `=== RUN` and its `--- FAIL`', () => {
  const verbose = [
    '+ go test -v ./...',
    '=== RUN   TestRoundTrip',
    '--- PASS: TestRoundTrip (0.00s)',
    '=== RUN   TestEscapes',
    '    escape_test.go:27: Escape("a&b") = "a&b", want "a&amp;b"',
    '--- FAIL: TestEscapes (0.00s)',
    '=== RUN   TestEmpty',
    '--- PASS: TestEmpty (0.00s)',
    'FAIL',
    'FAIL\texample.org/html/escape\t0.004s',
    'FAIL',
    "Build step 'Execute shell' marked build as failure",
  ];
  it("the message above the verdict: the test's assertion and its line", () => {
    const f = top(verbose.join('\n'));
    expect(row(f)).toEqual(['test-assertion', 'go test', 'escape_test.go', 27]);
    expect(f?.message).toContain('want "a&amp;b"');
    expect(f?.test?.name).toBe('TestEscapes');
  });
  it("another test's message is not this test's: the verdict stays the message", () => {
    const log = [
      '+ go test -v ./...',
      '=== RUN   TestRoundTrip',
      '    escape_test.go:12: round trip of 3 samples, want none lost',
      '--- PASS: TestRoundTrip (0.00s)',
      '=== RUN   TestEscapes',
      '--- FAIL: TestEscapes (0.00s)',
      'FAIL',
      "Build step 'Execute shell' marked build as failure",
    ].join('\n');
    const f = top(log);
    expect([f?.class, f?.message]).toEqual(['test-error', '--- FAIL: TestEscapes (0.00s)']);
  });
  it('`go test -json`: the same run as JSON events reads the same', () => {
    const events = [
      '+ go test -json ./...',
      '{"Time":"2026-11-02T10:00:00.1Z","Action":"run","Package":"example.org/html/escape","Test":"TestEscapes"}',
      '{"Time":"2026-11-02T10:00:00.1Z","Action":"output","Package":"example.org/html/escape","Test":"TestEscapes","Output":"=== RUN   TestEscapes\\n"}',
      '{"Time":"2026-11-02T10:00:00.1Z","Action":"output","Package":"example.org/html/escape","Test":"TestEscapes","Output":"    escape_test.go:27: Escape(\\"a\\u0026b\\") = \\"a\\u0026b\\", want \\"a\\u0026amp;b\\"\\n"}',
      '{"Time":"2026-11-02T10:00:00.1Z","Action":"output","Package":"example.org/html/escape","Test":"TestEscapes","Output":"--- FAIL: TestEscapes (0.00s)\\n"}',
      '{"Time":"2026-11-02T10:00:00.1Z","Action":"fail","Package":"example.org/html/escape","Test":"TestEscapes","Elapsed":0}',
      '{"Time":"2026-11-02T10:00:00.1Z","Action":"output","Package":"example.org/html/escape","Output":"FAIL\\texample.org/html/escape\\t0.004s\\n"}',
      '{"Time":"2026-11-02T10:00:00.1Z","Action":"fail","Package":"example.org/html/escape","Elapsed":0.004}',
      "Build step 'Execute shell' marked build as failure",
    ];
    const f = top(events.join('\n'));
    expect(row(f)).toEqual(['test-assertion', 'go test', 'escape_test.go', 27]);
    expect(f?.message).toContain('want "a&amp;b"');
    expect(f?.message_line).toBe(4);
  });
});

describe('goJsonText: the text a Go JSON event stands for', () => {
  it('an output event is its Output; another event is empty; a cached result has no Time', () => {
    expect(goJsonText('{"Time":"2026-11-02T10:00:00Z","Action":"output","Package":"p","Test":"TestA","Output":"\\tx_test.go:3: bad\\n"}')).toBe('\tx_test.go:3: bad');
    expect(goJsonText('{"Action":"output","Package":"p","Output":"ok  \\tp\\t(cached)\\n"}')).toBe('ok  \tp\t(cached)');
    expect(goJsonText('{"Time":"2026-11-02T10:00:00Z","Action":"pass","Package":"p","Test":"TestA","Elapsed":0}')).toBe('');
    expect(goJsonText('{"ImportPath":"p [p.test]","Action":"build-output","Output":"./x.go:4:2: undefined: y\\n"}')).toBe('./x.go:4:2: undefined: y');
  });
  it('other JSON lines and cut events are not events', () => {
    expect(goJsonText('{"level":"error","msg":"boom"}')).toBeUndefined();
    expect(goJsonText('{"Time":"2026-11-02T10:00:00Z","Action":"output","Output":"cut here')).toBeUndefined();
    expect(goJsonText('{"Time":"x","Action":"output","Output":1}')).toBe('');
  });
});

describe("`bash -x`: an assignment's command substitution failed (`+ name=` traced after the substitution's error)", () => {
  it('the error of the substitution is the message and the place, in a sourced file', () => {
    const log = [
      'Started by user ci',
      '[Pipeline] Start of Pipeline',
      '[Pipeline] node',
      'Running on built-in node in /var/lib/jenkins/workspace/tagger',
      '[Pipeline] {',
      '[Pipeline] stage',
      '[Pipeline] { (Build)',
      '[Pipeline] sh',
      '+ set -u',
      '+ . scripts/common.sh',
      '++ cat RELEASE',
      '+ RELEASE=4.1',
      '+ mkdir -p out',
      '+ build_tag 4.1',
      '+ local tag',
      '++ tag_name 4.1',
      '++ local base=4.1',
      'scripts/common.sh: line 9: BUILD_FLAVOR: unbound variable',
      '+ tag=',
      '[Pipeline] }',
      '[Pipeline] // stage',
      '[Pipeline] }',
      '[Pipeline] // node',
      '[Pipeline] End of Pipeline',
      'ERROR: script returned exit code 1',
      'Finished: FAILURE',
    ].join('\n');
    const f = top(log);
    expect(row(f)).toEqual(['ci-script', 'sh', 'scripts/common.sh', 9]);
    expect(f?.message).toBe('scripts/common.sh: line 9: BUILD_FLAVOR: unbound variable');
  });
  it('a plain assignment (no substitution traced above it) still ends the step', () => {
    const id = (l: string): string => l;
    const rule = (k: number): boolean => k === 1;
    // `+ tag=4.1` after another command's output: that output is not the failing command's.
    expect(ruleLineAbove(['+ ./lint.sh', 'scripts/common.sh: line 9: BUILD_FLAVOR: unbound variable', '+ tag=4.1', 'ERROR: script returned exit code 1'], 3, id, rule)).toBeUndefined();
    const rule2 = (k: number): boolean => k === 2;
    expect(ruleLineAbove(['+ local tag', '++ tag_name 4.1', 'scripts/common.sh: line 9: BUILD_FLAVOR: unbound variable', '+ tag=', 'ERROR: script returned exit code 1'], 4, id, rule2)).toBe(2);
  });
});

describe('test names without the time a runner prints after them', () => {
  it("node --test's spec reporter: `✖ name (1.6ms)` names the test `name`", () => {
    const log = [
      '+ node --test --test-reporter=spec test/',
      '✔ parses ISO dates (0.8ms)',
      '✖ rejects a month of 13 (1.603161ms)',
      "  AssertionError [ERR_ASSERTION]: Missing expected exception (RangeError).",
      '      at TestContext.<anonymous> (file:///ci/dates/test/parse.test.js:14:10)',
      '      at Test.runInAsyncScope (node:async_hooks:206:9)',
      '##[error]Process completed with exit code 1.',
    ].join('\n');
    expect(top(log)?.test?.name).toBe('rejects a month of 13');
  });
  it("jasmine's `Message:` label under a numbered failure is no part of the spec's name", () => {
    const log = [
      '+ npx jasmine',
      'Started',
      'F',
      '',
      'Failures:',
      '1) Cart totals the lines',
      '  Message:',
      '    Error: Timeout - Async function did not complete within 5000ms (set by jasmine.DEFAULT_TIMEOUT_INTERVAL)',
      '  Stack:',
      '        at <Jasmine>',
      '        at listOnTimeout (node:internal/timers:581:17)',
      '',
      '1 spec, 1 failure',
      "Build step 'Execute shell' marked build as failure",
    ].join('\n');
    expect(top(log)?.test?.name).toBe('Cart totals the lines');
  });
  it("vitest with projects: ` FAIL  api  test/x.test.js > name` names `test/x.test.js > name`", () => {
    const log = [
      '+ npx vitest run',
      ' ❯  api  test/routes.test.js (3 tests | 1 failed) 12ms',
      '   × answers 404 for an unknown id 5ms',
      '',
      ' FAIL  api  test/routes.test.js > answers 404 for an unknown id',
      'AssertionError: expected 500 to be 404 // Object.is equality',
      ' ❯ test/routes.test.js:22:31',
      "Build step 'Execute shell' marked build as failure",
    ].join('\n');
    expect(top(log)?.test?.name).toBe('test/routes.test.js > answers 404 for an unknown id');
  });
});

describe("gcc's and clang's shared diagnostic form: which compiler it was", () => {
  const at = (lines: string[]): (k: number) => string => (k) => lines[k] ?? '';
  it("clang's `N errors generated.` below, or the compiler's command above", () => {
    const below = ['src/a.c:3:9: error: use of undeclared identifier \'n\'', '    return n;', '           ^', '1 error generated.'];
    expect(cFamilyCompiler(0, below.length, at(below))).toBe('clang');
    const above = ['x86_64-linux-gnu-gcc-12 -O2 -c src/a.c -o a.o', "src/a.c:3:9: error: 'n' undeclared (first use in this function)"];
    expect(cFamilyCompiler(1, above.length, at(above))).toBe('gcc');
    const clangCmd = ['+ /usr/bin/clang-14 -c src/a.c', "src/a.c:3:9: error: use of undeclared identifier 'n'"];
    expect(cFamilyCompiler(1, clangCmd.length, at(clangCmd))).toBe('clang');
  });
  it('nothing said (`cc`, no summary): undefined', () => {
    const lines = ['cc -c src/a.c', "src/a.c:3:9: error: 'n' undeclared"];
    expect(cFamilyCompiler(1, lines.length, at(lines))).toBeUndefined();
  });
  it("a make build with clang's colour: the finding names clang; clang's msvc form is read with its place", () => {
    const log = [
      '+ make',
      'clang -std=c11 -Wall -fcolor-diagnostics -c -o src/list.o src/list.c',
      "\u001b[1msrc/list.c:12:9: \u001b[0m\u001b[0;1;31merror: \u001b[0m\u001b[1mno member named 'len' in 'struct list'\u001b[0m",
      '    l->len++;',
      '1 error generated.',
      'make: *** [Makefile:6: src/list.o] Error 1',
      "Build step 'Execute shell' marked build as failure",
    ].join('\n');
    expect(row(top(log))).toEqual(['compile-error', 'clang', 'src/list.c', 12]);
    const msvc = ['+ clang -fdiagnostics-format=msvc -c src/list.c', "src/list.c(12,9): error: no member named 'len' in 'struct list'", '1 error generated.', "Build step 'Execute shell' marked build as failure"].join('\n');
    expect(row(top(msvc))).toEqual(['compile-error', 'clang', 'src/list.c', 12]);
  });
});
