import type { Finding } from '../../../protocol/types.js';
import type { ChatContext } from '../engine.js';
import { meaningOf, messageSpan, reproduceCommand, toolShown, traceSentence } from './findingText.js';
import { remedyOf } from './remedies.js';
import { logFacts } from './remedyFacts.js';

const finding = (over: Partial<Finding>): Finding => ({ class: 'test-assertion', message: 'x', message_line: 1, confidence: 'high', evidence: [1], ...over });

describe('reproduceCommand: the failing test alone, per runner', () => {
  it('minitest, from the test line and its place', () => {
    const f = finding({ tool: 'minitest', test: { name: 'TestKramdown#test_highlighter [/ws/jekyll/test/test_kramdown.rb:106]', log_line: 2 }, location: { file: '/ws/jekyll/test/test_kramdown.rb', line: 106, log_line: 2 } });
    expect(reproduceCommand(f, 'bundle exec rake test')).toBe("ruby -Itest test/test_kramdown.rb -n '/test_highlighter/'");
  });
  it('rspec, from the place in its summary', () => {
    expect(reproduceCommand(finding({ tool: 'rspec', test: { name: 'Mutex works (./spec/components/mutex_spec.rb:29)', log_line: 1 } }), undefined)).toBe('bundle exec rspec ./spec/components/mutex_spec.rb:29');
    // The example's description (rspec's summary: `rspec ./spec/invoice_spec.rb:27 # Invoice#total adds the tax`), in its spec file.
    const described = finding({ tool: 'rspec', test: { name: "Invoice#total adds the tax to the net amount", log_line: 1 }, location: { file: './spec/invoice_spec.rb', line: 29, log_line: 1 } });
    expect(reproduceCommand(described, undefined)).toBe("bundle exec rspec spec/invoice_spec.rb -e 'Invoice#total adds the tax to the net amount'");
    expect(reproduceCommand({ ...described, location: { file: 'app/models/invoice.rb', line: 3, log_line: 1 } }, undefined)).toBe("bundle exec rspec -e 'Invoice#total adds the tax to the net amount'");
  });
  it('phpunit and node --test', () => {
    expect(reproduceCommand(finding({ tool: 'phpunit', test: { name: 'Tests\\CartTest::testTotal', log_line: 1 } }), undefined)).toBe("vendor/bin/phpunit --filter 'testTotal'");
    expect(reproduceCommand(finding({ tool: 'tap', test: { name: "it's sorted", log_line: 1 } }), 'node --test test/')).toBe("node --test --test-name-pattern 'it'\\''s sorted'");
  });
  it('pytest: a node id or a test file (a collection error) as it is, a bare name with -k', () => {
    expect(reproduceCommand(finding({ tool: 'pytest', test: { name: 'tests/test_a.py::test_total', log_line: 1 } }), undefined)).toBe('python -m pytest tests/test_a.py::test_total');
    expect(reproduceCommand(finding({ class: 'test-error', tool: 'pytest', test: { name: 'tests/test_tools.py', log_line: 1 } }), undefined)).toBe('python -m pytest tests/test_tools.py');
    expect(reproduceCommand(finding({ tool: 'pytest', test: { name: 'test_total', log_line: 1 } }), undefined)).toBe('python -m pytest -k test_total');
  });
  it('ctest, by the exact name', () => {
    expect(reproduceCommand(finding({ class: 'timeout-aborted', tool: 'ctest', test: { name: 'backoff_schedule', log_line: 1 } }), undefined)).toBe("ctest -R '^backoff_schedule$' --output-on-failure");
  });
  it('scoped by the failing file: the Maven module, the Go package, the jest file; a nested JUnit class quoted', () => {
    const compile = finding({ class: 'compile-error', tool: 'javac', location: { file: '/agent/ws/pricing-api/src/main/java/a/Q.java', line: 12, log_line: 3 } });
    expect(reproduceCommand(compile, 'mvn -B -o -ntp package', 'pricing-api/src/main/java/a/Q.java')).toBe('mvn -pl pricing-api -am compile -o');
    expect(reproduceCommand(finding({ tool: 'surefire', test: { name: 'com.acme.OrderLineTest$Validation.rejectsZero', log_line: 1 } }), undefined)).toBe("mvn test -Dtest='OrderLineTest$Validation#rejectsZero'");
    expect(reproduceCommand(finding({ tool: 'go test', test: { name: 'TestRun/small', log_line: 1 } }), undefined, 'internal/pool/pool_test.go')).toBe("go test -run '^TestRun$' ./internal/pool");
    expect(reproduceCommand(finding({ tool: 'jest', test: { name: 'queue › drains', log_line: 1 } }), undefined, 'lib/queue.test.js')).toBe("npx jest lib/queue.test.js -t 'drains'");
    // A suite that failed to run is named by its file: the file alone, not `-t FILE` (which matches no test).
    expect(reproduceCommand(finding({ class: 'test-error', tool: 'jest', test: { name: 'test/invoice.test.js', log_line: 1 } }), undefined, 'src/invoice.js')).toBe('npx jest test/invoice.test.js');
  });
  it('a shell script error: the script checked (syntax) or traced, with the shell that printed it', () => {
    expect(reproduceCommand(finding({ class: 'ci-script', tool: 'sh', message: 'ci.sh: line 7: syntax error near unexpected token `fi\'' }), 'CHANGED=1', 'ci.sh')).toBe('bash -n ci.sh');
    expect(reproduceCommand(finding({ class: 'ci-script', tool: 'bash', message: 'ci.sh: line 2: DEPLOY_ENV: unbound variable' }), undefined, 'ci.sh')).toBe('bash -x ci.sh');
  });
  it('falls back to the command the CI ran, never to the shell that ran the script', () => {
    expect(reproduceCommand(finding({ class: 'network' }), 'curl -fsS http://x')).toBe('curl -fsS http://x');
    expect(reproduceCommand(finding({ class: 'network' }), '/bin/bash -xe ci.sh')).toBeUndefined();
  });
});

