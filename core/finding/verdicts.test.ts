import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { setGenericOnly } from './ablation.js';
import { expectFinding, realFinding as real, topFinding as top, type FindingRow } from '../../test/helpers/findingCases.js';

/**
 * The general verdicts of round 6's tuning (verdicts.ts, verdictRole.ts): each round-6 miss decided
 * with the tool-family rules off (ablation.ts), then the same evidence on tools no case has, and
 * counter-examples where it must not claim.
 */
describe('general verdicts (round 6 tuning), family rules off', () => {
  beforeAll(() => setGenericOnly(true));
  afterAll(() => setGenericOnly(false));

  it.each<FindingRow>([
    // Verdict words.
    ['autoreconf-aclocal-missing', 'missing-tool', `Can't exec "aclocal": No such file or directory`, undefined, undefined],
    ['capnp-missing-plugin', 'missing-tool', "go: no such plugin (executable should be 'capnpc-go')", undefined, undefined],
    ['convert-cache-exhausted', 'out-of-memory', 'convert: cache resources exhausted', undefined, undefined],
    ['rclone-copy-no-space', 'disk-full', 'Failed to copy: preallocate: file too big for remaining disk space', undefined, undefined],
    ['coverage-fail-under-threshold', 'lint', 'Coverage failure: total of 30 is less than fail-under=80', undefined, undefined],
    ['bash-readonly-variable', 'ci-script', 'ci.sh: line 2: VERSION: readonly variable', 'ci.sh', 2],
    ['maven-no-tests-matching', 'ci-script', 'No tests matching pattern "InvoiceTest" were executed!', undefined, undefined],
    ['minisign-key-mismatch', 'permission-credentials', 'Signature key id in vendor/fmtlib-2.3.1.tar.gz.minisig is 9B6254C8F9B26095', undefined, undefined],
    ['qmake-unknown-module', 'dependency-resolution', 'Project ERROR: Unknown module(s) in QT: websockets', undefined, undefined],
    ['svn-export-url-not-found', 'dependency-resolution', "URL 'file:///tmp/data6a/svnrepo/vendor/libcsv/tags/1.3' doesn't exist", undefined, undefined],
    ['npm-ci-no-lockfile', 'ci-script', 'The `npm ci` command can only install with an existing package-lock.json or', undefined, undefined],
    // The exception's own words over the runtime's class.
    ['babel-preset-missing', 'dependency-resolution', "Cannot find package '@babel/preset-typescript'", undefined, undefined],
    ['python-subprocess-missing-tool', 'missing-tool', "FileNotFoundError: [Errno 2] No such file or directory: 'brotli'", 'scripts/compress_assets.py', 15],
    ['jasmine-spec-timeout', 'timeout-aborted', 'Error: Timeout - Async function did not complete within 5000ms', undefined, undefined],
    ['tap-test-timeout', 'timeout-aborted', 'not ok 1 - test/queue.test.js # time=10014.492ms', undefined, undefined],
    ['cmocka-segfault-in-test', 'test-error', 'Test failed with exception: Segmentation fault(11)', undefined, undefined],
    // The command's role.
    ['sdcc-internal-ram-overflow', 'link-error', '?ASlink-Error-Could not get 120 consecutive bytes', undefined, undefined],
    ['lessc-undefined-variable', 'compile-error', 'variable @brand-blue is undefined', 'styles/buttons.less', 6],
    ['sass-undefined-variable', 'compile-error', 'Error: Undefined variable.', 'styles/components/_card.scss', 4],
    ['terser-parse-error', 'compile-error', 'Unexpected token punc «;», expected punc «,»', 'src/widget.js', 7],
    ['thrift-undefined-type', 'compile-error', 'Type "common.Money" not defined', undefined, undefined],
    ['xsltproc-undefined-variable', 'compile-error', 'XPath error : Invalid expression', 'style/catalog.xsl', 11],
    ['commitlint-type-enum', 'lint', 'type must be one of [build, chore', undefined, undefined],
    ['htmlhint-tag-pair', 'lint', 'Tag must be paired, missing: [ </div> ]', 'site/index.html', 18],
    ['named-checkzone-cname-and-other', 'lint', 'www.shop.example: CNAME and other data', 'zones/db.shop.example', 15],
    ['hunspell-spelling-gate', 'lint', 'docs/upgrade.md:5: Locate: recieve | Try: receive', 'docs/upgrade.md', 5],
    ['ava-deep-equal', 'test-assertion', 'Difference (- actual, + expected):', 'test/tags.test.js', 9],
    ['cunit-assert-equal', 'test-assertion', 'CU_ASSERT_EQUAL(to_cents(0.29),29)', 'tests/test_money.c', 6],
    ['shunit2-assert-equals', 'test-assertion', 'expected:<3.0.1> but was:<..1>', undefined, undefined],
    ['boost-test-uncaught-exception', 'test-error', 'fatal error: in "port_from_file": std::invalid_argument', 'tests/config_test.cpp', 13],
    ['cucumber-step-typeerror', 'test-error', 'TypeError: total.toFixed is not a function', 'features/step_definitions/cart_steps.js', 15],
    ['m4-include-missing', 'compile-error', "m4:proxy.conf.m4:7: cannot open `tls.m4'", 'proxy.conf.m4', 7],
    ['sshd-t-bad-option', 'compile-error', 'Bad configuration option: PasswordAuthentification', 'bastion/sshd_config', 6],
    ['gnuplot-undefined-variable', 'runtime-exception', 'undefined variable: slo_ms', 'charts/latency.gp', 9],
    ['clojure-classcast-exception', 'runtime-exception', 'class java.lang.String cannot be cast to class java.lang.Number', 'report.clj', 14],
  ])('%s', (...row) => expectFinding(real(row[0]), row));

  it('decides the same evidence for tools no case has', () => {
    expect(top(`+ ./bootstrap\nCan't exec "libtoolize": No such file or directory at /usr/share/x/Util.pm line 3.\nexit 2`).class).toBe('missing-tool');
    expect(top('+ node scripts/images.js\nError: spawn optipng ENOENT\n    at ChildProcess._handle.onexit (node:internal/child_process:285:19)\nexit 1').class).toBe('missing-tool');
    expect(top('+ ./deploy.sh\n./deploy.sh: line 7: PATH: readonly variable\nexit 1').class).toBe('ci-script');
    expect(top('+ gpgv --keyring k.gpg x.sig x.tar\ngpgv: BAD signature from "Release Key"\nexit 1').class).toBe('permission-credentials');
    expect(top("+ svn checkout https://svn.example/x/trunk x\nsvn: E170000: URL 'https://svn.example/x/trunk' doesn't exist\nexit 1").class).toBe('dependency-resolution');
    expect(top("+ mytool --frobnicate\nerror: the option '--frobnicate' is not recognised here\n\nUsage: mytool [OPTIONS] <FILE>\nexit 2").class).toBe('ci-script');
    expect(top('+ mjml emails/welcome.mjml -o dist/welcome.html\nError: Element mj-colum is not defined\nexit 1').class).toBe('compile-error');
    expect(top('+ cc65-ld main.o crt0.o -o game.nes\nError: Memory area overflow in CODE\nexit 1').class).toBe('link-error');
    expect(top('+ markuphint site\n  ^ Tag must be closed (tag-close)\nFound 1 error\nexit 1').class).toBe('lint');
    expect(top('+ bash tests/run.sh\nASSERT:expected:<a> but was:<b>\nexit 1').class).toBe('test-assertion');
    const listed = top('+ ./node_modules/.bin/specrun\nFailures:\n\n1) Cart totals\n   RangeError: bad total\n     at Context.<anonymous> (/ws/spec/cart.js:5:3)\nexit 1');
    expect([listed.class, listed.location?.line]).toEqual(['test-error', 5]);
    const rejected = top("+ haproxy -c -f conf/haproxy.cfg\nconf/haproxy.cfg: line 12: unknown keyword 'tiemout'\nexit 1");
    expect([rejected.class, rejected.location?.file, rejected.location?.line]).toEqual(['compile-error', 'conf/haproxy.cfg', 12]);
    expect(top('+ octave-cli scripts/plot.m\n"scripts/plot.m" line 4: undefined variable: xs\nexit 1').class).toBe('runtime-exception');
    const heading = top('+ clj -M src/x.clj\nExecution error (ArithmeticException) at x/f (x.clj:3).\nDivide by zero\nexit 1');
    expect([heading.class, heading.message]).toEqual(['runtime-exception', 'Divide by zero']);
  });

  it('claims nothing the evidence does not settle', () => {
    // An interpreter's filter over a data file translates nothing; a copy names two files and compiles nothing.
    expect(top('+ jq -r .a.b manifest.json\njq: error (at manifest.json:7): Cannot index array with string "b"\nexit 5').class).not.toBe('compile-error');
    expect(top("+ cp notes.txt out.md\ncp: cannot stat 'notes.txt': No such file or directory\nexit 1").class).not.toBe('compile-error');
    // A build driver's resolver error is no compile error.
    expect(top('+ cargo build --offline\nerror: failed to select a version for `hashkit`.\nexit 101').class).not.toBe('compile-error');
    // A translator's warning is not its error.
    expect(top('+ sphinx-build docs out\n/ws/docs/usage.rst:4: WARNING: undefined label: x\nexit 1').class).not.toBe('compile-error');
    // A relative module is the project's own file, not a dependency.
    expect(top("+ node src/main.mjs\nError: Cannot find module './util.js'\n    at Module._resolveFilename (node:internal/modules/cjs/loader:1145:15)\nexit 1").class).not.toBe('dependency-resolution');
    // A file a script opens that is not there is no missing program.
    expect(top("+ python3 x.py\nTraceback (most recent call last):\n  File \"/ws/x.py\", line 3, in <module>\n    open('data.csv')\nFileNotFoundError: [Errno 2] No such file or directory: 'data.csv'\nexit 1").class).not.toBe('missing-tool');
    // A crash no test runner reported as a test's failure stays the program's.
    expect(top('+ ./build/tool\nSegmentation fault (core dumped)\nexit 139').class).not.toBe('test-error');
    // A signature line with no mismatch stated claims nothing.
    expect(top('+ minisign -Vm a.tar.gz -p k.pub\nSignature key id in a.tar.gz.minisig is 9B6254C8F9B26095\nexit 1').class).not.toBe('permission-credentials');
  });
});

