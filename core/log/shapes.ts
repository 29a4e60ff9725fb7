/**
 * The failure shapes the analyzer knows: one rule per real, general shape of an error as the
 * common build tools print it. Each rule says what role its line plays in a failure:
 *
 * - `anchor`: the line opens (or is) a detailed error block: a compiler diagnostic, an
 *   exception, a failing test's heading. Blocks grow from anchors.
 * - `header`: a line that announces the detailed block printed right after it
 *   (`=== FAILURES ===`, `Failed tests:`, `There was 1 failure:`). The block is what follows.
 * - `summary`: the cascade after the real error: counts, exit statuses, "see above"
 *   (`npm ERR! Test failed`, `make: ***`, `BUILD FAILURE`). Used only when nothing better exists.
 *
 * Rules are tried in order; the first that matches names the line. Weights are on a 0-10
 * scale of how specific the shape is to a real failure.
 */

import { JENKINS_SHAPES, JENKINS_WORDS, JENKINS_WORD_KEYS } from './jenkins.js';
import { END, NON_ASCII_TRIGRAM, SYMBOL, firstIndex, trigramHash, type Gate } from './prefilter.js';
import { gateFor } from './gates.js';

export type { ShapeRole, FailureShape } from './shapeType.js';
import { uniformShape, type FailureShape } from './shapeType.js';

/** Compiler diagnostics `path:line[:col]: error: ...` named by the file's language. */
export function compilerReason(path: string): string {
  const ext = /\.([A-Za-z0-9+]+)$/.exec(path)?.[1]?.toLowerCase() ?? '';
  if (['c', 'h', 'cc', 'cpp', 'cxx', 'hpp', 'hh', 'm', 'mm'].includes(ext)) return 'C/C++ compiler error';
  if (ext === 'go') return 'Go build error';
  if (ext === 'rs') return 'Rust compiler error';
  if (ext === 'hs') return 'GHC compiler error';
  if (ext === 'swift') return 'Swift compiler error';
  if (ext === 'java') return 'Java compiler error';
  if (ext === 'kt' || ext === 'kts') return 'Kotlin compiler error';
  if (ext === 'scala') return 'Scala compiler error';
  if (ext === 'ts' || ext === 'tsx') return 'TypeScript compiler error';
  if (ext === 'cs') return 'C# compiler error';
  if (ext === 'fs') return 'F# compiler error';
  if (ext === 'vb') return 'Visual Basic compiler error';
  if (ext === 'js' || ext === 'jsx' || ext === 'mjs' || ext === 'cjs') return 'JavaScript error';
  if (ext === 'py') return 'Python error';
  return 'compiler error';
}

/** A gate's verdict that a measure fell short of what the build requires (the `quality gate not met` shape). */
export const GATE_NOT_MET =
  /\b(?:threshold|minimum|required|fail[-_]under|budget)\b.{0,80}\b(?:not met|not reached|not satisfied)\b|\b(?:does not|doesn't|did not|didn't) (?:meet|reach) (?:the |its |global |minimum |required |coverage )*(?:threshold|minimum|budget)|\bis (?:less|lower) than (?:the )?(?:fail[-_]under|threshold|minimum|required)\b|\bbut expected (?:minimum|maximum) is\b|\b(?:disallowed|forbidden|prohibited|unapproved|denied) licen[cs]es?\b|\blicen[cs]e defined by the --failOn\b/i;

