/**
 * The answers' words for a JVM linkage error (core/finding/linkage.ts `withJvmResolve`, linkage `resolve`; session 56,
 * helper t31): the JVM loaded the calling code and found the class it names, but resolving the reference failed because
 * that class's shape is not the one the code was compiled against (JVMS 5.4.3). No linker ran and no shared object was
 * refused, so neither the linker's words nor the loader's hold; what to change is which build of the class (or of the
 * caller) is on the run-time classpath, not the line that raised it.
 */
import type { Finding } from '../../../protocol/types.js';
import { at, inlineCode } from '../logtext.js';
import { JVM_RESOLVE_NAMES } from '../../../core/finding/linkage.js';

/** What each linkage error says of the class the JVM found, as the JVMS defines when it is thrown. */
const WHAT_DIFFERS: Record<string, string> = {
  NoSuchMethodError: 'the class it found has no method with the name, parameters and return type the calling code was compiled against',
  NoSuchFieldError: 'the class it found has no field with the name and type the calling code was compiled against',
  AbstractMethodError: 'a class it loaded does not implement a method that the interface (or abstract class) it loaded declares: that class was compiled against an older version of the type',
  IllegalAccessError: 'the member (or class) the calling code uses is not accessible to it in the build the JVM loaded (made private, or moved out of its package)',
  InstantiationError: 'the class the calling code creates with `new` is abstract, or an interface, in the build the JVM loaded',
  IncompatibleClassChangeError: 'a class, interface or member the calling code uses changed its kind since that code was compiled (a class became an interface or the reverse, a static member became an instance one or the reverse)',
};

const NAMED = new RegExp(`\\b(${JVM_RESOLVE_NAMES.join('|')})\\b`);

/** The linkage error's simple name (`NoSuchMethodError`), from the finding's exception or message. */
export function jvmResolveName(f: Finding): string {
  const named = NAMED.exec(`${f.exception ?? ''} ${f.message}`)?.[1];
  return named ?? 'IncompatibleClassChangeError';
}

/** Whether the finding is a JVM linkage error (the class was found; its shape differs). */
export const isJvmResolve = (f: Finding): boolean => f.class === 'link-error' && f.linkage?.stage === 'resolve';

/** "What it means" for a JVM linkage error; `m` cites the message. */
export function jvmResolveMeaning(f: Finding, m: string): string {
  const name = jvmResolveName(f);
  return `The code compiled, and the JVM loaded it, but could not link it at run time: it raised ${inlineCode(name)} ${m} when it resolved a reference of the calling code against the class it found, and ${WHAT_DIFFERS[name] as string}. This is the JVM's linkage error, not a linker's (no linker ran): the class on the run-time classpath is another version than the one the calling code was compiled against.`;
}

/** What the raising line's step says to do at it (after "Open X, where Y was raised"); `m` cites the message. */
export function jvmResolveAct(m: string): string {
  return `: that line is where the JVM first resolved a reference against a class whose shape differs from the one it was compiled against ${m}, so the fix is in which builds of the two are on the classpath (rebuild the stale one, or restore the old shape), not in the line`;
}

/** The label of the fix's heading. */
export const JVM_RESOLVE_LABEL = 'a JVM linkage error';

/** For the prompt of a model: the linkage line. */
export const JVM_RESOLVE_PROMPT = "- linkage: run time: the JVM could not link loaded code against the class it found (the class's shape differs from the one the caller was compiled against: a stale jar or class directory on the classpath); no linker ran, do not call it the linker's (ld's) error";

/**
 * A class the JVM could not find at run time (core/finding/linkage.ts `withJvmResolve`, linkage `missing-class`; the
 * lead's decision of session 56, session 57 helper jv1): `NoClassDefFoundError: a/b/C`, the class the calling code was
 * compiled against is not on the run-time classpath. What the log can show: the class, the loader's
 * `ClassNotFoundException` naming it, the run command's classpath and the compile command's. Which jar holds the class
 * the JVM never says: the answers say so, and name a classpath entry only as one the compile had and the run lacks.
 */
export const isJvmMissingClass = (f: Finding): boolean => f.class === 'link-error' && f.linkage?.stage === 'missing-class';

/** Whether the finding is one of the JVM's linkage errors (a class of another shape, or no class found): raised like an exception. */
export const isJvmLinkage = (f: Finding): boolean => isJvmResolve(f) || isJvmMissingClass(f);

type LineText = (line: number) => string | undefined;

