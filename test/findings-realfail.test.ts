/**
 * The real failures (test/fixtures/realfail, issue 25) that are open for tuning (the dev cases and
 * the first round's held-out cases, test/helpers/realfail.ts): each case's finding matches what
 * was written in its expected.json before the code was changed for it. A later round's held-out
 * cases are never read here: they are for the figures. The finding is the first excerpt's of
 * `analyze(log)`, read through test/helpers/realfailContext.ts: the answer tests' contexts share
 * the same analysis, made once per version of the code (a changed source file makes it afresh).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { HELDOUT_ROUND, REALFAIL_ROOT, TUNED_CASES } from './helpers/realfail.js';
import { realfailExcerpts } from './helpers/realfailContext.js';
import { MODEL_TABLE_FILE, modelCases, modelSource } from '../scripts/classModelData.js';
import { stampHolds } from '../scripts/classModelStamp.js';

const ROOT = REALFAIL_ROOT;

interface Expected {
  class: string;
  tool: string;
  message: string;
  location: { file: string; line: number; column?: number } | null;
  test?: string;
  split: string;
  round?: number;
}

/*
 * LOCATION_NOT_IN_LOG (58 cases whose labelled line the log never prints: a manifest's, a sourced env file's, ci.sh's
 * line `bash -x` echoes without its number) is gone since session 51 (helper loc4): labels follow the README's
 * definition, so those labels' `location` is null and the line is kept as `sourceLine`; the finding must give no line.
 */

/** Cases whose finding gives a place where the label has another or none, each with why: open (the place is not asserted). */
const KNOWN_WRONG_PLACE = new Map<string, string>([
  // Session 51 (helper loc4): labels follow the README's definition; the shebang's line 1, which the analyzer infers
  // from `/usr/bin/env: 'bash\r'`, is never numbered by the log (the label's sourceLine holds it).
  ['bash-crlf-line-endings', 'the script\'s line 1 (its shebang, inferred) is given; the label has no place (sourceLine scripts/release-notes.sh:1)'],
  ['python-script-crlf-shebang', 'the script\'s line 1 (its shebang, inferred) is given; the label has no place (sourceLine scripts/check_version.py:1)'],
  // Round 11 (asserted since HELDOUT_ROUND 12).
  ['javac-class-output-enospc', 'the source javac was compiling when the disk filled is given; the label has no place'],
  // Round 12 (asserted since HELDOUT_ROUND 13).
  ['autoconf-ax-macro-undefined', 'configure\'s line of the syntax error is given; the label has no place (the generated script is not the source)'],
  ['c-golden-output-diff', 'make\'s recipe line (Makefile:8) is given; the label has the golden file\'s first line'],
  // Round 13 (asserted since HELDOUT_ROUND 14).
  ['automake-foreign-missing-news', 'configure.ac\'s AM_INIT_AUTOMAKE line is given; the label has no place'],
  ['ld-static-constexpr-member-odr', 'the object\'s source line ld names (policy.cpp:6) is given; the label has no place'],
  // Round 14 (asserted since HELDOUT_ROUND 16).
  ['jest-tothrow-message-mismatch', 'the function\'s frame that threw (src/duration.js:8) is given; the label has the test\'s expect line (test/parse.test.js:8)'],
  ['maven-assertthrows-wrong-type', 'the code\'s frame that threw the other exception (Weight.java:25) is given; the label has the test\'s assertThrows line (WeightTest.java:21)'],
  ['vitest-mock-factory-hoisting', 'the mocked module\'s first line (src/signup.js:1) is given; the label has the test file\'s vi.mock line'],
  // Round 16 (asserted since HELDOUT_ROUND 17).
  // Round 17 (asserted since HELDOUT_ROUND 18).
  // Round 18 (asserted since HELDOUT_ROUND 19).
  // Round 19 (asserted since HELDOUT_ROUND 20).
  ['c-selftest-silent-exit-code', 'make\'s recipe line (Makefile:6) is given; the label has no place (the self-test printed nothing: the log holds no error, unknown is right)'],
  ['make-env-python2-shebang-missing', 'make\'s recipe line (Makefile:5) is given; the label has no place (the script\'s shebang names python2, no Makefile line is wrong)'],
  // Round 20 (asserted since HELDOUT_ROUND 21).
  ['make-bison-not-found', 'make\'s recipe line (Makefile:7) is given; the label has no place (bison is not installed, no Makefile line is wrong)'],
  ['mypy-cache-dir-enospc', 'mypy\'s own frame (mypy/metastore.py:174) is given; the label has no place (the cache\'s disk was full)'],
  ['pylint-fail-under-score', 'pylint\'s first message (pricelist/importer.py:1) is given; the label has no place (the score under --fail-under failed the step)'],
  ['terraform-fmt-check-diff', 'the diff\'s `--- old/modules/monitoring/main.tf` heading line (2) is given; the label has the file\'s line 1'],
  // Round 21 (asserted since HELDOUT_ROUND 22).
  ['make-docs-doxygen-not-found', 'make\'s recipe line (Makefile:16) is given; the label has no place (doxygen is not installed, no Makefile line is wrong)'],
  // Round 22 (asserted since HELDOUT_ROUND 23).
  ['ruff-e741-ambiguous-variable-name', 'ruff\'s second E741 (textstats/counts.py:12, under its ` --> ` line) is given; the label has the first (line 11)'],
  // Round 23 (asserted since HELDOUT_ROUND 24).
  ['gradle-junit4-string-split-dot-regex-empty-array', 'the first failing test\'s line (VersionTest.java:15, singleNumberIsOnePart) is given; the label has the second\'s (line 10, splitsThreeParts; both fail from the same `split(".")`)'],
  ['python-ctypes-cdll-undefined-symbol-renamed-c-function', 'gcc\'s `implicit declaration of function \'weight_at\'` warning (native/luhn.c:8) is given; the label has the Python frame that loaded the library (checkdigit/native.py:4, `ctypes.CDLL(...)`)'],
  ['tclsh-run-expected-integer-but-got-unit-suffix', 'errorInfo\'s file frame (rollout.tcl:3, the top-level `puts` that called the procedure) is given; the label has the procedure\'s line in the sourced lib/rollout.tcl (15), which the log names only as `(procedure "total_pause" line 4)`'],
  // Round 25 (asserted since HELDOUT_ROUND 26).
  ['testthat-error-subscript-out-of-bounds-long', 'testthat\'s section heading\'s place (test-vat.R:452, the test) is given; the label has no place since loc4\'s basename fix (its sourceLine R/vat.R:5, the raise site, which the log does not print: the backtrace\'s last frame is `global vat(10, "books")`)'],
  // Round 26 (asserted since HELDOUT_ROUND 27).
  ['gfortran-runtime-error-end-of-file-read', 'the first excerpt (the stdout flushed after libgfortran\'s report) takes the backtrace\'s `at src/load.f90:14` (main\'s call) above it; the label has load_rates\' line 9 (`At line 9 of file src/load.f90`)'],
  ['eslint-no-self-assign-refactor-typo', 'eslint\'s first error of src/cart.js (line 2, `no-unused-vars` for the constructor\'s parameter the typo left unused) is given; the label has the `no-self-assign` at line 3 below it'],
  ['lld-version-script-symbol-not-defined-long', 'the Makefile\'s line 15 (make\'s `Makefile:15: recipe for target` under the linker\'s error) is given; the label has no place (ld.lld names the version script\'s symbol, no line)'],
  ['ruby-getaddrinfo-name-not-known-internal-host', 'the script\'s frame bin/fetch_latest.rb:6 (the `Net::HTTP.get` call) is given; the label has no place (its sourceLine config/artifacts.env:1, the host set there, which the log does not print)'],
  // Round 27 (asserted since HELDOUT_ROUND 28).
  ['gcc-make-assignment-read-only-const-param-long', 'gcc\'s first error (src/buf.c:8, `passing argument 1 of ‘memcpy’ discards ‘const’ qualifier`, an error by `-Werror=discarded-qualifiers`) is given; the label has the second, line 9\'s `assignment of member ‘len’ in read-only object`'],  // Round 28 (asserted since HELDOUT_ROUND 29).
  ['escript-badkey-maps-get-renamed-field', 'the Erlang evaluator\'s own frame (erl_eval.erl:744, OTP\'s, under escript\'s `exception error: bad key`) is given; the label has no place (the escript\'s line is not in the log)'],  // Round 29 (asserted since HELDOUT_ROUND 30).
  // Rounds 29-30: the vendored jars' frames over the project's Main.java (IllegalAccessError, NoClassDefFoundError,
  // NoSuchFieldError) are placed right since session 57 (helper jv1: core/finding/frames.ts `markUncompiled`).
  // Round 31 (asserted since HELDOUT_ROUND 32; docs/notes/analyzer.md, "Round 31 opened (session 57, helper t32)").
  ['gfortran-unrecognized-option-std-f2023', 'make\'s recipe line (Makefile:6) is given; the label has no place (the compiler is older than the standard the Makefile asks for, no Makefile line is wrong)'],
]);

