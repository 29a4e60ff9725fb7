import { describe, expect, it } from '@jest/globals';
import { analyze } from '../../test/helpers/rulesReading.js';
import type { Finding } from '../../protocol/types.js';

/**
 * The finding's `refused` (session 56, helper rv9; docs/notes/house.md "Review leftovers, session 56"): the one reader
 * of "the operand of the step's command that a tool refused" (refused.ts `refusalOf`) puts it on the finding, whatever
 * the class, and the answer's change block (backend/answer/local/changeDiff.ts) reads it from there. Each tool's lines
 * as it prints them (GNU cp and tar, ruff 0.16.9, go 1.19, pytest, git).
 */
const top = (log: string): Finding | undefined => analyze(log)[0]?.finding;
const step = (...lines: string[]): string => ['Started by user ci', '[Pipeline] sh', ...lines, '[Pipeline] }', 'ERROR: script returned exit code 1', 'Finished: FAILURE', ''].join('\n');

describe("the operand a tool refused, on the finding", () => {
  it('quoted by cp: the operand, absent, its line and the command line', () => {
    const f = top(step('+ cp config/app.json build/', "cp: cannot stat 'config/app.json': No such file or directory"));
    expect(f?.refused).toEqual({ operand: 'config/app.json', path: 'config/app.json', absent: true, log_line: 4, end_line: 4, command_line: 3 });
  });

  it('named as a word by tar (`tar: public: Cannot stat`): carried, though no class rests on a bare word', () => {
    const f = top(step('+ tar czf site.tgz public', 'tar: public: Cannot stat: No such file or directory', 'tar: Exiting with failure status due to previous errors'));
    expect(f?.refused).toMatchObject({ operand: 'public', path: 'public', absent: true, log_line: 4, end_line: 4 });
  });

  it("go's `./x/...` pattern is carried as its path (`x`)", () => {
    const f = top(step('+ go test ./internal/labels/...', 'pattern ./internal/labels/...: lstat ./internal/labels/: no such file or directory'));
    expect(f?.refused).toMatchObject({ operand: './internal/labels/...', path: 'internal/labels', absent: true, log_line: 4 });
  });

  it("ruff's refusal named only on the `-->` pointer under it spans both lines", () => {
    const f = top(step('+ ruff check --no-cache src tests', 'E902 No such file or directory (os error 2)', '--> src:1:1', '', 'Found 1 error.'));
    expect(f?.refused).toMatchObject({ operand: 'src', path: 'src', absent: true, log_line: 4, end_line: 5, command_line: 3 });
  });

  it('a refusal that is not "not there" (exists already) is carried as not absent', () => {
    const f = top(step('+ git worktree add ../hotfix', "fatal: '../hotfix' already exists"));
    expect(f?.refused).toMatchObject({ operand: '../hotfix', absent: false });
  });

  it('a fetch (`pip install x`), or a line that names no operand of the command: none', () => {
    expect(top(step('+ pip install nosuchpkg-xyz', 'ERROR: No matching distribution found for nosuchpkg-xyz'))?.refused).toBeUndefined();
    expect(top(step('+ make all', 'gcc: error: main.c: No such file or directory'))?.refused).toBeUndefined();
  });
});
