import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { analyze } from '../log/analyze.js';

/**
 * Session 50 (helper msg1; docs/notes/analyzer.md "Session 50 (helper msg1): messages by mechanism"): the line that
 * carries the message, by each tool's grammar: the failed command's words over the step's ending (scriptWords.ts),
 * Gradle's innermost `> ` cause (gradleCause.ts), pytest's `E` line in a test's section (verdicts.ts). Read from real
 * output made on this machine by test/fixtures/grammar/make.sh (go 1.19, npm 9, mix 1.14, GNU grep, coreutils
 * timeout, bash 5.2, Gradle 4.4.1, pytest 9), never written by hand.
 */
const DIR = path.join(process.cwd(), 'test', 'fixtures', 'grammar');
const message = (id: string): string | undefined => analyze(readFileSync(path.join(DIR, `${id}.log`), 'utf8'))[0]?.finding?.message;

describe("the one line a failed command printed over the CI's exit line is its message", () => {
  it.each([
    // `go run` reports the program's own status.
    ['go-run-exit-status', 'exit status 3'],
    // npm's echo of the script it runs (`> ledger-export@2.4.0 release:check`, `> node ...`) is not the script's output.
    ['npm-run-check-sentence', 'CHANGELOG.md has no entry for version 2.4.0; add a "## 2.4.0" section before releasing.'],
    ['mix-elixir-version', "** (Mix) You're trying to run :ledger on Elixir v1.14.0 but it has declared in its mix.exs file it supports only Elixir ~> 99.0"],
  ])('%s -> %s', (id, said) => {
    expect(message(id)).toBe(said);
  });
  it("a bare count (`grep -c`'s `0`) is data: the exit line stays", () => {
    expect(message('grep-count-zero')).toBe('ERROR: script returned exit code 1');
  });
  it('under a time limit (exit 124) the last line is what the program was doing when stopped: the exit line stays', () => {
    expect(message('timeout-last-line')).toBe('ERROR: script returned exit code 124');
  });
});

describe("a script's own `+ exit 1` after its report: what it reported", () => {
  it("the shell's own diagnostic on the check the report is about (`[` refusing its arguments)", () => {
    expect(message('bash-test-too-many-arguments')).toBe('ci.sh: line 2: [: docs/release: binary operator expected');
  });
  it("the report's printed line when the check said nothing", () => {
    expect(message('bash-check-echo-exit')).toBe('list check: list.txt has 5 entries, at most 3 are allowed');
  });
  it('an exit after another command\'s output (no report) keeps its exit', () => {
    expect(message('bash-exit-after-output')).toBe('exit 1');
  });
});

describe("Gradle's `* What went wrong:` chain: the innermost `> ` cause", () => {
  it.each([
    // `Execution failed for task ':checkSchema'.` over the JavaExec's exit value.
    ['gradle-javaexec-exit-value', "Process 'command '/usr/lib/jvm/java-17-openjdk-amd64/bin/java'' finished with non-zero exit value 2"],
    // `Could not resolve all files ...` > `Could not resolve g:a:3.+.` > the offline mode's reason, indented under `Required by:`.
    ['gradle-offline-dynamic-version', 'No cached version listing for org.assertj:assertj-core:3.+ available for offline mode.'],
  ])('%s -> %s', (id, said) => {
    expect(message(id)).toBe(said);
  });
  it('a block with one cause keeps it (the place line and the script error as before)', () => {
    expect(message('gradle-build-file-where')).toMatch(/^Could not find method implementation\(\)/);
  });
});

describe("pytest's section under a test's banner: its `E` line, however far below", () => {
  it('the exception raised two frames down (18 lines under the banner)', () => {
    expect(message('pytest-deep-exception')).toBe("decimal.InvalidOperation: [<class 'decimal.InvalidOperation'>]");
  });
  it('a chained exception: the last one', () => {
    expect(message('pytest-chained-exception')).toBe('ConnectionError: stock service did not answer for BOLT-M6 (read timeout=0.5)');
  });
});

describe("Gradle's test event (`Class > test FAILED`): the exception indented under it", () => {
  it('a StackOverflowError under `dev.acme.CategoryTest > childPathIncludesParent FAILED`', () => {
    expect(message('gradle-junit-test-failed')).toBe('java.lang.StackOverflowError');
  });
});

describe("a JVM exception whose words start on the next line (H2's `JdbcSQLSyntaxErrorException: `), under surefire's `<<< ERROR!` row", () => {
  it('the exception with its words, not the runner\'s row', () => {
    expect(message('maven-surefire-h2-table-missing')).toBe('org.h2.jdbc.JdbcSQLSyntaxErrorException: Table "CUSTOMER" not found (this database is empty); SQL statement:');
  });
});
