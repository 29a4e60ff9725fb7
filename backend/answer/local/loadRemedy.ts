/**
 * What to do about a shared object the dynamic loader refused (core/finding/linkage.ts `load`; issue 25, session 48,
 * helper lk1). The loader runs after the build: a missing library is found or installed where the program runs, and a
 * symbol it cannot resolve is missing from the object that was built, which the linker let through (a shared object
 * may leave names undefined). Never "add it to the link line" alone, and never the linker's words for the loader.
 */
import type { Finding } from '../../../protocol/types.js';
import { escapeRegExp } from '../facts.js';
import { inlineCode, type LogSpan } from '../logtext.js';
import { at } from './findingText.js';
import { around } from './remedyShape.js';

/** A library file's name (`libchecksum.so`, `libz.so.1`, `checksum.node`). */
const LIBRARY_FILE = /\.(?:so(?:\.\d+)*|node|dylib|dll)$/;

/** The log line above the refusal that built `file` (`gcc -shared -o build/libchecksum.so ...`, `-o libx.so.1`), if the log shows one. */
export function builtAbove(stored: LogSpan | undefined, line: number, file: string): { line: number; output: string } | undefined {
  const base = file.slice(file.lastIndexOf('/') + 1);
  const out = new RegExp(String.raw`\s-o\s*(\S*?${escapeRegExp(base)})(?:\s|$)`);
  for (const l of around(stored, line, 200, 0).reverse()) {
    const m = out.exec(l.text.replace(/^\+ /, ' '));
    if (m) return { line: l.line, output: m[1] as string };
  }
  return undefined;
}

/** A package the log names for the library (`apt-get install libfoo1`, `Package libfoo1 is not installed`). */
function packageNamed(stored: LogSpan | undefined, line: number, file: string): { line: number; name: string } | undefined {
  const stem = file.replace(/^lib/, '').replace(/\.so.*$/, '').toLowerCase();
  if (stem.length < 2) return undefined;
  for (const l of around(stored, line, 200, 10)) {
    const m = /\b(?:apt(?:-get)? install|dnf install|yum install|apk add)(?: -y| --no-install-recommends| -q)*\s+((?:[\w.+-]+\s*)+)/.exec(l.text) ?? /\bPackage [`'‘"]?([\w.+-]+)['’"]? (?:is not installed|has no installation candidate)/.exec(l.text);
    const name = m?.[1]?.split(/\s+/).find((p) => p.toLowerCase().includes(stem));
    if (name) return { line: l.line, name };
  }
  return undefined;
}

/**
 * Java's native method that no loaded library defines (`UnsatisfiedLinkError: 'boolean checksum.Checksum.valid(java.lang.String)'`):
 * the method and the C function JNI looks for (`Java_checksum_Checksum_valid`; `_` in a name is written `_1`).
 */
export function jniFunctionOf(f: Finding): { method: string; jni: string } | undefined {
  if (f.tool !== 'java' || f.linkage?.stage !== 'load') return undefined;
  const m = /UnsatisfiedLinkError: '[\w.$<>[\]]+ ([\w.$]+)\.([\w$]+)\(/.exec(f.message);
  if (!m) return undefined;
  const part = (x: string): string => x.replace(/_/g, '_1').replace(/\$/g, '_00024');
  return { method: `${m[1] as string}.${m[2] as string}`, jni: `Java_${(m[1] as string).split('.').map(part).join('_')}_${part(m[2] as string)}` };
}

/** What a line that reached the loader's refusal did (the raise site's step and the source's fix). */
export function loadAct(f: Finding, m: string): string {
  const jni = jniFunctionOf(f);
  const searched = /UnsatisfiedLinkError: no \S+ in (java\.library\.path|system library path)/.exec(f.message);
  if (searched && f.linkage?.object) return `: that line loads the native library ${inlineCode(f.linkage.object)}, and Java found it in no directory of its ${inlineCode(searched[1] as string)} ${m}, so the fix is where that library is (or the path Java searches), not in the line`;
  if (jni) return `: that line called the native method ${inlineCode(jni.method)} ${m}, and no library Java had loaded defines the C function JNI looks for, ${inlineCode(jni.jni)}, so the fix is in the native library (that function's name, or loading the library that has it), not in the line`;
  return `: that line asked for native code and the dynamic loader refused the shared library ${m}, so the fix is in that library (where the loader looks for it, what it defines), not in the line`;
}

/** The steps for a loader's refusal: a library it could not find, or a symbol the loaded object lacks. */
export function loadSteps(f: Finding, stored: LogSpan | undefined, m: string): string[] {
  const object = f.linkage?.object;
  const missingFile = f.symbol !== undefined && LIBRARY_FILE.test(f.symbol) ? f.symbol : !f.symbol && object && /cannot open shared object file|No such file|in (?:java\.library\.path|system library path)/.test(f.message) ? object : undefined;
  if (missingFile) {
    const built = builtAbove(stored, f.message_line, missingFile);
    if (built) {
      const dir = built.output.includes('/') ? built.output.slice(0, built.output.lastIndexOf('/')) : '.';
      return [
        `The build made ${inlineCode(built.output)} ${at(built.line)}, but the loader does not look in ${inlineCode(dir)} ${m}: when the program runs, point the loader at it (${inlineCode(`LD_LIBRARY_PATH=${dir}`)} in the step that runs it), or link the program so it finds it beside itself (${inlineCode(`-Wl,-rpath,'$ORIGIN'`)}, CMake's \`BUILD_RPATH\`/\`INSTALL_RPATH\`), or install the library where the system looks (\`make install\`, then \`ldconfig\`).`,
      ];
    }
    const pkg = packageNamed(stored, f.message_line, missingFile);
    if (pkg) return [`The log names the package ${inlineCode(pkg.name)} ${at(pkg.line)} for ${inlineCode(missingFile)}: install it on the agent (or in the image the step runs in) ${m}.`];
    return [
      `${inlineCode(missingFile)} is neither built by this log nor found where ${f.tool === 'java' ? 'Java looks' : 'the loader looks'} ${m}: if the project builds it, build it before this step and point ${f.tool === 'java' ? 'Java' : 'the loader'} at its directory (${f.tool === 'java' ? "`-Djava.library.path=<dir>` for Java's `System.loadLibrary`" : '`LD_LIBRARY_PATH`, or an rpath in the program'}); if a system package provides it, install that package on the agent (\`apt-file search ${missingFile.slice(missingFile.lastIndexOf('/') + 1)}\` names it on Debian and Ubuntu). I can't tell from the log which of the two it is.`,
    ];
  }
  if (!f.symbol) return [];
  const obj = object ? inlineCode(object.slice(object.lastIndexOf('/') + 1)) : 'the shared object';
  const built = object ? builtAbove(stored, f.message_line, object) : undefined;
  // A Python extension or a Node addon takes its runtime's own names from the process, so it cannot be linked `--no-undefined`.
  const module = object !== undefined && /\.(?:cpython-|abi3\.|pypy)[\w.-]*so$|\.node$/.test(object);
  return [
    `${obj}${built ? `, built ${at(built.line)},` : ''} refers to ${inlineCode(f.symbol)} and nothing it was linked with defines it ${m}: a shared object may be linked while names in it are still unresolved, so the build let it through and the loader refused it. Call the name the code defines now (a function renamed in one file and not in its callers), or add the source or library that defines ${inlineCode(f.symbol)} to the shared object's link${module ? '' : `; linking it with ${inlineCode('-Wl,--no-undefined')} makes the build itself fail on such a name next time`}.`,
  ];
}
