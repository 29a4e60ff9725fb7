import { readFileSync } from 'node:fs';
import path from 'node:path';
import { analyze } from '../../test/helpers/rulesReading.js';
import { cleanLines } from '../log/clean.js';
import { findingOf } from './index.js';
import type { Finding } from '../../protocol/types.js';

const LOGS = path.join(process.cwd(), 'test', 'fixtures', 'logs');
const top = (text: string): Finding => {
  const found = analyze(text)[0]?.finding;
  if (!found) throw new Error('no finding');
  return found;
};
const fixture = (name: string): Finding => top(readFileSync(path.join(LOGS, name), 'utf8'));
const lineOf = (text: string, n: number): string => (cleanLines(text)[n - 1] ?? '').trim();

describe('the finding of real logs made on this machine (test/fixtures/logs)', () => {
  it.each([
    ['javac.log', 'compile-error', 'javac', 'src/com/acme/Invoice.java', 11],
    ['maven-multimodule.log', 'compile-error', 'javac', '/tmp/gen/mm/shop-orders/src/main/java/com/example/shop/Order.java', 17],
    ['tsc.log', 'compile-error', 'tsc', 'src/PaymentForm.tsx', 11],
    ['cargo.log', 'compile-error', 'rustc', 'src/main.rs', 10],
    ['gcc-make.log', 'compile-error', 'gcc', 'src/parse.c', 10],
    ['go-build.log', 'compile-error', 'go', './broken.go', 5],
    ['gradle-kotlin.log', 'compile-error', 'kotlinc', '/var/jenkins_home/workspace/billing/src/main/kotlin/com/acme/billing/InvoiceController.kt', 57],
    ['gcc-link.log', 'link-error', 'ld', 'main.c', undefined],
    ['pytest.log', 'test-assertion', 'pytest', 'tests/test_discount.py', 19],
    ['jest.log', 'test-assertion', 'jest', 'price.test.js', 11],
    ['vitest.log', 'test-assertion', 'vitest', 'src/cart.test.js', 10],
    ['go-test.log', 'test-assertion', 'go test', 'stock_test.go', 11],
    ['cargo-test.log', 'test-assertion', 'cargo test', 'src/main.rs', 26],
    ['python-script.log', 'runtime-exception', 'python', '/tmp/gen/pyscript/deploy.py', 13],
    ['jq-then-oom.log', 'out-of-memory', 'java', 'Report.java', 8],
    ['eslint.log', 'lint', 'eslint', '/tmp/gen/es/src/cart.js', 2],
    ['jenkins-workflowscript.log', 'ci-script', 'jenkins', 'WorkflowScript', 14],
    ['maven-offline-plugin.log', 'dependency-resolution', 'maven', undefined, undefined],
    ['npm-install.log', 'dependency-resolution', 'npm', undefined, undefined],
    ['cmake.log', 'dependency-resolution', 'cmake', 'CMakeLists.txt', 4],
  ])('%s: %s by %s at %s:%s', (log, cls, tool, file, line) => {
    const f = fixture(log);
    expect(f.class).toBe(cls);
    expect(f.tool).toBe(tool);
    expect(f.location?.file).toBe(file);
    expect(f.location?.line).toBe(line);
    expect(f.evidence[0]).toBe(f.message_line);
    // The message is the line that carries it, not a framing line.
    const text = readFileSync(path.join(LOGS, log), 'utf8');
    expect(lineOf(text, f.message_line)).toContain(f.message.slice(0, 40).replace(/…$/, ''));
  });

  it('quotes the line with the error, never a framing line', () => {
    expect(fixture('maven-multimodule.log').message).toMatch(/cannot find symbol/);
    expect(fixture('pytest.log').message).toBe('assert 90 == 89.1');
    expect(fixture('jenkins-workflowscript.log').message).toMatch(/^WorkflowScript: 14: expecting/);
    expect(fixture('npm-install.log').message).toMatch(/^npm error request to https:\/\/registry\.npmjs\.org\/left-pad-not-a-real-pkg-cichat failed/);
    expect(fixture('cmake.log').message).toMatch(/^Could NOT find Protobuf/);
  });

  it('reads the details the log states, and only those', () => {
    expect(fixture('tsc.log').code).toBe('TS2322');
    expect(fixture('cargo.log').code).toBe('E0308');
    expect(fixture('maven-multimodule.log').symbol).toBe('toMoney');
    expect(fixture('gcc-link.log').symbol).toBe('checksum');
    expect(fixture('jest.log')).toMatchObject({ expected: '120', actual: '20', test: { name: 'priceWithTax › adds 20% VAT' } });
    expect(fixture('vitest.log')).toMatchObject({ expected: '+0', actual: '-5' });
    // pytest's `assert 90 == 89.1` labels neither side: no expected/actual is claimed.
    expect(fixture('pytest.log').expected).toBeUndefined();
    expect(fixture('pytest.log').actual).toBeUndefined();
    expect(fixture('pytest.log').test?.name).toBe('tests/test_discount.py::test_rounding');
    expect(fixture('python-script.log').exception).toBe('KeyError');
    expect(fixture('maven-offline-plugin.log').dependency).toBe('org.apache.maven.plugins:maven-resources-plugin:2.6');
    expect(fixture('cargo-test.log').test?.name).toBe('tests::empty_is_zero');
  });

  it('says unknown when no class rule holds', () => {
    const f = fixture('short-first-line.log');
    expect(f.class).toBe('unknown');
    expect(f.confidence).toBe('low');
    expect(f.message).toMatch(/No such file or directory/);
  });
});

