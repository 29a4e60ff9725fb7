import { describe, expect, it } from '@jest/globals';
import { analyze } from '../../test/helpers/rulesReading.js';
import type { Finding } from '../../protocol/types.js';
import { programOf } from './purpose.js';

/**
 * The failing command's purpose where no rule holds the message (purpose.ts; docs/notes/analyzer.md, "The failing
 * command's purpose (helper t15)"): made-up logs of other projects, each with a counter-example.
 */
const top = (text: string): Finding | undefined => analyze(text)[0]?.finding;
const jenkins = (...lines: string[]): string => ['[ci] $ /bin/bash -xe ci.sh', ...lines, "Build step 'Execute shell' marked build as failure", 'Finished: FAILURE'].join('\n');
const gha = (...lines: string[]): string => ['##[group]Run ./ci.sh', ...lines, '##[error]Process completed with exit code 1.'].join('\n');

describe('an output comparison that printed a difference is a failed check', () => {
  it("make's recipe `diff` against an expected file, a normal diff printed", () => {
    const log = jenkins('+ make test', 'cc -O2 -o calc calc.c', './calc < tests/sum.in > out/sum.txt', 'diff tests/sum.expected out/sum.txt', '3c3', '< total 42', '---', '> total 41', 'make: *** [Makefile:12: test] Error 1');
    const f = top(log);
    expect([f?.class, f?.confidence]).toEqual(['test-assertion', 'medium']);
    expect(f?.evidence).toContain(5);
    expect(f?.test?.name).toBe('test');
  });

  it('a traced `diff -u` of a golden file against the output, a unified diff printed', () => {
    const f = top(gha('+ ./bin/render --format csv fixtures/week.json > out/week.csv', '+ diff -u fixtures/week.golden.csv out/week.csv', '--- fixtures/week.golden.csv', '+++ out/week.csv', '@@ -1,2 +1,2 @@', '-day,hours', '+day,hours,rate'));
    expect([f?.class, f?.confidence]).toEqual(['test-assertion', 'medium']);
  });

  it("counter-example: `git diff --exit-code` after a generator keeps the rules' class (a drift gate is lint there)", () => {
    const f = top(gha('+ protoc --go_out=. api/v1/stock.proto', '+ git diff --exit-code -- api/', 'diff --git a/api/v1/stock.pb.go b/api/v1/stock.pb.go', 'index 3f1c2aa..8be01d2 100644', '--- a/api/v1/stock.pb.go', '+++ b/api/v1/stock.pb.go', '@@ -12,3 +12,4 @@ type Item struct {', '+\tSku string'));
    expect(f?.class).toBe('lint');
  });

  it("a traced `cmp` that reports the first byte that differs", () => {
    const f = top(jenkins('+ ./bin/pack assets/ build/assets.pak', '+ cmp build/assets.pak tests/golden/assets.pak', 'build/assets.pak tests/golden/assets.pak differ: byte 1025, line 7'));
    expect(f?.class).toBe('test-assertion');
  });

  it('counter-example: make failing after a recipe that is no comparison stays unknown', () => {
    const f = top(gha('+ make check', 'cc -O2 -o hello hello.c', './hello > out.txt', 'make: *** [Makefile:6: check] Error 1'));
    expect(f?.class).toBe('unknown');
  });

  it('counter-example: a comparison that printed no difference (its file missing) is not a failed check', () => {
    const f = top(jenkins('+ make test', './calc < tests/sum.in > out/sum.txt', 'diff tests/sum.expected out/sum.txt', 'make: *** [Makefile:12: test] Error 2'));
    expect(f?.class).not.toBe('test-assertion');
  });
});

describe('a linter whose report names a place is lint', () => {
  it("a pre-commit hook's report of a file and line", () => {
    const f = top(jenkins('+ pre-commit run --all-files', 'forbid print statements.................................................Failed', '- hook id: no-print', '- exit code: 1', '', 'tools/migrate.py:27:    print(rows)'));
    expect([f?.class, f?.confidence]).toEqual(['lint', 'low']);
  });

  it("a GitHub Actions step's own command line (no `bash -x`)", () => {
    const f = top(['##[group]Run npx pre-commit run --all-files', 'npx pre-commit run --all-files', 'shell: /usr/bin/bash -e {0}', '##[endgroup]', 'no tabs in yaml...........................................................Failed', '- hook id: no-tabs', '', 'deploy/values.yaml:9:\treplicas: 3', '##[error]Process completed with exit code 1.'].join('\n'));
    expect(f?.class).toBe('lint');
  });

  it('counter-example: a linter that names no place (it could not load its standard) stays unknown', () => {
    const f = top(jenkins('+ vendor/bin/phpcs --standard=AcmeStandard src', 'ERROR: the "AcmeStandard" coding standard is not installed. The installed coding standards are MySource, PEAR, PSR1, PSR2, PSR12, Squiz and Zend'));
    expect(f?.class).not.toBe('lint');
  });

  it("counter-example: a place in the linter's own installed code (a plugin's) is no report of the project's files", () => {
    const f = top(jenkins('+ npx stylelint "src/**/*.css"', 'zork-order: bad rule options at /ci/app/node_modules/stylelint-zork/index.js:77'));
    expect(f?.class).toBe('unknown');
  });

  it("counter-example: a rules class stands (the linter not installed is missing-tool)", () => {
    const f = top(jenkins('+ shellcheck deploy/run.sh', 'ci.sh: line 4: shellcheck: command not found'));
    expect(f?.class).toBe('missing-tool');
  });
});

describe('the program a command runs', () => {
  it.each([
    ['node_modules/.bin/standard', 'standard'],
    ['npx eslint src', 'eslint'],
    ['python3 -m ruff check .', 'ruff'],
    ['PRE_COMMIT_HOME=/tmp/pc pre-commit run', 'pre-commit'],
    ['/usr/bin/diff -u a b', 'diff'],
  ])('%s -> %s', (command, program) => {
    expect(programOf(command)).toBe(program);
  });
});
