/**
 * "How do I fix it?" names the concrete thing to change, per class (issue 25, Deliver 3), on real
 * failures of the tuning data with their projects as the workspace (`cichat ask --workspace`):
 * each assertion is the step a senior engineer would give, read from the log and the workspace.
 */
import { assignmentAbove, receiverOf } from '../backend/answer/local/workspace.js';
import { choicesAfter } from '../backend/answer/local/remedyFacts.js';
import { missingFields } from '../backend/answer/local/exceptions.js';
import { diagnosticHint } from '../backend/answer/local/diagnostics.js';
import type { WorkspaceSnippet } from '../protocol/types.js';
import { TUNED_CASES } from './helpers/realfail.js';
import { realfailAnswer } from './helpers/realfailAnswer.js';

async function fixOf(id: string): Promise<string> {
  expect(TUNED_CASES).toContain(id);
  return realfailAnswer(id, 'How do I fix it?', true);
}

async function whyOf(id: string): Promise<string> {
  expect(TUNED_CASES).toContain(id);
  return realfailAnswer(id, 'Why did the build fail?', false);
}

describe('an exit status for a headline: what the failing command printed is quoted', () => {
  it('quotes the lines between the command and the exit line, as the log holds them', async () => {
    const why = await whyOf('make-silent-check');
    expect(why).toContain('**What the failing command printed before it ended** [L6-L7] (`make check` [L5-L5]):');
    expect(why).toContain('2026-11-24T17:42:26.4212424Z cc -O2 -o greet greet.c');
  });
  it('says the command printed nothing when only the CI framing follows it', async () => {
    expect(await whyOf('shell-silent-exit')).toContain('`python3 tools/verify_release.py` [L9-L9] printed nothing before the step ended [L10-L14]');
  });
});

