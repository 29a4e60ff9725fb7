import { describe, expect, it } from '@jest/globals';
import { analyze } from '../log/analyze.js';
import type { Finding } from '../../protocol/types.js';

/**
 * Round 9's misses, opened for tuning (issue 25; docs/notes/analyzer.md, "Round 9 opened (helper
 * t9)"): each form on a made-up log of another project, with a counter-example.
 */
const top = (text: string): Finding | undefined => analyze(text)[0]?.finding;

describe('a C/C++ formatter or checker run by make prints compiler-shaped lines: lint, not the compiler', () => {
  it('clang-format --dry-run --Werror echoed by make', () => {
    const log = [
      '+ make style',
      'clang-format-15 --dry-run --Werror lib/ring.c lib/ring.h',
      'lib/ring.c:31:9: error: code should be clang-formatted [-Wclang-format-violations]',
      '    if(head==tail) {',
      '        ^',
      'make: *** [Makefile:21: style] Error 1',
      'Build step \'Execute shell\' marked build as failure',
    ].join('\n');
    const f = top(log);
    expect([f?.class, f?.tool, f?.location?.file, f?.location?.line]).toEqual(['lint', 'clang-format', 'lib/ring.c', 31]);
  });

  it('counter-example: the compiler echoed by make keeps its error a compile error', () => {
    const log = [
      '+ make',
      'cc -O2 -Wall -c -o lib/ring.o lib/ring.c',
      "lib/ring.c:31:9: error: 'tail' undeclared (first use in this function)",
      '    if(head==tail) {',
      '        ^',
      'make: *** [Makefile:9: lib/ring.o] Error 1',
    ].join('\n');
    expect(top(log)?.class).toBe('compile-error');
  });
});

describe("a linker's own name with a dot (`ld.lld: error:`) is a program, not a source file", () => {
  it('lld undefined symbol: link-error, the whole symbol', () => {
    const log = [
      '+ make',
      'clang++ -fuse-ld=lld -o tiler obj/main.o obj/grid.o',
      'ld.lld: error: undefined symbol: Grid::resize(int, int)',
      '>>> referenced by main.cpp',
      '>>>               obj/main.o:(main)',
      'clang++: error: linker command failed with exit code 1 (use -v to see invocation)',
      'make: *** [Makefile:12: tiler] Error 1',
    ].join('\n');
    const f = top(log);
    expect([f?.class, f?.tool, f?.symbol]).toEqual(['link-error', 'ld.lld', 'Grid::resize(int, int)']);
    expect(f?.message).toContain('undefined symbol: Grid::resize');
  });

  it('counter-example: a source file with no line that does not build stays a compile error', () => {
    const log = ['+ bison -Werror -o parse.c grammar.y', 'grammar.y: error: shift/reduce conflicts: 2 found, 0 expected', 'make: *** [Makefile:4: parse.c] Error 1'].join('\n');
    expect(top(log)?.class).toBe('compile-error');
  });
});