/**
 * Rounds 7, 8, 9 and 10 (7-8 asserted since HELDOUT_ROUND 9, 9 since 10, 10 since 11; docs/notes/analyzer.md, "Round 9 preparation: everyday
 * tools (helper tf)"): the rows still missed, each with why. A listed miss may give `unknown` and no
 * place, or the expected ones, never another class or place (KNOWN_WRONG names the few that still do).
 */
const OTHER_TOOL = 'a tool outside the everyday families whose report no general rule reads yet';
const KNOWN_MISS = new Map<string, string>([
  // Message only: labelled with undici's outer `TypeError: fetch failed`; the cause's line is the message now (ux15, session 53: the cause says why). Class and place right.
  ['node-fetch-other-side-closed', 'message: the label is the outer fetch failed, the finding the [cause] line'],
  ...[
    'apache2ctl-invalid-command', 'appstream-util-validate-missing-tag',
    'depcruise-forbidden-dependency', 'flawfinder-min-level-hit', 'gcovr-fail-under-line', 'haproxy-check-missing-backend', 'jdeps-missing-dependence',
    'jsonschema-cli-type-error', 'lcov-no-gcda-files', 'makeinfo-undefined-node', 'mlr-csv-ragged', 'plantuml-syntax-error', 'podchecker-over-without-back',
    'rsvg-convert-ulimit', 'sox-mp3-no-handler', 'ssh-keygen-verify-unknown-signer',
    'textlint-rule-not-found', 'tidy-html-unknown-element', 'twine-check-rst-markup', 'varnishd-vcl-unknown-variable',
    'visudo-sudoers-syntax', 'xmlstarlet-mismatched-tag', 'yosys-module-not-in-design', 'yq-config-parse-error', 'zsh-nomatch-glob',
  ].map((id): [string, string] => [id, `unknown: ${OTHER_TOOL}`]),
  // Read as a wrong class before helper tf2 (docs/notes/analyzer.md, "No wrong class"): now unknown, the evidence being weak.
  ['clisp-undefined-function', 'unknown: `-on-error` is no output flag, so no translation; an interpreter\'s error with no place is not yet read as a run-time error'],
  ['csvcut-column-invalid', 'unknown: `-c` beside a .csv is a column list, so no translation; an exception line of an unknown program stays unknown'],
  ['phpcs-standard-not-installed', 'unknown: a checker that could not load its own standard reports nothing of the checked files (no lint); missing-tool is not established'],
  ['optipng-disk-full', 'unknown: the log says only `Can\'t write the output file`; the full volume is never printed'],
  // Right class, the message is a neighbour of the labelled one.
  ['avr-gcc-data-region-overflow', "message: collect2's `ld returned 1 exit status` where the label has ld's `not within region` line (class right since t16: an earlier sure excerpt over an unknown top)"],
  ['clisp-loop-timeout', 'message: the exit status 124, not clisp\'s `Exiting on signal 15` above it'],
  ['docker-socket-permission', 'message: docker\'s config-file warning (also a permission denial) above the socket\'s'],
  ['flow-check-incompatible-type', 'message: flow\'s `Error ----` heading over its sentence'],
  ['pngcheck-crc-error', 'message: the summary `ERROR: file` over pngcheck\'s reason'],
  ['typedoc-plugin-not-found', 'message: Node\'s ERR_MODULE_NOT_FOUND under typedoc\'s own sentence'],
  ['stylus-parse-error', 'message: the launcher\'s `.../stylus/bin/stylus:684` line over stylus\'s `unexpected "}"` (class and place right since cl2\'s rule, landed in session 54: a syntax error at a line of a file the command was given)'],
  // Round 9 (asserted since HELDOUT_ROUND 10; docs/notes/analyzer.md, "Round 9 opened (helper t9)").
  ['npm-version-changelog-check', 'unknown: the project script\'s own sentence (the message since msg1), with no tool wording to read'],
  // tune5 (docs/notes/analyzer.md, "Eighth session (helper t10)").
  ['npm-engine-strict-ebadengine', 'message: npm\'s `Required: {"node":">=22"}` (the finding names the version, a decision of round 4) where the label has the line above it, `Not compatible with your version of node/npm: pkg`'],
  // Round 10 (asserted since HELDOUT_ROUND 11; docs/notes/analyzer.md, "Round 10 held out: measured").
  ['meson-test-c-fail', 'unknown from the log alone: meson prints only `Full log written to ...testlog.txt`; the failed check is in that file (the bench reads it as context)'],
  // Round 11 (asserted since HELDOUT_ROUND 12; docs/notes/analyzer.md, "Round 11 opened (helper t12)").
  ['maven-junit5-csv-argument-conversion', 'message: the innermost `Caused by: DateTimeException` where the label has the outer `ParameterResolutionException`'],
  // Round 12 (asserted since HELDOUT_ROUND 13; docs/notes/analyzer.md, "Round 12 opened (helper t13)").
  ['cmake-cxx-std-26-unknown', 'message: CMake\'s `The compiler feature "cxx_std_26" is not known to CXX compiler` where the label has the paragraph down to the compiler\'s version (class and place right since helper ml3\'s rule)'],
  ['cmake-submodule-dir-empty', 'message: CMake\'s last line of the paragraph (`does not contain a CMakeLists.txt file.`) where the label has the paragraph from `The source directory`'],
  ['maven-postgres-unknown-host', 'message: the innermost `Caused by: UnknownHostException` where the label has the outer PSQLException (the place, Db.java\'s frame, is right since loc2)'],
  ['python-popen-pipe-deadlock', 'message: the runner\'s `##[error]` prefix is taken off the `Process completed with exit code 124.` line; the label keeps it'],
  ['pipeline-cpu-time-limit-exceeded', 'location: bash\'s `ci.sh: line 4: ... CPU time limit exceeded` line is not given as the place'],
  // Round 13 (asserted since HELDOUT_ROUND 14; docs/notes/analyzer.md, "Round 13 opened (helper t14)").
  ['cargo-workspace-member-renamed', 'message: cargo\'s `Caused by:` line under `failed to load manifest for workspace member` is given'],
  // Round 14 (asserted since HELDOUT_ROUND 16; docs/notes/analyzer.md, "Rounds 14 and 15 opened (helper t16)").
  ['bash-golden-diff-test-script', 'unknown: a test script\'s own `FAIL x: output differs` lines and `0 passed, 2 failed` summary (a diff of its own printed above) are not read'],
  ['maven-deploy-unauthorized', 'message: maven\'s `[WARNING] Could not transfer metadata` where the label has the `[ERROR] Failed to retrieve remote metadata` line'],
  ['python-compileall-indentation-error', 'unknown: compileall\'s `*** Error compiling \'f.py\'...` over the IndentationError below it is not read'],
  // Round 15 (asserted since HELDOUT_ROUND 16).
  ['bash-pipe-subshell-counter-lost', 'unknown: the script\'s own refusal (`refusing to tag an empty release`), with no tool wording to read'],
  ['go-mod-toolchain-directive-old-go', 'unknown: go\'s `go.mod:5: unknown directive: toolchain` (a Go older than 1.21) is not read as a missing tool (the message since t22, session 47: the command\'s own place line over the Pipeline\'s exit code)'],
  ['node-fetch-self-signed-https', 'message: the `[cause]: Error: self-signed certificate` where the label has the outer `TypeError: fetch failed`'],
  ['prettier-major-upgrade-check', 'message: prettier\'s `[warn] file` line where the label has its `[warn] Code style issues found` summary'],
  ['pytest-required-plugins-missing', 'unknown: pytest\'s `Missing required plugins: X` (an ini\'s required_plugins) is not read as missing-tool'],
  ['python-generated-code-drift-check', 'unknown: the project\'s drift check (`X is out of date with Y; run ... and commit`) is held only as a likely ci-script'],
  // Round 16 (asserted since HELDOUT_ROUND 17; docs/notes/analyzer.md, "Round 16 opened (helper t17)").
  ['automake-tap-driver-not-ok-long', 'unknown: automake\'s TAP driver `FAIL: t/parse.sh 57 - ...` (a `not ok` of the script) is not read as an assertion'],
  ['bash-xmalloc-ulimit-large-capture', 'unknown: bash\'s own `xrealloc: cannot allocate N bytes` (a ulimit -v) is not read as out of memory; Jenkins\' `marked build as failure` is the message'],
  ['go-test-tempdir-cleanup-readonly-long', 'message: the `--- FAIL:` line where the label has `TempDir RemoveAll cleanup: ... permission denied` above it'],
  ['go-test-testmain-setup-fatal', 'unknown: a TestMain\'s log.Fatal (`setup: open testdata/seed.sql: ...`) before any test ran is not read as a test error'],
  ['go-test-waitgroup-hang-pipeline', 'message: `Timeout has been exceeded` (the cause Jenkins records, msg3) where the label has `Cancelling nested steps due to timeout`'],
  ['pytest-subprocess-lock-hang', 'message: `Timeout has been exceeded` where the label has `Cancelling nested steps due to timeout`'],
  ['python-ssl-self-signed', 'message: urllib\'s outer `URLError: <urlopen error [SSL: ...]>` where the label has the `ssl.SSLCertVerificationError` above it'],
  // Round 17 (asserted since HELDOUT_ROUND 18; docs/notes/analyzer.md, "Round 17 opened (helper t18)").
  ['bash-sed-inplace-bsd-syntax', 'unknown: GNU sed\'s `sed: can\'t read s/.../: No such file or directory` (BSD `sed -i \'\'` syntax: the expression read as a file) is not read as a script error'],
  ['git-commit-author-identity-unknown', 'unknown: git\'s `fatal: unable to auto-detect email address` (no user.email on the agent) is held only as a likely script error'],
  ['gradle-jar-enospc', 'message: gradle\'s `Caused by: org.gradle.api.UncheckedIOException: java.io.IOException: No space left on device` where the label has the `Caused by: java.io.IOException` line below it'],
  ['make-pkg-config-package-not-found', 'message: pkg-config\'s `Package \'x\', required by \'virtual:world\', not found` where the label has `Package x was not found in the pkg-config search path.` above it'],
  ['maven-dependency-version-missing', 'unknown: maven\'s model problem `\'dependencies.dependency.version\' for g:a:jar is missing. @ line 15` is not read (held as a likely dependency error); the framing `Some problems were encountered while processing the POMs:` is the message (the place, cli/pom.xml:15, is right since loc3)'],
  ['node-fetch-cert-has-expired', 'message: the `[cause]: Error: certificate has expired` line where the label has `TypeError: fetch failed` (rounds 2 and 9 label the cause)'],
  ['node-test-open-interval-pipeline-timeout', 'message: `Timeout has been exceeded` where the label has `Cancelling nested steps due to timeout`'],
  ['pip-externally-managed-environment', 'unknown: pip\'s `error: externally-managed-environment` (PEP 668) is held only as a likely script error; its `× This environment is externally managed` is the message'],
  // Round 18 (asserted since HELDOUT_ROUND 19; docs/notes/analyzer.md, "Round 18 opened (helper t19)").
  ['go-work-use-dir-missing-gomod', 'unknown: go\'s `go: open .../tools/migrate/go.mod: no such file or directory` (go.work\'s `use` of a directory without go.mod) is not read as a dependency error'],
  ['pip-check-broken-requirement', 'location: `pip check` names no file; pip install\'s `Processing ...pydantic_core... (from -r requirements.lock (line 3))` above it, the place of the version that does not fit, is not read'],
  ['node-fetch-localhost-ipv6-econnrefused', 'message: the `[cause]: Error: connect ECONNREFUSED 127.0.0.1:N` line where the label has `TypeError: fetch failed` (as node-fetch-cert-has-expired)'],
  ['python-urlopen-no-timeout-pipeline-timeout', 'message: `Timeout has been exceeded` where the label has `Cancelling nested steps due to timeout`'],
  // Round 19 (asserted since HELDOUT_ROUND 20; docs/notes/analyzer.md, "Round 19 opened (helper t20)").
  ['pytest-import-file-mismatch', 'message: pytest\'s `___ ERROR collecting tests/db/test_helpers.py ___` heading where the label has `import file mismatch:` under it (class right since t20: no check under a collection error)'],
  ['go-test-v-buffer-trailing-newline-long', 'message, test: the last subtest\'s `Render(6, 6) = ...` line (TestRender/aisle6/bay6) where the label has the first failure (Render(1, 1), TestRender/aisle1/bay1)'],
  ['gradle-builddir-tmpfs-full', 'message: gradle\'s `Caused by: ...IOException: No space left on device` where the label has the `Could not copy file \'...rules.csv\' to \'...\'` line above it'],
  ['jest-modulenamemapper-could-not-locate', 'message: jest\'s `Configuration error:` heading where the label has `Could not locate module @/utils/money mapped as:` below it'],
  ['make-check-fifo-read-timeout-124', 'location: make\'s `[Makefile:5: integration] Terminated` is the message (since t20) but its recipe line is not given as the place (round 10\'s c-pthread-deadlock-timeout labels none for the same line)'],
  ['npm-eintegrity-vendored-tarball', 'message: npm\'s `integrity checksum failed when using sha512` where the label has `npm error code EINTEGRITY`'],
  ['pip-no-index-no-matching-distribution', 'message: pip\'s `Could not find a version that satisfies the requirement` where the label has `No matching distribution found for` below it'],
  // Round 20 (asserted since HELDOUT_ROUND 21; docs/notes/analyzer.md, "Round 20 opened (helper t21)").
  ['docker-buildx-not-installed', 'unknown: docker\'s `docker: unknown command: docker buildx` (the buildx plugin not installed) is not read as a missing tool (the message since t22, session 47, over the Pipeline\'s `script returned exit code 1`)'],
  ['python-asyncio-event-wait-step-timeout', 'unknown: the program\'s last line `waiting for the catalog to be ready` is the message where the label has the step\'s time limit (`Build step \'Execute shell\' marked build as failure`)'],
  ['sqlite3-foreign-key-constraint-failed', 'unknown: sqlite3\'s `Runtime error near line 10: FOREIGN KEY constraint failed (19)` is not read as a runtime error'],
  ['pylint-fail-under-score', 'message: pylint\'s first message where the label has its score line `Your code has been rated at 8.11/10 ...` (under --fail-under)'],
  ['c-run-sigbus-mmap-truncated-file', 'unknown from the log alone: make\'s echoed `mkdir -p build` is the first excerpt (no error words); with the passing build as baseline (the bench) make\'s `[Makefile:6: check] Bus error` is the finding, right'],
  // Round 21 (asserted since HELDOUT_ROUND 22; docs/notes/analyzer.md, "Round 21 opened (helper t22)").
  ['autoconf-pkg-check-modules-not-met-long', 'unknown: configure\'s `Package requirements (sqlite3 >= 3.45.0) were not met:` (PKG_CHECK_MODULES) is not read as a dependency error (the class model\'s likely guess is)'],
  ['autoreconf-libtoolize-not-found', 'unknown: automake\'s `Libtool library used but \'LIBTOOL\' is undefined` (libtool not installed) is not read as a missing tool (the class model\'s likely guess is)'],
  ['erl-max-heap-size-process-killed', 'unknown; message: the Erlang error logger\'s `Error Logger:       true` line where the label has its `Context:            maximum heap size reached` (a process killed at max_heap_size)'],
  ['gradle-ci-unknown-command-line-option', 'unknown; message: a line of gradle\'s option help (`--scan  Creates a build scan ...`) where the label has `Unknown command-line option \'--paralell\'.` above it'],
  ['gradle-offline-plugins-dsl-id-not-found', 'unknown: gradle\'s `Plugin [id: ...] was not found in any of the following sources:` (offline, the plugin not cached) is not read as a dependency error'],
  ['pip-wheel-platform-tag-not-supported', 'unknown: pip\'s `... .whl is not a supported wheel on this platform.` is not read as a dependency error'],
  ['escript-httpc-failed-connect-econnrefused', 'message: the last line of the wrapped term (`{inet,[inet],econnrefused}]}}`) where the label has escript\'s `exception error: no match of right hand side value {error, {failed_connect, ...` from its first line'],
  ['java-timer-nondaemon-thread-pipeline-timeout', 'message: the Pipeline\'s `Timeout has been exceeded` where the label has its `Cancelling nested steps due to timeout`'],
  ['openssl-s-client-connect-refused', 'message: openssl\'s `...:error:8000006F:system library:BIO_connect:Connection refused:...` where the label has `connect:errno=111` below it'],
  ['pip-proxy-env-connection-refused', 'message: pip\'s retry warning `\'Cannot connect to proxy.\', NewConnectionError(...)` where the label has `ERROR: Could not find a version that satisfies the requirement six==1.17.0 (from versions: none)`'],
  ['pytest-ci-k-expression-syntax', 'message: pytest\'s `no tests ran in 3.62s` where the label has `ERROR: Wrong expression passed to \'-k\': ...`'],
  ['cargo-test-chunks-exact-drops-remainder-long', 'message: the assertion\'s first line `assertion `left == right` failed` where the label has it with `left: [3, 4, 5]` and `right: [6]` (the bench counts it right, a part of the label)'],
  ['perl-poll-status-file-timeout-124', 'message: the runner\'s `##[error]` prefix is taken off the `Process completed with exit code 124.` line; the label keeps it (the bench counts it right)'],
  ['escript-halt-silent-status', 'message from the log alone: the echoed `+ escript scripts/precheck.escript ...` is the first excerpt; with the passing build as baseline (the bench) the Pipeline\'s `Build step \'Execute shell\' marked build as failure` is, right'],
  ['java-manifest-check-silent-exit', 'message from the log alone: the echoed `+ mkdir -p build/tools` is the first excerpt; with the passing build as baseline (the bench) the Pipeline\'s `Build step \'Execute shell\' marked build as failure` is, right'],
  ['node-release-check-exitcode-silent', 'message from the log alone: npm\'s `tiny-cron@4.1.0 release:check` banner is the first excerpt; with the passing build as baseline (the bench) the runner\'s `Process completed with exit code 2.` is, right'],
  // Round 22 (asserted since HELDOUT_ROUND 23; docs/notes/analyzer.md, "Round 22 opened (helper t23)").
  ['maven-version-property-renamed-unresolved', 'unknown: Maven\'s `\'dependencies.dependency.version\' for ... must be a valid version but is \'${...}\'` (a property the commit renamed) is not read as a dependency error (the class model\'s likely guess is)'],
  ['gradle-junit4-float-loop-never-ends-pipeline-timeout', 'message: the Pipeline\'s `Timeout has been exceeded` where the label has its `Cancelling nested steps due to timeout`'],
  ['node-bundle-size-budget-silent-exit', 'message from the log alone: the echoed `+ node scripts/bundle.js` is the first excerpt; with the passing build as baseline (the bench) the Pipeline\'s `Build step \'Execute shell\' marked build as failure` is, right'],
  // Round 23 (asserted since HELDOUT_ROUND 24; docs/notes/analyzer.md, "Round 23 opened (session 49, helper t24)").
  ['lz4-compress-tmpfs-write-error', 'unknown: lz4\'s `Error 42 : Write error : failed writing single-block compressed frame` names no cause (the artifact volume is full; no `No space left on device` in the log) (the class model\'s likely guess is)'],
  ['cargo-run-barrier-count-mismatch-timeout-124', 'message: the runner\'s `##[error]` prefix is taken off the `Process completed with exit code 124.` line; the label keeps it (the bench counts it right)'],
  ['gradle-junit4-string-split-dot-regex-empty-array', 'message, test: the first failing test\'s `java.lang.AssertionError at VersionTest.java:15` (singleNumberIsOnePart) where the label has the second\'s (line 10, splitsThreeParts)'],
  ['java-lock-ordering-deadlock-pipeline-timeout', 'message: the Pipeline\'s `Timeout has been exceeded` where the label has its `Cancelling nested steps due to timeout`'],
  ['pytest-c-extension-helper-source-not-listed-undefined-symbol', 'location: pytest\'s import traceback frame `pixstats/__init__.py:1: in <module>` (the import that loaded the extension) is not given'],
  ['tclsh-exit-silent-status', 'message: the runner\'s `##[error]` prefix is taken off the `Process completed with exit code 2.` line; the label keeps it (the bench counts it right)'],
  // Round 24 (asserted since HELDOUT_ROUND 25; docs/notes/analyzer.md, "Round 24 opened (session 50, helper t25)").
  ['gradle-project-dependency-configuration-not-found', 'unknown: gradle\'s nested cause `Project :app declares a dependency from configuration \'testCompile\' to configuration \'testOutput\' which is not declared in the descriptor for project :core.` (the message since msg1: Gradle\'s innermost `> ` cause) is not read as a dependency error'],
  ['lua-os-exit-silent-status', 'message: the runner\'s `##[error]` prefix is taken off the `Process completed with exit code 4.` line; the label keeps it (the bench counts it right)'],
  ['maven-junit5-blockingqueue-poison-pill-removed-pipeline-timeout-long', 'message: the Pipeline\'s `Timeout has been exceeded` where the label has its `Cancelling nested steps due to timeout`'],
  ['minitest-verbose-assert-equal-floor-vs-round-long', 'message: minitest\'s `Expected: 11.9` alone where the label has it with the next line, `  Actual: 11.89`'],
  ['mix-format-check-formatted-not-formatted', 'message: `The following files are not formatted:` (lint, right) where the label has mix\'s `** (Mix) mix format failed due to --check-formatted.` above it'],
  // Round 25 (asserted since HELDOUT_ROUND 26; docs/notes/analyzer.md, "Round 25 opened, session 51 (helper t26)").
  ['bash-assoc-array-bad-subscript-empty-key', 'unknown: bash\'s own `ci.sh: line 3: owner[$team]: bad array subscript` (an empty key of an associative array) is not read as a script error (the class model\'s likely guess is)'],
  ['java-executor-not-shutdown-jvm-never-exits-pipeline-timeout', 'message: the Pipeline\'s `Timeout has been exceeded` where the label has its `Cancelling nested steps due to timeout`'],
  ['unittest-v-semaphore-release-skipped-on-error-pipeline-timeout-long', 'message: the Pipeline\'s `Timeout has been exceeded` where the label has its `Cancelling nested steps due to timeout`'],
  ['ocaml-exit-silent-status', 'message: the runner\'s `##[error]` prefix is taken off the `Process completed with exit code 2.` line; the label keeps it (the bench counts it right)'],
  ['java-jni-helper-source-not-compiled-undefined-symbol', 'location: the JVM\'s frame `at dev.acme.crc.Crc32c.<clinit>(Crc32c.java:5)` (the class\'s loadLibrary) under `UnsatisfiedLinkError: .../libcrc.so: undefined symbol` is not given'],
  // Round 26 (asserted since HELDOUT_ROUND 27; docs/notes/analyzer.md, "Round 26 opened, session 52 (helper t27)").
  ['gfortran-runtime-error-end-of-file-read', 'unknown, message: the program\'s stdout flushed after libgfortran\'s report (`standard  20.0`) is the first excerpt; `Fortran runtime error: End of file` under `At line 9 of file src/load.f90 (unit = 10, ...)` (the second) has no rule (its likely guess is right)'],
  ['hspec-map-union-left-biased-override-long', 'unknown, message: hspec\'s `1) effective (overrides) lets the job\'s timeout win ...` heading where the label has its `expected: Just "30"` / `but got: Just "10"` (the likely guess is right)'],
  ['lld-version-script-symbol-not-defined-long', 'unknown: ld.lld\'s `version script assignment of \'CODEC_1.0\' to symbol \'codec_free\' failed: symbol not defined` read as the build script\'s (ci-script, medium) and set aside; the label has a link error (the likely guess)'],
  ['maven-f-pom-moved-to-subdir-does-not-exist', 'message: Maven\'s `[FATAL] Non-readable POM .../service/pom.xml` where the label has `POM file service/pom.xml specified with the -f/--file command line argument does not exist` (class right since t29, session 54: a tool\'s refusal of an operand of the script\'s command, refused.ts)'],
  ['prove-v-version-strings-numeric-compare-long', 'unknown, message, place: prove\'s summary `Failed 1/302 subtests` (a test error, low, set aside) where the label has Test::More\'s `#   Failed test \'1.10 is newer than 1.9\'` and its `#   at t/newest.t line 10.`'],
  ['runghc-non-exhaustive-patterns-new-constructor', 'unknown, message, place: GHC\'s runtime error is printed on the line of the program\'s stdout it interrupted (`payments -> notify.hs: scripts/notify.hs:(7,1)-(9,29): Non-exhaustive patterns in function channel`), not at the margin; the Pipeline\'s exit line is taken'],
  ['cargo-test-str-len-bytes-not-chars-long', 'message: the assertion\'s first line `assertion `left == right` failed` alone where the label has it with its `left:` and `right:` lines'],
  ['eslint-no-self-assign-refactor-typo', 'message: eslint\'s first error of the file (`no-unused-vars`, line 2) where the label has the `no-self-assign` below it (`\'this.items\' is assigned to itself`)'],
  ['ghc-werror-incomplete-patterns-new-constructor', 'message: GHC\'s heading `src/Report.hs:6:11: error: [-Wincomplete-patterns, -Werror=incomplete-patterns]` where the label has its sentence below, `Pattern match(es) are non-exhaustive`'],
  ['hspec-error-fromjust-nothing-long', 'message: hspec\'s `uncaught exception: ErrorCall` where the label has the call\'s words below it, `Maybe.fromJust: Nothing`'],
  ['java-completablefuture-never-completed-join-timeout-124', 'message: the runner\'s `##[error]` prefix is taken off the `Process completed with exit code 124.` line; the label keeps it (the bench counts it right)'],
  ['ocaml-unix-read-waits-for-banner-timeout-124', 'message: the runner\'s `##[error]` prefix is taken off the `Process completed with exit code 124.` line; the label keeps it (the bench counts it right)'],
  ['pip-install-local-core-major-bump-resolutionimpossible', 'message: pip\'s `ERROR: Cannot install -r requirements.txt (line 2) and acme-core 2.0.0 ... because these package versions have conflicting dependencies.` where the label has its closing `ERROR: ResolutionImpossible: for help visit ...`'],
  ['pytest-v-socket-recv-settimeout-removed-pipeline-timeout-long', 'message: the Pipeline\'s `Timeout has been exceeded` where the label has its `Cancelling nested steps due to timeout`'],
  ['python-ssl-certificate-ip-address-mismatch', 'message: urllib\'s wrapper `urllib.error.URLError: <urlopen error [SSL: CERTIFICATE_VERIFY_FAILED] ... IP address mismatch ...>` where the label has the chained `ssl.SSLCertVerificationError: ...` above it (same words)'],
  // Round 27 (asserted since HELDOUT_ROUND 28; docs/notes/analyzer.md, "Round 27 opened (session 53, helper t28)").
  ['gcc-make-assignment-read-only-const-param-long', 'message: gcc\'s first error (`src/buf.c:8:20: error: passing argument 1 of ‘memcpy’ discards ‘const’ qualifier ... [-Werror=discarded-qualifiers]`) where the label has the second (`src/buf.c:9:12: error: assignment of member ‘len’ in read-only object`), both from the `const` the commit added'],
  ['perl-waitpid-child-never-exits-timeout-124', 'message: the runner\'s `##[error]` prefix is taken off the `Process completed with exit code 124.` line; the label keeps it (the bench counts it right)'],
  ['pip-install-direct-reference-renamed-project-inconsistent-name', 'message: pip\'s `ERROR: Could not find a version that satisfies the requirement acme-money (unavailable)` where the label has its cause above, `Discarding file:///...: Requested acme-currency from file:///... has inconsistent name: expected \'acme-money\', but metadata has \'acme-currency\'`'],
  ['prove-v-illegal-division-by-zero-empty-window-long', 'message, place: prove\'s `Dubious, test returned 255` / summary (test-error, low) is the first excerpt; the script\'s die `Illegal division by zero at lib/Stats.pm line 8.` (over `# Looks like your test exited with 255 just after 300.`, at the log\'s top: stderr before the TAP output) is read by its rule in a later excerpt and set aside there (keepAt)'],
  ['pytest-v-socketserver-shutdown-without-serve-forever-pipeline-timeout-long', 'message: the Pipeline\'s `Timeout has been exceeded` where the label has its `Cancelling nested steps due to timeout`'],  // Round 28 (asserted since HELDOUT_ROUND 29; docs/notes/analyzer.md, "Round 28 opened (session 54, helper t29)").
  ['cargo-build-links-native-library-conflict', 'message: cargo\'s `error: failed to select a version for `zstd-sys`.` where the label has its reason below, `package `zstd-sys` links to the native library `zstd`, but it conflicts with a previous package which links to `zstd` as well:` (class right)'],
  ['cargo-run-tcp-read-without-timeout-timeout-124', 'message: the runner\'s `##[error]` prefix is taken off the `Process completed with exit code 124.` line; the label keeps it (the bench counts it right)'],
  ['java-double-loop-step-never-equals-end-timeout-124', 'unknown: a silent `timeout 20 java ...` under `bash -xe` (exit 124, nothing printed) ends on Jenkins\' `Build step \'Execute shell\' marked build as failure` (the message, right); the status 124 is not in the log, so no time limit is read'],
  ['node-webassembly-import-renamed-linkerror', 'unknown: `[LinkError: WebAssembly.instantiate(): Import #0 module="env" function="report" error: function import requires a callable]` (a printed rejection, no `Uncaught`) is not read as a link error'],
  ['perl-use-v5-40-required-this-is-only-v5-36', 'unknown: perl\'s `Perl v5.40.0 required--this is only v5.36.0, stopped at lib/Acme/Ledger.pm line 2.` is read as a runtime exception (medium) and set aside; the label has a missing tool (the agent\'s perl is too old; the likely guess is right)'],
  ['pip-install-find-links-prerelease-only-no-matching-distribution', 'message: pip\'s `Could not find a version that satisfies the requirement acme-report>=2.0 (from versions: 1.4.0, 2.0rc1)` where the label has `No matching distribution found for` below it (as r19 pip-no-index-no-matching-distribution; class right)'],
  ['prove-v-cant-use-undefined-value-as-array-ref-long', 'message, place: prove\'s test error (low) has an empty message and no place where the label has perl\'s `Can\'t use an undefined value as an ARRAY reference` at lib/Order.pm line 15 (class right)'],
  ['pytest-ci-marker-expression-trailing-and-wrong-expression', 'message: pytest\'s `no tests ran in 0.23s` where the label has `ERROR: Wrong expression passed to \'-m\': ...` above it (as r21 pytest-ci-k-expression-syntax; class right)'],
  ['pytest-v-condition-notify-removed-thread-join-pipeline-timeout-long', 'message: the Pipeline\'s `Timeout has been exceeded` where the label has its `Cancelling nested steps due to timeout`'],
  ['tclsh-run-cant-read-no-such-element-in-array', 'location: errorInfo\'s `(file "deploy.tcl" line 8)` under the `for` body\'s frames is not given (class and message right)'],
  ['tcltest-v-string-is-integer-empty-accepted-long', 'unknown, message: tcltest\'s `==== qty-empty FAILED` (a test error, low, set aside) where the label has its `Test completed normally; Return code was: 0` (the body returned where an error was expected: an assertion)'],
  // Round 29 (asserted since HELDOUT_ROUND 30; docs/notes/analyzer.md, "Round 29 opened (session 55, helper t30)").
  ['bash-wait-without-pid-background-server-timeout-124', 'message: the runner\'s `##[error]` prefix is taken off the `Process completed with exit code 124.` line; the label keeps it (the bench counts it right)'],
  ['cargo-features-includes-neither-dependency-nor-feature', 'unknown, message: cargo\'s `error: failed to parse manifest at .../Cargo.toml` heading is the message; its reason below, `feature `pretty` includes `fmtlib` which is neither a dependency nor another feature` (a feature naming a renamed optional dependency), is not read (the label has a dependency error)'],
  ['cargo-test-trim-end-matches-zeros-integer-price', 'message: the panic\'s first line (`assertion `left == right` failed`) is the message; the label also keeps its `left:` and `right:` lines below (the bench counts it right)'],
  ['ld-undefined-reference-start-section-symbol-renamed', 'message: ld\'s first undefined reference in the log (`__stop_plugins`) is the message; the label has the second (`__start_plugins`), both from the one section renamed (class right)'],
  ['node-child-process-stdin-not-ended-pipeline-timeout-long', 'message: the Pipeline\'s `Timeout has been exceeded` where the label has its `Cancelling nested steps due to timeout`'],
  ['prove-v-cant-locate-object-method-renamed-long', 'message, place: prove\'s test error (low) has an empty message and no place where the label has perl\'s `Can\'t locate object method "total_cents" via package "Invoice" at t/invoice.t line 11.` (as r28 prove-v-cant-use-undefined-value-as-array-ref-long; class right)'],
  ['prove-v-last-index-instead-of-count-long', 'unknown, message, place: prove -v\'s `not ok 301 - count after three adds` (a test error, low, set aside) where the label has Test::More\'s `#   Failed test \'count after three adds\'` below it, at t/cart.t line 12 (an assertion)'],
  // Round 30 (asserted since HELDOUT_ROUND 31; docs/notes/analyzer.md, "Round 30 opened (session 56, helper t31)").
  ['cmake-file-download-http-401-token-expired', 'unknown: the project\'s own `message(FATAL_ERROR ...)` under `CMake Error at CMakeLists.txt:8 (message):` quotes file(DOWNLOAD)\'s status `22;"HTTP response code said error"` (curl\'s CURLE_HTTP_RETURNED_ERROR: an HTTP status >= 400, here a 401 for an expired token) without the status; not read (the label has a refused credential)'],
  ['ctest-c-snprintf-buffer-shrunk-truncated-id-long', 'unknown, message, place: CTest\'s `Errors while running CTest` (a test error, low, set aside) where the label has the test program\'s own check line under `--output-on-failure` (`tests/test_record.c:10: record id is "eu-central-1-00", expected "eu-central-1-000042"`: an assertion at that place)'],
  ['ghc-could-not-load-module-hidden-package-containers', 'message: GHC\'s `src/Index.hs:3:1: error: Could not load module ‘Data.Map.Strict’` heading is the message; the label has its reason below, `It is a member of the hidden package ‘containers-0.6.4.1’.` (class and place right)'],
  ['ghc-exitwith-silent-status', 'message: the `-x` trace\'s last command (`+ ./build/check-ports`, which printed nothing and exited non-zero) is the message; the label has Jenkins\'s `Build step \'Execute shell\' marked build as failure` (class right: unknown)'],
  ['ghc-run-prelude-head-empty-list', 'unknown: a compiled Haskell program\'s uncaught exception (`notes: Prelude.head: empty list`: GHC\'s runtime prints `<prog>: <exception>` and exits 1) is not read; the label has a runtime exception'],
  ['go-run-http-server-gave-http-response-to-https-client', 'unknown: Go\'s net/http `http: server gave HTTP response to HTTPS client` (a TLS client answered in plain HTTP) is not read (the likely guess is right: the network)'],
  ['gxx-run-condition-variable-wait-without-predicate-lost-wakeup-124', 'message: the runner\'s `##[error]` prefix is taken off the `Process completed with exit code 124.` line; the label keeps it (the bench counts it right)'],
  ['java-process-waitfor-child-stdout-pipe-full-pipeline-timeout-long', 'message: the Pipeline\'s `Timeout has been exceeded` where the label has its `Cancelling nested steps due to timeout` (as r29\'s two)'],
  ['maven-junit5-unbounded-memo-cache-heap-space-long', 'message: the JVM\'s first `Exception: java.lang.OutOfMemoryError thrown from the UncaughtExceptionHandler in thread "surefire-forkedjvm-stream-flusher"` is the message; the label has the same line of thread "main" (class right)'],
  ['php-ftp-login-530-password-rotated-secret-stale', 'message: the script\'s own `FTP login failed for reports@127.0.0.1:47514` is the message; the label has PHP\'s warning above it, `ftp_login(): Login incorrect.` at bin/upload.php line 16 (class right)'],
  ['pytest-ci-marker-typo-all-deselected-exit-5', 'message: pytest\'s `collected 3 items / 3 deselected / 0 selected` is the message; the label has its summary `3 deselected in 0.12s` (class right: every test deselected by a `-m` typo, exit code 5)'],
  ['xz-decompress-memory-usage-limit-reached-preset-9', 'unknown, message: tar\'s `Exiting with failure status due to previous errors` (the pipe\'s last command) is the message; the label has xz\'s `bundle.tar.xz: Memory usage limit reached` above it (its `--memlimit` lower than the preset\'s dictionary needs: out of memory)'],
  // Round 31 (asserted since HELDOUT_ROUND 32; docs/notes/analyzer.md, "Round 31 opened (session 57, helper t32)").
  ['gfortran-call-exit-silent-status', 'message: the `-x` trace\'s last command (`+ ./build/check_ports`, which printed nothing and exited non-zero) is the message; the label has Jenkins\'s `Build step \'Execute shell\' marked build as failure` (class right: unknown; as r30 ghc-exitwith-silent-status)'],
  ['ocaml-run-binary-search-never-narrows-timeout-124', 'message: the runner\'s `##[error]` prefix is taken off the `Process completed with exit code 124.` line; the label keeps it (the bench counts it right; as r30 gxx-run-condition-variable-wait-without-predicate-lost-wakeup-124)'],
  ['gfortran-unrecognized-option-std-f2023', 'unknown: gfortran\'s `unrecognized command-line option ‘-std=f2023’; did you mean ‘-std=f2003’?` (a compiler older than the standard the Makefile names) read as the script\'s error (medium) and set aside; the label has a missing tool (the toolchain\'s version)'],
  ['go-build-gocache-read-only-file-system', 'unknown: the go command\'s `failed to initialize build cache at ...: mkdir ...: read-only file system` read as a compile error (medium) and set aside; the label has a refused write (the cache directory is on a read-only mount)'],
  ['mix-test-only-tag-renamed-no-tests-executed', 'unknown: mix\'s `The --only option was given to "mix test" but no test was executed` (the script\'s `--only integration` matches no tag: they were renamed) is not read (the likely guess is right: the script)'],
  ['pip-install-wheel-filename-metadata-inconsistent-version-rc', 'message, place: pip\'s verdict `Could not find a version that satisfies the requirement acme-money==2.0.0` is the message; the label has its reason above, `Discarding file:///...whl: Requested acme-money==2.0.0 ... has inconsistent version: expected \'2.0.0\', but metadata has \'2.0.0rc1\'`, at requirements.txt line 1 (`from -r requirements.txt (line 1)`) (class right)'],
  ['rscript-e-single-quoted-apostrophe-unexpected-eof', 'unknown, message: bash\'s own `ci.sh: line 2: unexpected EOF while looking for matching `"\'` (the script\'s quoting broken by an apostrophe inside a single-quoted `Rscript -e`) is not read; the Pipeline\'s `script returned exit code 2` is the message'],
  ['ruby-encoding-compatibilityerror-binread-utf8-concat-long', 'unknown, message, place: Ruby\'s `bin/import.rb:5:in `+\': incompatible character encodings: ASCII-8BIT and UTF-8 (Encoding::CompatibilityError)` is printed after the program\'s own unterminated output on the same line (`row 211: ... → retailbin/import.rb:5:in ...`, stdout and stderr interleaved), so the trace is not read; the Pipeline\'s `script returned exit code 1` is the message'],
  ['ssh-strict-host-key-checking-no-host-key-known', 'message: ssh\'s verdict `Host key verification failed.` is the message; the label has its reason above, `No ED25519 host key is known for [127.0.0.1]:47914 and you have requested strict checking.` (class right)'],
  ['testthat-ifelse-drops-date-class-numeric', 'message: testthat\'s `due_dates(...) not equal to as.Date(...).` is the message; the label has the comparison\'s reason below, `Classes differ: \'numeric\' is not \'Date\'` (class, place and test right)'],
]);
/** Listed misses that still give another class than the labelled one (the class given, and why): open. */
const KNOWN_WRONG = new Map<string, [string, string]>([
  ['gprolog-global-stack-overflow', ['runtime-exception', 'a stack overflow exception, labelled out of memory']],
  ['lockfile-lint-insecure-host', ['lint', 'a lockfile checker\'s verdict, labelled a dependency (resolution) error']],
  ['ttx-xml-parse-error', ['runtime-exception', 'an XML parser\'s exception in a converter, labelled the input\'s compile error']],
  ['verilator-tb-assert', ['runtime-exception', 'the testbench\'s `%Error: ... Assertion failed` over the shell\'s `Aborted` is the message, at medium: a testbench (`tb_acc`) is not known as a test program']],
  // Round 11 (asserted since HELDOUT_ROUND 12).
  // Round 12 (asserted since HELDOUT_ROUND 13).
  // Round 13 (asserted since HELDOUT_ROUND 14).
  ['unittest-module-case-mismatch', ['dependency-resolution', 'a ModuleNotFoundError for the project\'s own module (name case) read as a missing package']],
  // Round 14 (asserted since HELDOUT_ROUND 16).
  // Round 15 (asserted since HELDOUT_ROUND 16).
  ['cargo-workspace-dep-inherit-missing', ['compile-error', 'cargo\'s `failed to load manifest for workspace member` over `dependency.X was not found in workspace.dependencies` read as a compile error']],
  ['make-gen-tables-drift-diff', ['lint', 'a generator\'s drift (`git diff --exit-code` after make) read as lint where the label has a script error']],
  ['npm-ci-package-json-lock-drift', ['ci-script', 'npm ci\'s `package.json and package-lock.json ... are in sync` read as a script error, not a dependency error']],
  // Round 16 (asserted since HELDOUT_ROUND 17).
  ['node-invalid-arg-type-env', ['ci-script', 'Node\'s `TypeError [ERR_INVALID_ARG_TYPE]` (an unset environment variable as a path) under the script\'s `exit 1` read as a script error (medium)']],
  ['npm-ejsonparse', ['compile-error', 'npm\'s `code EJSONPARSE` (the project\'s package.json not JSON) read as a compile error (medium), where the label has a script error']],
  // Round 17 (asserted since HELDOUT_ROUND 18).
  // Round 18 (asserted since HELDOUT_ROUND 19).
  // Round 19 (asserted since HELDOUT_ROUND 20).
  ['gradle44-java-toolchain-unsupported', ['ci-script', 'Gradle 4.4\'s `Could not find method java() for arguments [...]` (the `java { toolchain }` block a Gradle that old lacks) read as a script error (high), not a missing tool']],
  ['jq-null-iterate-renamed-manifest-key', ['runtime-exception', 'jq\'s `Cannot iterate over null` (the script\'s filter names a key the manifest no longer has) read as a runtime exception (medium), not a script error']],
  // Round 20 (asserted since HELDOUT_ROUND 21).
  ['cmake-fetchcontent-git-tag-unknown', ['ci-script', 'git\'s `fatal: invalid reference: v2.3.0` under CMake\'s FetchContent (a GIT_TAG the repository lacks) read as a script error (medium, a rule\'s high lowered), not a dependency error']],
  ['coverage-data-file-enospc', ['runtime-exception', 'coverage\'s `DataError: Couldn\'t use data file ...: no such table` read as a runtime exception (medium, a rule\'s high lowered) over sqlite3\'s `database or disk is full` (the disk)']],
  ['go-build-mod-vendor-package-not-vendored', ['compile-error', 'go build\'s `cannot find package "." in: .../vendor/...` (a package vendor/ lacks) read as a compile error (medium, a rule\'s high lowered), not a dependency error']],
  ['go-test-embed-fs-leading-dot-path', ['test-assertion', 'a Go test\'s t.Fatal of `template: pattern matches no files` (an error the test met) read as an assertion (medium)']],
  ['go-test-fstest-testfs-long', ['test-error', 'testing/fstest\'s `TestFS found errors: ... different data returned` (a check of the file system) read as a test error (low), not an assertion']],
  ['maven-junit5-asserttimeout-exceeded-long', ['timeout-aborted', 'JUnit 5\'s assertTimeout `AssertionFailedError: execution exceeded timeout of 2000 ms` (a check) read as a time limit (medium), not an assertion']],
  ['maven-x-plugin-prefix-not-found', ['runtime-exception', 'Maven\'s `NoPluginFoundForPrefixException: No plugin found for prefix \'spotless\'` read as a runtime exception (medium, a rule\'s high lowered), not a dependency error']],
  ['pytest-requests-read-timeout', ['test-error', 'pytest\'s `___ test_stock[BOLT-M6] ___` section read as a test error (low) where `requests.exceptions.ReadTimeout: ... Read timed out.` (the message since msg1: the section\'s last `E` line) says the network']],
  // Round 21 (asserted since HELDOUT_ROUND 22).
  ['perl-use-module-version-too-low', ['runtime-exception', 'perl\'s `BEGIN failed--compilation aborted at bin/wrap-notes.pl line 4.` read as a runtime exception (medium) over `Text::Wrap version 2023.0511 required--this is only version 2021.0814` above it (a dependency too old)']],
  ['redis-cli-maxmemory-oom-command-not-allowed-long', ['ci-script', 'the script\'s `exit 1` read as a script error (medium) over redis-cli\'s `OOM command not allowed when used memory > \'maxmemory\'.` (out of memory; the message since msg1: the script\'s echoed report above its exit)']],
  // Round 22 (asserted since HELDOUT_ROUND 23).
  // Round 23 (asserted since HELDOUT_ROUND 24).
  ['node-fetch-abortsignal-timeout-lowered-slow-endpoint', ['runtime-exception', 'fetch\'s `DOMException [TimeoutError]: The operation was aborted due to timeout` (raised in undici: the endpoint did not answer in time) read as a runtime exception (medium, a rule\'s high lowered), not the network']],
  // Round 24 (asserted since HELDOUT_ROUND 25).
  ['vitest-ci-reporter-name-typo-failed-to-load', ['runtime-exception', 'vitest\'s `Error: Failed to load custom Reporter from github-action` (the script\'s `--reporter=github-action`, a typo of `github-actions`) read as a runtime exception (medium), not a script error']],
  // Round 25 (asserted since HELDOUT_ROUND 26).
  ['ocamlopt-link-no-implementations-provided', ['compile-error', 'ocamlopt\'s link step `Error: No implementations provided for the following modules:` (a module named in the link left out of the command) read as a compile error (medium), not a link error; ci.sh:5 is not in the log']],
  ['pytest-c-extension-rpath-dropped-cannot-open-shared-object', ['test-error', 'the import\'s `ImportError: libacmehash.so: cannot open shared object file: No such file or directory` under pytest (the extension\'s rpath dropped) read as a test error (medium, a rule\'s high lowered), not a link error']],
  ['rscript-url-cannot-open-connection-refused', ['runtime-exception', 'R\'s `cannot open the connection to \'http://127.0.0.1:47231/rates.csv\'` (its warning: `status was \'Couldn\'t connect to server\'`) read as a runtime exception (medium, a rule\'s high lowered), not the network; config/endpoints.R:1 is not in the log']],
  // Round 26 (asserted since HELDOUT_ROUND 27).
  ['java-module-path-required-module-missing-boot-layer-findexception', ['dependency-resolution', 'the JVM\'s boot layer `java.lang.module.FindException: Module acme.slug not found, required by acme.app` (a module the `--module-path` left out) read as a dependency (medium, a high lowered); the label has a link error']],
  ['jest-ci-config-flag-path-renamed', ['runtime-exception', 'jest\'s `Error: Can\'t find a root directory while resolving a config file path.` (the script\'s `--config` names a renamed file) read as a runtime exception (medium, a high lowered), not a script error']],
  ['node-err-package-path-not-exported-deep-import', ['runtime-exception', 'Node\'s `Error [ERR_PACKAGE_PATH_NOT_EXPORTED]: Package subpath \'./lib/inline.js\' is not defined by "exports" in .../node_modules/mdlite/package.json` (the installed package no longer exports the deep import) read as a runtime exception (medium, a high lowered), not a dependency']],
  ['ocaml-test-runner-not-found-hashtbl-long', ['runtime-exception', 'OCaml\'s `Fatal error: exception Not_found` raised in the project\'s test runner (fx.ml:8, its Hashtbl.find) read as the program\'s exception (high); the label has a test error']],
  // Round 27 (asserted since HELDOUT_ROUND 28). Its NoClassDefFoundError (a `provided` dependency off the run classpath) is a link error since session 57 (helper jv1), as labelled.
  ['node-regexp-duplicate-named-capture-group-syntaxerror', ['compile-error', 'V8\'s `SyntaxError: Invalid regular expression: /.../: Duplicate capture group name` for a regex literal, thrown as the module is compiled (`at wrapSafe`, `Module._compile`), read as a compile error (medium, a high lowered); the label has a runtime exception (Node 20 parses the literal at load, nothing of the file ran)']],  // Round 28 (asserted since HELDOUT_ROUND 29).
  ['java-httpclient-authenticator-password-rotated-too-many-authentication-attempts', ['runtime-exception', 'java.net.http\'s `java.io.IOException: too many authentication attempts. Limit: 3` (its Authenticator\'s password refused each time) read as a runtime exception (medium); the label has a refused credential']],
  ['python-importlib-metadata-version-dist-renamed-packagenotfounderror', ['runtime-exception', '`importlib.metadata.PackageNotFoundError: No package metadata was found for acme-billing` (the distribution was renamed) read as a runtime exception (medium); the label has a dependency error at acme_billing/cli.py:7, which is not given']],
  // Round 29 (asserted since HELDOUT_ROUND 30; docs/notes/analyzer.md, "Round 29 opened (session 55, helper t30)").
  ['bash-function-called-before-definition-command-not-found', ['missing-tool', 'bash\'s `ci.sh: line 1: build_docs: command not found` for a function ci.sh defines below the call (bash defines it only when it reaches it) read as a missing tool (high); the label has a script error']],
  ['pip-ci-requirements-file-without-r-flag-invalid-requirement', ['dependency-resolution', 'pip\'s `Could not find a version that satisfies the requirement requirements-dev.txt (from versions: none)` (the script passed a requirements file without `-r`, so pip took its name for a package) read as a dependency (high); the label has a script error']],
  // Round 30 (asserted since HELDOUT_ROUND 31; docs/notes/analyzer.md, "Round 30 opened (session 56, helper t31)").
  ['cargo-test-f32-accumulation-total-mismatch-long', ['test-error', 'a Rust test\'s `panicked at src/lib.rs:36:9:` with a message of the test\'s own `assert!(cond, "total = {}", x)` (`total = 999.9028930664063`) read as a test error (high); the label has an assertion (the panic is the test\'s own check)']],
  ['escript-gen-tcp-connect-nxdomain-badmatch', ['runtime-exception', 'escript\'s `exception error: no match of right hand side value {error,nxdomain}` (a `{ok, S} = gen_tcp:connect(...)` that got inet\'s nxdomain: the host name does not resolve) read as a runtime exception (high); the label has the network']],
  ['go-get-ambiguous-import-module-split', ['compile-error', 'the go command\'s `main.go:6:2: ambiguous import: found package X in multiple modules:` (two modules of the build list provide the package: a module split) read as a compile error (medium); the label has a dependency error']],
  ['node-vendored-package-main-field-dist-not-committed-cannot-find-module', ['runtime-exception', 'Node\'s `Cannot find module \'.../node_modules/acme-format/dist/index.js\'. Please verify that the package.json has a valid "main" entry` (a package whose `main` file is not there) read as a runtime exception (medium, a high lowered); the label has a dependency error']],
  ['ruby-gem-version-requirement-missingspecversionerror', ['runtime-exception', 'RubyGems\' `Could not find \'json\' (>= 2.7) - did find: [json-2.6.1] (Gem::MissingSpecVersionError)` (an installed gem older than the requirement) read as a runtime exception (medium, a high lowered); the label has a dependency error']],
  // Round 31 (asserted since HELDOUT_ROUND 32; docs/notes/analyzer.md, "Round 31 opened (session 57, helper t32)").
  ['go-build-module-found-but-does-not-contain-package', ['compile-error', 'the go command\'s `main.go:6:2: module example.com/units@latest found (v1.3.0), but does not contain package example.com/units/convert` (the module\'s latest version no longer has the package the import names) read as a compile error (medium, a high lowered); the label has a dependency error']],
  ['mix-compile-build-dir-permission-denied-nobody', ['runtime-exception', 'Elixir\'s `** (File.Error) could not make directory (with -p) ".../_build/dev/lib/meter": no such file or directory` under `setpriv --reuid=nobody ... mix compile` (the build directory is not writable by the user the script switched to) read as a runtime exception (medium, a high lowered); the label has a refused permission']],
  ['python-itertools-batched-importerror-python-3-11', ['runtime-exception', 'Python\'s `ImportError: cannot import name \'batched\' from \'itertools\'` (itertools.batched is new in Python 3.12; the log\'s `python3 --version` prints 3.11.7) read as a runtime exception (high); the label has a missing tool (the interpreter\'s version)']],
]);