/** The shapes, most specific first. */
const SHAPE_LIST: readonly FailureShape[] = [
  // Jenkins' own lines, fatal machine conditions first (core/log/jenkins.ts)
  ...JENKINS_SHAPES,
  // GitHub Actions / Travis markers that carry a message
  { re: /^##\[error\](?!Process completed with exit code)/, role: 'anchor', weight: 7, reason: 'GitHub Actions error' },
  { re: /^##\[error\]Process completed with exit code/, role: 'summary', weight: 2, reason: 'GitHub Actions step failed' },

  // Sanitizers, crashes
  { re: /^==\d+==ERROR: \w+Sanitizer|^WARNING: ThreadSanitizer: /, role: 'anchor', weight: 10, reason: 'sanitizer error' },
  { re: /^(?:SUMMARY: \w+Sanitizer|==\d+==ABORTING)/, role: 'summary', weight: 2, reason: 'sanitizer summary' },
  { re: /Segmentation fault|core dumped|Bus error \(|Illegal instruction|Floating point exception|^Access violation\b/, role: 'anchor', weight: 8, reason: 'crash' },
  // A program's fatal error announced on a line of its own, its message on the lines under it (the X server's `Fatal
  // server error:` over `Server is already active for display 1`): what it says after that (a cleanup's `unlink: No
  // such file or directory`, a wrapper's `failed to start, consult the lines above`) is its aftermath (session 57, jt10).
  { re: /^(?:\w+ ){0,3}[Ff]atal(?: \w+){0,2} error:\s*$/, role: 'anchor', weight: 8, reason: 'fatal error', needs: ['atal'] },
  { re: /^panic: /, role: 'anchor', weight: 9, reason: 'Go panic' },
  { re: /^fatal error: (?:all goroutines|unexpected signal|concurrent map)/, role: 'anchor', weight: 9, reason: 'Go runtime fatal error' },
  { re: /^WARNING: DATA RACE$/, role: 'anchor', weight: 9, reason: 'Go data race' },
  // black: `would reformat path` per file, then `Oh no! ...` and the count.
  { re: /^would reformat \S/, role: 'anchor', weight: 7, reason: 'formatter: would reformat' },

  // Go tests
  { re: /^\s*--- FAIL: /, role: 'anchor', weight: 9, reason: 'Go test failure' },
  { re: /^(?:FAIL\s*$|FAIL\t|ok\s+\S+\s+[\d.]+s)/, role: 'summary', weight: 2, reason: 'Go test summary' },
  // The go tool's own diagnostics (go build, go test's compile of a test binary, go vet): `path.go:L:C: message`
  // at the margin, under `# pkg [pkg.test]`; a test's t.Log output is indented and a stack frame has no column.
  { re: /^(?:\.{1,2}\/)?[\w.@+-]+(?:\/[\w.@+-]+)*\.go:\d+:\d+: \S/, role: 'anchor', weight: 8, reason: 'Go build error', needs: ['.go:'] },
  // Meson's own errors name the build file's line: `src/meson.build:5:0: ERROR: Dependency "boost" not found`.
  { re: /^(?:\S+\/)?meson\.build:\d+:\d+: ERROR: /, role: 'anchor', weight: 8, reason: 'Meson error', needs: ['meson.build:'] },
  // A module download that does not match go.sum: `verifying M@v: checksum mismatch` over the `SECURITY ERROR` it explains.
  { re: /^verifying \S+@\S+: checksum mismatch$/, role: 'anchor', weight: 8, reason: 'Go module checksum mismatch' },

  // Rust / cargo
  { re: /^error\[E\d{4}\]: /, role: 'anchor', weight: 9, reason: 'Rust compiler error' },
  { re: /^error: (?:aborting due to|could not compile|Could not compile|build failed|test failed|doctest failed)/, role: 'summary', weight: 2, reason: 'cargo summary' },
  { re: /^thread '[^']*'(?: \(\d+\))? panicked at /, role: 'anchor', weight: 9, reason: 'Rust panic' },
  // A doc-test's banner names it with spaces: `---- src/lib.rs - slugify (line 3) stdout ----`.
  { re: /^---- \S.* stdout ----$/, role: 'anchor', weight: 8, reason: 'Rust test failure' },

  // A checker's report line `path:line: Error: message [CheckId]` (Android Lint's text report, as lint and lintVital
  // print it under Gradle's `Lint found fatal errors`): the finding, not the task's verdict, says what is wrong.
  { re: /^\S[^:\s]*:\d+(?::\d+)?: Error: \S.*\[[A-Z][\w-]*\]$/, role: 'anchor', weight: 8, reason: 'lint error', needs: [': Error: '] },
  // Kotlin's compiler (Gradle, Maven, kotlinc): `e: file:///path/File.kt:57:33 message`; `w:` is a warning.
  { re: /^e: (?:file:\/\/)?\S+\.kts?:\d+:\d+:? /, role: 'anchor', weight: 9, reason: 'compiler error' },

  // Google Test's failed assertion: `file.cc:41: Failure` (gcc/clang builds), `file.cpp(41): error:
  // Expected equality ...` (MSVC builds, the path holding `C:`); the values follow on the next lines.
  { re: /^\S.*\(\d+\): error: (?:Expected|Value of|Actual|Failed|Death test|The difference)|^\S+:\d+: Failure$/, role: 'anchor', weight: 9, reason: 'Google Test failure', needs: ['): error: ', ': Failure'] },

  // C/C++/Go/Haskell/Swift compiler diagnostics and linkers
  { re: /^\S[^:]*:\d+(?::\d+)?(?:-\d+)?:? (?:fatal )?error[:[]/, role: 'anchor', weight: 9, reason: 'compiler error' },
  { re: /^\S.*\(\d+,\d+\): (?:fatal )?error [A-Z]+\d+:/, role: 'anchor', weight: 9, reason: '.NET compiler error', needs: ['): '] },
  { re: /\berror (?:TS|CS|FS|BC)\d+:/, role: 'anchor', weight: 9, reason: 'compiler error' },
  { re: /❌\s/, role: 'anchor', weight: 8, reason: 'Xcode build error' },
  { re: /^\S+:\d+:\d+: [CWEF]: /, role: 'anchor', weight: 8, reason: 'RuboCop offense' },
  { re: /undefined reference to |ld: symbol\(s\) not found|Undefined symbols for architecture/, role: 'anchor', weight: 8, reason: 'linker error' },
  // GNU ld: one symbol thread-local in one object and not in another (`ld: x: TLS definition in a.o section .tbss mismatches non-TLS reference in b.o`).
  { re: /^(?:\S*\/)?ld(?:\.\w+)?: \S+: (?:non-)?TLS (?:definition|reference) in \S+ .*mismatches (?:non-)?TLS /, role: 'anchor', weight: 8, reason: 'linker error' },
  { re: /^collect2: error: ld returned/, role: 'summary', weight: 2, reason: 'linker failed' },
  { re: /^CMake Error/, role: 'anchor', weight: 9, reason: 'CMake error' },
  { re: /^-- Configuring incomplete, errors occurred/, role: 'summary', weight: 2, reason: 'CMake failed' },
  { re: /^make(?:\[\d+\])?: \*\*\* No (?:rule|targets)/, role: 'anchor', weight: 7, reason: 'make: no rule to make target' },
  { re: /^(?:g?make|ninja)(?:\[\d+\])?: \*\*\*|^ninja: build stopped/, role: 'summary', weight: 2, reason: 'make failed' },
  { re: /^\d+ errors? generated\.?$/, role: 'summary', weight: 2, reason: 'compiler summary' },
  // javac's and Groovy's closing count (`1 error`, `3 errors`): the diagnostics are above it.
  { re: /^\d+ errors?$/, role: 'summary', weight: 2, reason: 'compiler summary' },

  // Maven / Gradle / sbt / Java
  { re: /^\[ERROR\] (?:COMPILATION ERROR|\S+\.(?:java|kt|scala|groovy):\[?\d+)/, role: 'anchor', weight: 9, reason: 'Maven compilation error' },
  // Surefire's closing list (`[ERROR] Failures:` over `[ERROR]   Class.test:41 expected ...`) names
  // every failing test with its message, as the `Failed tests:` list of older versions does.
  { re: /^\[ERROR\] (?:Failures|Errors|Tests in error|Failed tests):\s*$/, role: 'header', weight: 8, reason: 'JUnit test failure' },
  { re: /^\[ERROR\] (?:Tests run:|Failures:|Errors:|Tests in error:|Failed tests:)/, role: 'anchor', weight: 8, reason: 'Maven test failure' },
  // `Failed to execute goal <plugin> on project <module>: <why>` names the module and the goal (no
  // plugin when the dependencies of the project could not be resolved before any goal ran);
  // the [ERROR] lines under it repeat the detail. A goal run without a project (`mvn sonar:sonar` where there is no
  // POM: `... (default-cli): Goal requires a project to execute but there is no POM`) names no module.
  { re: /^\[ERROR\] Failed to execute goal (?:(?:\S+ (?:\(\S+\) )?)?on project \S+: |\S+ \(\S+\): \S)/, role: 'anchor', weight: 6, reason: 'Maven goal failed' },
  // The reactor's row of the module that failed (`[INFO] shop-orders ..... FAILURE [  2.7 s]`).
  { re: /^\[INFO\] \S.*? \.{2,} FAILURE(?: \[|$)/, role: 'anchor', weight: 5, reason: 'Maven module failed', single: true },
  // Surefire's and Failsafe's pointers to the reports (`Please refer to <dir> for the individual
  // test results.`, `Please refer to dump files ...`) follow the goal's failure: they say where
  // the detail is kept, not what failed.
  { re: /^\[ERROR\] (?:Failed to execute goal|BUILD FAILURE|-> \[Help|To see the full stack|Re-run Maven|For more information about|Help 1|\[Help \d+\] |After correcting|\s*mvn <args>|Please refer to (?:\S.* for the individual test results|dump files)|$)/, role: 'summary', weight: 3, reason: 'Maven build failure' },
  { re: /^\[ERROR\] /, role: 'anchor', weight: 6, reason: 'Maven error' },
  { re: /^\[INFO\] BUILD FAILURE/, role: 'summary', weight: 2, reason: 'Maven build failure' },
  // SonarScanner (the CLI and its Jenkins wrapper) closes as Maven does: `INFO: EXECUTION FAILURE` in its banner, then
  // `ERROR: Error during SonarScanner execution` over the cause's chain, then a hint to re-run it with `-X` (Maven's
  // `Re-run Maven using the -X switch` too): the banner and the hint are the cascade, the chain is why.
  { re: /^(?:INFO: )?EXECUTION FAILURE$|^(?:ERROR: |\[ERROR\] )?Re-run \S.* using the -X switch to enable full debug logging\.?$/, role: 'summary', weight: 2, reason: 'build tool failed', needs: ['EXECUTION FAILURE', 'Re-run '] },
  { re: /^\* What went wrong:/, role: 'anchor', weight: 7, reason: 'Gradle build failed' },
  { re: /^FAILURE: Build failed with an exception|^BUILD FAILED in /, role: 'summary', weight: 2, reason: 'Gradle build failed' },
  { re: /^\S.* > \S.* FAILED$/, role: 'anchor', weight: 8, reason: 'Gradle test failure', needs: [' FAILED'] },
  { re: /^> Task \S+ FAILED/, role: 'summary', weight: 3, reason: 'Gradle task failed' },
  { re: /^\[error\] (?:\(.*\) |Total time|Failed: Total|Failed tests:|Error during tests:|\d+ errors? found)/, role: 'summary', weight: 3, reason: 'sbt failure' },
  { re: /^\[error\] /, role: 'anchor', weight: 7, reason: 'sbt error' },
  { re: /\*\*\* FAILED \*\*\*/, role: 'anchor', weight: 8, reason: 'ScalaTest failure' },
  { re: /^(?:Failed tests|Tests in error):\s*$/, role: 'header', weight: 8, reason: 'JUnit test failure' },
  { re: /^Tests run: \d+, Failures: \d+, Errors: \d+/, role: 'summary', weight: 2, reason: 'JUnit summary' },
  { re: /^Exception in thread "/, role: 'anchor', weight: 9, reason: 'Java exception' },

  // Python
  { re: /^Traceback \(most recent call last\):/, role: 'anchor', weight: 9, reason: 'Python traceback' },
  // A traceback printed after a progress message with no newline (`Applying shop.0002_x...Traceback (most recent call last):`).
  { re: /\STraceback \(most recent call last\):$/, role: 'anchor', weight: 9, reason: 'Python traceback', needs: ['Traceback (most recent'] },
  { re: /^_{3,} (?:ERROR (?:at|collecting) )?\S.* _{3,}$/, role: 'anchor', weight: 9, reason: 'pytest failure' },
  { re: /^={3,} (?:FAILURES|ERRORS) ={3,}$/, role: 'header', weight: 7, reason: 'pytest failure' },
  { re: /^={3,} .*\b(?:failed|error|errors)\b.* in [\d.]+s/, role: 'summary', weight: 2, reason: 'pytest summary' },
  { re: /^={3,} short test summary info ={3,}$/, role: 'summary', weight: 3, reason: 'pytest summary' },
  { re: /^(?:FAILED|ERROR) \S+::\S+/, role: 'summary', weight: 4, reason: 'pytest failure' },
  { re: /^E {2,}\S/, role: 'anchor', weight: 7, reason: 'pytest failure' },
  { re: /^(?:FAIL|ERROR): \w+ \([\w.]+\)$/, role: 'anchor', weight: 9, reason: 'Python unittest failure' },
  { re: /^FAILED \((?:failures|errors)=\d+/, role: 'summary', weight: 2, reason: 'unittest summary' },
  { re: /^\S+\.py:\d+:\d+: [EWFCR]\d+:? /, role: 'anchor', weight: 8, reason: 'Python lint error' },
  { re: /^(?:ERROR: (?:Could not|No matching distribution|Command errored)|Could not find a version that satisfies)/, role: 'anchor', weight: 8, reason: 'pip install failed' },
  { re: /^PackagesNotFoundError|^UnsatisfiableError|^ResolvePackageNotFound/, role: 'anchor', weight: 9, reason: 'conda environment error' },
  { re: /^subprocess\.CalledProcessError: |returned non-zero exit status \d+/, role: 'summary', weight: 3, reason: 'command returned non-zero' },

  // JavaScript: Jest, Mocha, npm/yarn/pnpm, Node, ESLint, TypeScript
  // Vitest: `⎯⎯⎯ Failed Tests 1 ⎯⎯⎯` heads the failures, each `FAIL file > suite > test`, its
  // assertion, diff, location and code frame, up to the next `⎯⎯⎯` separator.
  { re: /^⎯+ Failed Tests \d+ ⎯+$/, role: 'header', weight: 8, reason: 'Vitest test failure', freeDetail: true },
  // A gate's own verdict that a measure fell short of the value the build requires, worded without a failure word
  // (session 57, helper jt10): Jest `coverage threshold for branches (80%) not met: 76.42%`, pytest-cov `Required test
  // coverage of 80% not reached`, coverage.py `total of 79 is less than fail-under=80`, JaCoCo `lines covered ratio is
  // 0.62, but expected minimum is 0.80`, nyc `does not meet global threshold (80%)`; a licence checker's refusal. Before Jest's
  // `FAIL file`, which pytest-cov's `FAIL Required ...` would match.
  { re: GATE_NOT_MET, role: 'anchor', weight: 7, reason: 'quality gate not met', single: true },
  { re: /^\s*FAIL {1,2}\S/, role: 'anchor', weight: 7, reason: 'Jest test failure' },
  { re: /^\s*● (?!Console)\S/, role: 'anchor', weight: 8, reason: 'Jest test failure' },
  { re: /^\s*\d+ failing\s*$/, role: 'header', weight: 7, reason: 'Mocha test failure' },
  { re: /^(?:Tests?|Test Suites):\s+\d+ failed/, role: 'summary', weight: 2, reason: 'Jest summary' },
  // npm up to 8 prints `npm ERR! `, npm 9 and later `npm error `.
  { re: /^npm (?:ERR!|error) (?:code E(?!LIFECYCLE)|404 |notarget |peer dep|ERESOLVE|Cannot find|[Mm]issing script)/, role: 'anchor', weight: 7, reason: 'npm error' },
  { re: /^npm (?:ERR!|error) /, role: 'summary', weight: 2, reason: 'npm script failed' },
  { re: /^(?:ERR_PNPM_\w+|\u2009?ERR_PNPM_)/, role: 'anchor', weight: 7, reason: 'pnpm error' },
  { re: /^error (?:Command failed|An unexpected error)|^info Visit https:\/\/yarnpkg/, role: 'summary', weight: 2, reason: 'yarn script failed' },
  { re: /^error (?:Couldn't find|Package|An? |\S+@)/, role: 'anchor', weight: 7, reason: 'yarn error' },
  // Yarn 2+ prints every message as `➤ YN<code>: `; the codes its documentation lists as errors (an exception, a failed
  // build, a remote not found or invalid, a checksum mismatch, a missing lockfile entry or workspace, a lockfile an
  // --immutable install would change, a failed fetch) are the cause; its closing `➤ YN0000: · Failed with errors` is not.
  { re: /^➤ YN00(?:01|09|14|15|16|18|20|21|28|30): /, role: 'anchor', weight: 7, reason: 'yarn error' },
  { re: /^➤ YN0000: (?:· )?Failed with errors\b/, role: 'summary', weight: 2, reason: 'yarn script failed', needs: ['Failed with errors'] },
  { re: /^\s*\d+:\d+\s+(?:error|✖)\s/, role: 'anchor', weight: 8, reason: 'lint error' },
  { re: /^✖ \d+ problems?/, role: 'summary', weight: 2, reason: 'lint summary' },
  // A linter's warnings budget (`--max-warnings N`): the warnings alone do not fail the run, the tool's verdict that there
  // are more than N does. ESLint `ESLint found too many warnings (maximum: 0).` (grunt: `Warning: ... Use --force to
  // continue.`; angular-eslint: `Found too many warnings (maximum: 0).`), stylelint `Max warnings exceeded: 12 found. 0 allowed`.
  { re: /^(?:Warning: )?(?:ESLint found|Found) too many warnings \(maximum: -?\d+\)|^(?:✖ )?Max warnings exceeded: \d+ found\b/, role: 'anchor', weight: 7, reason: 'lint: more warnings than allowed', single: true },
  { re: /^(?:ERROR|WARNING): \S+\.tsx?:\d+:\d+/, role: 'anchor', weight: 8, reason: 'lint error' },
  { re: /^\[\d\d:\d\d:\d\d\] (?:'.*' errored after|Error: Process exited)/, role: 'summary', weight: 2, reason: 'gulp task failed' },
  { re: /^\S.*\bERR! /, role: 'summary', weight: 2, reason: 'tool error', needs: ['ERR! '] },

  // Ruby / PHP / Elixir / Erlang / Lua / TAP / .NET
  { re: /^rake aborted!$/, role: 'anchor', weight: 6, reason: 'rake aborted' },
  // Bundler and Composer refusing to resolve (the hint under it, `Run bundle install`, is not the error).
  { re: /^(?:Could not find gem '|Could not find \S+ in (?:any of the sources|locally installed gems)|Bundler could not find compatible versions|Your (?:requirements|lock file) could not be resolved to an installable set)/, role: 'anchor', weight: 6, reason: 'dependency resolution error' },
  // Ruby's uncaught exception: `x.rb:7:in `meth': message (NoMethodError)` (its frames follow as `from x.rb:N:in`).
  { re: /^\S+\.(?:rb|rake):\d+:in [`'][^'`]+': .+ \((?:[A-Z]\w*::)*[A-Z]\w*\)$/, role: 'anchor', weight: 9, reason: 'Ruby exception' },
  { re: /^There (?:was|were) \d+ (?:failures?|errors?):$/, role: 'header', weight: 8, reason: 'PHPUnit failure' },
  { re: /^(?:FAILURES!|Tests: \d+, Assertions: \d+)/, role: 'summary', weight: 2, reason: 'PHPUnit summary' },
  { re: /^PHP (?:Fatal|Parse) error: /, role: 'anchor', weight: 9, reason: 'PHP fatal error' },
  { re: /^Failures:$/, role: 'header', weight: 7, reason: 'RSpec failure' },
  // Minitest's reporter: `Failure:` / `Error:` alone, then `Class#test_name [file:line]:`, then
  // the assertion or exception and its trace, up to the next blank line.
  // Older reporters number them: `  1) Failure:`; the run closes with `N runs, N assertions, ...`.
  { re: /^(?:\s*\d+\) )?(?:Failure|Error):$/, role: 'anchor', weight: 8, reason: 'minitest failure', detailAtMargin: true },
  { re: /^\d+ runs, \d+ assertions, \d+ failures, \d+ errors/, role: 'summary', weight: 2, reason: 'minitest summary' },
  { re: /^\d+ examples?, \d+ failures?/, role: 'summary', weight: 2, reason: 'RSpec summary' },
  { re: /^rspec \.\/\S+:\d+/, role: 'summary', weight: 3, reason: 'RSpec failed example' },
  { re: /^\s+\d+\) test .* \(\S+\)$/, role: 'anchor', weight: 9, reason: 'ExUnit test failure' },
  { re: /^\d+ (?:doctests?|tests?), \d+ failures?/, role: 'summary', weight: 2, reason: 'ExUnit summary' },
  { re: /^\*\* \(\w+(?:\.\w+)*\) /, role: 'anchor', weight: 8, reason: 'Elixir error' },
  { re: /^=ERROR REPORT====/, role: 'header', weight: 6, reason: 'Erlang error report' },
  { re: /^\S+ failed on line \d+$|^%%% \S+ ==> /, role: 'anchor', weight: 8, reason: 'Erlang Common Test failure' },
  { re: /^not ok \d+/, role: 'anchor', weight: 7, reason: 'TAP test failure' },
  { re: /^\s*\S.*\[FAIL\]\s*$/, role: 'anchor', weight: 8, reason: 'xUnit test failure', needs: ['[FAIL]'] },
  { re: /^\s*(?:Failed|X) \S+\.\S+ \[\d/, role: 'anchor', weight: 8, reason: '.NET test failure' },
  { re: /^Build FAILED\.$|^\s*\d+ (?:Error|Warning)\(s\)$/, role: 'summary', weight: 2, reason: 'MSBuild failed' },
  { re: /^stack traceback:$/, role: 'anchor', weight: 5, reason: 'Lua error' },
  // Tcl's errorInfo: the message at the margin, then `    while executing` and the commands it was invoked from. Its
  // words are the program's (`invalid command name "x"`, no error word): the trace's first line anchors the report, whose
  // head core/finding/uncaught.ts reads above it (session 52, t27).
  { re: /^ {4}while (?:executing|compiling)$/, role: 'anchor', weight: 6, reason: 'Tcl error' },
  // Perl's `die` (and the interpreter's own runtime errors) at the margin: `Not a HASH reference at bin/x.pl line 11.`,
  // `... at lib/X.pm line 4, <$fh> line 2.` (session 52, t27). Its warnings end the same way, so a lower weight than an error's word.
  { re: /^(?![#\s])\S.*? at (?:\S+\/)?[\w.-]+\.(?:pl|pm|t|cgi|psgi|PL) line \d+(?:, <[^>]*> (?:line|chunk) \d+)?\.$/, role: 'anchor', weight: 5, reason: 'Perl error', needs: [' line '] },
  // A compiled Haskell program's uncaught exception: `prog: src/M.hs:(28,1)-(29,40): Non-exhaustive patterns in
  // function f` (the place is GHC's span of the definition), or an `error` call's message over its call stack.
  { re: /^[\w.-]+: \S+\.l?hs:(?:\(\d+,\d+\)-\(\d+,\d+\)|\d+:\d+(?:-\d+)?): (?:Non-exhaustive (?:patterns|guards) in|Irrefutable pattern failed|Missing field in record construction|No instance nor default method)/, role: 'anchor', weight: 9, reason: 'Haskell runtime error', needs: ['hs:'] },
  { re: /^CallStack \(from HasCallStack\):$/, role: 'anchor', weight: 6, reason: 'Haskell runtime error' },

  // R: `R CMD check` reports a failed check with the tail of the failing output under it;
  // testthat heads each failure `── 1. Failure: desc (@file#line) ──` (2.x) or
  // `── Failure (file:line:col): desc ──` (3.x) and closes with a results line.
  { re: /^Running (?:the tests|examples) in .* failed\.?$/, role: 'anchor', weight: 9, reason: 'R CMD check failure' },
  { re: /^\* checking .* \.\.\.(?: \[[^\]]*\])? ERROR$/, role: 'anchor', weight: 8, reason: 'R CMD check failure' },
  { re: /^(?:(?:──|--) )?(?:\d+\. )?(?:Failure|Error)(?: \('?\S+:\d+(?::\d+)?'?\): |: .*\(@\S+#\d+\))/, role: 'anchor', weight: 9, reason: 'testthat failure' },
  { re: /^(?:\[ (?:OK: \d+ \| .*FAILED: \d+|FAIL \d+ \| ).*\]$|Error: testthat unit tests failed|Status: \d+ ERRORs?\b)/, role: 'summary', weight: 2, reason: 'R check summary' },

  // TeX: `! <message>` with the input line `l.NN <source>` under it; `! Emergency stop.` and
  // `==> Fatal error occurred` follow the real error.
  { re: /^! (?:Emergency stop|==> Fatal error occurred)/, role: 'summary', weight: 2, reason: 'LaTeX stopped' },
  { re: /^! (?:LaTeX|Package \S+|Class \S+) Error: |^! (?:Undefined control sequence|Missing |Extra |Misplaced |Illegal |Paragraph ended|File ended|Too many |TeX capacity exceeded|I can't find file|Argument of \S+ has an extra)/, role: 'anchor', weight: 8, reason: 'LaTeX error' },
  { re: /^(?:==> Fatal error occurred, no output PDF file produced!|Latexmk: Errors, so I did not complete)/, role: 'summary', weight: 2, reason: 'LaTeX stopped' },
  // EUnit marks a failing test `*failed*` and closes with `Failed: N.  Skipped: N.  Passed: N.`
  { re: /\.\.\.\*failed\*$/, role: 'anchor', weight: 8, reason: 'EUnit test failure', detailAtMargin: true },
  { re: /^\s*Failed: \d+\.\s+Skipped: \d+\.\s+Passed: \d+\./, role: 'summary', weight: 2, reason: 'EUnit summary' },

  // Docker
  { re: /^(?:The command '.*' returned a non-zero code: \d+|ERROR: Service '.*' failed to build|failed to solve|ERROR: failed to solve)/, role: 'summary', weight: 4, reason: 'Docker build step failed' },
  { re: /^(?:docker: )?Error response from daemon: /, role: 'anchor', weight: 8, reason: 'Docker error' },
  // The client cannot reach the daemon (a CI agent's user outside the docker group, no daemon).
  { re: /(?:Got permission denied while trying to connect to|Cannot connect to) the Docker daemon (?:socket )?at \S/, role: 'anchor', weight: 8, reason: 'Docker daemon unreachable' },
  // BuildKit's exit of a RUN step (`#8 ERROR: process "/bin/sh -c npm ci" did not complete successfully: exit code: 1`):
  // the step's own output above it (read without BuildKit's `#8 62.43 ` prefix) says why.
  { re: /^#\d+ ERROR: process ".*" did not complete successfully: exit code: \d+$/, role: 'summary', weight: 4, reason: 'Docker build step failed' },
  { re: /^#\d+ ERROR: /, role: 'anchor', weight: 7, reason: 'Docker build error' },
  // A registry refusing `docker push`/`pull` answers with its error code first: `denied: requested access to the resource
  // is denied`, `unauthorized: authentication required`.
  { re: /^(?:denied|unauthorized): \S/, role: 'anchor', weight: 8, reason: 'Docker registry refused' },
  // The daemon's refused pull as the legacy builder (`Step 1/7 : FROM nod:14`) and Compose v1 print it, without the CLI's
  // `Error response from daemon: `.
  { re: /^(?:ERROR: )?pull access denied for [^\s,]+, repository does not exist or may require/, role: 'anchor', weight: 8, reason: 'Docker error' },

  // Kubernetes: a pod's events as `kubectl describe` lists them (`Warning  Failed  3m (x4 over 5m)
  // kubelet  Failed to pull image ...`): the Warnings that keep a pod from running say why a
  // rollout never became ready (the tool's own timeout follows from them).
  { re: /^\s*Warning\s+(?:FailedScheduling|Failed|FailedMount|FailedAttachVolume|FailedCreatePodSandBox|BackOff|Evicted)\s{2,}\S/, role: 'anchor', weight: 8, reason: 'Kubernetes: pod cannot run', needs: ['Warning'] },

  // Shell and system
  // ssh and scp refusing the connection or the host.
  // OpenSSH's own line when the server closed or reset the connection before (or during) its version exchange
  // (`kex_exchange_identification: Connection closed by remote host`, OpenSSH 8.x's name; `ssh_exchange_identification:`
  // before it; `Connection closed by 203.0.113.7 port 47913`, `Connection timed out during banner exchange`): above git's
  // catch-all `fatal: Could not read from remote repository.`, it is the line that says what happened (ux18).
  { re: /^Host key verification failed\.|^(?:\S+@)?\S+: Permission denied \(publickey|^ssh: (?:connect to host \S+ port \d+: |Could not resolve hostname )|^(?:kex|ssh)_exchange_identification: \S|^Connection (?:closed|reset) by \S+ port \d+|^Connection timed out during banner exchange/, role: 'anchor', weight: 8, reason: 'ssh error', needs: ['Host key', 'Permission denied', 'ssh: ', '_exchange_identification: ', 'Connection '] },
  // Windows' shells say it in their own words: PowerShell `nuget : The term 'nuget' is not recognized as the name of a
  // cmdlet, ...`, cmd.exe `'nuget' is not recognized as an internal or external command,`.
  { re: /(?:command not found|: not found$|is currently not installed|is not recognized as (?:the name of a cmdlet|an internal or external command))/, role: 'anchor', weight: 9, reason: 'shell: command not found' },
  // The kernel refusing a binary built for another CPU (ENOEXEC, `Exec format error`) as runc and Go's os/exec print it
  // (`exec /bin/sh: exec format error` in a cross-platform image, `exec user process caused: exec format error`) and as
  // a shell does (`bash: ./tool: cannot execute binary file: Exec format error`).
  { re: /(?:^exec \S+|exec user process caused|cannot execute binary file): [Ee]xec format error$/, role: 'anchor', weight: 8, reason: 'exec format error', needs: ['xec format error'] },
  { re: /No such file or directory|cannot open shared object file/, role: 'anchor', weight: 7, reason: 'missing file' },
  { re: /Permission denied/, role: 'anchor', weight: 6, reason: 'permission denied' },
  { re: /^fatal: /, role: 'anchor', weight: 8, reason: 'git error' },
  // curl's own error line: `curl: (22) The requested URL returned error: 500`.
  { re: /^curl: \(\d+\) \S/, role: 'anchor', weight: 5, reason: 'curl error' },
  // rpmbuild's missing BuildRequires (`error: Failed build dependencies:` over `\tfoo is needed by
  // pkg`), also when a build tool prints it after its own task name on the same line.
  { re: /error: Failed build dependencies:/, role: 'anchor', weight: 9, reason: 'rpmbuild: missing build dependencies' },
  // robocopy: `2026/11/24 21:41:07 ERROR 5 (0x00000005) Accessing ...` with the system's message on
  // the next line; its closing `ERROR: RETRY LIMIT EXCEEDED.` only says it gave up retrying.
  { re: /^\d{4}\/\d\d\/\d\d \d\d:\d\d:\d\d ERROR \d+ \(0x[0-9A-Fa-f]{8}\) \S/, role: 'anchor', weight: 8, reason: 'robocopy error' },
  { re: /^ERROR: RETRY LIMIT EXCEEDED\.?$/, role: 'summary', weight: 2, reason: 'robocopy gave up' },
  { re: /^E: (?:Unable|Package|Could not|Failed|The repository)/, role: 'anchor', weight: 8, reason: 'apt error' },
  { re: /^Killed$|[Oo]ut of memory|OutOfMemoryError|No space left on device/, role: 'anchor', weight: 8, reason: 'resource exhausted' },
  // The shell's report of a SIGTERM: what every stop sends (an abort, a timeout, a newer build
  // superseding this one, `docker stop`); the line that says who stopped it explains more.
  { re: /^Terminated$/, role: 'anchor', weight: 5, reason: 'process terminated' },
  { re: /^No output has been received in the last \d+m|exceeded the maximum time limit/, role: 'anchor', weight: 8, reason: 'build timed out' },

  // A YAML syntax error as Ruby's Psych reports libyaml's problem: `(file): <problem> while
  // parsing <context> at line N column M`, complete on its line.
  { re: /^\(\S.*\): .* at line \d+ column \d+$/, role: 'anchor', weight: 8, reason: 'YAML syntax error', single: true },

  // A checker's closing count (PHPStan/Psalm `[ERROR] Found 2 errors`, `3 problems found`; a scanner's `Found 2 known
  // vulnerabilities in 1 package`, `3 vulnerabilities found`, not npm install's `found 3 vulnerabilities (...)`):
  // the findings it counts are printed just above it.
  { re: /^\s*(?:\[(?:ERROR|FAIL(?:ED)?)\] )?(?:Found [1-9]\d* (?:errors?|problems?|issues?|violations?|known vulnerabilit(?:y|ies))|[1-9]\d* (?:errors?|problems?|issues?|violations?|vulnerabilit(?:y|ies)) found)\b/i, role: 'summary', weight: 3, reason: 'checker summary' },

  // Command-line parsers refusing an option (Go's flag package, getopt, argparse, clap); the
  // usage text they print after it is boilerplate, not part of the message.
  { re: /^flag provided but not defined: |^(?:\S+: )?(?:error: )?(?:unknown|unrecognized|invalid) (?:option|flag|argument)s?\b/i, role: 'anchor', weight: 8, reason: 'command-line usage error' },

  // Test runners that print a status column, TAP harnesses, size and time budgets
  // A reporter's failure heading `Test failed: name` / `Module Failed: name` (QUnit, Testem,
  // many in-house runners): the name and the assertions under it are the detail.
  { re: /^(?:Test|Module|Suite|Spec|Assertion|Example|Scenario|Case)s? [Ff]ailed: \S/, role: 'anchor', weight: 8, reason: 'test failure' },
  { re: /^\S.*\S\s{2,}(?:FAIL|FAILED|ERROR|CRASH(?:ED)?|TIMEOUT)\s*$/, role: 'anchor', weight: 7, reason: 'test failure', needs: ['FAIL', 'ERROR', 'CRASH', 'TIMEOUT'] },
  { re: /\bDubious, test returned \d+|^Failed \d+\/\d+ subtests/, role: 'anchor', weight: 8, reason: 'TAP test failure' },
  { re: /\b(?:limit|budget|threshold|quota)\b.*\bexceeded\b|\bexceeded\b.*\b(?:limit|budget|threshold|quota)\b/i, role: 'anchor', weight: 7, reason: 'limit exceeded' },
  // The advisories a security scanner's gate blocks on say `Severity: high` / `critical` (npm audit, bandit, GitHub
  // advisories); its count (`2 vulnerabilities (1 moderate, 1 high)`) is also what `npm install` prints of every tree.
  { re: /^\s*Severity: (?:high|critical)\b/i, role: 'anchor', weight: 6, reason: 'vulnerability', needs: ['everity'] },
  { re: /^ERROR: ".*" exited with \d+\.?$/, role: 'summary', weight: 2, reason: 'npm-run-all script failed' },

  { re: /\b(?:timed out|time(?:d)?out (?:after|of|exceeded|reached))\b/i, role: 'anchor', weight: 5, reason: 'timeout' },

  // Generic exceptions and error lines (any language)
  { re: /^(?:Uncaught )?(?:[A-Za-z_$][\w$]*\.)*[A-Z][\w$]*(?:Error|Exception|Failure|Fault)(?::|$)/, role: 'anchor', weight: 7, reason: 'exception' },
  { re: /^(?:ERROR|FATAL|CRITICAL|FAIL(?:URE|ED)?)(?:\b[:!\]]| -|$)/, role: 'anchor', weight: 6, reason: 'error' },
  { re: /^(?:Error|error|fatal|Fatal|fail|Failed|failed)(?:\[\w+\])?:/, role: 'anchor', weight: 6, reason: 'error' },
  // (also a tool named by its path: `prebuilts/gcc/.../bin/ld: error: ...`)
  { re: /^(?:[\w.+-]*\/)*[\w.+-]+: (?:fatal )?error: /, role: 'anchor', weight: 7, reason: 'tool error' },
  { re: /^\s*[✖✗×✘]\s/, role: 'anchor', weight: 6, reason: 'failed check' },
  { re: /\b(?:could not|couldn't|cannot|can't|unable to|failed to) (?:find|resolve|load|open|connect|download|fetch|install|locate|access|read|create|compile|determine|parse|transfer|execute|start|build)\b/i, role: 'anchor', weight: 5, reason: 'error' },
  { re: /(?<![\w./-])(?:ERROR|FATAL|FAILED|FAILURE)(?![\w/-]|\.\w)/, role: 'anchor', weight: 4, reason: 'error' },
  { re: /(?<![\w./-])(?:[Ee]rror|[Ee]xception|[Ff]ailed|[Ff]ailure|[Ff]atal|[Aa]borted|[Vv]iolation)(?![\w/-]|\.\w)/, role: 'anchor', weight: 3, reason: 'error' },
];

/** The shapes, most specific first, each with every field (`uniformShape`). */
export const SHAPES: readonly FailureShape[] = SHAPE_LIST.map(uniformShape);

/**
 * A test runner's passing line: whatever words its name holds, it is not a failure. The result
 * word stands as its own column at the end (`name ... ok 12 ms`, `name   PASS`,
 * `test_x PASSED [ 50%]`) or a check mark or Go's `--- PASS:` leads the line; `:ok` in quoted source is not one.
 */
export const PASSING =
  /(?:^|[\s.])(?:PASSED|PASS|ok|OK|✓|✔)(?:\s+\d+(?:\.\d+)?\s*m?s\b.*)?(?:\s*\[\s*\d+%\])?\s*$|^\s*(?:ok \d+|PASS|✓|✔|--- (?:PASS|SKIP):)\s/;

/**
 * The words a failure line holds (case-insensitive), each with the three-character keys one
 * of which every match contains (`0` stands for any digit). The keys feed the prefilter
 * (`failureHints`): a line without any key cannot hold a failure word, so the word pattern is
 * not even run on it. Kept as data: a word added here is in the pattern and in the prefilter.
 */
export const FAILURE_WORD_LIST: readonly { re: string; keys: readonly string[] }[] = [
  { re: 'err', keys: ['err'] },
  { re: 'fail', keys: ['fai'] },
  { re: 'exception', keys: ['xce'] },
  { re: 'fatal', keys: ['fat'] },
  { re: 'panic', keys: ['nic'] },
  { re: 'abort', keys: ['bor'] },
  { re: 'traceback', keys: ['ceb'] },
  { re: 'not found', keys: ['fou'] },
  { re: 'no such', keys: ['uch'] },
  { re: 'denied', keys: ['nie'] },
  { re: 'violation', keys: ['vio'] },
  { re: 'segmentation', keys: ['gme'] },
  { re: 'core dumped', keys: ['dum'] },
  { re: 'killed', keys: ['kil'] },
  { re: 'terminated', keys: ['erm'] },
  { re: 'memory', keys: ['emo'] },
  { re: 'space left', keys: ['lef'] },
  { re: 'no output', keys: ['o o'] },
  { re: 'time limit', keys: ['imi'] },
  { re: 'not installed', keys: ['t i'] },
  { re: 'undefined', keys: ['efi'] },
  { re: 'symbol\\(s\\)', keys: ['l(s'] },
  { re: 'could', keys: ['oul'] },
  { re: 'cannot', keys: ['nno'] },
  { re: "can't", keys: ["n't"] },
  { re: 'unable', keys: ['una'] },
  // Non-ASCII characters always pass the prefilter.
  { re: '[✖✗×✘❌●]', keys: [] },
  { re: '\\*\\*\\*', keys: ['***'] },
  { re: 'non-zero', keys: ['n-z'] },
  { re: '\\(\\d+,\\d+\\)', keys: ['(00', '(0,'] },
  { re: 'exceeded', keys: ['cee'] },
  // A linter's warnings budget (`ESLint found too many warnings (maximum: 0).`): shapes.ts 'lint: more warnings than allowed'.
  { re: 'too many warnings', keys: ['y w'] },
  // A gate's verdict and a scanner's findings (shapes.ts 'quality gate not met', 'vulnerability'; session 57, jt10).
  { re: 'not (?:met|meet|reached|satisf)', keys: ['t m', 't r', 't s'] },
  { re: 'expected m(?:in|ax)imum', keys: ['imu'] },
  { re: 'vulnerabilit', keys: ['lne'] },
  { re: 'severity: (?:high|critical)', keys: ['ty:'] },
  { re: '(?:disallowed|forbidden|prohibited|unapproved) licen|--failOn', keys: ['lic', 'ilo'] },
  { re: 'dubious', keys: ['dub'] },
  { re: 'timed out', keys: ['med'] },
  { re: 'timeout', keys: ['meo'] },
  { re: 'warning\\(s\\)', keys: ['g(s'] },
  { re: 'not defined', keys: ['t d'] },
  { re: 'at line \\d+ column \\d', keys: ['olu'] },
  { re: 'unrecognized', keys: ['gni'] },
  { re: 'not recognized', keys: ['gni'] },
  { re: 'unauthorized', keys: ['ori'] },
  { re: '(?:unknown|invalid) (?:option|flag|argument)', keys: ['kno', 'nva'] },
  // Tcl's errorInfo under its message (shapes.ts 'Tcl error'; session 52, t27).
  { re: '^ {4}while (?:executing|compiling)$', keys: [] },
  // Perl's `die` and runtime errors end `at FILE line N.` (shapes.ts 'Perl error'; session 52, t27).
  // (Without the extension's dot: the prefilter's alphabet reads `.` as a line's start, so `.t ` would key `t `.)
  { re: '(?:pl|pm|t|cgi|psgi|PL) line \\d+(?:, <[^>]*> (?:line|chunk) \\d+)?\\.$', keys: [] },
];

const FAILURE_WORDS = new RegExp(FAILURE_WORD_LIST.map((w) => w.re).join('|'), 'i');

/** `failureHints`: the line may hold a failure word. */
export const HINT_FAILURE = 1;
/** `failureHints`: the line may hold a passing word (`ok`, `OK`, `PASS`, a check mark). */
export const HINT_PASS = 2;
/** `failureHints`: the line holds a non-ASCII character (then every other hint is set too). */
export const HINT_NON_ASCII = 4;
/**
 * `failureHints`: the line may hold `ranch` (by its trigram `nch`, case aside), which both marks of
 * a parallel branch hold (jenkins.ts `noteBranch`).
 */
export const HINT_BRANCH = 8;
/**
 * `failureHints`: the line may hold the rarest trigram of a FAILURE_STARTS alternative whose first
 * character is not narrowed (`failureStarts`).
 */
export const HINT_STARTS = 16;
/** `failureHints`: the line may hold `_test.go:` (by its rarest trigram), a Go test's message (analyze.ts). */
export const HINT_GO_TEST = 32;
/**
 * `failureHints`: the line may hold a failure word by the trigram of its second clause (its first
 * when it has one only): a line holding a failure word has this hint and HINT_FAILURE (`HINT_WORD`).
 * One trigram a word let through ~4 lines in 5 that hold none (`t i` of `not installed`, `def` of
 * `undefined`); two, one of each clause, far fewer.
 */
export const HINT_FAILURE_SECOND = 64;
/** Both hints a line that holds a failure word has. */
export const HINT_WORD = HINT_FAILURE | HINT_FAILURE_SECOND;
/**
 * `failureHints`: the line may hold the rarest trigram of an alternative of an anchored role pattern
 * that a line beginning with a letter, a digit or a space may match (blocks.ts `linePrefix`), such
 * as the `  >` of `[\w.-]+ {2,}> ?`: without it, those alternatives are not tried.
 */
export const HINT_LEAD = 128;
/** Every hint: what a line with a non-ASCII character gets. */
/** Every hint (a line with a byte past ASCII). */
export const HINT_ALL = HINT_FAILURE | HINT_PASS | HINT_NON_ASCII | HINT_BRANCH | HINT_STARTS | HINT_GO_TEST | HINT_FAILURE_SECOND | HINT_LEAD;

/**
 * The prefilter's table over the trigrams of prefilter.ts's alphabet (letters either case,
 * space, digit, `(`, `,`, `*`, the rest one symbol): HINT_FAILURE where a key of the failure
 * words ends, HINT_PASS where `ok` or `pas` (either case) ends.
 */
export const HINT_TABLE = new Uint8Array(1 << 15);
/** The hint symbol of each ASCII character (prefilter.ts SYMBOL); byteScan.ts copies both into its module's memory. */
export const HINT_SYMBOL = Uint8Array.from(SYMBOL);
/**
 * The trigrams that stand for a pattern in the table: the rarest that every match holds
 * (prefilter.ts `trigramClauses`, read through gates.ts), or the keys written by hand where the pattern's form hides
 * them (`\(\d+,\d+\)`). A non-ASCII character sets every hint anyway.
 */
const keysOf = (re: RegExp, hand: readonly string[]): number[] => {
  const clause = gateFor(re).clauses[0];
  if (clause !== undefined) return [...clause].filter((h) => h !== NON_ASCII_TRIGRAM);
  return hand.map((key) => trigramHash(SYMBOL[key.charCodeAt(0)]!, SYMBOL[key.charCodeAt(1)]!, SYMBOL[key.charCodeAt(2)]!));
};
/** The trigrams of a pattern's second clause (its first, or the hand-written keys, when it has no second). */
const secondKeysOf = (re: RegExp, hand: readonly string[]): number[] => {
  const clause = gateFor(re).clauses[1];
  return clause === undefined ? keysOf(re, hand) : [...clause].filter((h) => h !== NON_ASCII_TRIGRAM);
};
for (const w of FAILURE_WORD_LIST) {
  const re = new RegExp(w.re, 'i');
  for (const h of keysOf(re, w.keys)) HINT_TABLE[h]! |= HINT_FAILURE;
  for (const h of secondKeysOf(re, w.keys)) HINT_TABLE[h]! |= HINT_FAILURE_SECOND;
}
for (const h of keysOf(JENKINS_WORDS, JENKINS_WORD_KEYS)) HINT_TABLE[h]! |= HINT_FAILURE;
for (const h of secondKeysOf(JENKINS_WORDS, JENKINS_WORD_KEYS)) HINT_TABLE[h]! |= HINT_FAILURE_SECOND;
// `ok` is two letters: any symbol before it. `PASS` by its trigram `pas`, not `pa`: half the
// lines of the generated log (`apache`, `package`) ran PASS_HINT for nothing.
for (let a = 0; a < 32; a++) HINT_TABLE[trigramHash(a, SYMBOL[111]!, SYMBOL[107]!)]! |= HINT_PASS; // ok
HINT_TABLE[trigramHash(SYMBOL[112]!, SYMBOL[97]!, SYMBOL[115]!)]! |= HINT_PASS; // pas
HINT_TABLE[trigramHash(SYMBOL[110]!, SYMBOL[99]!, SYMBOL[104]!)]! |= HINT_BRANCH; // nch
for (const h of keysOf(/_test\.go:/, [])) HINT_TABLE[h]! |= HINT_GO_TEST;

/**
 * One pass over the line's characters: whether it may hold a failure word (one of the keys of
 * FAILURE_WORD_LIST or JENKINS_WORD_KEYS, or any non-ASCII character) and whether it may hold
 * a passing word (`ok`, `OK`, `PASS`, a check mark). Both are supersets of the patterns they
 * stand before: a 0 bit means the pattern cannot match.
 */
export function failureHints(line: string): number {
  let flags = 0;
  let h = 0;
  const n = line.length;
  const symbol = HINT_SYMBOL;
  const table = HINT_TABLE;
  // Two characters a turn, as `byteHints`.
  let i = 0;
  for (; i + 1 < n; i += 2) {
    const c = line.charCodeAt(i);
    const d = line.charCodeAt(i + 1);
    if ((c | d) >= 128) return HINT_ALL;
    h = ((h << 5) | symbol[c]!) & 0x7fff;
    flags |= table[h]!;
    h = ((h << 5) | symbol[d]!) & 0x7fff;
    flags |= table[h]!;
  }
  if (i < n) {
    const c = line.charCodeAt(i);
    if (c >= 128) return HINT_ALL;
    flags |= table[((h << 5) | symbol[c]!) & 0x7fff]!;
  }
  return flags;
}

/**
 * `failureHints` of a line's bytes `from`..`to` (exclusive), read before the line is a string
 * (lines.ts): the same hints for the same ASCII text; a byte past ASCII sets every hint, as a
 * non-ASCII character does. A typed array's bytes are read faster than a string's characters
 * (~1.3 against ~2.3 ns a character on the real logs), and the hints of a whole line hold those
 * of any part of it (the body `classify` reads once prefixes are set aside): a trigram that
 * only a part's start makes (the part's first two characters after nothing) sets no hint but
 * `ok`'s, which the whole line sets too.
 */
export function byteHints(bytes: Uint8Array, from: number, to: number): number {
  let flags = 0;
  let h = 0;
  const symbol = HINT_SYMBOL;
  const table = HINT_TABLE;
  // Two bytes a turn: the same hashes and hints (a byte past ASCII anywhere gives HINT_ALL either
  // way) in half the loop's own steps, 0.68-0.71x the time of one byte a turn (a loop over the
  // lines of the generated and the real logs, same run).
  let i = from;
  for (; i + 1 < to; i += 2) {
    const c = bytes[i]!;
    const d = bytes[i + 1]!;
    if ((c | d) >= 128) return HINT_ALL;
    h = ((h << 5) | symbol[c]!) & 0x7fff;
    flags |= table[h]!;
    h = ((h << 5) | symbol[d]!) & 0x7fff;
    flags |= table[h]!;
  }
  if (i < to) {
    const c = bytes[i]!;
    if (c >= 128) return HINT_ALL;
    flags |= table[((h << 5) | symbol[c]!) & 0x7fff]!;
  }
  return flags;
}

/** Shapes recognised by how the line starts (a single attempt at position 0). */
export const FAILURE_STARTS =
  /^(?:! |e: |⎯|E {2}|(?:\.{1,2}\/)?[\w.@+-]+(?:\/[\w.@+-]+)*\.go:\d+:\d+: \S|_{3}|={3}|not ok|WorkflowScript|##\[|[-*] What|FAIL|\s*\d+:\d+\s|\s+\d+\) test|\S+\.py:\d+:\d+: [EWFCR]\d|\S+:\d+:\d+: [CWEF]: |-{4} \S.* stdout -{4}$|%%% |stack traceback:|WARNING: (?:DATA RACE$|ThreadSanitizer: )|would reformat |curl: \(\d|ssh: |(?:kex|ssh)_exchange_identification: |Connection (?:closed|reset|timed out) |process apparently never started|There are no nodes with the label|All nodes of label|(?:Jenkins|[‘'"].*[’'"]) doesn.t have label|Rejected by |Superseded by |\[Warning\]\[|\s*X \S|Tests run|\d+ (?:examples?|tests?|doctests?), |➤ YN00(?:01|09|14|15|16|18|20|21|28|30): |verifying \S+@\S+: checksum mismatch$)/i;

/**
 * The top-level alternatives of a pattern `^(?:a|b|...)` (the sources of a, b, ...), or undefined
 * for a pattern not of that form.
 */
export function topAlternatives(re: RegExp): string[] | undefined {
  const src = re.source;
  if (!src.startsWith('^(?:') || !src.endsWith(')')) return undefined;
  const out: string[] = [];
  let depth = 0;
  let inClass = false;
  let from = 4;
  for (let i = 4; i < src.length - 1; i++) {
    const c = src[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')' && --depth < 0) return undefined;
    else if (c === '|' && depth === 0) {
      out.push(src.slice(from, i));
      from = i + 1;
    }
  }
  if (depth !== 0 || inClass) return undefined;
  out.push(src.slice(from, src.length - 1));
  return out;
}

/**
 * An anchored pattern `^(?:a|b|...)` by a body's first character (`firstIndex`), as patterns of only
 * its alternatives that may match a body so beginning (their gates' first characters, prefilter.ts),
 * or null where none may: the first alternative that matches is the same, so `exec` gives the same
 * match and `test` the same answer. The alternatives `keyedIf` names (by their gate's first
 * characters), when they have a trigram clause, are keyed by their rarest clause in the hint table
 * (hint bit `bit`) and left out of the second table (`plain`), for a line whose hints lack the bit;
 * `keyed` holds every alternative. Derived from the pattern, so an alternative added or edited is
 * gated the same way. Hints are those of a line that holds the body (`byteHints`): a clause's
 * trigram is three characters of the match, so a line holding the match holds it.
 */
export function anchoredByFirst(re: RegExp, bit: number, keyedIf: (first: Uint8Array | null) => boolean): { keyed: (RegExp | null)[]; plain: (RegExp | null)[] } {
  const alternatives = topAlternatives(re);
  if (alternatives === undefined) {
    const all = new Array<RegExp | null>(END + 1).fill(re);
    return { keyed: all, plain: all };
  }
  const gates = alternatives.map((alt) => gateFor(new RegExp(`^(?:${alt})`, re.flags)));
  const keyed = gates.map((gate) => keyedIf(gate.first) && gate.clauses.length > 0);
  gates.forEach((gate, k) => {
    if (keyed[k]) for (const h of gate.clauses[0]!) if (h !== NON_ASCII_TRIGRAM) HINT_TABLE[h]! |= bit;
  });
  const made = new Map<string, RegExp | null>();
  const table = (withKeyed: boolean): (RegExp | null)[] => {
    const out: (RegExp | null)[] = [];
    for (let i = 0; i <= END; i++) {
      const source = alternatives.filter((_, k) => (withKeyed || !keyed[k]) && (gates[k]!.first === null || gates[k]!.first![i] === 1)).join('|');
      if (!made.has(source)) made.set(source, source === '' ? null : new RegExp(`^(?:${source})`, re.flags));
      out.push(made.get(source)!);
    }
    return out;
  };
  return { keyed: table(true), plain: table(false) };
}

/** A gate's first characters are not narrowed: more than 64 of them may begin a match (or any). */
export const anyStart = (first: Uint8Array | null): boolean => first === null || first.reduce((n, v) => n + v, 0) > 64;

/**
 * FAILURE_STARTS by a body's first character (`anchoredByFirst`). The alternatives whose gate does
 * not narrow the first character (`\S+:\d+:\d+: [CWEF]: `: a scan of the line's first word, and
 * back, on every line) are keyed by HINT_STARTS.
 */
const STARTS_BY_FIRST = anchoredByFirst(FAILURE_STARTS, HINT_STARTS, anyStart);

/**
 * `FAILURE_STARTS.test(body)`, trying only the alternatives its first character and `hints` allow:
 * `hints` are the body's `failureHints`, or those of a line that holds it (`byteHints`).
 */
export function failureStarts(body: string, hints: number): boolean {
  const re = ((hints & HINT_STARTS) !== 0 ? STARTS_BY_FIRST.keyed : STARTS_BY_FIRST.plain)[firstIndex(body)]!;
  return re !== null && re.test(body);
}

/** A cheap first test: a line that fails it cannot match a shape, so the rule list is skipped. */
export const MAYBE_FAILURE = {
  test(line: string, hints = failureHints(line)): boolean {
    return FAILURE_STARTS.test(line) || ((hints & HINT_FAILURE) !== 0 && (FAILURE_WORDS.test(line) || JENKINS_WORDS.test(line)));
  },
};

/**
 * The failure words of MAYBE_FAILURE one pattern a word (FAILURE_WORDS' alternatives, then
 * JENKINS_WORDS): a line holds a failure word when one of them matches, so each can be gated on
 * its own trigrams (blocks.ts tries only those the line may hold).
 */
export const WORD_PATTERNS: readonly RegExp[] = [...FAILURE_WORD_LIST.map((w) => new RegExp(w.re, 'i')), JENKINS_WORDS];
export const WORD_GATES: readonly Gate[] = WORD_PATTERNS.map(gateFor);

/** SHAPES' gates (prefilter.ts: the first characters and trigrams a match needs), in the same order. */
export const SHAPE_GATES: readonly Gate[] = SHAPES.map((shape) => gateFor(shape.re));
