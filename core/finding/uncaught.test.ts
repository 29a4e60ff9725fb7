import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { analyze } from '../../test/helpers/rulesReading.js';
import { raisedIn } from './tests.js';
import { REALFAIL_ROOT, TUNED_CASES } from '../../test/helpers/realfail.js';
import type { Finding } from '../../protocol/types.js';

/**
 * Session 47 (helper gr1; docs/notes/analyzer.md "Session 47 (helper gr1)"): a runtime's own grammar for an error
 * nothing caught decides the class, the message and the place (uncaught.ts). Every log here is a runtime's real
 * output, made on this machine by test/fixtures/grammar/make.sh from the tiny programs of src/ (never written by hand).
 */
const DIR = path.join(process.cwd(), 'test', 'fixtures', 'grammar');
const top = (text: string): Finding | undefined => analyze(text)[0]?.finding;
const seen = (id: string): [string | undefined, string | undefined, string | null] => {
  const f = top(readFileSync(path.join(DIR, `${id}.log`), 'utf8'));
  return [f?.class, f?.message, f?.location ? `${f.location.file}:${f.location.line}` : null];
};

type Row = [id: string, cls: string, message: string, place: string | null];

/** What the runtimes' grammars added: each row was wrong (class, message or place) before uncaught.ts. */
const ADDED: Row[] = [
  ['elixir-exunit-error', 'test-error', "** (KeyError) key :amount not found in: %{value: 3}", 'ledger_test.exs:8'],
  ['elixir-raise', 'runtime-exception', "** (FunctionClauseError) no function clause matching in anonymous fn/2 in Report.total/1", 'report.exs:3'],
  ['erlang-erl-do-boot', 'runtime-exception', "{\"init terminating in do_boot\",{badarith,[{erlang,div,[0,0],[{error_info,#{module=>erl_erts_errors}}]},{stats,main,0,[{file,\"src/stats.erl\"},{line,6}]},{init,start_em,1,[]},{init,do_boot,3,[]}]}}", 'src/stats.erl:6'],
  ['erlang-crash-report', 'runtime-exception', 'exception error: bad argument', 'src/meter.erl:11'],
  ['erlang-process-crash', 'runtime-exception', "Error in process <0.79.0> with exit value: {badarith,[{erlang,'div',[10,0],[{error_info,#{module => erl_erts_errors}}]},", 'src/worker.erl:13'],
  ['erlang-escript-badmatch', 'runtime-exception', "escript: exception error: no match of right hand side value {error,enoent}", null],
  ['erlang-escript-case-clause', 'runtime-exception', "escript: exception error: no case clause matching skipped", 'summary.escript:13'],
  ['erlang-eunit-assert', 'test-assertion', '**error:{assertEqual,[{module,slug}, {line,8}, {expression,"make ( \\"Hello World\\" )"}, {expected,"hello-world"}, {value,"hello world"}]}', 'src/slug.erl:8'],
  ['erlang-eunit-error', 'test-error', "**error:{badkey,amount}", 'src/ledger.erl:5'],
  ['lua-error', 'runtime-exception', "lua5.4: deploy.lua:5: unknown target production", 'deploy.lua:5'],
  ['lua-run-syntax', 'compile-error', "lua5.4: main.lua:2: 'then' expected near '='", 'main.lua:2'],
  ['node-esm-syntax', 'compile-error', "SyntaxError: Unexpected token ';'", 'build.mjs:1'],
  ['node-syntax', 'compile-error', "SyntaxError: missing ) after argument list", '/tmp/ws/node-syntax/lib/slug.js:2'],
  ['ocaml-not-found', 'runtime-exception', "Fatal error: exception Not_found", 'deploy.ml:5'],
  ['phpunit-error', 'test-error', 'Attempt to read property "amount" on null', '/tmp/ws/phpunit-error/src/Cart.php:8'],
  ['r-parse', 'compile-error', "Error: unexpected ')' in: \"total <- function(x) {", null],
  ['r-stop', 'runtime-exception', "Error in mean_of(numeric(0)) : no samples to average", null],
  ['tcl-error', 'runtime-exception', "unknown target production", 'deploy.tcl:9'],
  ['tcl-no-var', 'runtime-exception', "can't read \"amount\": no such variable", 'report.tcl:9'],
];

