/**
 * The type of a failure shape (a line rule of the analyzer), on its own so that the rule tables
 * (shapes.ts, jenkins.ts) can both use it without importing each other (issue 31: no import circles).
 */
export type ShapeRole = 'anchor' | 'header' | 'summary';

export interface FailureShape {
  re: RegExp;
  role: ShapeRole;
  weight: number;
  reason: string;
  /** The message is complete on its line: the lines after it are not its paragraph. */
  single?: boolean;
  /** The heading is indented but its detail is printed at the margin (minitest, EUnit). */
  detailAtMargin?: boolean;
  /** A header whose detail runs over blank lines up to the reporter's next separator (Vitest). */
  freeDetail?: boolean;
  /**
   * Literal text every match contains, one of them at least (case as written): a line without
   * any is not tried against `re`. Only speed depends on it; it must never exclude a match.
   */
  needs?: readonly string[];
  /**
   * A fatal condition of the machine (disk full, out of memory, a killed process): whatever the
   * command that printed it said on exit, the failures after it are its consequences.
   */
  fatal?: boolean;
}
