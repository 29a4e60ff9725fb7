import { describe, expect, it } from '@jest/globals';
import { analyze } from '../../test/helpers/rulesReading.js';

/**
 * Session 56 (helper t31; docs/notes/analyzer.md "Session 56 (helper t31)"): mechanisms of rounds 29 and 30's misses
 * that hold in a second tool, each on a made-up minimal log in that tool's own words (every row read another class
 * before the change), with counter-examples that must not move.
 * 1. The JVM's errors of resolving a reference (JVMS 5.4.3: NoSuchMethodError, NoSuchFieldError, AbstractMethodError,
 *    IncompatibleClassChangeError, IllegalAccessError, InstantiationError) are link errors (the lead's decision):
 *    linkage `resolve` (core/finding/linkage.ts `withJvmResolve`), its own message or a `Caused by:` of its trace.
 */
const top = (log: string) => analyze(log)[0]?.finding;
const gha = (...lines: string[]) => ['##[group]Run bash -xe ci.sh', 'bash -xe ci.sh', '##[endgroup]', ...lines, '##[error]Process completed with exit code 1.', ''].join('\n');
const jenkins = (...lines: string[]) => ['Started by user ci', '[Pipeline] sh', ...lines, '[Pipeline] }', 'ERROR: script returned exit code 1', 'Finished: FAILURE', ''].join('\n');

describe('the JVM resolving a reference against a class of another shape is a link error', () => {
  const ROWS: [name: string, log: string, message: string][] = [
    ['Kotlin calling a function a library changed (NoSuchMethodError)', jenkins('+ kotlin -cp build/app.jar:libs/money-2.1.jar app.MainKt', 'Exception in thread "main" java.lang.NoSuchMethodError: \'long acme.money.MoneyKt.cents(java.lang.String)\'', '\tat app.MainKt.main(Main.kt:7)', '\tat app.MainKt.main(Main.kt)'), 'NoSuchMethodError'],
    ['Scala reading a field a library renamed (NoSuchFieldError)', gha('+ scala -cp target/classes:lib/conf-1.3.jar app.Main', 'Exception in thread "main" java.lang.NoSuchFieldError: DEFAULT_PORT', '\tat app.Main$.main(Main.scala:5)', '\tat app.Main.main(Main.scala)'), 'NoSuchFieldError'],
    ['Groovy calling a method made private (IllegalAccessError)', jenkins('+ java -cp build/classes:lib/report.jar tools.Report', 'Exception in thread "main" java.lang.IllegalAccessError: class tools.Report tried to access private method \'java.lang.String acme.Fmt.pad(int)\' (tools.Report and acme.Fmt are in unnamed module of loader \'app\')', '\tat tools.Report.main(Report.groovy:12)'), 'IllegalAccessError'],
    ['a plugin compiled against an older interface (AbstractMethodError)', gha('+ java -cp out:plugins/csv.jar app.Main', 'Exception in thread "main" java.lang.AbstractMethodError: Receiver class plug.Csv does not define or inherit an implementation of the resolved method \'abstract java.lang.String header()\' of interface app.Exporter.', '\tat app.Main.main(Main.java:9)'), 'AbstractMethodError'],
    ['new of a class that became abstract (InstantiationError)', jenkins('+ java -cp out:lib/shapes.jar app.Draw', 'Exception in thread "main" java.lang.InstantiationError: acme.shapes.Shape', '\tat app.Draw.main(Draw.java:4)'), 'InstantiationError'],
    ['a static method that became an instance one (IncompatibleClassChangeError)', gha('+ java -cp out:lib/ids.jar app.Main', 'Exception in thread "main" java.lang.IncompatibleClassChangeError: Expected static method \'java.lang.String acme.Ids.next()\'', '\tat app.Main.main(Main.java:6)'), 'IncompatibleClassChangeError'],
  ];
  it.each(ROWS)('%s', (_name, log, words) => {
    const f = top(log);
    expect([f?.class, f?.linkage?.stage, f?.message.includes(words)]).toEqual(['link-error', 'resolve', true]);
  });

  it('a `Caused by:` in the trace of another exception (a program\'s, a surefire test\'s): the cause is the message', () => {
    const f = top(jenkins('+ java -cp out:lib/codec-3.0.jar app.Main', 'Exception in thread "main" java.lang.ExceptionInInitializerError', '\tat app.Main.main(Main.java:5)', 'Caused by: java.lang.NoSuchMethodError: \'byte[] acme.codec.Hex.decode(java.lang.String)\'', '\tat app.Keys.<clinit>(Keys.java:9)', '\t... 1 more'));
    expect([f?.class, f?.linkage?.stage, f?.message.endsWith("java.lang.NoSuchMethodError: 'byte[] acme.codec.Hex.decode(java.lang.String)'")]).toEqual(['link-error', 'resolve', true]);
    const t = top(['[INFO] Running acme.AppTest', '[ERROR] Tests run: 1, Failures: 0, Errors: 1, Skipped: 0, Time elapsed: 0.4 s <<< FAILURE! - in acme.AppTest', '[ERROR] acme.AppTest.loads  Time elapsed: 0.1 s  <<< ERROR!', 'java.lang.IllegalStateException: Failed to load ApplicationContext', '\tat acme.AppTest.loads(AppTest.java:12)', 'Caused by: org.springframework.beans.factory.BeanCreationException: Error creating bean with name \'codec\'', '\t... 12 more', 'Caused by: java.lang.NoSuchFieldError: UPPER', '\tat acme.Codec.<init>(Codec.java:9)', '\t... 30 more', '', '[ERROR] Tests run: 1, Failures: 0, Errors: 1, Skipped: 0', '[INFO] BUILD FAILURE', ''].join('\n'));
    expect([t?.class, t?.linkage?.stage, t?.message.endsWith('java.lang.NoSuchFieldError: UPPER'), t?.test?.name]).toEqual(['link-error', 'resolve', true, 'acme.AppTest.loads']);
  });

  it('counter-examples: a class not found at all, the Pipeline sandbox\'s DSL step, another exception\'s message naming one', () => {
    // A class not found at all is a link error of its own stage since session 57 (helper jv1: core/finding/missingClass.test.ts), never `resolve`.
    const missing = top(jenkins('+ java -cp out app.Main', 'Exception in thread "main" java.lang.NoClassDefFoundError: acme/codec/Hex', '\tat app.Main.main(Main.java:5)', 'Caused by: java.lang.ClassNotFoundException: acme.codec.Hex', '\t... 1 more'));
    expect([missing?.class, missing?.linkage?.stage]).toEqual(['link-error', 'missing-class']);
    expect(top(['Started by user ci', '[Pipeline] Start of Pipeline', '[Pipeline] End of Pipeline', 'java.lang.NoSuchMethodError: No such DSL method \'withMaven2\' found among steps [archiveArtifacts, bat, build]', '\tat org.jenkinsci.plugins.workflow.cps.DSL.invokeMethod(DSL.java:219)', 'Finished: FAILURE', ''].join('\n'))?.linkage).toBeUndefined();
    expect(top(gha('+ java -cp out app.Main', 'Exception in thread "main" java.lang.IllegalStateException: retry after java.lang.NoSuchMethodError was logged', '\tat app.Main.main(Main.java:5)'))?.class).toBe('runtime-exception');
  });
});