/** The rest of the set: runtimes whose grammar the analyzer knew (and perl's `die "...\\n"`, whose words name no grammar: unknown). */
const AS_BEFORE: Row[] = [
  ['awk-div-zero', 'runtime-exception', "gawk: report.awk:2: fatal: division by zero attempted", 'report.awk:2'],
  ['bash-unbound', 'ci-script', "ci.sh: line 4: DEPLOY_ENV: unbound variable", 'ci.sh:4'],
  ['busted-assert', 'test-assertion', 'spec/slug_spec.lua:3: Expected objects to be equal.', 'spec/slug_spec.lua:3'],
  ['busted-error', 'test-error', "spec/slug_spec.lua:2: attempt to index a nil value (local 'title')", 'spec/slug_spec.lua:2'],
  ['c-asan', 'runtime-exception', "==26403==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602000000018 at pc 0x7f52b6a48061 bp 0x7ffd7fe9d440 sp 0x7ffd7fe9cbf0", 'src/buf.c:6'],
  ['c-assert', 'runtime-exception', "ring: src/ring.c:5: slot: Assertion `size > 0' failed.", 'src/ring.c:5'],
  ['c-compile', 'compile-error', "src/quota.c:3:12: error: ‘remainig’ undeclared (first use in this function); did you mean ‘remaining’?", 'src/quota.c:3'],
  ['c-segv', 'runtime-exception', "Segmentation fault", null],
  ['c-ubsan', 'runtime-exception', "src/shift.c:6:22: runtime error: shift exponent 32 is too large for 32-bit type 'int'", 'src/shift.c:6'],
  // Its message has the exception's `what()` line joined since session 49 (continued.ts).
  ['cxx-terminate', 'runtime-exception', "terminate called after throwing an instance of 'std::runtime_error' what(): unknown target production", null],
  ['elixir-compile-undefined', 'compile-error', "** (CompileError) lib/slug.ex:3: undefined function trim_dashes/1 (expected Slug to define such a function or for it to be imported, but none are available)", 'lib/slug.ex:3'],
  ['elixir-exunit-assert', 'test-assertion', "Assertion with == failed", 'slug_test.exs:7'],
  ['erlang-erlc-unbound', 'compile-error', "src/quota.erl:6:12: variable 'Remainig' is unbound", 'src/quota.erl:6'],
  ['erlang-escript-syntax', 'compile-error', "deploy.escript:4:5: syntax error before: lists", 'deploy.escript:4'],
  ['go-build', 'compile-error', "quota/quota.go:5:5: undefined: remainig", 'quota/quota.go:5'],
  ['go-deadlock', 'runtime-exception', "fatal error: all goroutines are asleep - deadlock!", '/tmp/ws/go-deadlock/main.go:7'],
  ['go-index', 'runtime-exception', "panic: runtime error: index out of range [2] with length 2", '/tmp/ws/go-index/main.go:10'],
  ['go-panic', 'runtime-exception', "panic: unknown target \"production\"", '/tmp/ws/go-panic/main.go:9'],
  ['go-test-panic', 'test-error', "panic: runtime error: invalid memory address or nil pointer dereference [recovered]", '/tmp/ws/go-test-panic/cache/cache_test.go:7'],
  ['java-javac', 'compile-error', "src/Report.java:3: error: cannot find symbol", 'src/Report.java:3'],
  ['java-uncaught', 'runtime-exception', "Exception in thread \"main\" java.lang.IllegalStateException: unknown target production", 'Main.java:7'],
  ['lua-nil-index', 'runtime-exception', "lua5.4: report.lua:4: attempt to index a nil value (field 'db')", 'report.lua:4'],
  ['lua-syntax', 'compile-error', "luac5.4: lib/slug.lua:6: 'end' expected (to close 'if' at line 4) near 'return'", 'lib/slug.lua:6'],
  ['node-json-parse', 'runtime-exception', "SyntaxError: Expected double-quoted property name in JSON at position 16", '/tmp/ws/node-json-parse/scripts/config.js:3'],
  ['node-rejection', 'runtime-exception', "Error: no such artifact: app.tgz", '/tmp/ws/node-rejection/fetch.mjs:2'],
  ['node-test-assert', 'test-assertion', "Expected values to be strictly equal:", '/tmp/ws/node-test-assert/test/slug.test.mjs:5'],
  ['node-test-error', 'test-error', "Cannot read properties of undefined (reading 'amount')", '/tmp/ws/node-test-error/test/cart.test.mjs:4'],
  ['node-throw', 'runtime-exception', "Error: manifest has no version", '/tmp/ws/node-throw/scripts/release.js:5'],
  ['node-typeerror', 'runtime-exception', "TypeError: Cannot read properties of undefined (reading 'toUpperCase')", '/tmp/ws/node-typeerror/report.mjs:2'],
  ['ocaml-compile', 'compile-error', "Error: This expression has type int but an expression was expected of type string", 'quota.ml:3'],
  ['ocaml-failwith', 'runtime-exception', "Fatal error: exception Failure(\"not a port: 80a\")", null],
  ['perl-die-line', 'runtime-exception', "Can't open config/hosts.ini: No such file or directory at bin/hosts.pl line 5.", 'bin/hosts.pl:5'],
  // `die "...\n"` prints its words alone: the one line the command printed is its message (msg1, session 50, scriptWords.ts).
  ['perl-die', 'unknown', 'KEEP_DAYS must be set', null],
  ['perl-no-method', 'runtime-exception', "Can't locate object method \"total\" via package \"Cart\" at bin/cart.pl line 10.", 'bin/cart.pl:10'],
  ['perl-prove-died', 'test-error', "Illegal division by zero at t/window.t line 5.", 't/window.t:5'],
  ['perl-prove-is', 'test-assertion', "#   Failed test 'joins words'", 't/slug.t:5'],
  ['perl-run-syntax', 'compile-error', "elseif should be elsif at bin/policy.pl line 6.", 'bin/policy.pl:6'],
  ['perl-syntax', 'compile-error', "elseif should be elsif at lib/Policy.pm line 8.", 'lib/Policy.pm:8'],
  ['php-lint', 'compile-error', "PHP Parse error:  syntax error, unexpected token \";\", expecting \"]\" in src/Repo.php on line 6", 'src/Repo.php:6'],
  ['php-run-parse', 'compile-error', "PHP Parse error:  syntax error, unexpected token \";\", expecting \"]\" in /tmp/ws/php-run-parse/src/repo.php on line 2", '/tmp/ws/php-run-parse/src/repo.php:2'],
  ['php-typeerror', 'runtime-exception', "PHP Fatal error:  Uncaught TypeError: total(): Argument #3 must be of type int, string given, called in /tmp/ws/php-typeerror/src/total.php on line 9 and defined in /tmp/ws/php-typeerror/src/total.php:4", '/tmp/ws/php-typeerror/src/total.php:4'],
  ['php-uncaught', 'runtime-exception', "PHP Fatal error:  Uncaught InvalidArgumentException: unknown currency USD in /tmp/ws/php-uncaught/src/rates.php:5", '/tmp/ws/php-uncaught/src/rates.php:5'],
  ['php-undefined-function', 'runtime-exception', "PHP Fatal error:  Uncaught Error: Call to undefined function format_rows() in /tmp/ws/php-undefined-function/src/report.php:3", '/tmp/ws/php-undefined-function/src/report.php:3'],
  ['python-raise', 'runtime-exception', "KeyError: 'manifest has no version'", '/tmp/ws/python-raise/tools/release.py:6'],
  ['python-run-syntax', 'compile-error', "SyntaxError: '(' was never closed", '/tmp/ws/python-run-syntax/tools/slug.py:2'],
  ['python-syntax', 'compile-error', "SyntaxError: '(' was never closed", 'tools/slug.py:2'],
  ['python-unittest-error', 'test-error', "KeyError: 'qty'", '/tmp/ws/python-unittest-error/test_cart.py:5'],
  ['ruby-minitest-assert', 'test-assertion', "Expected: \"hello-world\"", 'test/slug_test.rb:5'],
  ['ruby-minitest-error', 'test-error', "TypeError: nil can't be coerced into Integer", 'test/cart_test.rb:5'],
  ['ruby-nomethod', 'runtime-exception', "report.rb:2:in `block in summary': undefined method `upcase' for nil:NilClass (NoMethodError)", 'report.rb:2'],
  ['ruby-raise', 'runtime-exception', "/tmp/ws/ruby-raise/lib/manifest.rb:7:in `block in version': manifest has no version (ArgumentError)", '/tmp/ws/ruby-raise/lib/manifest.rb:7'],
  ['ruby-run-syntax', 'compile-error', "bin/rotate.rb:3: syntax error, unexpected `end', expecting ')'", 'bin/rotate.rb:3'],
  ['ruby-syntax', 'compile-error', "lib/rotate.rb:6: syntax error, unexpected end-of-input, expecting `end'", 'lib/rotate.rb:6'],
  ['rust-cargo-test', 'test-error', "called `Result::unwrap()` on an `Err` value: ParseIntError { kind: InvalidDigit }", 'src/lib.rs:2'],
  ['rust-compile', 'compile-error', "error[E0308]: mismatched types", 'src/main.rs:2'],
  ['rust-panic', 'runtime-exception', "unknown target production", 'src/main.rs:7'],
  ['rust-unwrap', 'runtime-exception', "called `Result::unwrap()` on an `Err` value: ParseIntError { kind: InvalidDigit }", 'src/main.rs:2'],
  ['tcl-tcltest', 'test-assertion', "==== slug-1.0 joins words FAILED", null],
];