describe('remedyOf: a shell script stopped by set -u', () => {
  it('names the variable and how to set or default it, not a syntax check', () => {
    const f = finding({ class: 'ci-script', tool: 'bash', message: 'ci.sh: line 2: DEPLOY_ENV: unbound variable', location: { file: 'ci.sh', line: 2, log_line: 10 } });
    const text = remedyOf(f).steps.join(' ');
    expect(text).toContain('`$DEPLOY_ENV`');
    expect(text).toContain('`${DEPLOY_ENV:-<default>}`');
    expect(text).not.toContain('bash -n');
  });
  it('keeps the syntax check for a syntax error only', () => {
    const syntax = remedyOf(finding({ class: 'ci-script', tool: 'bash', message: "ci.sh: line 7: syntax error near unexpected token `fi'" })).steps.join(' ');
    expect(syntax).toContain('bash -n');
    const other = remedyOf(finding({ class: 'ci-script', tool: 'sh', message: 'ci.sh: line 3: cd: build: No such file or directory' })).steps.join(' ');
    expect(other).not.toContain('bash -n');
  });
});

describe('remedyOf: a refused connection', () => {
  it('takes the address from the message when the finding names no host', () => {
    const text = remedyOf(finding({ class: 'network', message: 'Acquire connection error: Error: connect ECONNREFUSED 127.0.0.1:6432' })).steps.join(' ');
    expect(text).toContain('Nothing listened on `127.0.0.1:6432` on the agent itself');
    expect(text).toContain('`nc -vz 127.0.0.1 6432`');
  });
  it('never prints a placeholder for a host the log does not name', () => {
    const text = remedyOf(finding({ class: 'network', message: 'Error: Connection refused' })).steps.join(' ');
    expect(text).toContain('the host and port the step used (the log does not name them here)');
    expect(text).not.toContain('<host>');
  });
});