/** Small logs in the shapes the tools print, for the classes the fixtures above lack. */
describe('each class by its own evidence', () => {
  const cases: [string, string, Partial<Finding>][] = [
    ['disk', '+ tar xzf cache.tgz\ntar: node_modules/x: Cannot write: No space left on device\nERROR: script returned exit code 2\n', { class: 'disk-full' }],
    [
      'network (pip retries, then gives up)',
      "+ pip install requests\nWARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, status=None)) after connection broken by 'NewConnectionError('<pip._vendor.urllib3.connection.HTTPSConnection object at 0x7f>: Failed to establish a new connection: [Errno -3] Temporary failure in name resolution')': /simple/requests/\nERROR: Could not find a version that satisfies the requirement requests (from versions: none)\nERROR: No matching distribution found for requests\n",
      // The connection error is the cause (the message); the resolver's verdict names what it could not fetch.
      { class: 'network', tool: 'pip', dependency: 'requests', message: 'Failed to establish a new connection: [Errno -3] Temporary failure in name resolution' },
    ],
    ['permission', '+ ./deploy.sh\n/tmp/jenkins123.sh: 3: ./deploy.sh: Permission denied\nERROR: script returned exit code 126\n', { class: 'permission-credentials' }],
    ['missing tool', '+ jq .version package.json\n/tmp/jenkins5.sh: 2: jq: not found\nERROR: script returned exit code 127\n', { class: 'missing-tool', symbol: 'jq' }],
    ['timeout', 'Timeout set to expire in 10 min\n[Pipeline] sh\n+ ./integration.sh\nCancelling nested steps due to timeout\nSending interrupt signal to process\nERROR: script returned exit code 143\nFinished: ABORTED\n', { class: 'timeout-aborted' }],
    ['agent lost', '[Pipeline] sh\n+ make test\nCannot contact agent-7: java.lang.InterruptedException\nhudson.remoting.ChannelClosedException: Channel "hudson.remoting.Channel@1:agent-7": Remote call on agent-7 failed. The channel is closing down or has closed down\nFinished: FAILURE\n', { class: 'agent-lost' }],
    [
      'Go panic',
      "+ ./server\npanic: runtime error: integer divide by zero\n\ngoroutine 1 [running]:\nmain.divide(...)\n\t/ws/app/calc.go:12\nmain.main()\n\t/ws/app/main.go:8 +0x1d\nexit status 2\n",
      { class: 'runtime-exception', exception: 'panic', message: 'panic: runtime error: integer divide by zero' },
    ],
    [
      'JUnit NPE in a test',
      "[INFO] Running com.acme.OrderTest\n[ERROR] Tests run: 2, Failures: 0, Errors: 1, Skipped: 0, Time elapsed: 0.05 s <<< FAILURE! - in com.acme.OrderTest\n[ERROR] total(com.acme.OrderTest)  Time elapsed: 0.01 s  <<< ERROR!\njava.lang.NullPointerException: Cannot invoke \"String.length()\" because \"name\" is null\n\tat com.acme.Order.total(Order.java:21)\n\tat com.acme.OrderTest.total(OrderTest.java:14)\n\tat java.base/jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native Method)\n",
      { class: 'test-error', exception: 'NullPointerException', test: { name: 'com.acme.OrderTest.total', log_line: 3 } },
    ],
    [
      'jest TypeError in the code under test',
      "FAIL src/cart.test.js\n  ● cart › totals\n\n    TypeError: items.reduce is not a function\n\n      3 | export function total(items) {\n    > 4 |   return items.reduce((a, b) => a + b, 0);\n\n      at total (src/cart.js:4:16)\n      at Object.<anonymous> (src/cart.test.js:9:12)\n",
      { class: 'test-error', exception: 'TypeError' },
    ],
    ['shell syntax', '+ ./release.sh\n./release.sh: line 12: syntax error near unexpected token `fi\'\nERROR: script returned exit code 2\n', { class: 'ci-script', tool: 'sh' }],
    ['curl timeout', '+ curl -fsS https://artifacts.example.com/app.tgz -o app.tgz\ncurl: (28) Operation timed out after 30001 milliseconds with 0 bytes received\nERROR: script returned exit code 28\n', { class: 'network', host: 'artifacts.example.com' }],
    ['Go replace directory missing', "+ go build ./...\ncmd/poller/main.go:8:2: example.com/retry@v0.0.0: replacement directory ../retry does not exist\nERROR: script returned exit code 1\n", { class: 'dependency-resolution', tool: 'go', dependency: 'example.com/retry@v0.0.0' }],
    ['C++ bad_alloc', "+ ./indexer\nterminate called after throwing an instance of 'std::bad_alloc'\n  what():  std::bad_alloc\nAborted (core dumped)\n", { class: 'out-of-memory', exception: 'std::bad_alloc' }],
    ['a process the kernel killed', '+ ./indexer --all\n./run.sh: line 3:  4242 Killed                  ./indexer --all\nERROR: script returned exit code 137\nFinished: FAILURE\n', { class: 'out-of-memory', exception: 'killed' }],
    ['node heap', '<--- Last few GCs --->\nFATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\n', { class: 'out-of-memory', exception: 'JavaScript heap out of memory' }],
    ['pytest-timeout', '________________________________ test_sync ________________________________\n\n    def test_sync():\n>       wait_for_peer()\nE       Failed: Timeout >2.0s\n\ntests/test_sync.py:9: Failed\n', { class: 'timeout-aborted' }],
    ['make without a rule', "+ make\nmake: *** No rule to make target 'src/stats.c', needed by 'stats.o'.  Stop.\n", { class: 'compile-error', tool: 'make', symbol: 'src/stats.c' }],
    ['checkstyle', '[ERROR] Failed to execute goal org.apache.maven.plugins:maven-checkstyle-plugin:3.3.1:check (default) on project api: You have 2 Checkstyle violations. -> [Help 1]\n', { class: 'lint', tool: 'checkstyle' }],
    ['eslint parsing error', '/ws/src/cart.js\n  3:10  error  Parsing error: Unexpected token )\n\n✖ 1 problem (1 error, 0 warnings)\n', { class: 'lint', tool: 'eslint', location: { file: '/ws/src/cart.js', line: 3, column: 10, log_line: 2 } }],
    ['Go deadlock', '+ go run .\nfatal error: all goroutines are asleep - deadlock!\n\ngoroutine 1 [chan receive]:\nmain.main()\n\t/ws/main.go:9 +0x3c\nexit status 2\n', { class: 'runtime-exception', exception: 'fatal error', location: { file: '/ws/main.go', line: 9, log_line: 6 } }],
    ['JVM main class missing', '+ java -cp out app.Main\nError: Could not find or load main class app.Main\nCaused by: java.lang.ClassNotFoundException: app.Main\n', { class: 'runtime-exception' }],
    ['npm registry auth', '+ npm ci\nnpm error code E401\nnpm error Incorrect or missing password.\n', { class: 'permission-credentials' }],
    // The Kubernetes API server's refusal (`<kind> "<name>" is forbidden: ...`: RBAC, a used-up quota, an admission policy)
    // is the CI identity's entitlement, also when a Java client (the Kubernetes plugin's) raises it (decided by ux4).
    [
      'Kubernetes pod quota, raised by the Kubernetes plugin',
      'Created Pod: kubernetes ci/build-7-x\nERROR: Unable to create pod kubernetes ci/build-7-x.\nio.fabric8.kubernetes.client.KubernetesClientException: Failure executing: POST at: https://10.96.0.1:443/api/v1/namespaces/ci/pods. Message: pods "build-7-x" is forbidden: exceeded quota: ci-pods, requested: pods=1, used: pods=10, limited: pods=10. Received status: Status(apiVersion=v1, code=403, reason=Forbidden).\n\tat io.fabric8.kubernetes.client.dsl.internal.OperationSupport.requestFailure(OperationSupport.java:709)\n\tat org.csanchez.jenkins.plugins.kubernetes.KubernetesLauncher.launch(KubernetesLauncher.java:142)\n',
      { class: 'permission-credentials', confidence: 'high' },
    ],
    ['kubectl over a quota', '+ kubectl run smoke --image=web:1 -n staging\nError from server (Forbidden): pods "smoke" is forbidden: exceeded quota: compute, requested: limits.cpu=2, used: limits.cpu=8, limited: limits.cpu=8\n', { class: 'permission-credentials' }],
    ['wrong version', "[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.11.0:compile (default-compile) on project api: Fatal error compiling: error: invalid target release: 21 -> [Help 1]\n", { class: 'missing-tool', tool: 'java' }],
  ];
  it.each(cases)('%s', (_name, log, want) => {
    expect(top(log)).toMatchObject(want);
  });

  it("reads npm's missing script as a CI script error", () => {
    expect(findingOf(['+ npm run build', 'npm error Missing script: "build"'], { start_line: 2, end_line: 2 })).toMatchObject({ class: 'ci-script', tool: 'npm', symbol: 'build' });
  });

  it('places a Go panic at the first frame after the runtime and a JVM failure at the project frame', () => {
    const go = top("panic: boom\n\ngoroutine 1 [running]:\npanic({0x4b2a40, 0xc000012345})\n\t/usr/local/go/src/runtime/panic.go:884 +0x213\nmain.load(...)\n\t/ws/app/load.go:31\nmain.main()\n\t/ws/app/main.go:8 +0x1d\nexit status 2\n");
    expect(go.location).toMatchObject({ file: '/ws/app/load.go', line: 31, frames: { raise: { file: '/ws/app/load.go', line: 31 } } });
    const jvm = top("Exception in thread \"main\" java.lang.IllegalStateException: no config\n\tat java.base/java.util.Objects.requireNonNull(Objects.java:233)\n\tat com.acme.App.load(App.java:40)\n\tat com.acme.App.main(App.java:12)\n");
    expect(jvm.location?.frames?.raise?.file).toBe('java/util/Objects.java');
    expect(jvm.location?.frames?.project).toMatchObject({ file: 'com/acme/App.java', line: 40 });
    expect(jvm.class).toBe('runtime-exception');
  });

  it('finds a Python raise site in a library and the project frame below it', () => {
    const f = top('Traceback (most recent call last):\n  File "/ws/app/main.py", line 9, in <module>\n    run()\n  File "/ws/app/main.py", line 5, in run\n    json.loads(text)\n  File "/usr/lib/python3.11/json/__init__.py", line 346, in loads\n    return _default_decoder.decode(s)\njson.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)\n');
    expect(f).toMatchObject({ class: 'runtime-exception', exception: 'JSONDecodeError', location: { file: '/ws/app/main.py', line: 5 } });
    expect(f.location?.frames?.raise).toMatchObject({ file: '/usr/lib/python3.11/json/__init__.py', line: 346 });
  });

  it('is bounded and never throws on odd input', () => {
    const lines = ['x'.repeat(100000), '', 'error: ' + '('.repeat(5000)];
    expect(findingOf(lines, { start_line: 1, end_line: 3 }).class).toBeDefined();
    expect(findingOf([], { start_line: 1, end_line: 1 }).class).toBe('unknown');
    // A streamed log keeps only the lines around its blocks: the others are holes.
    const sparse: string[] = new Array<string>(200);
    sparse[99] = '+ javac A.java';
    sparse[100] = 'A.java:3: error: cannot find symbol';
    expect(findingOf(sparse, { start_line: 101, end_line: 101 })).toMatchObject({ class: 'compile-error', message_line: 101 });
  });
});