/**
 * Session 48 (helper t23; docs/notes/analyzer.md "Session 48 (helper t23)"): what each runtime prints when a package the
 * code loads is not installed, when an allocation fails and when a library refuses the credentials, each made on this
 * machine by make.sh (the JVM's UnsatisfiedLinkError: lk1's test/fixtures/linkload, core/finding/linkage.test.ts). CHANGED: each row was another class before (its package
 * loader's report a runtime error, Tcl's allocator unknown, R's a runtime error,
 * an authentication exception a runtime error, git's `Out of diskspace` unknown, cp's directory without -r and git's pathspec of the script's argument unknown). SAME: what the analyzer already read right, and two left as they were
 * (Elixir's `module X is not available`, PHP's missing `vendor/autoload.php`: see the notes).
 */
const CHANGED: Row[] = [
  ['cp-omitting-directory', 'ci-script', "cp: -r not specified; omitting directory 'config/defaults'", null],
  ['git-pathspec-checkout', 'ci-script', "error: pathspec 'config/app.env' did not match any file(s) known to git", null],
  ['git-pathspec-add', 'ci-script', "fatal: pathspec 'config/app.env' did not match any files", null],
  ['git-bundle-disk-full', 'disk-full', "fatal: sha1 file '<stdout>' write error. Out of diskspace", null],
  ['tcl-package-missing', 'dependency-resolution', "can't find package csvkit 2.0", 'tools/report.tcl:1'],
  ['tcl-package-version', 'dependency-resolution', "can't find package tcltest 3.0", 'check.tcl:2'],
  ['r-library-missing', 'dependency-resolution', "Error in library(data.table) : there is no package called ‘data.table’", null],
  ['r-namespace-missing', 'dependency-resolution', "Error in loadNamespace(x) : there is no package called ‘data.table’", null],
  ['tcl-oom', 'out-of-memory', "unable to realloc 198000001 bytes", null],
  ['r-oom', 'out-of-memory', "Error: cannot allocate vector of size 305.2 Mb", null],
  ['python-smtp-auth', 'permission-credentials', "smtplib.SMTPAuthenticationError: (535, b'5.7.8 Authentication credentials invalid')", '/tmp/ws/python-smtp-auth/mailer/send_report.py:11'],
  ['ruby-smtp-auth', 'permission-credentials', "/usr/lib/ruby/gems/3.1.0/gems/net-smtp-0.3.1/lib/net/smtp.rb:1071:in `check_auth_response': 535 5.7.8 Authentication credentials invalid (Net::SMTPAuthenticationError)", 'bin/notify.rb:3'],
];

