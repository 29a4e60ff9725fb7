/**
 * A JVM linkage error against the checkout's declaration (session 55, helper fx19): NoSuchMethodError,
 * NoSuchFieldError, AbstractMethodError and IncompatibleClassChangeError name the member as the caller was compiled
 * against it; the checkout's declaration says what differs, the commit that wrote it, and where the caller's class
 * comes from (the checkout, or a jar of the command's classpath: then no "open CsvExporter.java"). Messages as
 * OpenJDK 17 prints them (run on this machine), JDK 21's NoSuchFieldError wording, Java 8's descriptor form; the
 * tuned real case of round 16. And the caller's snippet printed once.
 */
import { askWithGit as ask, gitRepo, removeGitRepos } from './helpers/gitRepo.js';
import { fixOfRealCase, fixOfShellLog } from './helpers/shellLogFix.js';
import { project, removeProjects } from './helpers/projectDir.js';
import { jvmLinkageOf } from '../jenkins/workspace/jvmLinkage.js';

afterAll(() => {
  removeGitRepos();
  removeProjects();
});

const LEDGER = (ret: string): string => `package dev.acme.api;\n\npublic final class Ledger {\n    private Ledger() {}\n\n    public static ${ret} balance(String account) {\n        return account.length();\n    }\n}\n`;
const MAIN = (ret: string): string => `package dev.acme.app;\n\nimport dev.acme.api.Ledger;\nimport dev.acme.plugins.CsvExporter;\n\npublic final class Main {\n    public static void main(String[] args) {\n        ${ret} b = Ledger.balance("acct-1");\n        System.out.println(b);\n        CsvExporter exporter = new CsvExporter();\n        exporter.export("acct-1");\n    }\n}\n`;
const LOG = `Started by an SCM change
Building in workspace /tmp/fx19/jh/workspace/ledger
[ledger] $ /bin/sh -xe /tmp/jenkins1951.sh
+ javac -d build/classes -cp lib/acme-export-plugin-1.3.jar api/dev/acme/api/Ledger.java app/dev/acme/app/Main.java
+ java -cp build/classes:lib/acme-export-plugin-1.3.jar dev.acme.app.Main
Exception in thread "main" java.lang.NoSuchMethodError: 'int dev.acme.api.Ledger.balance(java.lang.String)'
\tat dev.acme.plugins.CsvExporter.export(CsvExporter.java:8)
\tat dev.acme.app.Main.main(Main.java:11)
Build step 'Execute shell' marked build as failure
Finished: FAILURE
`;

const ledgerRepo = (): { dir: string; ids: string[] } =>
  gitRepo([
    { message: 'Ledger', files: { 'api/dev/acme/api/Ledger.java': LEDGER('int'), 'app/dev/acme/app/Main.java': MAIN('int'), 'lib/acme-export-plugin-1.3.jar': 'PK\n' } },
    { message: 'Balances are long', files: { 'api/dev/acme/api/Ledger.java': LEDGER('long'), 'app/dev/acme/app/Main.java': MAIN('long') } },
  ], { prefix: 'cichat-fx19-' });

describe('one snippet, once', () => {
  it('the call the source block already marks is said, not printed a second time', async () => {
    const fix = await ask('how do I fix it?', LOG, ledgerRepo().dir);
    expect(fix).toContain('**In the source:** `app/dev/acme/app/Main.java:11`');
    // The jar's frame (CsvExporter, a class javac did not compile) is not the project's place since session 57 (helper jv1,
    // core/finding/frames.ts markUncompiled): the place is the caller, Main.java:11, the line the source block marks.
    expect(fix).toContain('- Open `dev/acme/app/Main.java:11` (in `dev.acme.app.Main.main`) [L8-L8]');
    expect(fix.split('exporter.export("acct-1");').length - 1).toBe(1);
  });
});

