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

/**
 * The shape with every field present, in one order: the analyzer reads `needs`, `fatal`, `single`
 * and the rest on whichever shape a line matched, and shapes written with different optional
 * fields are different hidden classes to V8 (a dozen, so those reads went megamorphic and the
 * optimised code of `classifyBody` and `extraOf` was thrown away on a "wrong map" when a new one
 * came by). Absent fields are undefined, as they read before.
 */
export function uniformShape(shape: FailureShape): FailureShape {
  return {
    re: shape.re,
    role: shape.role,
    weight: shape.weight,
    reason: shape.reason,
    single: shape.single,
    detailAtMargin: shape.detailAtMargin,
    freeDetail: shape.freeDetail,
    needs: shape.needs,
    fatal: shape.fatal,
  };
}