const SAME: Row[] = [
  ['lua-require-missing', 'dependency-resolution', "lua5.4: report.lua:1: module 'argparse' not found: no field package.preload['argparse']", 'report.lua:1'],
  ['ruby-require-missing', 'dependency-resolution', "<internal:/usr/lib/ruby/vendor_ruby/rubygems/core_ext/kernel_require.rb>:85:in `require': cannot load such file -- toml-rb (LoadError)", 'bin/release.rb:2'],
  ['node-require-missing', 'dependency-resolution', "Error: Cannot find module 'semver-utils'", '/tmp/ws/node-require-missing/scripts/notes.js:2'],
  ['node-import-missing', 'dependency-resolution', "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'marked' imported from /tmp/ws/node-import-missing/build.mjs", null],
  ['python-import-missing', 'dependency-resolution', "ModuleNotFoundError: No module named 'tabulate'", '/tmp/ws/python-import-missing/tools/render.py:3'],
  ['perl-use-missing', 'dependency-resolution', "Can't locate YAML/Tiny.pm in @INC (you may need to install the YAML::Tiny module) (@INC contains: /etc/perl /usr/local/lib/x86_64-linux-gnu/perl/5.36.0 /usr/local/share/perl/5.36.0 /usr/lib/x86_64-linux-gnu/perl5/5.36 /usr/share/perl5 /usr/lib/x86_64-linux-gnu/perl-base /usr/lib/x86_64-linux-gnu/perl/5.36 /usr/share/perl/5.36 /usr/local/lib/site_perl) at bin/notes.pl line 3.", 'bin/notes.pl:3'],
  ['elixir-module-missing', 'runtime-exception', "** (UndefinedFunctionError) function Jason.encode!/1 is undefined (module Jason is not available)", 'report.exs:2'],
  ['php-autoload-missing', 'runtime-exception', "PHP Fatal error:  Uncaught Error: Failed opening required '/tmp/ws/php-autoload-missing/bin/../vendor/autoload.php' (include_path='.:/usr/share/php') in /tmp/ws/php-autoload-missing/bin/report.php:2", '/tmp/ws/php-autoload-missing/bin/report.php:2'],
  ['lua-oom', 'out-of-memory', "lua5.4: not enough memory", null],
  ['perl-oom', 'out-of-memory', "Out of memory!", null],
  ['python-oom', 'out-of-memory', "MemoryError", '/tmp/ws/python-oom/grow.py:3'],
  ['ruby-oom', 'out-of-memory', "grow.rb: failed to allocate memory (NoMemoryError)", null],
  ['awk-oom', 'out-of-memory', "gawk: grow.awk:1: fatal: interpret.h:837:r_interpret: t1->stptr: cannot reallocate 198000001 bytes of memory: Cannot allocate memory", 'grow.awk:1'],
  ['php-oom', 'out-of-memory', "mmap() failed: [12] Cannot allocate memory", null],
];

