/**
 * Places of session 44 (helper loc4, docs/notes/analyzer.md "Places, session 44"): made-up logs of projects no case
 * has, each with counter-examples.
 */
import { analyze } from '../log/analyze.js';

const findingOf = (log: string[]) => analyze(log.join('\n'))[0]?.finding;

describe("a JVM exception's message that runs on under a blank line, over its frames", () => {
  const surefire = (message: string[]) => [
    '[INFO] Running org.shop.cart.CartTest',
    '[ERROR] Tests run: 3, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.2 s <<< FAILURE! -- in org.shop.cart.CartTest',
    '[ERROR] org.shop.cart.CartTest.totalsInOrder -- Time elapsed: 0.1 s <<< FAILURE!',
    'java.lang.AssertionError: ',
    ...message,
    '\tat org.shop.cart.CartTest.totalsInOrder(CartTest.java:31)',
    '\tat java.base/java.lang.reflect.Method.invoke(Method.java:569)',
    '',
    '[INFO] BUILD FAILURE',
  ];

  it("reads the frames past AssertJ's blank lines: the test's line is the place", () => {
    const f = findingOf(surefire(['', 'Expecting actual:', '  [3, 1, 2]', 'to contain exactly (and in same order):', '  [1, 2, 3]', '']));
    expect(f?.location).toMatchObject({ file: 'org/shop/cart/CartTest.java', line: 31 });
  });

  it('does not read past a blank line into a frame more than 6 lines below, nor over another exception', () => {
    const far = findingOf(surefire(['', 'Expecting actual:', '  [3, 1, 2]', 'to contain exactly (and in same order):', '  [1, 2, 3]', 'but some elements were not found:', '  [4]', '']));
    expect(far?.location).toBeUndefined();
    const other = findingOf(surefire(['', 'java.lang.IllegalStateException: another failure', '']));
    expect(other?.location?.file).not.toBe('org/shop/cart/CartTest.java');
  });
});

describe("lld's reference under an undefined symbol", () => {
  const link = (rows: string[]) => [
    '+ make',
    'clang -fuse-ld=lld -g -o meter obj/main.o obj/read.o',
    'ld.lld: error: undefined symbol: sensor_read_raw',
    ...rows,
    'clang: error: linker command failed with exit code 1 (use -v to see invocation)',
    'make: *** [Makefile:9: meter] Error 1',
  ];

  it('names the line that refers to it (debug information): the first reference is the place', () => {
    const f = findingOf(link([
      '>>> referenced by main.c:14 (/home/ci/ws/meter/src/main.c:14)',
      '>>>               obj/main.o:(main)',
      '>>> referenced by read.c:7 (src/read.c:7)',
      '>>>               obj/read.o:(poll_once)',
    ]));
    expect(f?.class).toBe('link-error');
    expect(f?.location).toMatchObject({ file: '/home/ci/ws/meter/src/main.c', line: 14 });
  });

  it('gives no place when the reference names a file only (no debug information), or a library\'s', () => {
    expect(findingOf(link(['>>> referenced by main.c', '>>>               obj/main.o:(main)']))?.location).toBeUndefined();
    expect(findingOf(link(['>>> referenced by vec.h:3 (/usr/include/vec.h:3)', '>>>               obj/main.o:(main)']))?.location).toBeUndefined();
  });
});

describe("bash's end of file inside a here-document", () => {
  const script = (warning: string[]) => ['+ echo rendering', 'rendering', ...warning, 'deploy/render.sh: line 31: syntax error: unexpected end of file', "Build step 'Execute shell' marked build as failure"];

  it("is placed at the here-document's start, which the warning above names", () => {
    const f = findingOf(script(["deploy/render.sh: line 30: warning: here-document at line 12 delimited by end-of-file (wanted `CONF')"]));
    expect(f?.location).toMatchObject({ file: 'deploy/render.sh', line: 12 });
  });

  it("keeps the end of file without the warning, or when the warning is another file's", () => {
    expect(findingOf(script([]))?.location).toMatchObject({ file: 'deploy/render.sh', line: 31 });
    expect(findingOf(script(["lib/common.sh: line 9: warning: here-document at line 2 delimited by end-of-file (wanted `EOF')"]))?.location).toMatchObject({ file: 'deploy/render.sh', line: 31 });
  });
});

