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
  if ((m = /^uses (\S+), which the error says is not defined$/.exec(c.what))) {
    return `${at} still uses ${inlineCode(m[1] as string)}${code}.`;
  }
  return undefined;
}
