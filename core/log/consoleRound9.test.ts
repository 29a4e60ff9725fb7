/**
 * Jenkins console round 9's mechanisms (session 57, helper jt10), on made-up minimal consoles in Jenkins' and the
 * tools' own words. Round 9's misses were new tools' own verdicts under Jenkins' wrappers or the build tool's verdict;
 * the tests use tools that no round 7-9 log has, so that what is checked is the shape, not the words:
 *
 * - A gate's verdict that a measure fell short (a coverage gate, a licence policy), with no failure word, is why the
 *   step failed: it outranks `script returned exit code 1` after End of Pipeline.
 * - A security scanner's blocking advisory (`Severity: high` / `critical`) is first; its count alone is what
 *   `npm install` prints of any tree, so that count in a passing step is no failure.
 * - A checker's report line `path:line: Error: message [CheckId]` outranks the build tool's verdict over it.
 * - Jenkins' `hudson.AbortException: <why>` is the cause under the exception or publisher error that wraps it, unless
 *   it only says that a step failed.
 * - A fatal error announced on a line of its own outranks the cleanup errors printed after it.
 */
import { PIPELINE_END as END, PIPELINE_HEAD as HEAD, stage, topOfLines as top } from '../../test/helpers/logKit.js';

const lineOf = (log: readonly string[], text: string): number => log.findIndex((l) => l.includes(text)) + 1;
const covers = (e: { start: number; end: number }, line: number): boolean => e.start <= line && line <= e.end;
/** The post section a declarative pipeline runs after a failed stage: only cleanup. */
const POST = ['[Pipeline] stage', '[Pipeline] { (Declarative: Post Actions)', '[Pipeline] cleanWs', '[WS-CLEANUP] Deleting project workspace...', '[WS-CLEANUP] done', '[Pipeline] }', '[Pipeline] // stage'];
const SKIPPED = (name: string) => stage(name, [`Stage "${name}" skipped due to earlier failure(s)`]);

describe("a gate's verdict that a measure fell short", () => {
  test("pytest-cov's `Required test coverage of N% not reached` is first, not Jenkins' exit line", () => {
    const log = [
      ...HEAD,
      ...stage('Test', [
        '[Pipeline] sh',
        '+ pytest --cov=shop --cov-fail-under=90 -q',
        '........................................................................ [ 92%]',
        '......                                                                   [100%]',
        '',
        '---------- coverage: platform linux, python 3.12.3-final-0 -----------',
        'Name                 Stmts   Miss  Cover',
        '----------------------------------------',
        'shop/cart.py            88      9    90%',
        'shop/tax.py             41     12    71%',
        '----------------------------------------',
        'TOTAL                  129     21    84%',
        '',
        'FAIL Required test coverage of 90% not reached. Total coverage: 83.72%',
        '78 passed in 4.12s',
      ]),
      ...SKIPPED('Package'),
      ...POST,
      ...END,
    ];
    const at = lineOf(log, 'not reached');
    expect(top(log)).toEqual({ start: at, end: at, reason: 'quality gate not met' });
  });

  test("coverage.py's `total of N is less than fail-under=M` (a second coverage tool)", () => {
    const log = [
      ...HEAD,
      ...stage('Coverage', ['[Pipeline] sh', '+ coverage report --fail-under=80', 'Name          Stmts   Miss  Cover', '---------------------------------', 'api/views.py     120     40    67%', '---------------------------------', 'TOTAL            120     40    67%', 'Coverage failure: total of 67 is less than fail-under=80']),
      ...END,
    ];
    expect(top(log)).toMatchObject({ start: lineOf(log, 'less than fail-under'), reason: 'quality gate not met' });
  });

  test("a licence checker's refusal (go-licenses) is first, not the exit", () => {
    const log = [
      ...HEAD,
      ...stage('Licences', ['[Pipeline] sh', '+ go-licenses check ./...', 'E1201 10:21:50.123456   4242 library.go:117] Forbidden license type AGPL-3.0 for library github.com/acme/quotas']),
      ...END,
    ];
    expect(top(log)).toMatchObject({ start: lineOf(log, 'Forbidden license'), reason: 'quality gate not met' });
  });

  test("a gate that was met says nothing: the later compiler error is first (counter-example)", () => {
    const log = [
      ...HEAD,
      ...stage('Test', ['[Pipeline] sh', '+ pytest --cov=shop --cov-fail-under=80 -q', '78 passed in 4.12s', 'Required test coverage of 80% reached. Total coverage: 83.72%']),
      ...stage('Build', ['[Pipeline] sh', '+ gcc -c native/crc.c', "native/crc.c:12:5: error: unknown type name 'uint32'"]),
      ...END,
    ];
    const e = top(log);
    expect(covers(e, lineOf(log, 'unknown type name'))).toBe(true);
  });
});