describe('remedyOf: the remedies added after round 2 (issue 25)', () => {
  const text = (over: Partial<Finding>): string => remedyOf(finding(over)).steps.join(' ');
  it('bash -e on `(( n++ ))`: the += form', () => {
    expect(text({ class: 'ci-script', tool: 'bash', message: '(( skipped++ ))' })).toContain('(( skipped+=1 ))');
  });
  it('npm run of a script package.json lacks', () => {
    expect(text({ class: 'ci-script', tool: 'npm', symbol: 'lint', message: 'npm error Missing script: "lint"' })).toMatch(/package\.json.*no `lint` script/);
  });
  it('git naming a revision the checkout lacks: no guess about why', () => {
    const t = text({ class: 'ci-script', tool: 'git', symbol: 'v2.4.0..HEAD', message: "fatal: ambiguous argument 'v2.4.0..HEAD': unknown revision or path not in the working tree." });
    expect(t).toContain('git tag -l');
    expect(t).not.toMatch(/shallow/);
  });
  it("Go's standard-library package too new for the toolchain: the release that added it and the agent's", () => {
    const t = text({ class: 'missing-tool', tool: 'go', symbol: 'slices', message: 'releases/latest.go:4:8: package slices is not in GOROOT (/usr/lib/go-1.19/src/slices)' });
    expect(t).toContain('since Go 1.21');
    expect(t).toContain('go1.19');
  });
  it("javac's release not supported: the JDK that release needs", () => {
    expect(text({ class: 'missing-tool', tool: 'java', message: 'Error: release version 21 not supported' })).toContain('JDK 21');
  });
  it("kotlinc's nullable type mismatch: handle the null", () => {
    expect(text({ class: 'compile-error', tool: 'kotlinc', message: 'src/Mailer.kt:5:26: error: type mismatch: inferred type is User? but User was expected' })).toMatch(/can be null/);
  });
});

describe('logFacts: the log lines a remedy rests on', () => {
  const ctxOf = (log: string): ChatContext => ({ ciContext: { buildDetails: { consoleLog: log } }, logLineCount: log.replace(/\n$/, '').split('\n').length } as unknown as ChatContext);
  it("the agent's tool version before a wrong-version failure", () => {
    const log = '+ go version\ngo version go1.19.8 linux/amd64\n+ go test ./...\nreleases/latest.go:4:8: package slices is not in GOROOT (/usr/lib/go-1.19/src/slices)';
    expect(logFacts(ctxOf(log), finding({ class: 'missing-tool', tool: 'go', message: 'x', message_line: 4 }))[0]).toMatchObject({ line: 2, text: expect.stringContaining('go1.19.8') as string });
  });
  it("npm's peer conflict and pip's conflict lines", () => {
    const npm = 'npm error code ERESOLVE\nnpm error ERESOLVE unable to resolve dependency tree\nnpm error Found: react@17.0.2\nnpm error Could not resolve dependency:\nnpm error peer react@"^18.3.1" from react-dom@18.3.1';
    const facts = logFacts(ctxOf(npm), finding({ class: 'dependency-resolution', tool: 'npm', code: 'ERESOLVE', message: 'npm error ERESOLVE unable to resolve dependency tree', message_line: 2 })).map((x) => x.text).join(' ');
    expect(facts).toContain('Found: react@17.0.2');
    expect(facts).toContain('peer react@"^18.3.1" from react-dom@18.3.1');
    const pip = 'ERROR: Cannot install -r requirements.txt (line 1) and b==2.49.0 because these package versions have conflicting dependencies.\n\nThe conflict is caused by:\n    The user requested b==2.49.0\n    a 2.13.5 depends on b==2.46.5\n';
    expect(logFacts(ctxOf(pip), finding({ class: 'dependency-resolution', tool: 'pip', message: 'ERROR: Cannot install -r requirements.txt (line 1) and b==2.49.0 because these package versions have conflicting dependencies.', message_line: 1 })).map((x) => x.text).join(' ')).toContain('a 2.13.5 depends on b==2.46.5');
  });
});

describe('logFacts: the user a refused step ran as', () => {
  it('from setpriv or id, cited; nothing for a publickey refusal', () => {
    const log = ['+ setpriv --reuid=nobody --regid=nogroup python3 export.py', 'Traceback (most recent call last):', "PermissionError: [Errno 13] Permission denied: '/srv/cache/out.json'"].join('\n');
    const ctx = { ciContext: { buildDetails: { consoleLog: `${log}\n` } }, logLineCount: 3 } as unknown as ChatContext;
    const f = finding({ class: 'permission-credentials', message: "PermissionError: [Errno 13] Permission denied: '/srv/cache/out.json'", message_line: 3 });
    expect(logFacts(ctx, f).map((x) => x.text)).toEqual(['The step ran as `nobody` [L1-L1]: that user needs access to `/srv/cache` (`ls -ld /srv/cache` shows its owner and mode; `chown -R nobody /srv/cache` gives it to that user), or the step must write somewhere that user owns.']);
    expect(logFacts(ctx, { ...f, message: 'git@host: Permission denied (publickey).' })).toEqual([]);
  });
});