describe("a linker's undefined symbol: the compiler's part in it", () => {
  it("gives no place for a name reserved to the implementation (the compiler inserted the reference)", () => {
    const f = findingOf([
      '+ make test',
      'cc -g -fprofile-arcs -c lib/queue.c -o lib/queue.o',
      'cc -o run_tests lib/queue.o tests/run.o',
      "/usr/bin/ld: lib/queue.o: in function `_sub_I_00100_0':",
      "/home/ci/ws/q/lib/queue.c:88: undefined reference to `__gcov_init'",
      'collect2: error: ld returned 1 exit status',
      'make: *** [Makefile:12: run_tests] Error 1',
    ]);
    expect(f?.class).toBe('link-error');
    expect(f?.location).toBeUndefined();
  });

  it("keeps ld's line for a project's own function", () => {
    const f = findingOf([
      '+ make test',
      "/usr/bin/ld: lib/queue.o: in function `queue_push':",
      "/home/ci/ws/q/lib/queue.c:88: undefined reference to `ring_grow'",
      'collect2: error: ld returned 1 exit status',
      'make: *** [Makefile:12: run_tests] Error 1',
    ]);
    expect(f?.location).toMatchObject({ line: 88 });
    expect(f?.location?.file).toMatch(/queue\.c$/);
  });

  const clang = (warning: string) => [
    '+ make',
    'clang++ -std=c++17 -c src/stats.cpp -o build/stats.o',
    'In file included from src/main.cpp:2:',
    warning,
    'double mean(const std::vector<double>& xs);',
    '       ^',
    '1 warning generated.',
    'clang++ -fuse-ld=lld -o report build/stats.o build/main.o',
    'ld.lld: error: undefined symbol: stats::mean(std::vector<double> const&)',
    '>>> referenced by main.cpp',
    '>>>               build/main.o:(main)',
    'clang++: error: linker command failed with exit code 1 (use -v to see invocation)',
    'make: *** [Makefile:4: report] Error 1',
  ];

  it("takes the place of the compiler's warning that the same function has no definition", () => {
    expect(findingOf(clang("src/stats.hpp:7:8: warning: inline function 'stats::mean' is not defined [-Wundefined-inline]"))?.location).toMatchObject({ file: 'src/stats.hpp', line: 7, column: 8 });
    expect(findingOf(clang("src/stats.hpp:7:8: warning: function 'stats::mean' has internal linkage but is not defined [-Wundefined-internal]"))?.location).toMatchObject({ file: 'src/stats.hpp', line: 7 });
  });

  it("not of a warning that names it for another reason, nor of another function's", () => {
    expect(findingOf(clang("src/stats.hpp:7:8: warning: unused function 'mean' [-Wunused-function]"))?.location).toBeUndefined();
    expect(findingOf(clang("src/stats.hpp:9:8: warning: inline function 'stats::median' is not defined [-Wundefined-inline]"))?.location).toBeUndefined();
  });

  it("nor of a function of the same name in another namespace (adv)", () => {
    expect(findingOf(clang("src/stats.hpp:7:8: warning: inline function 'legacy::mean' is not defined [-Wundefined-inline]"))?.location).toBeUndefined();
    expect(findingOf(clang("src/stats.hpp:7:8: warning: inline function 'mean' is not defined [-Wundefined-inline]"))?.location).toMatchObject({ file: 'src/stats.hpp', line: 7 });
  });
});

describe('a JVM trace that ends its window', () => {
  it('is not read on past its blank line into the next report (a retried command\'s second trace)', () => {
    const trace = [
      'Exception in thread "main" java.lang.ExceptionInInitializerError',
      '\tat org.jruby.Ruby.newInstance(Ruby.java:266)',
      '\tat site.deploy.Push.main(Push.java:40)',
      'Caused by: java.lang.RuntimeException: unsupported Java version: 11',
      '\tat org.jruby.RubyInstanceConfig.initGlobalJavaVersion(RubyInstanceConfig.java:1878)',
      '\t... 1 more',
    ];
    const f = findingOf(['+ java -jar tools/push.jar', ...trace, '', 'The command "java -jar tools/push.jar" failed. Retrying, 2 of 3.', '', ...trace]);
    // The first report's cause (a library the JVM list does not know, with no test class to tell it apart), as before.
    expect(f?.location).toMatchObject({ file: 'org/jruby/RubyInstanceConfig.java', line: 1878, log_line: 6 });
  });
});

