/**
 * The evidence rules of the finding classes: each rule recognises one tool family's line that
 * states a failure of one class, and says what that line names (the compiler's code, the
 * symbol, the dependency, the host). A rule matches one line; which rule wins in a window is
 * decided by `priority` (lower first), so a root cause (out of memory, a network failure) wins
 * over the exception or summary it produced.
 */
import { httpStatusRe as httpStatus } from './httpStatus.js';
import { TLS_REASON_LINE } from './tls.js';
import { COMPILER_FIRST_RULES, COMPILER_RULES } from './families/compilers.js';
import { CONTAINER_FIRST_RULES } from './families/containers.js';
import { CREDENTIAL_FIRST_RULES } from './families/credentials.js';
import { DOWNLOAD_FIRST_RULES, DOWNLOAD_RULES } from './families/downloads.js';
import { DOTNET_FIRST_RULES } from './families/dotnet.js';
import { GIT_FIRST_RULES, GIT_RULES } from './families/git.js';
import { GO_FIRST_RULES, GO_RULES } from './families/go.js';
import { JS_FIRST_RULES, JS_RULES } from './families/js.js';
import { JVM_FIRST_RULES, JVM_RULES } from './families/jvm.js';
import { NATIVE_BUILD_FIRST_RULES, NATIVE_BUILD_RULES } from './families/nativeBuild.js';
import { PYTHON_FIRST_RULES, PYTHON_RULES } from './families/python.js';
import { QUALITY_GATE_RULES } from './families/qualityGates.js';
import { RUBY_FIRST_RULES } from './families/ruby.js';
import { RUNTIME_FIRST_RULES, RUNTIME_RULES } from './families/runtimes.js';
import { RUST_FIRST_RULES, RUST_RULES } from './families/rust.js';
import { SHELL_FIRST_RULES, SHELL_RULES } from './families/shell.js';
import { SYSTEM_PACKAGE_FIRST_RULES, SYSTEM_PACKAGE_RULES } from './families/systemPackages.js';
import { TEST_RUNNER_RULES } from './families/testRunners.js';
import { TEST_VERDICT_RULES } from './families/testVerdicts.js';
import { TIMEOUT_FIRST_RULES, TIMEOUT_RULES } from './families/timeouts.js';
import { TOOLCHAIN_RULES } from './families/toolchains.js';
import { NO_AGENT_FOR_LABEL } from './noAgent.js';

export type { Near, Rule, RuleHit } from './ruleTypes.js';
import type { Near, Rule, RuleHit } from './ruleTypes.js';

/** The place `near` reads around a line; `around(k)` is the line k lines below (k < 0: above). */
export function nearPlace(near: Near, around: (k: number) => string): RuleHit | undefined {
  const ks: number[] = [];
  for (let k = near.from; k <= near.to; k++) if (k !== 0) ks.push(k);
  ks.sort((a, b) => Math.abs(a) - Math.abs(b) || a - b);
  for (const k of ks) {
    const m = near.re.exec(around(k));
    if (m) return m.groups?.file ? at(m.groups.file, m.groups.line, m.groups.col) : {};
  }
  return undefined;
}

