import { analyze } from './analyze.js';
import { cleanLines } from './clean.js';
import { failureLocations, locationsInLine, locationsInSpan } from './locations.js';
import { callArityAt, likelyMembers, membersOf, missingSymbolOf, ownerTypeOf, similarIdentifiers, symbolKindAt, typeMismatchOf } from './symbols.js';

const one = (line: string, previous?: string) => locationsInLine(line, 7, previous)[0];

describe('locationsInLine: the shapes of the common tools', () => {
  test.each([
    ['[ERROR] /ws/src/main/java/a/B.java:[42,17] cannot find symbol', '/ws/src/main/java/a/B.java', 42, 'javac'],
    ['src/a/B.java:42: error: incompatible types: String cannot be converted to int', 'src/a/B.java', 42, 'javac'],
    ['e: /ws/app/src/Main.kt: (42, 17): Unresolved reference: foo', '/ws/app/src/Main.kt', 42, 'kotlinc'],
    ['e: file:///ws/app/src/Main.kt:42:17 Unresolved reference: foo', '/ws/app/src/Main.kt', 42, 'kotlinc'],
    ["src/app.ts(42,17): error TS2339: Property 'totl' does not exist on type 'Order'.", 'src/app.ts', 42, 'tsc'],
    ["src/app.ts:42:17 - error TS2304: Cannot find name 'totl'.", 'src/app.ts', 42, 'tsc'],
    ['src/calc.c:42:17: error: use of undeclared identifier \'totl\'', 'src/calc.c', 42, 'gcc'],
    ['./main.go:42:17: undefined: totl', './main.go', 42, 'gcc'],
    ['  --> src/main.rs:42:17', 'src/main.rs', 42, 'rustc'],
    ['  File "/ws/app/calc.py", line 42, in total', '/ws/app/calc.py', 42, 'python'],
    ['tests/test_calc.py:42: AssertionError', 'tests/test_calc.py', 42, 'pytest'],
    ['      at Object.<anonymous> (src/sum.test.js:42:17)', 'src/sum.test.js', 42, 'jest'],
    ['\tat com.acme.orders.OrderTotalsTest.totals(OrderTotalsTest.java:42)', 'com/acme/orders/OrderTotalsTest.java', 42, 'jvm-stack'],
    ["WorkflowScript: 42: unexpected token: } @ line 42, column 1.", 'WorkflowScript', 42, 'pipeline'],
    ['\tat WorkflowScript.run(WorkflowScript:42)', 'WorkflowScript', 42, 'pipeline'],
  ])('%s', (line, path, lineNo, shape) => {
    expect(one(line)).toMatchObject({ path, line: lineNo, shape, logLine: 7 });
  });

  test('library frames, node internals, installed packages and non-source files are no locations', () => {
    expect(one('\tat org.junit.jupiter.api.Assertions.assertEquals(Assertions.java:1156)')).toBeUndefined();
    expect(one('    at Module._compile (node:internal/modules/cjs/loader:1101:14)')).toBeUndefined();
    expect(one('    at run (/ws/node_modules/jest-circus/build/run.js:42:3)')).toBeUndefined();
    expect(one('[ERROR] /etc/passwd:[1,1] illegal character')).toBeUndefined();
    expect(one('Downloaded from central: https://repo/x.pom (2 kB at 9 kB/s)')).toBeUndefined();
  });

  test("rustc's message is the line before its arrow", () => {
    expect(one('  --> src/main.rs:3:5', 'error[E0425]: cannot find value `totl` in this scope')?.message).toBe('cannot find value `totl` in this scope');
  });
});

const span = (...lines: string[]): { start_line: number; text: string } => ({ start_line: 10, text: lines.join('\n') });

