/** Which source file a test file exercises (moved out of snippets.ts to keep it under 700 lines). */
/** The file a test file tests, by the usual naming (`FooTest.java`, `foo.test.ts`, `test_foo.py`, `foo_test.go`). */
export function subjectOf(testPath: string): string | undefined {
  const slash = testPath.lastIndexOf('/');
  const dir = testPath.slice(0, slash + 1).replace(/(^|\/)(src\/)?(test|tests|__tests__|spec)\//, '$1$2');
  const base = testPath.slice(slash + 1);
  const m =
    /^(\w+?)(?:Tests?|Spec|IT)\.(java|kt|scala|groovy)$/.exec(base) ??
    /^([\w-]+)\.(?:test|spec)\.([cm]?[jt]sx?)$/.exec(base) ??
    /^test_(\w+)\.(py)$/.exec(base) ??
    /^(\w+)_test\.(py|go|c|cc|cpp|rb|exs|erl|lua|ml)$/.exec(base) ??
    /^test_?(\w+)\.(c|cc|cpp|rb|lua|ml|pl)$/.exec(base) ??
    /^(\w+)_(?:spec|SUITE)\.(rb|erl|lua)$/.exec(base) ??
    /^(\w+?)Test\.(php)$/.exec(base) ??
    /^(\w+?)_tests?\.(rs)$/.exec(base);
  if (!m?.[1] || !m[2]) return undefined;
  return `${dir}${m[1]}.${m[2]}`;
}