describe('rules of issue 25 round 2, on real lines (test/fixtures/realfail round 1, LogChunks)', () => {
  const cases: [string, string, Partial<Finding>][] = [
    [
      'rustc without a code, clippy lint (cargo clippy -- -D warnings)',
      '+ cargo clippy --offline -- -D warnings\n    Checking names v0.2.0 (/tmp/ws)\nerror: writing `&Vec` instead of `&[_]` involves a new object where a slice will do\n --> src/main.rs:1:22\n  |\n1 | fn count_long(names: &Vec<String>) -> usize {\n  |                      ^^^^^^^^^^^^\n  |\n  = note: `-D clippy::ptr-arg` implied by `-D warnings`\nerror: could not compile `names` (bin "names") due to 1 previous error\n',
      { class: 'lint', tool: 'clippy', code: 'clippy::ptr_arg', location: { file: 'src/main.rs', line: 1, column: 22, log_line: 4 } },
    ],
    [
      'rustc without a code, a compile error (LogChunks alacritty)',
      '$ cargo build\nerror: local variables in const fn are unstable\n  --> /home/travis/.cargo/registry/src/github.com-1ecc6299db9ec823/percent-encoding-2.0.0/lib.rs:72:13\n   |\n72 |         let mut i = 0;\n   |             ^^^^^\n\nerror: aborting due to previous error\n',
      { class: 'compile-error', tool: 'rustc', message: 'error: local variables in const fn are unstable' },
    ],
    ['a bare `error:` with no place below is no rustc diagnostic', '+ ./release.sh\nerror: tag v1.2 already exists\n', { class: 'unknown' }],
    ['curl refused with 401', "+ curl -fsS -X PUT -H 'Authorization: Bearer ' --data-binary @r.json http://127.0.0.1:18533/reports/42\ncurl: (22) The requested URL returned error: 401\n", { class: 'permission-credentials' }],
    [
      'go: an import whose module cannot be found',
      '+ go test ./...\ngo: finding module for package github.com/google/uuid\nreqid/reqid.go:3:8: cannot find module providing package github.com/google/uuid: module lookup disabled by GOPROXY=off\n',
      { class: 'dependency-resolution', tool: 'go', dependency: 'github.com/google/uuid', location: { file: 'reqid/reqid.go', line: 3, column: 8, log_line: 3 } },
    ],
    ['make: a target the command asks for and the Makefile lacks', "+ make build test bundle\ntest -s out/app.txt\nmake: *** No rule to make target 'bundle'.  Stop.\n", { class: 'ci-script', tool: 'make', symbol: 'bundle' }],
    ["make: a prerequisite it cannot build stays the build's error", "+ make\nmake: *** No rule to make target 'src/stats.c', needed by 'stats.o'.  Stop.\n", { class: 'compile-error', tool: 'make' }],
    [
      'make: a recipe program that is not installed, at the Makefile line',
      '+ make all\nprotoc --proto_path=proto --cpp_out=gen proto/events.proto\nmake: protoc: No such file or directory\nmake: *** [Makefile:6: gen/events.pb.h] Error 127\nERROR: script returned exit code 2\n',
      { class: 'missing-tool', symbol: 'protoc', location: { file: 'Makefile', line: 6, log_line: 4 } },
    ],
    [
      'make: a silent recipe failure is unknown, at the Makefile line',
      '+ make check\ncc -O2 -o greet greet.c\n./greet > actual.txt\nmake: *** [Makefile:6: check] Error 1\n##[error]Process completed with exit code 2.\n',
      { class: 'unknown', message: 'make: *** [Makefile:6: check] Error 1', location: { file: 'Makefile', line: 6, log_line: 4 } },
    ],
    [
      "python: a project module that moved (`pkg.mod`) is the test's error, not a missing package",
      "_____________________ ERROR collecting tests/test_tools.py _____________________\nImportError while importing test module '/ws/tests/test_tools.py'.\nTraceback:\ntests/test_tools.py:1: in <module>\n    from logs.tools import parse_level\nE   ModuleNotFoundError: No module named 'logs.tools'\n=========================== short test summary info ============================\nERROR tests/test_tools.py\n",
      { class: 'test-error', exception: 'ModuleNotFoundError' },
    ],
    ["python: a top-level package missing is the environment's", '+ python3 app.py\nTraceback (most recent call last):\n  File "/ws/app.py", line 1, in <module>\n    import yaml\nModuleNotFoundError: No module named \'yaml\'\n', { class: 'dependency-resolution', dependency: 'yaml' }],
    [
      'vitest: an exception with its `❯ fn file:line:col` frames',
      ' FAIL  src/money.test.js > formatAccount > shows an empty balance\nRangeError: Invalid currency code : eur \n ❯ formatAmount src/money.js:2:10\n      1| export function formatAmount(cents, currency) {\n ❯ formatAccount src/money.js:6:31\n ❯ src/money.test.js:10:25\n',
      { class: 'test-error', exception: 'RangeError', tool: 'vitest', location: expect.objectContaining({ file: 'src/money.js', line: 2, column: 10 }) as Finding['location'] },
    ],
    [
      'Maven: the artifact an offline build could not resolve',
      '[ERROR] Failed to execute goal on project csv-tools: Could not resolve dependencies for project com.acme:csv-tools:jar:1.2.0: Cannot access central (https://repo.maven.apache.org/maven2) in offline mode and the artifact com.google.guava:guava:jar:33.4.7-jre has not been downloaded from it before. -> [Help 1]\n',
      { class: 'dependency-resolution', tool: 'maven', dependency: 'com.google.guava:guava:jar:33.4.7-jre' },
    ],
    [
      'Gradle: the dependency under `Could not resolve all files`',
      "* What went wrong:\nCould not resolve all files for configuration ':compileClasspath'.\n> Could not find joda-time:joda-time:2.12.7.\n  Searched in the following locations:\n      file:/root/.m2/repository/joda-time/joda-time/2.12.7/joda-time-2.12.7.pom\n",
      { class: 'dependency-resolution', tool: 'gradle', dependency: 'joda-time:joda-time:2.12.7', message: 'Could not find joda-time:joda-time:2.12.7.' },
    ],
    [
      'pip: the index host from `Looking in indexes`',
      "+ pip install -r requirements.txt\nLooking in indexes: https://pypi.org/simple\nWARNING: Retrying (Retry(total=0, connect=None, read=None, redirect=None, status=None)) after connection broken by 'NewConnectionError('<pip._vendor.urllib3.connection.HTTPSConnection object at 0x7f3>: Failed to establish a new connection: [Errno -2] Name or service not known')': /simple/click-log/\nERROR: Could not find a version that satisfies the requirement click-log==0.4.0 (from versions: none)\nERROR: No matching distribution found for click-log==0.4.0\n",
      { class: 'network', host: 'pypi.org', dependency: 'click-log==0.4.0', message: 'Failed to establish a new connection: [Errno -2] Name or service not known' },
    ],
  ];
  it.each(cases)('%s', (_name, log, want) => {
    expect(top(log)).toMatchObject(want);
  });
});