/** Cases whose finding names another test than the labelled one (or its file), each with why: open. */
const TEST_NAME_MISS = new Map<string, string>([
  // A pipeline's timeout that cut a test run (listed as message misses until msg3): the timeout names no test.
  ['cargo-test-lock-order-deadlock', 'the pipeline timeout that stopped the hung test names no test'],
  ['make-check-hang-pipeline-timeout', 'the pipeline timeout that stopped the hung test names no test'],
  ['prove-is-failed', "prove's summary names the script (`t/slug.t`); Test::More's `#   Failed test 'underscores'` above it is the test"],
  // Round 10 (asserted since HELDOUT_ROUND 11).
  // Round 11 (asserted since HELDOUT_ROUND 12).
  ['c-assert-ring-buffer', "C's assert() names the function (`main`), not the test program (`test_ring`)"],
  // Round 12 (asserted since HELDOUT_ROUND 13).
  ['pytest-env-var-keyerror', 'pytest\'s four failures share one KeyError; the finding names a later one (`test_paginate[1-0]`), the label the first (`test_defaults`)'],
  // Round 14 (asserted since HELDOUT_ROUND 16).
  ['make-check-cxx-uncaught-out-of-range', "make's abort report names the recipe's target (`check`); the test program it ran (`./test_ring`, echoed above) is not taken as the name"],
  ['pytest-queue-get-hang-aborted', 'the aborted run names no test: pytest\'s `tests/test_pool.py::test_quarter_sizes` (verbose, its result never printed) is not taken'],
  // Round 16 (asserted since HELDOUT_ROUND 17).
  // Round 17 (asserted since HELDOUT_ROUND 18).
  // Round 18 (asserted since HELDOUT_ROUND 19).
  ['mocha-node-option-heap-oom', 'node\'s heap abort names no test: mocha prints a test\'s title when it ends, so only the suite (`exportAll`) is in the log; the label has the test the heap ran out in'],
  // Round 22 (asserted since HELDOUT_ROUND 23).
  ['unittest-v-queue-join-missing-task-done-timeout-long', 'the time limit cut the run mid-test: unittest -v\'s `test_drains_all_items (...) ...` (its result never printed, the runner\'s `##[error]` on the same line) is not taken as the test'],
  // Round 25 (asserted since HELDOUT_ROUND 26).
  ['exunit-keyerror-map-fetch-renamed-key-long', 'ExUnit\'s `1) test uk parcel of 2 kg (ShippingTest)` is named `ShippingTest: uk parcel of 2 kg` (the module first, without ExUnit\'s `test ` prefix the label keeps)'],
  // Round 30 (asserted since HELDOUT_ROUND 31; docs/notes/analyzer.md, "Round 30 opened (session 56, helper t31)").
  ['cargo-test-mutex-relock-same-thread-pipeline-timeout-long', 'the time limit cut the run mid-test: libtest\'s `test tests::whole_session_refresh ...` (its result never printed, the Pipeline\'s `Cancelling nested steps due to timeout` on the same line) is not taken as the test'],
  // Round 31 (asserted since HELDOUT_ROUND 32; docs/notes/analyzer.md, "Round 31 opened (session 57, helper t32)").
  ['prove-v-undefined-subroutine-export-ok-removed-long', 'perl\'s `Undefined subroutine &main::pct called at t/pct.t line 7.` (the script died before any test ran) names no test; the label names the test script (`t/pct.t`), as its place'],
]);

