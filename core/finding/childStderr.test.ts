import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { analyze } from '../log/analyze.js';
import { sparseArray } from '../log/kept.js';
import { withChildReport, withChildStderr } from './childStderr.js';

/**
 * Session 47 (helper nt1; docs/notes/analyzer.md "Session 47 (helper nt1)"): node --test prints a test file's child
 * stderr as TAP comments (`# `), the spec reporter prints it bare above `✖ <file>`; the finding reads Node's report
 * of the uncaught error there (childStderr.ts). The logs are real: test/fixtures/grammar/node-test-{tap,spec}-*.log
 * made on this machine by make.sh (node v20), and ux8's shop-monorepo build.
 */
const GRAMMAR = path.join(process.cwd(), 'test', 'fixtures', 'grammar');
const seen = (file: string): [string | undefined, string | undefined, number | undefined, string | null] => {
  const f = analyze(readFileSync(file, 'utf8'))[0]?.finding;
  return [f?.class, f?.message, f?.message_line, f?.location ? `${f.location.file}:${f.location.line}` : null];
};

type Row = [id: string, cls: string, message: string, line: number, place: string];

// Before (each row): the TAP ones `test failed` at the test file's 1:1 (low, or high for the assertion); spec-assert
// `unknown` on `'test failed'`; spec-import a `runtime-exception` (medium); spec-throw right at medium, tool `node --test`.
const ROWS: Row[] = [
  ['node-test-tap-import', 'test-error', 'Error [ERR_PACKAGE_PATH_NOT_EXPORTED]: Package subpath \'./src/money\' is not defined by "exports" in /tmp/ws/node-test-tap-import/node_modules/@acme/core/package.json', 14, '/tmp/ws/node-test-tap-import/src/cart.js:2'],
  ['node-test-tap-throw', 'test-error', 'Error: REGION is not set', 12, '/tmp/ws/node-test-tap-throw/lib/config.js:3'],
  ['node-test-tap-assert', 'test-assertion', 'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:', 12, '/tmp/ws/node-test-tap-assert/test/slug.test.mjs:5'],
  ['node-test-spec-import', 'test-error', 'Error [ERR_PACKAGE_PATH_NOT_EXPORTED]: Package subpath \'./src/money\' is not defined by "exports" in /tmp/ws/node-test-spec-import/node_modules/@acme/core/package.json', 14, '/tmp/ws/node-test-spec-import/src/cart.js:2'],
  ['node-test-spec-assert', 'test-assertion', 'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:', 12, '/tmp/ws/node-test-spec-assert/test/slug.test.mjs:5'],
];

describe("node --test: a test file's child died, and its stderr says why (nt1)", () => {
  it.each(ROWS)('%s: Node\'s report is the finding (class, message line, the project\'s frame)', (id, cls, message, line, place) => {
    expect(seen(path.join(GRAMMAR, `${id}.log`))).toEqual([cls, message, line, place]);
  });

  it('spec-throw keeps its reading, now at high confidence', () => {
    const f = analyze(readFileSync(path.join(GRAMMAR, 'node-test-spec-throw.log'), 'utf8'))[0]?.finding;
    expect([f?.class, f?.message, f?.message_line, f?.location?.file, f?.location?.line, f?.confidence]).toEqual(['test-error', 'Error: REGION is not set', 12, '/tmp/ws/node-test-spec-throw/lib/config.js', 3, 'high']);
  });

  it("ux8's shop-monorepo: the ERR_PACKAGE_PATH_NOT_EXPORTED at L53, raised through cart.js:2 (L62), not `test failed` at 1:1", () => {
    const f = analyze(readFileSync(path.join(process.cwd(), 'test', 'fixtures', 'ux8', 'shop-monorepo', 'fail.log'), 'utf8'))[0]?.finding;
    expect([f?.class, f?.message_line, f?.exception, f?.confidence]).toEqual(['test-error', 53, 'Error', 'high']);
    expect(f?.message).toMatch(/^Error \[ERR_PACKAGE_PATH_NOT_EXPORTED\]: Package subpath '\.\/src\/money' is not defined by "exports"/);
    expect(f?.location).toMatchObject({ file: '/var/jenkins_home/workspace/shop-monorepo/packages/web/src/cart.js', line: 2, column: 25, log_line: 62 });
  });
});

describe('withChildStderr / withChildReport: only the report of a child Node ended (nt1)', () => {
  it('un-comments the lines of a report that ends in `# Node.js v`, up to the runner\'s `# Subtest:`', () => {
    const lines = ['TAP version 13', '# Error: x', '#     at f (/ws/a.js:1:2)', '# Node.js v20.20.2', '# Subtest: /ws/t.js', 'not ok 1 - /ws/t.js', '# tests 1'];
    expect(withChildStderr(lines)).toEqual(['TAP version 13', 'Error: x', '    at f (/ws/a.js:1:2)', 'Node.js v20.20.2', '# Subtest: /ws/t.js', 'not ok 1 - /ws/t.js', '# tests 1']);
  });

  it("leaves other TAP comments as they are (Test::More's `#   Failed test`, a summary): the same array", () => {
    const lines = ['not ok 1 - sums', "#   Failed test 'sums'", '#   at t/sum.t line 5.', '# tests 1', '# fail 1'];
    expect(withChildStderr(lines)).toBe(lines);
  });

  it("reads only the lines a long log's sparse result holds, never its holes (issue 28, sp13)", () => {
    // The analyzer's result for a long log (kept.ts `sparseArray`): its few kept lines among a million holes.
    const lines = sparseArray(1_000_000);
    lines[499_998] = '# tests 1';
    lines[499_999] = 'not ok 1 - /ws/t.js';
    // A hole that counts its reads (not enumerable: not a line the array holds).
    let holeReads = 0;
    Object.defineProperty(lines, 250_000, { get: () => void holeReads++, enumerable: false });
    expect(withChildStderr(lines)).toBe(lines);
    expect(holeReads).toBe(0);
  });

  it('widens an excerpt at the spec verdict only up to the report\'s head with frames, within the step', () => {
    const lines = ['+ node --test --test-reporter=spec', '/ws/a.js:3', '  throw e', '  ^', '', 'Error: x', '    at f (/ws/a.js:3:9)', '', 'Node.js v20.20.2', '✖ /ws/t.js (12.5ms)', "  'test failed'"];
    expect(withChildReport(lines, { start_line: 10, end_line: 11 })).toEqual({ start_line: 2, end_line: 11 });
    const noFrames = ['+ node x', 'Error: x', 'Node.js v20.20.2', '✖ /ws/t.js (12.5ms)'];
    expect(withChildReport(noFrames, { start_line: 4, end_line: 4 })).toEqual({ start_line: 4, end_line: 4 });
  });
});
