/**
 * Messages read from a finding's window beside its message line: the symbol a compiler or linker
 * says is missing, and a Go test's own message under its `--- FAIL:` (moved out of index.ts).
 */
import { GO_WRAPPED, OS_ERROR } from './errno.js';

/** The symbol a compiler or linker says is missing, from its line or javac's `symbol:` line below. */
export function symbolOf(body: readonly string[], index: number): string | undefined {
  const line = body[index] ?? '';
  const patterns = [
    /Unresolved reference:?\s+[`']?([A-Za-z_$][\w$]*)[`']?/,
    /\bundefined: (?:[\w.]+\.)?([A-Za-z_]\w*)/,
    /cannot find (?:value|function|type|struct|macro|trait|module|method|field|name) [`']([A-Za-z_]\w*)[`']/,
    /no (?:method|field|function|associated item) named `([A-Za-z_]\w*)`/,
    /Property '([A-Za-z_$][\w$]*)' does not exist/,
    /Cannot find name '([A-Za-z_$][\w$]*)'/,
    /has no (?:exported )?member '([A-Za-z_$][\w$]*)'/,
    /'([A-Za-z_]\w*)' (?:was not declared|undeclared)/,
    /use of undeclared identifier '([A-Za-z_]\w*)'/,
    /implicit declaration of function '([A-Za-z_]\w*)'/,
    /has no (?:field or method|member named) '?([A-Za-z_]\w*)'?/,
  ];
  for (const re of patterns) {
    const m = re.exec(line);
    if (m?.[1]) return m[1];
  }
  for (let k = index + 1; k < Math.min(body.length, index + 4); k++) {
    const m = /^(?:\[ERROR\]\s+)?\s*symbol:\s+(?:method|variable|class|field|constructor|static)?\s*([A-Za-z_$][\w$]*)/.exec(body[k] ?? '');
    if (m?.[1]) return m[1];
  }
  return undefined;
}

/** An error of the system a test met, not a value it checked (an OS error's words, a refused connection, a deadline). */
const MET_ERROR = /\b(?:no such file|permission denied|connection refused|connection reset|EOF|deadline exceeded|timeout|timed out|not implemented|panic)\b/i;

/** An error's own words in a test's report (`t.Fatal(err)`: `parse config: invalid character`, `cannot open db`). */
const ERROR_WORDS = /\b(?:errors?|err|errno|cannot|can't|unable to|invalid|unexpected|failed to|refused|denied|not found|no such)\b/i;

/** `    stock_test.go:11: apple stock = 1, want 2`: a Go test's message under `--- FAIL:`. */
export function goTestMessage(body: readonly string[]): { index: number; file: string; line: number; assertion: boolean; expected?: string; actual?: string } | undefined {
  for (let i = 0; i < body.length; i++) {
    const m = /^\s+(\S+_test\.go):(\d+): (.+)$/.exec(body[i] ?? '');
    if (!m) continue;
    const text = m[3] as string;
    const gw = /\bgot:? (.+?),? want(?:ed)?:? (.+)$/i.exec(text) ?? /(.+?),? want(?:ed)?:? (.+)$/i.exec(text);
    const ex = /\bexpected:? (.+?),? (?:but )?(?:got|was|actual):? (.+)$/i.exec(text);
    // Go's convention for a check's report names the call and the value it returned (`Decode(Encode(s)) = "x"`),
    // with or without the wanted one: a check the test made, not an error it met.
    // The Go wiki's form for a check that failed without a value (`Lookup("Kiev"): city not in table`) names the call
    // and its inputs too; an error the test met on the way (`ReadFile(...): open x: no such file`) is not a check.
    // Any other line is the test's own report (t.Error, t.Fatal: testing's docs) of a check it made, unless its words are
    // an error the test met (labelled so on every Go test of the tuning rounds, 17 of 17: docs/notes/analyzer.md, t16):
    // its words, an OS error's, or a Go error passed up through its package's prefix (errno.ts).
    const assertion = Boolean(gw ?? ex) || /\b(?:want|expected|got)\b/i.test(text) || /^[\w.]+\(.*\) = \S/.test(text) || !(MET_ERROR.test(text) || ERROR_WORDS.test(text) || OS_ERROR.test(text) || GO_WRAPPED.test(text));
    const values = ex ? { expected: ex[1], actual: ex[2] } : gw ? { expected: gw[2], actual: /\bgot/i.test(text) ? gw[1] : undefined } : {};
    return {
      index: i,
      file: m[1] as string,
      line: Number(m[2]),
      assertion,
      ...(values.expected ? { expected: values.expected.trim() } : {}),
      ...(values.actual ? { actual: values.actual.trim() } : {}),
    };
  }
  return undefined;
}

/**
 * `go test -v` prints a test's output under its `=== RUN   T` line, before its `--- FAIL: T` verdict (without
 * -v it prints it under the verdict, which goTestMessage reads): the first `x_test.go:N:` line of that block,
 * read in `before` (the lines above the verdict's window, last = just above it), back to `=== RUN   T` /
 * `=== CONT  T` or another test's verdict. Its index is negative: from the end of `before`.
 */
export function goTestMessageAbove(before: readonly string[], name: string): ReturnType<typeof goTestMessage> {
  let k = before.length - 1;
  for (; k >= 0; k--) {
    const t = (before[k] ?? '').trim();
    if (t === `=== RUN   ${name}` || t === `=== CONT  ${name}`) break;
    if (/^--- (?:PASS|FAIL|SKIP): /.test(t)) return undefined;
  }
  const found = goTestMessage(before.slice(k + 1));
  return found ? { ...found, index: found.index + k + 1 - before.length } : undefined;
}
