import { describe, expect, it } from '@jest/globals';
import { analyze } from '../log/analyze.js';
import type { Finding } from '../../protocol/types.js';

/**
 * The everyday tools of issue 25 (docs/notes/analyzer.md, "Round 9 preparation: everyday tools
 * (helper tf)"): the forms behind rounds 7-8's misses on Maven, make, cmake/ctest, jest, vitest,
 * pytest, cargo, npm and the shell, each on a made-up log of another project (the rounds' cases are
 * asserted in test/findings-realfail.test.ts), with a counter-example where the rule must not claim.
 */
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
