import { expectFinding, realFinding as real, topFinding as top, type FindingRow } from '../../test/helpers/findingCases.js';

/** General evidence of round 4's tuning (general.ts, refine.ts, generic.ts), each on a real log of test/fixtures/realfail (origin tune4). */

describe('general evidence for tools no rule knows (round 4 tuning)', () => {
  it.each<FindingRow>([
    // A tool no list knows, given the source file, reports an error at a line of it.
    ['nasm-parser-error', 'compile-error', 'parser: instruction expected', 'memcpy.asm', 5],
    ['ghdl-undeclared-signal', 'compile-error', 'no declaration for "cnt_next"', 'counter.vhd', 18],
    ['protoc-undefined-type', 'compile-error', '"Money" is not defined.', 'order.proto', 8],
    ['gnat-type-mismatch', 'compile-error', 'expected type "Standard.Float"', 'temps.adb', 12],
    // `file(line, col) Error:` with a space after the comma.
    ['nim-undeclared-identifier', 'compile-error', "undeclared routine: 'toLowerCase'", 'slug.nim', 5],
    // A place quoted in a chain of causes, under a site generator.
    ['hugo-template-function', 'compile-error', 'function "upcase" not defined', 'index.html', 5],
    // A linter printing the compiler's form.
    ['cppcheck-array-bounds', 'lint', 'out of bounds', 'histogram.c', 6],
    // A formatter's unified diff, at the first changed line.
    ['shfmt-diff', 'lint', '--- scripts/tag.sh.orig', 'tag.sh', 5],
    // Words every tool uses for the cause.
    ['tar-extract-disk-full', 'disk-full', 'Wrote only 6144 of 10240 bytes', undefined, undefined],
    ['poetry-lock-outdated', 'dependency-resolution', 'poetry.lock is not consistent with pyproject.toml', undefined, undefined],
    ['openssl-sclient-expired-cert', 'network', 'verify error:num=10:certificate has expired', undefined, undefined],
    ['rollup-unresolved-import', 'compile-error', 'Could not resolve "./format.js"', undefined, undefined],
    // A path the script gave the tool is not there.
    ['tar-create-missing-path', 'ci-script', 'site: Cannot stat: No such file or directory', undefined, undefined],
    ['unzip-member-not-matched', 'ci-script', 'filename not matched:  config/app.yml', undefined, undefined],
    // ThreadSanitizer's report (a warning, exit 66) at its first frame.
    ['gcc-tsan-data-race', 'runtime-exception', 'WARNING: ThreadSanitizer: data race', 'stats.c', 13],
    // A runner's failure heading with its place; a stacktrace's first project frame.
    ['testthat-expect-equal', 'test-assertion', 'z[1] not equal to -1.5.', 'test-zscore.R', 6],
    ['exunit-assert-equal', 'test-assertion', 'Assertion with == failed', 'slug_test.exs', 5],
    // A task runner's JSON failure of an assertion: its msg.
    ['ansible-assert-failed', 'ci-script', 'deploy_env must be staging or production, not prod', undefined, undefined],
    // Second look (built after the rules above): a runtime's uncaught exception at the `file(line) proc` trace's
    // project frame; Elixir's `** (CompileError) f:l: msg`; a parser's `Expected ";".` from a tool given the file;
    // an assertion at a place in test code (a VHDL testbench).
    ['nim-index-defect', 'runtime-exception', 'unhandled exception: index 3 not in 0 .. 2 [IndexDefect]', 'report.nim', 6],
    ['mix-compile-undefined-function', 'compile-error', 'undefined function trim_dashes/1', 'slug.ex', 6],
    ['protoc-expected-semicolon', 'compile-error', 'Expected ";".', 'order.proto', 9],
    ['ghdl-testbench-assert', 'test-assertion', 'sum with carry-in is wrong', 'adder_tb.vhd', 18],
  ])('%s', (...row) => expectFinding(real(row[0]), row));

  it('claims nothing the log does not establish', () => {
    // A checker script's report about another file stays unknown (no compiler, the file not named by the command).
    expect(top('+ ./check-headers.sh\nsrc/x.py:1: missing header\nexit 1').class).toBe('unknown');
    // An unknown tool's warning at a place in the file it was given is no error.
    expect(top('+ asmtool src/a.asm\nsrc/a.asm:3: warning: label alone on a line\nexit 1').class).toBe('unknown');
    // A missing path the script did not name (a tool's own internal file) is not the script's error.
    expect(top('+ tar -czf out.tgz site\ntar: /etc/tool.conf: Cannot stat: No such file or directory\nexit 2').class).toBe('unknown');
    // An assertion failing at a place outside test code stays what it was (a program's own check).
    expect(top('+ ./sim\nsrc/fifo.vhd:40:3:@5ns:(assertion error): fifo overflow\n/usr/bin/ghdl-mcode:error: assertion failed\nexit 1').class).not.toBe('test-assertion');
    // A diff a script prints (not a linter or formatter) is not lint.
    expect(top('+ ./compare.sh\n--- a.txt\n+++ b.txt\n@@ -1,2 +1,2 @@\n-a\n+b\nexit 1').class).toBe('unknown');
    // A FAILED! task whose msg is no assertion stays unknown (its msg is the message).
    const failed = top('+ ansible-playbook site.yml\nfatal: [web1]: FAILED! => {\n    "changed": false,\n    "msg": "Could not find or access \'files/app.conf\'"\n}\nexit 2');
    expect(failed).toMatchObject({ class: 'unknown', message: "Could not find or access 'files/app.conf'" });
  });
});
