/**
 * Back from an excerpt the analyzer chose on a runner's summary (gtest's `[  FAILED  ] 1 test,
 * listed below:`, meson's `Summary of Failures:`, EUnit's `Failed: 1.`) or an exit line, to the
 * tool's own error line above it in the same step: the first line a finding rule matches between
 * the step's command (`+ cmd`, `$ cmd`) and the excerpt.
 */

/** How far above the excerpt the step's output is read. */
const REACH = 80;

/**
 * The 0-based index of the first line above the excerpt (up to the step's command) that
 * `isRuleLine` accepts, or undefined. `first` is the excerpt's first line, 0-based.
 */
export function ruleLineAbove(lines: readonly string[], first: number, bodyOf: (l: string) => string, isRuleLine: (k: number) => boolean): number | undefined {
  let top: number | undefined;
  for (let k = first - 1; k >= Math.max(0, first - REACH); k--) {
    const t = bodyOf(lines[k] ?? '').trim();
    if (/^(?:\+ |\$ )/.test(t)) break;
    if (isRuleLine(k)) top = k;
  }
  return top;
}
