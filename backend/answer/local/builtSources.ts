/**
 * The source files the log shows the build compiling before its failure (helper fx2, issue 25
 * deliverable 3): a crash, a failing test program or an exhausted allocation the log places in no
 * line, and a link that could not resolve or duplicated a symbol, leave the fix in one of the
 * files the build compiled. The compiler's echoed command (`gcc -o test_stats tests/test_stats.c
 * src/stats.c`, `+ g++ -c -o src/main.o src/main.cpp`) and CMake's progress line (`Building CXX object
 * CMakeFiles/conf.dir/src/conf.cpp.o`) name them; the answer lists them with the lines that do.
 * Read from the log only: nothing is said of a file the log does not name.
 */
import type { Finding } from '../../../protocol/types.js';
import { inlineCode, linesOf, withoutStamp, type LogSpan } from '../logtext.js';
import { at } from './findingText.js';
import { around } from './remedyShape.js';

/** A C-family or native compiler driver (also behind a `+ ` trace or a path), not its `--version` call. */
const DRIVER = /^(?:\+ )?(?:\S*\/)?(?:cc|gcc|g\+\+|c\+\+|clang(?:\+\+)?|[\w-]+-(?:gcc|g\+\+)|gfortran|nvcc|icx|icpx)(?:-[\d.]+)?\s/;
const SOURCE = /^[\w./+-]+\.(?:c|cc|cpp|cxx|c\+\+|m|mm|f|f90|f95|cu)$/;
/** CMake's (make or ninja generator) progress line: `[ 25%] Building CXX object CMakeFiles/conf.dir/src/conf.cpp.o`. */
const CMAKE_OBJECT = /Building (?:C|CXX|CUDA|Fortran|OBJC|OBJCXX) object (?:\S*?CMakeFiles\/[^/\s]+\.dir\/)?(\S+?)\.(?:o|obj)\s*$/;
/** Options whose next word is not an input (`-o out`, `-I dir`, `-MF deps`). */
const TAKES_VALUE = new Set(['-o', '-I', '-L', '-l', '-D', '-U', '-include', '-isystem', '-MF', '-MT', '-MQ', '-x', '-T']);

export interface BuiltSource {
  file: string;
  /** The log line that names it. */
  line: number;
}

/** The sources compiled above log line `before` (at most 400 lines back), in the log's order, each once. */
export function builtSources(stored: LogSpan | undefined, before: number): BuiltSource[] {
  if (!stored) return [];
  const from = Math.max(stored.start_line, before - 400);
  const span = linesOf(stored, from, Math.min(before, stored.end_line));
  if (!span) return [];
  const out: BuiltSource[] = [];
  const add = (file: string, line: number): void => {
    const f = file.replace(/^\.\//, '');
    if (!out.some((x) => x.file === f) && !/^\/(?:usr|opt|lib)\//.test(f)) out.push({ file: f, line });
  };
  span.text.split('\n').forEach((raw, i) => {
    const t = withoutStamp(raw).trim();
    const line = span.start_line + i;
    const cmake = CMAKE_OBJECT.exec(t);
    if (cmake) return add(cmake[1] as string, line);
    if (!DRIVER.test(t)) return;
    const words = t.replace(/^\+ /, '').split(/\s+/);
    words.forEach((w, k) => {
      if (k > 0 && !TAKES_VALUE.has(words[k - 1] as string) && SOURCE.test(w)) add(w, line);
    });
  });
  return out;
}

/** A file the build compiled is a test's (`tests/x.c`, `test_x.c`, `x_test.cpp`): listed after the others. */
const TESTISH = /(?:^|\/)(?:tests?|t)\/|(?:^|\/)test_|_test\.\w+$|_tests?\.\w+$/;

/** The list as the answer shows it: the project's sources before the tests', at most `max`, with how many more. */
export function builtSourcesOrdered(found: readonly BuiltSource[], max = 8): { shown: BuiltSource[]; more: number } {
  const ordered = [...found.filter((x) => !TESTISH.test(x.file)), ...found.filter((x) => TESTISH.test(x.file))];
  return { shown: ordered.slice(0, max), more: Math.max(0, ordered.length - max) };
}

/** Classes whose fix is in the code the build compiled when the log places the failure in no line. */
const RAN_CLASSES = new Set(['test-error', 'test-assertion', 'runtime-exception', 'out-of-memory', 'timeout-aborted']);
/** A compiler or linker that ran out of memory itself: the program the build made never ran. */
const BUILD_TOOL = /^(?:gcc|g\+\+|cc1(?:plus)?|clang(?:\+\+)?|c\+\+|ld|as|rustc|javac|kotlinc|tsc|cargo|make|cmake|ninja)$/;
/** lld's pointer under an undefined symbol: `>>> referenced by main.rs:6 (src/main.rs:6)`, `>>> referenced by main.cpp`. */
const REFERENCED_BY = /^>>> referenced by (\S+?)(?: \(([^()\s]+)\))?\s*$/;
const UNDEFINED = /undefined (?:reference|symbol)|unresolved external/i;
const DUPLICATE = /multiple definition|duplicate symbol/i;

/**
 * The step an answer shows: for a link error over a missing or duplicated symbol, where lld says the
 * symbol is used and the files the log compiled for the link; for a crash, a test program or a hang
 * placed in no line, the files the build compiled. Undefined when the log names none.
 */
export function builtSourcesStep(stored: LogSpan | undefined, f: Finding): { text: string; lines: number[] } | undefined {
  const link = f.class === 'link-error' && (UNDEFINED.test(f.message) || DUPLICATE.test(f.message));
  if (!link && !(RAN_CLASSES.has(f.class) && !(f.class === 'out-of-memory' && BUILD_TOOL.test(f.tool ?? '')))) return undefined;
  const { shown, more } = builtSourcesOrdered(builtSources(stored, f.message_line));
  const list = `${shown.map((x) => `${inlineCode(x.file)} ${at(x.line)}`).join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
  if (link) {
    const refs: { line: number; place: string }[] = [];
    for (const l of around(stored, f.message_line, 0, 8)) {
      const m = REFERENCED_BY.exec(l.text.trim());
      const place = m ? ((m[2] ?? m[1]) as string) : undefined;
      if (place && !refs.some((r) => r.place === place) && refs.length < 3) refs.push({ line: l.line, place });
    }
    if (shown.length === 0 && refs.length === 0) return undefined;
    const used = refs.length > 0 ? `The linker names where the symbol is used, ${refs.map((r) => `${inlineCode(r.place)} ${at(r.line)}`).join(', ')}${shown.length > 0 ? '; ' : '.'}` : '';
    const what = DUPLICATE.test(f.message) ? 'the definitions it found twice come from these (or a header they include), so keep one' : 'if the symbol should come from one of them, compare the name, namespace and parameters it has there with the ones the linker names; if from a library, add that library to the link line';
    const built = shown.length > 0 ? `${used ? 'the' : 'The'} log compiles ${list} for this link: ${what}.` : '';
    return { text: `**Where to look:** ${used}${built}`, lines: [...refs.map((r) => r.line), ...shown.map((x) => x.line)] };
  }
  if (shown.length === 0) return undefined;
  return {
    text: `**The sources the build compiled** (the log names no line of the failure, so look in these, and at the input the program was given): ${list}.`,
    lines: shown.map((x) => x.line),
  };
}
