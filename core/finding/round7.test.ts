import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { setGenericOnly } from './ablation.js';
import { realFinding as real, topFinding as top } from '../../test/helpers/findingCases.js';

/**
 * Round 7's class misses, general first (docs/notes/analyzer.md, "Round 7 tuning: family rules on
 * unseen tools"): each decided with the tool-family rules off, the same evidence on made-up logs of
 * tools no case has, and counter-examples where it must not claim.
 */
describe('round 7 tuning, family rules off', () => {
  beforeAll(() => setGenericOnly(true));
  afterAll(() => setGenericOnly(false));

  it.each<[string, string, string]>([
    ['pyflakes-redefinition-unused', 'lint', "ledger/amounts.py:12:1: redefinition of unused 'parse_amount' from line 4"],
    ['vue-tsc-prop-type-mismatch', 'compile-error', "src/components/CartButton.vue(9,45): error TS2322: Type 'string' is not assignable to type 'number'."],
    ['jshint-undef-variable', 'lint', "public/js/slider.js: line 5, col 59, 'maximum' is not defined."],
    ['ffmpeg-scale-ulimit', 'out-of-memory', 'x264 [error]: malloc of size 26999616 failed'],
    ['jarsigner-keystore-password', 'permission-credentials', 'jarsigner error: java.lang.RuntimeException: keystore load: keystore password was incorrect'],
    ['pydocstyle-module-missing', 'missing-tool', '/root/.pyenv/versions/3.11.7/bin/python3: No module named pydocstyle'],
    ['cargo-git-dep-auth-failed', 'permission-credentials', 'failed to authenticate when downloading repository'],
    ['mandoc-lint-unknown-macro', 'lint', 'mandoc: man/syncd.1:28:2: ERROR: skipping unknown macro: .Arg count'],
    ['go-example-output-mismatch', 'test-assertion', '--- FAIL: ExampleFormat (0.00s)'],
    ['qunit-deep-equal-failure', 'test-assertion', 'not ok 2 query.parse > repeated keys become arrays'],
    ['vite-build-unresolved-package', 'dependency-resolution', 'Error: [vite]: Rolldown failed to resolve import "date-fns" from "/tmp/data7b/ws/vite-build-unresolved-package/src/sync.js".'],
    ['chicken-unbound-variable', 'runtime-exception', 'Error: unbound variable: string-pad'],
    ['systemd-verify-unit-error', 'lint', 'report-worker.service: Command /usr/bin/pyton3 is not executable: No such file or directory'],
    ['cargo-test-returns-err', 'test-error', 'Error: ConfigError("line 3: timeout must be a whole number of seconds, got \\"30s\\"")'],
  ])('%s: %s', (id, cls, message) => {
    const f = real(id);
    expect([f?.class, f?.message]).toEqual([cls, message]);
  });

  it('reads the same evidence on tools no case has', () => {
    // A known program under a version suffix or a framework's wrapper has its kind.
    expect(top('+ pylint3 app\napp/x.py:3:0: unused import os\nexit 1').class).toBe('lint');
    expect(top('+ npx nuxt-tsc --noEmit\npages/a.vue(3,7): error TS2345: Argument of type string is not assignable.\nexit 2').class).toBe('compile-error');
    // `file: line N, col M, message` under a checker whose directory holds the file.
    const hint = top('+ csshint web/css\nweb/css/a.css: line 3, col 5, Unknown property colr.\nexit 2');
    expect([hint.class, hint.location?.file, hint.location?.line, hint.location?.column]).toEqual(['lint', 'web/css/a.css', 3, 5]);
    // The allocator's, a password's and Python's launcher's words.
    expect(top('+ ./render scene.bin\nrender [error]: malloc of 4096 bytes failed\nexit 1').class).toBe('out-of-memory');
    expect(top('+ openssl pkcs12 -in k.p12 -nokeys\nMac verify error: invalid password?\nerror: incorrect password for k.p12\nexit 1').class).toBe('permission-credentials');
    expect(top('+ python3.12 -m mkdocs build\n/usr/bin/python3.12: No module named mkdocs\nexit 1').class).toBe('missing-tool');
    // A checker's `prog: file:line:col: ERROR: msg` under a command whose target is lint.
    expect(top('+ podchecker -T lint doc/x.pod\npodchecker: doc/x.pod:4:1: ERROR: unterminated list\nexit 1').class).toBe('lint');
    // A failure whose detail compares what the test got with what it wanted.
    expect(top('+ npx qunit test/a.js\nTAP version 13\nnot ok 1 sums\n  ---\n  message: failed\n  actual  : 3\n  expected: 4\n  ...\n1..1\nexit 1').class).toBe('test-assertion');
    // A bundler's unresolved bare import.
    expect(top('+ npx rollup -c\nError: Could not resolve import "lodash-es" from "src/a.js"\n    at error (/ws/node_modules/rollup/dist/rollup.js:10:3)\nexit 1').class).toBe('dependency-resolution');
    // A runner's `---- name stdout ----` banner: the error under it.
    expect(top('+ cargo test\nfailures:\n\n---- t::a stdout ----\nError: Parse("bad")\n\n\nfailures:\n    t::a\n\ntest result: FAILED. 0 passed; 1 failed\nexit 101').message).toBe('Error: Parse("bad")');
    // A program the step built, run by its path: its own error is a run-time error.
    expect(top('+ fpc src/app.pas -o app\n+ ./app\nError: range check failed: index 12\nexit 1').class).toBe('runtime-exception');
    // A validating subcommand's report line that names the file it checks.
    expect(top('+ cfgtool validate conf/site.cfg\nsite.cfg: unknown key "listn"\nexit 1').class).toBe('lint');
    // A `Caused by:` chain: the deepest cause in a cause's words.
    const chain = top(
      '+ ./pkgtool fetch\nerror: package `y` not found in registry `main`\n\nCaused by:\n  fetch of https://repo.example/index failed\n\nCaused by:\n  authentication required for https://repo.example\nexit 1',
    );
    expect([chain.class, chain.message]).toEqual(['permission-credentials', 'authentication required for https://repo.example']);
  });

  it('claims nothing the evidence does not settle', () => {
    // A module a script imports is a dependency, not a missing program.
    expect(top('+ python3 app.py\nTraceback (most recent call last):\n  File "app.py", line 1, in <module>\n    import yaml\nModuleNotFoundError: No module named \'yaml\'\nexit 1').class).not.toBe('missing-tool');
    // A chain whose causes name no cause's words leaves the error as it was.
    expect(top('+ tool fetch\nerror: failed to load manifest\n\nCaused by:\n  invalid key `nmae` at line 3\nexit 1').class).not.toBe('permission-credentials');
    // A relative import is the project's own file; a failure with only an expected value compares nothing.
    expect(top('+ npx rollup -c\nError: Could not resolve import "./util" from "src/a.js"\n    at error (/ws/node_modules/rollup/dist/rollup.js:10:3)\nexit 1').class).not.toBe('dependency-resolution');
    expect(top('+ npx qunit test/a.js\nTAP version 13\nnot ok 1 sums\n  ---\n  message: Died on test #1: boom\n  expected: nothing thrown\n  ...\n1..1\nexit 1').class).not.toBe('test-assertion');
    // A program the step did not build (a system tool run by path) claims no run-time error; a report line naming another file no lint.
    expect(top('+ gcc a.c -o app\n+ /usr/bin/tool\nError: config missing\nexit 1').class).not.toBe('runtime-exception');
    expect(top('+ cfgtool validate conf/site.cfg\nother.cfg: unknown key "listn"\nexit 1').class).not.toBe('lint');
    // A directory argument holds only the files under it.
    expect(top('+ csshint web/css\nlib/b.css: line 3, col 5, Unknown property colr.\nexit 2').location?.file).not.toBe('web/css/b.css');
  });
});
