import { describe, expect, it } from '@jest/globals';
import { analyze } from '../../test/helpers/rulesReading.js';
import type { Finding } from '../../protocol/types.js';

/**
 * Round 18, opened for tuning (issue 25; docs/notes/analyzer.md, "Round 18 tuning (helper t19)"): each general fact
 * on made-up logs of other projects and tool versions, with a counter-example.
 */
const top = (text: string): Finding | undefined => analyze(text)[0]?.finding;
const jenkins = (...lines: string[]): string => ['[Pipeline] sh', ...lines, '[Pipeline] }', '[Pipeline] End of Pipeline', 'ERROR: script returned exit code 1', 'Finished: FAILURE'].join('\n');
const freestyle = (...lines: string[]): string => ['Started by user ci', '[app] $ /bin/bash -xe ci.sh', ...lines, "Build step 'Execute shell' marked build as failure", 'Finished: FAILURE'].join('\n');

describe("a runtime's stack frames under the message decide whose exception it is", () => {
  const jsonParse = (...above: string[]): string =>
    freestyle(
      ...above,
      '<anonymous_script>:1',
      '\uFEFF[',
      '^',
      '',
      "SyntaxError: Unexpected token '\uFEFF', \"\uFEFF[",
      '  {"id"... is not valid JSON',
      '    at JSON.parse (<anonymous>)',
      '    at loadRoutes (/srv/ci/ws/site/tools/routes.js:14:21)',
      '    at Object.<anonymous> (/srv/ci/ws/site/tools/routes.js:30:1)',
      '',
      'Node.js v22.11.0',
    );

  it("Node's JSON.parse SyntaxError under `npm run` (no `node` in the step's command) is a runtime exception", () => {
    const f = top(jsonParse('+ npm run gen:routes', '', '> site@2.0.0 gen:routes', '> node tools/routes.js', ''));
    expect([f?.class, f?.tool]).toEqual(['runtime-exception', 'node']);
  });

  it("counter-example: Node's own parse error of a module (its frames are node:internal) stays a compile error", () => {
    const f = top(freestyle('+ node --check lib/index.js', '/srv/ci/ws/site/lib/index.js:7', '  return a +;', '            ^', '', "SyntaxError: Unexpected token ';'", '    at wrapSafe (node:internal/modules/cjs/loader:1469:18)', '    at checkSyntax (node:internal/main/check_syntax:78:3)', '', 'Node.js v22.11.0'));
    expect(f?.class).toBe('compile-error');
  });
});

describe("the JVM launcher that cannot load a build tool's wrapper", () => {
  it("Gradle's and Maven's wrapper main class not found: the wrapper's jar is missing, a missing tool", () => {
    for (const cls of ['org.gradle.wrapper.GradleWrapperMain', 'org.apache.maven.wrapper.MavenWrapperMain']) {
      const f = top(jenkins('+ ./gradlew build', `Error: Could not find or load main class ${cls}`, `Caused by: java.lang.ClassNotFoundException: ${cls}`));
      expect([cls, f?.class]).toEqual([cls, 'missing-tool']);
    }
  });

  it("counter-example: the project's own main class not found is not a missing tool", () => {
    const f = top(jenkins('+ java -cp build/classes com.acme.Main', 'Error: Could not find or load main class com.acme.Main', 'Caused by: java.lang.ClassNotFoundException: com.acme.Main'));
    expect(f?.class).not.toBe('missing-tool');
  });
});

describe("Go's HTTP client timeout is the network", () => {
  it('`Client.Timeout exceeded while awaiting headers` from a program is a network error, not a time limit', () => {
    const f = top(freestyle('+ go run ./cmd/sync', '2026/01/02 10:00:00 pull prices: Get "https://prices.internal:8443/v2/eur": context deadline exceeded (Client.Timeout exceeded while awaiting headers)', 'exit status 1'));
    expect(f?.class).toBe('network');
  });

  it('counter-example: a pipeline\'s own timeout stays a timeout', () => {
    const f = top(freestyle('+ go run ./cmd/sync', 'Timeout has been exceeded', 'Cancelling nested steps due to timeout'));
    expect(f?.class).toBe('timeout-aborted');
  });
});

describe("make's report of a recipe killed by the kernel", () => {
  it('`make: *** [Makefile:N: target] Killed` (SIGKILL, no time limit in the log) is out of memory', () => {
    const f = top(freestyle('+ make test', './build/run_tests', 'make: *** [Makefile:21: test] Killed'));
    expect([f?.class, f?.message]).toEqual(['out-of-memory', 'make: *** [Makefile:21: test] Killed']);
  });

  it("counter-example: make's `Error 1` is not", () => {
    const f = top(freestyle('+ make test', './build/run_tests', 'make: *** [Makefile:21: test] Error 1'));
    expect(f?.class).not.toBe('out-of-memory');
  });
});

describe('installed versions that do not fit each other are a dependency error', () => {
  it("`pip check`'s `has requirement ..., but you have ...` after a successful install", () => {
    const f = top(jenkins('+ .venv/bin/pip check', 'fastapi 0.130.0 has requirement starlette<0.50,>=0.40, but you have starlette 0.52.1.'));
    expect([f?.class, f?.message]).toEqual(['dependency-resolution', 'fastapi 0.130.0 has requirement starlette<0.50,>=0.40, but you have starlette 0.52.1.']);
  });

  it("npm's EOVERRIDE and go's `module declares its path as`", () => {
    expect(top(jenkins('+ npm install', 'npm error code EOVERRIDE', 'npm error Override for lodash@^4.17.0 conflicts with direct dependency', 'npm error A complete log of this run can be found in: /home/ci/.npm/_logs/x-debug-0.log'))?.class).toBe('dependency-resolution');
    expect(top(jenkins('+ go build ./...', 'go: downloading git.acme.io/libs/units v0.4.0', 'go: git.acme.io/libs/units@v0.4.0: parsing go.mod:', '\tmodule declares its path as: git.acme.io/platform/units', '\t        but was required as: git.acme.io/libs/units'))?.class).toBe('dependency-resolution');
  });

  it('counter-example: a program that says it requires an argument is not', () => {
    const f = top(jenkins('+ ./tools/release.sh', 'release.sh: --tag requires a value, see --help'));
    expect(f?.class).not.toBe('dependency-resolution');
  });
});
