import { citeLocation, locationsIn, openAt, LOCATION_QUESTION } from './locations.js';

const span = (...lines: string[]): { start_line: number; end_line: number; text: string } => ({ start_line: 10, end_line: 9 + lines.length, text: lines.join('\n') });

describe('locationsIn: the answer\'s shape of core/log/locations.ts', () => {
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
