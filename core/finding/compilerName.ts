/**
 * gcc and clang print their diagnostics in the same form (`file:line:col: error: ...`, and clang's
 * `-fdiagnostics-format=msvc` as `file(line,col): error: ...`): which of them it was is said around the error.
 * clang ends its report with `N errors generated.` (`1 warning and 1 error generated.`); a build tool echoes
 * the compiler's command (make's recipe, ninja's `FAILED:` line's command, `+ clang ...` under `bash -x`).
 */

/** clang's summary line of a translation unit. */
const CLANG_SUMMARY = /^\d+ (?:warnings? and \d+ )?errors? generated\.$/;
/** A compiler command: its program, with a path or a version suffix (`/usr/bin/clang-14`, `gcc-12`, `x86_64-linux-gnu-gcc`). */
const COMPILER_COMMAND = /^(?:\+ )?(?:\S*\/)?(?:[\w.-]+-)?(clang\+\+|clang|gcc|g\+\+)(?:-\d+(?:\.\d+)*)?\s+\S/;

/**
 * `clang` or `gcc` for the C-family error at 0-based line `at`, from the lines around it (`bodyAt(k)` is line k
 * without CI marks); undefined when they do not say (`cc`, `c++`, an IDE's list).
 */
export function cFamilyCompiler(at: number, count: number, bodyAt: (k: number) => string): 'clang' | 'gcc' | undefined {
  for (let k = at + 1; k < Math.min(count, at + 40); k++) {
    const t = bodyAt(k).trim();
    if (CLANG_SUMMARY.test(t)) return 'clang';
    if (COMPILER_COMMAND.test(t)) break;
  }
  for (let k = at - 1; k >= Math.max(0, at - 40); k--) {
    const m = COMPILER_COMMAND.exec(bodyAt(k).trim());
    if (m) return (m[1] as string).startsWith('clang') ? 'clang' : 'gcc';
  }
  return undefined;
}
