import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { analyze } from '../../test/helpers/rulesReading.js';
import { setGenericOnly } from './ablation.js';
import type { Finding } from '../../protocol/types.js';

/**
 * No wrong class (issue 25; docs/notes/analyzer.md, "No wrong class (helper tf2)"): evidence that
 * led to a class the log does not support, now read so that it decides the right class or leaves
 * the finding unknown. Each on a made-up log of another project, with a counter-example; the pytest
 * collection errors on real logs made here (core/finding/everyday/, pytest 9, Python 3.11).
 */
const HERE = path.join(process.cwd(), 'core', 'finding');
const top = (text: string): Finding | undefined => analyze(text)[0]?.finding;
const read = (name: string): Finding | undefined => top(readFileSync(path.join(HERE, 'everyday', `${name}.log`), 'utf8'));

describe('pytest: a test module that does not load is no assertion', () => {
  it.each<[string, string, string, string, string | undefined, number | undefined]>([
    ['pytest-collect-syntax', 'compile-error', 'python', "SyntaxError: '[' was never closed", '/ws/tests/test_a.py', 2],
    ['pytest-collect-indent', 'compile-error', 'python', 'IndentationError: unexpected indent', '/ws/tests/test_b.py', 3],
    ['pytest-collect-module-missing', 'dependency-resolution', 'python', "No module named 'yaml_not_there'", 'tests/test_c.py', 1],
    ['pytest-import-error', 'test-error', 'pytest', "ImportError: cannot import name 'discount'", 'tests/test_cart.py', 1],
    // The collection error is printed (ERRORS) before the failed test (FAILURES): it is the first failure.
    ['pytest-continue-collect', 'compile-error', 'python', 'SyntaxError: invalid syntax', '/ws/tests/test_syntax.py', 1],
    // Counter-example: a real assertion that is the run's first failure stays one.
    ['pytest-assert-first', 'test-assertion', 'pytest', 'assert (1 + 1) == 3', 'tests/test_a.py', 2],
  ])('%s: %s', (name, cls, tool, message, file, line) => {
    const f = read(name);
    expect([f?.class, f?.tool]).toEqual([cls, tool]);
    expect(f?.message).toContain(message);
    expect([f?.location?.file, f?.location?.line]).toEqual([file, line]);
  });

  it('a source line quoted under `E   File "x", line N` is not an assertion, on the general evidence too', () => {
    const log = '+ python3 -m pytest -q suite\n_____ ERROR collecting suite/test_m.py _____\nE     File "/src/suite/test_m.py", line 7\nE       assert total(1 == 2\nE                   ^\nE   SyntaxError: \'(\' was never closed\nERROR suite/test_m.py\n';
    setGenericOnly(true);
    try {
      expect(top(log)?.class).not.toBe('test-assertion');
    } finally {
      setGenericOnly(false);
    }
    // The family rules: Python's SyntaxError, run by a versioned interpreter (`python3.12 -m pytest`).
    const f = top(log.replace('python3 -m', 'python3.12 -m'));
    expect([f?.class, f?.tool, f?.location?.line]).toEqual(['compile-error', 'python', 7]);
    // Counter-example: pytest's own `E   assert` under the test's `>` line is the assertion.
    const a = top('+ python3 -m pytest -q suite\n_____ test_total _____\n\n    def test_total():\n>       assert total(1) == 2\nE       assert 1 == 2\n\nsuite/test_m.py:4: AssertionError\nFAILED suite/test_m.py::test_total - assert 1 == 2\n');
    expect(a?.class).toBe('test-assertion');
  });
});

describe('an invocation read as a translation only on its own evidence', () => {
  it("a single-dash word option (`-on-error`) is no `-o` output: the interpreter's error is no compile error", () => {
    const f = top('+ sbcl-like -q -on-error exit src/main.lisp\n*** - EVAL: undefined function PARSE-ROW\nBuild step \'Execute shell\' marked build as failure\n');
    expect(f?.class).not.toBe('compile-error');
    // Counter-example: an attached output (`-obuild/app`) makes the same command a translation.
    const c = top('+ fpc-like -obuild/app src/main.pas\nsrc/main.pas(7,3) Error: Identifier not found "wrtieln"\nBuild step \'Execute shell\' marked build as failure\n');
    expect(c?.class).toBe('compile-error');
  });

  it("`-c` beside a data file (a column list) translates nothing; beside a checked input it does", () => {
    const f = top('+ tabcut -c id,mail,plan exports/users.tsv\nColumnError: Column \'mail\' is invalid. Column names are: \'id\', \'email\', \'plan\'\nBuild step \'Execute shell\' marked build as failure\n');
    expect(f?.class).not.toBe('compile-error');
    const c = top('+ fwload -c -f conf/rules.fw\nconf/rules.fw:13:13-28: Error: unknown identifier \'hosts\'\nBuild step \'Execute shell\' marked build as failure\n');
    expect(c?.class).toBe('compile-error');
  });
});