describe('locationsInSpan: the places one excerpt names, with their messages', () => {
  test.each([
    ['Kotlin', 'e: file:///w/src/InvoiceController.kt:57:33 Unresolved reference \'toMoney\'.', '/w/src/InvoiceController.kt', 57, 33, "Unresolved reference 'toMoney'."],
    ['TypeScript', 'src/PaymentForm.tsx(142,23): error TS2345: Argument of type', 'src/PaymentForm.tsx', 142, 23, 'error TS2345: Argument of type'],
    ['gcc', 'src/parse.c:10:13: error: expected \';\' before \'}\' token', 'src/parse.c', 10, 13, "error: expected ';' before '}' token"],
    ['javac', 'src/com/acme/Invoice.java:11: error: incompatible types', 'src/com/acme/Invoice.java', 11, undefined, 'error: incompatible types'],
    ['Maven', '[ERROR] /w/Order.java:[17,15] cannot find symbol', '/w/Order.java', 17, 15, 'cannot find symbol'],
    ['Go', './broken.go:5:9: too many return values', './broken.go', 5, 9, 'too many return values'],
  ])('%s', (_name, line, path, lineNo, column, message) => {
    const [loc] = locationsInSpan(span(line));
    expect(loc).toMatchObject({ path, line: lineNo, message, logLine: 10 });
    expect(loc?.column).toBe(column);
  });

  test('pointer lines take the message of the error above them (rustc, Python, Node frames)', () => {
    const rust = locationsInSpan(span('error[E0308]: mismatched types', '  --> src/main.rs:10:61'));
    expect(rust[0]).toMatchObject({ path: 'src/main.rs', line: 10, column: 61, message: 'error[E0308]: mismatched types', logLine: 11 });
    const py = locationsInSpan(span('Traceback (most recent call last):', '  File "app/main.py", line 3, in <module>'));
    expect(py[0]).toMatchObject({ path: 'app/main.py', line: 3 });
  });

  test('a message that states no error is no location (a quoted source line); vet and any file with an error message are', () => {
    expect(locationsInSpan(span('src/app.ts:12:3 const x = 1;'))).toEqual([]);
    expect(locationsInSpan(span('vet: ./pkg/a.go:3:2: unreachable code'))[0]).toMatchObject({ path: './pkg/a.go', line: 3, column: 2 });
    expect(locationsInSpan(span('config/app.yaml:3: error: mapping values are not allowed here'))[0]).toMatchObject({ path: 'config/app.yaml', line: 3, shape: 'other' });
    expect(locationsInSpan(span('config/app.yaml:3: all good'))).toEqual([]);
  });

  test("detail lines stop at the next error: each error keeps its own symbol", () => {
    const locs = locationsInSpan(span('A.java:3: error: cannot find symbol', '  symbol:   variable a', 'B.java:4: error: cannot find symbol', '  symbol:   variable b'));
    expect(locs.map((l) => l.message)).toEqual(['error: cannot find symbol\nsymbol: variable a', 'error: cannot find symbol\nsymbol: variable b']);
  });
});

describe('failureLocations over analyzer excerpts', () => {
  test("javac's symbol and location lines join the message; first mention first, no duplicates", () => {
    const log = [
      '[INFO] Compiling 3 source files',
      '[ERROR] COMPILATION ERROR : ',
      '[ERROR] /ws/src/main/java/a/B.java:[42,17] cannot find symbol',
      '  symbol:   variable totl',
      '  location: class a.B',
      '[ERROR] /ws/src/main/java/a/B.java:[42,17] cannot find symbol',
      '[INFO] BUILD FAILURE',
    ].join('\n');
    const lines = cleanLines(log);
    const found = failureLocations(lines, analyze(log));
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ path: '/ws/src/main/java/a/B.java', line: 42, column: 17, logLine: 3 });
    expect(found[0]?.message).toBe('cannot find symbol\nsymbol: variable totl\nlocation: class a.B');
  });

  test('at most maxLocations', () => {
    const log = ['[ERROR] COMPILATION ERROR : ', ...Array.from({ length: 30 }, (_, i) => `[ERROR] src/F${i}.java:[${i + 1},1] illegal character`), '[INFO] BUILD FAILURE'].join('\n');
    expect(failureLocations(cleanLines(log), analyze(log), { maxLocations: 4 })).toHaveLength(4);
  });
});