describe('logFacts: the values a runner printed for a failed check the finding holds none of', () => {
  it('TAP got/expected, both cited; none when the finding has them', () => {
    const log = ["#   Failed test 'pre-release first'", '#   at t/compare.t line 10.', "#          got: '1'", "#     expected: '-1'"].join('\n');
    const ctx = { ciContext: { buildDetails: { consoleLog: `${log}\n` } }, logLineCount: 4 } as unknown as ChatContext;
    const f = finding({ class: 'test-assertion', tool: 'tap', message: "Failed test 'pre-release first'", message_line: 1 });
    expect(logFacts(ctx, f)).toEqual([{ text: "The runner printed the values: expected `'-1'` [L4-L4], got `'1'` [L3-L3]. If `'-1'` is the intended result, fix the code under test; if `'1'` is now right, update the test.", line: 4, also: 3 }]);
    expect(logFacts(ctx, { ...f, expected: "'-1'", actual: "'1'" })).toEqual([]);
  });
});

describe('toolShown: the prose names a tool by its name only when the log shows it', () => {
  const ctxOf = (log: string): ChatContext => ({ ciContext: { buildDetails: { consoleLog: log } }, logLineCount: log.split('\n').length } as unknown as ChatContext);
  const lint = finding({ class: 'lint', tool: 'flake8', code: 'E501', message: 'ingest/rows.py:12:101: E501 line too long (121 > 100 characters)' });
  it('drops a tool a rule guessed from the report shape', () => {
    const shown = toolShown(lint, ctxOf('+ pycodestyle --max-line-length=100 ingest\ningest/rows.py:12:101: E501 line too long (121 > 100 characters)'));
    expect(shown.tool).toBeUndefined();
    expect(meaningOf(shown)).not.toContain('flake8');
    expect(meaningOf(shown)).toContain('The tool reported a finding');
  });
  it('keeps a tool the log names, and one named by a description', () => {
    expect(toolShown(lint, ctxOf('+ flake8 ingest\ningest/rows.py:12:101: E501 line too long')).tool).toBe('flake8');
    expect(toolShown(finding({ class: 'compile-error', tool: 'gcc' }), ctxOf('+ cc -c a.c\na.c:1:1: error: x')).tool).toBe('gcc');
  });
});

