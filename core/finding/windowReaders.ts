/**
 * Readers of a finding's window that need nothing of index.ts (moved out to keep it under 700
 * lines): the file heading an indented report, rustc's arrow place, test frames in a trace.
 */

/** The file heading an indented finding (eslint prints the path alone above its findings, RuboCop's simple format `== path ==`). */
export function headingFile(body: readonly string[], index: number): string | undefined {
  for (let k = index - 1; k >= Math.max(0, index - 60); k--) {
    const t = body[k] ?? '';
    const heading = /^== (\S+\.\w{1,7}) ==$/.exec(t.trim())?.[1];
    if (heading || (/^\S.*\.\w{1,6}$/.test(t) && !/\s{2}/.test(t))) return heading ?? t.trim();
    if (t.trim() === '') continue;
    if (!/^\s+\d+:\d+\s|^[CWEFR]: +\d+: +\d+: /.test(t)) return undefined;
  }
  return undefined;
}

/** rustc prints the place on ` --> file:line:col` a line or two below its `error[E...]:`. */
export function arrowBelow(body: readonly string[], index: number): { file: string; line: number; column: number; index: number } | undefined {
  for (let k = index + 1; k < Math.min(body.length, index + 4); k++) {
    const m = /^\s*--> ((?:[A-Za-z]:)?[^\s:]+):(\d+):(\d+)\s*$/.exec(body[k] ?? '');
    if (m) return { file: m[1] as string, line: Number(m[2]), column: Number(m[3]), index: k };
  }
  return undefined;
}

/** The frames of a trace are in a test file (JUnit, pytest, jest): the exception was raised while testing. */
export function raisedFromTestCode(body: readonly string[]): boolean {
  return body.some((l) => /^\s*at .*(?:Test|Tests|Spec|IT)\.(?:java|kt|groovy|scala):\d+\)|^\s*at .*\.(?:test|spec)\.[cm]?[jt]sx?:\d+|^\s*File ".*(?:\/|^)(?:test_\w+|\w+_test)\.py"|org\.junit\.|_pytest\//.test(l));
}