/**
 * Session 49 (helper t24; docs/notes/analyzer.md "Session 49 (helper t24)"): a tool's or a runtime's own verdict on what
 * it was given, made on this machine by make.sh. Each CHANGED49 row was another class before (noted); each SAME49 row is
 * the counter-example that keeps its class.
 */
const CHANGED49: Row[] = [
  // compile-error before: tsc refused the `-p` path the script gave (missingArgument), no source compiled.
  ['tsc-project-missing', 'ci-script', "error TS5058: The specified path does not exist: 'tsconfig.build.json'.", null],
  // runtime-exception (high) before: unittest's discovery refused the `-s` directory the script gave.
  ['unittest-start-missing', 'ci-script', "ImportError: Start directory is not importable: 'tset'", null],
  // dependency-resolution (high) before: the package `Tcl` the script requires is the interpreter itself.
  ['tcl-interpreter-version', 'missing-tool', 'version conflict for package "Tcl": have 8.6.13, need 9.0', 'tools/rotate.tcl:1'],
  // compile-error (high) before: an -include_lib's application is not in the code path.
  // unknown before (its message `result.error = new ErrnoException(...)`): Node's `<ref *1>` mark of a self-referring error
  // hid the head, and `spawnSync` (execFileSync's) was not read as a spawn.
  ['node-spawnsync-enoent', 'missing-tool', '<ref *1> Error: spawnSync pngquant-missing ENOENT', '/tmp/ws/node-spawnsync-enoent/scripts/thumbs.mjs:4'],
  // unknown before: CMake's find_program() that found none of its names (a program), find_library()'s (a library).
  ['cmake-find-program', 'missing-tool', 'Could not find DOXYGEN_EXE using the following names: doxygen-missing, doxy-missing', 'CMakeLists.txt:4'],
  ['cmake-find-library', 'dependency-resolution', 'Could not find ZSTD_LIB using the following names: zstd-missing', 'CMakeLists.txt:4'],
  // unknown before: xargs stopped by a quote in the names the script piped to it; pytest older than the ini's minversion.
  ['xargs-unmatched-quote', 'ci-script', 'xargs: unmatched single quote; by default quotes are special to xargs unless you use the -0 option', null],
  ['pytest-minversion', 'missing-tool', "ERROR: /tmp/ws/pytest-minversion/pytest.ini: 'minversion' requires pytest-99.0, actual pytest-9.0.3'", null],
  // unknown before: pip's refusal of a local requirement that is no project, at the requirements line it names.
  ['pip-not-a-project', 'dependency-resolution', "ERROR: file:///tmp/ws/pip-not-a-project/vendor/units (from -r requirements.txt (line 1)) does not appear to be a Python project: neither 'setup.py' nor 'pyproject.toml' found.", 'requirements.txt:1'],
  // unknown before, its message `Traceback (most recent call last):`: ftplib's lower-case type after the frames, FTP's 530.
  ['python-ftp-login', 'permission-credentials', 'ftplib.error_perm: 530 Login incorrect.', '/tmp/ws/python-ftp-login/tools/publish.py:7'],
  // unknown before: npm refusing a dependency limited to another os (round 22's leftover).
  ['npm-ebadplatform', 'dependency-resolution', 'npm error notsup Unsupported platform for win-notify@0.3.1: wanted {"os":"win32"} (current: {"os":"linux"})', null],
  // unknown before: the database server refusing a statement the user has no privilege for (round 22's leftover).
  ['mariadb-command-denied', 'permission-credentials', "ERROR 1142 (42000) at line 2: INSERT command denied to user 'report_ro'@'localhost' for table `shop`.`report_runs`", null],
  // unknown before (`Java heap space` alone, `There was an error in the forked process`): surefire's forked JVM out of heap.
  ['maven-surefire-fork-heap', 'out-of-memory', 'Java heap space', null],
  // unknown before: pip in --require-hashes mode given a requirement without a hash. Its place since session 50 (loc3):
  // the requirements line pip's install above names for the one requirement listed without a hash.
  ['pip-require-hashes', 'dependency-resolution', 'ERROR: Hashes are required in --require-hashes mode, but they are missing from some requirements. Here is a list of those requirements along with the hashes their downloaded archives actually had. Add lines like these to your requirements files to prevent tampering. (If you did not enable --require-hashes manually, note that it turns on automatically when any package has a hash.)', 'requirements.txt:2'],
  ['erlang-include-lib-missing', 'dependency-resolution', 'src/gauge.erl:3:14: can\'t find include lib "metrics_hrl/include/gauge.hrl"', 'src/gauge.erl:3'],
];
const SAME49: Row[] = [
  // The path tsc could not read is tsconfig's `extends`, not the command's argument: the project's configuration.
  ['tsc-extends-missing', 'compile-error', "error TS5083: Cannot read file '/tmp/ws/tsc-extends-missing/tsconfig.base.json'.", null],
  // An asynchronous spawn's `Error: spawn x ENOENT` (an unhandled 'error' event): read so before.
  ['node-spawn-enoent', 'missing-tool', 'Error: spawn pngquant-missing ENOENT', null],
  // As before: the step's exit line, whose window does not reach errorInfo's message (the test below reads the grammar).
  ['tcl-error-note', 'runtime-exception', 'ERROR: script returned exit code 1', 'pauses.tcl:11'],
  // A plain -include of the project's own header: its file, a compile error.
  ['erlang-include-missing', 'compile-error', 'src/gauge.erl:3:10: can\'t find include file "gauge.hrl"', 'src/gauge.erl:3'],
];