const SRC = String.raw`(?:[A-Za-z]:)?[^\s:()"'\[\]<>|*?]*?`;
const at = (file: string | undefined, line: string | undefined, column?: string): RuleHit => ({
  ...(file ? { file: file.replace(/^file:\/\//, '') } : {}),
  ...(line ? { line: Number(line) } : {}),
  ...(column ? { column: Number(column) } : {}),
});
/** The flag of a C/C++ compiler's warning made fatal, as its code: `[-Werror=implicit-fallthrough=]` (gcc), `[-Werror,-Wunused-variable]` (clang). */
const werrorFlag = (line: string): RuleHit => {
  const m = /\[-Werror(?:=([\w+-]+)=?|,(-W[\w+=-]+))\]\s*$/.exec(line);
  return m ? { code: m[2] ?? `-Werror=${m[1] as string}` } : {};
};
const hostOf = (text: string): string | undefined =>
  /(?:https?:\/\/|Could not resolve host:? |lookup |connect to |dial tcp |UnknownHostException: |getaddrinfo \w+ |host=')([\w.-]+\.[a-z]{2,}|[\w.-]+(?=:\d+))/i.exec(text)?.[1] ??
  /\b([a-z0-9-]+(?:\.[a-z0-9-]+)+\.(?:com|org|net|io|dev|de|local|internal|lan))\b/i.exec(text)?.[1];
const hostRead = (_m: RegExpExecArray, line: string): RuleHit => {
  const host = hostOf(line);
  return host ? { host } : {};
};

/** A Python HTTP library's exception type (its module qualified), at the margin or on pytest's `E` line: the network's. */
const PY_NETWORK_EXCEPTION =
  /^(?:E\s+)?((?:requests\.exceptions|urllib3\.exceptions|http\.client|aiohttp(?:\.client_exceptions)?|httpx)\.(?!HTTPError\b|HTTPStatusError\b|Invalid\w*|MissingSchema\b|\w*Decod\w*|LocationParseError\b|URLRequired\b|ResponseNotReady\b|ImproperConnectionState\b|Cannot\w*|NotConnected\b|UnknownProtocol\b|LineTooLong\b)[A-Z]\w*)(?::\s|$)/;

/**
 * Native and infrastructure tools' own lines (issue 25, round 3 tuning): Erlang, OCaml, meson,
 * pkg-config, autoconf, gtest, Catch2, tcltest, valgrind, gofmt, git, sqlite. Tried before RULES'
 * broader shapes (a line's first matching rule is its rule).
 */
const NATIVE_RULES: Rule[] = [
  // pkg-config's verdict (after its `was not found in the pkg-config search path` hint) is the cause of the compiler's `fatal error: x.h: No such file` that follows it.
  { cls: 'dependency-resolution', priority: 28, confidence: 'high', re: /^(?:Package '?([\w.+-]+)'?,? required by '[^']+', not found|No package '([\w.+-]+)' found)/, read: (m) => ({ tool: 'pkg-config', dependency: (m[1] ?? m[2]) as string }) },
  // meson: `meson.build:4:0: ERROR: Dependency "libsodium" not found, tried pkgconfig and cmake`.
  { cls: 'dependency-resolution', priority: 44, confidence: 'high', re: new RegExp(String.raw`^(${SRC}meson\.build):(\d+):(\d+): ERROR: (?:Dependency|Program) "([^"]+)" not found`), read: (m) => ({ tool: 'meson', dependency: m[4] as string, ...at(m[1], m[2], m[3]) }) },
  // autoconf's AC_CHECK_PROG/AC_PATH_PROG verdict (`checking for pandoc... no` above it): a program the machine lacks.
  { cls: 'missing-tool', priority: 55, confidence: 'medium', re: /^configure: error: (?:the )?(?:program )?['"`]?(?!lib)([\w.+-]+?)['"`]? (?:is required|is needed|was not found|not found)\b/, near: { re: /^checking for \S+\.\.\. no$/, from: -4, to: -1, required: true }, read: (m) => ({ tool: 'configure', symbol: m[1] as string }) },
  // erlc's preprocessor: `-include_lib("app/include/x.hrl")` looks the application `app` up in the code path (ERL_LIBS,
  // deps/, the OTP root): `can't find include lib "app/..."` is, most often, an application the build does not have (medium:
  // a wrong file name under an application that is there says the same). `-include("x.hrl")`'s `can't find include file`
  // is the project's own file: a compile error (test/fixtures/grammar erlang-include-*; session 49).
  { cls: 'dependency-resolution', priority: 29, confidence: 'medium', re: new RegExp(String.raw`^(${SRC}\.[eh]rl):(\d+):(?:(\d+):)? can't find include lib "(\w+)(?:-[\d.]+)?\/`), read: (m) => ({ tool: 'erlc', dependency: m[4] as string, ...at(m[1], m[2], m[3]) }) },
  // Erlang's compiler: `src/x.erl:6:14: function f/1 undefined` (warnings say `Warning:`).
  { cls: 'compile-error', priority: 30, confidence: 'high', re: new RegExp(String.raw`^(${SRC}\.[eh]rl):(\d+):(?:(\d+):)? (?!Warning)\S`), read: (m) => ({ tool: 'erlc', ...at(m[1], m[2], m[3]) }) },
  // EUnit: a test that raised (`**error:function_clause`) or ran out of time (`...*timed out*`). The raised one's place is
  // the deepest frame of the project's own among its frames above (`in function`, then each `in call from`): the trace
  // reader's (uncaught.ts `framesFrom`; session 49, loc2), not the nearest `in function` line with a file (OTP's lists.erl).
  // EUnit's `?assert*` macros' failures are the test's checks: uncaught.ts reads them (test-assertion, session 47, gr1).
  { cls: 'test-error', priority: 58, confidence: 'high', re: /^\*\*(?:error|exit|throw):(?!\{assert)(\S+)/, read: (m) => ({ tool: 'eunit', exception: m[1] as string }) },
  { cls: 'timeout-aborted', priority: 25, confidence: 'high', re: /^\s*(\S+: \S+)\.\.\.\*timed out\*$/, near: { re: /^in function \S+ \((?<file>(?!eunit)[^\s,()]+\.erl), line (?<line>\d+)\)/, from: 1, to: 1 }, read: (m) => ({ tool: 'eunit', test: m[1] as string }) },
  // meson test: `<name> time out (After 10 seconds)`.
  { cls: 'timeout-aborted', priority: 25, confidence: 'high', re: /^(\S.*) time out \(After \d+ seconds?\)$/, read: (m) => ({ tool: 'meson', test: m[1] as string }) },
  // OCaml: `Error: This expression has type ...` under `File "src/x.ml", line 5, characters 29-45:`.
  { cls: 'compile-error', priority: 30, confidence: 'high', re: /^Error: \S/, near: { re: /^File "(?<file>[^"]+\.mli?)", line (?<line>\d+), characters (?<col>\d+)-\d+:/, from: -4, to: -1, required: true }, read: () => ({ tool: 'ocamlc' }) },
  // GoogleTest: the check's report under `file:line: Failure`.
  { cls: 'test-assertion', priority: 58, confidence: 'high', re: /^(?:Expected equality of these values:|Expected: \(.+\) (?:==|!=|<|<=|>|>=) \(.+\), actual:|Value of: |Expected (?:true|false)?: )/, near: { re: /^(?<file>\S+\.(?:c|cc|cpp|cxx|h|hpp)):(?<line>\d+): Failure$/, from: -2, to: -1, required: true }, read: () => ({ tool: 'gtest' }) },
  // Catch2: an exception escaped a test's check (`file:line: FAILED:` two lines above).
  { cls: 'test-error', priority: 58, confidence: 'high', re: /^due to (?:unexpected exception|a fatal error condition)/, near: { re: /^(?<file>\S+\.(?:c|cc|cpp|cxx|h|hpp)):(?<line>\d+): FAILED:$/, from: -4, to: -1 }, read: () => ({ tool: 'catch2' }) },
  // cargo test's `#[should_panic(expected = ...)]` check.
  { cls: 'test-assertion', priority: 58, confidence: 'high', re: /^note: (?:panic did not contain expected string|test did not panic as expected)/, read: () => ({ tool: 'cargo test' }) },
  // tcltest: `==== name desc FAILED` over `---- Result should have been (exact matching):`.
  { cls: 'test-assertion', priority: 58, confidence: 'high', re: /^==== \S+ .* FAILED$/, near: { re: /^---- Result should have been/, from: 1, to: 8, required: true }, read: () => ({ tool: 'tcltest' }) },
  // valgrind memcheck: its error over its `at 0x..: f (file.c:22)` frame.
  { cls: 'runtime-exception', priority: 48, confidence: 'high', re: /^==\d+== (Invalid (?:read|write|free)|Conditional jump or move depends on uninitialised|Use of uninitialised value|Mismatched free|Source and destination overlap)/, near: { re: /^==\d+== +at 0x[0-9A-F]+: .+ \((?<file>[^\s:()]+\.(?:c|cc|cpp|cxx|h|hpp)):(?<line>\d+)\)$/, from: 1, to: 1 }, read: (m) => ({ tool: 'valgrind', exception: m[1] as string }) },
  // gofmt's list of files it would change (a CI check's own words: `not gofmt'ed`, `need gofmt`).
  { cls: 'lint', priority: 35, confidence: 'medium', re: /\bnot gofmt(?:'|')?ed\b|\bneeds? (?:gofmt|go fmt)\b|\bnot (?:gofmt|go fmt)[- ]formatted\b/i, read: () => ({ tool: 'gofmt' }) },
  // git stopping a merge or rebase the script runs.
  { cls: 'ci-script', priority: 14, confidence: 'high', re: /^CONFLICT \([\w/ -]+\): Merge conflict in (\S+)/, read: () => ({ tool: 'git' }) },
  // go build: no file of a package fits the build's GOOS/GOARCH/tags.
  { cls: 'compile-error', priority: 30, confidence: 'high', re: /build constraints exclude all Go files in (\S+)/, read: (m) => ({ tool: 'go', symbol: m[1] as string }) },
  // ShellCheck: the finding under its `In file line N:` heading (`^-- SC2086 (info): Double quote ...`).
  { cls: 'lint', priority: 35, confidence: 'high', re: /^\s*\^-*\^? (SC\d{4}) \((?:error|warning|info|style)\): \S/, near: { re: /^In (?<file>\S+) line (?<line>\d+):$/, from: -8, to: -1 }, read: (m) => ({ tool: 'shellcheck', code: m[1] as string }) },
  // gfortran's runtime refusing an ALLOCATE, at the program's first frame of its backtrace (`at src/x.f90:8`).
  { cls: 'out-of-memory', priority: 20, confidence: 'high', re: /^(?:In file '[^']+', around line \d+: )?Error allocating \d+ bytes: Cannot allocate memory/, near: { re: /^\s*at (?<file>[^\s:]+\.f(?:90|95|03|08|or)?):(?<line>\d+)$/i, from: 1, to: 12 }, read: () => ({ tool: 'gfortran', exception: 'Cannot allocate memory' }) },
  // SQLite: SQLITE_FULL.
  { cls: 'disk-full', priority: 20, confidence: 'high', re: /database or disk is full|\bSQLITE_FULL\b/, read: () => ({ tool: 'sqlite' }) },
];

/**
 * Failures every tool words alike (issue 25, round 4 tuning): no tool family's own format, but
 * the words any tool uses for the cause.
 */
/** Docker's refused pull; group 1 the image. */
export const DOCKER_PULL_DENIED = /pull access denied for ([^\s,]+), repository does not exist or may require '?docker login'?/;

/** The registry an image name pulls from: its first part when that is a host (a dot, a port, localhost), else Docker Hub. */
export function dockerRegistryOf(image: string): string {
  const first = image.split('/')[0] as string;
  return image.includes('/') && /[.:]|^localhost$/.test(first) ? first : 'docker.io';
}

export const GENERAL_RULES: Rule[] = [
  // A write that stopped short: the disk filled up under it (GNU tar's `Wrote only 6144 of 10240
  // bytes`, Go's and others' `short write`).
  { cls: 'disk-full', priority: 21, confidence: 'medium', re: /\bWrote only \d+ of \d+ bytes\b|\bshort write\b/ },
  // A lock file that no longer matches its manifest (poetry, uv, pipenv, bundler, cargo `--locked`):
  // the resolver refuses to install from it.
  {
    cls: 'dependency-resolution',
    priority: 45,
    confidence: 'high',
    // Also the refusal to rewrite it under a frozen flag (cargo's `cannot update the lock file PATH because --locked
    // was passed`, yarn's `The lockfile would have been modified by this install, which is explicitly forbidden`).
    re: /\b([\w.-]*\.lock|lock ?file)\b.{0,40}\b(?:is not consistent with|is out of (?:date|sync)|needs to be updated|is not up to date|does not match|is outdated)|\bchanged significantly since ([\w.-]+\.lock) was last generated|\bcannot update the lock ?file (?:\S*\/)?([\w.-]+) because --(?:locked|frozen)\b|\bThe lockfile would have been modified by this install\b/i,
    read: (m) => {
      const lock = m[1] ?? m[2] ?? m[3] ?? '';
      const tool = /^poetry/.test(lock) ? 'poetry' : /^Cargo/.test(lock) ? 'cargo' : /^Gemfile/.test(lock) ? 'bundler' : /^Pipfile/.test(lock) ? 'pipenv' : /^uv/.test(lock) ? 'uv' : /^composer/.test(lock) ? 'composer' : undefined;
      return tool ? { tool } : {};
    },
  },
  // TLS: the reason a certificate was refused (openssl's `verify error:num=10:certificate has
  // expired`, any client's `certificate has expired` / `self-signed certificate` / `hostname
  // mismatch`, Go's crypto/x509 `x509: certificate signed by unknown authority` / `x509: certificate is valid for
  // a, not b`) says more than the `certificate verify failed` after it. Node's name mismatch and unknown leaf, curl's,
  // Java's and wget's name mismatch too (core/finding/tls.ts reads each, and holds these words: TLS_REASON_LINE; session 53, ux15).
  { cls: 'network', priority: 39, confidence: 'high', re: TLS_REASON_LINE, read: () => ({}) },
  // A bundler or compiler that cannot find a file the code imports by a relative path (rollup's
  // `Could not resolve "./format.js" from "src/main.js"`, vite's `Failed to resolve import`): the
  // code names a file that is not there, a compile error (a package name is a resolver's matter).
  // An exception a runtime names as uncaught (`Error: unhandled exception: index 3 not in 0 .. 2 [IndexDefect]`,
  // `Unhandled Exception: System.X`), at the nearest project frame of
  // the `file(line) proc` trace above it.
  { cls: 'runtime-exception', priority: 50, confidence: 'medium', re: /\b(?:[Uu]nhandled|[Uu]ncaught) [Ee]xception\b/, near: { re: /^(?<file>(?!\/usr\/|\/opt\/)[^\s()]+\.\w+)\((?<line>\d+)\) \S+$/, from: -8, to: -1 } },
  // Elixir's `** (CompileError) lib/x.ex:6: undefined function f/1` (any `*CompileError`, `SyntaxError`, `TokenMissingError` at a place).
  { cls: 'compile-error', priority: 30, confidence: 'high', re: /^\*\* \((?:\w+\.)*(\w*(?:CompileError|SyntaxError|TokenMissingError|ParseError))\) ([^\s:]+\.\w+):(\d+)(?::(\d+))?: \S/, read: (m) => ({ exception: m[1] as string, ...at(m[2], m[3], m[4]) }) },
  { cls: 'compile-error', priority: 31, confidence: 'medium', re: /\b(?:Could not resolve|Can't resolve|Cannot resolve|Unable to resolve|Failed to resolve import) ["'`]\.{1,2}\/[^"'`]+["'`](?: from ["'`]([^"'`]+)["'`])?/, read: () => ({}) },
];

/** Rules, roughly most specific cause first. */
export const RULES: Rule[] = [
  // The families' narrow rules first: each is narrower than a general rule that matches the same line (rustc's `error[E....]`, go's import).
  ...NATIVE_BUILD_FIRST_RULES,
  ...JVM_FIRST_RULES,
  ...PYTHON_FIRST_RULES,
  ...RUST_FIRST_RULES,
  ...GO_FIRST_RULES,
  ...SHELL_FIRST_RULES,
  ...GIT_FIRST_RULES,
  ...CONTAINER_FIRST_RULES,
  ...DOTNET_FIRST_RULES,
  ...RUBY_FIRST_RULES,
  ...JS_FIRST_RULES,
  ...NATIVE_RULES,
  // The cross-tool families (tuning rounds 4 and 5: what many tools say of one cause, kept by what it concerns):
  // their narrow rules after the native tools' lines, the others after the general rules.
  ...DOWNLOAD_FIRST_RULES,
  ...CREDENTIAL_FIRST_RULES,
  ...RUNTIME_FIRST_RULES,
  ...TIMEOUT_FIRST_RULES,
  ...SYSTEM_PACKAGE_FIRST_RULES,
  ...COMPILER_FIRST_RULES,
  ...GENERAL_RULES,
  ...QUALITY_GATE_RULES,
  ...TEST_VERDICT_RULES,
  ...COMPILER_RULES,
  ...TOOLCHAIN_RULES,
  ...DOWNLOAD_RULES,
  ...TIMEOUT_RULES,
  ...RUNTIME_RULES,
  ...SYSTEM_PACKAGE_RULES,
  ...NATIVE_BUILD_RULES,
  ...RUST_RULES,
  ...PYTHON_RULES,
  ...SHELL_RULES,
  ...TEST_RUNNER_RULES,
  ...GIT_RULES,
  ...JS_RULES,
  ...JVM_RULES,
  ...GO_RULES,
  // ---- CI script errors: the pipeline's own script, the workflow file, the shell's syntax.
  { cls: 'ci-script', priority: 10, tool: 'jenkins', confidence: 'high', re: /^WorkflowScript: (\d+): (.+?)(?: @ line \d+, column (\d+)\.)?$/, read: (m) => ({ tool: 'jenkins', ...at('WorkflowScript', m[1], m[3]) }) },
  // The `groovy` command's own report of an uncaught exception (`Caught: groovy.lang.X: ...`): a
  // script's runtime error, not a Jenkins pipeline's (those never print `Caught:`).
  { cls: 'runtime-exception', priority: 12, confidence: 'high', re: /^Caught: ((?:[a-z_$][\w$]*\.)+([A-Z][\w$]*(?:Exception|Error)))\b/, read: (m) => ({ tool: 'groovy', exception: m[2] as string }) },
  {
    cls: 'ci-script',
    priority: 13,
    confidence: 'high',
    re: /(?:groovy\.lang\.(?:MissingPropertyException|MissingMethodException)|java\.lang\.NoSuchMethodError: No such DSL method|RejectedAccessException: Scripts not permitted|MultipleCompilationErrorsException|No such property: \w+ for class: WorkflowScript|No signature of method: WorkflowScript)/,
    read: (m) => ({ tool: 'jenkins', exception: /([\w]+(?:Exception|Error))/.exec(m[0])?.[1] ?? 'groovy' }),
  },
  { cls: 'ci-script', priority: 11, confidence: 'high', re: /^(?:##\[error\])?(?:The workflow is not valid|Invalid workflow file|Unrecognized named-value|Unexpected value '[^']+')/, read: () => ({ tool: 'github-actions' }) },
  {
    cls: 'ci-script',
    priority: 12,
    confidence: 'high',
    re: /^(?:\S+: )?(?:line \d+: )?(?:syntax error near unexpected token|syntax error: unexpected end of file)|^(?:\S+: )+(?:\d+: )?Syntax error: .+ unexpected|: bad substitution$|: unbound variable$|^\S+: (?:line )?\d+: cd: .+: (?:No such file or directory|can't cd to .+)$/,
    read: () => ({ tool: 'sh' }),
  },
  { cls: 'ci-script', priority: 12, confidence: 'high', re: /^(?:\S+: )?(?:line \d+: )?.*: (?:too many arguments|integer expression expected|unary operator expected|binary operator expected)$/, read: () => ({ tool: 'sh' }) },
  // The `[` builtin given no closing bracket (bash's `ci.sh: line 5: [: missing `]'`, dash's `[: missing ]`): `]` glued
  // to the last word (`[ "$x" = main]`), the test itself is wrong (session 53, t28: round 27).
  { cls: 'ci-script', priority: 12, confidence: 'high', re: /^(?:\S+: )?(?:line \d+: |\d+: )?\[: missing [`'‘]?\][’']?$/, read: () => ({ tool: 'sh' }) },
  // xargs splits its input on blanks and reads quotes as quoting: a name with an apostrophe in what the script piped to it
  // (`find ... | xargs wc`) stops it (`xargs: unmatched single quote; by default quotes are special to xargs unless you use
  // the -0 option`): the script's pipeline, which needs -print0 / -0 (test/fixtures/grammar xargs-unmatched-quote; session 49).
  { cls: 'ci-script', priority: 12, confidence: 'medium', re: /^xargs: unmatched (?:single|double) quote\b/, read: () => ({ tool: 'xargs' }) },
  // A shell's arithmetic on what is not a number (`line 4: 2.1.41: arithmetic syntax error`, bash's `syntax error: invalid
  // arithmetic operator`), and a bash builtin under a POSIX sh (`package.sh: 3: source: not found`): the script is wrong, not the machine.
  { cls: 'ci-script', priority: 12, confidence: 'high', re: /^(?:\S+: )?(?:line )?\d+: .*(?:: arithmetic syntax error|: syntax error: (?:invalid arithmetic operator|operand expected)|: value too great for base)\b|^(?:\S+: )?\d+: (?:source|pushd|popd|shopt|declare|typeset|mapfile|readarray|\[\[|function): not found$/, read: () => ({ tool: 'sh' }) },
  { cls: 'ci-script', priority: 14, confidence: 'high', re: /^npm (?:ERR!|error) Missing script: "?([\w:.-]+)"?/i, read: (m) => ({ tool: 'npm', symbol: m[1] as string }) },
  // jest --ci fails a run whose snapshot files hold snapshots no test wrote: stale test data, a hygiene gate like coverage's.
  { cls: 'lint', priority: 37, confidence: 'medium', re: /^\s*› \d+ snapshots? obsolete from \d+ test (?:suite|file)s?\./, read: () => ({ tool: 'jest' }) },
  // The command asks for a feature the package does not declare: the CI script and the manifest disagree.
  { cls: 'ci-script', priority: 14, confidence: 'high', re: /^error: (?:the )?package '([\w.-]+)' does not (?:contain|have) (?:this|the) feature:? [`'"]?([\w./-]+)|^error: none of the selected packages contains th(?:is|ese) features?: ([\w./, -]+)/, read: (m) => ({ tool: 'cargo', symbol: (m[2] ?? m[3]) as string }) },
  { cls: 'ci-script', priority: 14, confidence: 'high', re: /(?:Unknown lifecycle phase "[^"]+"|No goals have been specified for this build|(?:Task|Project) '[^']+' not found in (?:root )?project|Could not find method \w+\(\) for arguments|The source directory "[^"]+" does not appear to contain CMakeLists\.txt|^\S*[Mm]akefile:\d+: \*\*\* missing separator)/, read: (m) => ({ tool: /lifecycle|goals/.test(m[0]) ? 'maven' : /Task '|Project '|Could not find method/.test(m[0]) ? 'gradle' : /CMakeLists/.test(m[0]) ? 'cmake' : 'make' }) },
  // A tool refusing how the CI script calls it (argparse, getopt, Go's flag, clap, cobra): the script passes an option or argument the tool does not take.
  {
    cls: 'ci-script',
    priority: 14,
    confidence: 'medium',
    re: /^(?:([\w.-]+): error: (?:unrecognized arguments?|the following arguments are required|argument \S+: (?:invalid choice|expected one argument)|unrecognized option)|flag provided but not defined: -+([\w-]+)|([\w.-]+): (?:unrecognized|unknown|invalid) option (?:--?[\w-]+|['‘][^'’]+['’])|error: (?:unexpected|unrecognized) argument '([^']+)' found|Error: unknown (?:flag|shorthand flag|command):? ['"]?([^'"\s]+))/,
    read: (m) => ({ tool: m[1] ?? m[3] ?? (m[2] ? 'go' : m[4] ? 'clap' : 'cobra') }),
  },
  // git refusing a revision the script names (a tag not fetched or not yet made, a typo'd branch).
  { cls: 'ci-script', priority: 14, confidence: 'high', re: /^fatal: (?:ambiguous argument '([^']+)': unknown revision|bad revision '([^']+)'|Needed a single revision$|invalid reference: (\S+)|couldn't find remote ref (\S+))/, read: (m) => ({ tool: 'git', ...((m[1] ?? m[2] ?? m[3] ?? m[4]) ? { symbol: (m[1] ?? m[2] ?? m[3] ?? m[4]) as string } : {}) }) },
  // ---- No agent came: Jenkins waited for an agent with the build's label and none was online (`There are no nodes
  // with the label ‘x’`, `All nodes of label ‘x’ are offline`, `Jenkins doesn’t have label ‘x’`): why the build never
  // started its work, which the timeout or abort that ends the wait only concludes (core/log/jenkins.ts ranks it over them).
  {
    cls: 'agent-lost',
    priority: 4,
    confidence: 'high',
    re: NO_AGENT_FOR_LABEL,
    read: (m) => ({ tool: 'jenkins', symbol: (m[1] ?? m[2] ?? m[3] ?? m[4]) as string }),
  },
  // ---- The agent went away under the build.
  {
    cls: 'agent-lost',
    priority: 5,
    confidence: 'high',
    re: /(?:hudson\.remoting\.(?:ChannelClosedException|RequestAbortedException)|Agent \S+ was marked offline|Cannot contact \S+: java\.lang\.InterruptedException|was marked offline: Connection was broken|The agent \S* ?(?:was |has been )?disconnected|Agent went offline during the build|Unable to create live FilePath for|ClosedChannelException|The runner has received a shutdown signal|lost communication with the server|Backing channel '[^']+' is disconnected|Remote call on \S+ failed|Timeout, server \S+ not responding|Connection to \S+ closed by remote host|client_loop: send disconnect)/i,
    read: () => ({ tool: 'jenkins' }),
  },
  // ---- Resources: memory, disk.
  {
    cls: 'out-of-memory',
    priority: 20,
    confidence: 'high',
    re: /(java\.lang\.OutOfMemoryError|OutOfMemoryError|GC overhead limit exceeded|(?:JavaScript|JS) heap out of memory|\b[Oo]ut of memory\b|\bERR_WORKER_OUT_OF_MEMORY\b|[Cc]annot allocate memory|\bOOMKilled\b|Killed process \d+|virtual memory exhausted|fatal error: Killed signal terminated program|terminated with signal 9\b|signal 9 \[Killed\]|^\s*(?:\S+: line \d+: +\d+ )?Killed(?:\s+.*)?$|\S: line \d+: +\d+ Killed(?:\s|$)|\bMemoryError\b|\b_ArrayMemoryError\b|\bx(?:m|re|c)alloc: cannot allocate \d+ bytes\b|exit code 137\b|Process Exit Code: 137\b|signal: killed|std::bad_alloc|runtime: out of memory|memory allocation of \d+ bytes failed|SIGKILL: kill|Reached heap limit|^unable to (?:re)?alloc \d+ bytes$|cannot allocate vector of size [\d.]+ [KMGT]?b)/,
    // `killed` only when the line says the process was killed (the kernel's OOM killer, exit 137,
    // SIGKILL); else the error the program itself raised (std::bad_alloc, heap out of memory, numpy's MemoryError
    // subclass `_ArrayMemoryError: Unable to allocate 16.7 GiB`, bash's and GNU tools' `xrealloc: cannot allocate N bytes`,
    // Tcl's allocator before it aborts, `unable to realloc N bytes`, R's `cannot allocate vector of size 305.2 Mb`...).
    read: (m) => ({
      exception:
        /OutOfMemoryError|_ArrayMemoryError|MemoryError/.exec(m[0])?.[0] ??
        (/Killed|OOMKilled|exit code 137|Exit Code: 137|signal: killed|SIGKILL|signal 9/.test(m[0])
          ? 'killed'
          : (/(?:JavaScript|JS) heap out of memory|std::bad_alloc|[Cc]annot allocate memory|virtual memory exhausted|runtime: out of memory/.exec(m.input)?.[0] ?? m[0].trim())),
    }),
  },
  // PHP's memory_limit (`Allowed memory size of N bytes exhausted ... in f.php on line N`) and
  // Ruby's NoMemoryError at its address-space limit (`[FATAL] failed to allocate memory`).
  { cls: 'out-of-memory', priority: 20, confidence: 'high', re: new RegExp(String.raw`Allowed memory size of \d+ bytes exhausted(?:.*? in (${SRC}\.php)(?: on line |:)(\d+))?`), read: (m) => ({ tool: 'php', exception: 'memory exhausted', ...at(m[1], m[2]) }) },
  { cls: 'out-of-memory', priority: 20, confidence: 'high', re: /^\[FATAL\] failed to allocate memory$|\bfailed to allocate memory \(NoMemoryError\)/, read: () => ({ tool: 'ruby', exception: 'NoMemoryError' }) },
  // git's own words when a write of its packs comes up short (csum-file.c: `sha1 file '<stdout>' write error. Out of
  // diskspace`, `git bundle create` on a full volume: test/fixtures/grammar git-bundle-disk-full).
  { cls: 'disk-full', priority: 20, confidence: 'high', re: /No space left on device|\bENOSPC\b|Disk quota exceeded|not enough (?:free )?disk space|There is not enough space on the disk|\bwrite error\. Out of diskspace\b/i },
  // A linker killed by SIGBUS (`collect2: fatal error: ld terminated with signal 7 [Bus error]`): lld, gold and mold
  // write their output through mmap, and a page of it that the full volume cannot hold is a bus error, not ENOSPC
  // (cargo-target-dir-tmpfs-full, a 4 MB tmpfs). Medium: a mapped input truncated under the linker is a bus error too.
  { cls: 'disk-full', priority: 20, confidence: 'medium', re: /\b(?:ld|lld|ld\.(?:bfd|gold|lld|mold)|gold|mold|rust-lld) terminated with signal 7\b/, read: () => ({ tool: 'ld', exception: 'SIGBUS' }) },
  // ---- Timeouts and aborts.
  {
    cls: 'timeout-aborted',
    priority: 25,
    confidence: 'high',
    re: /(?:Timeout has been exceeded|Cancelling nested steps due to timeout|Build timed out \(after|Aborted by \S|Sending interrupt signal to process|^panic: test timed out after|Exceeded timeout of [\d.]+ ?(?:ms|seconds?)|exceeded the maximum execution time|The operation was canceled\.|exit code 124\b|\bFlowInterruptedException\b|The job was canceled|Failed: Timeout \(?>[\d.]+s\)?|(?:Test|Hook) timed out in \d+ ?ms|^\s*\d+\/\d+ Test\s+#\d+: \S+ \.*\s*\*\*\*Timeout\b|Timed out after \d+|(?<!(?:Operation|Connection|Resolving|[Cc]onnect(?:ion)? attempt) )timed out after \d+ ?(?:ms|milliseconds|s|secs?|seconds|min|minutes)\b)/,
    read: (m) => ({ ...(/panic: test timed out/.test(m[0]) ? { tool: 'go test' } : /Exceeded timeout of/.test(m[0]) ? { tool: 'jest' } : /(?:Test|Hook) timed out in/.test(m[0]) ? { tool: 'vitest' } : /\*\*\*Timeout/.test(m[0]) ? { tool: 'ctest' } : {}) }),
  },
  // mocha's own test timeout: `Error: Timeout of 2000ms exceeded. For async tests and hooks, ...`.
  { cls: 'timeout-aborted', priority: 25, confidence: 'high', re: /\bError: Timeout of \d+ms exceeded\./, read: () => ({ tool: 'mocha' }) },
  // ---- Compilers.
  { cls: 'compile-error', priority: 30, tool: 'javac', confidence: 'high', re: new RegExp(String.raw`^(?:\[ERROR\]\s+)?(${SRC}\.java):\[(\d+),(\d+)\]\s+(?!\[)\S`), read: (m) => ({ tool: 'javac', ...at(m[1], m[2], m[3]) }) },
  // Gradle's plain console prints a task's name and its first output on one line (`:compileJava/abs/A.java:10: error: ...`).
  { cls: 'compile-error', priority: 30, tool: 'javac', confidence: 'high', re: new RegExp(String.raw`^(?::[\w:-]+(?=\/))?(${SRC}\.java):(\d+): error: `), read: (m) => ({ tool: 'javac', ...at(m[1], m[2]) }) },
  { cls: 'compile-error', priority: 30, confidence: 'high', re: new RegExp(String.raw`^(?:\[ERROR\]\s+)?e: (?:file://)?(${SRC}\.kts?)(?::(\d+):(\d+)|: \((\d+), (\d+)\)):? `), read: (m) => ({ tool: 'kotlinc', ...at(m[1], m[2] ?? m[4], m[3] ?? m[5]) }) },
  // kotlinc run directly prints `src/main/kotlin/a/Foo.kt:5:26: error: type mismatch: ...` (no `e: `).
  { cls: 'compile-error', priority: 30, confidence: 'high', re: new RegExp(String.raw`^(${SRC}\.kts?):(\d+):(\d+): error: `), read: (m) => ({ tool: 'kotlinc', ...at(m[1], m[2], m[3]) }) },
  { cls: 'compile-error', priority: 30, confidence: 'high', re: new RegExp(String.raw`^(?:\[error\]\s+)(${SRC}\.scala):(\d+):(\d+):? `), read: (m) => ({ tool: 'scalac', ...at(m[1], m[2], m[3]) }) },
  { cls: 'compile-error', priority: 30, confidence: 'high', re: new RegExp(String.raw`^(${SRC}\.scala):(\d+): error: `), read: (m) => ({ tool: 'scalac', ...at(m[1], m[2]) }) },
  {
    cls: 'compile-error',
    priority: 30,
    confidence: 'high',
    re: new RegExp(String.raw`^(${SRC}\.[cm]?tsx?)(?:\((\d+),(\d+)\): |:(\d+):(\d+) - )error (TS\d+): `),
    read: (m) => ({ tool: 'tsc', code: m[6], ...at(m[1], m[2] ?? m[4], m[3] ?? m[5]) }),
  },
  // Not TS5033 (`Could not write file 'x': EACCES: permission denied, open 'x'`): tsc met the system's error writing its
  // output, the source compiled; the error's own words decide (a permission, a full disk: round 19, t20).
  { cls: 'compile-error', priority: 31, confidence: 'high', re: /^error TS(?!5033:)(\d+): /, read: (m) => ({ tool: 'tsc', code: `TS${m[1]}` }) },
  { cls: 'compile-error', priority: 30, confidence: 'high', re: /^error\[(E\d{4})\]: /, read: (m) => ({ tool: 'rustc', code: m[1] }) },
  // rustc's diagnostics without a code (and clippy's lints, which rustc prints the same way):
  // `error: <message>` with its place on ` --> file:line:col` just below.
  { cls: 'compile-error', priority: 31, confidence: 'high', re: /^error: (?!could not compile|aborting due to|test failed|linking with|failed to run|Recipe )\S/, below: /^\s*--> (?:[A-Za-z]:)?[^\s:]+:\d+:\d+\s*$/, read: () => ({ tool: 'rustc' }) },
  {
    cls: 'compile-error',
    priority: 30,
    confidence: 'high',
    // The C++ standard headers have no extension (`/usr/include/c++/12/ostream:754:5: error: ...`, a template's error inside them).
    // clang's `-fdiagnostics-format=msvc` puts the place in parentheses: `src/a.c(23,14): error: ...`.
    re: new RegExp(String.raw`^(?:\[(?:ERROR|WARNING)\]\s+)?(${SRC}\.(?:c|cc|cpp|cxx|c\+\+|h|hh|hpp|hxx|m|mm)|\/(?:[^\s:]+\/)?include\/(?:[^\s:]+\/)?[A-Za-z_][\w+-]*)(?::(\d+):(\d+)|\((\d+),(\d+)\)): (?:fatal )?error: `),
    // A warning made fatal names its flag: gcc `[-Werror=implicit-fallthrough=]`, clang `[-Werror,-Wunused-variable]`.
    // The tool is gcc's or clang's: index.ts tells them apart from the lines around (compilerName.ts).
    read: (m, line) => ({ tool: 'gcc', ...werrorFlag(line), ...at(m[1], m[2] ?? m[4], m[3] ?? m[5]) }),
  },
  // Go names the import that needs a module it cannot find: the resolver's failure, at the import's place.
  {
    cls: 'dependency-resolution',
    priority: 29,
    confidence: 'high',
    re: new RegExp(String.raw`^((?:\.{1,2}\/)?${SRC}\.go):(\d+):(\d+): (?:cannot find module providing package|no required module provides package|missing go\.sum entry for module providing package) (\S+?)[:;]?(?:\s|$)`),
    read: (m) => ({ tool: 'go', dependency: m[4] as string, ...at(m[1], m[2], m[3]) }),
  },
  // A standard-library package the installed toolchain does not have (`package slices is not in
  // GOROOT (/usr/lib/go-1.19/src/slices)`): the Go release is older than the code needs.
  {
    cls: 'missing-tool',
    priority: 29,
    confidence: 'high',
    re: new RegExp(String.raw`^((?:\.{1,2}\/)?${SRC}\.go):(\d+):(\d+): package ([\w/]+) is not in (?:GOROOT|std) `),
    read: (m) => ({ tool: 'go', symbol: m[4] as string, ...at(m[1], m[2], m[3]) }),
  },
  // ... or a module whose go.mod `replace` points at a directory that is not there (or has no go.mod).
  {
    cls: 'dependency-resolution',
    priority: 29,
    confidence: 'high',
    re: new RegExp(String.raw`^((?:\.{1,2}\/)?${SRC}\.go):(\d+):(\d+): (\S+@\S+): replacement directory (\S+) (?:does not exist|has no go\.mod)`),
    read: (m) => ({ tool: 'go', dependency: m[4] as string, ...at(m[1], m[2], m[3]) }),
  },
  // ... or a module go had to fetch for the import and could not (`rates.go:7:2: example.com/x@v0.0.0: Get
  // "https://proxy.golang.org/...": dial tcp: lookup proxy.golang.org ...: no such host`, `reading file:///...: no such
  // file or directory`, `module lookup disabled by GOPROXY=off`): the network's when the fetch failed on the wire, else
  // the resolver's. Not a compiler's error, nor a vet finding under `go vet`.
  {
    cls: 'network',
    priority: 28,
    confidence: 'high',
    re: new RegExp(String.raw`^((?:\.{1,2}\/)?${SRC}\.go):(\d+):(\d+): ([\w.~\/-]+@v[\w.+-]+): (?:Get|reading) \S+: (?:dial tcp|.*\b(?:no such host|connection refused|connection reset|i\/o timeout|network is unreachable|TLS handshake timeout)\b)`),
    read: (m, line) => ({ tool: 'go', dependency: m[4] as string, ...hostRead(m, line), ...at(m[1], m[2], m[3]) }),
  },
  {
    cls: 'dependency-resolution',
    priority: 29,
    confidence: 'high',
    re: new RegExp(String.raw`^((?:\.{1,2}\/)?${SRC}\.go):(\d+):(\d+): ([\w.~\/-]+@v[\w.+-]+): (?:reading \S+: |module lookup disabled by GOPROXY=|unrecognized import path |invalid version: |unknown revision |verifying )`),
    read: (m) => ({ tool: 'go', dependency: m[4] as string, ...at(m[1], m[2], m[3]) }),
  },
  { cls: 'compile-error', priority: 30, confidence: 'high', re: new RegExp(String.raw`^(?:vet: )?((?:\.{1,2}\/)?${SRC}\.go):(\d+):(\d+): (?!\s)|^(?:vet: )?(\.{1,2}\/${SRC}\.go):(\d+): (?!\s)`), read: (m) => ({ tool: 'go', ...at(m[1] ?? m[4], m[2] ?? m[5], m[3]) }) },
  { cls: 'compile-error', priority: 30, confidence: 'high', re: new RegExp(String.raw`^(${SRC}\.swift):(\d+):(\d+): error: `), read: (m) => ({ tool: 'swiftc', ...at(m[1], m[2], m[3]) }) },
  // xcpretty (fastlane, xcodebuild | xcpretty) prints a compiler error as `❌  /path/File.swift:97:2: message`.
  { cls: 'compile-error', priority: 30, confidence: 'high', re: new RegExp(String.raw`(?:^|\s)❌\s+(${SRC}\.(swift|m|mm|h|c|cc|cpp)):(\d+):(\d+): \S`), read: (m) => ({ tool: m[2] === 'swift' ? 'swiftc' : 'clang', ...at(m[1], m[3], m[4]) }) },
  // GHC: `src/X.hs:336:32: error:` (the message on the lines below).
  { cls: 'compile-error', priority: 30, confidence: 'high', re: new RegExp(String.raw`^(${SRC}\.l?hs):(\d+):(\d+): error:`), read: (m) => ({ tool: 'ghc', ...at(m[1], m[2], m[3]) }) },
  // A class or function of a PHP extension the interpreter lacks (intl, mbstring, gd, curl, zip...): the extension is not installed, not the code's bug.
  {
    cls: 'missing-tool',
    priority: 47,
    confidence: 'medium',
    re: new RegExp(String.raw`(?:Class "\\?(NumberFormatter|Collator|IntlDateFormatter|Normalizer|Transliterator|ZipArchive|SoapClient|Imagick|Redis|Memcached|AMQPConnection|MongoDB\\Driver\\Manager)" not found|Call to undefined function ((?:mb|intl|gd|image|curl|zip|bc|gmp|sodium|xml|simplexml|dom|pdo|mysqli|pg|sqlite|iconv|grapheme|idn|yaml|apcu|redis|imap|ldap|soap|exif|ftp|gettext|posix|pcntl)_\w+|imagecreate\w*|curl_init)\(\))(?:.*? in (${SRC}\.php)(?: on line |:)(\d+))?`),
    read: (m) => ({ tool: 'php', symbol: (m[1] ?? m[2]) as string, ...at(m[3], m[4]) }),
  },
  // PHPUnit's testdox report (`✘ Name` / `│ Error: Call to undefined method A::b()` / `│ /ws/src/A.php:19`): an error raised in a test, at the first place under it.
  { cls: 'test-error', priority: 58, confidence: 'high', re: /^\s*│ ((?:[A-Z]\w*\\)*(?:[A-Z]\w*(?:Error|Exception)|Error|Exception)): \S/, below: new RegExp(String.raw`^\s*│ (${SRC}\.php):(\d+)\s*$`), read: (m, _line, under) => ({ tool: 'phpunit', exception: m[1] as string, ...at(under?.[1], under?.[2]) }) },
  // Its assertion failing (`✘ Name` / `│ Failed asserting that two arrays are equal.` / the values' diff / `│ /ws/tests/ATest.php:14`):
  // the place is the test's line PHPUnit prints at the end of the box, under the diff (PHPUnit 9 --testdox).
  { cls: 'test-assertion', priority: 58, confidence: 'high', re: /^\s*│ Failed asserting that \S/, near: { re: new RegExp(String.raw`^\s*│ (?<file>${SRC}\.php):(?<line>\d+)\s*$`), from: 1, to: 40 }, read: () => ({ tool: 'phpunit' }) },
  // A Perl test script that died (`Illegal division by zero at lib/X.pm line 30.` over Test::More's `# Looks like your test exited with 255`).
  { cls: 'test-error', priority: 58, confidence: 'medium', re: new RegExp(String.raw`^(.+) at (${SRC}\.(?:pm|pl|t)) line (\d+)\.?$`), below: /^# Looks like your test (?:exited with \d+|died)/, read: (m) => ({ tool: 'prove', ...at(m[2], m[3]) }) },
  // Python's doctest: `File "x.py", line 11, in mod.func` over `Failed example:` (its Expected/Got below).
  { cls: 'test-assertion', priority: 58, confidence: 'high', re: new RegExp(String.raw`^File "(${SRC}\.(?:py|txt|rst|md))", line (\d+), in \S+$`), below: /^Failed example:$/, read: (m) => ({ tool: 'doctest', ...at(m[1], m[2]) }) },
  // PHP's compile-time checks of a class as it is declared (`PHP Fatal error:  Declaration of A::f(array $r): string must be
  // compatible with I::f(Traversable|array $r): string in /ws/src/A.php on line 8`, `Class A contains 1 abstract method
  // and must therefore be declared abstract or implement the remaining methods`, `Access level to A::f() must be public`,
  // `Cannot override final method`, `Class A cannot extend final class B`): the code does not compile, nothing of it ran
  // (not `Uncaught`, a runtime's throw), before the fatal error's general rule below (session 53, t28: round 27).
  { cls: 'compile-error', priority: 47, confidence: 'high', re: new RegExp(String.raw`^(?:PHP )?Fatal error: +(?!Uncaught )(?:Declaration of .+ must be compatible with |Class \S+ contains \d+ abstract methods? and must therefore be declared abstract|Access level to \S+ must be (?:public|protected)|Cannot override final method |Class \S+ cannot extend (?:final class|interface|trait) |Class \S+ cannot implement previously implemented interface |Cannot redeclare (?:function )?\S+\(\)).*? in (${SRC}\.php)(?: on line |:)(\d+)`), read: (m) => ({ tool: 'php', exception: 'Fatal error', ...at(m[1], m[2]) }) },
  // A function of a later PHP than the agent's (`Call to undefined function json_validate()`, 8.3; a namespaced call
  // falls back to the global one and PHP names the namespace: `Hooks\json_validate()`): the interpreter is too old (or the
  // polyfill is not installed), a missing tool at medium, as a PHP extension's functions above (session 53, t28).
  { cls: 'missing-tool', priority: 47, confidence: 'medium', re: new RegExp(String.raw`Call to undefined function (?:[\w\\]*\\)?(json_validate|mb_str_pad|str_increment|str_decrement|array_find|array_find_key|array_any|array_all|mb_trim|mb_ltrim|mb_rtrim|mb_ucfirst|mb_lcfirst|bcround|bcfloor|bcceil|array_is_list|enum_exists|str_contains|str_starts_with|str_ends_with|get_debug_type|fdiv|get_resource_id|array_key_first|array_key_last|is_countable|hrtime)\(\)(?:.*? in (${SRC}\.php)(?: on line |:)(\d+))?`), read: (m) => ({ tool: 'php', symbol: m[1] as string, ...at(m[2], m[3]) }) },
  // PHP stops on a fatal error with its file and line: `PHP Fatal error:  Class 'X' not found in /x/Y.php on line 286`;
  // PHP 7+ names the uncaught Throwable's class (`Uncaught Error: Class "X" not found in ...`, `Uncaught TypeError: ...`).
  { cls: 'runtime-exception', priority: 48, confidence: 'high', re: new RegExp(String.raw`^(?:PHP )?Fatal error: (?:.+?, called in \S+ on line \d+ and defined in |.+? in )(${SRC}\.php)(?: on line |:)(\d+)`), read: (m) => ({ tool: 'php', exception: /^(?:PHP )?Fatal error: +Uncaught ((?:\\?[A-Za-z_]\w*)+):/.exec(m[0])?.[1]?.replace(/^\\/, '') ?? 'Fatal error', ...at(m[1], m[2]) }) },
  { cls: 'compile-error', priority: 30, confidence: 'high', re: new RegExp(String.raw`^(${SRC}\.(?:cs|fs|vb))\((\d+),(\d+)\): error ([A-Z]+\d+): `), read: (m) => ({ tool: 'dotnet', code: m[4], ...at(m[1], m[2], m[3]) }) },
  { cls: 'compile-error', priority: 30, confidence: 'high', re: new RegExp(String.raw`^(${SRC}\.py):(\d+): error: .*\[([\w-]+)\]$`), read: (m) => ({ tool: 'mypy', code: m[3], ...at(m[1], m[2]) }) },
  { cls: 'compile-error', priority: 33, confidence: 'high', re: new RegExp(String.raw`^\s*(${SRC}\.rb):(\d+): syntax error, `), read: (m) => ({ tool: 'ruby', exception: 'SyntaxError', ...at(m[1], m[2]) }) },
  // A prerequisite make cannot build (`needed by 'x.o'`): a source file the build lists is missing.
  { cls: 'compile-error', priority: 34, confidence: 'medium', re: /^make(?:\[\d+\])?: \*\*\* No rule to make target [`'‘]([^'’`]+)['’`], needed by/, read: (m) => ({ tool: 'make', symbol: m[1] as string }) },
  // A target the command asked for that the Makefile does not have: the CI script and the Makefile disagree.
  { cls: 'ci-script', priority: 34, confidence: 'medium', re: /^make(?:\[\d+\])?: \*\*\* No rule to make target [`'‘]([^'’`]+)['’`]\.\s+Stop\./, read: (m) => ({ tool: 'make', symbol: m[1] as string }) },
  // make refusing a Makefile of the project (`Makefile:4: *** Recursive variable 'X' references itself
  // (eventually).  Stop.`, `*** missing separator`, a `$(error ...)`): the build script is wrong, at its line.
  { cls: 'ci-script', priority: 34, confidence: 'medium', re: /^((?:[^\s:]*\/)?(?:(?:GNU)?[Mm]akefile[\w.-]*|[\w.-]+\.mk)):(\d+): \*\*\* (?!No rule to make target).+?\.?\s+Stop\.$/, read: (m) => ({ tool: 'make', ...at(m[1], m[2]) }) },
  { cls: 'compile-error', priority: 34, confidence: 'medium', re: /^\s*Cannot find source file:\s*$|^\s*Cannot find source file: (\S+)/, read: (m) => ({ tool: 'cmake', ...(m[1] ? { symbol: m[1] } : {}) }) },
  // Python refusing to parse the code is the compiler's error of Python.
  // pytest prints it under `E   ` when a test module does not parse (collection), its place on an `E     File "x.py", line N` above.
  // Not Node's ESM linker, which names an import the other module does not export a SyntaxError once the code has parsed
  // (`SyntaxError: Named export 'x' not found. The requested module 'y' is a CommonJS module`, `The requested module 'y'
  // does not provide an export named 'x'`, thrown at ModuleJob._instantiate): an error of the run, not of the source's syntax.
  { cls: 'compile-error', priority: 33, confidence: 'high', re: /^(?:E {2,})?(SyntaxError|IndentationError|TabError): (?!Named export '[^']+' not found\b|The requested module '[^']+' does not provide an export named\b)/, read: (m) => ({ tool: 'python', exception: m[1] }), near: { re: /^(?:E {2,})?\s*File "(?<file>[^"]+)", line (?<line>\d+)/, from: -6, to: -1 } },
  // ---- The linker.
  {
    cls: 'link-error',
    priority: 32,
    confidence: 'high',
    re: /(?:undefined reference to (?:symbol )?[`'‘]([^'’`]+)['’`]|Undefined symbols for architecture|unresolved external symbol "?([^"\s]+)|(?:ld|lld)(?:\.\w+)?: (?:error: )?(?:cannot find|unable to find library) -l([^\s:]+)|multiple definition of [`'‘]([^'’`]+)['’`]|symbol\(s\) not found for architecture|undefined symbol: ([^\s(]+(?:\([^)]*\))?)|^\S+:\(\.\w+\+0x[\da-f]+\): relocation truncated to fit: )/,
    read: (m, line) => {
      const file = /^(?:\/\S+\/)?([^\s:]+\.(?:c|cc|cpp|cxx|o|rs|go)):(?:(\d+)|\(\.text)/.exec(line.trim());
      const lib = m[3] ? `-l${m[3]}` : undefined;
      const linker = /([\w.-]*ld(?:\.\w+)?)(?::| returned)/.exec(line)?.[1];
      const symbol = m[1] ?? m[2] ?? m[4] ?? m[5] ?? lib;
      return { tool: linker && linker !== 'ld' && !/^\//.test(linker) ? linker : 'ld', ...(symbol ? { symbol } : {}), ...(file?.[1] && !file[1].endsWith('.o') ? at(file[1], file[2]) : {}) };
    },
  },
  // Go's own linker (cmd/link): a function declared without a body that nothing defines (`//go:linkname`, an assembly stub).
  { cls: 'link-error', priority: 32, confidence: 'high', re: /^[\w./()*-]+: relocation target (\S+) not defined\b/, read: (m) => ({ tool: 'go', symbol: m[1] as string }) },
  // The build tool's word that linking failed: the class, when the linker's own line is missing.
  { cls: 'link-error', priority: 38, confidence: 'medium', re: /error: linking with `\w+` failed|ld returned \d+ exit status|error: ld returned/, read: () => ({ tool: 'ld' }) },
  // ---- Linters and formatters.
  // prettier --check lists each unformatted file (`[warn] src/a.ts`) over its verdict.
  { cls: 'lint', priority: 35, confidence: 'high', re: new RegExp(String.raw`^\[warn\] (${SRC}\.\w+)$`), below: new RegExp(String.raw`^\[warn\] (?:Code style issues found|${SRC}\.\w+$)`), read: (m) => ({ tool: 'prettier', file: m[1] as string }) },
  // Checkstyle's plain report: `[ERROR] /ws/src/main/java/a/B.java:4:17: message [CheckName]`.
  { cls: 'lint', priority: 35, confidence: 'high', re: new RegExp(String.raw`^\[(?:ERROR|WARN)\] (${SRC}\.java):(\d+):(?:(\d+):)? .+ \[([A-Z]\w+)\]$`), read: (m) => ({ tool: 'checkstyle', code: m[4], ...at(m[1], m[2], m[3]) }) },
  // RuboCop's `--format simple`: `W: 25: 32: Lint/UselessAssignment: ...` under its `== lib/x.rb ==` heading.
  { cls: 'lint', priority: 35, confidence: 'high', re: /^[CWEFR]: +(\d+): +(\d+): (?:\[Correctable\] )?([A-Z]\w+\/\w+): /, read: (m) => ({ tool: 'rubocop', code: m[3], ...at(undefined, m[1], m[2]) }) },
  { cls: 'lint', priority: 35, confidence: 'high', re: /^\s+(\d+):(\d+)\s+(?:error|✖)\s+.+?\s{2,}([@\w/-]+)$/, read: (m) => ({ tool: 'eslint', code: m[3], ...at(undefined, m[1], m[2]) }) },
  // flake8/ruff `x.py:1:1: F401 'os' imported but unused`; pylint `x.py:13:8: W0612: Unused variable 'd' (unused-variable)`.
  { cls: 'lint', priority: 35, confidence: 'high', re: new RegExp(String.raw`^(${SRC}\.py):(\d+):(\d+): ([A-Z]{1,3}\d{2,4})(:?) `), read: (m) => ({ tool: m[5] ? 'pylint' : 'flake8', code: m[4], ...at(m[1], m[2], m[3]) }) },
  { cls: 'lint', priority: 36, confidence: 'high', re: /^(?:would reformat |Oh no! .* files? would be reformatted|\[warn\] Code style issues found|Code style issues found in|Diff in .* at line \d+:|gofmt: |ktlint|checkstyle|\[ERROR\] .*\.java:\[\d+(?:,\d+)?\] \([\w ]+\) )/, read: (m) => ({ tool: /reformat|Oh no/.test(m[0]) ? 'black' : /Code style/.test(m[0]) ? 'prettier' : /Diff in/.test(m[0]) ? 'rustfmt' : /checkstyle|\(\w+\) /.test(m[0]) ? 'checkstyle' : 'formatter' }) },
  // rustfmt (`cargo fmt --check`) >= 1.5: `Diff in /ws/src/lib.rs:2:` over the diff.
  { cls: 'lint', priority: 35, confidence: 'high', re: new RegExp(String.raw`^Diff in (${SRC}\.rs):(\d+):\s*$`), read: (m) => ({ tool: 'rustfmt', ...at(m[1], m[2]) }) },
  // ShellCheck's heading only with its SC code below: Symfony Console's exception heading has the same words (`In RemoteFilesystem.php line 476:`).
  { cls: 'lint', priority: 36, confidence: 'high', re: /^In \S+ line \d+:/, near: { re: /\bSC\d{4}\b/, from: 1, to: 8, required: true }, read: () => ({ tool: 'shellcheck' }) },
  { cls: 'lint', priority: 36, confidence: 'high', re: /\bSC\d{4}\b.*:/, read: () => ({ tool: 'shellcheck' }) },
  // RuboCop: `lib/x.rb:158:17: C: Performance/RegexpMatch: Use match? ...` (C/W/E/F: convention, warning, error, fatal).
  { cls: 'lint', priority: 35, confidence: 'high', re: new RegExp(String.raw`^(${SRC}\.(?:rb|rake|gemspec)):(\d+):(\d+): [CWEFR]: (?:\[Correctable\] )?([A-Z]\w+/\w+): `), read: (m) => ({ tool: 'rubocop', code: m[4], ...at(m[1], m[2], m[3]) }) },
  { cls: 'lint', priority: 35, confidence: 'high', re: /^\s+(\d+):(\d+)\s+error\s+Parsing error: /, read: (m) => ({ tool: 'eslint', ...at(undefined, m[1], m[2]) }) },
  { cls: 'lint', priority: 36, confidence: 'high', re: /You have \d+ Checkstyle violations?|There (?:is|are) \d+ checkstyle errors?|PMD Failure|You have \d+ PMD violations?|The following files had format violations|Lint found errors in the project|BugInstance size is \d+|\d+ SpotBugs violations? (?:were|was) found/, read: (m) => ({ tool: /Checkstyle|checkstyle/.test(m[0]) ? 'checkstyle' : /PMD/.test(m[0]) ? 'pmd' : /format violations/.test(m[0]) ? 'spotless' : /SpotBugs|BugInstance/.test(m[0]) ? 'spotbugs' : 'android-lint' }) },
  { cls: 'lint', priority: 37, confidence: 'medium', re: /^✖ \d+ problems? \(\d+ errors?/, framing: true, read: () => ({ tool: 'eslint' }) },
  // ---- A server's HTTP status in any client's report (curl's `returned error: 403`, urllib's `HTTP Error 429`, Gradle's
  // `Received status code 403 from server`, `401 Unauthorized`): 401/403 refused the credentials (407 a proxy's), 429 and 502-504 are the
  // service's (rate limit, gateway). Before the resolvers, which name the artifact they could not fetch over the status
  // that says why (docs/notes/analyzer.md, "Rounds 14 and 15 opened (helper t16)").
  { cls: 'permission-credentials', priority: 41, confidence: 'high', re: httpStatus('40[137]', 'Unauthorized|Forbidden|Proxy Authentication Required'), read: hostRead },
  // PostgreSQL refusing the login role the client gave (`FATAL:  role "shop_migrator" does not exist`, libpq's connection
  // error): the credentials the job connects with, not the script's command (PGUSER usually comes from the environment).
  { cls: 'permission-credentials', priority: 41, confidence: 'high', re: /\bFATAL: {1,2}role "[^"]+" does not exist\b/, read: () => ({ tool: 'psql' }) },
  { cls: 'network', priority: 41, confidence: 'high', re: httpStatus('429|50[234]', 'Too Many Requests|Bad Gateway|Service Unavailable|Gateway Time-?out'), read: hostRead },
  // A client that gave up following redirects that go round (urllib's `HTTP Error 308: The HTTP server returned a redirect
  // error that would lead to an infinite loop.`, requests' `TooManyRedirects: Exceeded 30 redirects.`, curl's `(47) Maximum
  // (50) redirects followed`): the server's (or the URL's) answers loop, the request never got a page: the network's side
  // as the service's statuses above, at medium (session 53, t28: round 27).
  { cls: 'network', priority: 41, confidence: 'medium', re: /\bredirect error that would lead to an infinite loop\b|\bTooManyRedirects: Exceeded \d+ redirects\b|\bMaximum \(\d+\) redirects followed\b/, read: hostRead },
  // ---- Network (before the resolvers: a resolver that could not reach its repository is a network failure).
  {
    cls: 'network',
    priority: 40,
    confidence: 'high',
    re: /(?:Could not resolve host|UnknownHostException|Temporary failure in name resolution|Name or service not known|nodename nor servname provided|\bENOTFOUND\b|\bEAI_AGAIN\b|\bECONNREFUSED\b|\bECONNRESET\b|\bETIMEDOUT\b|Connection refused|Connection reset by peer|Connection timed out|Network is unreachable|No route to host|Failed to establish a new connection|Failed to connect to|dial tcp[^:]*: (?:lookup|connect)|: no such host|certificate verify failed|PKIX path building failed|SSLHandshakeException|Unsupported or unrecognized SSL message|\bwrong version number\b|TLS handshake timeout|unable to get local issuer certificate|ConnectTimeoutException|SocketTimeoutException|Read timed out|spurious network error|503 Service Unavailable|502 Bad Gateway|ConnectException: Connection refused|curl: \((?:6|7|28|35|52|56|60)\)|Operation timed out|SSL certificate problem|Could not connect to|Failed to connect to)/i,
    read: (_m, line) => {
      const host = hostOf(line);
      return host ? { host } : {};
    },
  },
  // Node's fetch (undici) rejects with `TypeError: fetch failed` only on a network error (the Fetch standard's
  // "network error": refused, reset, closed by the peer, DNS, TLS); its `[cause]:` below says which. A cause another rule
  // reads (ECONNREFUSED, ENOTFOUND, a refused certificate: priority 39-40) wins with its own line.
  { cls: 'network', priority: 42, confidence: 'high', re: /\bTypeError: fetch failed$/, read: () => ({ tool: 'node' }) },
  // An exception whose type a Python HTTP library defines for what happened on the wire (`http.client.IncompleteRead`,
  // `requests.exceptions.ChunkedEncodingError`, `urllib3.exceptions.ProtocolError`, `aiohttp.client_exceptions.
  // ServerDisconnectedError`, `httpx.RemoteProtocolError`): the type's module decides, whatever its message says
  // (session 46, t21). Not the caller's own mistakes (an invalid URL, schema or header, a body that is not JSON, a
  // connection used out of order) nor a server's status (`HTTPError`, `HTTPStatusError`: the status rules above).
  { cls: 'network', priority: 43, confidence: 'medium', re: PY_NETWORK_EXCEPTION, read: (m) => ({ tool: 'python', exception: m[1] as string }) },
  // ---- Resolvers: Maven, Gradle, npm, pip, cargo, go.
  {
    cls: 'dependency-resolution',
    priority: 45,
    confidence: 'high',
    re: /(?:Could not resolve dependencies for project|Could not find artifact (\S+)|Failure to find (\S+)|Non-resolvable (?:parent POM|import POM)|Plugin (\S+) or one of its dependencies could not be resolved|Cannot access \S+ \([^)]*\) in offline mode|Failed to read artifact descriptor for (\S+)|Could not find ([\w.-]+:[\w.-]+:[\w.-]+)\.?|Could not resolve ([\w.-]+:[\w.-]+:[\w.+-]+)\.?|Could not resolve plugin artifact)/,
    read: (m, line) => {
      // Maven names the artifact later on the line: `... the artifact g:a:jar:1.0 has not been downloaded`, `The following artifacts could not be resolved: g:a:jar:1.0`.
      const named = /(?:the artifact|artifacts could not be resolved:|Could not find artifact|Failure to find) ([\w.-]+:[\w.-]+(?::[\w.-]+){1,3})/.exec(line)?.[1];
      const dep = m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5] ?? m[6] ?? named;
      return { tool: /configuration|^Could not (?:find|resolve) [\w.-]+:/.test(m[0]) ? 'gradle' : 'maven', ...(dep ? { dependency: dep.replace(/[.,:]$/, '') } : {}) };
    },
  },
  // Gradle's heading over the dependency it could not find (`> Could not find g:a:v.` below it).
  { cls: 'dependency-resolution', priority: 45, confidence: 'high', framing: true, re: /^Could not resolve all (?:files|dependencies|artifacts) for configuration/, read: () => ({ tool: 'gradle' }) },
  {
    cls: 'dependency-resolution',
    priority: 45,
    confidence: 'high',
    re: /(?:npm (?:ERR!|error) (?:code )?(E404|ETARGET|ERESOLVE|ENOVERSIONS|ENOTCACHED)|No matching version found for (\S+)|unable to resolve dependency tree|404 Not Found - GET \S+ - Not found|'([^']+)' is not in (?:this|the npm) registry|Couldn't find any versions for "([^"]+)"|Couldn't find package "([^"]+)")/,
    read: (m) => ({ tool: 'npm', ...(m[1] ? { code: m[1] } : {}), ...((m[2] ?? m[3] ?? m[4] ?? m[5]) ? { dependency: (m[2] ?? m[3] ?? m[4] ?? m[5] as string).replace(/\.$/, '') } : {}) }),
  },
  // npm's refusal of a dependency whose package.json limits it to another platform (`npm error code EBADPLATFORM`, `npm
  // error notsup Unsupported platform for win-notify@0.3.1: wanted {"os":"win32"} (current: {"os":"linux"})`): the
  // dependency tree cannot be installed here (an optional dependency would be skipped): a dependency error, medium
  // (the agent's platform may be the wrong one). Not `notsup Required: {"node":...}` (the engine: toolchains.ts).
  // Real output of npm 11 (test/fixtures/grammar npm-ebadplatform; session 49).
  {
    cls: 'dependency-resolution',
    priority: 45,
    confidence: 'medium',
    re: /^(?:npm|pnpm) (?:error|ERR!) notsup Unsupported platform for ((?:@[\w.-]+\/)?[\w.-]+)@[\w.+-]+: wanted \{"(?:os|cpu|libc)"/,
    read: (m) => ({ tool: 'npm', code: 'EBADPLATFORM', dependency: m[1] as string }),
  },
  // pip in --require-hashes mode (a hash anywhere in the requirements turns it on) given a requirement without one:
  // `ERROR: Hashes are required in --require-hashes mode, but they are missing from some requirements.` over the
  // requirements it lists with the hash they had: the requirements file is incomplete, a dependency error (medium: the
  // listed line is what to add) (test/fixtures/grammar pip-require-hashes; session 49).
  { cls: 'dependency-resolution', priority: 45, confidence: 'medium', re: /^ERROR: Hashes are required in --require-hashes mode, but they are missing from some requirements\b/, read: () => ({ tool: 'pip' }) },
  // pip's refusal of a local requirement that is no project (`ERROR: file:///ws/vendor/units (from -r requirements.txt
  // (line 1)) does not appear to be a Python project: neither 'setup.py' nor 'pyproject.toml' found.`): the requirement
  // cannot be installed, at the requirements file's line pip names on the same line (test/fixtures/grammar
  // pip-not-a-project; session 49). Medium: the path may be the requirements file's typo as much as a moved package.
  {
    cls: 'dependency-resolution',
    priority: 45,
    confidence: 'medium',
    re: /^ERROR: (\S+) \(from -[rc] ([^\s()]+) \(line (\d+)\)\) does not appear to be a Python project\b/,
    read: (m) => ({ tool: 'pip', dependency: (m[1] as string).replace(/^file:\/\//, ''), file: m[2] as string, line: Number(m[3]) }),
  },
  {
    cls: 'dependency-resolution',
    priority: 45,
    confidence: 'high',
    // `pip check`'s verdict on what is installed: `x 2.1 has requirement y==1.0, but you have y 1.2.` / `x 2.1 requires y, which is not installed.`
    re: /(?:ERROR: Could not find a version that satisfies the requirement (\S+)|ERROR: No matching distribution found for (\S+)|ResolutionImpossible|^ERROR: Cannot install .+ because these package versions have conflicting dependencies|Because .+ depends on .+ version solving failed|No matching distribution found for (\S+)|^[\w.-]+ \S+ has requirement (\S+), but you have [\w.-]+ \S+\.$|^[\w.-]+ \S+ requires ([\w.-]+), which is not installed\.$)/,
    read: (m) => ({ tool: 'pip', ...((m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5]) ? { dependency: (m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5]) as string } : {}) }),
  },
  {
    cls: 'dependency-resolution',
    priority: 45,
    confidence: 'high',
    re: /(?:error: failed to select a version for (?:the requirement )?`([^`]+)`|error: no matching package named `([^`]+)` found|failed to select a version for `([^`]+)`|error: failed to get `([^`]+)` as a dependency)/,
    read: (m) => ({ tool: 'cargo', ...((m[1] ?? m[2] ?? m[3] ?? m[4]) ? { dependency: (m[1] ?? m[2] ?? m[3] ?? m[4]) as string } : {}) }),
  },
  {
    cls: 'dependency-resolution',
    priority: 45,
    confidence: 'high',
    re: /(?:^go: (\S+@\S+): (?:reading|unknown revision|invalid version|no matching versions)|^go: module (\S+): (?:no matching versions|not found)|missing go\.sum entry for module providing package (\S+)|cannot find module providing package (\S+)|no required module provides package (\S+))/,
    read: (m) => ({ tool: 'go', ...((m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5]) ? { dependency: (m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5] as string).replace(/[;:]$/, '') } : {}) }),
  },
  { cls: 'dependency-resolution', priority: 45, confidence: 'high', re: /^\s*Could NOT find (\w+)/, read: (m) => ({ tool: 'cmake', dependency: m[1] as string }) },
  // CMake links a target to a namespaced one (`ZLIB::ZLIB`) that no find_package or add_library made: an
  // imported target of a package the listfile never looked for (CMake reports only `::` names this way).
  { cls: 'dependency-resolution', priority: 46, confidence: 'medium', re: /^\s*Target "[^"]+" links to:$/, below: /^\s{3,}([\w.+-]+::[\w.+-]+)$/, read: (_m, _line, below) => ({ tool: 'cmake', ...(below?.[1] ? { dependency: below[1] } : {}) }) },
  { cls: 'dependency-resolution', priority: 45, confidence: 'high', re: /^\s*Could not find a package configuration file provided by "([^"]+)"/, read: (m) => ({ tool: 'cmake', dependency: m[1] as string }) },
  { cls: 'dependency-resolution', priority: 45, confidence: 'high', re: /(?:PackagesNotFoundError|UnsatisfiableError): /, read: () => ({ tool: 'conda' }) },
  // Bundler, Composer, Perl: a gem, package or module the environment cannot provide.
  {
    cls: 'dependency-resolution',
    priority: 45,
    confidence: 'high',
    re: /^(?:Could not find gem '([^'( ]+)[^']*' in|Could not find ([\w.-]+?)-\d[\w.]* in (?:any of the sources|locally installed gems)|Bundler could not find compatible versions for gem "([^"]+)"|Gem::MissingSpecError|Your (?:requirements|lock file) could not be resolved to an installable set of packages|\s*- Root composer\.json requires ([\w./-]+))/,
    read: (m) => ({ tool: /composer|installable set/.test(m[0]) ? 'composer' : 'bundler', ...((m[1] ?? m[2] ?? m[3] ?? m[4]) ? { dependency: (m[1] ?? m[2] ?? m[3] ?? m[4]) as string } : {}) }),
  },
  { cls: 'dependency-resolution', priority: 46, confidence: 'high', re: /^Can't locate ([\w/]+)\.pm in @INC/, read: (m) => ({ tool: 'perl', dependency: (m[1] as string).replace(/\//g, '::') }) },
  // mix's dependency check: a dependency whose version is not the one mix.exs requires (`* units (deps_src/units)` over
  // `  the dependency does not match the requirement "~> 0.3", got "0.2.1"`, then `** (Mix) Can't continue ...`).
  { cls: 'dependency-resolution', priority: 45, confidence: 'high', re: /^\s*the dependency does not match the requirement "[^"]+", got "[^"]+"/, read: () => ({ tool: 'mix' }) },
  // autoconf's configure (`configure: error: libgit2 not found`, `Package requirements (x >= 1) were not met`) and pkg-config.
  { cls: 'dependency-resolution', priority: 45, confidence: 'medium', re: /^configure: error: (?=.*\b(?:lib[\w+-]+|librar(?:y|ies)|packages?|headers?|modules?|pkg-config|development files|[\w+-]+-devel?|version)\b)(?:.*\b(?:not found|not installed|is required|are required|were not met|[Nn]o package|[Cc]annot find|[Cc]ould not find|missing)\b)|^(?:Package '?([\w.+-]+)'?,? (?:was not found in the pkg-config search path|required by '[^']+', not found)|No package '([\w.+-]+)' found)/, read: (m) => ({ tool: m[0].startsWith('configure') ? 'configure' : 'pkg-config', ...((m[1] ?? m[2]) ? { dependency: (m[1] ?? m[2]) as string } : {}) }) },
  { cls: 'missing-tool', priority: 55, confidence: 'high', re: /^configure: error: (?:C\+* compiler cannot create executables|no acceptable C compiler found|(?:C|C\+\+|Fortran) compiler not found)/, read: () => ({ tool: 'configure' }) },
  { cls: 'dependency-resolution', priority: 47, confidence: 'medium', re: /Error: Cannot find module '((?![./])[^']+)'/, read: (m) => ({ tool: 'node', exception: 'Error', dependency: m[1] as string }) },
  { cls: 'dependency-resolution', priority: 45, confidence: 'high', re: /npm (?:ERR!|error) code EINTEGRITY|go: updates to go\.mod needed|missing go\.sum entry/, read: () => ({}) },
  // Python could not import a module the code needs: the environment lacks a dependency.
  // Only a top-level name: `No module named 'pkg.mod'` means `pkg` was found and lacks `mod`, a
  // module of the project (moved or renamed) rather than a package the environment lacks.
  { cls: 'dependency-resolution', priority: 47, confidence: 'medium', re: /^(?:E\s+)?(ModuleNotFoundError): No module named '([^'.]+)'/, read: (m) => ({ tool: 'python', exception: m[1], dependency: m[2] }) },
  // The JVM's module resolver (jlink, jdeps, `java --module-path`): a module the module path lacks is a missing
  // dependency, not the program's exception (`Error: Module x not found` over `java.lang.module.FindException: ...`).
  // Before the generic `Error: ` compiler line (30), which it would otherwise be read as.
  { cls: 'dependency-resolution', priority: 29, confidence: 'high', re: /^(?:Error: |(?:java\.lang\.module\.)?(FindException|ResolutionException): )Module ([\w.]+) not found\b/, read: (m) => ({ exception: m[1] ?? 'FindException', dependency: m[2] as string }) },
  // yarn 1 refusing to change the lockfile (`error Your lockfile needs to be updated, but yarn was run with `--frozen-lockfile`.`).
  { cls: 'dependency-resolution', priority: 45, confidence: 'high', re: /^error Your lockfile needs to be updated, but yarn was run with `--frozen-lockfile`/, read: () => ({ tool: 'yarn' }) },
  // ---- Permissions and credentials.
  // PHP's warning that a file could not be opened (`PHP Warning:  file_put_contents(/x): Failed to open stream: Permission denied in f.php on line N`):
  // the cause of the exception or fatal error the script raises after it.
  { cls: 'permission-credentials', priority: 47, confidence: 'high', re: new RegExp(String.raw`^(?:PHP )?Warning: +\w+\(.*\): [Ff]ailed to open stream: (?:Permission denied|Operation not permitted) in (${SRC}\.php)(?: on line |:)(\d+)`), read: (m) => ({ tool: 'php', ...at(m[1], m[2]) }) },
  // Docker's refused pull: its own words leave two causes open ("repository does not exist or may require
  // 'docker login'": a registry answers a missing private image and a missing login alike), so the class is
  // a credential at medium confidence (the answers word it as likely), the registry the host.
  {
    cls: 'permission-credentials',
    priority: 49,
    confidence: 'medium',
    re: DOCKER_PULL_DENIED,
    read: (m) => ({ tool: 'docker', host: dockerRegistryOf(m[1] as string) }),
  },
  // MySQL's and MariaDB's refusal of a statement the user has no privilege for (`ERROR 1142 (42000) at line 2: INSERT
  // command denied to user 'report_ro'@'localhost' for table ...`, 1143's column, 1370's `execute command denied`):
  // the server's grammar `<what> command denied to user '<user>'@'<host>'` (test/fixtures/grammar mariadb-command-denied;
  // session 49).
  // `"<name>" is forbidden: `: the Kubernetes API server refusing the CI's identity (RBAC, a used-up
  // ResourceQuota, an admission policy), whichever client prints or raises it (kubectl, the Kubernetes plugin's
  // KubernetesClientException); decided as permission-credentials (docs/notes/analyzer.md, "Decided labels").
  {
    cls: 'permission-credentials',
    priority: 50,
    confidence: 'high',
    re: /(?:Permission denied|(?<![\w./-])EACCES(?![\w/-])|Operation not permitted|(?<![\w./-])EPERM(?![\w/-])|exit code 126\b|Authentication failed|401 Unauthorized|403 Forbidden|status code 40[13]\b|(?:returned error|HTTP error|HTTP\/[\d.]+|response code|status):? 40[13]\b|could not read Username|Invalid username or password|\bpassword was incorrect\b|Bad credentials|not authorized|unauthorized: |access denied|denied: requested access to the resource is denied|\bPermissionError\b|AccessDeniedException|attempt to write a readonly database|\b(?:command|privilege) denied to user '|"[^"\s]+" is forbidden: |Host key verification failed|Permissions 0\d{3} for '[^']+' are too open|Could not read from remote repository|sudo: a (?:terminal|password) is required|npm (?:ERR!|error) code E40[13]\b)/i,
    read: (_m, line) => {
      const host = hostOf(line);
      return host ? { host } : {};
    },
  },
  // ---- Missing tool or wrong version.
  {
    cls: 'missing-tool',
    priority: 55,
    confidence: 'high',
    re: /(?:^(?:[\w/.-]+: )?(?:line \d+: |\d+: )?([\w.+-]+): (?:command )?not found$|([\w.+-]+): command not found|'([\w.+-]+)' is not recognized as an internal or external command|The term '([\w.+-]+)' is not recognized as the name of a cmdlet|exec: "([\w.+-]+)": executable file not found in \$PATH|exit code 127\b|Cannot run program "([^"]+)"|error while loading shared libraries: ([^:]+): cannot open shared object file|Tool type "\w+" does not have an install of "([^"]+)"|No such DSL method '([^']+)')/,
    read: (m) => {
      const symbol = m.slice(1).find((g) => g !== undefined);
      return { tool: 'sh', ...(symbol ? { symbol } : {}) };
    },
  },
  // tox cannot find the Python an environment asks for (`ERROR: InterpreterNotFound: python3.14`).
  { cls: 'missing-tool', priority: 54, confidence: 'high', re: /^ERROR: +(?:\w+: )?InterpreterNotFound: (\S+)/, read: (m) => ({ tool: 'tox', symbol: m[1] as string }) },
  // Bundler: the Ruby on the agent is not the one the Gemfile asks for.
  { cls: 'missing-tool', priority: 54, confidence: 'high', re: /^Your Ruby version is (\S+), but your Gemfile specified (.+)$/, read: () => ({ tool: 'bundler', symbol: 'ruby' }) },
  // rake asked for a task the Rakefile does not define: the CI script and the Rakefile disagree.
  { cls: 'ci-script', priority: 14, confidence: 'high', re: /^Don't know how to build task '([^']+)'/, read: (m) => ({ tool: 'rake', symbol: m[1] as string }) },
  // Ubuntu's command-not-found: `The program 'swift' is currently not installed.`
  { cls: 'missing-tool', priority: 55, confidence: 'high', re: /The program '([\w.+-]+)' is currently not installed/, read: (m) => ({ tool: 'sh', symbol: m[1] as string }) },
  // The shell could not find a script the CI runs by path (`line 78: test/run.sh: No such file or directory`): the CI script names a file the checkout lacks.
  { cls: 'ci-script', priority: 15, confidence: 'medium', re: /^(?:\S+: )?line \d+: (\.{0,2}\/?[\w.-]+\/[\w./-]+|\.\/[\w.-]+): No such file or directory$/, read: (m) => ({ tool: 'sh', symbol: m[1] as string }) },
  // make could not start a recipe's program: `make: protoc: No such file or directory` (a bare name, not a path).
  { cls: 'missing-tool', priority: 55, confidence: 'high', re: /^g?make(?:\[\d+\])?: ([\w.+-]+): (?:No such file or directory|Command not found)$/, read: (m) => ({ tool: 'make', symbol: m[1] as string }) },
  {
    cls: 'missing-tool',
    priority: 56,
    confidence: 'high',
    re: /(?:Detected (?:JDK|Maven Version:?) .* is (?:version )?\S+ which is not in the allowed range|invalid (?:target|source) release: (\S+)|release version (\S+) not supported|Unsupported class file major version (\d+)|has been compiled by a more recent version of the Java Runtime|requires Python '([^']+)'|The engine "(\w+)" is incompatible with this module|Unsupported engine|go: go\.mod requires go >= (\S+)|requires rustc (\S+) or newer|error: package `[^`]+` cannot be built because it requires rustc|requires at least CMake version|CMake (\S+) or higher is required)/,
    read: (m) => ({ ...(/Java|release|class file/.test(m[0]) ? { tool: 'java' } : /Python/.test(m[0]) ? { tool: 'python' } : /engine/i.test(m[0]) ? { tool: 'node' } : /go\.mod/.test(m[0]) ? { tool: 'go' } : /rustc/.test(m[0]) ? { tool: 'cargo' } : { tool: 'cmake' }) }),
  },
];

/** Lines that only frame or conclude a failure: never the message when the window has another. */
export const SUMMARY_LINE =
  /(?:^\[ERROR\] (?:COMPILATION ERROR :?|Failed to execute goal|BUILD FAILURE|Tests run:|Failures:\s*$|Errors:\s*$|\s*$|-> \[Help|To see the full stack|Re-run Maven|For more information about the errors|\[Help \d\])|^\[INFO\] BUILD FAILURE|BUILD FAILED|^FAILURE: Build failed with an exception|^\* What went wrong:|Execution failed for task|Compilation failed; see the compiler error output|^make(?:\[\d+\])?: \*\*\*|^npm (?:ERR!|error)\s*$|^npm (?:ERR!|error) (?:code ELIFECYCLE|errno|\s*$|Lifecycle|A complete log|Test failed|command failed|Exit status)|^error: could not compile|^error: test failed|^error: aborting due to|^ERROR: script returned exit code|Build step '.+' marked build as failure|^Finished: (?:FAILURE|UNSTABLE|ABORTED)|^##\[error\]Process completed with exit code|The command ".+" exited with \d+|^FAIL\s*$|^FAIL\s+\S+\s+[\d.]+s$|^FAIL\s+\S+ \[build failed\]|^\d+ errors?$|^Found \d+ errors?|^ERROR: (?:Job failed|Build failed)|^Error: Process completed with exit code|^collect2: error: ld returned|exited with (?:code|status) \d+|^=+ .*\b(?:failed|error)\b.* in [\d.]+s =+$|^Tests?:\s+\d+ failed|^Test Suites:|^\s*\d+ failing$|^There (?:was|were) \d+ failures?:?|^There are test failures|^Process finished with exit code|^Stage ".+" skipped due to earlier failure|^Failed in branch \S)/;
