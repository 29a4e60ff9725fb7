/**
 * CMake's call stack as the place (issue 25; docs/notes/analyzer.md, "Before round 11 (helper t12)"): an error
 * raised inside one of CMake's own modules (`CMake Error at /usr/share/cmake-3.25/Modules/FetchContent.cmake:1616
 * (message):`, a FetchContent clone that failed) is followed by `Call Stack (most recent call first):` and one
 * `  file:line (command)` row per call; the first row in the project's own files (a relative path, not CMake's
 * `Modules/`) is the project's line that made the call (`CMakeLists.txt:8 (FetchContent_MakeAvailable)`).
 */
import type { Finding } from '../../protocol/types.js';

type BodyAt = (i: number) => string;

const STACK = /^Call Stack \(most recent call first\):$/;
const ROW = /^\s+(\S+?):(\d+)(?::EVAL:\d+)? \((\w+)\)$/;
/** CMake's own modules and the build tree's generated scripts: not the project's place. */
const NOT_OWN = /^\/|(?:^|\/)Modules\/|(?:^|\/)CMakeFiles\/|-subbuild\//;
/** How far below the message the call stack is looked for. */
const REACH = 20;

/** The finding with the project's row of CMake's call stack as its place, when it has none or one in CMake's modules. */
export function withCmakeStack(found: Finding, lines: readonly string[], bodyAt: BodyAt): Finding {
  if (found.location !== undefined && !NOT_OWN.test(found.location.file)) return found;
  if (found.class === 'unknown') return found;
  const at = found.message_line - 1;
  for (let k = at; k < Math.min(lines.length, at + REACH); k++) {
    const text = bodyAt(k);
    if (/^(?:\+ |\$ )/.test(text.trim())) return found;
    if (!STACK.test(text.trim())) continue;
    for (let j = k + 1; j < Math.min(lines.length, k + 12); j++) {
      const row = ROW.exec(bodyAt(j));
      if (!row) break;
      if (NOT_OWN.test(row[1] as string)) continue;
      return { ...found, location: { file: row[1] as string, line: Number(row[2]), log_line: j + 1 }, evidence: [...found.evidence, j + 1] };
    }
    return found;
  }
  return found;
}