describe('remedyOf: each quote next to a citation is on the cited lines (helper ta)', () => {
  const lines = (...text: string[]) => (n: number): string | undefined => text[n - 1];
  it('a wrapped message is cited over all its lines; a symbol printed below it, up to that line', () => {
    const text = lines('src/Billing.java:9: error: cannot find symbol', '        Ledger.post(entry);', '  symbol:   variable Ledger', '  location: class Billing');
    const f = finding({ class: 'compile-error', tool: 'javac', symbol: 'Ledger', message: 'src/Billing.java:9: error: cannot find symbol', evidence: [1, 3], location: { file: 'src/Billing.java', line: 9, log_line: 1 } });
    expect(remedyOf(f, text).steps[0]).toContain('about `Ledger` [L1-L3]');
    const wrapped = lines('Error: This expression has type float but an expression was expected of type', '         int');
    const g = finding({ class: 'compile-error', tool: 'ocaml', message: 'Error: This expression has type float but an expression was expected of type int', evidence: [1] });
    expect(remedyOf(g, wrapped).steps[0]).toMatch(/expected of type int` \[L1-L2\]/);
  });
  it('compared values at the lines that print them; a lint rule never right before the citation', () => {
    const text = lines('Failure/Error: expect(total).to eq(7.5)', '  expected: 7.5', '       got: 7.25');
    const f = finding({ class: 'test-assertion', tool: 'rspec', expected: '7.5', actual: '7.25', message: 'Failure/Error: expect(total).to eq(7.5)' });
    expect(remedyOf(f, text).steps[0]).toContain('the code gave `7.25` [L1-L3]');
    const lint = finding({ class: 'lint', tool: 'clippy', code: 'clippy::needless_range_loop', message: 'error: the loop variable `i` is only used to index `xs`', location: { file: 'src/sum.rs', line: 4, log_line: 2 } });
    expect(remedyOf(lint, lines('error: the loop variable `i` is only used to index `xs`', '  --> src/sum.rs:4:14')).steps.join(' ')).not.toMatch(/`clippy::needless_range_loop` \[L/);
  });
});

describe('messageSpan: the lines a wrapped message spans', () => {
  it("a CI's timestamp on the continuation line is no part of the message (helper t9)", () => {
    const log = ['2026-01-02T03:04:05.1234567Z   file cannot create directory: /opt/geo.  Maybe need', '2026-01-02T03:04:05.2234567Z   administrative privileges.'];
    const f = finding({ class: 'permission-credentials', message: 'file cannot create directory: /opt/geo.  Maybe need administrative privileges.', message_line: 1 });
    expect(messageSpan(f, (n) => log[n - 1])).toEqual({ start_line: 1, end_line: 2 });
  });
});

describe('logFacts: values a runner prints in other layouts', () => {
  const ctxOf = (log: string): ChatContext => ({ ciContext: { buildDetails: { consoleLog: log } }, logLineCount: log.split('\n').length }) as unknown as ChatContext;
  it("Rust's assert_eq! (left/right), go's Example (got:/want: over the output), node's actual/expected under its diff", () => {
    const rust = ctxOf(['assertion `left == right` failed', '  left: Some(2700)', ' right: Some(45)'].join('\n'));
    expect(logFacts(rust, finding({ class: 'test-assertion', message: 'assertion `left == right` failed', message_line: 1 }))[0]?.text).toContain('`Some(2700)` [L2-L2] (left) with `Some(45)` [L3-L3] (right)');
    const go = ctxOf(['--- FAIL: ExampleFormat (0.00s)', 'got:', 'EUR 1,234,567.89', 'want:', 'EUR 1234567.89'].join('\n'));
    expect(logFacts(go, finding({ class: 'test-assertion', message: '--- FAIL: ExampleFormat (0.00s)', message_line: 1 }))[0]?.text).toContain('expected `EUR 1234567.89` [L5-L5], got `EUR 1,234,567.89` [L3-L3]');
    const node = ctxOf(['AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:', ...Array<string>(14).fill('  x'), "    actual: '1h 5m',", "    expected: '1hr 5m',"].join('\n'));
    expect(logFacts(node, finding({ class: 'test-assertion', message: 'Expected values to be strictly equal:', message_line: 1 }))[0]?.text).toContain("expected `'1hr 5m'` [L17-L17], got `'1h 5m'` [L16-L16]");
  });
});

describe("logFacts: go's got:/want: over a column layout", () => {
  it('is not quoted (inline code would collapse its spaces)', () => {
    const ctx = { ciContext: { buildDetails: { consoleLog: ['--- FAIL: TestRender (0.00s)', '     got:', '    alice    |    42', '    want:', '    alice       42'].join('\n') } }, logLineCount: 5 } as unknown as ChatContext;
    expect(logFacts(ctx, finding({ class: 'test-assertion', message: '--- FAIL: TestRender (0.00s)', message_line: 1 }))).toEqual([]);
  });
});

describe('traceSentence: a failed check is not "raised" by the assertion library', () => {
  const frames = { raise: { file: 'org/junit/Assert.java', line: 89, function: 'org.junit.Assert.fail', log_line: 3 }, project: { file: 'eu/acme/VatTest.java', line: 43, function: 'eu.acme.VatTest.vat', log_line: 5 } };
  it('names no library frame for a check, and the project frame only when the check is elsewhere', () => {
    const at = (line: number) => finding({ location: { file: 'eu/acme/VatTest.java', line, log_line: 5, frames } });
    expect(traceSentence(at(43))).toBeUndefined();
    expect(traceSentence(at(12))).toBe("The deepest frame in the project's own code is `eu/acme/VatTest.java:43` (in `eu.acme.VatTest.vat`) [L5-L5].");
    expect(traceSentence({ ...at(43), class: 'test-error' })).toContain('It was raised at `org/junit/Assert.java:89`');
  });
});

describe('meaningOf: a check read from the failing command (core/finding/purpose.ts)', () => {
  it('names the comparison and says the outputs differ, not that an assertion failed (the log shows none)', () => {
    const lines = ['+ make test', './calc < tests/sum.in > out/sum.txt', 'diff tests/sum.expected out/sum.txt', '3c3', '< total 42', '---', '> total 41', 'make: *** [Makefile:12: test] Error 1'];
    const f = finding({ message: lines[7] as string, message_line: 8, confidence: 'medium', evidence: [8, 3], test: { name: 'test', log_line: 8 } });
    const text = meaningOf(f, (n) => lines[n - 1]);
    expect(text).toContain('compared output with `diff tests/sum.expected out/sum.txt` [L3-L3], and the two differ');
    expect(text).not.toMatch(/check did not hold|assertion/);
  });

  it('a test class no rule established, whose lines show no check, says the test failed and not how (no assertion claimed)', () => {
    const lines = ['ctest --output-on-failure', 'tests/io_test.c:41: open_many failed: Too many open files', '1/3 Test #2: io_test .....***Failed    0.01 sec'];
    const low = finding({ class: 'test-assertion', confidence: 'low', message: lines[1] as string, message_line: 2, evidence: [2, 3], test: { name: 'io_test', log_line: 3 } });
    const text = meaningOf(low, (n) => lines[n - 1]);
    expect(text).toContain('failed [L2-L2]; its lines do not show whether a check failed or the code stopped on an error');
    expect(text).not.toMatch(/its check did not hold|assertion/);
    // the same finding whose lines show the check keeps the check's words; so does a rule's (high) one
    const shown = ['ctest --output-on-failure', 'tests/io_test.c:41: expected 3 files, got 4', '1/3 Test #2: io_test .....***Failed    0.01 sec'];
    expect(meaningOf({ ...low, message: shown[1] as string }, (n) => shown[n - 1])).toContain('its check did not hold');
    expect(meaningOf({ ...low, confidence: 'high' }, (n) => lines[n - 1])).toContain('its check did not hold');
  });

  it('a rules assertion without a comparison among its evidence keeps its words', () => {
    expect(meaningOf(finding({ message: 'AssertionError: 3 != 4', evidence: [1] }), () => 'AssertionError: 3 != 4')).toContain('its check did not hold');
  });
});

describe('a place a diff implies: its hunk header is cited, not the file header', () => {
  const log = [
    '2026-11-29T15:20:28.58Z + terraform fmt -check -diff -recursive',
    '2026-11-29T15:20:28.75Z --- old/modules/main.tf',
    '2026-11-29T15:20:28.76Z +++ new/modules/main.tf',
    '2026-11-29T15:20:28.77Z @@ -1,16 +1,16 @@',
    '2026-11-29T15:20:28.81Z  variable "x" {',
    '2026-11-29T15:20:28.82Z -  type = number',
  ];
  const lineText = (n: number): string | undefined => log[n - 1];
  const lint = (line: number): Finding => finding({ class: 'lint', tool: 'terraform', message: '--- old/modules/main.tf', message_line: 2, evidence: [2], location: { file: 'old/modules/main.tf', line, log_line: 2 } });
  it('the line inside the hunk: the file at the message, the line at the hunk', () => {
    expect(meaningOf(lint(2), lineText)).toContain('at `old/modules/main.tf:2` [L4-L4] [L2-L2]');
  });
  it('a line the hunk does not hold, or no hunk below: the logged line, said once', () => {
    expect(meaningOf(lint(40), lineText)).toContain('at `old/modules/main.tf:40` [L2-L2], and');
    expect(meaningOf(lint(2), (n) => (n === 4 ? '' : lineText(n)))).toContain('at `old/modules/main.tf:2` [L2-L2], and');
  });
});

describe('meaningOf: a full disk seen only as the linker\'s bus error', () => {
  it('says what the log shows (signal 7) and why it points at space, not that a write reported a full disk', () => {
    const line = 'collect2: fatal error: ld terminated with signal 7 [Bus error]';
    const f = finding({ class: 'disk-full', tool: 'ld', exception: 'SIGBUS', message: line, message_line: 1, confidence: 'medium' });
    const text = meaningOf(f, () => line);
    expect(text).toContain('The linker was killed by a bus error (signal 7) [L1-L1]');
    expect(text).toContain('no room left');
    expect(text).not.toContain('because the disk was full');
    // A write that said so keeps its sentence.
    expect(meaningOf(finding({ class: 'disk-full', message: 'write: No space left on device' }), () => 'write: No space left on device')).toContain('A write failed because the disk was full');
  });
});
