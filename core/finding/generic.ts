/**
 * Generic evidence for tools no rule of rules.ts knows (issue 25, round 3): the command that
 * failed says what kind of tool ran (a compiler, a linter, a test runner, an interpreter running
 * a script), and the places tools print in a handful of common forms (`file:line:col: msg`,
 * `file(line,col): msg`, `msg in file on line N`, `msg at file line N.`, a bare `file:line:col:`
 * over or under its message, ` --> file:line:col`) say where. A class is given only when the
 * line and the command together settle it; otherwise the finding stays `unknown`, with the place.
 */
import type { Finding, FindingClass, LogExcerpt } from '../../protocol/types.js';
import { lineBody, messageText } from './body.js';
import { SUMMARY_LINE } from './rules.js';
import { CHECKED, OS_ERROR } from './errno.js';
import { tclLoaded } from './uncaught.js';
import { goCompilerSaid } from './goLinters.js';

export type CommandKind = 'compile' | 'typecheck' | 'lint' | 'test' | 'run' | 'build';

export interface Command {
  /** The command line as the log echoed it (without `+ `). */
  text: string;
  /** The program's name (no path). */
  program: string;
  kind?: CommandKind;
}

/**
 * The start of a command the CI echoed: `+ cmd` (sh -x; `++ cmd` in a substitution), `$ cmd` (Travis, Jenkins
 * freestyle), GitHub's `##[group]Run cmd`, a prefixed `[name] $ cmd`. The one test of "a step's command starts here"
 * for the finding's readers (evidence.ts, refine*.ts, index.ts); a diff's `+++ file` header matches too, and each
 * reader that walks up to a command skips it under its `--- file`.
 */
