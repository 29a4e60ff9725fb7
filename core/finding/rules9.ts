/**
 * Evidence rules from round 9 once it was opened for tuning (issue 25, helper t9; docs/notes/analyzer.md,
 * "Round 9 opened (helper t9)"). Each is a tool's own wording for one cause, never a case's words:
 * a linker's relocation that needs position-independent code, a toolchain older than a package's
 * minimum, a compiler a build configurator was told to use and cannot find, a preset a configurator
 * does not define, a vendor directory that disagrees with its module file, a build tool that could
 * not start a program it runs. Tried with RULES (rules.ts).
 */
import type { Rule } from './ruleTypes.js';

export const ROUND9_RULES: Rule[] = [
  // Surefire's verdict on a forked test JVM that died (`The forked VM terminated without properly saying goodbye.
  // VM crash or System.exit called?`) says why only in its exit code a few lines below: 137 (SIGKILL, the kernel's
  // OOM killer or a container's memory limit) is out of memory (helper t10). Any other code stays unexplained.
  {
    cls: 'out-of-memory',
    priority: 19,
    confidence: 'high',
    re: /The forked VM terminated without properly saying goodbye\b/,
    below: /Process Exit Code: 137\b/,
    read: () => ({ tool: 'surefire', exception: 'killed' }),
  },
  // GNU ld, gold and lld on an object built without -fPIC linked into a shared object or a PIE
  // (`/usr/bin/ld: lib.a(x.o): relocation R_X86_64_PC32 against symbol `s' can not be used when making
  // a shared object; recompile with -fPIC`); the linker's `warning: relocation against` line is not it.
  {
    cls: 'link-error',
    priority: 32,
    confidence: 'high',
    re: /^(?:\S*\/)?(?:ld|ld\.\w+|lld)(?:\.exe)?: (?!warning)(?:error: )?.*\brelocation \S+ against .*\b(?:can ?not|cannot) be used when making an? (?:shared object|PIE object|PDE object)|^(?:\S*\/)?(?:ld\.lld|lld): error: relocation \S+ cannot be used against .*; recompile with -fPIC/,
    read: (m) => ({ tool: /^(?:\S*\/)?(ld\.\w+|lld)/.exec(m[0])?.[1] ?? 'ld' }),
  },
  // cargo refusing a package whose `rust-version` is newer than the toolchain (`error: rustc 1.75.0 is
  // not supported by the following package:` over `x@1.2.0 requires rustc 1.80`; older cargo: `package
  // `x` cannot be built because it requires rustc 1.80 or newer`): the tool's version is wrong.
  { cls: 'missing-tool', priority: 44, confidence: 'high', re: /^error: rustc \S+ is not supported by the following packages?:|^error: package [`'‘][^'’`]+['’`] cannot be built because it requires rustc \S+ or newer/, read: () => ({ tool: 'cargo' }) },
  // CMake told to use a compiler it cannot find (`Could not find compiler set in environment variable
  // CXX:`, `The CMAKE_C_COMPILER: x is not a full path and was not found in the PATH.`, `No CMAKE_CXX_COMPILER
  // could be found.`): the tool is missing, whatever the language.
  { cls: 'missing-tool', priority: 44, confidence: 'high', re: /^\s*Could not find compiler set in environment variable \w+:|^\s*The CMAKE_\w+_COMPILER:\s*$|^\s*The CMAKE_\w+_COMPILER:\s+\S+\s+is not a full path and was not found in the PATH|^\s*No CMAKE_\w+_COMPILER could be found\./, read: () => ({ tool: 'cmake' }) },
  // A configurator asked for a preset its presets file does not define (`CMake Error: No such preset in
  // DIR: "x"`, `Could not read presets from DIR`): the CI script and the project disagree.
  { cls: 'ci-script', priority: 44, confidence: 'high', re: /^CMake Error: (?:No such (?:build |test |package |workflow )?preset in \S+: "([^"]+)"|Could not read presets from )/, read: (m) => ({ tool: 'cmake', ...(m[1] ? { symbol: m[1] } : {}) }) },
  // go's module mode on a vendor directory that disagrees with go.mod (`go: inconsistent vendoring in
  // DIR:`): the module's dependencies, as vendored, are not the ones it requires.
  { cls: 'dependency-resolution', priority: 45, confidence: 'high', re: /^go: inconsistent vendoring in /, read: () => ({ tool: 'go' }) },
  // Gradle's Exec task or plugin that could not start its program (`> A problem occurred starting process
  // 'command 'protoc''`): the program is not installed or not on the PATH of the build.
  { cls: 'missing-tool', priority: 46, confidence: 'medium', re: /^(?:> )?A problem occurred starting process 'command '([^']+)''/, read: (m) => ({ tool: 'gradle', symbol: m[1] as string }) },
  // CMake's install or file() refused by the file system (`file cannot create directory: /etc/x.  Maybe need
  // administrative privileges.`, `file INSTALL cannot copy file ... Permission denied`): the build user's rights.
  { cls: 'permission-credentials', priority: 40, confidence: 'high', re: /^\s*file (?:INSTALL )?cannot (?:create directory|make directory|copy file|set permissions on|open file)\b.*(?:Maybe need(?: administrative privileges\.?)?|Permission denied)\s*$/, read: () => ({ tool: 'cmake' }) },
];
