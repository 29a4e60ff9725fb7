/**
 * The compiler a build driver ran (session 56, helper fx20; issue 25): make (ninja, cmake --build) is the step, and a
 * compile error is the compiler's. make echoes each recipe line before it runs it (GNU make manual 5.2 "Recipe
 * Echoing"), so the last compiler command above the error, naming the error's file when it names one, is the tool
 * that rejected the code (`gfortran -c src/main.f90 -o build/main.o`).
 */
import type { Finding } from '../../../protocol/types.js';

/** The build drivers whose own name a finding may carry for a compiler's error. */
const DRIVERS = new Set(['make', 'gmake', 'ninja', 'cmake', 'meson', 'scons', 'bmake']);
/** A compiler's command: its program (a path, a target prefix or a version suffix allowed) and an argument. */
const COMPILER = /^(?:\+ )?(?:\S*\/)?(?:[\w.-]+-)?(gfortran|ifort|ifx|flang(?:-new)?|nvfortran|gcc|g\+\+|clang\+\+|clang|cc|c\+\+|javac|rustc|kotlinc|scalac|ghc|ocamlfind ocamlopt|ocamlopt|ocamlc|fpc|gnatmake|nvcc|swiftc|dmd|ldc2|gdc)(?:-\d+(?:\.\d+)*)?\s+\S/;

/** The compiler make echoed above the finding's error, or undefined when the finding's tool is no build driver or none is echoed. */
export function compilerBehind(f: Finding, lineText: ((n: number) => string | undefined) | undefined): string | undefined {
  if (f.class !== 'compile-error' || !f.tool || !DRIVERS.has(f.tool) || !lineText) return undefined;
  const file = f.location?.file;
  let first: string | undefined;
  for (let n = f.message_line - 1; n >= Math.max(1, f.message_line - 40); n--) {
    const t = (lineText(n) ?? '').trim();
    const m = COMPILER.exec(t);
    if (!m) continue;
    // The command that compiled the error's file; else the nearest compiler command.
    if (file === undefined || t.split(/\s+/).some((w) => w === file || w.endsWith(`/${file}`) || file.endsWith(`/${w}`))) return m[1];
    first ??= m[1];
  }
  return first;
}
