/**
 * Which of the two refused native code (issue 25, session 48, helper lk1): the static linker, when the build put the
 * program or library together (GNU ld, gold, lld, rust-lld, Go's linker: `undefined reference to`, `undefined symbol:`
 * under `ld.lld: error:`, `cannot find -lfoo`, `multiple definition of`, `relocation ... against`, `DSO missing from
 * command line`), or the dynamic loader, when a program or a runtime loaded a shared object that was built already
 * (`error while loading shared libraries`, `symbol lookup error`, dlopen's `x.so: undefined symbol: y` as Python's ctypes
 * and import, Node's process.dlopen and Erlang's load_nif report it, Java's `UnsatisfiedLinkError`). The two read alike
 * (`undefined symbol: x`) and need different fixes: a loader's refusal happens after the build passed, in whatever
 * loaded the object, so the linker (`ld`) never saw the missing name. Read from the finding's message and the lines
 * around it, as real tools print them (test/fixtures/linkload, made by its make.sh).
 */
import type { Finding, Linkage } from '../../protocol/types.js';
import { lineBody } from './body.js';

/** A shared object's path as dlerror prints it (`/ws/libcheck.so`, `x.cpython-311-x86_64-linux-gnu.so`, `addon.node`, `libz.so.1`). */
const SHARED = String.raw`[^\s:'"]+?\.(?:so(?:\.\d+)*|node|dylib|bundle)`;

interface LoadReading {
  /** The program or runtime that reported the loader's refusal (`ld.so` when the loader printed it itself). */
  tool: string;
  /** The shared object or module being loaded (or the program whose libraries were loaded). */
  object?: string;
  /** The symbol the loader did not find, or the file it could not open. */
  symbol?: string;
}

/** The loader's own words and the runtimes' reports of them, most specific first. */
const LOADS: { re: RegExp; read: (m: RegExpExecArray) => LoadReading }[] = [
  // glibc's loader starting a program: `build/app: error while loading shared libraries: libx.so.1: cannot open shared object file`.
  { re: /^(?:\S+: )?(\S+): error while loading shared libraries: ([^\s:]+): (?:cannot open shared object file|.*)/, read: (m) => ({ tool: 'ld.so', object: m[1] as string, symbol: m[2] as string }) },
  // glibc's loader binding a function lazily: `build/app: symbol lookup error: build/libchecksum.so: undefined symbol: scale_of`.
  { re: /^(?:\S+: )?\S+: symbol lookup error: (\S+?): undefined symbol: (\S+?)(?:,|\s|$)/, read: (m) => ({ tool: 'ld.so', object: m[1] as string, symbol: m[2] as string }) },
  // Python: ctypes' CDLL (`OSError`) and a C extension's import (`ImportError`), dlerror's text as their message.
  { re: new RegExp(String.raw`\b(?:OSError|ImportError): (${SHARED}): undefined symbol: (\S+)`), read: (m) => ({ tool: 'python', object: m[1] as string, symbol: m[2] as string }) },
  // Python importing a C extension whose module init function the shared object does not export (built under another name).
  { re: /\bImportError: dynamic module does not define module export function \((PyInit_\w+)\)/, read: (m) => ({ tool: 'python', symbol: m[1] as string }) },
  // Python naming a library the object needs (`ImportError: libfoo.so.1: cannot open shared object file`), before a path's reading.
  { re: /\b(?:OSError|ImportError): ([^\s:/]+\.so[.\d]*): cannot open shared object file/, read: (m) => ({ tool: 'python', symbol: m[1] as string }) },
  { re: new RegExp(String.raw`\b(?:OSError|ImportError): (${SHARED}): cannot open shared object file`), read: (m) => ({ tool: 'python', object: m[1] as string }) },
  // Java: System.loadLibrary's search, a native method no loaded library defines, System.load's dlerror.
  { re: /\bUnsatisfiedLinkError: no (\S+) in (?:java\.library\.path|system library path)/, read: (m) => ({ tool: 'java', object: `lib${m[1] as string}.so` }) },
  { re: new RegExp(String.raw`\bUnsatisfiedLinkError: (?:Can't load library: )?(${SHARED})(?:: (?:.*?undefined symbol: (\S+)|.*))?`), read: (m) => ({ tool: 'java', object: m[1] as string, ...(m[2] ? { symbol: m[2] } : {}) }) },
  { re: /\bUnsatisfiedLinkError: '([^']+)'/, read: (m) => ({ tool: 'java', symbol: m[1] as string }) },
  // Erlang: erlang:load_nif's `{error,{load_failed,"Failed to load NIF library: './priv/x.so: cannot open shared object file...'"}}`.
  { re: new RegExp(String.raw`\{load_failed,\s*"Failed to load NIF library:? '?(${SHARED})?`), read: (m) => ({ tool: 'erlang', ...(m[1] ? { object: m[1] } : {}) }) },
  // Node: process.dlopen (an addon's `require`): `Error: /ws/build/addon.node: undefined symbol: x`.
  { re: new RegExp(String.raw`^(?:Uncaught )?Error: (${SHARED}): undefined symbol: (\S+)`), read: (m) => ({ tool: 'node', object: m[1] as string, symbol: m[2] as string }) },
  { re: new RegExp(String.raw`^(?:Uncaught )?Error: (${SHARED}): cannot open shared object file`), read: (m) => ({ tool: 'node', object: m[1] as string }) },
  // dlerror's words in any other runtime's report: a path, then `undefined symbol:` (no linker's name before it).
  { re: new RegExp(String.raw`(?:^|[\s'"(])(${SHARED}): undefined symbol: (\S+?)['")]?$`), read: (m) => ({ tool: 'dlopen', object: m[1] as string, symbol: m[2] as string }) },
];

