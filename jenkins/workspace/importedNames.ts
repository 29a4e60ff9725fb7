/**
 * A name the compiler cannot find, looked up in the file the failing code takes it from (issue 25 point 3, session 50,
 * helper fx12): C's and C++'s `#include "config.h"` for an undeclared identifier, Rust's `config::NAME` for a value
 * not found in module `config`. When that file declares no name like the missing one, the names it declares that the
 * failing file does not use are where a renamed one may have gone (`MAX_RETRIES` -> `RETRY_LIMIT`): the failing file
 * was written against the file as it was, and the names it already uses still exist.
 */
import { definitionsIn } from '../../core/log/symbols.js';
import { membersNotUsedIn } from './suggestions.js';

export interface ImportedNameHit {
  rel: string;
  /** 0-based line of the declaration. */
  index: number;
  name: string;
}

const C_FAMILY = /\.(?:c|cc|cpp|cxx|h|hh|hpp|hxx)$/;

/** The workspace files the failing file takes `missing` from: its quoted includes (C, C++), or the module the line qualifies it with (Rust). */
export function importedFiles(files: readonly string[], failingRel: string, failingLines: readonly string[], missing: string, sourceLine: string | undefined): string[] {
  const dir = failingRel.slice(0, failingRel.lastIndexOf('/') + 1);
  const byTail = (tail: string): string | undefined => files.find((f) => f === `${dir}${tail}`) ?? files.find((f) => f === tail || f.endsWith(`/${tail}`));
  if (C_FAMILY.test(failingRel)) {
    return failingLines.flatMap((l) => {
      const header = /^\s*#\s*include\s+"([^"]+)"/.exec(l)?.[1];
      const rel = header ? byTail(header.replace(/^\.\//, '')) : undefined;
      return rel ? [rel] : [];
    });
  }
  if (failingRel.endsWith('.rs')) {
    const module = new RegExp(`\\b([a-z_]\\w*)::${missing}\\b`).exec(sourceLine ?? '')?.[1];
    if (!module || ['crate', 'self', 'super', 'std', 'core'].includes(module)) return [];
    // `mod config;` in src/ is src/config.rs or src/config/mod.rs, beside the crate root.
    const rel = byTail(`${module}.rs`) ?? byTail(`${module}/mod.rs`);
    return rel ? [rel] : [];
  }
  return [];
}

/** The names a file declares at its top level (a C header's `#define`s, not its include guard; Rust's `pub` items). */
function declared(rel: string, lines: readonly string[]): { name: string; kind: string; index: number }[] {
  const guards = new Set(lines.flatMap((l) => /^\s*#\s*ifndef\s+(\w+)/.exec(l)?.[1] ?? []));
  const defs = definitionsIn(lines).filter((d) => !guards.has(d.name) && /^\S/.test(lines[d.index] ?? ''));
  return rel.endsWith('.rs') ? defs.filter((d) => /^pub\b/.test(lines[d.index] ?? '')) : defs;
}

/**
 * The names the failing file's imported files declare that it does not use, when one file has at most three such names
 * of the missing name's case (membersNotUsedIn: a constant for a constant); empty when no such file is found or none fits.
 */
export function importedNamesNotUsed(read: (rel: string) => readonly string[] | undefined, files: readonly string[], failingRel: string, failingLines: readonly string[], missing: string, sourceLine: string | undefined): ImportedNameHit[] {
  for (const rel of importedFiles(files, failingRel, failingLines, missing, sourceLine)) {
    const lines = read(rel);
    if (!lines) continue;
    const names = declared(rel, lines);
    // A name like the missing one there is the other searches' (renamedName.ts, similarIdentifiers): not this one's.
    if (names.some((d) => d.name.toLowerCase() === missing.toLowerCase())) return [];
    const left = membersNotUsedIn(failingLines, '', missing, names);
    if (left.length > 0) return left.map((m) => ({ rel, index: m.index, name: m.name }));
  }
  return [];
}
