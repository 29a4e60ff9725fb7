import { describe, expect, it } from '@jest/globals';
import { analyze } from '../../test/helpers/rulesReading.js';
import type { Finding } from '../../protocol/types.js';

/**
 * Warnings made fatal (test/fixtures/realfail/README.md, decided 2026-11-28; docs/notes/analyzer.md, "Eighth
 * session (helper t10)"): a compiler's own warnings under -Werror are a compile error naming the flag or code,
 * a linter's or doc checker's are lint. Made-up logs of other projects, each with a counter-example.
 */
const top = (text: string): Finding | undefined => analyze(text)[0]?.finding;
const row = (f: Finding | undefined): unknown[] => [f?.class, f?.tool, f?.code, f?.location?.file, f?.location?.line];

describe("javac's `warnings found and -Werror specified`: the warning above it is the message and the place", () => {
  it('javac run directly: compile-error, the first warning', () => {
    const log = [
      '+ javac -Xlint:all -Werror -d out src/org/shop/Cart.java src/org/shop/Item.java',
      'src/org/shop/Cart.java:14: warning: [rawtypes] found raw type: List',
      '    private final List items = new ArrayList<>();',
      '                  ^',
      '  missing type arguments for generic class List<E>',
      '  where E is a type-variable:',
      '    E extends Object declared in interface List',
      'src/org/shop/Item.java:9: warning: [serial] serializable class Item has no definition of serialVersionUID',
      'public class Item implements java.io.Serializable {',
      '       ^',
      'error: warnings found and -Werror specified',
      '1 error',
      '2 warnings',
      "Build step 'Execute shell' marked build as failure",
    ].join('\n');
    const f = top(log);
    expect(row(f)).toEqual(['compile-error', 'javac', '-Xlint:rawtypes', 'src/org/shop/Cart.java', 14]);
    expect(f?.message).toContain('found raw type: List');
  });

  it("Maven's compiler plugin: the `[WARNING] file:[line,col]` line of the same execution", () => {
    const log = [
      '[INFO] --- maven-compiler-plugin:3.11.0:compile (default-compile) @ ledger ---',
      '[INFO] Compiling 4 source files with javac [debug release 21] to target/classes',
      '[WARNING] /ci/ledger/src/main/java/io/ledger/Book.java:[40,17] finalize() in java.lang.Object has been deprecated and marked for removal',
      '[INFO] 1 warning',
      '[INFO] -------------------------------------------------------------',
      '[ERROR] COMPILATION ERROR : ',
      '[ERROR] /ci/ledger/src/main/java/io/ledger/Book.java: warnings found and -Werror specified',
      '[INFO] 1 error',
      '[INFO] BUILD FAILURE',
      '[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.11.0:compile (default-compile) on project ledger: Compilation failure',
      '[ERROR] /ci/ledger/src/main/java/io/ledger/Book.java: warnings found and -Werror specified',
    ].join('\n');
    const f = top(log);
    expect(row(f)).toEqual(['compile-error', 'javac', undefined, '/ci/ledger/src/main/java/io/ledger/Book.java', 40]);
    expect(f?.message).toContain('finalize() in java.lang.Object has been deprecated');
  });

  it("javadoc's doclint under -Werror (Maven's javadoc plugin) is lint", () => {
    const log = [
      '[INFO] --- maven-javadoc-plugin:3.6.3:jar (attach-javadocs) @ ledger ---',
      '[INFO] BUILD FAILURE',
      '[ERROR] Failed to execute goal org.apache.maven.plugins:maven-javadoc-plugin:3.6.3:jar (attach-javadocs) on project ledger: MavenReportException: Error while generating Javadoc: ',
      '[ERROR] Exit code: 1',
      '[ERROR] /ci/ledger/src/main/java/io/ledger/Book.java:22: warning: no comment',
      '[ERROR]     public long total() {',
      '[ERROR]                 ^',
      '[ERROR] error: warnings found and -Werror specified',
      '[ERROR] Command line was: /usr/lib/jvm/java-17-openjdk-amd64/bin/javadoc @options @packages',
    ].join('\n');
    const f = top(log);
    expect([f?.class, f?.tool, f?.location?.file, f?.location?.line]).toEqual(['lint', 'javadoc', '/ci/ledger/src/main/java/io/ledger/Book.java', 22]);
    expect(f?.message).toContain('warning: no comment');
  });

  it('javadoc run directly under -Xdoclint -Werror is lint', () => {
    const log = [
      '+ javadoc -Xdoclint:all -Werror -quiet -d build/docs -sourcepath src -subpackages org.shop',
      'src/org/shop/Cart.java:8: warning: no @return',
      '    public int size() {',
      '               ^',
      'error: warnings found and -Werror specified',
      '1 error',
      '1 warning',
    ].join('\n');
    expect(row(top(log))).toEqual(['lint', 'javadoc', undefined, 'src/org/shop/Cart.java', 8]);
  });

  it('counter-example: a javac error with warnings above stays the error, at its own place', () => {
    const log = [
      '+ javac -Xlint:all -d out src/org/shop/Cart.java',
      'src/org/shop/Cart.java:14: warning: [rawtypes] found raw type: List',
      'src/org/shop/Cart.java:30: error: cannot find symbol',
      '        return totl;',
      '               ^',
      '  symbol:   variable totl',
      '1 error',
      '1 warning',
    ].join('\n');
    const f = top(log);
    expect([f?.class, f?.location?.line]).toEqual(['compile-error', 30]);
    expect(f?.message).toContain('cannot find symbol');
  });
});