/** A static linker's own line (its program name as it prints it). */
const LINKER_LINE = /^(?:\s*=\s*note:\s*)?(?:\S*\/)?((?:ld(?:\.(?:bfd|gold|lld))?|ld64\.lld|lld|rust-lld|mold|gold|wasm-ld))(?:\.exe)?: /;

/** A compiler driver's or rustc's own temporary object (`/tmp/ccRlwOCw.o`, `x.rcgu.o`, `/tmp/go-link-1/000002.o`): no file of the project. */
const TEMPORARY = /^\/tmp\/|\.rcgu\.o$/;

/** The object or archive a linker names for the reference (`/usr/bin/ld: build/checksum.o: in function`, lld's `>>> x.o:(fn)`). */
function linkedObject(lines: readonly string[], at: number): string | undefined {
  for (let i = at; i >= Math.max(0, at - 3); i--) {
    const t = (lines[i] ?? '').trim();
    const m = /^(?:\S*\/)?ld(?:\.\w+)?: ([^\s:]+\.(?:o|a|so|obj|lo))(?:\([^)]*\))?:? (?:in function|undefined reference|\(\.)/.exec(t) ?? /^(?:\S*\/)?ld(?:\.\w+)?: ([^\s:]+\.(?:o|a|obj|lo))(?:\([^)]*\))?:\(/.exec(t);
    if (m && !TEMPORARY.test(m[1] as string)) return m[1];
  }
  for (let i = at + 1; i <= Math.min(lines.length - 1, at + 3); i++) {
    const m = /^\s*>>>\s+([^\s:()]+\.(?:o|a|obj|lo))(?:\([^)]*\))?:\(/.exec(lines[i] ?? '');
    if (m && !TEMPORARY.test(m[1] as string)) return m[1];
  }
  return undefined;
}

/** gold's undefined reference (`/tmp/cc.o:checksum.c:function checksum_ok: error: undefined reference to 'x'`). */
const GOLD = /^\S+:[^\s:]+:function \S+: error: undefined reference to /;

