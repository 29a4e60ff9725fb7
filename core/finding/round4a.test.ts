import { expectFinding, realFinding as real, topFinding as top, type FindingRow } from '../../test/helpers/findingCases.js';

/** General evidence from round 4's open cases (round 4's rules, now in families/; refineReports.ts), each on a real log of test/fixtures/realfail (round 4, batch A). */

describe('evidence many tools share (round 4 open cases)', () => {
  it.each<FindingRow>([
    // A warning the build treats as an error, under its heading.
    ['sphinx-warning-as-error', 'compile-error', "undefined label: 'install-guide'", 'docs/usage.rst', 4],
    // A compiler's `Error compiling ... file:` heading over its place line.
    ['cython-compile-error', 'compile-error', 'Call with wrong number of arguments', 'faststats/_core.pyx', 22],
    // A stylish report whose rule is in parentheses, under its file.
    ['yamllint-duplicate-key', 'lint', 'duplication of key "timeout"', 'deploy/values.yaml', 12],
    // A linter's verdict over its warning limit, just below the output: at the first warning.
    ['eslint-max-warnings', 'lint', 'ESLint found too many warnings (maximum: 0).', 'src/orders.js', 2],
    // A coverage threshold not met.
    ['pytest-cov-fail-under', 'lint', 'Required test coverage of 90% not reached', undefined, undefined],
    // A download that does not match its pinned hash, at the requirements file's line.
    ['pip-hash-mismatch', 'dependency-resolution', 'DO NOT MATCH THE HASHES', 'requirements.txt', 3],
    // A program not installed that the tool says to install.
    ['pandoc-pdflatex-missing', 'missing-tool', 'pdflatex not found', undefined, undefined],
    // The runtime's required version says more than `Unsupported engine`.
    ['npm-engine-strict', 'missing-tool', 'npm error notsup Required: {"node":">=22.11.0"}', undefined, undefined],
    // A deadline exceeded, at the test's own place in pytest's report.
    ['hypothesis-deadline-exceeded', 'timeout-aborted', 'Test took 956.74ms, which exceeds the deadline', 'tests/test_hashing.py', 8],
    // A test that expected an exception and got none.
    ['pytest-did-not-raise', 'test-assertion', 'DID NOT RAISE', 'tests/test_amounts.py', 22],
    // A timeout inside a socket library's frame: the network, at the project's frame.
    ['python-socket-timeout', 'network', 'TimeoutError: timed out', 'tools/publish_manifest.py', 24],
    // An SQL client's data error.
    ['mariadb-duplicate-entry', 'runtime-exception', "Duplicate entry 'CHF' for key 'PRIMARY'", undefined, undefined],
    // Node's ESM resolver naming a package.
    ['node-err-module-not-found', 'dependency-resolution', "Cannot find package 'js-yaml'", undefined, undefined],
    // A resource a tool fetches by URL could not be had.
    ['xmllint-schema-refused', 'network', 'Failed to locate the main schema resource', undefined, undefined],
    // A traceback printed after a progress message on the same line.
    ['django-migration-runpython', 'runtime-exception', "'Product' object has no attribute 'make_slug'", 'shop/migrations/0002_product_slug.py', 7],
    // TAP YAML diagnostics: the error is the message; a timeout's failure type; the stack's project frame, else the test's location.
    ['node-test-hook-error', 'test-error', 'config.sessionSecret must be set', 'src/app.js', 3],
    ['node-test-timeout', 'timeout-aborted', 'test timed out after 3000ms', 'test/pool.test.js', 5],
    // An error the test runner caught outside a test is the tests' error.
    ['vitest-unhandled-error', 'test-error', 'sink closed, dropped event', 'src/tracker.js', 9],
    // A JVM frame's package path, when a command named the file: that file.
    ['kotlin-npe-not-null', 'runtime-exception', 'KotlinNullPointerException', 'src/Main.kt', 5],
  ])('%s: %s', (...row) => expectFinding(real(row[0]), row, { lineOnlyWithFile: true }));

  it('keeps each rule to its evidence (counter-examples)', () => {
    // A raise in a quoted source line is not the exception.
    expect(top('>           raise DeadlineExceeded(runtime, self.settings.deadline)').class).not.toBe('timeout-aborted');
    // A warning with no `treated as error` heading is no compile error.
    expect(top('+ sphinx-build docs out\n/ws/docs/usage.rst:4: WARNING: undefined label: x').class).not.toBe('compile-error');
    // An access refusal keeps the credentials class; a connection failure is not a data error.
    expect(top("+ mariadb -u ci db\nERROR 1045 (28000): Access denied for user 'ci'@'localhost' (using password: YES)").class).toBe('permission-credentials');
    expect(top("+ mariadb -h db\nERROR 2002 (HY000): Can't connect to server on 'db' (115)").class).not.toBe('runtime-exception');
    // A timeout raised by the program's own code is not the network's.
    expect(top('Traceback (most recent call last):\n  File "/ws/tools/wait.py", line 9, in <module>\n    raise TimeoutError("timed out")\nTimeoutError: timed out').class).not.toBe('network');
    // A warning about an entity alone is not the failure.
    expect(top('warning: failed to load external entity "http://h.example/x.xsd"').class).not.toBe('network');
    // `not found` with a different program to install is no missing tool of this rule.
    expect(top('config.yml not found. Please install the defaults first').class).not.toBe('missing-tool');
    // A relative import stays the compiler's, not the resolver's.
    expect(top("Error [ERR_MODULE_NOT_FOUND]: Cannot find module './lib/x.js' imported from /ws/a.mjs").class).not.toBe('dependency-resolution');
  });

  it('leaves a JVM frame path alone when no command named the file', () => {
    const f = top('+ java -jar build/app.jar\nException in thread "main" java.lang.IllegalStateException: no port\n\tat app.MainKt.portFor(Main.kt:5)\n\tat app.MainKt.main(Main.kt:9)');
    expect(f.location?.file).toBe('app/Main.kt');
  });
});