describe("a security scanner's findings", () => {
  test("bandit's `Severity: High` issue is first, not the exit after its metrics", () => {
    const log = [
      ...HEAD,
      ...stage('SAST', [
        '[Pipeline] sh',
        '+ bandit -r app -lll',
        '[main]\tINFO\trunning on Python 3.12.3',
        'Run started:2026-12-01 06:10:11.120431',
        '',
        'Test results:',
        '>> Issue: [B602:subprocess_popen_with_shell_equals_true] subprocess call with shell=True identified, security issue.',
        '   Severity: High   Confidence: High',
        '   CWE: CWE-78 (https://cwe.mitre.org/data/definitions/78.html)',
        '   Location: app/run.py:14:4',
        '',
        'Code scanned:',
        '\tTotal lines of code: 812',
        '\tTotal lines skipped (#nosec): 0',
      ]),
      ...POST,
      ...END,
    ];
    expect(covers(top(log), lineOf(log, 'Severity: High'))).toBe(true);
  });

  test("pip-audit's count of known vulnerabilities and its table: the scanner's output is first", () => {
    const log = [
      ...HEAD,
      ...stage('Audit', ['[Pipeline] sh', '+ pip-audit -r requirements.txt', 'Found 2 known vulnerabilities in 1 package', 'Name   Version ID                  Fix Versions', '------ ------- ------------------- ------------', 'jinja2 3.1.2   GHSA-h5c8-rqwp-cp95 3.1.3', 'jinja2 3.1.2   GHSA-h75v-3vvj-5mfj 3.1.4']),
      ...END,
    ];
    const e = top(log);
    expect(e.start).toBeGreaterThanOrEqual(lineOf(log, 'Found 2 known'));
    expect(e.end).toBeLessThanOrEqual(lineOf(log, 'GHSA-h75v'));
  });

  test("npm install's count of a tree's vulnerabilities is no failure: the later test failure is first (counter-example)", () => {
    const log = [
      ...HEAD,
      ...stage('Install', ['[Pipeline] sh', '+ npm install', 'added 741 packages, and audited 742 packages in 11s', '', '8 vulnerabilities (1 low, 6 moderate, 1 critical)', '', 'Run `npm audit` for details.', 'found 3 vulnerabilities (2 low, 1 high) in 900 scanned packages']),
      ...stage('Test', ['[Pipeline] sh', '+ npx tsc --noEmit', "src/cart.ts(14,7): error TS2322: Type 'string' is not assignable to type 'number'."]),
      ...END,
    ];
    expect(covers(top(log), lineOf(log, 'TS2322'))).toBe(true);
  });
});

