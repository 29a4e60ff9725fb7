/**
 * Whether a source file the workspace shows defining a missing symbol was built and linked, as the
 * log's own echoed commands say (helper ta10): the link command above the error and the objects it
 * names, the compile commands (`-c -o build/x.o src/x.c`) and make's `[Makefile:N: target]` line.
 * A file that defines the symbol but was never compiled is the one to add to the objects the rule
 * links, under the object name its siblings get.
 */
import { inlineCode, type LogSpan } from '../logtext.js';
import { around } from './remedyShape.js';
import { at } from './findingText.js';
import type { ReplyBuilder } from './reply.js';
import { numbered } from './workspace.js';
import type { WorkspaceSnippet } from '../../../protocol/types.js';

const COMPILER = /^(?:\+ )?(?:\S*\/)?(?:cc|gcc|g\+\+|c\+\+|clang(?:\+\+)?)(?:-[\d.]+)?\s/;

/** A sentence on the link's inputs for the defining file `source`, or undefined when the log does not show them. */
export function linkInputsStep(stored: LogSpan | undefined, messageLine: number, source: string): { text: string; lines: number[] } | undefined {
  const before = around(stored, messageLine, 40, 0).map((l) => ({ line: l.line, text: l.text.trim().replace(/^\+ /, '') }));
  const link = [...before].reverse().find((l) => COMPILER.test(l.text) && /\s-o\s+\S+/.test(l.text) && !/\s-c(?:\s|$)/.test(l.text) && /\s\S+\.o(?:\s|$)/.test(l.text));
  if (!link) return undefined;
  const objects = link.text.split(/\s+/).filter((w, i, all) => /\.o$/.test(w) && all[i - 1] !== '-o');
  const stem = source.replace(/^.*\//, '').replace(/\.\w+$/, '');
  if (objects.some((o) => o.replace(/^.*\//, '') === `${stem}.o`)) return undefined;
  const compiles = before.filter((l) => COMPILER.test(l.text) && /\s-c(?:\s|$)/.test(l.text));
  if (compiles.some((l) => l.text.split(/\s+/).some((w) => w === source || w.endsWith(`/${source}`)))) return undefined;
  // The object name its siblings get (`-c -o build/main.o src/main.c` -> `build/crc32.o`).
  const sibling = compiles.map((l) => /\s-o\s+(\S+\.o)\s/.exec(`${l.text} `)?.[1]).find((o): o is string => o !== undefined);
  const object = sibling ? `${sibling.includes('/') ? sibling.slice(0, sibling.lastIndexOf('/') + 1) : ''}${stem}.o` : `${stem}.o`;
  const rule = around(stored, messageLine, 0, 6).map((l) => ({ line: l.line, m: /make(?:\[\d+\])?: \*\*\* \[(\S*[Mm]akefile):(\d+): ([^\]]+)\]/.exec(l.text) })).find((x) => x.m);
  const ruleText = rule?.m ? ` to the objects the rule at ${inlineCode(`${rule.m[1] as string}:${rule.m[2] as string}`)} ${at(rule.line)} links (the variable that lists them, or its prerequisites)` : ' to the objects the link command takes';
  return {
    text: `The link command ${at(link.line)} takes ${objects.map((o) => inlineCode(o)).join(', ')}, and the log compiles no ${inlineCode(source)}: add ${inlineCode(object)} (built from ${inlineCode(source)} the way the others are)${ruleText}.`,
    lines: [link.line, ...(rule ? [rule.line] : [])],
  };
}

/**
 * A missing link symbol the workspace declares and never defines (jenkins/workspace/linkDecl.ts):
 * where it is declared, and the orphan definitions that look like its renamed definition. A guess is
 * worded as one: the workspace shows the two names, not which one is meant.
 */
export function linkDeclarationSteps(out: ReplyBuilder, snippets: readonly WorkspaceSnippet[], shownAbove = ''): void {
  const decl = snippets.find((x) => /^declares \S+, the symbol the linker could not find; /.test(x.message ?? ''));
  if (!decl || decl.line === undefined) return;
  const name = /^declares (\S+),/.exec(decl.message ?? '')?.[1] as string;
  out.line();
  // (When the answer's "In the source" already shows the declaration and says so, only the candidates follow.)
  const shown = shownAbove.includes(`**In the source:** \`${decl.path}:${decl.line}\``);
  if (!shown) out.line(`**Declared, never defined:** ${inlineCode(`${decl.path}:${decl.line}`)} declares ${inlineCode(name)}, and no C or C++ source file of the workspace defines it, so no object in the link can provide it.`);
  if (!shown) out.line(numbered(decl, decl.line, 10));
  out.source({ kind: 'file', path: decl.path, start_line: decl.startLine, end_line: decl.endLine });
  const candidates = snippets.filter((x) => x.line !== undefined && /^defines \S+, with .*, and (?:no header declares it|a header declares it too)$/.test(x.message ?? ''));
  for (const c of candidates) {
    const m = /^defines (\S+), with (.*), and (no header declares it|a header declares it too)$/.exec(c.message ?? '') as RegExpExecArray;
    const like = [/the same parameter types/.test(m[2] as string) ? `the same parameter types as ${inlineCode(name)}` : '', /a name like/.test(m[2] as string) ? `a name like ${inlineCode(name)}` : ''].filter((x) => x !== '').join(' and ');
    out.line(`${inlineCode(`${c.path}:${c.line as number}`)} defines ${inlineCode(m[1] as string)}, with ${like}, and ${m[3] as string}: if one of the two names was renamed without the other, make the declaration, the definition and the callers use one name.`);
    out.line(numbered(c, c.line, 10));
    out.source({ kind: 'file', path: c.path, start_line: c.startLine, end_line: c.endLine });
  }
  if (candidates.length === 0) out.line(`No definition in the workspace looks like it: if it was removed or renamed, define it again or change the declaration and its callers; if a library should provide it, add that library to the link line.`);
}

/**
 * A missing symbol that no C or C++ file of the workspace defines or declares (jenkins/workspace/linkSnippets.ts
 * `renamedInWorkspace`): the line that still calls the old name, and the definitions named like it with the headers
 * that declare them, a name the change's commit messages mention (`renamed`) first. Both places are named; which
 * definition was meant is the reader's to say when there are two, or none looks like it. True when it said something.
 */
export function renamedDefinitionSteps(out: ReplyBuilder, snippets: readonly WorkspaceSnippet[], renamed: ReadonlySet<string> = new Set(), shownAbove = ''): boolean {
  const callers = snippets.filter((x) => x.line !== undefined && /^calls \S+, the missing symbol, which no C or C\+\+ file of the workspace defines or declares$/.test(x.message ?? ''));
  const first = callers[0];
  if (!first) return false;
  const name = /^calls (\S+),/.exec(first.message ?? '')?.[1] as string;
  const defs = snippets
    .flatMap((x) => {
      const m = /^defines (\S+), a function named like (\S+), (?:declared at (\S+)|declared in no header)$/.exec(x.message ?? '');
      return m && m[2] === name && x.line !== undefined ? [{ snippet: x, name: m[1] as string, header: m[3] }] : [];
    })
    .sort((a, b) => Number(renamed.has(b.name)) - Number(renamed.has(a.name)));
  const callPlaces = callers.map((c) => inlineCode(`${c.path}:${c.line as number}`)).join(' and ');
  out.line();
  const best = defs[0];
  if (!best) {
    out.line(`**No definition like it:** no C or C++ file of the workspace defines or declares ${inlineCode(name)}, which ${callPlaces} calls, and no function there has a name like it, so I can't tell which definition you meant: if it was removed, define it again; if a library should provide it, add that library to the link.`);
    out.line(numbered(first, first.line, 6));
    out.source({ kind: 'file', path: first.path, start_line: first.startLine, end_line: first.endLine });
    return true;
  }
  const said = (d: (typeof defs)[number]): string => `${inlineCode(`${d.snippet.path}:${d.snippet.line as number}`)} defines ${inlineCode(d.name)}${renamed.has(d.name) ? ' (a name the change\'s commit message mentions)' : ''}, ${d.header ? `declared at ${inlineCode(d.header)}` : 'declared in no header'}`;
  const header = best.header ? ` and include its header, ${inlineCode(best.header.replace(/:\d+$/, ''))}, so the compiler checks the call against the declaration` : '';
  const which = defs.length > 1 && !renamed.has(best.name) ? ` I can't tell which of ${defs.map((d) => inlineCode(d.name)).join(' and ')} you meant: both are named like it.` : '';
  out.line(`**The definition it may have become:** no C or C++ file of the workspace defines or declares ${inlineCode(name)}, and ${callPlaces} still ${callers.length > 1 ? 'call' : 'calls'} it. ${defs.map(said).join('; ')}: if ${inlineCode(name)} was renamed ${inlineCode(best.name)}, call ${inlineCode(best.name)} at ${callPlaces}${header}; if not, define ${inlineCode(name)} again.${which}`);
  // (The answer's "In the source" may show the calling line already.)
  if (!shownAbove.includes(`**In the source:** \`${first.path}:${first.line as number}\``)) out.line(numbered(first, first.line, 6));
  out.source({ kind: 'file', path: first.path, start_line: first.startLine, end_line: first.endLine });
  for (const d of defs) {
    out.line(numbered(d.snippet, d.snippet.line, 6));
    out.source({ kind: 'file', path: d.snippet.path, start_line: d.snippet.startLine, end_line: d.snippet.endLine });
  }
  return true;
}
