import { describe, expect, it } from '@jest/globals';
import { analyze } from '../../test/helpers/rulesReading.js';
import { refusedOperand } from './refused.js';
import { commandOf } from './generic.js';

/**
 * Session 55 (helper fx18; docs/notes/answer.md "Session 55 (helper fx18)"): a tool's refusal of an operand of the
 * step's own command (refused.ts, t29) where the operand is named as a place (`src:1:1`, ruff's concise form), on the
 * pointer line under the refusal (`--> src:1:1`, ruff's full form), or as a pattern no file matches (ESLint, Prettier).
 * Each log in the tool's own words (ruff 0.16.9 and ESLint 10.15.0 run on this machine; Prettier's as it prints it).
 * No tuned row of the findings bench changed class with this (2052 rows, rounds < 29, in-sample).
 */
const top = (log: string) => analyze(log)[0]?.finding;
const step = (...lines: string[]) => ['Started by user ci', '[Pipeline] sh', ...lines, '[Pipeline] }', '[Pipeline] // stage', 'ERROR: script returned exit code 1', 'Finished: FAILURE', ''].join('\n');

const ROWS: [name: string, log: string, message: string][] = [
  ['ruff, full form: E902 over `--> src:1:1`', step('+ ruff check --no-cache src tests', 'E902 No such file or directory (os error 2)', '--> src:1:1', '', 'Found 1 error.'), 'E902 No such file or directory'],
  ['ruff, concise form: `src:1:1: E902`', step('+ ruff check --no-cache --output-format concise src tests', 'src:1:1: E902 No such file or directory (os error 2)', 'Found 1 error.'), 'src:1:1: E902'],
  ['ESLint: no files matching the pattern', step('+ npx eslint src', '', 'Oops! Something went wrong! :(', '', 'ESLint: 10.15.0', '', 'No files matching the pattern "src" were found.', 'Please check for typing mistakes in the pattern.'), 'No files matching the pattern "src"'],
  ['Prettier: no files matching the pattern', step('+ npx prettier --check "src/**/*.ts"', 'Checking formatting...', '[error] No files matching the pattern were found: "src/**/*.ts".', 'All matched files use Prettier code style!'), 'No files matching the pattern were found'],
];

describe('a refused operand named as a place or a pattern (session 55, fx18)', () => {
  it.each(ROWS)('%s', (_name, log, message) => {
    const f = top(log);
    expect([f?.class, f?.message.includes(message)]).toEqual(['ci-script', true]);
  });

  it('the place must be the operand itself, and the pointer the line right under the refusal', () => {
    const ruff = commandOf('ruff check --no-cache src tests');
    expect(refusedOperand(ruff, 'E902 No such file or directory (os error 2)', '--> src:1:1')).toBe('src');
    expect(refusedOperand(ruff, 'src:1:1: E902 No such file or directory (os error 2)')).toBe('src');
    // A file inside the operand (a broken link under src/) is not the operand.
    expect(refusedOperand(ruff, 'E902 No such file or directory (os error 2)', '--> src/gen/x.py:1:1')).toBeUndefined();
    // Without the pointer, the refusal names nothing of the command.
    expect(refusedOperand(ruff, 'E902 No such file or directory (os error 2)')).toBeUndefined();
    expect(refusedOperand(ruff, 'E902 No such file or directory (os error 2)', 'Found 1 error.')).toBeUndefined();
  });

  it('neighbours keep their classes', () => {
    // ruff's other IO error, and its findings: a linter's.
    expect(top(step('+ ruff check --no-cache src', 'E902 Permission denied (os error 13)', '--> src/a.py:1:1', '', 'Found 1 error.'))?.class).toBe('lint');
    expect(top(step('+ ruff check --no-cache src', 'src/a.py:1:8: F401 [*] `os` imported but unused', 'Found 1 error.'))?.class).toBe('lint');
    expect(top(step('+ ruff check --no-cache src', 'E902 No such file or directory (os error 2)', '--> src/gen/x.py:1:1', '', 'Found 1 error.'))?.class).not.toBe('ci-script');
  });
});