/**
 * Rows whose rule reads the labelled class below high (at medium or low, or a high calibration lowered) and whose
 * excerpt's words do not support it: calibration sets the class aside (core/finding/calibration.ts `supported`,
 * docs/notes/analyzer.md "Session 50 (helper cm2): decisions below high, forward"), so the finding says `unknown` and
 * keeps the rule's class in `rules_class`. Forward, such classes were wrong about two times in three; these are the
 * right ones it costs on the tuned rounds (in-sample).
 */
const SET_ASIDE = new Set<string>([
  'c-test-alarm-watchdog', 'cargo-target-dir-tmpfs-full',
  'cmake-build-dir-typo', 'ctest-segfault-null-config-long', 'erlc-include-lib-not-in-erl-libs',
  'gnuplot-undefined-variable', 'luac-syntax-error', 'm4-include-missing', 'make-check-cgroup-oom-killed',
  'polyml-test-exception', 'shfmt-diff', 'sshd-t-bad-option',
  'svn-export-url-not-found', 'systemd-verify-unit-error', 'unittest-ci-discover-start-dir-typo',
  // Set aside since round 25 joined the class model's training (session 51, t26): the retrained words' posterior of
  // cmocka's test-error (r6) and of gcc's `-fuse-ld=mold` missing tool (r17) fell under keepAt. The table re-made with r9's
  // NoClassDefFoundError relabelled link-error (session 57, helper jv1) keeps gcc's missing tool again.
  // Round 26 joined the training (session 52, t27): cmocka's test-error (r6) is kept again.
  // Round 27 joined the training (session 53, t28): gcc's golden-output diff's assertion (r12) and Ruby's `cannot load
  // such file` dependency (r25) fell under keepAt; python-ci-requirements-file-moved's script error (r18) is kept again.
  'c-golden-output-diff',
  // Round 28 joined the training (session 54, t29): pip's `Could not open requirements file` script error (r18) fell under
  // keepAt again. Round 29 joined the training (session 55, t30): it is kept again, and cucumber-js's step TypeError
  // (r6, a test error at medium) fell under keepAt. Round 30 joined the training (session 56, t31): age's credentials
  // (r8), cargo's float assertion (r12) and Ruby's `cannot load such file` dependency (r25) are kept again.
  'cucumber-step-typeerror',
  // Round 31 joined the training (session 57, t32): gcc's `-fuse-ld=mold` missing tool (r17) stays kept; cargo's
  // assertions of r9 (`assert!` with a message) and r12 (a float tolerance) fell under keepAt. With fx21's HTTP status
  // reading merged (session 57), curl's artifact 404 dependency (r4) is kept again.
  'cargo-test-assert-message', 'cargo-test-float-tolerance-long',
  // Session 56 (cl3, exceptionCause.ts): Node's `RangeError: Array buffer allocation failed` is out of memory (medium) by
  // the allocator's words; the words' posterior (Node's loader frames) stays with the runtime's exception.
  'node-arraybuffer-allocation-failed-ulimit',
]);

