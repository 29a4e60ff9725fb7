/**
 * "How do I fix it?" for a name a tool says is not defined when the project defines a name like it (session 49,
 * helper fx11; the lines come from jenkins/workspace/renamedName.ts as clue snippets): a rename that missed a use.
 * Each sentence cites its line; two like names are both shown, and which was meant is not guessed.
 */
import type { Finding } from '../../../protocol/types.js';
import { inlineCode } from '../logtext.js';
import { clip, type Clue } from './clueLine.js';

/** The step for one clue of renamedName.ts, or undefined when the clue is not one of them. */
export function renamedStep(c: Clue, f: Finding, failingFile: string | undefined, others: readonly Clue[]): string | undefined {
  const at = inlineCode(`${c.snippet.path}:${c.line}`);
  const code = c.code ? ` (${inlineCode(clip(c.code))})` : '';
  let m: RegExpExecArray | null;
  if ((m = /^defines (\S+), a name like (\S+), which the error says is not defined(; one of two)?$/.exec(c.what))) {
    const [name, missing] = [m[1] as string, m[2] as string];
    const use = others.find((o) => o.what === `uses ${missing}, which the error says is not defined`);
    const where = use ? inlineCode(`${use.snippet.path}:${use.line}`) : failingFile && f.location?.line !== undefined ? inlineCode(`${failingFile}:${f.location.line}`) : undefined;
    return `${at} defines ${inlineCode(name)}${code}, a name like ${inlineCode(missing)}, which the error says is not defined: if it was renamed, use ${inlineCode(name)} where ${inlineCode(missing)} is still used${where ? ` (${where})` : ''}, or define ${inlineCode(missing)} again as well${m[3] ? "; the project defines two names like it, and I can't tell which one was meant" : ''}.`;
  }
  // A name used before its declaration ran (jenkins/workspace/useBeforeDeclaration.ts): which lines to move where.
  if ((m = /^declares (\S+) at lines (\d+)-(\d+), below line (\d+), which runs first and reaches its use at line (\d+)$/.exec(c.what))) {
    const [name, a, b, k, use] = [m[1], m[2], m[3], m[4], m[5]] as string[];
    const span = a === b ? `line ${a}` : `lines ${a}-${b}`;
    const reach = k === use ? 'uses it' : `reaches its use at line ${use as string}`;
    return `${at} declares ${inlineCode(name as string)}${code}, and line ${k as string} of ${inlineCode(c.snippet.path)}, above it, runs first and ${reach}: move ${span} above line ${k as string} (or line ${k as string} below line ${b as string}), so that the declaration has run when it is used.`;
  }
  if ((m = /^uses (\S+), which the error says is not defined$/.exec(c.what))) {
    return `${at} still uses ${inlineCode(m[1] as string)}${code}.`;
  }
  return undefined;
}
