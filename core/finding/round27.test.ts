import { describe, expect, it } from '@jest/globals';
import { analyze } from '../../test/helpers/rulesReading.js';

/**
 * Session 53 (helper t28; docs/notes/analyzer.md "Session 53 (helper t28)"): round 27's misses by mechanism, each on a
 * made-up minimal log in the tool's own words (every row read another class, message or place before the change), with
 * counter-examples that must not move.
 * 1. A tool's verdict on the script's own command: the `[` builtin's `[: missing `]'`, ESLint's `Invalid option '--x'`.
 * 2. A tool's verdict on what is installed: Groovy Grape's `unresolved dependency`, R CMD INSTALL's `dependency ‘x’ is
 *    not available`, a function of a later PHP (`Call to undefined function json_validate()`).
 * 3. A compiler's verdict reported by a runtime's words: R's parser through `source()` (`Error in source("f") : f:7:1:
 *    unexpected 'else'`), PHP's compile-time class checks (`Declaration of ... must be compatible with ...`), GNU ld's
 *    `TLS definition in a.o ... mismatches non-TLS reference in b.o`.
 * 4. A status in a client's own spelling: Ruby's Net::HTTP quotes the reason (`401 "Unauthorized"`).
 * 5. A report's grammar: Lua's error after the program's output on the same line; testthat's numbered section heading
 *    (`── 1. Failure ('test-x.R:11'): name`); a Python traceback longer than its window read on to its exception line.
 * 6. A client's and a runtime's words for an environment's cause: a redirect loop (urllib, requests, curl) is the
 *    network's side; R's `error writing to connection` a full device.
 */
const top = (log: string) => analyze(log)[0]?.finding;
const script = (...lines: string[]) => ['+ ./run', ...lines, 'Build step \'Execute shell\' marked build as failure', 'Finished: FAILURE', ''].join('\n');

const ROWS: [name: string, log: string, cls: string, message: string, place: string | undefined][] = [
  ['bash [ missing ]', script('+ BRANCH=dev', "+ '[' dev = 'dev]'", "build.sh: line 9: [: missing `]'"), 'ci-script', "[: missing `]'", 'build.sh:9'],
  ['eslint invalid option', script('+ npx eslint --rulesdir rules .', "Invalid option '--rulesdir' - perhaps you meant '--rule'?", "You're using eslint.config.js, some command line flags are no longer available."),
    'ci-script', "Invalid option '--rulesdir'", undefined],
  ['groovy Grape', script('+ groovy scripts/report.groovy', 'org.codehaus.groovy.control.MultipleCompilationErrorsException: startup failed:',
    'General error during conversion: Error grabbing Grapes -- [unresolved dependency: com.google.guava#guava;33.0.0-jre: not found]', '', 'java.lang.RuntimeException: Error grabbing Grapes -- [unresolved dependency: com.google.guava#guava;33.0.0-jre: not found]',
    '\tat java.base/jdk.internal.reflect.DirectConstructorHandleAccessor.newInstance(DirectConstructorHandleAccessor.java:62)', '1 error'), 'dependency-resolution', 'unresolved dependency: com.google.guava#guava', undefined],
  ['R CMD INSTALL dependency', script('+ R CMD INSTALL --library=lib pkg', 'ERROR: dependencies ‘jsonlite’, ‘httr’ are not available for package ‘acmeapi’', '* removing ‘/ws/lib/acmeapi’'),
    'dependency-resolution', 'are not available for package', undefined],
  ['PHP function of a later PHP', script('+ php bin/check.php', 'PHP Fatal error:  Uncaught Error: Call to undefined function App\\str_increment() in /ws/src/Ids.php:14', 'Stack trace:', '#0 /ws/bin/check.php(5): App\\next_id()', '#1 {main}', '  thrown in /ws/src/Ids.php on line 14'),
    'missing-tool', 'str_increment()', 'Ids.php:14'],
  ['R parse error through source()', script('+ Rscript R/run.R', 'Error in source("R/tax.R") : R/tax.R:12:3: unexpected symbol', '11:   total <- 0', '12:   total total', '      ^', 'Execution halted'),
    'compile-error', 'R/tax.R:12:3: unexpected symbol', 'tax.R:12'],
  ['PHP declaration must be compatible', script('+ php bin/run.php', 'PHP Fatal error:  Declaration of App\\Csv::write(string $path): void must be compatible with App\\Writer::write(string $path, array $rows): void in /ws/src/Csv.php on line 11'),
    'compile-error', 'must be compatible with', 'Csv.php:11'],
  ['ld TLS mismatch', script('+ make', 'cc -c src/a.c -o build/a.o', 'cc -c src/b.c -o build/b.o', 'cc -o build/app build/a.o build/b.o', '/usr/bin/ld: counter: TLS definition in build/b.o section .tbss mismatches non-TLS reference in build/a.o',
    '/usr/bin/ld: build/b.o: error adding symbols: bad value', 'collect2: error: ld returned 1 exit status', 'make: *** [Makefile:4: build/app] Error 1'), 'link-error', 'TLS definition in build/b.o', undefined],
  ['Ruby Net::HTTP 403', script('+ ruby bin/publish.rb', '/usr/lib/ruby/3.1.0/net/http/response.rb:124:in `error!\': 403 "Forbidden" (Net::HTTPClientException)', '\tfrom bin/publish.rb:14:in `<main>\''),
    'permission-credentials', '403 "Forbidden"', 'publish.rb:14'],
  ['Lua error after output', script(...Array.from({ length: 30 }, (_, k) => `row ${k} ok`), 'row 30 lua5.4: bin/load.lua:12: attempt to index a nil value (local \'cfg\')', 'stack traceback:', '\t[C]: in ?', '\tbin/load.lua:12: in main chunk', '\t[C]: in ?', 'row 31 ok'),
    'runtime-exception', "bin/load.lua:12: attempt to index a nil value", 'load.lua:12'],
  ['testthat numbered heading', script('+ Rscript -e \'testthat::test_dir("tests")\'', '══ Failed ══════════════════════════════════════════', "── 1. Failure ('test-sum.R:7'): sums keep NA ───────────", 'total(c(1, NA)) not equal to NA_real_.', '', '══ DONE ═══════════════════════════════════════════', 'Error: Test failures', 'Execution halted'),
    'test-assertion', 'not equal to NA_real_', 'test-sum.R:7'],
  ['Python traceback longer than its window', script('+ python3 tools/fetch.py', 'Traceback (most recent call last):', '  File "/ws/tools/fetch.py", line 7, in <module>', '    body = urllib.request.urlopen(URL).read()',
    ...Array.from({ length: 40 }, (_, k) => [`  File "/usr/lib/python3.11/urllib/request.py", line ${500 + k}, in _call_chain`, '    result = func(*args)']).flat(),
    'urllib.error.HTTPError: HTTP Error 301: The HTTP server returned a redirect error that would lead to an infinite loop.', 'The last 30x error message was:', 'Moved Permanently'),
    'network', 'redirect error that would lead to an infinite loop', 'fetch.py:7'],
  ['R error writing to connection', script('+ Rscript R/cache.R', 'Error in writeLines(rows, out) : ', '  error writing to connection', 'Execution halted'), 'disk-full', 'error writing to connection', undefined],
];

