import { expectFinding, realFinding as real, topFinding as top, type FindingRow } from '../../test/helpers/findingCases.js';

/** General evidence from round 4's batch B once opened for tuning (round 4b's rules, now in families/; refineByPlace.ts), each on a real log of test/fixtures/realfail. */

describe('general evidence of round 4, batch B', () => {
  it.each<FindingRow>([
    // A download the server does not have (HTTP 404).
    ['curl-artifact-404', 'dependency-resolution', 'curl: (22) The requested URL returned error: 404', undefined, undefined],
    // git's refusal to push; git's whitespace check (a hook's `git diff --check`).
    ['git-push-rejected', 'ci-script', '! [rejected]', undefined, undefined],
    ['git-hook-pre-commit-reject', 'lint', 'docs/OPTIONS.md:5: trailing whitespace.', 'OPTIONS.md', 5],
    // A package graph that does not build is the compiler's, even under `go vet`.
    ['go-import-cycle', 'compile-error', 'import cycle not allowed', undefined, undefined],
    // An exception named with its place (D): an assertion's is a test assertion.
    ['gdc-unittest-assert', 'test-assertion', 'core.exception.AssertError@src/semver.d(34): unittest failure', 'semver.d', 34],
    // OCaml's uncaught exception at the first project frame of its backtrace, in test code: a test error.
    ['dune-test-exception', 'test-error', 'Fatal error: exception Not_found', 'test_limits.ml', 6],
    // A build file's missing library at the place above it.
    ['dune-library-not-found', 'dependency-resolution', 'Error: Library "yojson" not found.', 'dune', 3],
    // A runner's own time limit.
    ['raco-test-timeout', 'timeout-aborted', 'timeout after 10 seconds', undefined, undefined],
    // Pascal's runtime error 203: the heap is exhausted.
    ['fpc-heap-overflow', 'out-of-memory', 'Runtime error 203', undefined, undefined],
    // An interpreter's own error at its script (awk is a language), division by zero a runtime error.
    ['gawk-division-by-zero', 'runtime-exception', 'fatal: division by zero attempted', 'report.awk', 6],
    // A filter's error at a place of its input.
    ['jq-cannot-index', 'runtime-exception', 'Cannot index array with string "linux"', 'manifest.json', 7],
    // A check that failed at a place in test code.
    ['guile-srfi64-test-equal', 'test-assertion', 'tests/slug-test.scm:6: FAIL punctuation', 'slug-test.scm', 6],
    ['vvp-fatal-testbench', 'test-assertion', 'FATAL: tb/alu_tb.v:7: op 3: 50, 8 -> 214, expected 42', 'alu_tb.v', 7],
    // An exception at a place in the build's own definition file.
    ['scons-sconstruct-nameerror', 'ci-script', "NameError: name 'dbg_env' is not defined", 'SConstruct', 5],
    // A tool no list knows, given the file, rejects a line of it (whatever the extension).
    ['swig-syntax-error', 'compile-error', 'geom.i:7: Error: Syntax error in input(1).', 'geom.i', 7],
    // A server's gravest log level at a line of its configuration, read back from its `test failed` verdict.
    ['nginx-unknown-directive', 'compile-error', 'unknown directive "proxy_set_headers"', 'nginx.conf', 26],
    // A message line that begins with its place (make's own error, psql's `psql:file:line:`).
    ['make-missing-separator', 'ci-script', 'Makefile:13: *** missing separator.  Stop.', 'Makefile', 13],
    ['psql-permission-denied-schema', 'permission-credentials', 'permission denied for schema public', '002_audit_log.sql', 6],
  ])('%s', (...row) => expectFinding(real(row[0]), row));

  it('claims nothing the log does not establish', () => {
    // A recipe that failed names the Makefile's line that ran it: not an error of the Makefile itself.
    expect(top('+ make check\n./check.sh\nmake: *** [Makefile:6: check] Error 1\nexit 2').class).not.toBe('ci-script');
    // A runtime error under a test command, raised outside test code, stays a runtime exception.
    expect(top('+ make check\n./ring\nFatal error: exception Not_found\nRaised at Stdlib__List.assoc in file "list.ml", line 191, characters 10-25\nCalled from Ring in file "src/ring.ml", line 9, characters 2-20\nexit 2').class).toBe('runtime-exception');
    // A connection's time limit is the network's, not a runner's.
    expect(top('+ ./fetch.sh\nerror: Connection timeout after 30 seconds\nexit 1').class).not.toBe('timeout-aborted');
    // An unknown tool's warning about the file it was given is no error; a place in a file it was not given stays unknown.
    expect(top('+ swig -python geom.i\ngeom.i:7: Warning 314: print is a python keyword\nexit 1').class).toBe('unknown');
    expect(top('+ conftool check site.conf\nother.conf:3: unknown directive "x"\nexit 1').class).toBe('unknown');
    // A place in test code that says nothing failed is not an assertion.
    expect(top('+ ./run-tests\ntests/a-test.scm:6: PASS punctuation\nexit 1').class).not.toBe('test-assertion');
    // A vet diagnostic at a place stays lint.
    expect(top('+ go vet ./...\n# example.com/x\nx/a.go:5:2: fmt.Printf format %d has arg s of wrong type string\nexit 1').class).toBe('lint');
  });
});
