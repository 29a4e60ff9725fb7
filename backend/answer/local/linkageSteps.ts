/**
 * "How do I fix it?" for a symbol the linker could not find that the workspace defines where no other file can link
 * to it (session 49, helper fx11; the lines come from jenkins/workspace/linkVisibility.ts as clue snippets): the
 * definition's linkage said as the cause, and the change that makes it visible, each sentence citing its line.
 */
import type { Finding } from '../../../protocol/types.js';
import { inlineCode } from '../logtext.js';
import { clip, type Clue } from './clueLine.js';

const baseOf = (p: string): string => p.slice(p.lastIndexOf('/') + 1);

/** `static uint8_t crc8(const uint8_t *p, size_t n)` -> `uint8_t crc8(const uint8_t *p, size_t n);`, when the head is one whole line. */
function publicPrototypeOf(code: string): string | undefined {
  const m = /^(?:static\s+)?([A-Za-z_][\w\s*&:<>,]*\([^()]*\)(?:\s*const)?)\s*\{?\s*$/.exec(code.trim());
  return m ? `${(m[1] as string).trim()};` : undefined;
}

/** The step for one clue of linkVisibility.ts, or undefined when the clue is not one of them. */
export function linkageStep(c: Clue, f: Finding, others: readonly Clue[]): string | undefined {
  const at = inlineCode(`${c.snippet.path}:${c.line}`);
  const code = c.code ? ` (${inlineCode(clip(c.code))})` : '';
  const def = inlineCode(c.snippet.path);
  let m: RegExpExecArray | null;
  if ((m = /^defines (\S+), the symbol the linker could not find, as (static|inline|a template)(?: \(line (\d+)\))?$/.exec(c.what))) {
    const name = inlineCode(m[1] as string);
    const decl = others.find((o) => o.what.startsWith(`declares ${m?.[1] as string}, which `));
    const header = decl ? ` (${inlineCode(`${decl.snippet.path}:${decl.line}`)})` : '';
    if (m[2] === 'static') {
      return `${at} defines ${name} as \`static\`${code}: a static name is visible only inside ${def}, so a use in another file has nothing to link to. If other files should use it, remove \`static\` there and declare it in the header they include${header}; if it is meant to stay private to ${def}, stop using it from the other file.`;
    }
    if (m[2] === 'inline') {
      return `${at} defines ${name} as \`inline\` in a source file${code}: an inline function is compiled only into the files that see its definition, so the calls from other files have nothing to link to. Remove \`inline\` there, or move the definition into the header that declares it${header} so that every file that calls it sees it.`;
    }
    // A template: its code is made for the types its own file uses. The explicit instantiation is the linker's own
    // symbol when it reads as a declaration (a return type, the name with its arguments, the parameters).
    const symbol = f.symbol ?? '';
    const instance = /^[A-Za-z_][\w:<>,\s*&]*\s[\w:]+<[^()]*>\([^()]*(?:\([^()]*\)[^()]*)*\)(?:\s*const)?$/.test(symbol) ? ` (${inlineCode(`template ${symbol};`)})` : '';
    return `${at} defines the template ${name} in a source file${code}${m[3] ? ` (its \`template\` line is ${m[3]})` : ''}: a template's code is made only for the types that its own file uses, so the calls from other files have nothing to link to. Move the definition into the header that declares it${header}, or add an explicit instantiation at the end of ${def} for each type the callers use${instance}.`;
  }
  if ((m = /^defines (\S+), the symbol the linker could not find, as a const; (\S+):(\d+) declares it extern, and (\S+) does not include (\S+)$/.exec(c.what))) {
    const header = m[2] as string;
    return `${at} defines ${inlineCode(m[1] as string)} as a \`const\` at namespace scope${code}: in C++ such a const is visible only in its own file unless that file sees an \`extern\` declaration of it, and ${def} does not include ${inlineCode(header)}, which declares it \`extern\` (line ${m[3] as string}). Add ${inlineCode(`#include "${baseOf(header)}"`)} to ${def}${c.code.trim().startsWith('const') ? ` (or define it as ${inlineCode(clip(`extern ${c.code.trim()}`))} there)` : ''}.`;
  }
  if ((m = /^declares (\S+), which (\S+):(\d+) defines as (static|inline|a template)$/.exec(c.what))) {
    return `${at} declares ${inlineCode(m[1] as string)}${code}: the declaration the other files see.`;
  }
  if ((m = /^declares (\S+) extern, which (\S+):(\d+) defines as a const without seeing it$/.exec(c.what))) {
    return `${at} declares ${inlineCode(m[1] as string)} \`extern\`${code}: ${inlineCode(m[2] as string)} must see this line for its definition to be visible to the other files.`;
  }
  if ((m = /^is the header of (\S+), and declares no (\S+)$/.exec(c.what))) {
    const d = others.find((o) => o.what.startsWith(`defines ${m?.[2] as string}, the symbol the linker could not find, as static`));
    const proto = d ? publicPrototypeOf(d.code) : undefined;
    return `${inlineCode(c.snippet.path)} is the header of ${inlineCode(m[1] as string)} and declares no ${inlineCode(m[2] as string)}: if other files are to use it, declare it there${proto ? ` (${inlineCode(proto)})` : ''}.`;
  }
  if ((m = /^declares (\S+) without (\S+), which (\S+):(\d+) defines to export a symbol$/.exec(c.what))) {
    const mark = inlineCode(m[2] as string);
    const hides = others.find((o) => o.what.startsWith('hides the library'));
    return `${at} declares ${inlineCode(m[1] as string)} without ${mark}${code}, the mark that ${inlineCode(`${m[3] as string}:${m[4] as string}`)} defines to export a symbol from the library${hides ? `, and ${inlineCode(`${hides.snippet.path}:${hides.line}`)} builds it with hidden visibility` : ''}: so the library does not export ${inlineCode(m[1] as string)}. Write ${mark} before it there, and before its definition.`;
  }
  if ((m = /^hides the library's symbols that (\S+) does not mark$/.exec(c.what))) {
    return `${at} builds with hidden visibility${code}: only what ${inlineCode(m[1] as string)} marks is exported.`;
  }
  if ((m = /^defines (\S+), the symbol the linker could not find, without (\S+)$/.exec(c.what))) {
    return `${at} defines ${inlineCode(m[1] as string)}${code}: mark it with ${inlineCode(m[2] as string)} too.`;
  }
  return undefined;
}