describe('more tool families on real lines (LogChunks dev, Jenkins console dev logs)', () => {
  const cases: [string, string, Partial<Finding>][] = [
    ['RuboCop', '$ bundle exec rubocop\nlib/jekyll/excerpt.rb:158:17: C: Performance/RegexpMatch: Use match? instead of =~ when MatchData is not used.\n', { class: 'lint', tool: 'rubocop', code: 'Performance/RegexpMatch', location: { file: 'lib/jekyll/excerpt.rb', line: 158, column: 17, log_line: 2 } }],
    ['GHC', '$ stack build\n/ws/src/Language/PureScript/Errors.hs:336:32: error: [-Wunused-matches, -Werror=unused-matches]\n    Defined but not used: \u2018e\u2019\n', { class: 'compile-error', tool: 'ghc', location: { file: '/ws/src/Language/PureScript/Errors.hs', line: 336, column: 32, log_line: 2 } }],
    ['PHP fatal error', "$ vendor/bin/phpunit\nPHP Fatal error:  Class 'Composer\\Util\\Response' not found in /ws/src/Composer/Util/RemoteFilesystem.php on line 286\n", { class: 'runtime-exception', tool: 'php', location: { file: '/ws/src/Composer/Util/RemoteFilesystem.php', line: 286, log_line: 2 } }],
    ["a script the CI runs by path that the checkout lacks", '$ test/run\n/home/travis/.travis/job_stages: line 104: test/run: No such file or directory\n', { class: 'ci-script', symbol: 'test/run' }],
    ["Ubuntu's command-not-found", "$ swift build\nThe program 'swift' is currently not installed. To run 'swift' please ask your administrator to install the package 'python-swiftclient'\n", { class: 'missing-tool', symbol: 'swift' }],
    ['xcpretty', "[10:12:31]: \u25b8 \u274c  /Users/jenkins/workspace/ios-app/App/Views/CartView.swift:48:21: cannot find 'priceFormatter' in scope\n", { class: 'compile-error', tool: 'swiftc', location: { file: '/Users/jenkins/workspace/ios-app/App/Views/CartView.swift', line: 48, column: 21, log_line: 1 } }],
    ['a parallel branch prefix', '[i386] + make\n[i386] src/bits.c:88:12: error: shift count >= width of type [-Werror,-Wshift-count-overflow]\n', { class: 'compile-error', tool: 'gcc', location: { file: 'src/bits.c', line: 88, column: 12, log_line: 2 } }],
    ["Maven's own [ERROR] is no branch name", '[ERROR] something went wrong\n', { class: 'unknown' }],
  ];
  it.each(cases)('%s', (_name, log, want) => {
    expect(top(log)).toMatchObject(want);
  });
});