describe('.NET frames (`at X in PATH:line N`)', () => {
  it("place an unhandled exception at the project's deepest frame, past the framework's frames without a source", () => {
    const f = findingOf([
      '+ dotnet run --project src/Shop',
      'Unhandled exception. System.InvalidOperationException: Sequence contains no elements',
      '   at System.Linq.ThrowHelper.ThrowNoElementsException()',
      '   at System.Linq.Enumerable.First[TSource](IEnumerable`1 source)',
      '   at Shop.Cart.Total() in /home/ci/ws/shop/src/Shop/Cart.cs:line 14',
      '   at Shop.Program.Main(String[] args) in /home/ci/ws/shop/src/Shop/Program.cs:line 8',
      "Build step 'Execute shell' marked build as failure",
    ]);
    expect(f?.location).toMatchObject({ file: '/home/ci/ws/shop/src/Shop/Cart.cs', line: 14 });
    expect(f?.location?.frames?.project?.function).toBe('Shop.Cart.Total');
  });

  it("place a failed xUnit test at its frame, under the message's Expected/Actual lines and `Stack Trace:`", () => {
    const f = findingOf([
      '+ dotnet test --nologo',
      '[xUnit.net 00:00:00.41]     Shop.Tests.CartTests.Total_is_sum [FAIL]',
      '  Failed Shop.Tests.CartTests.Total_is_sum [4 ms]',
      '  Error Message:',
      '   Assert.Equal() Failure: Values differ',
      'Expected: 6',
      'Actual:   5',
      '  Stack Trace:',
      '     at Shop.Tests.CartTests.Total_is_sum() in /home/ci/ws/shop/tests/Shop.Tests/CartTests.cs:line 15',
      '   at System.RuntimeMethodHandle.InvokeMethod(Object target, Void** arguments, Signature sig, Boolean isConstructor)',
      '',
      'Failed!  - Failed:     1, Passed:     3, Skipped:     0, Total:     4, Duration: 12 ms - Shop.Tests.dll (net8.0)',
    ]);
    expect(f?.location).toMatchObject({ file: '/home/ci/ws/shop/tests/Shop.Tests/CartTests.cs', line: 15 });
  });

  it("give no place when every frame with a source is the framework's", () => {
    const f = findingOf([
      '+ dotnet run',
      'Unhandled exception. System.IO.FileNotFoundException: Could not find file \'/data/x.csv\'.',
      '   at Microsoft.Win32.SafeHandles.SafeFileHandle.Open(String fullPath) in /_/src/libraries/System.Private.CoreLib/src/Microsoft/Win32/SafeHandles/SafeFileHandle.Unix.cs:line 42',
      '   at System.IO.File.ReadAllText(String path) in /_/src/libraries/System.Private.CoreLib/src/System/IO/File.cs:line 9',
      "Build step 'Execute shell' marked build as failure",
    ]);
    expect(f?.location?.line).toBeUndefined();
  });
});

describe("`pip check`'s verdict on what is installed", () => {
  const install = (rows: string[], verdict: string) => [
    '+ .venv/bin/pip install --no-deps -r requirements.lock',
    ...rows,
    '+ .venv/bin/pip check',
    verdict,
    'ERROR: script returned exit code 1',
  ];
  const rows = [
    'Processing /srv/wheels/Flask-3.1.0-py3-none-any.whl (from -r requirements.lock (line 1))',
    'Collecting Werkzeug==2.3.8 (from -r requirements.lock (line 2))',
    'Processing /srv/wheels/markupsafe-3.0.2-cp311-cp311-linux_x86_64.whl (from -r requirements.lock (line 4))',
  ];

  it("is a dependency error placed at the requirements line that asked for the installed version pip objects to", () => {
    const f = findingOf(install(rows, 'flask 3.1.0 has requirement werkzeug>=3.1, but you have werkzeug 2.3.8.'));
    expect(f).toMatchObject({ class: 'dependency-resolution', tool: 'pip', message: 'flask 3.1.0 has requirement werkzeug>=3.1, but you have werkzeug 2.3.8.' });
    expect(f?.location).toMatchObject({ file: 'requirements.lock', line: 2 });
    // A wheel's file name spells the package with `_` or capitals: the same package.
    expect(findingOf(install(rows, 'jinja2 3.1.4 has requirement MarkupSafe>=2.0, but you have MarkupSafe 1.1.1.'))?.location).toMatchObject({ file: 'requirements.lock', line: 4 });
  });

  it('gives no place when the install above does not show where the package came from, or for a package not installed', () => {
    expect(findingOf(install(rows, 'flask 3.1.0 has requirement click>=8.1.3, but you have click 7.0.'))?.location).toBeUndefined();
    const missing = findingOf(install(rows, 'flask 3.1.0 requires blinker, which is not installed.'));
    expect(missing).toMatchObject({ class: 'dependency-resolution', tool: 'pip' });
    expect(missing?.location).toBeUndefined();
  });
});
