/** Where the failure is known to be (a failing step's lines, a failed parallel branch): its blocks rank first. */
import type { Block } from './blocks.js';
import type { Branches } from './jenkins.js';

/**
 * Whether a block lies where the failure is known to be: inside a `focus` range (1-based in the
 * option) or, failing that, on the lines of a branch Jenkins says failed. Summaries and exit
 * lines (the step's wrapper) are never focused: the step's output is.
 */
export function focusOf(branches: Branches, focus: readonly (readonly [number, number])[] | undefined): (b: Block) => boolean {
  const ranges = (focus ?? []).map(([a, b]) => [a - 1, b - 1] as const).filter(([a, b]) => b >= a);
  const failed = new Set(branches.failed);
  if (ranges.length === 0 && failed.size === 0) return () => false;
  return (b: Block): boolean => {
    if (b.kind === 'summary' || b.kind === 'exit') return false;
    if (ranges.length > 0) return ranges.some(([s, e]) => b.anchor >= s && b.anchor <= e);
    const branch = b.extra?.branch;
    return branch !== undefined && failed.has(branch);
  };
}