/**
 * Java's native method that no loaded library defines (`UnsatisfiedLinkError: 'long dev.acme.Native.fnv1a(byte[])'`):
 * the method and the C function JNI looks up for it (`Java_dev_acme_Native_fnv1a`; `_` in a name is written `_1`).
 */
export function jniFunctionOf(message: string): { method: string; jni: string } | undefined {
  const m = /UnsatisfiedLinkError: '[\w.$<>[\]]+ ([\w.$]+)\.([\w$]+)\(/.exec(message);
  if (!m) return undefined;
  const part = (x: string): string => x.replace(/_/g, '_1').replace(/\$/g, '_00024');
  return { method: `${m[1] as string}.${m[2] as string}`, jni: `Java_${(m[1] as string).split('.').map(part).join('_')}_${part(m[2] as string)}` };
}

/** The loader's refusal the finding's message (or its line) reports, if it is one. */
export function loadReading(text: string): LoadReading | undefined {
  for (const { re, read } of LOADS) {
    const m = re.exec(text.trim());
    if (m) return read(m);
  }
  return undefined;
}

/**
 * The JVM's errors of resolving a symbolic reference of loaded code (JVMS 5.4.3; JLS 12.3): IncompatibleClassChangeError
 * and its subclasses NoSuchMethodError, NoSuchFieldError, AbstractMethodError, IllegalAccessError and InstantiationError,
 * all LinkageErrors. The class was found; its shape (a member, its type, static or not, its access, class or interface)
 * is not the one the calling code was compiled against. The lead's decision of session 56: these are `link-error`.
 * NoClassDefFoundError (no class found at all) is read by JVM_MISSING_CLASS below; ClassNotFoundException alone is not read.
 */
/** The simple names of those errors: one list, for the finding (JVM_RESOLVE) and the answers (backend/answer/local/jvmResolve.ts). */
export const JVM_RESOLVE_NAMES = ['IncompatibleClassChangeError', 'NoSuchMethodError', 'NoSuchFieldError', 'AbstractMethodError', 'IllegalAccessError', 'InstantiationError'] as const;
const JVM_RESOLVE = new RegExp(`(?:^|[\\s"'(:])java\\.lang\\.(${JVM_RESOLVE_NAMES.join('|')})(?::\\s|$)`);
/** The Jenkins Pipeline's script sandbox speaks of a DSL step with NoSuchMethodError's name: the script's error, no linkage. */
const PIPELINE_DSL = /NoSuchMethodError: No such DSL method/;
/** The JVM linkage error a line names (its simple name), if it names one. */
export function jvmResolveError(text: string): string | undefined {
  return PIPELINE_DSL.test(text) ? undefined : JVM_RESOLVE.exec(text)?.[1];
}

/**
 * The JVM's `NoClassDefFoundError: a/b/C` (JVMS 5.4.3.1: resolving the class failed, a LinkageError): the class the code
 * was compiled against is not on the run-time classpath. Not its `Could not initialize class X` (a static initializer
 * failed earlier: the class was found, its ExceptionInInitializerError is the cause), and not ClassNotFoundException
 * alone (reflection, Class.forName, a ServiceLoader: no compiled reference). The lead's decision of session 56.
 */