/**
 * Session 50 (helper t25; docs/notes/analyzer.md "Session 50 (helper t25)"): a runtime's or a tool's own verdict names
 * the class, round 24's wrong ones by mechanism. Each CHANGED50 row was another class (noted); SAME50 keeps its own.
 */
const CHANGED50: Row[] = [
  // runtime-exception (high) before: OCaml's runtime raising its own Out_of_memory under `ulimit -v`.
  ['ocaml-out-of-memory', 'out-of-memory', 'Fatal error: exception Out_of_memory', null],
  // runtime-exception (high) before: PHP's max_execution_time, given by `-d` or by set_time_limit().
  ['php-time-limit', 'timeout-aborted', 'PHP Fatal error:  Maximum execution time of 2 seconds exceeded in /tmp/ws/php-time-limit/spin.php on line 6', '/tmp/ws/php-time-limit/spin.php:6'],
  ['php-time-limit-set', 'timeout-aborted', 'PHP Fatal error:  Maximum execution time of 2 seconds exceeded in /tmp/ws/php-time-limit-set/spin.php on line 5', '/tmp/ws/php-time-limit-set/spin.php:5'],
  // dependency-resolution (medium) / runtime-exception (high) before: a C extension of CPython's the interpreter lacks.
  ['python-stdlib-ext-missing', 'missing-tool', "ModuleNotFoundError: No module named '_gdbm'", '/tmp/ws/python-stdlib-ext-missing/store/cache.py:1'],
  ['python-stdlib-ext-missing-debian', 'missing-tool', "ImportError: No module named '_gdbm', please install the python3-gdbm package", '/tmp/ws/python-stdlib-ext-missing-debian/store/cache.py:1'],
  // runtime-exception (medium) before: a proxy's 407 is a refused credential, as 401/403.
  ['python-proxy-407', 'permission-credentials', 'urllib.error.HTTPError: HTTP Error 407: Proxy Authentication Required', '/tmp/ws/python-proxy-407/tools/rates.py:4'],
  // runtime-exception (medium) before: Ruby's net/protocol timing out on a server that never answered.
  ['ruby-read-timeout', 'network', "/usr/lib/ruby/3.1.0/net/protocol.rb:219:in `rbuf_fill': Net::ReadTimeout with #<Socket:(closed)> (Net::ReadTimeout)", 'script/health.rb:5'],
  // unknown before: find's and the java launcher's refusal of what the script's command line gave them.
  ['find-exec-unterminated', 'ci-script', "find: missing argument to `-exec'", null],
  ['java-jar-missing', 'ci-script', 'Error: Unable to access jarfile target/hello-1.4.0.jar', null],
  // unknown before (the message mix's `** (Mix) Can't continue ...` or the step's exit line): mix's own checks of a
  // path dependency's version and of the running Elixir against mix.exs.
  ['mix-dep-requirement', 'dependency-resolution', 'the dependency does not match the requirement "~> 0.3", got "0.2.1"', null],
  ['mix-elixir-requirement', 'missing-tool', "** (Mix) You're trying to run :ledger on Elixir v1.14.0 but it has declared in its mix.exs file it supports only Elixir ~> 1.16", null],
  // unknown before: npm's fetch timing out on a registry that never answers; `npm ls` finding an installed version package.json does not allow.
  ['npm-fetch-timeout', 'network', 'npm error network timeout at: http://127.0.0.1:47133/left-pad', null],
  ['npm-ls-invalid', 'dependency-resolution', 'npm error invalid: ms@2.1.2 /tmp/ws/npm-ls-invalid/node_modules/ms', null],
  // ci-script (medium) before (the `-U` value read as a path the command named): PostgreSQL refusing the login role.
  ['psql-role-missing', 'permission-credentials', 'psql: error: connection to server at "127.0.0.1", port 47135 failed: FATAL:  role "shop_migrator" does not exist', null],
];
const SAME50: Row[] = [
  // A package the environment lacks, not one of CPython's own C extensions: a missing dependency, as before.
  ['python-package-missing', 'dependency-resolution', "ModuleNotFoundError: No module named 'frozendict'", '/tmp/ws/python-package-missing/main.py:1'],
];