it("places Surefire's summary row by the test's own frame printed earlier in the log", () => {
  const log = [
    '[ERROR] com.acme.OrderTotalsTest.totalAppliesDiscountBeforeTax -- Time elapsed: 0.011 s <<< FAILURE!',
    'org.opentest4j.AssertionFailedError: expected: <107.0> but was: <110.0>',
    '\tat com.acme.OrderTotalsTest.totalAppliesDiscountBeforeTax(OrderTotalsTest.java:41)',
    ...new Array<string>(50).fill('[INFO] x'),
    '[INFO] Results:',
    '[ERROR] Failures: ',
    '[ERROR]   OrderTotalsTest.totalAppliesDiscountBeforeTax:41 expected: <107.0> but was: <110.0>',
    '[ERROR] Tests run: 4, Failures: 1, Errors: 0, Skipped: 0',
  ];
  const f = findingOf(log, { start_line: 55, end_line: 56 });
  expect(f).toMatchObject({ class: 'test-assertion', message_line: 56, location: { file: 'com/acme/OrderTotalsTest.java', line: 41, log_line: 3 } });
});

it('reads a Python traceback cut before its exception line on to the exception (LogChunks electron)', () => {
  const log = [
    'Traceback (most recent call last):',
    '  File "./script/cibuild", line 129, in <module>',
    '    sys.exit(main())',
    '  File "/home/travis/build/electron/electron/script/lib/util.py", line 174, in execute',
    '    raise e',
    "subprocess.CalledProcessError: Command '['sudo', 'apt-get', 'update']' returned non-zero exit status 100",
    '',
    'The command "./script/cibuild" exited with 1.',
  ];
  expect(findingOf(log, { start_line: 1, end_line: 5 })).toMatchObject({ class: 'runtime-exception', tool: 'python', exception: 'CalledProcessError', message_line: 6 });
});

