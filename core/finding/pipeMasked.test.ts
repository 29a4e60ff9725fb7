import { maskedStageBefore } from './pipeMasked.js';
import { findingOf } from './index.js';

/** `lineText` over `lines` (1-based). */
const reader = (lines: string[]) => (n: number): string | undefined => lines[n - 1];

const build = (traced: string[], output: string[]): string[] => [
  '[Pipeline] stage',
  '[Pipeline] { (Build)',
  '[Pipeline] sh',
  ...traced,
  ...output,
  '[Pipeline] }',
  '[Pipeline] // stage',
  '[Pipeline] stage',
  '[Pipeline] { (Test)',
  '[Pipeline] sh',
  '+ ./build/app --self-test',
  'bash: line 1: ./build/app: No such file or directory',
];

describe('maskedStageBefore: an earlier stage whose failure a `| tee` hid', () => {
  it('finds the stage, its tee, its failure status and its first error', () => {
    const lines = build(['+ make all', '+ tee build.log'], ['cc -c -o build/a.o src/a.c', 'src/a.c:3:1: error: expected ‘;’', 'make: *** [Makefile:9: build/a.o] Error 1']);
    const s = maskedStageBefore(reader(lines), lines.length);
    expect(s).toMatchObject({ stage: 'Build', stageLine: 2, command: { line: 4, text: 'make all' }, tee: { line: 5, text: 'tee build.log' }, first: { line: 7 }, status: { line: 8 } });
  });

  it('finds none when the piped stage printed no failure, or the failing stage has no tee', () => {
    const clean = build(['+ make all', '+ tee build.log'], ['cc -c -o build/a.o src/a.c']);
    expect(maskedStageBefore(reader(clean), clean.length)).toBeUndefined();
    const noTee = build(['+ make all'], ['src/a.c:3:1: error: expected ‘;’', 'make: *** [Makefile:9: build/a.o] Error 1']);
    expect(maskedStageBefore(reader(noTee), noTee.length)).toBeUndefined();
    // The failing line in the piped stage itself: nothing earlier hid it.
    const same = build(['+ make all', '+ tee build.log'], ['make: *** [Makefile:9: build/a.o] Error 1']).slice(0, 8);
    expect(maskedStageBefore(reader(same), 7)).toBeUndefined();
  });
});

describe('findingOf: a later step that failed on what a stage hid by `| tee` should have made', () => {
  const piped = build(['+ make all', '+ tee build.log'], ['cc -c -o build/a.o src/a.c', "src/a.c:3:1: error: expected ';' before '}' token", 'make: *** [Makefile:9: build/a.o] Error 1']);
  const last = { start_line: piped.length, end_line: piped.length };

  it("is the stage's compile error, its place, and its evidence ends with the pipe and the later step", () => {
    // Before: class ci-script, message the shell's `./build/app: No such file or directory`.
    const f = findingOf(piped, last);
    expect(f).toMatchObject({ class: 'compile-error', message_line: 7, location: { file: 'src/a.c', line: 3 } });
    expect(f.evidence.slice(-3)).toEqual([8, 5, piped.length]);
  });

  it('stays the later step\'s when the stage had no tee, or printed no failure', () => {
    const noTee = build(['+ make all'], ["src/a.c:3:1: error: expected ';' before '}' token", 'make: *** [Makefile:9: build/a.o] Error 1']);
    expect(findingOf(noTee, { start_line: noTee.length, end_line: noTee.length }).message_line).toBe(noTee.length);
    const clean = build(['+ make all', '+ tee build.log'], ['cc -c -o build/a.o src/a.c']);
    expect(findingOf(clean, { start_line: clean.length, end_line: clean.length }).message_line).toBe(clean.length);
  });
});
