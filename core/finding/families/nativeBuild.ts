/**
 * C and C++ builds: CMake, make, the linkers, autoconf and automake: evidence rules of the tuning rounds 5, 9, 13 (issue 25; docs/notes/analyzer.md, each
 * round's "opened" section), kept by tool family (rv3, session 43). Each is a tool's own wording for one cause,
 * never a case's words. Tried with RULES (rules.ts): `NATIVE_BUILD_FIRST_RULES` before the general rules (each is
 * narrower than a general rule that matches the same line), `NATIVE_BUILD_RULES` after the general rules and the cross-tool families' (rules.ts).
 */
import type { Rule } from '../ruleTypes.js';

export const NATIVE_BUILD_FIRST_RULES: Rule[] = [
  // automake's check of the files its strictness requires (`Makefile.am: error: required file './NEWS' not found`;
  // the default `gnu` strictness wants NEWS, README, AUTHORS, ChangeLog, COPYING, INSTALL): the project's build setup
  // (a missing file, or `foreign` not set in AM_INIT_AUTOMAKE), nothing compiled. libtool's ltmain.sh and
  // config.guess/config.sub are the tools' own files (libtoolize not run), not read here.
  {
    cls: 'ci-script',
    priority: 15,
    confidence: 'high',
    re: /^(?:\S+\.am|configure\.(?:ac|in))(?::\d+)?: error: required file '(?!\S*(?:ltmain\.sh|config\.guess|config\.sub)')[^']+' not found$/,
    read: () => ({ tool: 'automake' }),
  },
  // CMake refusing a build directory whose CMakeCache.txt another generator (or another source directory) made
  // (`Does not match the generator used previously: Unix Makefiles`, `The current CMakeCache.txt directory ... is
  // different than the directory ... where CMakeCache.txt was created`): the script reuses a stale build directory.
  {
    cls: 'ci-script',
    priority: 15,
    confidence: 'high',
    re: /^Does not match the (?:generator|platform|toolset) used previously: |^CMake Error: The current CMakeCache\.txt directory \S+ is different than the directory \S+ where CMakeCache\.txt was created\./,
    read: () => ({ tool: 'cmake' }),
  },
  // CMake that cannot create a directory of its own in the build tree (`CMake Error: Unable to (re)create the private
  // pkgRedirects directory:`, CMake >= 3.24, the first directory it makes): the build directory is not writable by the
  // user running it (owned by another user, a read-only mount); medium, the log does not say which.
  { cls: 'permission-credentials', priority: 30, confidence: 'medium', re: /^CMake Error: Unable to \(re\)create the private pkgRedirects directory:/, read: () => ({ tool: 'cmake' }) },
  // GNU make's `include` of a file that is not there (`Makefile:1: config.mk: No such file or directory`): make then
  // tries to remake it and stops with `No rule to make target 'config.mk'.  Stop.`, the consequence; the include
  // line is the cause and the place (make's manual, "Including Other Makefiles"). `-include` would not fail.
  { cls: 'ci-script', priority: 33, confidence: 'medium', re: /^((?:[^\s:]*\/)?(?:(?:GNU)?[Mm]akefile[\w.-]*|[\w.-]+\.mk)):(\d+): ([^\s:]+): No such file or directory$/, read: (m) => ({ tool: 'make', symbol: m[3] as string, file: m[1] as string, line: Number(m[2]) }) },
  // lld's and Apple ld's report of a symbol defined twice (`ld.lld: error: duplicate symbol: log_init`, `duplicate
  // symbol '_log_init' in:`), GNU ld's `multiple definition of` (rules.ts) in other words: a link error.
  { cls: 'link-error', priority: 32, confidence: 'high', re: /^(?:\S*\/)?(?:ld\.lld|lld|ld64\.lld|wasm-ld|ld|mold)(?:\.exe)?: error: duplicate symbol: (\S+)|^duplicate symbol '([^']+)' in:/, read: (m) => ({ tool: 'ld', symbol: (m[1] ?? m[2]) as string }) },
  // configure's shell syntax error on a line that is an m4 macro call left unexpanded (`./configure: line 3086:
  // `AX_CHECK_COMPILE_FLAG(-fstack-protector-strong,'`): autoconf did not know the macro when it made configure, so
  // the package that defines it (autoconf-archive's AX_, pkg-config's PKG_, automake's AM_, libtool's LT_) was not
  // installed where aclocal looks: a missing tool, not the script (the autoconf manual, "Autoconf Language").
  {
    cls: 'missing-tool',
    priority: 11,
    confidence: 'high',
    re: /^(?:\S*\/)?configure: line \d+: syntax error near unexpected token /,
    below: /^(?:\S*\/)?configure: line \d+: `(?:AX|PKG|AM|AC|LT|GTK|GLIB|GNOME|XORG|AS)_[A-Z0-9_]+\(/,
    read: (_m, _line, below) => ({ tool: 'autoconf', symbol: /`([A-Z][A-Z0-9_]+)\(/.exec(below?.input ?? '')?.[1] ?? 'm4 macro' }),
  },
  // CMake's add_subdirectory() of a directory with no CMakeLists.txt (`CMake Error at CMakeLists.txt:3
  // (add_subdirectory):` over `The source directory` / `/ws/third_party/fmt` / `does not contain a CMakeLists.txt
  // file.`): a vendored or submodule dependency that is not there (a submodule not checked out): the dependency did
  // not resolve, at the add_subdirectory line; medium, the directory may also be a path typo.
  {
    cls: 'dependency-resolution',
    priority: 44,
    confidence: 'medium',
    re: /^\s*does not contain a CMakeLists\.txt file\./,
    near: { re: /^CMake Error at (?<file>[^\s:]+):(?<line>\d+) \(add_subdirectory\):$/, from: -8, to: -1, required: true },
    read: () => ({ tool: 'cmake' }),
  },
  // The same call given a directory that is not there at all (`add_subdirectory given source "third_party/x" which is
  // not an` / `existing directory.`, CMake wraps it): a vendored library moved or a submodule not checked out, as a
  // manifest's local dependency that is gone is labelled elsewhere (cargo's path dependency, r11, and workspace member,
  // r13; pip's editable `-e ./lib`, r23): the dependency did not resolve (session 55, t30: round 29); medium, as above.
  {
    cls: 'dependency-resolution',
    priority: 44,
    confidence: 'medium',
    re: /^\s*add_subdirectory given source "([^"]+)" which is not an(?: existing directory\.)?$/,
    near: { re: /^CMake Error at (?<file>[^\s:]+):(?<line>\d+) \(add_subdirectory\):$/, from: -2, to: -1, required: true },
    read: (m) => ({ tool: 'cmake', dependency: m[1] as string }),
  },
  // CMake's target_compile_features() of a feature the compiler does not have (`CMake Error at CMakeLists.txt:4
  // (target_compile_features):` over `target_compile_features The compiler feature "cxx_std_26" is not known to` /
  // `CXX compiler "GNU" version 12.2.0.`): a known feature (an unknown name is `specified unknown feature`) that this
  // compiler's version lacks, so the compiler on the agent is too old: missing-tool, at the call; medium, the
  // project may also ask for more than it needs.
  {
    cls: 'missing-tool',
    priority: 44,
    confidence: 'medium',
    re: /^\s*target_compile_features The compiler feature "\w+" is not known to$/,
    near: { re: /^CMake Error at (?<file>[^\s:]+):(?<line>\d+) \(target_compile_features\):$/, from: -2, to: -1, required: true },
    read: () => ({ tool: 'cmake' }),
  },
];