describe('Ruby: minitest, Rails and rspec output on real lines (LogChunks dev)', () => {
  it('reads a minitest failure: the assertion, the test and the place in brackets', () => {
    const log = [
      'Failure:',
      "TestKramdown#test_: kramdown when a custom highlighter is chosen should use the chosen highlighter if it's available.  [/home/travis/build/jekyll/jekyll/test/test_kramdown.rb:106]",
      'Minitest::Assertion: Expected true to not be truthy.',
      '',
    ].join('\n');
    expect(top(log)).toMatchObject({ class: 'test-assertion', tool: 'minitest', exception: 'Assertion', message: 'Minitest::Assertion: Expected true to not be truthy.', location: { file: '/home/travis/build/jekyll/jekyll/test/test_kramdown.rb', line: 106 } });
  });

  it('reads a Ruby exception over its backtrace, raised in a Rails test', () => {
    const log = [
      'Error:',
      'ActionView::HelperInclusionTest#test_helper_class_that_is_being_tested_is_always_included_in_view_instance:',
      "ActionView::Template::Error: undefined method `__customer_erb__1959' for #<#<Class:0x00000000017b1820>:0x0000000001>",
      "    /home/travis/build/rails/rails/actionview/lib/action_view/base.rb:274:in `_run'",
      "    /home/travis/build/rails/rails/actionview/lib/action_view/template.rb:183:in `block in render'",
      "    /home/travis/.rvm/gems/ruby-2.5.3/gems/minitest-5.11.3/lib/minitest/test.rb:98:in `block (3 levels) in run'",
      '',
    ].join('\n');
    expect(top(log)).toMatchObject({ class: 'test-error', exception: 'Error', message: expect.stringMatching(/^ActionView::Template::Error: undefined method/) as string, location: { file: '/home/travis/build/rails/rails/actionview/lib/action_view/base.rb', line: 274 } });
  });

  it("reads Ruby's syntax error printed indented under rspec's loading error", () => {
    const log = 'An error occurred while loading ./spec/requests/users_controller_spec.rb.\nFailure/Error: __send__(method, *args)\n\nSyntaxError:\n  /ws/spec/requests/users_controller_spec.rb:3520: syntax error, unexpected end-of-input, expecting end\n';
    expect(top(log)).toMatchObject({ class: 'compile-error', tool: 'ruby', location: { file: '/ws/spec/requests/users_controller_spec.rb', line: 3520 } });
  });
});

