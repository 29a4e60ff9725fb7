/**
 * The answers' words for a JVM linkage error (core/finding/linkage.ts `withJvmResolve`, linkage `resolve`; session 56,
 * helper t31): the JVM loaded the calling code and found the class it names, but resolving the reference failed because
 * that class's shape is not the one the code was compiled against (JVMS 5.4.3). No linker ran and no shared object was
 * refused, so neither the linker's words nor the loader's hold; what to change is which build of the class (or of the
 * caller) is on the run-time classpath, not the line that raised it.
 */
import type { Finding } from '../../../protocol/types.js';
import { inlineCode } from '../logtext.js';
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
