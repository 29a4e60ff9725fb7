import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { analyze } from '../../test/helpers/rulesReading.js';
import type { Finding } from '../../protocol/types.js';

/**
 * The everyday tools of issue 25 (docs/notes/analyzer.md, "Round 9 preparation: everyday tools
 * (helper tf)"): the forms behind rounds 7-8's misses on Maven, make, cmake/ctest, jest, vitest,
 * pytest, cargo, npm and the shell, each on a made-up log of another project (the rounds' cases are
 * asserted in test/findings-realfail.test.ts), with a counter-example where the rule must not claim.
 */
const HERE = path.join(process.cwd(), 'core', 'finding');
const top = (text: string): Finding | undefined => analyze(text)[0]?.finding;

describe('everyday tools: the forms of rounds 7-8', () => {
  it("make's refusal of a Makefile is the build script's error, at its line", () => {
    const f = top('+ make -C native all\nmake: Entering directory \'/ws/native\'\nrules.mk:12: *** missing separator (did you mean TAB instead of 8 spaces?).  Stop.\nmake: Leaving directory \'/ws/native\'\nERROR: script returned exit code 2\n');
    expect([f?.class, f?.tool, f?.location?.file, f?.location?.line]).toEqual(['ci-script', 'make', 'rules.mk', 12]);
    const err = top('+ make dist\nMakefile:3: *** VERSION is not set.  Stop.\nBuild step \'Execute shell\' marked build as failure\n');
    expect([err?.class, err?.location?.line]).toEqual(['ci-script', 3]);
    // Counter-example: a recipe's compiler error under make's verdict stays the compiler's.
    const cc = top('+ make\ncc -c src/a.c\nsrc/a.c:4:3: error: expected \';\' before \'}\' token\nmake: *** [Makefile:8: a.o] Error 1\n');
    expect(cc?.class).toBe('compile-error');
  });

  it("a shell's own name is a -c string, not a script: no place", () => {
    const f = top('+ npm run lint\n\n> web@1.0.0 lint\n> biome check src\n\nsh: 1: biome: not found\n##[error]Process completed with exit code 127.\n');
    expect([f?.class, f?.location]).toEqual(['missing-tool', undefined]);
    // Counter-example: a script's name and line are its place.
    const script = top('+ ./deploy.sh\n./deploy.sh: line 7: rsync: command not found\n##[error]Process completed with exit code 127.\n');
    expect([script?.class, script?.location?.file, script?.location?.line]).toEqual(['missing-tool', './deploy.sh', 7]);
  });

  it('bash -e stopped on an assignment: its command substitution failed silently', () => {
    const f = top('##[group]Run bash -xe ci.sh\n##[endgroup]\n+ set -euo pipefail\n++ git tag --list \'v*\'\n++ grep -c rc\n+ rc_tags=0\n##[error]Process completed with exit code 1.\n');
    expect([f?.class, f?.message]).toEqual(['ci-script', 'Process completed with exit code 1.']);
    // Counter-example: an assignment with no command substitution above says nothing of the failure.
    const plain = top('##[group]Run bash -xe ci.sh\n##[endgroup]\n+ echo building\nbuilding\n+ MODE=release\n##[error]Process completed with exit code 1.\n');
    expect(plain?.class).toBe('unknown');
  });

  it("a test program's check macro at its place, under ctest, is the test's assertion there", () => {
    const log = [
      '+ ctest --test-dir build --output-on-failure',
      'Test project /ws/build',
      '    Start 1: ring_buffer',
      '1/2 Test #1: ring_buffer ......................***Failed    0.00 sec',
      '/ws/test/ring_test.cpp:27: REQUIRE_EQ(rb.size(), 3u) failed: 2 != 3',
      '    Start 2: parse',
      '2/2 Test #2: parse ............................   Passed    0.00 sec',
      '',
      '50% tests passed, 1 tests failed out of 2',
      '',
      'The following tests FAILED:',
      '\t  1 - ring_buffer (Failed)',
      'Errors while running CTest',
      'ERROR: script returned exit code 8',
    ].join('\n');
    const f = top(log);
    expect([f?.class, f?.location?.file, f?.location?.line, f?.test?.name]).toEqual(['test-assertion', '/ws/test/ring_test.cpp', 27, 'ring_buffer']);
    // Counter-example: a program's own `failed` line with no check macro is no assertion.
    const plain = top('+ ./build/migrate\n/ws/src/db.c:40: open(/var/lib/x.db) failed: Permission denied\nERROR: script returned exit code 1\n');
    expect(plain?.class).not.toBe('test-assertion');
  });

  it("a test error whose detail is a diff of the expected and received values is an assertion", () => {
    const log = [
      '+ npx jest',
      'FAIL src/format.test.ts',
      '  ● formats a price',
      '',
      '    Error: Snapshot `formats a price 1` mismatched',
      '',
      '    - Expected',
      '    + Received',
      '',
      '    - "€ 10,00"',
      '    + "€10,00"',
      '',
      '      at Object.<anonymous> (src/format.test.ts:9:31)',
      '',
      'Tests:       1 failed, 4 passed, 5 total',
      'ERROR: script returned exit code 1',
    ].join('\n');
    expect(top(log)?.class).toBe('test-assertion');
    // Counter-example: a thrown error with no comparison stays the test's error.
    const thrown = log.replace(/ {4}- Expected\n {4}\+ Received\n\n {4}- "€ 10,00"\n {4}\+ "€10,00"\n/, '').replace('Error: Snapshot `formats a price 1` mismatched', "TypeError: Cannot read properties of undefined (reading 'toFixed')");
    expect(top(thrown)?.class).toBe('test-error');
  });

  it("jest's heading over an error printed without its class: the detail is the message, raised in the suite", () => {
    const log = [
      '+ npm test',
      'FAIL tests/cart.test.js',
      '  ● Test suite failed to run',
      '',
      "    Cannot find module '../lib/tax' from 'lib/cart.js'",
      '',
      '      at Resolver._throwModNotFoundError (node_modules/jest-resolve/build/index.js:1031:11)',
      '      at Object.require (lib/cart.js:2:13)',
      '',
      'Test Suites: 1 failed, 1 total',
      'ERROR: script returned exit code 1',
    ].join('\n');
    const f = top(log);
    expect([f?.class, f?.message, f?.test?.name, f?.location?.file, f?.location?.line]).toEqual(['test-error', "Cannot find module '../lib/tax' from 'lib/cart.js'", 'tests/cart.test.js', 'lib/cart.js', 2]);
    // Counter-example: a heading with no frames below is not claimed as raised.
    const bare = top('+ npm test\nFAIL tests/cart.test.js\n  ● Test suite failed to run\n\n    Your test suite must contain at least one test.\n\nTest Suites: 1 failed, 1 total\nERROR: script returned exit code 1\n');
    expect(bare?.class).not.toBe('test-error');
  });

  it("jest's matcher hint gives way to the sentence that says what happened", () => {
    const log = [
      '+ npx jest',
      'FAIL test/api.test.js',
      '  ● rejects an empty token',
      '',
      '    expect(received).rejects.toThrow()',
      '',
      '    Received promise resolved instead of rejected',
      '    Resolved to value: {"ok": true}',
      '',
      '      4 | test(\'rejects an empty token\', async () => {',
      "    > 5 |   await expect(login('')).rejects.toThrow();",
      '        |                                   ^',
      '',
      '      at Object.toThrow (test/api.test.js:5:35)',
      'Tests:       1 failed, 1 total',
    ].join('\n');
    expect(top(log)?.message).toBe('Received promise resolved instead of rejected');
    // Counter-example: labelled values keep the hint as the message.
    const labelled = log.replace('    Received promise resolved instead of rejected\n    Resolved to value: {"ok": true}', '    Expected: 3\n    Received: 4').replace('rejects.toThrow()', 'toBe(expected) // Object.is equality');
    expect(top(labelled)?.message).toBe('expect(received).toBe(expected) // Object.is equality');
  });

  it("a runner's banner gives way to an exception's name and message under it", () => {
    const log = [
      '+ python -m pytest -q',
      'E                                                                        [100%]',
      '==================================== ERRORS ====================================',
      '___________________ ERROR at setup of test_export_all ____________________',
      'StaleLease: the test database lease lapsed before setup of a session scoped fixture',
      '=========================== short test summary info ============================',
      'ERROR tests/test_export.py::test_export_all',
      '1 error in 0.31s',
    ].join('\n');
    expect(top(log)?.message).toBe('StaleLease: the test database lease lapsed before setup of a session scoped fixture');
  });

  it("an OS's bare reason under `Caused by:` gives way to the level that names what was refused", () => {
    const log = '+ cargo build --release\nerror: failed to open `/opt/cache/target/release/.cargo-lock`\n\nCaused by:\n  Permission denied (os error 13)\n##[error]Process completed with exit code 101.\n';
    expect(top(log)?.message).toBe('error: failed to open `/opt/cache/target/release/.cargo-lock`');
    // Counter-example: a cause that names its object stays the message.
    const named = '+ cargo build\nerror: failed to get `geo` as a dependency\n\nCaused by:\n  failed to authenticate when downloading repository\n##[error]Process completed with exit code 101.\n';
    expect(top(named)?.message).toBe('failed to authenticate when downloading repository');
  });

  it("a shell's arithmetic on a non-number and a bash builtin under sh are the script's errors", () => {
    expect(top('+ bash scripts/next.sh\nscripts/next.sh: line 9: 1.4.0: syntax error: invalid arithmetic operator (error token is ".4.0")\nERROR: script returned exit code 1\n')?.class).toBe('ci-script');
    expect(top('+ sh ci/env.sh\nci/env.sh: 5: pushd: not found\nERROR: script returned exit code 127\n')?.class).toBe('ci-script');
    // Counter-example: a program that is not a builtin is missing from the machine.
    expect(top('+ sh ci/env.sh\nci/env.sh: 5: jq: not found\nERROR: script returned exit code 127\n')?.class).toBe('missing-tool');
  });

  it('a translator that cannot write its output, or whose key does not match, did not reject its input', () => {
    expect(top('+ pngquant --output /mnt/out/logo.png assets/logo.png\nerror: cannot write the output file /mnt/out/logo.png\nERROR: script returned exit code 15\n')?.class).not.toBe('compile-error');
    expect(top('+ sops -d -i keys.txt -o prod.env prod.env.enc\nError: no identity matched any of the recipients\nERROR: script returned exit code 1\n')?.class).toBe('permission-credentials');
  });

  it("git diff --exit-code after a generator that changed a file: the generated file is stale (lint), else nothing", () => {
    const f = top('+ npm run gen:api\n+ git diff --exit-code src/api.ts\ndiff --git a/src/api.ts b/src/api.ts\nindex 1..2 100644\n--- a/src/api.ts\n+++ b/src/api.ts\n@@ -3 +3 @@\n-export const V = 1;\n+export const V = 2;\nERROR: script returned exit code 1\n');
    expect([f?.class, f?.location?.file]).toEqual(['lint', 'src/api.ts']);
    // Counter-example: a diff shown for information (no --exit-code) claims nothing.
    expect(top('+ git diff HEAD~1 --stat\n+ git diff HEAD~1\ndiff --git a/x.txt b/x.txt\n+ ./deploy\nERROR: script returned exit code 1\n')?.class).not.toBe('lint');
  });

  it('CMake: a namespaced target no package made is a missing dependency, the sentence joined over its list', () => {
    const log = [
      '+ cmake -S . -B build',
      '-- Configuring done',
      'CMake Error at src/CMakeLists.txt:21 (target_link_libraries):',
      '  Target "server" links to:',
      '',
      '    OpenSSL::SSL',
      '',
      '  but the target was not found.  Possible reasons include:',
      '',
      '    * There is a typo in the target name.',
      '',
      '-- Generating done',
      'CMake Generate step failed.  Build files cannot be regenerated correctly.',
      'ERROR: script returned exit code 1',
    ].join('\n');
    const f = top(log);
    expect([f?.class, f?.dependency, f?.message, f?.location?.file, f?.location?.line]).toEqual(['dependency-resolution', 'OpenSSL::SSL', 'Target "server" links to: OpenSSL::SSL but the target was not found.', 'src/CMakeLists.txt', 21]);
  });
});

