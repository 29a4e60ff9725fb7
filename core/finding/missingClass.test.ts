import { describe, expect, it } from '@jest/globals';
import { analyze } from '../../test/helpers/rulesReading.js';

/**
 * Session 57 (helper jv1; docs/notes/analyzer.md "Session 57 (helper jv1)"): the JVM's `NoClassDefFoundError: a/b/C` is a
 * link error (the lead's decision of session 56: JVMS 5.4.3.1, class resolution failed), linkage `missing-class` with the
 * class in dotted form (core/finding/linkage.ts `withJvmResolve`), the message the NoClassDefFoundError line, the place the
 * deepest frame of the project's code. Excluded: `NoClassDefFoundError: Could not initialize class X` (a static initializer
 * failed earlier) and ClassNotFoundException alone (reflection). Made-up logs in each tool's own words.
 */
const top = (log: string) => analyze(log)[0]?.finding;
const jenkins = (...lines: string[]) => ['Started by user ci', '[Pipeline] Start of Pipeline', '[Pipeline] node', '[Pipeline] {', '[Pipeline] stage', '[Pipeline] { (Run)', '[Pipeline] sh', ...lines, '[Pipeline] }', '[Pipeline] // stage', '[Pipeline] }', '[Pipeline] End of Pipeline', 'ERROR: script returned exit code 1', 'Finished: FAILURE', ''].join('\n');
const gha = (...lines: string[]) => ['##[group]Run bash -xe ci.sh', 'bash -xe ci.sh', '##[endgroup]', ...lines, '##[error]Process completed with exit code 1.', ''].join('\n');

const read = (log: string) => {
  const f = top(log);
  return { class: f?.class, stage: f?.linkage?.stage, object: f?.linkage?.object, message: f?.message.replace(/^.*?(?=java\.lang\.)/, ''), place: f?.location ? `${f.location.file.replace(/^.*\//, '')}:${f.location.line ?? ''}` : undefined };
};

