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

/** A Rust panic's heading: `thread 'main' (6834) panicked at src/main.rs:19:27:` (older: `... panicked at 'msg', f.rs:1:2`). */
const PANIC_HEAD = /^thread '[^']*'(?: \(\d+\))? panicked at /;
/** How far above the window a panic's heading over its backtrace is looked for. */
const BACKTRACE = 60;
/** How far above a poisoned lock's panic the panic that poisoned it is looked for. */
const POISON_REACH = 400;

/**
 * The line (0-based) of the panic that poisoned a lock, when the window `start`..`end` (1-based, or the backtrace
 * above it) holds a panic on a
 * PoisonError (`called Result::unwrap() on an Err value: PoisonError { .. }`): Rust poisons a Mutex or RwLock when a
 * thread panics while holding it (std::sync docs), so the other thread's panic is the aftermath; the earlier panic
 * of the same command is the cause.
 */
export function poisoningPanic(start: number, end: number, bodyAt: (i: number) => string): number | undefined {
  let own: number | undefined;
  // The window may be the backtrace under the panic (`   3: core::result::Result<T,E>::unwrap`): its heading is above.
  for (let k = Math.max(0, start - 1 - BACKTRACE); k < end && own === undefined; k++) {
    if (!/\bPoisonError\b/.test(bodyAt(k))) continue;
    for (let j = k; j >= Math.max(0, k - 2) && own === undefined; j--) if (PANIC_HEAD.test(bodyAt(j).trim())) own = j;
  }
  if (own === undefined) return undefined;
  for (let k = own - 1; k >= Math.max(0, own - POISON_REACH); k--) {
    const t = bodyAt(k).trim();
    if (/^(?:\+ |\$ )/.test(t)) return undefined;
    if (PANIC_HEAD.test(t)) return k;
  }
  return undefined;
}

/** libtest's verdict on a `#[should_panic]` test whose panic it caught: the panic was expected, its message was not. */
const SHOULD_PANIC_VERDICT = /^note: panic did not contain expected string$/;

/**
 * The line (0-based) of libtest's `note: panic did not contain expected string` just below a window that ends in a
 * Rust panic's report (its message, its backtrace, the `note: ... RUST_BACKTRACE` hint): a `#[should_panic(expected =
 * ...)]` test panicked as it should, with another message, so the test's check failed (the verdict), not the code.
 * Read from the window's last line (1-based `end`) down to the end of the test's output (a blank line).
 */
export function shouldPanicVerdict(start: number, end: number, bodyAt: (i: number) => string): number | undefined {
  let panicked = false;
  for (let k = Math.max(0, start - 1 - BACKTRACE); k < end && !panicked; k++) panicked = PANIC_HEAD.test(bodyAt(k).trim());
  if (!panicked) return undefined;
  for (let k = end; k < end + 4; k++) {
    const t = bodyAt(k).trim();
    if (SHOULD_PANIC_VERDICT.test(t)) return k;
    if (t === '' || !/^note: /.test(t)) return undefined;
  }
  return undefined;
}