describe('the fix names what to change', () => {
  it('compile error: the declaration with the value\'s type; the callee\'s parameters and the module to rebuild', async () => {
    expect(await fixOf('ant-javac-incompatible')).toContain('`double median = Stats.median(ms);`');
    const args = await fixOf('maven-multimodule-method-args');
    expect(args).toContain('declares `taxFor` with the parameters `(BigDecimal amount, String region)`');
    expect(args).toContain('`mvn -pl pricing-api -am compile -o`');
    expect(args).not.toContain('convert the value');
  });
  it('compile error: an unresolved import and a missing name another file declares', async () => {
    expect(await fixOf('esbuild-unresolved-import')).toContain('import it as `./format/money`');
    expect(await fixOf('tsc-dts-cannot-find-name')).toContain("`import type { Duration } from '../duration';`");
  });
  it('link error: a variable defined in a header', async () => {
    const fix = await fixOf('gcc-multiple-definition');
    expect(fix).toContain('`extern int log_level;`');
    expect(fix).toContain('`include/log.h:4`');
    expect(fix).not.toContain('missing symbol');
  });
  it('test error and runtime: the value that was None, the race to guard', async () => {
    expect(await fixOf('unittest-attributeerror-helper')).toContain('`item.category` was `None` when `.name` was read');
    expect(await fixOf('go-test-race')).toContain('`mu.Lock()`');
  });
  it('test error: the receiver inside a call (`int(m.group(1))` reads `.group` of `m`) and the line that set it', async () => {
    const fix = await fixOf('pytest-attributeerror-none');
    expect(fix).toContain('`m` was `None` when `.group` was read. `m` is set on line 7 (`m = _TAG.match(tag)`)');
    expect(fix).not.toContain('`int(m`');
  });
  it('compile error: a literal a named type does not allow is added to the type or replaced, not the declaration changed', async () => {
    const fix = await fixOf('tsc-union-not-assignable');
    expect(fix).toContain("gives `\"staging\"`, which is not one of the values `Env` allows");
    expect(fix).toContain('`Env` is imported from `./types.js` on line 2 of `src/deploy.ts`');
    expect(fix).not.toContain('change the declared type');
  });
  it('dependency: the replace that points nowhere and the path to the module', async () => {
    expect(await fixOf('go-mod-replace-missing-dir')).toContain('which is `../libs/retry` from `service/go.mod`');
  });
  it('credentials, CI script: the variable a credentials file reads, the script and option names the workspace has', async () => {
    expect(await fixOf('npm-publish-e401')).toContain('it reads `NPM_TOKEN` from the environment');
    expect(await fixOf('npm-missing-script')).toContain('run `npm run lint:js`');
    expect(await fixOf('python-argparse-unknown-flag')).toContain('defines `--preview`, and the command passes `--dry`');
  });
  it('memory and time: the line that sets the limit', async () => {
    expect(await fixOf('maven-surefire-oom')).toContain('`pom.xml:26` sets the memory limit (`<argLine>-Xmx48m</argLine>`)');
    expect(await fixOf('go-test-timeout')).toContain('sets the time limit (`go test -timeout 5s ./...`)');
  });
  it('a test or a crash with no place in the code: the code the test exercises, the sources the crashed program was built from', async () => {
    // The test file is the command's argument (octave) or named after the failing test's suite (phpunit), and names its subject.
    const octave = await fixOf('octave-assert-failed');
    expect(octave).toContain('**The code under test** (`src/movavg.m`, lines 1-8, which `tests/test_movavg.m` tests)');
    expect(octave).toContain('lo = max (1, i - n);');
    expect(await fixOf('phpunit-expected-exception')).toContain('(`src/Cart.php`, lines 1-');
    // A signal with no frame: the build line above wrote `./stats` from `src/stats.c`.
    const crash = await fixOf('c-sigfpe-divide');
    expect(crash).toMatch(/\*\*The crashed program's source:\*\* `\.\/stats` was built from `src\/stats\.c` \[L\d+-L\d+\]/);
    expect(crash).toContain('gdb -batch -ex run -ex bt --args ./stats');
  });
});

describe('network and memory: the remedy fits where the evidence points', () => {
  it('a refused connection on the agent itself is a service of the build not listening, not a mirror or an outage', async () => {
    const fix = await fixOf('node-fetch-econnrefused');
    expect(fix).toContain('Nothing listened on `127.0.0.1:47711` on the agent itself');
    expect(fix).not.toContain('settings.xml');
    expect(fix).not.toContain('outage was transient');
    // A remote host keeps the mirror and outage advice.
    expect(await fixOf('pip-index-unreachable')).toContain('transient');
  });
  it('one allocation of GiBs is a computed size to check first; make -j only for make', async () => {
    const fix = await fixOf('cargo-alloc-ulimit');
    expect(fix).toContain('The program asked for `14399600004 bytes` (13.4 GiB) in a single allocation');
    expect(fix).not.toContain('make -j2');
  });
});

describe('a refused name: the choices the tool lists, the command not a pipeline', () => {
  it('lists the presets CMake printed under its refusal; no Jenkins Replay for a GitHub Actions cmake step', async () => {
    const fix = await fixOf('cmake-preset-not-found');
    expect(fix).toMatch(/The tool lists what it has: `debug`, `release` \[L10-L13\]\. Use one of them/);
    expect(fix).toContain('Fix the `cmake` command the CI script runs');
    expect(fix).not.toContain('Replay');
  });
  it('a full disk the message names no file of: the output of the command before it, and the df the step printed', async () => {
    const fix = await fixOf('ld-output-no-space');
    expect(fix).toContain('The command before the error writes `/tmp/b9b/dist/pingd` (its output option) [L10-L10]. On the agent, `df -h /tmp/b9b/dist`');
    expect(fix).toContain("The step's `df` before the error showed `tmpfs 512 0 512 0% /tmp/b9b/dist` [L7-L7]: `/tmp/b9b/dist` is 512 KiB in all, 512 KiB free, 0% used then.");
  });
  it('reads a list only under a heading right after the message, and stops at the CI framing', () => {
    const lines = ['Error: unknown target "x"', 'Valid choices are:', '  - build', '  - test', '##[error]Process completed with exit code 1.'];
    expect(choicesAfter((n) => lines[n - 1] ?? '', 1, 5)).toEqual({ head: 2, last: 4, names: ['build', 'test'], more: false });
    expect(choicesAfter((n) => ['Error: unknown target', 'some output', 'more', 'Available:', 'a'][n - 1] ?? '', 1, 5)).toBeUndefined();
  });
});

describe('what the compiler or the test double names as missing', () => {
  it('a literal without a field its type declares: the field to add (rustc E0063, tsc TS2741)', async () => {
    expect(await fixOf('rustc-missing-struct-field')).toContain('The `RetryPolicy` literal does not set `jitter`, which `RetryPolicy` declares: add `jitter: <value>` to it');
    expect(missingFields("src/a.ts(3,7): error TS2739: Type '{ id: string; }' is missing the following properties from type 'User': name, email")).toContain('lacks `name`, `email`, which `User` requires');
    expect(missingFields('error[E0063]: missing fields `b`, `c` and 2 other fields in initializer of `Cfg`')).toContain('does not set `b`, `c`, which `Cfg` declares');
    expect(missingFields("Type 'string' is not assignable to type 'number'.")).toBeUndefined();
  });
  it("Python's indentation error: line it up with its block, tabs and spaces", async () => {
    expect(await fixOf('pytest-collect-indentation-error')).toMatch(/The line is indented to a depth no enclosing block has: line it up with the block it belongs to .*\[L41-L41\]\./);
  });
  it("unittest.mock's patch of a name the module no longer has: patch the name the code uses now", async () => {
    expect(await fixOf('unittest-mock-patch-renamed')).toContain('The test patches `fx.rates_client.fetch_rates` (`mock.patch` / `patch.object`), and the module `fx.rates_client` has no `fetch_rates`');
  });
  it("vitest's mock without an export the code imports: the factory to extend in the test", async () => {
    expect(await fixOf('vitest-mock-missing-export')).toContain('Add `sendWelcome: vi.fn()` to the object that `vi.mock("../src/mailer.js", ...)` returns in the test file');
  });
});

describe('runtime: the expression and the wait, in the words of the code', () => {
  it('an index past the end names the indexing expression on the line', async () => {
    expect(await fixOf('go-run-panic-index')).toContain('`best[2]` asks for element 3 of `best`, which holds 2: check `len(best)` first');
  });
  it("a hung test's usual waits are its runtime's (JUnit: locks, futures; not promises or WaitGroups)", async () => {
    const fix = await fixOf('gradle-junit4-test-timeout');
    expect(fix).toContain('a lock, latch or `Future` never released or completed');
    expect(fix).not.toContain('promise');
  });
});

describe("a diagnostic's own wording gives its remedy", () => {
  it.each([
    ['go-declared-not-used', 'remove `remaining` (and what computes it)'],
    ['javac-missing-return', 'add a `return` on the path that falls off the end'],
    ['maven-missing-abstract-method', '`LoggingGateway` must implement `refund(String,long)`, which `PaymentGateway` declares'],
    ['tsc-possibly-undefined', 'Handle the undefined case before `tier` is used'],
    ['tsc-no-exported-member', 'The module exports `readConfig`, not `loadConfig`'],
    ['gcc-werror-fallthrough', 'add the `break;` it is missing'],
    ['eslint-eqeqeq', 'Write `===` where the code has `==`'],
    ['jest-coverage-threshold', 'Lines coverage is `33.33%`, under the threshold `90%`'],
    // The compiler's own suggestion after the carets (clippy), cited.
    ['cargo-clippy-manual-range-contains', '`(1024..=65535).contains(&port)`'],
    // Runtime errors whose wording the hints did not read: 'utf-8' (a hyphen), Rust's stack overflow, SIGFPE, ASan, a closed channel.
    ['python-unicode-decode-error', 'The data read is not `utf-8` (byte `0xfc` cannot start a character in it)'],
    ['cargo-run-stack-overflow', 'A function calls itself'],
    ['c-sigfpe-divide', '`Floating point exception` is integer arithmetic'],
    ['clang-asan-overflow', 'past the end of a heap buffer'],
    ['go-run-send-closed-channel', 'only the sending side may close a channel'],
    ['python-too-many-open-files', 'opened without being closed'],
  ])('%s', async (id, step) => {
    expect(await fixOf(id)).toContain(step);
  });
  it.each([
    ['__main__.py: error: unrecognized arguments: -n', 'it comes from the plugin `pytest-xdist`'],
    ['__main__.py: error: unrecognized arguments: --cov=src', '`pytest-cov`'],
    ['Error: spawn ./scripts/v.sh EACCES', '`git update-index --chmod=+x scripts/v.sh`'],
    ["Non-resolvable parent POM for a:b:1: Could not find artifact a:p:pom:1 and 'parent.relativePath' points at wrong local POM @ line 3", 'set `<relativePath>` in the `<parent>`'],
    ['Unknown lifecycle phase "verfiy". You must specify a valid lifecycle phase', 'the nearest lifecycle phase is `verify`'],
    ['java.lang.OutOfMemoryError: Metaspace', '`-XX:MaxMetaspaceSize`'],
    ["org.junit.platform.commons.JUnitException: @BeforeAll method 'void a.T.x()' must be static unless the test class is annotated with @TestInstance(Lifecycle.PER_CLASS).", 'make the method `static`'],
    ["java.time.format.DateTimeParseException: Text '2026-01-30' could not be parsed at index 2", 'is an ISO date (`yyyy-MM-dd`)'],
    ["main.cpp:(.text+0x48): undefined reference to `vtable for CsvExporter'", 'often the destructor `~CsvExporter()`'],
    ['ld.lld: error: undefined symbol: crc32_ieee(unsigned char const*, unsigned long)', 'inside `extern "C" { ... }`'],
  ])('%s', (message, step) => {
    expect(diagnosticHint(message)).toContain(step);
  });
  it('gives nothing for a wording no rule knows', () => {
    expect(diagnosticHint('Unknown lifecycle phase "frobnicate"')).not.toContain('nearest');
    expect(diagnosticHint('ld: error: undefined symbol: crc32_ieee')).toBeUndefined();
    expect(diagnosticHint('error: something new happened')).toBeUndefined();
  });
});

describe('a specific step is not contradicted or preceded by a general one that does not fit', () => {
  it('Metaspace gets no -Xmx step; a pytest plugin flag no "tool version"; a refusal with no host no "that remote"', async () => {
    const metaspace = await fixOf('maven-metaspace-oom');
    expect(metaspace).toContain('`-XX:MaxMetaspaceSize`');
    expect(metaspace).not.toContain('-Xmx');
    const xdist = await fixOf('pytest-xdist-missing');
    expect(xdist).toContain('`pytest-xdist`');
    expect(xdist).not.toContain('tool version');
    expect(await fixOf('node-spawn-eacces-script')).not.toContain('that remote');
  });
  it('a link error: the wording\'s own step replaces the general one (a missing vtable is not a renamed function)', async () => {
    const fix = await fixOf('ld-undefined-vtable');
    expect(fix).toContain('The linker found no vtable');
    expect(fix).not.toContain('Find where');
  });
});

describe('the audit of rounds 9-11: no sentence the evidence does not support', () => {
  it('two declarations that disagree: the source line is one side, not the line to change as the error says', async () => {
    const fix = await fixOf('gcc-conflicting-types');
    expect(fix).toContain('is one of the two declarations the compiler found disagreeing');
    expect(fix).not.toContain('as the error says (`int ring_push');
  });
  it('a version conflict, a refused path and a failed check say what their evidence supports', async () => {
    expect(await fixOf('pip-constraints-pin-conflict')).not.toContain('No release of');
    expect(await fixOf('go-install-gobin-permission')).toContain('`/opt/b10b-tools/bin/relnotes`');
    expect(await fixOf('cargo-test-refcell-already-borrowed')).not.toContain('defines `insert`');
  });
});

describe('receiverOf and assignmentAbove', () => {
  it('takes the identifier chain right before `.name`, never a call that wraps it', () => {
    expect(receiverOf('    return int(m.group(1)), int(m.group(2))', 'group')).toBe('m');
    expect(receiverOf('  name = self.repo.find(uid).name', 'name')).toBe('self.repo.find(uid)');
    expect(receiverOf('  const v = items[0].price * 2;', 'price')).toBe('items[0]');
    expect(receiverOf('  user?.email.trim()', 'email')).toBe('user');
    expect(receiverOf('print(total)', 'name')).toBeUndefined();
  });
  it('finds the nearest assignment above the line within the same function only', () => {
    const s = { path: 'a.py', workspaceId: 'local', startLine: 1, endLine: 8, text: 'm = None\ndef f(tag):\n    m = RX.match(tag)\n    if m == 1:\n        pass\n    return m.group(1)\n' } as WorkspaceSnippet;
    expect(assignmentAbove(s, 6, 'm')).toEqual({ line: 3, code: 'm = RX.match(tag)' });
    expect(assignmentAbove(s, 6, 'tag')).toBeUndefined();
    const js = { ...s, text: 'function g() {\n  const row = rows.get(id);\n  return row.name;\n}\n' };
    expect(assignmentAbove(js, 3, 'row')).toEqual({ line: 2, code: 'const row = rows.get(id);' });
  });
});