export const STEP_START = /^(?:\++ |\$ |##\[group\]Run |\[[^\]]+\] \$ )/;
/** A command the CI echoed (STEP_START), and its text. */
export const COMMAND_LINE = new RegExp(`${STEP_START.source}(.+)$`);

const COMPILERS = new Set(
  'gcc g++ cc c++ clang clang++ javac scalac kotlinc ghc ocamlc ocamlopt ocamlfind erlc elixirc gfortran f77 f90 f95 flang ifort ifx rustc tsc esbuild swiftc luac nvcc fpc dmd ldc2 gdc nim zig crystal valac groovyc csc mcs webpack rollup parcel babel sass lessc ant javadoc cython hugo jekyll zola hexo eleventy mkdocs sphinx-build'.split(' '),
);
const LINTERS = new Set(
  'eslint pylint flake8 ruff black isort prettier rubocop standardrb shellcheck hadolint yamllint stylelint golint golangci-lint staticcheck clang-tidy cppcheck cpplint phpcs phpstan psalm perlcritic luacheck ktlint detekt markdownlint codespell tflint actionlint gofmt rustfmt swiftlint credo elvis xmllint jsonlint pycodestyle pydocstyle pyflakes bandit vulture biome oxlint erb_lint haml-lint slim-lint scalafmt scalastyle checkstyle pmd spotbugs clang-format autopep8 yapf'.split(' '),
);
const TYPECHECKERS = new Set('mypy pyright pytype flow dialyzer'.split(' '));
const TEST_RUNNERS = new Set(
  'pytest py.test tox nox jest vitest mocha ava tap karma jasmine rspec phpunit pest prove bats ctest busted trial nosetests nose2 testthat cucumber behave'.split(' '),
);
const INTERPRETERS = new Set('python python2 python3 ruby node nodejs perl lua luajit php groovy Rscript tclsh deno bun java awk gawk jq'.split(' '));
const BUILD_DRIVERS = new Set('make gmake ninja cmake meson mvn mvnw gradle gradlew sbt bazel bazelisk scons rake xcodebuild msbuild dune stack cabal mix rebar3 lein bundle'.split(' '));

/** `go test`, `cargo clippy`, `python -m pytest`: tools reached through a driver's subcommand. */
function subcommandKind(program: string, args: string[]): { kind: CommandKind; program: string } | undefined {
  const sub = args[0] ?? '';
  if (program === 'go') return sub === 'test' ? { kind: 'test', program: 'go test' } : sub === 'vet' ? { kind: 'lint', program: 'go vet' } : sub === 'run' ? { kind: 'run', program: 'go' } : /^(?:build|install)$/.test(sub) ? { kind: 'compile', program: 'go' } : undefined;
  if (program === 'cargo') return /^(?:test|nextest)$/.test(sub) ? { kind: 'test', program: 'cargo test' } : /^(?:clippy|fmt)$/.test(sub) ? { kind: 'lint', program: `cargo ${sub}` } : sub === 'run' ? { kind: 'run', program: 'cargo' } : /^(?:build|check|rustc|doc)$/.test(sub) ? { kind: 'compile', program: 'cargo' } : undefined;
  if (/^python[\d.]*$/.test(program) && sub === '-m') return kindOfProgram(args[1] ?? '', args.slice(2));
  if (/^python[\d.]*$/.test(program) && /^-c$/.test(sub)) return { kind: 'run', program };
  if (/^(?:npm|yarn|pnpm)$/.test(program)) return /^test$|^run$/.test(sub) && (sub === 'test' || /test|spec/.test(args[1] ?? '')) ? { kind: 'test', program } : sub === 'run' && /lint|format|prettier|style/.test(args[1] ?? '') ? { kind: 'lint', program } : sub === 'run' && /build|compile|tsc|bundle/.test(args[1] ?? '') ? { kind: 'compile', program } : undefined;
  if (/^(?:npx|bunx|pnpx|bundle|poetry|pipenv|uv|hatch|pdm)$/.test(program)) {
    const rest = args[0] === 'exec' || args[0] === 'run' ? args.slice(1) : args;
    return rest[0] ? kindOfProgram(rest[0], rest.slice(1)) : undefined;
  }
  if (/^(?:mvn|mvnw|gradle|gradlew|sbt)$/.test(program)) return args.some((a) => /^(?:test|verify|check|integrationTest)$/.test(a)) ? { kind: 'test', program } : undefined;
  if (/^(?:make|gmake)$/.test(program)) return args.some((a) => /^(?:check|test|tests)$/.test(a)) ? { kind: 'test', program } : undefined;
  if (/^(?:rake|rails|mix|dune|stack|cabal|dotnet|swift|rebar3)$/.test(program)) return args.some((a) => /^(?:test|spec|eunit|ct|runtest)$/.test(a)) ? { kind: 'test', program: `${program} ${sub}` } : /^(?:build|compile)$/.test(sub) ? { kind: 'compile', program: `${program} ${sub}` } : undefined;
  if (program === 'node' && sub === '--test') return { kind: 'test', program: 'node --test' };
  if (program === 'node' && /^(?:--check|-c)$/.test(sub)) return { kind: 'compile', program: 'node' };
  // A syntax check (`perl -Ilib -wc lib/X.pm`, `ruby -w -c x.rb`, `php -l x.php`): the flag may follow others.
  if (/^(?:php|perl|ruby)$/.test(program) && args.some((a) => /^-[lc]$|^-wc$|^-cw$/.test(a))) return { kind: 'compile', program };
  if (/^(?:ba|z|k|da)?sh$/.test(program) && /^-\w*n/.test(sub)) return { kind: 'compile', program };
  return undefined;
}

function kindOfProgram(word: string, args: string[]): { kind: CommandKind; program: string } | undefined {
  const program = word.replace(/^.*\//, '');
  const sub = subcommandKind(program, args);
  if (sub) return sub;
  if (COMPILERS.has(program) || /^(?:gcc|g\+\+|clang|clang\+\+|gfortran)-\d+$/.test(program)) return { kind: 'compile', program };
  if (TYPECHECKERS.has(program)) return { kind: 'typecheck', program };
  if (LINTERS.has(program)) return { kind: 'lint', program };
  if (TEST_RUNNERS.has(program)) return { kind: 'test', program };
  // A known program under a version suffix (`pyflakes3`, `pylint-3`) or a framework's wrapper (`vue-tsc`): its kind, under its own name.
  const known = /^([a-z][\w+]*?)-?\d[\d.]*$/.exec(program)?.[1] ?? /^[\w.-]+-([a-z][\w+]*)$/.exec(program)?.[1];
  if (known && (COMPILERS.has(known) || TYPECHECKERS.has(known) || LINTERS.has(known) || TEST_RUNNERS.has(known))) return { ...(kindOfProgram(known, args) as { kind: CommandKind }), program };
  // A program named as a linter or formatter (`shfmt`, `clang-tidy`, `sqllint`, `dfmt`).
  // A validator of a file format (`desktop-file-validate`, `appstream-util validate`) checks like one.
  // One that writes an output file (`msgfmt -o x.mo`) compiles its input instead.
  if (/(?:lint|fmt|tidy)(?:er)?$|^[\w-]*lint[\w-]*$|(?:^|-)validat(?:e|or)$/.test(program) && !args.some((a) => /^(?:-o|--output(?:-file)?)(?:=|$)|^-o\S/.test(a))) return { kind: 'lint', program };
  // A test program run by path (`./build/test_ring`, `bin/run_tests`).
  if (/(?:^|\/)(?:tests?\/|test_|\w+_tests?$|run[-_]?tests?)|^(?:tests?|unit_?tests?|\w*Tests?|\w+-tests?)$/.test(word.replace(/^\.\//, '').replace(/^(?:\S*\/)?/, (d) => (/(?:^|\/)tests?\/$/.test(d) ? d : '')))) return { kind: 'test', program };
  if (BUILD_DRIVERS.has(program)) return { kind: 'build', program };
  // An interpreter running a script (not a one-line `-e`): the script's own errors are runtime errors.
  if (INTERPRETERS.has(program) || /^python[\d.]+$/.test(program)) return args.some((a) => /\.\w{1,6}$/.test(a) || !a.startsWith('-')) ? { kind: 'run', program } : undefined;
  return undefined;
}

/** Splits a shell command into words (quotes kept simple): enough to name the program. */
export function words(cmd: string): string[] {
  return (cmd.match(/"[^"]*"|'[^']*'|\S+/g) ?? []).map((w) => w.replace(/^(['"])(.*)\1$/, '$2'));
}

/** What a command line runs: the program past env assignments and wrappers (`timeout 10`, `sudo`, `time`). */
export function commandOf(text: string): Command {
  let ws = words(text.trim());
  for (;;) {
    const w = ws[0] ?? '';
    if (/^\w+=/.test(w) || /^(?:sudo|time|env|exec|nice|nohup|stdbuf|xvfb-run|command|builtin)$/.test(w)) ws = ws.slice(1);
    else if (/^(?:timeout|gtimeout)$/.test(w)) ws = ws.slice(ws[1]?.startsWith('-') ? 3 : 2);
    else if (/^-/.test(w) && ws.length > 1) ws = ws.slice(1);
    else break;
  }
  const first = ws[0] ?? '';
  const found = kindOfProgram(first, ws.slice(1));
  return { text: text.trim(), program: found?.program ?? first.replace(/^.*\//, ''), ...(found ? { kind: found.kind } : {}) };
}

/** The last command echoed in `lines` (searched from the end), or undefined. */
export function lastCommandIn(lines: readonly string[]): Command | undefined {
  for (let i = lines.length - 1; i >= 0; i--) {
    const m = COMMAND_LINE.exec((lines[i] ?? '').trim());
    // A unified diff's `+++ file` under its `--- file` is not a nested `++ cmd` trace.
    if (m && /^\+\+\+ /.test((lines[i] ?? '').trim()) && /^--- /.test((lines[i - 1] ?? '').trim())) continue;
    // `+ cmd` lines of a `bash -x` trace inside `for` loops repeat the loop header first: keep looking past it.
    if (m && !/^(?:for|while|if|until|case|\[\[?|test|echo|printf|set|export|cd|local|declare|shift|true|:)\b/.test(m[1] as string)) return commandOf(m[1] as string);
  }
  return undefined;
}

export interface Located {
  file: string;
  line: number;
  column?: number;
  /** The text after the place (may be empty for a bare place). */
  message: string;
  /** The program that prefixed the place (`luac: x.lua:7: ...`). */
  program?: string;
  /** The severity word the tool put after the place, lower case (`error`, `warning`, `note`). */
  level?: string;
  /** A form only a runtime prints (Perl's `die ... at f line N.`, PHP's `... in f on line N`). */
  runtime?: true;
}

/** A path with an extension (the file of a place), never a URL's host or a time of day. */
const PATH = String.raw`((?:[A-Za-z]:)?[\w.~@+\\/-]*\.[A-Za-z][\w+]{0,7})`;
const PLACE_COLON = new RegExp(String.raw`^(?:([\w.+-]+): )?${PATH}:(\d+)(?::(\d+))?(?:[:,]|\s+-)?(?:\s+(.*))?$`);
const PLACE_PAREN = new RegExp(String.raw`^${PATH}\((\d+)(?:, ?(\d+))?\)\s*:?\s*(.*)$`);
const PLACE_PHP = new RegExp(String.raw`^(.*?) in ${PATH}(?: on line |:)(\d+)\.?$`);
const PLACE_PERL = new RegExp(String.raw`^(.*?)\bat ${PATH} line (\d+)(?:, <[^>]*> (?:line|chunk) \d+)?(?:\.|, near .*)$`);
/** webpack: `ERROR in ./src/index.js 3:0-32` over its message. */
const PLACE_WEBPACK = new RegExp(String.raw`^ERROR in ${PATH} (\d+):(\d+)(?:-\d+)?\s*$`);
const PLACE_QUOTED = new RegExp(String.raw`^(.*?)"${PATH}:(\d+)(?::(\d+))?":\s+(\S.*)$`);
const PLACE_ARROW = new RegExp(String.raw`^\s*--> ${PATH}:(\d+)(?::(\d+))?\s*$`);
const PLACE_BATS = new RegExp(String.raw`\(in (?:test )?file ${PATH}, line (\d+)\)`);
const PLACE_TCL = new RegExp(String.raw`\(file "${PATH}" line (\d+)\)`);
/** gfortran's runtime place (`At line 10 of file src/heat.f90`), Terraform's and HCL's (`on main.tf line 12, in resource ...:`), Sass's (`on line 236 of scss/_x.scss`). */
const PLACE_OF_FILE = new RegExp(String.raw`^(?:At line (\d+) of file ${PATH}|on ${PATH} line (\d+)(?:, in .*)?:?|on line (\d+)(?::\d+)? of ${PATH}(?:, in .*)?)\s*$`);
const LEVEL = /^(?:(fatal error|error|warning|note|info|hint|remark|runtime error|Error|ERROR|Warning|WARNING|Note|FATAL|Fatal)(?:\[[\w-]+\])?:|[EWCRF]\d{2,4}:|\[(?:ERROR|error|E)\])\s*/;
/** Python's warnings module: `x.py:108: FutureWarning: message` (a category of the warnings module's). */
const PY_WARNING = /^(?:[\w]+\.)*\w*Warning: /;
/** The source line of the `warnings.warn(...)` call Python prints under its warning, whatever the category (`_BetaConfiguration`). */
const PY_WARN_CALL = /^\s+(?:warnings\.)?warn(?:_explicit)?\(/;
/**
 * Lines that name a place but are not diagnostics: stack frames (a Go goroutine dump's `\t/usr/lib/go/src/sync/mutex.go:229
 * +0x3c`: the trace's reader takes its project's frame), URLs, timestamps, sizes.
 */
const NOT_A_PLACE = /^\s*(?:at |from |#\d+ |File "|in |Caused by)|^\w+:\/\/|^\d{1,2}:\d\d(?::\d\d)?\b|^\s*\S+\.go:\d+ \+0x[0-9a-f]+\b/;
/** Installed packages and runtimes: a place there is not the project's. */
const LIBRARY_PATH = /(?:^|\/)(?:vendor|node_modules|site-packages|dist-packages|gems|\.cargo|pkg\/mod)\//;
const EXT_NOT_SOURCE = /\.(?:log|txt|html?|png|jpe?g|gif|svg|zip|gz|tgz|jar|whl|so|dll|dylib|o|a|exe|bin|lock|sum|pid|sock|com|org|net|io|dev|local|internal)$/i;

/** The place a line names in one of the common forms, with the message beside it. */
/** Every form below holds one of these: a cheap test before the patterns (most lines name no place). */
const MIGHT_NAME_A_PLACE = /:\d|\(\d|line \d|--> /;

export function locatedIn(raw: string): Located | undefined {
  if (raw.length > 600 || !MIGHT_NAME_A_PLACE.test(raw)) return undefined;
  const text = raw.replace(/^│\s+/, '').replace(/^\s*\[(?:javac|java|scalac|groovyc|kotlinc|exec|apply|junit|junitlauncher|testng|echo|jar|war|csc)\]\s+/, '').trimEnd();
  // Test::More's `#   at t/x.t line 10.` (the `#` already cut) names the failed check's place.
  let m = /^\s*at (\S+\.\w+) line (\d+)\.$/.exec(text);
  if (m) return { file: m[1] as string, line: Number(m[2]), message: '' };
  if (text === '' || NOT_A_PLACE.test(text)) return undefined;
  m = PLACE_ARROW.exec(text);
  if (m) return { file: m[1] as string, line: Number(m[2]), ...(m[3] ? { column: Number(m[3]) } : {}), message: '' };
  m = PLACE_BATS.exec(text) ?? PLACE_TCL.exec(text);
  if (m) return { file: m[1] as string, line: Number(m[2]), message: '' };
  m = PLACE_WEBPACK.exec(text.trim());
  if (m) return { file: m[1] as string, line: Number(m[2]), column: Number(m[3]), message: '' };
  m = PLACE_OF_FILE.exec(text.trim());
  if (m) return { file: (m[2] ?? m[3] ?? m[6]) as string, line: Number(m[1] ?? m[4] ?? m[5]), message: '' };
  const trimmed = text.trim();
  m = PLACE_COLON.exec(trimmed);
  if (m && !EXT_NOT_SOURCE.test(m[2] as string) && (m[1] === undefined || !/^(?:https?|file|ftp|ssh|git)$/.test(m[1]))) {
    const rest = m[5] ?? '';
    const level = LEVEL.exec(rest) ?? (PY_WARNING.test(rest) && /\.py$/.test(m[2] as string) ? ['', 'warning'] : null);
    return {
      file: m[2] as string,
      line: Number(m[3]),
      ...(m[4] ? { column: Number(m[4]) } : {}),
      message: rest,
      ...(m[1] ? { program: m[1] } : {}),
      ...(level ? { level: (level[1] ?? (level[0].startsWith('[') ? 'error' : /^[EF]/.test(level[0]) ? 'error' : 'warning')).toLowerCase() } : {}),
    };
  }
  m = PLACE_PAREN.exec(trimmed);
  if (m && !EXT_NOT_SOURCE.test(m[1] as string)) {
    const rest = m[4] ?? '';
    const level = /^(fatal error|error|warning)\b/i.exec(rest);
    return { file: m[1] as string, line: Number(m[2]), ...(m[3] ? { column: Number(m[3]) } : {}), message: rest, ...(level ? { level: (level[1] as string).toLowerCase() } : {}) };
  }
  // A place quoted inside a chain of causes (Go tools: `Error: loading templates: "/ws/layouts/index.html:5:1": parse failed: ...`).
  m = PLACE_QUOTED.exec(trimmed);
  if (m && !/\.(?:log|png|jpe?g|gif|zip|gz|tgz|jar|whl|so|dll|dylib|o|a|exe|bin)$/i.test(m[2] as string)) return { file: m[2] as string, line: Number(m[3]), ...(m[4] ? { column: Number(m[4]) } : {}), message: m[5] as string, ...(/^(?:Error|ERROR|error)\b/.test(m[1] as string) ? { level: 'error' } : {}) };
  m = PLACE_PHP.exec(trimmed) ?? PLACE_PERL.exec(trimmed);
  if (m && !EXT_NOT_SOURCE.test(m[2] as string) && (m[1] ?? '').trim() !== '') return { file: m[2] as string, line: Number(m[3]), message: (m[1] as string).trim(), runtime: true };
  return undefined;
}

const SYNTAX = /\b(?:syntax error|parse error|[Pp]arseError|unexpected (?:token|symbol|character|identifier|end of (?:file|input)|EOF|indent|keyword|string|'[^']*'|"[^"]*")|unterminated|expected [`'"][^`'"]+[`'"] (?:near|before|after|at)|[`'"][^`'"]+[`'"] expected|Expected (?:a |an )?[\w ]+ in|mismatched (?:input|parenthes))/;
/** A compiler's words for a name or type it cannot accept. */
const COMPILE_WORDING = /\b(?:undeclared|not declared|no declaration|is not defined|not defined|[Uu]ndefined (?:reference|symbol|identifier|name|type|variable|word)|unknown (?:type|identifier|symbol)|expected type|type mismatch|incompatible types?|cannot find symbol|does not exist in the current context)\b|^\s*Expected [`'"][^`'"]{1,12}[`'"]\.?$/;
/** The command names the file: itself, its path from another directory, or a directory holding it. */
export function namesFile(command: string, file: string): boolean {
  const base = file.replace(/^.*[\\/]/, '');
  // A directory the command names holds the file: its relative path starts there, or the tool printed the file's absolute
  // path through it (`coffee -c -o lib src` over `/ws/x/src/shipping.coffee:12:1: error: ...`).
  const under = (dir: string): boolean => file.startsWith(`${dir}/`) || (file.startsWith('/') && !dir.startsWith('.') && file.includes(`/${dir}/`));
  return words(command).some((w) => w.replace(/^.*[\\/]/, '') === base || (w.length > 1 && /\/$|^[\w.-]+(?:\/[\w.-]+)*$/.test(w) && under(w.replace(/\/$/, ''))));
}
const RUNTIME = /\bruntime error\b|\bdivi(?:sion|de) by zero\b|\battempt to (?:index|call|perform|compare|concatenate)\b|\bstack overflow\b/;
export const FAILED_CHECK = /\b(?:failed|Failed|FAILED|Failure|failure|expected|Expected|got|assert)/;
/** Source files of programming languages (a place in one, from a compiler, is a diagnostic of code). */
export const SOURCE_EXT = /\.(?:c|h|cc|cpp|cxx|hpp|hh|m|mm|f|f77|f90|f95|f03|f08|for|java|kt|kts|scala|groovy|go|rs|swift|ts|tsx|mts|cts|js|jsx|mjs|cjs|py|pyi|rb|php|pl|pm|t|lua|erl|hrl|ex|exs|hs|lhs|ml|mli|cs|fs|vb|d|nim|zig|cr|vala|dart|jl|r|R|tcl|sh|bash|zsh|ps1|awk|sql|proto|cu|v|sv|vhd|vhdl|adb|ads|asm|nasm|S|pas|pp|elm|purs|clj|cljs|cljc|lisp|el|scm|rkt|sol|vue|svelte|css|scss|less|sass)$/;

export interface Generic {
  cls: FindingClass;
  confidence: 'medium' | 'low';
  /** Index into the body of the line that carries the message. */
  index: number;
  place?: Located & { index: number };
  tool?: string;
}

/**
 * The generic finding of a window no rule settled: the first place-naming diagnostic (or the
 * error-like line next to a bare place) and the class the line and the command settle.
 */
export function genericFinding(body: readonly string[], commandOfWindow: () => Command | undefined, errorLine: number, above: readonly string[] = []): Generic | undefined {
  const lineAt = (i: number): string => (i >= 0 ? (body[i] ?? '') : (above[above.length + i] ?? ''));
  let best: (Located & { index: number }) | undefined;
  for (let i = 0; i < body.length; i++) {
    const loc = locatedIn(body[i] ?? '');
    if (!loc || loc.level === 'warning' || loc.level === 'note' || loc.level === 'info' || loc.level === 'hint' || loc.level === 'remark') continue;
    if (loc.message === '') continue;
    // A warning of Python's warnings module is no error, whatever its category's name (ux7: setuptools' `_BetaConfiguration`).
    if (PY_WARN_CALL.test(body[i + 1] ?? '')) continue;
    best = { ...loc, index: i };
    break;
  }
  let index = best?.index;
  // A bare place over or under the error line (esbuild's indented `src/a.ts:1:28:`, gfortran's
  // `src/m.f90:10:53:` above its `Error:`, PHPUnit's `/ws/tests/XTest.php:20` under the assertion).
  if (!best && errorLine >= 0) {
    for (const d of [0, 1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 6]) {
      const loc = locatedIn(lineAt(errorLine + d));
      if (!loc || loc.message !== '' || LIBRARY_PATH.test(loc.file)) continue;
      best = { ...loc, index: errorLine + d };
      // A heading that is only a place (webpack's `ERROR in ./src/a.js 3:0-32`): its message is below; but the full
      // format's ` --> file:line:col` (rustc's, ruff's) is under its message (`S608 Possible SQL injection ...`, the
      // window may start at the arrow: `above`), over the source excerpt's `|` lines (round 19, t20).
      const head = errorLine + d - 1;
      const arrowHead = PLACE_ARROW.test(lineAt(errorLine + d)) && lineAt(head).trim() !== '' && !/^\s*(?:\d+\s*)?\|/.test(lineAt(head));
      index = arrowHead ? head : d === 0 && lineAt(errorLine + 1).trim() !== '' ? errorLine + 1 : errorLine;
      break;
    }
  }
  // ... or under the expected/actual diff PHPUnit (and others) print between the assertion and its place.
  if (!best && errorLine >= 0 && /^\s*--- Expected\s*$/.test(lineAt(errorLine + 1))) {
    let k = errorLine + 2;
    while (k < body.length && k < errorLine + 80 && /^(?:\+\+\+ Actual\s*|@@.*@@\s*|[-+ ].*|\s*)$/.test(lineAt(k)) && !locatedIn(lineAt(k))) k++;
    const loc = locatedIn(lineAt(k));
    if (loc && loc.message === '' && !LIBRARY_PATH.test(loc.file)) [best, index] = [{ ...loc, index: k }, errorLine];
  }
  if (!best || index === undefined) return undefined;
  // Tcl's error is the line over its trace (`can't read "x": no such variable` / `    while executing`); the command
  // under it may be the package loader's (uncaught.ts tclLoaded: a package or the interpreter itself not there).
  let tcl: ReturnType<typeof tclLoaded> = {};
  for (let k = best.index - 1; k >= best.index - 40; k--) {
    if (!/^\s+while executing$/.test(lineAt(k))) continue;
    if (lineAt(k - 1).trim() !== '') index = k - 1;
    tcl = tclLoaded(lineAt(k + 1));
    break;
  }
  const text = best.index === index ? best.message : lineAt(index).trim();
  const whole = `${best.program ?? ''} ${text}`;
  // Only a window that names a place needs the command (found lazily: it may be 120 lines up).
  const command = commandOfWindow();
  const kind = command?.kind;
  const tool = command?.program ?? best.program;
  const source = SOURCE_EXT.test(best.file);
  let cls: FindingClass = 'unknown';
  if (RUNTIME.test(whole) && kind !== 'compile') cls = 'runtime-exception';
  else if (SYNTAX.test(whole) && source) cls = 'compile-error';
  else if (kind === 'compile' || kind === 'typecheck') cls = source || best.level === 'error' || COMPILE_WORDING.test(whole) ? 'compile-error' : 'unknown';
  // A Go linter's line in the compiler's words (golangci-lint's `(typecheck)`): the package does not build (goLinters.ts).
  else if (kind === 'lint') cls = goCompilerSaid(command?.program, text) ? 'compile-error' : 'lint';
  // A failure that ends in an OS error's words and checked nothing (`load x failed: Too many open files`): an error the test met (errno.ts).
  else if (kind === 'test') cls = !FAILED_CHECK.test(whole) ? 'unknown' : OS_ERROR.test(text) && !CHECKED.test(text) ? 'test-error' : 'test-assertion';
  // A script's own error at its place: the interpreter prefixes it (`lua: x.lua:5: ...`), or the
  // place is the script the command ran, or a trace follows. A place the script reports about
  // other files (a checker's `src/x.py:12: missing header`) is its output, not its error; a bare
  // `exit status 1` says only that something it ran failed.
  else if (kind === 'run') {
    const base = (f: string): string => f.replace(/^.*[\\/]/, '');
    const own = best.runtime === true || (best.program !== undefined ? best.program === command?.program : words(command?.text ?? '').some((w) => base(w) === base(best.file)));
    const traced = /^\s*(?:stack traceback:|while executing|from \S+:\d+|at \S|\(procedure )/.test(lineAt(best.index + 1));
    cls = source && (own || traced) && !/^(?:exit status|exit code|exited with) \d+$/i.test(text.trim()) ? 'runtime-exception' : 'unknown';
    if (cls === 'runtime-exception' && (tcl.interpreter || tcl.unavailable)) cls = tcl.interpreter ? 'missing-tool' : 'dependency-resolution';
    // Perl compiles the whole script before it runs: `Execution of F aborted due to compilation errors.` below says
    // the error is the compiler's (`elseif should be elsif at F line 6.`), not the program's (session 52, lead).
    if (cls === 'runtime-exception' && best.runtime === true && [1, 2, 3, 4, 5, 6].some((d) => PERL_COMPILE_ABORT.test(lineAt(best.index + d)))) cls = 'compile-error';
  }
  else if (kind === 'build' && best.level === 'error' && source) cls = 'compile-error';
  // A tool no list knows that was given this source file and reports an error at a line of it,
  // or says a name or type there is undeclared or wrong: the file did not compile (nasm, ghdl, protoc, gnat).
  else if (kind === undefined && source && command !== undefined && best.level !== 'fatal error' && (best.level === 'error' || COMPILE_WORDING.test(whole)) && namesFile(command.text, best.file)) cls = 'compile-error';
  // A syntax error at a line of the very file the command was given, whatever its kind (a template, a config, a DSL:
  // `coffee -c -o lib src`, `stylus x.styl`): the tool rejected its input. Not under a linter, a test runner or a
  // command whose words say it checks style (`podchecker -T lint x.pod`: lint, purpose.ts).
  if (cls === 'unknown' && SYNTAX.test(whole) && kind !== 'lint' && kind !== 'test' && command !== undefined && !/\b(?:lint|fmt|format|style)\b/i.test(command.text) && namesFile(command.text, best.file)) cls = 'compile-error';
  return { cls, confidence: cls === 'unknown' ? 'low' : 'medium', index, place: best, ...(tool ? { tool } : {}) };
}

/** Perl's verdict after its compile-time errors (`perl F`, `perl -c F`). */
const PERL_COMPILE_ABORT = /(?:^Execution of \S+ aborted due to compilation errors\.|\S had compilation errors\.)$/;

const TAP_NOT_OK = /^not ok \d+(?: -)? (.+?)(?:\s+#\s.*)?$/;
/** A TAP diagnostic that a check did not hold: Test::More's `#   Failed test 'x'`, bats' ``#   `[ "$a" = b ]' failed``, got/expected. */
const TAP_FAILED_CHECK = /^#\s+(?:Failed test\b|`.*' failed\b|.*\bfailed$|\s*got: |\s*expected: )/;

/** busted's TAP diagnostic quoting the failure's own line. */
const TAP_FAILURE_MESSAGE = /^#\s*Failure message:\s*\S/;

export interface TapFailure {
  /** Index (into `all`) of the diagnostic that carries the message. */
  index: number;
  place?: { file: string; line: number; index: number };
  assertion: boolean;
}

/**
 * The diagnostics of a TAP verdict (`not ok N name`): Test::More prints them on stderr, which a
 * harness interleaves before the verdict (`prove`), bats after it. Only `#` lines of the same
 * test are read: up to the previous/next verdict.
 */
export function tapFailureAt(all: readonly string[], verdict: number): TapFailure | undefined {
  const name = TAP_NOT_OK.exec((all[verdict] ?? '').trim())?.[1];
  if (name === undefined) return undefined;
  const diag: number[] = [];
  for (let k = verdict + 1; k < Math.min(all.length, verdict + 15); k++) {
    const t = (all[k] ?? '').trim();
    if (!t.startsWith('#')) break;
    diag.push(k);
  }
  if (diag.length === 0) {
    // Before the verdict (a harness prints the test's stderr first): the block of `#` lines that
    // names this test (`#   Failed test 'name'`), else the nearest `Failed test` block, never
    // past another failing verdict.
    let named = -1;
    let nearest = -1;
    for (let k = verdict - 1; k >= Math.max(0, verdict - 40); k--) {
      const t = (all[k] ?? '').trim();
      if (/^not ok \d+/.test(t)) break;
      if (!t.startsWith('#')) continue;
      if (named < 0 && t.includes(`'${name}'`)) named = k;
      if (nearest < 0 && /^#\s+Failed test\b/.test(t)) nearest = k;
    }
    const k = named >= 0 ? named : nearest;
    if (k >= 0) {
      let s = k;
      while (s > 0 && (all[s - 1] ?? '').trim().startsWith('#')) s--;
      for (let j = s; j < all.length && (all[j] ?? '').trim().startsWith('#'); j++) diag.push(j);
    }
  }
  if (diag.length === 0) return undefined;
  // busted (`-o TAP`) heads its diagnostics with the test's own place (`# spec/x_spec.lua @ 5`), then quotes the
  // failure's line (`# Failure message: src/x.lua:6: attempt to ...`): that line is the message and names the place;
  // a check's expected value under it (`# Expected:`, as busted prints it without TAP) makes it an assertion.
  const told = diag.find((k) => TAP_FAILURE_MESSAGE.test((all[k] ?? '').trim()));
  const check = diag.find((k) => TAP_FAILED_CHECK.test((all[k] ?? '').trim())) ?? (told !== undefined && diag.some((k) => k > told && /^#\s*Expected:\s*$/.test((all[k] ?? '').trim())) ? told : undefined);
  let place: TapFailure['place'];
  for (const k of told === undefined ? diag : [told]) {
    const loc = locatedIn((all[k] ?? '').replace(/^\s*#\s*/, '').replace(/^Failure message:\s*/, ''));
    if (loc) {
      place = { file: loc.file, line: loc.line, index: k };
      break;
    }
  }
  const index = check ?? told ?? diag.find((k) => /\S/.test((all[k] ?? '').replace(/^\s*#/, ''))) ?? verdict;
  return { index, ...(place ? { place } : {}), assertion: check !== undefined };
}

/**
 * Go's race detector fails the test it caught (`testing.go:1319: race detected during execution
 * of test`) after printing its report higher up (`WARNING: DATA RACE` ... `==================`):
 * the report's 1-based first and last lines, when the window names such a failure.
 */
export function raceReportAbove(lines: readonly string[], body: readonly string[], firstLine: number): { start: number; end: number } | undefined {
  if (!body.some((l) => /race detected during execution of test/.test(l))) return undefined;
  for (let k = firstLine - 2; k >= Math.max(0, firstLine - 80); k--) {
    if (!/WARNING: DATA RACE\s*$/.test(lines[k] ?? '')) continue;
    let end = k + 1;
    while (end < Math.min(lines.length, k + 80) && !/^(?:\S+ )?={10,}\s*$/.test(lines[end] ?? '')) end++;
    return { start: k + 1, end };
  }
  return undefined;
}

/**
 * A traced shell command that fails without printing anything: arithmetic whose value is 0
 * (`+ (( n++ ))`), a test or comparison (`+ test -s dist/app.js`, `+ [ -f x ]`, `+ grep -q v f`,
 * `+ cmp a b`, `+ git diff --exit-code`, `+ false`). Under `bash -e` the script stops there.
 */
export const SILENT_CHECK = /^\++ (\(\(.+\)\)|let .+|test .+|\[\[? .+ \]\]?|grep -\w*q\w* .+|cmp .+|diff -\w*q\w* .+|git diff (?:.* )?--(?:quiet|exit-code)\b.*|false|exit [1-9]\d*)$/;

/**
 * The finding of a check that printed nothing (0-based line `at`, `above` the line over it): the
 * CI script's own test, unless it tests what a linter or formatter printed into a command
 * substitution just above it (`++ gofmt -l .` over `+ test -z x.go`): then that tool's finding.
 */
export function silentCheck(above: string, at: number, command: string, verdictLine: number): Finding {
  const feeder = /^\+\+ (.+)$/.exec(above.trim());
  const fed = feeder ? commandOf(feeder[1] as string) : undefined;
  const lint = fed?.kind === 'lint';
  const tool = lint ? fed.program : /^(?:\(\(|let )/.test(command) ? 'bash' : 'sh';
  return { class: lint ? 'lint' : 'ci-script', message: command, message_line: at + 1, tool, confidence: 'medium', evidence: [at + 1, ...(feeder ? [at] : []), verdictLine] };
}

/**
 * A `bash -e` script that stopped on a traced assignment from a command substitution (0-based line
 * `at`): the substitution's command failed without printing anything. The step's verdict stays
 * the message (no line says more); the assignment and the commands of its substitution are the evidence.
 */
export function substitutionFailed(lines: readonly string[], at: number, excerpt: Pick<LogExcerpt, 'start_line' | 'end_line'>): Finding {
  const evidence: number[] = [];
  for (let k = at; k >= Math.max(0, at - 8) && (k === at || /^\+\+ \S/.test(lineBody(lines, k).trim())); k--) evidence.push(k + 1);
  const verdictAt = excerpt.end_line - 1;
  return { class: 'ci-script', message: messageText(lineBody(lines, verdictAt)), message_line: verdictAt + 1, tool: 'bash', confidence: 'medium', evidence: [verdictAt + 1, ...evidence.sort((a, b) => a - b)] };
}

/** Words of an error line (for quoting a failure no rule named). */
export const ERRORISH = /\b(?:error|errors|fatal|failed|failure|exception|cannot|could not|not found|denied|refused|invalid|missing|undefined|unable to)\b/i;

/** A shell's trace of a command (`set -x`: `+ cmd`, `++ cmd` in a substitution), as the line starts: indented, it is output. */
const XTRACE_LINE = /^\++ \S/;

/** The line of an unknown window most worth quoting: an error-looking line that does not only frame or conclude. */
export function mostErrorLike(body: readonly string[]): number {
  // Only the shell's trace (`+ mkdir`, `+ javac ...`, `+ timeout 20 java ...` over a step's exit): under `set -e` nothing
  // runs after a failing command, so the last one traced is the one that failed, whatever words an earlier one holds.
  const traced = body.flatMap((l, i) => (l.trim() === '' ? [] : [i]));
  if (traced.length > 0 && traced.every((i) => XTRACE_LINE.test(body[i] ?? ''))) return traced[traced.length - 1] as number;
  let summary: number | undefined;
  let first: number | undefined;
  let warning: number | undefined;
  for (let i = 0; i < body.length; i++) {
    const t = (body[i] ?? '').trim();
    if (t === '' || /^at\s/.test(t) || /^[-=*#_]{3,}\s*$/.test(t) || /^\[(?:INFO|DEBUG)\]/.test(t)) continue;
    // A warning is not the error, whatever words it holds (`WARNING: x not found, using y`).
    if (/^(?:\[?(?:WARNING|WARN|warning|warn)\]?[:\s]|npm (?:WARN|warn) |W: |\S+: warning: )/.test(t)) {
      warning ??= i;
      continue;
    }
    first ??= i;
    if (!ERRORISH.test(t)) continue;
    if (SUMMARY_LINE.test(t)) {
      summary ??= i;
      continue;
    }
    return i;
  }
  return summary ?? first ?? warning ?? 0;
}