export const NATIVE_BUILD_RULES: Rule[] = [
  // A linker that ran out of a memory region of its script (GNU ld, lld): the program is too big for it.
  { cls: 'link-error', priority: 31, confidence: 'high', re: /^(?:\S*\/)?(?:ld|ld\.bfd|ld\.gold|ld\.lld|lld)(?:\.exe)?: (?:error: )?.*\bregion [`'‘]?[\w.]+['’]? overflowed by \d+ bytes?|overflowed by \d+ bytes?$/, read: () => ({ tool: 'ld' }) },
  { cls: 'link-error', priority: 33, confidence: 'medium', re: /^(?:\S*\/)?(?:ld|ld\.bfd|ld\.gold|ld\.lld)(?:\.exe)?: (?!warning)(?:error: )?.*\b(?:will not fit in region|section .* overlaps section)\b/, read: () => ({ tool: 'ld' }) },
  // GNU ld on one symbol that one object defines thread-local and another references as an ordinary one (`/usr/bin/ld:
  // requests: TLS definition in build/stats.o section .tbss mismatches non-TLS reference in build/main.o`, or the other
  // way round; its `error adding symbols: bad value` follows): the declarations disagree, a link error (session 53, t28).
  { cls: 'link-error', priority: 31, confidence: 'high', re: /^(?:\S*\/)?ld(?:\.\w+)?: (\S+?): (?:non-)?TLS (?:definition|reference) in \S+ (?:section \S+ )?mismatches (?:non-)?TLS (?:definition|reference) in \S+/, read: (m) => ({ tool: 'ld', symbol: m[1] as string }) },
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
  // CMake's find_package() that found the package's config only in a version the call does not accept (`Could not find a
  // configuration file for package "X" that is` / `compatible with requested version "2.0".`, the config files it
  // considered listed with their versions), and FindPackageHandleStandardArgs' `Could NOT find X: Found unsuitable
  // version "1.2", but required is at least "2.0"`: the dependency is there in another version (round 19, t20).
  {
    cls: 'dependency-resolution',
    priority: 44,
    confidence: 'high',
    re: /^\s*Could not find a configuration file for package "([^"]+)" that is(?: compatible with requested version\b|$)|^\s*Could NOT find (\S+?):? \(?(?:missing: .*\) )?\(?Found unsuitable version "[^"]+", but required is\b/,
    near: { re: /^CMake Error at (?<file>[^\s:]+):(?<line>\d+) \(find_package\):$/, from: -2, to: -1 },
    read: (m) => ({ tool: 'cmake', dependency: (m[1] ?? m[2]) as string }),
  },
  // CMake's find_program(VAR NAMES a b REQUIRED) that found none of the names (`CMake Error at CMakeLists.txt:4
  // (find_program):` over `Could not find IWYU_EXE using the following names: include-what-you-use,`): a program the
  // agent lacks, at the call. find_library() and find_path()/find_file() say the same words of a library or header the
  // build lacks: a dependency. The command in the header decides (test/fixtures/grammar cmake-find-*; session 49).
  {
    cls: 'missing-tool',
    priority: 44,
    confidence: 'high',
    re: /^\s*Could not find (\w+) using the following names: ([\w.+-]+)/,
    near: { re: /^CMake Error at (?<file>[^\s:]+):(?<line>\d+) \(find_program\):$/, from: -2, to: -1, required: true },
    read: (m) => ({ tool: 'cmake', symbol: m[2] as string }),
  },
  {
    cls: 'dependency-resolution',
    priority: 44,
    confidence: 'high',
    re: /^\s*Could not find (\w+) using the following names: ([\w.+-]+)/,
    near: { re: /^CMake Error at (?<file>[^\s:]+):(?<line>\d+) \((?:find_library|find_path|find_file)\):$/, from: -2, to: -1, required: true },
    read: (m) => ({ tool: 'cmake', dependency: m[2] as string }),
  },
  // CMake told to use a generator whose build program is not on the PATH (`CMake Error: CMake was unable to find a build
  // program corresponding to "Ninja".  CMAKE_MAKE_PROGRAM is not set.`; the `CMAKE_C_COMPILER not set` after it is the
  // consequence): the tool is missing (round 19, t20).
  { cls: 'missing-tool', priority: 44, confidence: 'high', re: /^CMake Error: CMake was unable to find a build program corresponding to "([^"]+)"\./, read: (m) => ({ tool: 'cmake', symbol: (m[1] as string).toLowerCase() === 'ninja' ? 'ninja' : 'make' }) },
  // pkg-config's `--atleast-version`/`--exists 'x >= 2.1'` refusing the installed version (`Package 'x' has version
  // '2.0.3', required version is '>= 2.1'`): the dependency is there in a version the build does not accept.
  { cls: 'dependency-resolution', priority: 44, confidence: 'high', re: /^Package '([\w.+-]+)' has version '[^']+', required version is '[^']+'$/, read: (m) => ({ tool: 'pkg-config', dependency: m[1] as string }) },
  // CMake told to use a compiler it cannot find (`Could not find compiler set in environment variable
  // CXX:`, `The CMAKE_C_COMPILER: x is not a full path and was not found in the PATH.`, `No CMAKE_CXX_COMPILER
  // could be found.`): the tool is missing, whatever the language.
  { cls: 'missing-tool', priority: 44, confidence: 'high', re: /^\s*Could not find compiler set in environment variable \w+:|^\s*The CMAKE_\w+_COMPILER:\s*$|^\s*The CMAKE_\w+_COMPILER:\s+\S+\s+is not a full path and was not found in the PATH|^\s*No CMAKE_\w+_COMPILER could be found\./, read: () => ({ tool: 'cmake' }) },
  // A configurator asked for a preset its presets file does not define (`CMake Error: No such preset in
  // DIR: "x"`, `Could not read presets from DIR`): the CI script and the project disagree.
  { cls: 'ci-script', priority: 44, confidence: 'high', re: /^CMake Error: (?:No such (?:build |test |package |workflow )?preset in \S+: "([^"]+)"|Could not read presets from )/, read: (m) => ({ tool: 'cmake', ...(m[1] ? { symbol: m[1] } : {}) }) },
  // CMake's install or file() refused by the file system (`file cannot create directory: /etc/x.  Maybe need
  // administrative privileges.`, `file INSTALL cannot copy file ... Permission denied`): the build user's rights.
  { cls: 'permission-credentials', priority: 40, confidence: 'high', re: /^\s*file (?:INSTALL )?cannot (?:create directory|make directory|copy file|set permissions on|open file)\b.*(?:Maybe need(?: administrative privileges\.?)?|Permission denied)\s*$/, read: () => ({ tool: 'cmake' }) },
];