describe('a JVM linkage error against the checkout\'s declaration', () => {
  it('NoSuchMethodError from a jar\'s class: the declaration\'s new return type, the commit, the jar to rebuild, no file to open', async () => {
    const { dir, ids } = ledgerRepo();
    const fix = await ask('how do I fix it?', LOG, dir);
    expect(fix).toContain("`api/dev/acme/api/Ledger.java:6` declares `balance` of `dev.acme.api.Ledger` as `public static long balance(String account)`, but the code that called it was compiled against `int dev.acme.api.Ledger.balance(java.lang.String)` [L6-L6]: it returns `long`, not `int`.");
    expect(fix).toContain(`Commit \`${(ids[1] as string).slice(0, 10)}\` (Balances are long) wrote that declaration.`);
    expect(fix).toContain('`dev.acme.plugins.CsvExporter`, compiled against the old `int balance(String)`, is not in the checkout: it comes from the jar on the command\'s classpath (`lib/acme-export-plugin-1.3.jar`). Rebuild that jar against the new `dev.acme.api.Ledger`, or keep `int balance(String)` as it was and give the new method another name until it is rebuilt, or revert the change.');
    expect(fix).not.toContain('Open `dev/acme/plugins/CsvExporter.java');
    expect(fix).toContain('- Open `dev/acme/app/Main.java:11` (in `dev.acme.app.Main.main`) [L8-L8]');
    // Code that did not link: no value the caller passed is at fault.
    expect(fix).not.toContain('if the values that line worked on are wrong');
  });

  it('a caller the checkout holds: a stale build of it, and the overload that keeps the old parameters', async () => {
    const rates = 'package dev.acme.api;\n\npublic final class Rates {\n    public static int cents(String zone, int minutes, boolean night) {\n        return minutes;\n    }\n}\n';
    const meter = 'package dev.acme.app;\n\nimport dev.acme.api.Rates;\n\npublic final class Meter {\n    public static void main(String[] args) {\n        System.out.println(Rates.cents("A", 10));\n    }\n}\n';
    const log = ['+ java -cp out dev.acme.app.Meter', 'Exception in thread "main" java.lang.NoSuchMethodError: \'int dev.acme.api.Rates.cents(java.lang.String, int)\'', '\tat dev.acme.app.Meter.main(Meter.java:7)'];
    const fix = await fixOfShellLog(log, 'meter', '/tmp/jenkins7.sh', project({ 'src/dev/acme/api/Rates.java': rates, 'src/dev/acme/app/Meter.java': meter }));
    expect(fix).toContain('it takes `(String, int, boolean)`, not `(String, int)`.');
    expect(fix).toContain('`dev.acme.app.Meter` (`src/dev/acme/app/Meter.java`) was compiled against the old `int cents(String, int)`: its class files are older than the checkout\'s source, so rebuild it with the checkout\'s `dev.acme.api.Rates` (a clean build), or add back `int cents(String, int)` as an overload that calls the new one.');
    expect(fix).not.toContain('wrote that declaration');
  });

  it('Kotlin: a top-level function (`MoneyKt`) whose parameters changed', async () => {
    const money = 'package dev.acme.fmt\n\nfun format(cents: Long, currency: String): String =\n    "$currency ${cents / 100}"\n';
    const log = ['+ java -cp build/classes:lib/report-2.0.jar dev.acme.MainKt', 'Exception in thread "main" java.lang.NoSuchMethodError: \'java.lang.String dev.acme.fmt.MoneyKt.format(long)\'', '\tat dev.acme.report.Totals.line(Totals.kt:9)', '\tat dev.acme.MainKt.main(Main.kt:5)'];
    const fix = await fixOfShellLog(log, 'report', '/tmp/jenkins7.sh', project({ 'src/main/kotlin/dev/acme/fmt/Money.kt': money, 'src/main/kotlin/dev/acme/Main.kt': 'package dev.acme\n\nfun main() {\n    println(1)\n}\n' }));
    expect(fix).toContain('`src/main/kotlin/dev/acme/fmt/Money.kt:3` declares `format` of `dev.acme.fmt.MoneyKt` as `fun format(cents: Long, currency: String): String`');
    expect(fix).toContain('it takes `(long, String)`, not `(long)`.');
    expect(fix).toContain('`dev.acme.report.Totals`, compiled against the old `String format(long)`, is not in the checkout: it comes from the jar on the command\'s classpath (`lib/report-2.0.jar`)');
  });

  it('a field retyped (JDK 21\'s wording) and Java 17\'s bare field name', async () => {
    const rates = 'package dev.acme.api;\n\npublic final class Rates {\n    public static final long RATE = 3L;\n}\n';
    const files = { 'src/dev/acme/api/Rates.java': rates };
    const log21 = ['+ java -cp build:lib/tariff-plugin.jar dev.acme.Main', 'Exception in thread "main" java.lang.NoSuchFieldError: Class dev.acme.api.Rates does not have member field \'int RATE\'', '\tat dev.acme.tariff.Plugin.rate(Plugin.java:4)'];
    const fix21 = await fixOfShellLog(log21, 'rates', '/tmp/jenkins7.sh', project(files));
    expect(fix21).toContain('`src/dev/acme/api/Rates.java:4` declares `RATE` of `dev.acme.api.Rates` as `public static final long RATE`');
    expect(fix21).toContain('its type is `long`, not `int`.');
    expect(fix21).toContain('give the new field another name');
    const log17 = ['+ java -cp build:lib/tariff-plugin.jar dev.acme.Main', 'Exception in thread "main" java.lang.NoSuchFieldError: RATE', '\tat dev.acme.tariff.Plugin.rate(Plugin.java:4)'];
    const fix17 = await fixOfShellLog(log17, 'rates', '/tmp/jenkins7.sh', project(files));
    // No type to compare with: neither a difference nor a match is claimed.
    expect(fix17).toContain('`src/dev/acme/api/Rates.java:4` declares `RATE` of `dev.acme.api.Rates` as `public static final long RATE`; the log names only the field, `RATE` [L4-L4], not the type the code that used it was compiled against');
    expect(fix17).not.toContain('which matches what the code');
  });

  it('AbstractMethodError: the interface\'s new member, the receiver class from a jar, and a default body as the other way', async () => {
    const shape = 'package dev.acme.geo;\n\npublic interface Shape {\n    int area();\n\n    long perimeter();\n}\n';
    const log = ['+ java -cp build:plugins/squares.jar dev.acme.geo.Main', "Exception in thread \"main\" java.lang.AbstractMethodError: Receiver class dev.partner.Square does not define or inherit an implementation of the resolved method 'abstract long perimeter()' of interface dev.acme.geo.Shape.", '\tat dev.acme.geo.Main.main(Main.java:6)'];
    const fix = await fixOfShellLog(log, 'geo', '/tmp/jenkins7.sh', project({ 'src/dev/acme/geo/Shape.java': shape }));
    expect(fix).toContain('`src/dev/acme/geo/Shape.java:6` declares `perimeter` of `dev.acme.geo.Shape` as `long perimeter();`, and `dev.partner.Square` does not implement it [L4-L4]: it was compiled against an older `dev.acme.geo.Shape`.');
    expect(fix).toContain('`dev.partner.Square` is not in the checkout: it comes from the jar on the command\'s classpath (`plugins/squares.jar`); rebuild that jar against the new `dev.acme.geo.Shape`, or give the member a `default` body in `dev.acme.geo.Shape`');
  });

  it('IncompatibleClassChangeError: a method made an instance method', async () => {
    const api = 'package dev.acme.api;\n\npublic class Api {\n    public int stat() {\n        return 2;\n    }\n}\n';
    const log = ['+ java -cp out dev.acme.app.Use', "Exception in thread \"main\" java.lang.IncompatibleClassChangeError: Expected static method 'int dev.acme.api.Api.stat()'", '\tat dev.acme.app.Use.main(Use.java:5)'];
    const fix = await fixOfShellLog(log, 'api', '/tmp/jenkins7.sh', project({ 'src/dev/acme/api/Api.java': api }));
    expect(fix).toContain('`src/dev/acme/api/Api.java:4` declares `stat` of `dev.acme.api.Api` as `public int stat()`');
    expect(fix).toContain('it is an instance method now, not static.');
  });

  it('IncompatibleClassChangeError of a type: a class made an interface, the caller compiled against the class', async () => {
    const exporter = 'package dev.acme.export;\n\npublic interface Exporter {\n    String render(String row);\n}\n';
    const log = ['+ java -cp build:lib/pdf.jar dev.acme.report.Main', 'Exception in thread "main" java.lang.IncompatibleClassChangeError: Found interface dev.acme.export.Exporter, but class was expected', '\tat com.partner.pdf.PdfWriter.write(PdfWriter.java:14)', '\tat dev.acme.report.Main.main(Main.java:9)'];
    const fix = await fixOfShellLog(log, 'report', '/tmp/jenkins7.sh', project({ 'api/dev/acme/export/Exporter.java': exporter }));
    expect(fix).toContain('`api/dev/acme/export/Exporter.java:3` declares `dev.acme.export.Exporter` as `public interface Exporter`, but `com.partner.pdf.PdfWriter` was compiled when it was a class (`Found interface dev.acme.export.Exporter, but class was expected` [L4-L4]).');
    expect(fix).toContain('`com.partner.pdf.PdfWriter` is not in the checkout: it comes from the jar on the command\'s classpath (`lib/pdf.jar`). Rebuild that jar against the new `dev.acme.export.Exporter` (a class that `extends Exporter` must now `implements Exporter`), or keep `Exporter` an abstract class');
  });

  it('the tuned real case (round 28): a plugin jar\'s class whose super class became an interface', async () => {
    const fix = await fixOfRealCase('java-incompatibleclasschangeerror-stale-plugin-jar-class-became-interface');
    expect(fix).toContain('declares `dev.acme.export.Exporter` as `public interface Exporter`, but `com.partner.xlsx.XlsxExporter` was compiled when it was a class');
    expect(fix).toContain('(`plugins/xlsx-export.jar`)');
  });

  it('nothing said when the checkout does not declare the class (a library\'s)', async () => {
    const log = ['+ java -cp out:lib/x.jar dev.acme.app.Main', 'Exception in thread "main" java.lang.NoSuchMethodError: \'int org.lib.Util.size(java.lang.String)\'', '\tat dev.acme.app.Main.main(Main.java:3)'];
    const fix = await fixOfShellLog(log, 'lib', '/tmp/jenkins7.sh', project({ 'src/dev/acme/app/Main.java': 'package dev.acme.app;\n\npublic class Main {\n    public static void main(String[] a) { org.lib.Util.size("x"); }\n}\n' }));
    expect(fix).not.toContain('where the JVM looked for');
    expect(fix).not.toContain('but the code that called it was compiled against');
  });

  it('Java 8\'s descriptor form is read as the same member', () => {
    expect(jvmLinkageOf('java.lang.NoSuchMethodError: dev.acme.api.Ledger.balance(Ljava/lang/String;[I)J')).toMatchObject({ owner: 'dev.acme.api.Ledger', name: 'balance', ret: 'long', params: ['java.lang.String', 'int[]'] });
  });

  it('the tuned real case (round 16): the declaration matches, so the class loaded is the classpath\'s older jar', async () => {
    const fix = await fixOfRealCase('java-nosuchmethoderror-stale-jar');
    expect(fix).toContain('which matches what the code that called it was compiled against, `int nl.parkeer.rates.Tariffs.cents(java.lang.String, int, boolean)` [L10-L10]: the `nl.parkeer.rates.Tariffs` the JVM loaded is another (older) build, from the command\'s classpath (`vendor/rates-1.4.jar`)');
    expect(fix).toContain('`vendor/rates-1.4.jar`');
  });
});
