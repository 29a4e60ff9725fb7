/**
 * "How do I fix it?" for a type lacking a member its interface, trait or base class requires (session 54, helper fx16;
 * the clues come from jenkins/workspace/requiredMembers.ts): the member as the interface declares it, cited there, the
 * file that declares the type, and the member to add in the type's language; for a C++ `override` that overrides
 * nothing, the base's signature and the out-of-class definition that must change with the declaration. What the
 * member's body does is the project's to write: the log does not say it.
 */
import type { Finding } from '../../../protocol/types.js';
import { inlineCode } from '../logtext.js';
import type { Clue } from './clueLine.js';

const REQUIRED = /^declares (\w+) in (\w+) as ("(?:[^"\\]|\\.)*"), which (\w+)(?: \(declared at (\S+):(\d+)\))? (lacks|does not override with that signature)(?:; its methods take \(([^)]+)\))?$/;
const DEFINITION = /^holds the definition of (\w+)::(\w+), the member that overrides nothing$/;

/** The member to add, in the type's language, from the interface's declaration of it. */
function memberToAdd(signature: string, rel: string, receiver: string | undefined): string {
  const bare = signature.replace(/;\s*$/, '').replace(/\s*=\s*0\s*$/, '').replace(/\b(?:abstract|virtual|default)\s+/g, '').trim();
  if (/\.go$/.test(rel)) return `func (${receiver ?? 'x T'}) ${bare} { ... }`;
  if (/\.java$/.test(rel)) return `@Override ${/\b(?:public|protected)\b/.test(bare) ? '' : 'public '}${bare} { ... }`;
  if (/\.kts?$/.test(rel)) return `override ${bare.replace(/^(?:public\s+)?/, '')}${/\bfun\b/.test(bare) ? ' { ... }' : ' = ...'}`;
  if (/\.cs$/.test(rel)) return `${/\bpublic\b/.test(bare) ? '' : 'public '}${bare} { ... }`;
  return `${bare} { ... }`;
}

/** The other way out, where the language has one: a body the interface (trait, base) gives every type. */
function shared(signature: string, rel: string, iface: string): string {
  const where = inlineCode(iface);
  if (/\babstract\b/.test(signature)) return `; or give it a body in ${where} (not \`abstract\`) if every subclass may share one`;
  if (/\.(?:java|kts?|rs|cs)$/.test(rel)) return `; or give it a ${/\.java$/.test(rel) ? '`default` ' : 'default '}body in ${where} if every type may share one`;
  return '';
}

/** The step for a requiredMembers.ts clue, or undefined when the clue is not one. */
export function requiredMemberStep(c: Clue, f: Finding, others: readonly Clue[]): string | undefined {
  const at = inlineCode(`${c.snippet.path}:${c.line}`);
  const d = DEFINITION.exec(c.what);
  // The definition is worded with the declaration's clue (below).
  if (d) return others.some((o) => REQUIRED.test(o.what)) ? '' : undefined;
  const m = REQUIRED.exec(c.what);
  if (!m) return undefined;
  const [member, iface, quoted, type, typeRel, typeLine, verb, receiver] = m.slice(1) as [string, string, string, string, string | undefined, string | undefined, string, string | undefined];
  const signature = JSON.parse(quoted) as string;
  const declared = `${at} declares ${inlineCode(member)} in ${inlineCode(iface)} as ${inlineCode(signature)}`;
  const typeFile = typeRel ?? f.location?.file;
  const where = typeRel && typeLine && typeRel !== f.location?.file ? ` (declared at ${inlineCode(`${typeRel}:${typeLine}`)})` : '';
  if (verb === 'lacks') {
    const add = memberToAdd(signature, typeFile ?? c.snippet.path, receiver);
    return `${declared}, and ${inlineCode(type)}${where} does not implement it: add ${inlineCode(add)} to ${/\.rs$/.test(typeFile ?? '') ? `the ${inlineCode(`impl ${iface} for ${type}`)} block` : inlineCode(type)}${typeFile ? ` in ${inlineCode(typeFile)}` : ''}, with the body this type needs (the log does not say what it should do)${shared(signature, c.snippet.path, iface)}.`;
  }
  // A C++ override whose signature differs from the base's: both sides named, the one to change the project's call.
  const base = signature.replace(/;\s*$/, '').replace(/\s*=\s*0\s*$/, '').replace(/^\s*virtual\s+/, '').trim();
  const own = f.location?.line !== undefined ? inlineCode(`${f.location.file}:${f.location.line}`) : 'the failing line';
  const def = others.map((o) => ({ o, x: DEFINITION.exec(o.what) })).find((y) => y.x && y.x[1] === type && y.x[2] === member)?.o;
  const also = def ? `, and its definition at ${inlineCode(`${def.snippet.path}:${def.line}`)} (${inlineCode(def.code.replace(/\s*\{.*$/, ''))}) the same way` : '';
  return `${declared}, and ${inlineCode(`${type}::${member}`)} at ${own} is declared with another signature, so it overrides nothing: make it ${inlineCode(`${base} override;`)} (the parameters, \`const\` and the return type as the base has them)${also}; or, if the base's signature is the one out of date, change it at ${at} instead (the log does not say which side changed).`;
}
