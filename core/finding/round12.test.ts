import { describe, expect, it } from '@jest/globals';
import { analyze } from '../../test/helpers/rulesReading.js';
import type { Finding } from '../../protocol/types.js';

/**
 * Round 12's misses, opened for tuning (issue 25; docs/notes/analyzer.md, "Round 12 opened (helper t13)"): each
 * form on a made-up log of another project, with a counter-example.
 */
const top = (text: string): Finding | undefined => analyze(text)[0]?.finding;
const jenkins = (...lines: string[]): string => ['[ci] $ /bin/bash -xe ci.sh', ...lines, "Build step 'Execute shell' marked build as failure", 'Finished: FAILURE'].join('\n');

describe('SIGALRM (`Alarm clock`) is a time limit that ran out', () => {
  it("make's report of a recipe killed by SIGALRM", () => {
    expect(top(jenkins('+ make test', 'cc -o ./unit_tests tests/unit.c', './unit_tests', 'make: *** [Makefile:12: test] Alarm clock'))?.class).toBe('timeout-aborted');
  });

  it("the shell's report of a child killed by SIGALRM", () => {
    expect(top(jenkins('+ ./bench --rounds 9', 'ci.sh: line 4:  5120 Alarm clock             ./bench --rounds 9'))?.class).toBe('timeout-aborted');
  });

  it('counter-example: a segfault stays a crash', () => {
    expect(top(jenkins('+ make run', './server', 'make: *** [Makefile:9: run] Segmentation fault'))?.class).not.toBe('timeout-aborted');
  });
});

describe("Python's module-qualified `Error` after a traceback is a run-time exception", () => {
  it('`shutil.Error`, `struct.error`', () => {
    const tb = (last: string): string => jenkins('+ python3 tools/pack.py', 'Traceback (most recent call last):', '  File "/ws/tools/pack.py", line 9, in <module>', '    run()', last);
    expect(top(tb("shutil.Error: [('a', 'b', 'x')]"))?.class).toBe('runtime-exception');
    expect(top(tb('struct.error: unpack requires a buffer of 4 bytes'))?.class).toBe('runtime-exception');
  });

  it('counter-example: a bare `Error:` line without a traceback is not read as a Python exception', () => {
    expect(top(jenkins('+ ./check.sh', 'config.Error: nothing'))?.class).not.toBe('runtime-exception');
  });
});

describe("mocha's `Exception during run:` is the suite failing to run", () => {
  it('an error thrown while loading the test files', () => {
    const f = top(jenkins('+ npx mocha', '', ' Exception during run: SyntaxError: Unexpected token }', '    at compileSourceTextModule (node:internal/modules/esm/utils:340:16)'));
    expect([f?.class, f?.tool]).toEqual(['test-error', 'mocha']);
  });
});

describe("a keystore's wrong password is a credential", () => {
  it("the JDK's `keystore password was incorrect` (PKCS12) and `Keystore was tampered with, or password was incorrect` (JKS)", () => {
    for (const msg of ['java.io.IOException: keystore password was incorrect', 'java.io.IOException: Keystore was tampered with, or password was incorrect']) {
      const f = top(jenkins('+ java -cp build Release', `Exception in thread "main" ${msg}`, '\tat java.base/sun.security.pkcs12.PKCS12KeyStore.engineLoad(PKCS12KeyStore.java:2159)', '\tat Release.main(Release.java:21)'));
      expect(f?.class).toBe('permission-credentials');
    }
  });
});

describe("bash's diagnostic on a script's variable is the script's own stop", () => {
  it('`${VAR:?message}`', () => {
    const f = top(jenkins('+ ./tools/release.sh', './tools/release.sh: line 5: RELEASE_TAG: set RELEASE_TAG to the version'));
    expect([f?.class, f?.location?.line]).toEqual(['ci-script', 5]);
  });

  it("counter-example: the shell's `command not found` for a word stays a missing tool", () => {
    expect(top(jenkins('+ ./build.sh', './build.sh: line 2: protoc: command not found', 'ERROR: script returned exit code 127'))?.class).toBe('missing-tool');
  });
});

describe("a Rust unit test's panic that states the value it wanted is the test's check", () => {
  const cargo = (thread: string, msg: string): string => jenkins('+ cargo test', 'running 2 tests', `test ${thread} ... FAILED`, '', 'failures:', '', `---- ${thread} stdout ----`, '', `thread '${thread}' (4242) panicked at src/geo.rs:41:9:`, msg, 'note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace', '', 'failures:', `    ${thread}`, '', 'test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s', '', 'error: test failed, to rerun pass `--lib`');
  it('`mod tests` with got/want in its message', () => {
    expect(top(cargo('geo::tests::distance', 'distance(a, b) = 12.000001, want 12'))?.class).toBe('test-assertion');
  });

  it('counter-example: an unwrap in the same test stays a test error', () => {
    expect(top(cargo('geo::tests::distance', 'called `Option::unwrap()` on a `None` value'))?.class).toBe('test-error');
  });
});

describe("the Maven enforcer's convergence rules are resolution failures", () => {
  it('DependencyConvergence', () => {
    const f = top(jenkins('+ mvn -B verify', '[ERROR] Rule 0: org.apache.maven.enforcer.rules.dependency.DependencyConvergence failed with message:', '[ERROR] Dependency convergence error for org.slf4j:slf4j-api:jar:2.0.9. Paths to dependency are:', '[ERROR] +-dev.x:app:jar:1.0', '[ERROR]   +-org.slf4j:slf4j-api:jar:2.0.9:compile', '[ERROR] -> [Help 1]'));
    expect([f?.class, f?.tool]).toEqual(['dependency-resolution', 'maven-enforcer']);
  });
});

describe("a tool called from the wrong place or for what is not there", () => {
  it("maven without a POM, npm's unknown workspace: the script's call", () => {
    expect(top(jenkins('+ mvn -B package', '[ERROR] The goal you specified requires a project to execute but there is no POM in this directory (/ws). Please verify you invoked Maven from the correct directory. -> [Help 1]'))?.class).toBe('ci-script');
    expect(top(jenkins('+ npm test --workspace=apps/web', 'npm error No workspaces found:', 'npm error   --workspace=apps/web'))?.class).toBe('ci-script');
  });

  it("npx refusing to install: a missing tool", () => {
    expect(top(jenkins('+ npx --no-install tsc -p .', 'npm error npx canceled due to missing packages and no YES option: ["tsc@2.0.4"]'))?.class).toBe('missing-tool');
  });
});