describe('rustc lints made errors: rustc\'s own are compile errors, clippy\'s are lint', () => {
  const unused = (command: string): string =>
    [
      `+ ${command}`,
      '    Checking meter v0.2.0 (/ci/meter)',
      'error: unused variable: `scale`',
      ' --> src/gauge.rs:12:9',
      '   |',
      '12 |     let scale = 10;',
      '   |         ^^^^^ help: if this is intentional, prefix it with an underscore: `_scale`',
      '   |',
      '   = note: `-D unused-variables` implied by `-D warnings`',
      '',
      'error: could not compile `meter` (lib) due to 1 previous error',
    ].join('\n');

  it('cargo build under RUSTFLAGS=-D warnings: compile-error of rustc', () => {
    expect(row(top(unused('cargo build --offline')))).toEqual(['compile-error', 'rustc', undefined, 'src/gauge.rs', 12]);
  });

  it('the same rustc lint reported by cargo clippy is still the compiler\'s', () => {
    expect(row(top(unused('cargo clippy --offline -- -D warnings')))).toEqual(['compile-error', 'rustc', undefined, 'src/gauge.rs', 12]);
  });

  it('a `#![deny(warnings)]` in the crate: compile-error of rustc', () => {
    const log = [
      '+ cargo build --offline',
      'error: function `helper` is never used',
      ' --> src/lib.rs:30:4',
      '   |',
      '30 | fn helper() {}',
      '   |    ^^^^^^',
      '   |',
      'note: the lint level is defined here',
      ' --> src/lib.rs:1:9',
      '   |',
      '1  | #![deny(warnings)]',
      '   |         ^^^^^^^^',
      '   = note: `#[deny(dead_code)]` implied by `#[deny(warnings)]`',
      'error: could not compile `meter` (lib) due to 1 previous error',
    ].join('\n');
    expect(row(top(log))).toEqual(['compile-error', 'rustc', undefined, 'src/lib.rs', 30]);
  });

  it("counter-example: clippy's own lint stays lint", () => {
    const log = [
      '+ cargo clippy --offline -- -D warnings',
      'error: this `if` has identical blocks',
      ' --> src/gauge.rs:20:5',
      '   |',
      '   = help: for further information visit https://rust-lang.github.io/rust-clippy/master/index.html#if_same_then_else',
      '   = note: `-D clippy::if-same-then-else` implied by `-D warnings`',
      'error: could not compile `meter` (lib) due to 1 previous error',
    ].join('\n');
    expect(row(top(log))).toEqual(['lint', 'clippy', 'clippy::if_same_then_else', 'src/gauge.rs', 20]);
  });
});

describe('gcc and clang name the warning made fatal: it is the code', () => {
  it('gcc `[-Werror=x]`', () => {
    const log = ['+ make', 'cc -Wall -Werror -c -o q.o src/q.c', "src/q.c:8:7: error: unused variable 'n' [-Werror=unused-variable]", 'cc1: all warnings being treated as errors', 'make: *** [Makefile:4: q.o] Error 1'].join('\n');
    expect(row(top(log))).toEqual(['compile-error', 'gcc', '-Werror=unused-variable', 'src/q.c', 8]);
  });

  it('clang `[-Werror,-Wx]`', () => {
    const log = ['+ make CC=clang', 'clang -Wall -Werror -c -o q.o src/q.c', "src/q.c:8:7: error: unused variable 'n' [-Werror,-Wunused-variable]", '1 error generated.', 'make: *** [Makefile:4: q.o] Error 1'].join('\n');
    // The tool is clang (its `1 error generated.`, its command): compilerName.ts, helper g10.
    expect(row(top(log))).toEqual(['compile-error', 'clang', '-Wunused-variable', 'src/q.c', 8]);
  });

  it('counter-example: a plain error names no flag', () => {
    const log = ['+ make', 'cc -c -o q.o src/q.c', "src/q.c:8:7: error: 'n' undeclared (first use in this function)", 'make: *** [Makefile:4: q.o] Error 1'].join('\n');
    expect(top(log)?.code).toBeUndefined();
  });
});