describe("a runtime's or a tool's own verdict names the class (session 50)", () => {
  it.each(CHANGED50)('%s', (id, cls, message, place) => {
    expect(seen(id)).toEqual([cls, message, place]);
  });
  it.each(SAME50)('%s (as before)', (id, cls, message, place) => {
    expect(seen(id)).toEqual([cls, message, place]);
  });
});

describe("a tool's own verdict on what it was given (session 49)", () => {
  it.each(CHANGED49)('%s', (id, cls, message, place) => {
    expect(seen(id)).toEqual([cls, message, place]);
  });
  it.each(SAME49)('%s (as before)', (id, cls, message, place) => {
    expect(seen(id)).toEqual([cls, message, place]);
  });
});

describe("Tcl's errorInfo under a command's own note (session 49)", () => {
  it("`expected integer but got \"250ms\"` over `    (reading increment)` and `    invoked from within` is the error raised, at the margin; the trace's command lines are not", () => {
    // Real output (tcl-error-note); its top excerpt in this Pipeline log is the step's exit line, whose window does not
    // reach the message: the grammar is read where a window holds errorInfo (round 23's tclsh-run-expected-integer-...).
    const lines = readFileSync(path.join(DIR, 'tcl-error-note.log'), 'utf8').split('\n');
    const from = lines.findIndex((l) => l.startsWith('+ tclsh'));
    const raised = raisedIn(lines.slice(from));
    expect([raised?.runtime, raised?.text]).toEqual(['tcl', 'expected integer but got "250ms"']);
    expect(raisedIn(lines.slice(from + 4))).toBeUndefined();
  });
});

describe("a runtime's grammar decides: real output of each runtime -> class, message, place", () => {
  it.each(ADDED)('%s', (id, cls, message, place) => {
    expect(seen(id)).toEqual([cls, message, place]);
  });
});

/** The logs of messages50.test.ts (session 50, helper msg1). */
const MESSAGES50 = /^(?:go-run-exit-status|npm-run-check-sentence|mix-elixir-version|grep-count-zero|timeout-last-line|bash-test-too-many-arguments|bash-check-echo-exit|bash-exit-after-output|gradle-javaexec-exit-value|gradle-offline-dynamic-version|gradle-junit-test-failed|pytest-deep-exception|pytest-chained-exception|maven-surefire-h2-table-missing)\.log$/;

/** The logs of recipeWords.test.ts (session 55, helper ux17): GNU tools' usage errors under make and bash. */
const RECIPE55 = /^(?:make-(?:cp|mv|install)-missing-dest|make-(?:ln|mkdir)-missing-operand|make-ln-invalid-option|make-script-own-words|make-sed-no-input-files|bash-(?:cp-missing-dest|mkdir-missing-operand))\.log$/;

describe('the runtimes the analyzer knew read as before (the grammar set, the rest)', () => {
  it.each(AS_BEFORE)('%s', (id, cls, message, place) => {
    expect(seen(id)).toEqual([cls, message, place]);
  });

  it('every log of the set has its row, and every row its log', () => {
    // node --test's child stderr (node-test-tap-*, node-test-spec-*) has its rows in childStderr.test.ts (nt1); EUnit's
    // frames (erlang-eunit-undef, -stdlib, -module, -assert-helper) theirs in eunitFrames.test.ts (loc2); Gradle's, Ant's and
    // ld's, PHPUnit's, busted's and Python's chained places (gradle-*-where, ant-java-oom-*, ld-relocation-truncated-*,
    // phpunit-*array-diff, busted-tap-*, python-chained-*) theirs in places50.test.ts (loc3, session 50); the messages of
    // messages50.test.ts (msg1, session 50) theirs there, and recipeWords.test.ts's (ux17, session 55) theirs there.
    const logs = readdirSync(DIR).filter((f) => f.endsWith('.log') && !/^node-test-(?:tap|spec)-|^erlang-eunit-(?:undef|stdlib|module|assert-helper)\.log$|^gradle-[\w-]+-where\.log$|^ant-java-oom-|^ld-relocation-truncated-|^phpunit-(?:testdox-)?array-diff\.log$|^busted-tap-|^python-chained-/.test(f) && !MESSAGES50.test(f) && !RECIPE55.test(f)).map((f) => f.replace(/\.log$/, '')).sort();
    expect([...ADDED, ...AS_BEFORE, ...CHANGED, ...SAME, ...CHANGED49, ...SAME49, ...CHANGED50, ...SAME50].map((r) => r[0]).sort()).toEqual(logs);
  });
});

