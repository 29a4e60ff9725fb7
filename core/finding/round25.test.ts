import { describe, expect, it } from '@jest/globals';
import { analyze } from '../../test/helpers/rulesReading.js';

/**
 * Session 51 (helper t26; docs/notes/analyzer.md "Session 51 (helper t26)"): round 25's class misses by mechanism, each
 * on a made-up minimal log in the tool's own words (every row read another class before the change).
 * 1. A runtime's wrapper of a system call's error carries the error the system returned: OCaml's `Sys_error("...")` and
 *    `Unix.Unix_error(Unix.EXXX, ...)` are read by the errno's own rule (a full disk, the network), as Python's OSError is;
 *    one that carries no cause of the environment stays the program's exception.
 * 2. A TLS library's words for a peer that does not speak TLS (JSSE's `Unsupported or unrecognized SSL message`,
 *    OpenSSL's `wrong version number`) are the network's, as curl's `(35)` was.
 * 3. A tool's verdict on what is installed: tsc's `TS2688` (a type package not installed: a dependency), Node's
 *    `ERR_UNKNOWN_BUILTIN_MODULE` (a built-in of a later Node: a missing tool, medium), R CMD INSTALL's `this R is
 *    version X, package 'p' requires R >= Y` (the agent's R too old: a missing tool).
 */
const top = (log: string) => analyze(log)[0]?.finding;
const script = (...lines: string[]) => ['+ ./run', ...lines, 'Build step \'Execute shell\' marked build as failure', 'Finished: FAILURE', ''].join('\n');

const ROWS: [name: string, log: string, cls: string, message: string][] = [
  ['OCaml Sys_error ENOSPC', script('Fatal error: exception Sys_error("No space left on device")'), 'disk-full', 'Sys_error("No space left on device")'],
  ['OCaml Unix_error ECONNREFUSED', script('Fatal error: exception Unix.Unix_error(Unix.ECONNREFUSED, "connect", "")'), 'network', 'Unix.ECONNREFUSED'],
  ['JSSE plain port', script('Exception in thread "main" javax.net.ssl.SSLException: Unsupported or unrecognized SSL message', '\tat java.base/sun.security.ssl.SSLSocketInputRecord.handleUnknownRecord(SSLSocketInputRecord.java:462)', '\tat Fetch.main(Fetch.java:9)'), 'network', 'Unsupported or unrecognized SSL message'],
  ['Python ssl wrong version number', script('ssl.SSLError: [SSL: WRONG_VERSION_NUMBER] wrong version number (_ssl.c:1006)'), 'network', 'wrong version number'],
  ['tsc TS2688', script("error TS2688: Cannot find type definition file for 'jest'.", '  The file is in the program because:', "    Entry point of type library 'jest' specified in compilerOptions"), 'dependency-resolution', 'TS2688'],
  ['node ERR_UNKNOWN_BUILTIN_MODULE', script('node:internal/modules/cjs/loader:1080', '  throw new ERR_UNKNOWN_BUILTIN_MODULE(request);', '', 'Error [ERR_UNKNOWN_BUILTIN_MODULE]: No such built-in module: node:sea', '    at Module._load (node:internal/modules/cjs/loader:1080:11)', '    at Object.<anonymous> (/ws/src/pack.js:2:13)'), 'missing-tool', 'node:sea'],
  ['R CMD INSTALL needs a later R', script("ERROR: this R is version 4.1.2, package 'gridx' requires R >= 4.2.0"), 'missing-tool', 'requires R >= 4.2.0'],
];

/** testthat's end of run (its `location` reporter): the failed tests' sections, the summary, its closing `stop()`. */
const testthat = (heading: string, ...words: string[]) =>
  script("Start test: books are in the reduced band", "  'test-vat.R:12' [error]", 'End test: books are in the reduced band', '', '[ FAIL 1 | WARN 0 | SKIP 0 | PASS 4 ]', '',
    '══ Failed tests ════════════════════════════════════════', `── ${heading}: books are in the reduced band ──────────`, ...words, '', '[ FAIL 1 | WARN 0 | SKIP 0 | PASS 4 ]', 'Error: Test failures', 'Execution halted');

/**
 * 4. testthat's closing `Error: Test failures` is its verdict, not R's uncaught error: the failed test's section decides,
 *    `── Error (...)` a test error and `── Failure (...)` an assertion, its words below the condition classes testthat 3
 *    prints first.
 */
ROWS.push(
  ['testthat Error section', testthat("Error ('test-vat.R:12')", '<subscriptOutOfBoundsError/error/condition>', 'Error in `rates[[band]]`: subscript out of bounds', 'Backtrace:', '    ▆', ' 1. └─global vat(10, "books") at test-vat.R:12:3'), 'test-error', 'Error in `rates[[band]]`: subscript out of bounds'],
  ['testthat Failure section', testthat("Failure ('test-vat.R:12')", 'vat(10, "books") not equal to 0.5.', '1/1 mismatches', '[1] 2 - 0.5 == 1.5'), 'test-assertion', 'vat(10, "books") not equal to 0.5.'],
);

describe('round 25 by mechanism (session 51, t26)', () => {
  it.each(ROWS)('%s', (_name, log, cls, message) => {
    const f = top(log);
    expect([f?.class, f?.message.includes(message)]).toEqual([cls, true]);
  });

  it('an OCaml exception that carries no cause of the environment stays the program\'s', () => {
    expect(top(script('Fatal error: exception Sys_error("data/rates.csv: No such file or directory")'))?.class).toBe('runtime-exception');
    expect(top(script('Fatal error: exception Not_found'))?.class).toBe('runtime-exception');
  });
});
