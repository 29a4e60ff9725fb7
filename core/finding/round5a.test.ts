import { expectFinding, realFinding as real, topFinding as top, type FindingRow } from '../../test/helpers/findingCases.js';

/** General evidence from round 5's open cases (round 5's rules, now in families/; refineDetails.ts), each on a real log of test/fixtures/realfail (round 5, batch A). */

describe('evidence many tools share (round 5 open cases)', () => {
  it.each<FindingRow>([
    // A check whose expected value is printed below it: an assertion (busted, plunit, Octave).
    ['busted-assert-same', 'test-assertion', 'Expected objects to be the same.', 'spec/slug_spec.lua', 10],
    ['swipl-plunit-failed', 'test-assertion', 'test two_kilos: wrong answer', 'tests/test_zones.pl', 8],
    ['octave-assert-failed', 'test-assertion', 'ASSERT errors for:', undefined, undefined],
    // A test that raised, at the runner's place line above.
    ['swipl-existence-error', 'test-error', 'test gold: received error', 'tests/test_pricing.pl', 6],
    // A runtime's `Unhandled X in thread`, with its text on the line below.
    ['sbcl-unbound-variable', 'runtime-exception', 'The variable INVOICE::*VAT-RATE* is unbound.', undefined, undefined],
    // The heap ran out: the first report, not the runtime's last words.
    ['sbcl-heap-exhausted', 'out-of-memory', 'Heap exhausted during garbage collection', undefined, undefined],
    // Hosts the resolver could not reach.
    ['bundler-rubygems-unreachable', 'network', 'Could not reach host index.rubygems.org', undefined, undefined],
    ['composer-packagist-unreachable', 'network', 'file could not be downloaded', undefined, undefined],
    // A package asking for another language version.
    ['pip-requires-python', 'missing-tool', 'requires a different Python', undefined, undefined],
    // A JSON Schema validator's words.
    ['ajv-required-property', 'lint', "must have required property 'owner'", undefined, undefined],
    // A scanner's `Issue:` over its `Location:`.
    ['bandit-shell-injection', 'lint', '>> Issue: [B602', 'ops/backup.py', 6],
    // A documentation checker's words on a comment's tags.
    ['doxygen-warn-as-error', 'lint', "argument 'len' of command @param", 'include/ring.h', 14],
    // `tool: ERROR: file: line N: message`.
    ['asciidoctor-missing-include', 'compile-error', 'include file not found', 'book.adoc', 8],
    // A compiler's error on a file with no line.
    ['bison-conflicts-expected', 'compile-error', 'shift/reduce conflicts: 9 found, 0 expected', undefined, undefined],
    // A place line the tool's verdict below calls fatal; `msgfmt -o` is no formatter.
    ['msgfmt-format-mismatch', 'compile-error', 'number of format specifications', 'po/de.po', 22],
    // A build definition file its tool could not parse.
    ['maven-unparseable-pom', 'ci-script', 'Non-parseable POM', 'pom.xml', 7],
    // The strict-xfail check.
    ['pytest-xpass-strict', 'test-assertion', '[XPASS(strict)]', undefined, undefined],
    // ld's `undefined reference to symbol 'x'` (a library missing from the command line).
    ['valac-undefined-reference', 'link-error', "undefined reference to symbol 'ceil@@GLIBC_2.2.5'", undefined, undefined],
    // The program's word that it was sent SIGTERM, over the exit code.
    ['octave-loop-timeout', 'timeout-aborted', 'caught signal Terminated', undefined, undefined],
    // A formatter's verdict over its diff; the place is the line the diff first removes.
    ['isort-check-unsorted', 'lint', 'Imports are incorrectly sorted', 'app/report.py', 4],
  ])('%s: %s', (...row) => expectFinding(real(row[0]), row, { lineOnlyWithFile: true }));

  it('names the failed test: `test name: reason`, or the title under a failure heading with its place', () => {
    expect(real('busted-assert-same')?.test?.name).toBe('slugify collapses punctuation');
    expect(real('swipl-plunit-failed')?.test?.name).toBe('two_kilos');
    expect(real('swipl-existence-error')?.test?.name).toBe('gold');
  });

  it('keeps each rule to its evidence (counter-examples)', () => {
    // argparse's `prog.py: error: unrecognized arguments` is no compiler's error.
    expect(top('usage: report.py [-h]\nreport.py: error: unrecognized arguments: --plan').class).not.toBe('compile-error');
    // A whole file's `file: error: x` under a linter's command is the linter's finding.
    expect(top('+ yamllint deploy/values.yaml\ndeploy/values.yaml: error: duplicate key').class).toBe('lint');
    // An object file's error is the linker's, not a compiler's.
    expect(top('build/x.o: error: file format not recognized').class).not.toBe('compile-error');
    // `Expected` with nothing printed below it is no assertion of this rule.
    expect(top('Expected objects to be the same.').class).not.toBe('test-assertion');
    // A download that failed for another reason than the network stays unclaimed by the network rule.
    expect(top('The "https://x.example/p.json" file could not be downloaded (HTTP/1.1 404 Not Found)').class).not.toBe('network');
    // ShellCheck's heading words without an SC code are not ShellCheck's.
    expect(top('In RemoteFilesystem.php line 476:\n  something went wrong').class).not.toBe('lint');
    // A place line with no fatal verdict below is not this rule's compile error.
    expect(top('po/de.po:2: warning: header field missing\n3 translated messages.').class).not.toBe('compile-error');
  });
});
