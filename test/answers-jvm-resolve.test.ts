/**
 * The answers to a JVM linkage error (session 56, helper t31; the lead's decision: NoSuchMethodError, NoSuchFieldError,
 * AbstractMethodError, IncompatibleClassChangeError, IllegalAccessError and InstantiationError are link errors): the
 * finding is `link-error` with linkage `resolve` (core/finding/linkage.ts), and the answers say what the JVM did at run
 * time (it found the class; its shape differs from the one the caller was compiled against), never "the linker (java)",
 * nor a loader's refused library; the raising line is where to look, the classpath's builds what to change. Made-up
 * logs of a classic job's shell step, every citation checked.
 */
import { composeLocalAnswer } from '../backend/answer/local/index.js';
import type { CiContextUpload } from '../protocol/schemas.js';
import { analyzedChatContext } from './answerFixtures.js';
import { checkAnswer } from './helpers/claimChecks.js';
import { fixOfShellLog } from './helpers/shellLogFix.js';

const WHY = 'Why did the build fail?';
const start = ['Started by user ops', '[billing] $ /bin/sh -xe /tmp/jenkins7.sh'];
const end = ["Build step 'Execute shell' marked build as failure", 'Finished: FAILURE'];

async function whyOf(lines: string[]): Promise<string> {
  const log = `${[...start, ...lines, ...end].join('\n')}\n`;
  const ctx = analyzedChatContext({ buildDetails: { result: 'FAILURE', consoleLog: log } } as CiContextUpload, log);
  const text = (await composeLocalAnswer(WHY, ctx)).text;
  expect(checkAnswer(WHY, text, log.split('\n'), ctx)).toEqual([]);
  return text;
}

const ILLEGAL = [
  '+ java -cp build/classes:lib/pdf-plugin-3.2.jar app.Main',
  "Exception in thread \"main\" java.lang.IllegalAccessError: class plug.PdfRenderer tried to access private method 'java.lang.String app.Formats.money(long)' (plug.PdfRenderer and app.Formats are in unnamed module of loader 'app')",
  '\tat plug.PdfRenderer.render(PdfRenderer.java:8)',
  '\tat app.Main.main(Main.java:10)',
];
const FIELD = ['+ java -cp build/classes:lib/s3-plugin-2.0.jar app.Main', 'Exception in thread "main" java.lang.NoSuchFieldError: TIMEOUT', '\tat plug.S3Uploader.describe(S3Uploader.java:8)', '\tat app.Main.main(Main.java:10)'];

describe('a JVM linkage error is said as the JVM\'s, at run time', () => {
  it('why: the class was found, its shape differs (per error), where it was raised; no linker, no loader', async () => {
    const why = await whyOf(ILLEGAL);
    expect(why).toContain('The code compiled, and the JVM loaded it, but could not link it at run time: it raised `IllegalAccessError` [L4-L4]');
    expect(why).toContain('not accessible to it in the build the JVM loaded (made private, or moved out of its package)');
    expect(why).toContain('the class on the run-time classpath is another version than the one the calling code was compiled against');
    expect(why).toContain('It was raised at `plug/PdfRenderer.java:8` (in `plug.PdfRenderer.render`) [L5-L5]');
    expect(why).not.toMatch(/the linker \(|could not find a definition|the dynamic loader|shared object/);
    expect(await whyOf(FIELD)).toContain('the class it found has no field with the name and type the calling code was compiled against');
  });

  it('fix: a JVM linkage error\'s heading, the raising line as where it showed, the classpath\'s builds to change', async () => {
    const fix = await fixOfShellLog(FIELD, 'billing');
    expect(fix).toMatch(/^\*\*How to fix a JVM linkage error\*\* \(`Exception in thread "main" java\.lang\.NoSuchFieldError: TIMEOUT` \[L4-L4\]\):/);
    expect(fix).toContain('where `NoSuchFieldError` was raised: that line is where the JVM first resolved a reference against a class whose shape differs from the one it was compiled against [L4-L4], so the fix is in which builds of the two are on the classpath (rebuild the stale one, or restore the old shape), not in the line.');
    expect(fix).toContain('The code was compiled against another version of a class than the one on the classpath at run time');
    // Code that did not link: no value the caller passed is at fault.
    expect(fix).not.toContain('if the values that line worked on are wrong');
    expect(fix).not.toMatch(/the linker \(|Find where .* is defined and make sure that file or library is part of the link/);
  });
});