describe('rules broadened after round 2 (issue 25): each on a line in the tool format', () => {
  it('kotlinc run directly: `file.kt:L:C: error: ...` is a compile error at that place', () => {
    const log = '+ kotlinc src/main/kotlin -d build/classes\nsrc/main/kotlin/team/users/Mailer.kt:5:26: error: type mismatch: inferred type is User? but User was expected\n        val user: User = repo.find(id)\n                         ^\nBuild step \'Execute shell\' marked build as failure\n';
    expect(top(log)).toMatchObject({ class: 'compile-error', tool: 'kotlinc', location: { file: 'src/main/kotlin/team/users/Mailer.kt', line: 5, column: 26 } });
  });

  it('go: a standard-library package not in GOROOT means the Go toolchain is too old', () => {
    const log = '+ go test ./...\nreleases/latest.go:4:8: package slices is not in GOROOT (/usr/lib/go-1.19/src/slices)\nBuild step \'Execute shell\' marked build as failure\n';
    expect(top(log)).toMatchObject({ class: 'missing-tool', tool: 'go', symbol: 'slices', location: { file: 'releases/latest.go', line: 4, column: 8 } });
  });

  it("pip's resolver: `Cannot install ... conflicting dependencies` is dependency resolution", () => {
    const log = '+ pip install -r requirements.txt\nERROR: Cannot install -r requirements.txt (line 1) and pydantic-core==2.49.0 because these package versions have conflicting dependencies.\n';
    expect(top(log)).toMatchObject({ class: 'dependency-resolution', tool: 'pip' });
  });

  it("vitest's `Hook timed out in 10000ms.` is a timeout, placed at the hook by vitest's pointer", () => {
    const log = [' FAIL  test/users.test.js > register', 'Error: Hook timed out in 10000ms.', 'If this is a long-running hook, pass a timeout value as the last argument or configure it globally with "hookTimeout".', ' ❯ test/users.test.js:8:12', '      8|   beforeAll(async () => {', ''].join('\n');
    expect(top(log)).toMatchObject({ class: 'timeout-aborted', tool: 'vitest', location: { file: 'test/users.test.js', line: 8 } });
  });

  it("ctest's `***Timeout` on a test's result line is a timeout", () => {
    const log = 'Test project /ws/build\n    Start 1: backoff_schedule\n1/1 Test #1: backoff_schedule .................***Timeout   5.02 sec\n';
    expect(findingOf(cleanLines(log), { start_line: 3, end_line: 3 })).toMatchObject({ class: 'timeout-aborted', tool: 'ctest' });
  });

  it("git's `unknown revision` is the CI script naming a revision the checkout lacks", () => {
    const log = "+ ./scripts/changelog.sh\nfatal: ambiguous argument 'v2.4.0..HEAD': unknown revision or path not in the working tree.\nUse '--' to separate paths from revisions, like this:\n";
    expect(top(log)).toMatchObject({ class: 'ci-script', tool: 'git', symbol: 'v2.4.0..HEAD' });
  });

  it("rustfmt's `Diff in file:line:` header is a lint (format) finding at that place", () => {
    const log = '+ cargo fmt --check\nDiff in /ws/src/lib.rs:2:\n pub fn slugify(title: &str) -> String {\n-        if c.is_alphanumeric() { out.push(c); }\n+        if c.is_alphanumeric() {\n';
    expect(findingOf(cleanLines(log), { start_line: 2, end_line: 5 })).toMatchObject({ class: 'lint', tool: 'rustfmt', location: { file: '/ws/src/lib.rs', line: 2 } });
  });

  it("rustfmt's diff alone (the excerpt under its `Diff in` header) reads up to the header", () => {
    const log = '+ cargo fmt --check\nDiff in /ws/src/lib.rs:2:\n pub fn slugify(title: &str) -> String {\n-        if c.is_alphanumeric() { out.push(c); }\n+        if c.is_alphanumeric() {\n+            out.push(c);\n+        }\nBuild step \'Execute shell\' marked build as failure\n';
    expect(findingOf(cleanLines(log), { start_line: 5, end_line: 8 })).toMatchObject({ class: 'lint', tool: 'rustfmt', message_line: 2, location: { line: 2 } });
  });

  it("ctest's closing summary reads up to the failed test's result line", () => {
    const log = [
      '+ ctest --output-on-failure',
      'Test project /ws/build',
      '    Start 1: backoff_schedule',
      '1/1 Test #1: backoff_schedule .................***Timeout   5.02 sec',
      '',
      '0% tests passed, 1 tests failed out of 1',
      '',
      'Total Test time (real) =   5.03 sec',
      '',
      'The following tests FAILED:',
      '\t  1 - backoff_schedule (Timeout)',
      'Errors while running CTest',
    ].join('\n');
    expect(findingOf(cleanLines(log), { start_line: 12, end_line: 12 })).toMatchObject({ class: 'timeout-aborted', tool: 'ctest', message_line: 4, test: { name: 'backoff_schedule' } });
  });

  it('`bash -xe` stopped on an arithmetic command that printed nothing: a CI script error on that command', () => {
    const log = "[job] $ /bin/bash -xe ci.sh\n+ skipped=0\n+ grep -q '^-- skip' migrations/0004.sql\n+ (( skipped++ ))\nBuild step 'Execute shell' marked build as failure\nFinished: FAILURE\n";
    expect(findingOf(cleanLines(log), { start_line: 5, end_line: 5 })).toMatchObject({ class: 'ci-script', tool: 'bash', message: '(( skipped++ ))', message_line: 4 });
    // The analyzer's excerpt may be the trace itself ("last command before the failure").
    expect(findingOf(cleanLines(log), { start_line: 3, end_line: 4 })).toMatchObject({ class: 'ci-script', tool: 'bash', message: '(( skipped++ ))', message_line: 4 });
  });

  it("a bare `npm error` line is framing: the finding is npm's sentence above it", () => {
    const log = '+ npm run lint\nnpm error Missing script: "lint"\nnpm error\nnpm error Did you mean this?\n';
    expect(findingOf(cleanLines(log), { start_line: 3, end_line: 3 })).toMatchObject({ class: 'ci-script', tool: 'npm', message: 'npm error Missing script: "lint"' });
  });

  it("glibc's assert() in a test program is a test assertion at the file and line it names", () => {
    const log = "./build/test_ring\ntest_ring: tests/test_ring.c:8: test_fills_up: Assertion `ring_push(&r, i)' failed.\nmake: *** [Makefile:8: check] Aborted\n";
    expect(findingOf(cleanLines(log), { start_line: 2, end_line: 2 })).toMatchObject({ class: 'test-assertion', location: { file: 'tests/test_ring.c', line: 8 }, test: { name: 'test_fills_up' } });
  });

  it("glibc's assert() in a program that is not a test is a runtime failure", () => {
    const log = "+ ./build/cachectl\ncachectl: src/cache.c:41: cache_put: Assertion `n < CAP' failed.\n";
    expect(findingOf(cleanLines(log), { start_line: 2, end_line: 2 })).toMatchObject({ class: 'runtime-exception', location: { file: 'src/cache.c', line: 41 } });
  });

  it("bash's `line N: PID Aborted` is SIGABRT, whose reason (std::bad_alloc) is just above", () => {
    const log = "+ ./build/heatmap\nterminate called after throwing an instance of 'std::bad_alloc'\n  what():  std::bad_alloc\nci.sh: line 5: 29585 Aborted                 ./build/heatmap\n";
    expect(findingOf(cleanLines(log), { start_line: 4, end_line: 4 })).toMatchObject({ class: 'out-of-memory', message: "terminate called after throwing an instance of 'std::bad_alloc' what(): std::bad_alloc" });
  });

  it("node's UnhandledPromiseRejection with frames only in node internals: a runtime exception with no location", () => {
    const log = [
      '+ node scripts/release-notes.mjs',
      'node:internal/process/promises:389',
      '      new UnhandledPromiseRejection(reason);',
      '      ^',
      'UnhandledPromiseRejection: This error originated either by throwing inside of an async function without a catch block, or by rejecting a promise which was not handled with .catch(). The promise rejected with the reason "boom".',
      '    at throwUnhandledRejectionsMode (node:internal/process/promises:389:7)',
      '    at processPromiseRejections (node:internal/process/promises:470:17)',
      '',
    ].join('\n');
    const f = findingOf(cleanLines(log), { start_line: 2, end_line: 7 });
    expect(f).toMatchObject({ class: 'runtime-exception', exception: 'UnhandledPromiseRejection' });
    expect(f.location).toBeUndefined();
  });

  it("a Node frame followed by ` {` (an error with properties) is still read: the project's frame is the place", () => {
    const log = [
      'TypeError: fetch failed',
      '    at node:internal/deps/undici/undici:14976:13',
      '    at async file:///ws/scripts/sync-schemas.mjs:6:15 {',
      '  [cause]: Error: getaddrinfo ENOTFOUND schema-registry.corp.internal',
      '}',
    ].join('\n');
    expect(findingOf(cleanLines(log), { start_line: 1, end_line: 5 })).toMatchObject({ class: 'network', location: { file: '/ws/scripts/sync-schemas.mjs', line: 6 } });
  });
});