describe('what compilers say is wrong', () => {
  test.each([
    ['cannot find symbol\nsymbol: method getTotl()\nlocation: class B', 'getTotl'],
    ['Unresolved reference: totl', 'totl'],
    ['undefined: totl', 'totl'],
    ['cannot find value `totl` in this scope', 'totl'],
    ["error TS2339: Property 'totl' does not exist on type 'Order'.", 'totl'],
    ["error TS2304: Cannot find name 'totl'.", 'totl'],
    ["NameError: name 'totl' is not defined", 'totl'],
    ["error: use of undeclared identifier 'totl'", 'totl'],
  ])('missing symbol in %j', (message, symbol) => {
    expect(missingSymbolOf(message)).toBe(symbol);
  });

  test.each([
    ['incompatible types: String cannot be converted to int', 'String', 'int'],
    ["error TS2322: Type 'string' is not assignable to type 'number'.", 'string', 'number'],
    ['Type mismatch: inferred type is String but Int was expected', 'String', 'Int'],
    ['cannot use name (variable of type string) as int value in assignment', 'string', 'int'],
    ['expected `u32`, found `&str`', '&str', 'u32'],
    ["incompatible types when assigning to type 'int' from type 'char *'", 'char *', 'int'],
    ['incompatible types\nrequired: int\nfound: java.lang.String', 'java.lang.String', 'int'],
  ])('types in %j', (message, found, required) => {
    expect(typeMismatchOf(message)).toEqual({ found, required });
  });

  test('similar identifiers: typos, case, prefixes; keywords and unrelated names left out', () => {
    const lines = ['private int total;', 'private int totalCount;', 'public int sum() { return count; }', 'int Totl = 0;'];
    expect(similarIdentifiers('totl', lines).map((h) => h.name)).toEqual(['Totl', 'total']);
    expect(similarIdentifiers('totalC', lines).map((h) => h.name)).toContain('totalCount');
    expect(similarIdentifiers('zzzz', lines)).toEqual([]);
  });
});

describe('kinds, owners and arity of a missing name, from the message and the failing line (issue 25)', () => {
  it('reads a capitalised qualifier as a type and a call as a callable', () => {
    const javac = 'error: cannot find symbol\nsymbol: variable Tax\nlocation: class Invoice';
    expect(symbolKindAt(javac, 'Tax', '        return Math.round(netCents * (1 + Tax.rateFor(country)));')).toBe('type');
    expect(symbolKindAt('error: cannot find symbol\nsymbol: variable total', 'total', 'return total + 1;')).toBe('value');
    expect(symbolKindAt('cmd/blog/main.go:10:19: undefined: slug.Make', 'Make', '\tfmt.Println(slug.Make("Hello Go World"))')).toBe('callable');
    expect(callArityAt('Make', '\tfmt.Println(slug.Make("Hello, Go World", 2))')).toBe(2);
    expect(callArityAt('size', '    std::printf("%zu\\n", q.size());')).toBe(0);
  });

  it('names the owner of a C++ member and of a Go package name, and their members', () => {
    expect(missingSymbolOf('main.cpp:8:34: error: ‘class JobQueue’ has no member named ‘size’')).toBe('size');
    expect(ownerTypeOf('main.cpp:8:34: error: ‘class JobQueue’ has no member named ‘size’')).toBe('JobQueue');
    expect(ownerTypeOf('cmd/blog/main.go:10:19: undefined: slug.Make')).toBe('slug');
    const hpp = ['class JobQueue {', ' public:', '    void push(int j) { jobs_.push_back(j); }', '    std::size_t length() const { return jobs_.size(); }', ' private:', '    std::vector<int> jobs_;', '};'];
    expect(membersOf('JobQueue', hpp).map((m) => [m.name, m.arity])).toEqual(expect.arrayContaining([['push', 1], ['length', 0]]));
    const go = ['package slug', '', 'import "strings"', '', '// FromTitle turns a title into a URL slug.', 'func FromTitle(title string) string {', '\treturn strings.ToLower(title)', '}', 'func (s *T) Method() {}'];
    expect(membersOf('slug', go).map((m) => [m.name, m.arity])).toEqual([['FromTitle', 1]]);
    expect(likelyMembers('Make', 'callable', 1, membersOf('slug', go)).map((m) => m.name)).toEqual(['FromTitle']);
  });

  it('relates a name to the same name with a camel-case word added, never a comment word', () => {
    expect(similarIdentifiers('Tax', ['package billing;', '', 'public final class TaxTable {', '    // Tax rates'], 2, 'type').map((h) => h.name)).toEqual(['TaxTable']);
    expect(similarIdentifiers('Tax', ['class Taxonomy {}'], 2, 'type')).toEqual([]);
  });
});