/** A JVM command's classpath option (`-cp`, `-classpath`, `--class-path`) or its `-jar`, on a line of the log. */
const JVM_COMMAND = /(?:^|[\s/'"])(java|javac|kotlinc|kotlin|scalac|scala|groovyc|groovy)(?:\.exe)?\s(?:.*?\s)?(?:(?:-cp|-classpath|--class-path)[=\s]+(?:"([^"]+)"|'([^']+)'|(\S+))|-jar\s+(\S+))/;

interface ClassPath {
  /** The command's classpath entries (or its `-jar` file). */
  entries: string[];
  /** The 1-based log line. */
  line: number;
  /** A compiler's (javac, kotlinc, scalac, groovyc), not a run. */
  compile: boolean;
}

/** The nearest run command's and compile command's classpaths above the message (60 lines back at most). */
function classPathsAbove(f: Finding, lineText: LineText | undefined): { run?: ClassPath; compile?: ClassPath } {
  const out: { run?: ClassPath; compile?: ClassPath } = {};
  if (!lineText) return out;
  for (let n = f.message_line - 1; n >= Math.max(1, f.message_line - 60); n--) {
    const m = JVM_COMMAND.exec(lineText(n) ?? '');
    if (!m) continue;
    const compile = /c$/.test(m[1] as string);
    const value = (m[2] ?? m[3] ?? m[4] ?? m[5]) as string;
    const entries = m[5] ? [value] : value.split(/[:;]/).filter(Boolean);
    if (compile && !out.compile && out.run) out.compile = { entries, line: n, compile };
    if (!compile && !out.run) out.run = { entries, line: n, compile };
    if (out.run && out.compile) break;
  }
  return out;
}

/** The loader's `ClassNotFoundException` naming the class, a few lines under the message. */
function loaderLine(f: Finding, cls: string, lineText: LineText | undefined): number | undefined {
  if (!lineText) return undefined;
  for (let n = f.message_line + 1; n <= f.message_line + 40; n++) if ((lineText(n) ?? '').includes(`ClassNotFoundException: ${cls}`)) return n;
  return undefined;
}

/** The class in dotted form (`dev.notes.common.Slugs`). */
export const missingClassOf = (f: Finding): string => f.linkage?.object ?? 'the class';

/** "What it means" for a class the JVM could not find at run time; `m` cites the message. */
export function jvmMissingClassMeaning(f: Finding, m: string, lineText?: LineText): string {
  const cls = missingClassOf(f);
  const loader = loaderLine(f, cls, lineText);
  const parts = [
    `The code compiled, and the JVM started it, but could not link it at run time: it raised ${inlineCode('NoClassDefFoundError')} ${m} when the code first used ${inlineCode(cls)}, and no class of that name was on the run-time classpath${loader !== undefined ? ` (the class loader's ${inlineCode(`ClassNotFoundException: ${cls}`)} ${at(loader)} says the same)` : ''}. The calling code was compiled against that class: the run-time classpath lacks the jar or class directory that holds it (left off the run command, a dependency scoped for compiling only, or the class moved or renamed in a jar built separately). This is the JVM's linkage error, not a linker's (no linker ran).`,
  ];
  parts.push(classPathSentence(f, lineText) ?? `The log does not say which jar or directory holds ${inlineCode(cls)}, so I can't tell which one is missing from the run.`);
  return parts.join(' ');
}

/** What the log shows of the two classpaths: an entry the compile had and the run lacks, else the run's own. */
function classPathSentence(f: Finding, lineText: LineText | undefined): string | undefined {
  const { run, compile } = classPathsAbove(f, lineText);
  if (!run) return undefined;
  const cls = missingClassOf(f);
  const lacked = compile ? compile.entries.filter((e) => !run.entries.includes(e)) : [];
  const runSaid = `${inlineCode(run.entries.join(':'))} ${at(run.line)}`;
  if (lacked.length > 0) return `The program ran with the classpath ${runSaid}; the compile had ${lacked.map(inlineCode).join(', ')} on its classpath ${at((compile as ClassPath).line)}, which the run lacks. The log does not say which jar or directory holds ${inlineCode(cls)}; if ${lacked.length === 1 ? 'that one does' : 'one of those does'}, that is the gap.`;
  return `The program ran with the classpath ${runSaid}. The log does not say which jar or directory holds ${inlineCode(cls)}, so I can't tell which one is missing from it.`;
}

/** The fix's steps after the raising line's: the classpath, the dependency's scope, a class moved in a jar built apart. */
export function jvmMissingClassSteps(f: Finding, lineText: LineText | undefined): string[] {
  const cls = inlineCode(missingClassOf(f));
  const { run, compile } = classPathsAbove(f, lineText);
  const lacked = run && compile ? compile.entries.filter((e) => !run.entries.includes(e)) : [];
  const onRun = run
    ? `Put the jar or class directory that holds ${cls} on the classpath of the command that ran the program ${at(run.line)}${lacked.length > 0 ? ` (the compile's classpath ${at((compile as ClassPath).line)} had ${lacked.map(inlineCode).join(', ')}, which this one lacks)` : ''}, or package it into the jar that runs.`
    : `Put the jar or class directory that holds ${cls} on the classpath the program runs with (the run command's \`-cp\`, the jar manifest's \`Class-Path\`, or the contents of a shaded or application jar).`;
  return [
    onRun,
    `If a dependency of the build provides ${cls}, check its scope: Maven's \`provided\` and Gradle's \`compileOnly\` put it on the compile classpath only (a shaded or application jar leaves it out); give it the scope that reaches run time (\`compile\`, \`implementation\` or \`runtimeOnly\`) if the program needs it there.`,
    `If ${cls} was moved or renamed, the code that still names it was built against the old name (a jar built separately): rebuild both sides together, or keep the old name until every user is rebuilt.`,
  ];
}

/** What the raising line's step says to do at it (after "Open X, where NoClassDefFoundError was raised"); `m` cites the message. */
export function jvmMissingClassAct(f: Finding, m: string): string {
  return `: that line is where the code first used ${inlineCode(missingClassOf(f))}, which is not on the run-time classpath ${m}, so the fix is in the classpath (or the dependency's scope), not in the line`;
}

/** The label of the fix's heading. */
export const JVM_MISSING_CLASS_LABEL = 'a class missing at run time';

/** For the prompt of a model: the linkage line. */
export const jvmMissingClassPrompt = (f: Finding): string =>
  `- linkage: run time: the JVM could not find the class ${missingClassOf(f)} that the calling code was compiled against (NoClassDefFoundError: not on the run-time classpath); no linker ran, do not call it the linker's (ld's) error, and do not name a jar as missing unless the log names it`;