describe("a loader's, an allocator's and a library's own report decides the class (session 48)", () => {
  it.each(CHANGED)('%s', (id, cls, message, place) => {
    expect(seen(id)).toEqual([cls, message, place]);
  });
  it.each(SAME)('%s (as before)', (id, cls, message, place) => {
    expect(seen(id)).toEqual([cls, message, place]);
  });

  it('the package a loader did not find is named as the dependency', () => {
    expect(top(readFileSync(path.join(DIR, 'tcl-package-missing.log'), 'utf8'))?.dependency).toBe('csvkit');
    expect(top(readFileSync(path.join(DIR, 'r-library-missing.log'), 'utf8'))?.dependency).toBe('data.table');
  });
});

describe('what the grammar says beyond the class', () => {
  it("escript's frames: the raise site is the script's line (its module is the escript's), not the evaluator's", () => {
    const f = top(readFileSync(path.join(DIR, 'erlang-escript-case-clause.log'), 'utf8'));
    expect([f?.exception, f?.tool, f?.location?.frames?.raise?.line, f?.location?.frames?.project?.file]).toEqual(['case_clause', 'escript', 13, 'summary.escript']);
  });

  it("escript's generated module (`summary_escript__escript__1795__...`) is the script's: its functions are named alone (session 48)", () => {
    const f = top(readFileSync(path.join(DIR, 'erlang-escript-case-clause.log'), 'utf8'));
    expect([f?.location?.frames?.raise?.function, f?.location?.frames?.project?.function]).toEqual(['label/1', 'label/1']);
  });

  it("an escript error raised wholly in OTP's evaluator (erl_eval, escript) names no place rather than the library's line", () => {
    const f = top(readFileSync(path.join(DIR, 'erlang-escript-badmatch.log'), 'utf8'));
    expect([f?.exception, f?.location]).toEqual(['badmatch', undefined]);
  });

  it("Lua's interpreter with no traceback under its error refused the chunk as it loaded it (a syntax error); with one, the code ran", () => {
    expect(top(readFileSync(path.join(DIR, 'lua-run-syntax.log'), 'utf8'))?.exception).toBe('syntax error');
    expect(top(readFileSync(path.join(DIR, 'lua-error.log'), 'utf8'))?.class).toBe('runtime-exception');
  });

  it("Node's SyntaxError of JSON.parse was raised while running; one its loader's compile step raised is the source refused", () => {
    expect(seen('node-json-parse')[0]).toBe('runtime-exception');
    expect(seen('node-syntax')[0]).toBe('compile-error');
  });
});

describe('counter-examples on the real cases of the data set', () => {
  const real = (id: string): Finding | undefined => {
    expect(TUNED_CASES).toContain(id);
    return top(readFileSync(path.join(REALFAIL_ROOT, id, 'fail.log'), 'utf8'));
  };

  it("testthat's error under its `[ FAIL 1 | ...]` summary is the test's error, not Rscript's uncaught `Error: Test failures`", () => {
    const f = real('testthat-could-not-find-function');
    expect([f?.class, f?.message_line]).toEqual(['test-error', 12]);
  });

  it("EUnit's `**error:` of a function clause stays the test's error (its rule); lua's and Tcl's real runtime errors stay runtime errors", () => {
    expect(real('eunit-function-clause')?.class).toBe('test-error');
    expect(real('lua-nil-index')?.class).toBe('runtime-exception');
    expect(real('tcl-no-such-variable')?.class).toBe('runtime-exception');
  });
});

describe("Erlang's terms over several lines", () => {
  it("real log (round 21, eunit-verbose-assertequal-tokenizer-long): EUnit's `**error:{assertEqual,...` is the whole term, its indented lines joined; its generated test is named by module and title", () => {
    expect(TUNED_CASES).toContain('eunit-verbose-assertequal-tokenizer-long');
    const f = top(readFileSync(path.join(REALFAIL_ROOT, 'eunit-verbose-assertequal-tokenizer-long', 'fail.log'), 'utf8'));
    expect(f?.test?.name).toBe('csv_import_tests: empty memo kept');
    expect([f?.class, f?.message]).toEqual(['test-assertion', '**error:{assertEqual,[{module,csv_import_tests}, {line,311}, {expression,"csv_import : fields ( \\"4711,,12.5\\" )"}, {expected,["4711",[],"12.5"]}, {value,["4711","12.5"]}]}']);
  });
});
