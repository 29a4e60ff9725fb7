import { describe, expect, it } from '@jest/globals';
import { analyze } from '../log/analyze.js';
import type { Finding } from '../../protocol/types.js';
import { GO_WRAPPED, OS_ERROR, OS_ERRORS, osKindWords } from './errno.js';

/**
 * Errors a test MET (an OS error's words, a Go error passed up with its package's prefix) are test errors, not checks
 * (errno.ts; docs/notes/analyzer.md, "Round 17 tuning (helper t18)"). Made-up logs of other projects.
 */
const top = (text: string): Finding | undefined => analyze(text)[0]?.finding;
const goTest = (message: string): string =>
  ['+ go test ./...', 'ok  \texample.com/relay/wire\t0.003s', '--- FAIL: TestLoadSample (0.00s)', `    loader_test.go:14: ${message}`, 'FAIL', 'FAIL\texample.com/relay/loader\t0.005s', 'FAIL', 'ERROR: script returned exit code 1'].join('\n');

describe('a Go test reporting an error it met', () => {
  it('a Go error passed up with its package prefix is a test error', () => {
    expect(top(goTest('Load(testdata/base.yaml): yaml: line 3: mapping values are not allowed in this context'))?.class).toBe('test-error');
    expect(top(goTest('decoding fixture: gob.Decoder: extra data in buffer'))?.class).toBe('test-error');
  });

  it('counter-examples: a check names what it wanted, or the call and what it did', () => {
    expect(top(goTest('Parse("1,2"): got {1 0}, want {1 2}'))?.class).toBe('test-assertion');
    expect(top(goTest('Lookup("Kiev"): city not in table'))?.class).toBe('test-assertion');
  });
});

describe("a test program's failure that ends in an OS error's words", () => {
  const make = (line: string): string => ['+ make check', 'cc -o tests/test_pool tests/test_pool.c src/pool.c', './tests/test_pool', line, 'make: *** [Makefile:12: check] Error 1', 'ERROR: script returned exit code 2'].join('\n');

  it('is a test error (the program met it), not a check', () => {
    expect(top(make('tests/test_pool.c:40: open slot 17 failed: Too many open files'))?.class).toBe('test-error');
  });

  it('counter-example: a failure with a check\'s words stays the assertion', () => {
    expect(top(make('tests/test_pool.c:40: pool_size failed: expected 4, got 3'))?.class).toBe('test-assertion');
  });
});

describe('the patterns', () => {
  it('OS_ERROR reads strerror in C and Go case; GO_WRAPPED needs a package between two colons', () => {
    expect(['x: No such file or directory', 'open x: permission denied', 'accept: Too many open files', 'a: Cannot allocate memory'].every((t) => OS_ERROR.test(t))).toBe(true);
    expect(OS_ERROR.test('no such test')).toBe(false);
    expect(GO_WRAPPED.test('read x: bufio.Scanner: token too long')).toBe(true);
    expect(GO_WRAPPED.test('Lookup("Kiev"): city not in table')).toBe(false);
  });
});

describe('the table of OS errors (OS_ERRORS: the finding and the answers read the one table)', () => {
  it('each error is one row; OS_ERROR reads each text, whole words only', () => {
    expect(new Set(OS_ERRORS.map((e) => e.errno)).size).toBe(OS_ERRORS.length);
    for (const e of OS_ERRORS) expect([e.errno, OS_ERROR.test(`x: ${e.text}`), OS_ERROR.test(`x: ${e.text}s`)]).toEqual([e.errno, true, false]);
  });

  it("a condition's words are its errors' text, symbol, Python's [Errno N] and Rust's (os error N), and their other spellings", () => {
    expect(['open x: No such file or directory', 'ENOENT: open x', "[Errno 2] x", 'failed (os error 2)', 'FileNotFoundError: x'].every((t) => osKindWords('missing-path').test(t))).toBe(true);
    expect(osKindWords('missing-path').test('failed (os error 28)')).toBe(false);
    expect(['EPERM', 'Operation not permitted', '[Errno 13] x', 'AccessDeniedException'].every((t) => osKindWords('permission').test(t))).toBe(true);
    expect(osKindWords('read-only').test('attempt to write a readonly database')).toBe(true);
    expect(osKindWords('no-space').test('Disk quota exceeded')).toBe(false);
  });
});