describe("sanitizer stacks (ASan's `#N 0x... in fn file:line:col`)", () => {
  it("places an AddressSanitizer error at the first project frame of its first stack, not the allocation's", () => {
    const log = [
      '==29466==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x603000000052 at pc 0x563dbb1cd8e7 bp 0x7fff77c5aff0 sp 0x7fff77c5a7b8',
      'WRITE of size 5 at 0x603000000052 thread T0',
      '    #0 0x563dbb1cd8e6 in strcpy (/ws/build/cachectl+0x8e8e6) (BuildId: be6ea44770f05cadae6063dc9801b3d7251e6775)',
      '    #1 0x563dbb21e009 in join_path /ws/src/paths.c:11:5',
      '    #2 0x563dbb21df02 in main /ws/src/cachectl.c:9:19',
      '    #3 0x7f1b6da75249 in __libc_start_call_main csu/../sysdeps/nptl/libc_start_call_main.h:58:16',
      '',
      'allocated by thread T0 here:',
      '    #0 0x563dbb1e314e in __interceptor_malloc (/ws/build/cachectl+0xa414e)',
      '    #1 0x563dbb21dfcd in join_path /ws/src/paths.c:7:17',
      '',
    ].join('\n');
    expect(findingOf(cleanLines(log), { start_line: 1, end_line: 11 })).toMatchObject({ class: 'runtime-exception', tool: 'AddressSanitizer', location: { file: '/ws/src/paths.c', line: 11, column: 5 } });
  });
});

describe("Go's dial error names its host", () => {
  it('`dial tcp 127.0.0.1:42039: connect: connection refused`: network, host 127.0.0.1', () => {
    const log = '+ go run ./cmd/seed\nseed: 2026/11/24 20:18:53 cannot reach the cache service: dial tcp 127.0.0.1:42039: connect: connection refused\nexit status 1\n';
    expect(findingOf(cleanLines(log), { start_line: 2, end_line: 2 })).toMatchObject({ class: 'network', host: '127.0.0.1' });
  });
});
