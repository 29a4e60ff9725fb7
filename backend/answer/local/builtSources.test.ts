import type { Finding } from '../../../protocol/types.js';
import type { LogSpan } from '../logtext.js';
import { builtSources, builtSourcesStep } from './builtSources.js';

const span = (lines: string[]): LogSpan => ({ start_line: 1, end_line: lines.length, text: lines.join('\n') });
const finding = (over: Partial<Finding>): Finding => ({ class: 'test-error', message: 'x', message_line: 1, confidence: 'high', evidence: [1], ...over });

describe('builtSources: the files the log shows the build compiling', () => {
  it("reads a compiler's echoed command (not its -o, -I values) and CMake's progress lines, once each, above the failure only", () => {
    const log = span([
      '+ gcc --version',
      'gcc -O0 -g -Wall -I include -o test_stats tests/test_stats.c src/stats.c',
      '[ 25%] Building CXX object CMakeFiles/conf.dir/src/conf.cpp.o',
      '+ g++ -c -o src/x.o ./src/stats.c',
      'make: *** [Makefile:8: check] Floating point exception',
      'gcc -o late late.c',
    ]);
    expect(builtSources(log, 5).map((x) => [x.file, x.line])).toEqual([['tests/test_stats.c', 2], ['src/stats.c', 2], ['src/conf.cpp', 3]]);
  });
  it("a crash placed in no line lists them, the project's before the tests'; a compiler's own out-of-memory does not", () => {
    const log = span(['gcc -o test_stats tests/test_stats.c src/stats.c', './test_stats', 'make: *** [Makefile:8: check] Floating point exception']);
    const step = builtSourcesStep(log, finding({ message_line: 3 }));
    expect(step?.text).toMatch(/^\*\*The sources the build compiled\*\* .*: `src\/stats\.c` \[L1-L1\], `tests\/test_stats\.c` \[L1-L1\]\.$/);
    expect(builtSourcesStep(log, finding({ class: 'out-of-memory', tool: 'gcc', message_line: 3 }))).toBeUndefined();
    expect(builtSourcesStep(log, finding({ class: 'compile-error', message_line: 3 }))).toBeUndefined();
  });
  it("a link error over a missing symbol: where lld says it is used, and what was compiled; not a link error of another kind", () => {
    const log = span(['+ clang -c -o src/strings.o src/strings.cpp', 'ld.lld: error: undefined symbol: textutil::slug()', '>>> referenced by main.rs:6 (src/main.rs:6)', '>>> referenced by main.rs:6 (src/main.rs:6)']);
    const step = builtSourcesStep(log, finding({ class: 'link-error', message: 'ld.lld: error: undefined symbol: textutil::slug()', message_line: 2 }));
    expect(step?.text).toBe(
      '**Where to look:** The linker names where the symbol is used, `src/main.rs:6` [L3-L3]; the log compiles `src/strings.cpp` [L1-L1] for this link: if the symbol should come from one of them, compare the name, namespace and parameters it has there with the ones the linker names; if from a library, add that library to the link line.',
    );
    expect(builtSourcesStep(log, finding({ class: 'link-error', message: "region `FLASH' overflowed by 12 bytes", message_line: 2 }))).toBeUndefined();
  });
});