describe('general verdicts over the family rules', () => {
  it.each<FindingRow>([
    // The runtime's exception class gives way to its own words, with the family rules on.
    ['babel-preset-missing', 'dependency-resolution', "Cannot find package '@babel/preset-typescript'", undefined, undefined],
    ['python-subprocess-missing-tool', 'missing-tool', "No such file or directory: 'brotli'", 'scripts/compress_assets.py', 15],
    ['jasmine-spec-timeout', 'timeout-aborted', 'did not complete within 5000ms', undefined, undefined],
    ['cmocka-segfault-in-test', 'test-error', 'Test failed with exception: Segmentation fault(11)', undefined, undefined],
    ['hunspell-spelling-gate', 'lint', 'docs/upgrade.md:5: Locate: recieve', 'docs/upgrade.md', 5],
  ])('%s', (...row) => expectFinding(real(row[0]), row));
});

describe('the message a heading, a banner or a consequence stands for', () => {
  it.each<FindingRow>([
    ['criterion-assert-failed', 'test-assertion', 'pushed 7 items, capacity is 8', 'tests/test_ring.c', 15],
    ['pytest-fixture-not-found', 'test-error', "fixture 'db' not found", 'tests/test_quantity.py', 4],
    ['yasm-invalid-instruction', 'compile-error', 'instruction expected after label', 'src/sum8.asm', 18],
  ])('%s', (...row) => expectFinding(real(row[0]), row));

  it('takes the cause, and only the cause', () => {
    // An assembler's undefined label, then the syntax error that left it undefined.
    const asm = top('+ nasm -f elf64 -o x.o src/x.asm\nsrc/x.asm:4: error: symbol `loop.end\' not defined\nsrc/x.asm:9: error: expression syntax error\nexit 1');
    expect([asm.message, asm.location?.line]).toEqual(['src/x.asm:9: error: expression syntax error', 9]);
    // An undefined name with no syntax error after it stays the message; so does a check that says what failed.
    expect(top('+ nasm -f elf64 -o x.o src/x.asm\nsrc/x.asm:4: error: symbol `loop.end\' not defined\nexit 1').message).toContain('loop.end');
    expect(top('+ ./build/t\ntests/t.c:5: equality assertion failed\n- Expected: 1\nexit 1').message).not.toBe('- Expected: 1');
  });
});
