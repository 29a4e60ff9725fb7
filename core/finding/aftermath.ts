/**
 * What a log says after the failure that is not its cause (issue 25, helper t14; docs/notes/analyzer.md, "Round 13
 * opened (helper t14)"): an import Python's code caught, and the verdict of a Go test binary that ran.
 */

const HANDLED = /^During handling of the above exception, another exception occurred:$/;
/** A Python exception line closing a traceback (`zoneinfo._common.ZoneInfoNotFoundError: 'No time zone ...'`). */
const PY_RAISED = /^(?:[a-z_]\w*\.)*[A-Z]\w*(?:Error|Exception)(?::\s|$)/;
/** go test's verdict on a package whose test binary ran (`FAIL\texample.com/x/pkg\t0.004s`; a build failure says `[build failed]`). */
const GO_PKG_FAIL = /^FAIL\s+\S+\s+\d+(?:\.\d+)?s$/;

/**
 * The rule hits of a window without a ModuleNotFoundError or ImportError that Python's `During handling of the above
 * exception, another exception occurred:` shows was caught (the `try: import x / except ImportError:` idiom of an
 * optional dependency, such as zoneinfo's tzdata fallback): the handler raised what stopped the program below it.
 * Other hits above the line (a refused connection) stay causes.
 */
export function withoutCaughtImports<H extends { index: number; rule: { cls: string } }>(hits: H[], body: readonly string[]): H[] {
  const handled = body.findLastIndex((l) => HANDLED.test(l.trim()));
  if (handled < 0 || !body.slice(handled + 1).some((l) => PY_RAISED.test(l.trim()))) return hits;
  return hits.filter((h) => !(h.index < handled && h.rule.cls === 'dependency-resolution' && /\b(?:ModuleNotFoundError|ImportError)\b/.test(body[h.index] ?? '')));
}

/** Whether go test's verdict on a package whose test binary ran is among `lines` (a panic in its init is then a test error). */
export function goTestBinaryRan(lines: readonly string[]): boolean {
  return lines.some((l) => GO_PKG_FAIL.test(l.trim()));
}
