/**
 * "How do I fix it?" for a switch that does not cover every value of its enum (session 50, helper fx12; the clue comes
 * from jenkins/workspace/enumCases.ts): the enum's constants the switch has no case for, cited where the enum declares
 * them, and the arm to add. The value each arm gives is the project's to choose: the log does not say it.
 */
import type { Finding } from '../../../protocol/types.js';
import { inlineCode } from '../logtext.js';
import type { Clue } from './clueLine.js';

const ENUM_CASES = /^declares (\S+), constants of the enum (\w+) that the switch at (\S+):(\d+) has no case for \(it covers (\S+)\)$/;

/** The step for an enumCases.ts clue, or undefined when the clue is not one. */
export function enumCaseStep(c: Clue, f: Finding): string | undefined {
  const m = ENUM_CASES.exec(c.what);
  if (!m) return undefined;
  const lacking = (m[1] as string).split(',');
  const covers = (m[5] as string).split(',');
  const where = inlineCode(`${m[3] as string}:${m[4] as string}`);
  const list = (xs: readonly string[]): string => xs.map((x) => inlineCode(x)).join(', ');
  // Kotlin's `when` arm has no `case`; Java's switch expression takes `->`, a statement may take `:` as well.
  const kotlin = /\.kts?$/.test(m[3] as string);
  const arm = (x: string): string => (kotlin ? `${x} -> ...` : /switch statement/.test(f.message) ? `case ${x}: ...` : `case ${x} -> ...`);
  const one = lacking.length === 1;
  return `${inlineCode(`${c.snippet.path}:${c.line}`)} declares ${list(lacking)} in the enum ${inlineCode(m[2] as string)}, and the switch at ${where} has no case for ${one ? 'it' : 'them'} (it covers ${list(covers)}): add ${lacking.map((x) => inlineCode(arm(x))).join(' and ')} to that switch, with the value ${one ? 'that constant' : 'each constant'} should give there (the log does not say it, and I can't tell it), or a default arm if ${one ? 'it' : 'they'} should share one.`;
}
