/**
 * The one reader of a JVM type's declaration line in a checkout's Java, Kotlin or Scala source (session 56, helper
 * rv9; issue 31's review: jvmLinkage.ts and requiredMembers.ts each had their own): `class`, `interface`, `enum`,
 * `record`, Kotlin's `object`, Scala's `trait`, followed by the type's simple name, on a line that is code (not a
 * comment line, and not inside a string or a comment on the line).
 */

/** A line without its string contents and its comments. */
export const codeOf = (line: string): string => line.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`|\/\/.*$|\/\*.*?\*\//g, '""');

/** A line of a comment block (`// x`, ` * x`, `/* x`). */
const COMMENT_LINE = /^\s*(?:\/\/|\*|\/\*)/;

/** Whether `line` declares the JVM type named `simple` (no package; `$` allowed). */
export function declaresJvmType(line: string, simple: string): boolean {
  if (COMMENT_LINE.test(line)) return false;
  return new RegExp(`\\b(?:class|interface|enum|record|object|trait)\\s+${simple.replace(/\$/g, '\\$')}\\b`).test(codeOf(line));
}

/** The 0-based line of the first declaration of the JVM type `simple` in `lines`, or -1. */
export const jvmTypeLine = (lines: readonly string[], simple: string): number => lines.findIndex((l) => declaresJvmType(l, simple));