/**
 * Whether two spellings of a test's name name the same test: the same last word once a trailing parameter list
 * or description in parentheses is taken off (`f(String, String)[3]`, `test_x (mod.Class.test_x)`), and every word
 * of the shorter spelling in the longer one.
 */
function sameTest(got: string | undefined, want: string): boolean {
  if (got === undefined) return false;
  const words = (n: string): string[] => n.split(/[^\w]+/).filter(Boolean);
  const core = (n: string): string[] => words(n.replace(/\s*\([^()]*\)(?:\[\d+\])?\s*$/, ''));
  const [g, w] = [core(got), core(want)];
  if (g.length === 0 || g[g.length - 1] !== w[w.length - 1]) return false;
  const [short, long] = words(got).length <= words(want).length ? [words(got), words(want)] : [words(want), words(got)];
  return short.every((x) => long.includes(x));
}

describe('findings of the real dev failures', () => {
  it('has dev cases to test', () => {
    expect(TUNED_CASES.length).toBeGreaterThanOrEqual(15);
  });

  it.each(TUNED_CASES)('%s', async (id) => {
    const expected = JSON.parse(readFileSync(path.join(ROOT, id, 'expected.json'), 'utf8')) as Expected;
    expect(expected.round ?? 1).toBeLessThan(HELDOUT_ROUND);
    const finding = (await realfailExcerpts(id)).excerpts[0]?.finding;
    if (KNOWN_MISS.has(id) || KNOWN_WRONG.has(id)) {
      // A listed miss: the labelled class or unknown (or the recorded wrong one), the labelled place or none.
      expect([expected.class, 'unknown', KNOWN_WRONG.get(id)?.[0]]).toContain(finding?.class);
      if (KNOWN_WRONG_PLACE.has(id)) return;
      if (finding?.location?.line !== undefined && expected.location !== null) expect([finding.location.file.replace(/^.*\//, ''), finding.location.line]).toEqual([expected.location.file.replace(/^.*\//, ''), expected.location.line]);
      if (expected.location === null) expect(finding?.location?.line).toBeUndefined();
      return;
    }
    if (SET_ASIDE.has(id)) expect([finding?.class, finding?.rules_class]).toEqual(['unknown', expected.class]);
    else expect(finding?.class).toBe(expected.class);
    // The message is the tool's line (the finding may hold the whole line around the expected text).
    // Whitespace normalised, as bench/findings.ts reads it: a message the tool wraps is one line in the finding.
    const norm = (t: string | undefined): string | undefined => t?.replace(/\s+/g, ' ').trim();
    expect(norm(finding?.message)).toContain(norm(expected.message));
    if (KNOWN_WRONG_PLACE.has(id)) {
      // Listed: the place is open.
    } else if (expected.location === null) {
      expect(finding?.location?.line).toBeUndefined();
    } else {
      // A JVM frame names the package path (com/acme/X.java); the project has it under src/...
      const file = finding?.location?.file ?? '';
      expect(file === expected.location.file || file.endsWith(`/${expected.location.file}`) || expected.location.file.endsWith(`/${file}`)).toBe(true);
      expect(finding?.location?.line).toBe(expected.location.line);
    }
    // The test's name, in the runner's own form or a longer or shorter one of the same words: vitest's start with
    // the file (`src/a.test.js > suite > test`), surefire's with the package, pytest's node id with the file,
    // unittest's `test_x (mod.Class.test_x)` is `mod.Class.test_x`. (It compared the label with itself before: it could not fail.)
    if (expected.test && !TEST_NAME_MISS.has(id)) expect([id, sameTest(finding?.test?.name, expected.test)]).toEqual([id, true]);
  });

  // The class model's counts (core/finding/classModelTable.ts) are made from these cases' findings: a change of
  // the rules or of the cases leaves them stale until `npm run class-model` (or `npm run gates`) writes them again.
  // A table whose stamp holds was written from exactly the code and cases there are now (scripts/classModelStamp.ts,
  // test/class-model-stamp.test.ts), so it is what they make; otherwise it is made afresh here and compared.
  it('the class model table is what `npm run class-model` makes now', async () => {
    const stamped = await stampHolds();
    const cases = stamped ? [] : await modelCases();
    expect(cases.every((c) => c.round < HELDOUT_ROUND)).toBe(true);
    expect(stamped || readFileSync(MODEL_TABLE_FILE, 'utf8') === modelSource(cases) ? 'up to date' : 'stale: run `npm run class-model`').toBe('up to date');
  }, 120_000);
});