/**
 * Real logs of everyday shapes no realfail case covers, made on this machine (core/finding/everyday/:
 * go 1.19, cargo/clippy 1.95, gcc 12, pytest 9, Python 3.11, jest 30, eslint, tsc, npm 11, bash; paths
 * rewritten to /ws): the class, tool, message and place the finding must give. The pytest
 * collection errors are in nowrong.test.ts.
 */
describe('everyday tools: real logs of shapes no case covers', () => {
  const read = (name: string): Finding | undefined => analyze(readFileSync(path.join(HERE, 'everyday', `${name}.log`), 'utf8'))[0]?.finding;
  it.each<[string, string, string | undefined, string, string | undefined, number | undefined]>([
    ['go-vet-printf', 'lint', 'go vet', 'fmt.Sprintf format %02d reads arg #2', 'ledger/fmt.go', 6],
    ['go-build-unused-import', 'compile-error', 'go', 'imported and not used: "os"', 'cmd/app/main.go', 5],
    ['go-test-race', 'test-error', 'go test', 'WARNING: DATA RACE', '/ws/counter/c.go', 5],
    ['go-mod-tidy-diff', 'lint', 'go mod tidy', 'diff --git a/go.mod b/go.mod', 'go.mod', undefined],
    ['cargo-clippy-deny-warnings', 'lint', 'clippy', 'unneeded `return` statement', 'src/lib.rs', 3],
    ['cargo-feature-not-found', 'ci-script', 'cargo', "does not contain this feature: yaml", undefined, undefined],
    ['gcc-werror-unused', 'compile-error', 'gcc', 'unused variable', 'main.c', 3],
    ['ld-multiple-definition', 'link-error', 'ld', "multiple definition of `counter'", undefined, undefined],
    ['pytest-import-error', 'test-error', 'pytest', "ImportError: cannot import name 'discount'", 'tests/test_cart.py', 1],
    ['unittest-assert-equal', 'test-assertion', 'unittest', "AssertionError: 'a_b' != 'a-b'", '/ws/test_slug.py', 10],
    ['jest-coverage-threshold', 'lint', 'jest', 'coverage threshold for lines (90%) not met', undefined, undefined],
    ['jest-obsolete-snapshot', 'lint', 'jest', '1 snapshot obsolete from 1 test suite', undefined, undefined],
    // The budget line names its tool (`ESLint found too many warnings`): shapes.ts 'lint: more warnings than allowed' (session 56, jt9).
    ['eslint-max-warnings', 'lint', 'eslint', 'ESLint found too many warnings (maximum: 0).', '/ws/src/a.js', 1],
    ['tsc-type-error', 'compile-error', 'tsc', 'error TS2322', 'src/total.ts', 2],
    ['npm-script-enoent', 'runtime-exception', 'node', "ENOENT: no such file or directory, open 'site.config.json'", '/ws/scripts/build.js', 2],
    ['npm-ci-no-lockfile', 'ci-script', undefined, 'can only install with an existing package-lock.json', undefined, undefined],
    ['shell-unbound-variable', 'ci-script', 'sh', 'DEPLOY_ENV: unbound variable', 'deploy.sh', 2],
    ['shell-command-not-found', 'missing-tool', 'sh', 'mkdocs: command not found', undefined, undefined],
    ['shell-timeout-124', 'timeout-aborted', undefined, 'exit code 124', undefined, undefined],
  ])('%s: %s', (name, cls, tool, message, file, line) => {
    const f = read(name);
    expect([f?.class, f?.tool]).toEqual([cls, tool]);
    expect(f?.message).toContain(message);
    expect([f?.location?.file, f?.location?.line]).toEqual([file, line]);
  });
});