describe('evidence about the tool, not the code', () => {
  it("the JVM module resolver's `Module x not found` is a dependency the module path lacks", () => {
    const f = top('+ jpackage-like --add-modules java.base,jdk.httpserverx --output out\nError: Module jdk.httpserverx not found\njava.lang.module.FindException: Module jdk.httpserverx not found\n\tat java.base/java.lang.module.Resolver.findFail(Resolver.java:893)\n\tat java.base/java.lang.module.Resolver.resolve(Resolver.java:129)\nERROR: script returned exit code 1\n');
    expect([f?.class, f?.dependency]).toEqual(['dependency-resolution', 'jdk.httpserverx']);
    // Counter-example: another exception in the same resolver's frames stays the program's.
    const e = top('+ java -jar app.jar\nException in thread "main" java.lang.IllegalStateException: no config\n\tat com.acme.App.main(App.java:9)\nERROR: script returned exit code 1\n');
    expect(e?.class).toBe('runtime-exception');
  });

  it("a checker that could not load its own rule set reports nothing of the checked files: no lint", () => {
    const f = top('+ stylecheck --standard=ci/ruleset.xml src\nERROR: Referenced rule "Acme.Naming.Camel" does not exist\n\nRun "stylecheck --help" for usage information\nBuild step \'Execute shell\' marked build as failure\n');
    expect(f?.class).not.toBe('lint');
    // Counter-example: its error on a checked file is lint.
    const l = top('+ stylecheck --standard=ci/ruleset.xml src\n  4:1  error  Missing doc comment for function run()  (acme-doc-comment)\nBuild step \'Execute shell\' marked build as failure\n');
    expect(l?.class).toBe('lint');
  });
});

/**
 * More everyday shapes, real logs made here (javac/java 17, Python 3.11, g++ 12, cmake 3.25, bash; paths
 * rewritten to /ws, node 20): what the finding gives now.
 */
describe('everyday shapes: real logs (helper tf2)', () => {
  it.each<[string, string, string | undefined, string, string | undefined, number | undefined]>([
    ['java-class-not-found', 'runtime-exception', 'java', 'java.lang.ClassNotFoundException: com.acme.Plugin', 'Main.java', 1],
    // The loader's cause has only JDK frames; its `... 1 more` is the enclosing trace's `at Main.main(Main.java:1)`.
    // The cause names the same class as the JVM's `NoClassDefFoundError`: the outer verdict is the message (helper t12).
    // A class the JVM could not find at run time is a link error (the lead's decision, session 56; helper jv1, session 57).
    ['java-noclassdef', 'link-error', 'java', 'NoClassDefFoundError: Util', 'Main.java', 1],
    // A one-frame stack ranks Node's `Node.js v20` footer first: the footer reads back to the error above it.
    ['node-require-esm', 'runtime-exception', 'node', 'Error [ERR_REQUIRE_ESM]: require() of ES Module', '/ws/main.cjs', 1],
    ['python-module-not-found-script', 'dependency-resolution', 'python', "No module named 'requestsx'", '/ws/fetch.py', 1],
    ['gxx-undefined-reference', 'link-error', 'ld', 'undefined reference to `area(int, int)\'', 'main.cpp', undefined],
    ['cmake-could-not-find', 'dependency-resolution', 'cmake', 'provided by "ZeroMQ"', 'CMakeLists.txt', 3],
    ['shell-permission-denied', 'permission-credentials', undefined, './deploy.sh: Permission denied', 'ci.sh', 1],
    // npm 11 against the registry; pip 23 with `--no-index --find-links` over hand-made wheels whose pins conflict.
    ['npm-e404', 'dependency-resolution', 'npm', '404 Not Found - GET https://registry.npmjs.org/left-pad-not-a-real-pkg-tf2', undefined, undefined],
    ['npm-etarget', 'dependency-resolution', 'npm', 'No matching version found for left-pad@^9.9.9.', undefined, undefined],
    ['pip-resolution-impossible', 'dependency-resolution', 'pip', 'these package versions have conflicting dependencies', undefined, undefined],
  ])('%s: %s', (name, cls, tool, message, file, line) => {
    const f = read(name);
    expect([f?.class, f?.tool]).toEqual([cls, tool]);
    expect(f?.message).toContain(message);
    expect([f?.location?.file, f?.location?.line]).toEqual([file, line]);
  });
});

describe("a JVM cause's `... N more` frames", () => {
  it("are the enclosing trace's last frames: the project's frame when the cause has none of its own", () => {
    const trace = (cause: string): string => `+ java -cp build app.Cli\nException in thread "main" java.lang.IllegalStateException: init failed\n\tat app.Cli.start(Cli.java:14)\n\tat app.Cli.main(Cli.java:5)\nCaused by: java.io.FileNotFoundException: conf.yml\n${cause}\t... 2 more\nERROR: script returned exit code 1\n`;
    const f = top(trace('\tat java.base/java.io.FileInputStream.open0(Native Method)\n\tat java.base/java.io.FileInputStream.<init>(FileInputStream.java:216)\n'));
    expect([f?.location?.file, f?.location?.line]).toEqual(['app/Cli.java', 14]);
    // Counter-example: a cause with its own project frame keeps it.
    const own = top(trace('\tat app.Config.load(Config.java:31)\n'));
    expect([own?.location?.file, own?.location?.line]).toEqual(['app/Config.java', 31]);
  });
});
