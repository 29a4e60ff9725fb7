import { citeLocation, locationsIn, openAt, LOCATION_QUESTION } from './locations.js';

const span = (...lines: string[]): { start_line: number; end_line: number; text: string } => ({ start_line: 10, end_line: 9 + lines.length, text: lines.join('\n') });

describe('locationsIn', () => {
  test.each([
    ['Kotlin', 'e: file:///w/src/InvoiceController.kt:57:33 Unresolved reference \'toMoney\'.', '/w/src/InvoiceController.kt', 57, 33, "Unresolved reference 'toMoney'."],
    ['TypeScript', 'src/PaymentForm.tsx(142,23): error TS2345: Argument of type', 'src/PaymentForm.tsx', 142, 23, 'error TS2345: Argument of type'],
    ['gcc', 'src/parse.c:10:13: error: expected \';\' before \'}\' token', 'src/parse.c', 10, 13, "error: expected ';' before '}' token"],
    ['javac', 'src/com/acme/Invoice.java:11: error: incompatible types', 'src/com/acme/Invoice.java', 11, undefined, 'error: incompatible types'],
    ['Maven', '[ERROR] /w/Order.java:[17,15] cannot find symbol', '/w/Order.java', 17, 15, 'cannot find symbol'],
    ['Go', './broken.go:5:9: too many return values', './broken.go', 5, 9, 'too many return values'],
  ])('%s', (_name, line, path, lineNo, column, message) => {
    const [loc] = locationsIn(span(line));
    expect(loc).toMatchObject({ path, line: lineNo, message, logLine: 10 });
    expect(loc?.column).toBe(column);
  });

  test('pointer lines take the message of the error above them (rustc, Python, Node frames)', () => {
    const rust = locationsIn(span('error[E0308]: mismatched types', '  --> src/main.rs:10:61'));
    expect(rust[0]).toMatchObject({ path: 'src/main.rs', line: 10, column: 61, message: 'error[E0308]: mismatched types', logLine: 11 });
    const py = locationsIn(span('Traceback (most recent call last):', '  File "app/main.py", line 3, in <module>'));
    expect(py[0]).toMatchObject({ path: 'app/main.py', line: 3 });
  });

  test('a Jenkinsfile error names its line and column; a source excerpt line is not a location', () => {
    const [wf] = locationsIn(span("WorkflowScript: 14: expecting '}', found 'steps' @ line 14, column 13."));
    expect(wf).toMatchObject({ line: 14, column: 13, message: "expecting '}', found 'steps'" });
    expect(locationsIn(span('src/app.ts:12:3 const x = 1;'))).toEqual([]);
  });

  test('javac detail lines complete the message; repeats are one place', () => {
    const locs = locationsIn(span('[ERROR] /w/Order.java:[17,15] cannot find symbol', '  symbol:   method toMoney()', '[ERROR] /w/Order.java:[17,15] cannot find symbol'));
    expect(locs).toHaveLength(1);
    expect(locs[0]?.message).toBe('cannot find symbol (symbol: method toMoney())');
  });

  test('citing and opening', () => {
    const loc = { path: '/w/src/X.kt', line: 57, column: 33, message: 'm', logLine: 1 };
    expect(citeLocation(loc)).toBe('X.kt:57:33');
    expect(openAt(loc)).toBe('open `/w/src/X.kt` at line 57, column 33');
  });
});

test('LOCATION_QUESTION', () => {
  for (const q of ['which file and line has the compile error?', 'show me the error', 'what does the compiler say?', 'which line is broken?', 'where is the compile error?']) expect(LOCATION_QUESTION.test(q)).toBe(true);
  for (const q of ['why did the build fail?', 'was it a timeout?', 'which tests failed?']) expect(LOCATION_QUESTION.test(q)).toBe(false);
});