describe("a checker's report line `path:line: Error: message [CheckId]`", () => {
  test("Android Lint's NewApi error under Gradle's `Lint found errors` is first", () => {
    const log = [
      ...HEAD,
      ...stage('Lint', [
        '[Pipeline] sh',
        '+ ./gradlew lintDebug',
        '> Task :app:lintAnalyzeDebug',
        '> Task :app:lintReportDebug',
        '/home/jenkins/workspace/app/app/src/main/java/com/acme/Clock.java:31: Error: Call requires API level 26 (current min is 21): java.time.LocalDate#now [NewApi]',
        '        LocalDate today = LocalDate.now();',
        '                                    ~~~',
        '',
        '1 errors, 3 warnings',
        '> Task :app:lintDebug FAILED',
        '',
        'FAILURE: Build failed with an exception.',
        '',
        '* What went wrong:',
        "Execution failed for task ':app:lintDebug'.",
        '> Lint found errors in the project; aborting build.',
        '',
        '* Try:',
        '> Run with --stacktrace option to get the stack trace.',
        '',
        'BUILD FAILED in 1m 2s',
      ]),
      ...END,
    ];
    expect(top(log)).toMatchObject({ start: lineOf(log, ': Error: Call requires API level'), reason: 'lint error' });
  });

  test('a `Warning:` line of the same form is no lint error (counter-example)', () => {
    const log = [
      ...HEAD,
      ...stage('Lint', ['[Pipeline] sh', '+ ./gradlew lintDebug', '/home/jenkins/workspace/app/app/src/main/res/layout/main.xml:12: Warning: Hardcoded string "Pay", should use @string resource [HardcodedText]', 'error: failed to read /home/jenkins/workspace/app/lint.xml: permission denied']),
      ...END,
    ];
    expect(top(log).reason).not.toBe('lint error');
  });
});

describe("Jenkins' AbortException", () => {
  test('its message is first under the exception that wraps it', () => {
    const log = [
      'org.jenkinsci.plugins.workflow.cps.CpsCallableInvocation: Failed while running the module ci/Deploy.groovy:',
      'hudson.AbortException: No item named deploy-api-prod found',
      '\tat org.jenkinsci.plugins.workflow.support.steps.build.BuildTriggerStepExecution.start(BuildTriggerStepExecution.java:83)',
      '\tat org.jenkinsci.plugins.workflow.cps.DSL.invokeStep(DSL.java:323)',
      'Finished: FAILURE',
    ];
    expect(covers(top(log), 2)).toBe(true);
  });

  test("a publisher's AbortException is first, not its `aborted due to exception` line", () => {
    const log = [
      'Started by user admin',
      '[tools] $ /bin/sh -xe /tmp/jenkins3.sh',
      '+ make check',
      'Recording plot data',
      'ERROR: Publisher hudson.plugins.plot.PlotPublisher aborted due to exception',
      'hudson.AbortException: Plot file reports/bench.csv was not produced by the build',
      '\tat hudson.plugins.plot.PlotBuilder.perform(PlotBuilder.java:212)',
      'Finished: FAILURE',
    ];
    const e = top(log);
    expect(covers(e, 6)).toBe(true);
    expect(e.reason).toBe('Jenkins step aborted');
  });

  test('`hudson.AbortException: script returned exit code 2` stays a wrapper: the step output says why (counter-example)', () => {
    const log = [...HEAD, ...stage('Build', ['[Pipeline] sh', '+ make dist', "make: *** No rule to make target 'dist'.  Stop."]), '[Pipeline] }', '[Pipeline] End of Pipeline', 'hudson.AbortException: script returned exit code 2', '\tat org.jenkinsci.plugins.workflow.steps.durable_task.DurableTaskStep$Execution.handleExit(DurableTaskStep.java:668)', 'Finished: FAILURE'];
    expect(covers(top(log), lineOf(log, 'No rule to make target'))).toBe(true);
  });
});

describe('a fatal error announced on a line of its own', () => {
  test('it outranks the cleanup errors and the wrapper printed after it', () => {
    const log = [
      'Started by user admin',
      '[app] $ /bin/sh -xe /tmp/jenkins5.sh',
      '+ ./bin/gateway --config gateway.toml',
      '',
      'Fatal configuration error:',
      'listen address 0.0.0.0:8443 is already in use',
      '',
      "rm: cannot remove '/run/gateway.pid': No such file or directory",
      'ERROR: gateway failed to start, consult the lines above for errors',
      "Build step 'Execute shell' marked build as failure",
      'Finished: FAILURE',
    ];
    const e = top(log);
    expect(e).toMatchObject({ start: 5, reason: 'fatal error' });
    expect(covers(e, 6)).toBe(true);
  });
});