describe('round 27 by mechanism (session 53, t28)', () => {
  it.each(ROWS)('%s', (_name, log, cls, message, place) => {
    const f = top(log);
    const where = f?.location ? `${f.location.file.replace(/^.*\//, '')}:${f.location.line}` : undefined;
    expect([f?.class, f?.message.includes(message), where]).toEqual([cls, true, place]);
  });

  it('neighbours keep their classes', () => {
    // bash's `[` on too many words stays the script's; a test that is merely false prints nothing.
    expect(top(script("ci.sh: line 2: [: too many arguments"))?.class).toBe('ci-script');
    // An uncaught PHP error of the code (not a compile-time check, not a later PHP's function) stays a runtime exception.
    expect(top(script('PHP Fatal error:  Uncaught Error: Call to undefined function App\\total_of() in /ws/src/Cart.php:9', 'Stack trace:', '#0 {main}', '  thrown in /ws/src/Cart.php on line 9'))?.class).toBe('runtime-exception');
    // R's runtime error in a sourced file stays a runtime exception.
    expect(top(script('+ Rscript R/run.R', 'Error in total(x) : object \'rate\' not found', 'Calls: source -> withVisible -> eval -> eval -> total', 'Execution halted'))?.class).toBe('runtime-exception');
    // Ruby's 500 is the service's, not the credentials'.
    expect(top(script('/usr/lib/ruby/3.1.0/net/http/response.rb:124:in `error!\': 500 "Internal Server Error" (Net::HTTPFatalError)', '\tfrom bin/publish.rb:14:in `<main>\''))?.class).not.toBe('permission-credentials');
    // A short traceback's own exception keeps its class (a KeyError of the code).
    expect(top(script('+ python3 tools/fetch.py', 'Traceback (most recent call last):', '  File "/ws/tools/fetch.py", line 7, in <module>', '    print(cfg["url"])', "KeyError: 'url'"))?.class).toBe('runtime-exception');
    // R's error on a connection it could not open is no full disk.
    expect(top(script('+ Rscript R/cache.R', 'Error in file(con, "w") : cannot open the connection', 'Execution halted'))?.class).not.toBe('disk-full');
  });
});
