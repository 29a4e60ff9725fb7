/**
 * The answers to a class the JVM could not find at run time (session 57, helper jv1; the lead's decision of session 56:
 * `NoClassDefFoundError: a/b/C` is a link error): the finding is `link-error` with linkage `missing-class`
 * (core/finding/linkage.ts), and the answers say what the JVM did (the calling code was compiled against the class; the
 * run-time classpath lacks it), name the class in dotted form and the loader's `ClassNotFoundException`, never "the
 * linker", and name a classpath entry only as the log shows it (the compile had it, the run lacks it); otherwise "I can't
 * tell" which jar. Made-up logs of a classic job's shell step, every citation checked.
 */
import { composeLocalAnswer } from '../backend/answer/local/index.js';
import type { CiContextUpload } from '../protocol/schemas.js';
import { analyzedChatContext } from './answerFixtures.js';
import { checkAnswer } from './helpers/claimChecks.js';
import { fixOfShellLog } from './helpers/shellLogFix.js';

const WHY = 'Why did the build fail?';
const start = ['Started by user ops', '[notes] $ /bin/sh -xe /tmp/jenkins7.sh'];
const end = ["Build step 'Execute shell' marked build as failure", 'Finished: FAILURE'];

async function whyOf(lines: string[]): Promise<string> {
  const log = `${[...start, ...lines, ...end].join('\n')}\n`;
  const ctx = analyzedChatContext({ buildDetails: { result: 'FAILURE', consoleLog: log } } as CiContextUpload, log);
  const text = (await composeLocalAnswer(WHY, ctx)).text;
  expect(checkAnswer(WHY, text, log.split('\n'), ctx)).toEqual([]);
  return text;
}

const CP = [
  '+ javac -d out/core core/src/acme/core/Money.java',
  '+ javac -cp out/core -d out/app app/src/acme/app/Main.java',
  '+ java -cp out/app acme.app.Main',
  'Exception in thread "main" java.lang.NoClassDefFoundError: acme/core/Money',
  '\tat acme.app.Main.main(Main.java:7)',
  'Caused by: java.lang.ClassNotFoundException: acme.core.Money',
  '\tat java.base/jdk.internal.loader.BuiltinClassLoader.loadClass(BuiltinClassLoader.java:641)',
  '\t... 1 more',
];

const SHADED = ['+ java -jar target/slugger-1.0.jar "Hello World"', 'Exception in thread "main" java.lang.NoClassDefFoundError: org/apache/commons/text/CaseUtils', '\tat dev.acme.slug.Slugger.slug(Slugger.java:9)', '\tat dev.acme.slug.Slugger.main(Slugger.java:14)', 'Caused by: java.lang.ClassNotFoundException: org.apache.commons.text.CaseUtils', '\tat java.base/jdk.internal.loader.BuiltinClassLoader.loadClass(BuiltinClassLoader.java:641)', '\t... 2 more'];
const INIT = ['+ java -cp out acme.Main', 'Exception in thread "main" java.lang.NoClassDefFoundError: Could not initialize class acme.Config', '\tat acme.Main.main(Main.java:8)', 'Caused by: java.lang.ExceptionInInitializerError: Exception java.lang.IllegalStateException: no APP_HOME [in thread "main"]', '\tat acme.Config.<clinit>(Config.java:6)', '\tat acme.Main.main(Main.java:5)'];

describe('a class missing at run time is said as the JVM\'s, naming the class and only the classpaths the log shows', () => {
  it('why: compiled against the class, not on the run classpath; the loader\'s line; the entry the compile had and the run lacks', async () => {
    const why = await whyOf(CP);
    expect(why).toContain('The code compiled, and the JVM started it, but could not link it at run time: it raised `NoClassDefFoundError` [L6-L6] when the code first used `acme.core.Money`, and no class of that name was on the run-time classpath (the class loader\'s `ClassNotFoundException: acme.core.Money` [L8-L8] says the same).');
    expect(why).toContain('The program ran with the classpath `out/app` [L5-L5]; the compile had `out/core` on its classpath [L4-L4], which the run lacks.');
    expect(why).toContain('the deepest frame in the project\'s own code is `acme/app/Main.java:7`');
    expect(why).not.toMatch(/the linker \(|could not find a definition|the dynamic loader|shared object/);
  });

  it('why: a jar run with no compile line above: which jar holds the class, "I can\'t tell"', async () => {
    const why = await whyOf(SHADED);
    expect(why).toContain('when the code first used `org.apache.commons.text.CaseUtils`');
    expect(why).toContain('The program ran with the classpath `target/slugger-1.0.jar` [L3-L3]. The log does not say which jar or directory holds `org.apache.commons.text.CaseUtils`, so I can\'t tell which one is missing from it.');
  });

  it('fix: its own heading, the raising line, the run classpath, the scope, a class moved in a jar built apart', async () => {
    const fix = await fixOfShellLog(CP, 'notes');
    expect(fix).toMatch(/^\*\*How to fix a class missing at run time\*\* \(`Exception in thread "main" java\.lang\.NoClassDefFoundError: acme\/core\/Money` \[L6-L6\]\):/);
    expect(fix).toContain('where `NoClassDefFoundError` was raised: that line is where the code first used `acme.core.Money`, which is not on the run-time classpath [L6-L6], so the fix is in the classpath (or the dependency\'s scope), not in the line.');
    expect(fix).toContain('Put the jar or class directory that holds `acme.core.Money` on the classpath of the command that ran the program [L5-L5] (the compile\'s classpath [L4-L4] had `out/core`, which this one lacks)');
    expect(fix).toContain('Maven\'s `provided` and Gradle\'s `compileOnly` put it on the compile classpath only');
    expect(fix).toContain('rebuild both sides together');
    expect(fix).not.toMatch(/the linker \(|Find where the missing symbol is defined/);
  });

  it('excluded: `Could not initialize class X` is no class missing from the classpath', async () => {
    const why = await whyOf(INIT);
    expect(why).not.toMatch(/run-time classpath lacks|How to fix a class missing|no linker ran/);
  });
});