const JVM_MISSING_CLASS = /(?:^|[\s"'(:])java\.lang\.NoClassDefFoundError: (?!Could not initialize class\b)L?([\w$]+(?:[/.][\w$]+)*);?(?:\s|$)/;
/** The class a line's NoClassDefFoundError names, in dotted form (`dev.notes.common.Slugs`), if it names one. */
export function jvmMissingClass(text: string): string | undefined {
  return JVM_MISSING_CLASS.exec(text)?.[1]?.replace(/\//g, '.');
}

/**
 * A runtime exception or a test's error that is the JVM refusing to link loaded code: its message names one of
 * JVM_RESOLVE's errors (the JVM readers take the deepest `Caused by:` of a trace as the message, core/finding/tests.ts,
 * so a chain's cause is read too): `link-error`, with linkage `resolve` (the JVM, at run time, found the class and its
 * shape differs; no linker ran); or the JVM's NoClassDefFoundError of a class it could not find (JVM_MISSING_CLASS):
 * `link-error`, linkage `missing-class`, its `object` the class in dotted form. Read before calibration, so that it
 * judges the class said.
 */
export function withJvmResolve(lines: readonly string[], f: Finding): Finding {
  if (f.class !== 'runtime-exception' && f.class !== 'test-error') return f;
  const line = lineBody(lines, f.message_line - 1);
  if (jvmResolveError(f.message) ?? jvmResolveError(line)) return { ...f, class: 'link-error', linkage: { stage: 'resolve' } };
  const missing = jvmMissingClass(f.message) ?? jvmMissingClass(line);
  return missing ? { ...f, class: 'link-error', linkage: { stage: 'missing-class', object: missing } } : f;
}

const LINKING_CLASSES = new Set(['link-error', 'missing-tool', 'runtime-exception', 'test-error', 'compile-error', 'unknown']);

/**
 * The finding with `linkage` set when it is a linker's or a loader's refusal: a loader's is `load` with the program or
 * runtime that reported it as the tool (never `ld`), the object it was loading and the symbol or file it lacked; a
 * linker's is `link`, its tool the linker that printed it.
 */
export function withLinkage(lines: readonly string[], f: Finding): Finding {
  if (!LINKING_CLASSES.has(f.class) || f.linkage?.stage === 'resolve' || f.linkage?.stage === 'missing-class') return f;
  const line = lines[f.message_line - 1] ?? '';
  const load = loadReading(f.message) ?? loadReading(line);
  if (load) {
    const symbol = load.symbol ?? f.symbol;
    // The runtime's own report names its tool already (`python` for a traceback); the loader's reading only replaces a linker's name.
    const tool = f.class === 'link-error' || f.tool === undefined || f.tool === 'sh' || /^(?:\S*\/)?(?:ld|ld\.\w+|lld)$/.test(f.tool) ? load.tool : f.tool;
    const linkage: Linkage = { stage: 'load', ...(load.object ? { object: load.object } : {}) };
    // A runtime's own verdict that native code did not link (rounds 22 and 24 label these link-error), whatever read the
    // exception first: Java's UnsatisfiedLinkError (a LinkageError: System.loadLibrary found no library, or a native
    // method JNI could not bind, its symbol the C function JNI looked up), and Python's import of an extension that
    // exports no `PyInit_<module>`. A library missing for glibc's loader at a program's start stays missing-tool.
    if (f.class === 'runtime-exception' || f.class === 'test-error') {
      const jni = load.tool === 'java' ? jniFunctionOf(f.message) : undefined;
      const init = load.tool === 'python' && load.symbol?.startsWith('PyInit_') ? load.symbol : undefined;
      if (load.tool === 'java' || init) return { ...f, class: 'link-error', tool, ...(jni ? { symbol: jni.jni } : init ? { symbol: init } : {}), linkage };
    }
    return { ...f, tool, ...(symbol && f.class !== 'runtime-exception' && f.class !== 'test-error' ? { symbol } : {}), linkage };
  }
  if (f.class !== 'link-error') return f;
  const object = linkedObject(lines, f.message_line - 1);
  const said = LINKER_LINE.exec(line)?.[1];
  const tool = GOLD.test(line.trim()) ? 'gold' : said && said !== 'ld' ? said : f.tool;
  const symbol = f.symbol?.startsWith('-l') ? f.symbol.replace(/[:,.]+$/, '') : f.symbol;
  return { ...f, ...(tool ? { tool } : {}), ...(symbol ? { symbol } : {}), linkage: { stage: 'link', ...(object ? { object } : {}) } };
}