describe('a class the JVM could not find at run time (NoClassDefFoundError) is a link error', () => {
  it('a plain `java -cp` run missing a class directory', () => {
    const log = gha('+ javac -d out/core core/src/acme/core/Money.java', '+ javac -cp out/core -d out/app app/src/acme/app/Main.java', '+ java -cp out/app acme.app.Main', 'Exception in thread "main" java.lang.NoClassDefFoundError: acme/core/Money', '\tat acme.app.Main.main(Main.java:7)', 'Caused by: java.lang.ClassNotFoundException: acme.core.Money', '\tat java.base/jdk.internal.loader.BuiltinClassLoader.loadClass(BuiltinClassLoader.java:641)', '\tat java.base/java.lang.ClassLoader.loadClass(ClassLoader.java:525)', '\t... 1 more');
    expect(read(log)).toEqual({ class: 'link-error', stage: 'missing-class', object: 'acme.core.Money', message: 'java.lang.NoClassDefFoundError: acme/core/Money', place: 'Main.java:7' });
  });

  it('a Jenkins Pipeline `sh` step running a shaded jar without a `provided` dependency', () => {
    const log = jenkins('+ java -jar target/slugger-1.0.jar "Hello World"', 'Exception in thread "main" java.lang.NoClassDefFoundError: org/apache/commons/text/CaseUtils', '\tat dev.acme.slug.Slugger.slug(Slugger.java:9)', '\tat dev.acme.slug.Slugger.main(Slugger.java:14)', 'Caused by: java.lang.ClassNotFoundException: org.apache.commons.text.CaseUtils', '\tat java.base/jdk.internal.loader.BuiltinClassLoader.loadClass(BuiltinClassLoader.java:641)', '\t... 2 more');
    expect(read(log)).toEqual({ class: 'link-error', stage: 'missing-class', object: 'org.apache.commons.text.CaseUtils', message: 'java.lang.NoClassDefFoundError: org/apache/commons/text/CaseUtils', place: 'Slugger.java:9' });
  });

  it("a Maven surefire test's error", () => {
    const log = ['[INFO] Running dev.acme.shop.CartTest', '[ERROR] Tests run: 2, Failures: 0, Errors: 1, Skipped: 0, Time elapsed: 0.21 s <<< FAILURE! - in dev.acme.shop.CartTest', '[ERROR] dev.acme.shop.CartTest.totals  Time elapsed: 0.02 s  <<< ERROR!', 'java.lang.NoClassDefFoundError: com/acme/money/Euro', '\tat dev.acme.shop.Cart.total(Cart.java:21)', '\tat dev.acme.shop.CartTest.totals(CartTest.java:14)', 'Caused by: java.lang.ClassNotFoundException: com.acme.money.Euro', '\tat java.base/jdk.internal.loader.BuiltinClassLoader.loadClass(BuiltinClassLoader.java:641)', '\t... 4 more', '', '[INFO] Results:', '[ERROR] Errors: ', '[ERROR]   CartTest.totals:14 » NoClassDefFound com/acme/money/Euro', '[ERROR] Tests run: 2, Failures: 0, Errors: 1, Skipped: 0', '[INFO] BUILD FAILURE', ''].join('\n');
    const f = top(log);
    expect([f?.class, f?.linkage, f?.test?.name, f?.location?.file.replace(/^.*\//, ''), f?.location?.line]).toEqual(['link-error', { stage: 'missing-class', object: 'com.acme.money.Euro' }, 'dev.acme.shop.CartTest.totals', 'Cart.java', 21]);
  });

  it("a Gradle test's error (exceptionFormat full)", () => {
    const log = ['> Task :app:test', '', 'InvoiceTest > rendersPdf() FAILED', '    java.lang.NoClassDefFoundError: org/acme/pdf/Writer', '        at app.Invoice.render(Invoice.kt:12)', '        at app.InvoiceTest.rendersPdf(InvoiceTest.kt:9)', '', '        Caused by:', '        java.lang.ClassNotFoundException: org.acme.pdf.Writer', '            at java.base/jdk.internal.loader.BuiltinClassLoader.loadClass(BuiltinClassLoader.java:641)', '            ... 2 more', '', '3 tests completed, 1 failed', '', '> Task :app:test FAILED', '', 'FAILURE: Build failed with an exception.', ''].join('\n');
    const f = top(log);
    expect([f?.class, f?.linkage]).toEqual(['link-error', { stage: 'missing-class', object: 'org.acme.pdf.Writer' }]);
  });

  it('a chain: the NoClassDefFoundError a wrapper was caused by (its ClassNotFoundException names the same class)', () => {
    const log = gha('+ java -cp out acme.Main', 'Exception in thread "main" java.lang.ExceptionInInitializerError', '\tat acme.Main.main(Main.java:5)', 'Caused by: java.lang.NoClassDefFoundError: org/yaml/snakeyaml/Yaml', '\tat acme.Config.<clinit>(Config.java:11)', '\t... 1 more', 'Caused by: java.lang.ClassNotFoundException: org.yaml.snakeyaml.Yaml', '\tat java.base/jdk.internal.loader.BuiltinClassLoader.loadClass(BuiltinClassLoader.java:641)', '\t... 2 more');
    expect(read(log)).toMatchObject({ class: 'link-error', stage: 'missing-class', object: 'org.yaml.snakeyaml.Yaml', message: 'java.lang.NoClassDefFoundError: org/yaml/snakeyaml/Yaml' });
  });

  it('excluded: `Could not initialize class X` (a static initializer failed earlier) stays an exception, a test error under a test', () => {
    const program = gha('+ java -cp out acme.Main', 'Exception in thread "main" java.lang.NoClassDefFoundError: Could not initialize class acme.Config', '\tat acme.Main.main(Main.java:8)', 'Caused by: java.lang.ExceptionInInitializerError: Exception java.lang.IllegalStateException: no APP_HOME [in thread "main"]', '\tat acme.Config.<clinit>(Config.java:6)', '\tat acme.Main.main(Main.java:5)');
    expect([top(program)?.class, top(program)?.linkage]).toEqual(['runtime-exception', undefined]);
    const test = ['[INFO] Running acme.ConfigTest', '[ERROR] Tests run: 2, Failures: 0, Errors: 1, Skipped: 0, Time elapsed: 0.1 s <<< FAILURE! - in acme.ConfigTest', '[ERROR] acme.ConfigTest.reads  Time elapsed: 0.01 s  <<< ERROR!', 'java.lang.NoClassDefFoundError: Could not initialize class acme.Config', '\tat acme.ConfigTest.reads(ConfigTest.java:12)', '', '[ERROR] Tests run: 2, Failures: 0, Errors: 1, Skipped: 0', '[INFO] BUILD FAILURE', ''].join('\n');
    expect([top(test)?.class, top(test)?.linkage]).toEqual(['test-error', undefined]);
  });

  it('excluded: a ClassNotFoundException alone (Class.forName, a driver by name) keeps its class', () => {
    const log = gha('+ java -cp out acme.Db', 'Exception in thread "main" java.lang.ClassNotFoundException: org.postgresql.Driver', '\tat java.base/jdk.internal.loader.BuiltinClassLoader.loadClass(BuiltinClassLoader.java:641)', '\tat java.base/java.lang.Class.forName0(Native Method)', '\tat java.base/java.lang.Class.forName(Class.java:375)', '\tat acme.Db.main(Db.java:6)');
    expect([top(log)?.class, top(log)?.linkage]).toEqual(['runtime-exception', undefined]);
  });
});

/**
 * The place of a linkage error raised in a vendored jar's class (rounds 29-30's KNOWN_WRONG_PLACE rows): the deepest frame
 * of the project's own code, not the jar's. The project's sources are those the log's compiler commands name
 * (core/finding/frames.ts `markUncompiled`); a frame of a class none of them declares came built from a jar.
 */
describe('a JVM frame of a class the build did not compile (a vendored jar\'s) is not the project\'s place', () => {
  const run = (compile: string, ...trace: string[]) => gha(compile, '+ java -cp out:lib/acme-pdf-plugin-3.2.jar app.Main', ...trace);
  const illegal = ["Exception in thread \"main\" java.lang.IllegalAccessError: class plug.PdfRenderer tried to access private method 'java.lang.String app.Formats.money(long)' (plug.PdfRenderer and app.Formats are in unnamed module of loader 'app')", '\tat plug.PdfRenderer.render(PdfRenderer.java:8)', '\tat app.Main.main(Main.java:10)'];

  it('javac named the project\'s sources: the jar\'s frame is passed over, the caller in Main.java is the place', () => {
    const f = top(run('+ javac -d out api/app/Formats.java app/app/Main.java', ...illegal));
    expect([f?.class, f?.location?.file, f?.location?.line, f?.location?.frames?.raise?.file]).toEqual(['link-error', 'app/Main.java', 10, 'plug/PdfRenderer.java']);
  });

  it('kotlinc, a NoSuchFieldError in a plugin over the project\'s two frames: the deepest of the project\'s', () => {
    const f = top(gha('+ kotlinc src/app/Main.kt src/app/Report.kt -d out', '+ kotlin -cp out:vendor/s3-plugin-2.0.jar app.MainKt', 'Exception in thread "main" java.lang.NoSuchFieldError: TIMEOUT', '\tat plug.S3Uploader.describe(S3Uploader.java:8)', '\tat app.Report.upload(Report.kt:21)', '\tat app.MainKt.main(Main.kt:4)'));
    expect([f?.location?.file, f?.location?.line]).toEqual(['app/Report.kt', 21]);
  });

  it('counter-examples: the plugin compiled by the build too, or no compiler command in the log: the top frame stays', () => {
    expect(top(run('+ javac -d out api/app/Formats.java plugins/plug/PdfRenderer.java app/app/Main.java', ...illegal))?.location?.line).toBe(8);
    expect(top(gha('+ java -cp out:lib/acme-pdf-plugin-3.2.jar app.Main', ...illegal))?.location?.line).toBe(8);
    // A compiler command whose sources are none of the trace's frames (another module's) changes nothing.
    expect(top(run('+ javac -d out tools/Gen.java', ...illegal))?.location?.line).toBe(8);
  });
});

