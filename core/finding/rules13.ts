/**
 * Evidence rules from round 13 once it was opened for tuning (issue 25, helper t14; docs/notes/analyzer.md,
 * "Round 13 opened (helper t14)"). Each is a tool's documented wording for one cause, never a case's words, and
 * each is checked on made-up logs of other projects in core/finding/round13.test.ts. Tried with RULES (rules.ts).
 */
import type { Rule, RuleHit } from './ruleTypes.js';

/** rustc's place line under its `error[E....]:` heading (` --> src/main.rs:2:36`). */
const RUSTC_PLACE = /^\s*--> ((?:[A-Za-z]:)?[^\s:]+):(\d+):(\d+)\s*$/;
const rustcAt = (below: RegExpExecArray | undefined): RuleHit => (below ? { file: below[1] as string, line: Number(below[2]), column: Number(below[3]) } : {});

export const ROUND13_RULES: Rule[] = [
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
  // Maven's `-pl`/`--projects` naming no module of the reactor (MavenExecutionException `Could not find the selected
  // project in the reactor: x`): the script's selection, nothing was built.
  { cls: 'ci-script', priority: 15, confidence: 'high', re: /\bCould not find the selected project in the reactor: (\S+)/, read: (m) => ({ tool: 'maven', symbol: m[1] as string }) },
  // pip refusing a line of a requirements file it cannot parse (`ERROR: Invalid requirement: 'x=1.0' (from line 2
  // of requirements.txt)`, a path that is not there read as a name): the project's dependency list does not resolve.
  {
    cls: 'dependency-resolution',
    priority: 44,
    confidence: 'medium',
    re: /^(?:ERROR: )?Invalid requirement: '([^']*)'(?: \(from line (\d+) of (\S+?)\))?/,
    read: (m) => ({ tool: 'pip', dependency: m[1] as string, ...(m[2] && m[3] ? { file: m[3], line: Number(m[2]) } : {}) }),
  },
  // The JDK's HTTP client (java.net.http) giving up on a server: `HttpTimeoutException: request timed out`,
  // `HttpConnectTimeoutException: HTTP connect timed out`: the network (or the service behind it), not the code.
  { cls: 'network', priority: 39, confidence: 'high', re: /\bjava\.net\.http\.Http(?:Connect)?TimeoutException\b/, read: () => ({ tool: 'java', exception: 'HttpTimeoutException' }) },
  // rustc's E0554 (`#![feature]` may not be used on the stable release channel): the crate needs a nightly
  // toolchain the build does not have, a missing tool; the ` --> ` line under it is the attribute's place.
  { cls: 'missing-tool', priority: 28, confidence: 'high', re: /^error\[E0554\]: /, below: RUSTC_PLACE, read: (_m, _line, below) => ({ tool: 'rustc', code: 'E0554', symbol: 'nightly', ...rustcAt(below) }) },
  // rustc's const evaluator out of memory (`error[E0080]: tried to allocate more memory than available to compiler`):
  // the compiler hit its memory limit (ulimit, container) evaluating a large constant.
  {
    cls: 'out-of-memory',
    priority: 20,
    confidence: 'high',
    re: /^error(?:\[E\d+\])?: tried to allocate more memory than available to compiler/,
    below: RUSTC_PLACE,
    read: (_m, _line, below) => ({ tool: 'rustc', exception: 'tried to allocate more memory than available', ...rustcAt(below) }),
  },
  // The go command's `no required module provides package P` over its `case-insensitive import collision: "a/store"
  // and "a/Store"`: the import's spelling differs from the package's directory only in case, a wrong import in the
  // source (a compile error at the import), not a module missing from go.mod.
  {
    cls: 'compile-error',
    priority: 28,
    confidence: 'high',
    re: /^((?:\.{1,2}\/)?[^\s:]+\.go):(\d+):(\d+): no required module provides package (\S+?);/,
    below: /^case-insensitive import collision: /,
    read: (m) => ({ tool: 'go', symbol: m[4] as string, file: m[1] as string, line: Number(m[2]), column: Number(m[3]) }),
  },
  // pip's warning that an index refused its credentials (`WARNING: 401 Error, Credentials not correct for
  // https://host/simple/pkg/`), the cause of the `No matching distribution` under it: the index saw the wrong or no
  // credentials (the resolver's verdict names the package it then could not find; cause.ts reads it back).
  { cls: 'permission-credentials', priority: 19, confidence: 'high', re: /^WARNING: 40[13] Error, Credentials not correct for (\S+)/, read: (m) => ({ tool: 'pip', host: /^https?:\/\/(?:[^@/]+@)?([^/:]+)/.exec(m[1] as string)?.[1] ?? (m[1] as string) }) },
  // CMake that cannot create a directory of its own in the build tree (`CMake Error: Unable to (re)create the private
  // pkgRedirects directory:`, CMake >= 3.24, the first directory it makes): the build directory is not writable by the
  // user running it (owned by another user, a read-only mount); medium, the log does not say which.
  { cls: 'permission-credentials', priority: 30, confidence: 'medium', re: /^CMake Error: Unable to \(re\)create the private pkgRedirects directory:/, read: () => ({ tool: 'cmake' }) },
  // GNU make's `include` of a file that is not there (`Makefile:1: config.mk: No such file or directory`): make then
  // tries to remake it and stops with `No rule to make target 'config.mk'.  Stop.`, the consequence; the include
  // line is the cause and the place (make's manual, "Including Other Makefiles"). `-include` would not fail.
  { cls: 'ci-script', priority: 33, confidence: 'medium', re: /^((?:[^\s:]*\/)?(?:(?:GNU)?[Mm]akefile[\w.-]*|[\w.-]+\.mk)):(\d+): ([^\s:]+): No such file or directory$/, read: (m) => ({ tool: 'make', symbol: m[3] as string, file: m[1] as string, line: Number(m[2]) }) },
  // Probes of general wordings on made-up logs of other tools (t14), each a tool's documented message:
  // coreutils' `timeout --verbose` (`timeout: sending signal TERM to command 'npm'`): the command's time limit ran out.
  { cls: 'timeout-aborted', priority: 24, confidence: 'high', re: /^timeout: sending signal (?:TERM|KILL|INT|HUP) to command ['‘`]([^'’`]+)['’`]/, read: (m) => ({ tool: 'timeout', symbol: m[1] as string }) },
  // git's HTTP transport failing mid-transfer (`error: RPC failed; curl 92 HTTP/2 stream 5 was not closed cleanly`,
  // `error: RPC failed; HTTP 502 curl 22 ...`): the connection, not the repository.
  { cls: 'network', priority: 40, confidence: 'medium', re: /^error: RPC failed; (?:curl \d+|HTTP 5\d\d)\b/, read: () => ({ tool: 'git' }) },
  // BuildKit's report of a RUN step killed by the kernel (`did not complete successfully: exit code: 137`, 128 + SIGKILL).
  { cls: 'out-of-memory', priority: 20, confidence: 'high', re: /\bdid not complete successfully: exit code: 137\b/, read: () => ({ tool: 'docker', exception: 'killed' }) },
  // rustc without a linker (`error: linker `cc` not found`): the toolchain lacks the C linker, a missing tool.
  { cls: 'missing-tool', priority: 28, confidence: 'high', re: /^error: linker `([^`]+)` not found/, read: (m) => ({ tool: 'rustc', symbol: m[1] as string }) },
  // env(1) running a script whose `#!/usr/bin/env python` names an interpreter that is not on PATH
  // (`/usr/bin/env: 'python': No such file or directory`, older coreutils without quotes).
  { cls: 'missing-tool', priority: 15, confidence: 'high', re: /^(?:\/usr)?(?:\/bin\/)?env: ['‘]?([\w.+-]+)['’]?: No such file or directory$/, read: (m) => ({ tool: 'env', symbol: m[1] as string }) },
  // hadolint's default (tty) format: `Dockerfile:4 DL3008 warning: Pin versions in apt get install.` (DL: its own
  // rules, SC: ShellCheck's on RUN lines), the Dockerfile's line: lint.
  { cls: 'lint', priority: 35, confidence: 'high', re: /^(\S*Dockerfile\S*):(\d+) ((?:DL|SC)\d{4}) (?:error|warning|info|style): /, read: (m) => ({ tool: 'hadolint', code: m[3] as string, file: m[1] as string, line: Number(m[2]) }) },
  // lld's and Apple ld's report of a symbol defined twice (`ld.lld: error: duplicate symbol: log_init`, `duplicate
  // symbol '_log_init' in:`), GNU ld's `multiple definition of` (rules.ts) in other words: a link error.
  { cls: 'link-error', priority: 32, confidence: 'high', re: /^(?:\S*\/)?(?:ld\.lld|lld|ld64\.lld|wasm-ld|ld|mold)(?:\.exe)?: error: duplicate symbol: (\S+)|^duplicate symbol '([^']+)' in:/, read: (m) => ({ tool: 'ld', symbol: (m[1] ?? m[2]) as string }) },
  // NuGet's restore errors that a package or version was not found or conflicts (NU1101 no such package, NU1102 no
  // such version, NU1103 only prereleases, NU1107 a version conflict; Microsoft's NuGet error reference).
  { cls: 'dependency-resolution', priority: 45, confidence: 'high', re: /\berror (NU110[1-37])\b: /, read: (m) => ({ tool: 'nuget', code: m[1] as string }) },
  // Ruby's report of an uncaught exception (`bin/import:9:in 'block in <main>': undefined method 'strip' for nil
  // (NoMethodError)`; before 3.4 a backtick opens the method): a run-time exception at the script's line.
  {
    cls: 'runtime-exception',
    priority: 50,
    confidence: 'high',
    re: /^((?:[\w.-]+\/)*[\w.-]+):(\d+):in [`'][^']*': .* \(((?:[A-Z]\w*::)*(?!LoadError\))[A-Z]\w*(?:Error|Exception))\)$/,
    read: (m) => ({ tool: 'ruby', exception: m[3] as string, file: m[1] as string, line: Number(m[2]) }),
  },
  // Ruby's `require` of a library that is not installed (`cannot load such file -- nokogiri (LoadError)`): a gem the
  // bundle lacks; medium, the name may also be a file of the project's own off the load path. A relative path
  // (`require_relative`, `./lib/x`) is the project's own file, not read here.
  { cls: 'dependency-resolution', priority: 45, confidence: 'medium', re: /\bcannot load such file -- (?![./])([\w-]+(?:\/[\w-]+)*) \(LoadError\)/, read: (m) => ({ tool: 'ruby', dependency: m[1] as string, exception: 'LoadError' }) },
  // Surefire's forked test JVM that died while running the tests (`The forked VM terminated without properly saying
  // goodbye. VM crash or System.exit called?`, its `Process Exit Code: N` below): a crash inside the test run, a test
  // error (a test or the code under it called System.exit, or the JVM crashed). Exit code 137 (a kill) is read as
  // memory with this line as its message (tune5), so that code is left to it.
  {
    cls: 'test-error',
    priority: 30,
    confidence: 'medium',
    re: /\bThe forked VM terminated without properly saying goodbye\. VM crash or System\.exit called\?/,
    near: { re: /\bProcess Exit Code: (?!137\b)\d+/, from: 1, to: 6, required: true },
    read: () => ({ tool: 'maven-surefire' }),
  },
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
