/** Which source file a test file exercises (moved out of snippets.ts to keep it under 700 lines). */
/** The file a test file tests, by the usual naming (`FooTest.java`, `foo.test.ts`, `test_foo.py`, `foo_test.go`). */
export function subjectOf(testPath: string): string | undefined {
  const slash = testPath.lastIndexOf('/');
  const dir = testPath.slice(0, slash + 1).replace(/(^|\/)(src\/)?(test|tests|__tests__|spec|tb|testbench)\//, '$1$2');
  const base = testPath.slice(slash + 1);
  const m =
    /^(\w+?)(?:Tests?|Spec|IT)\.(java|kt|scala|groovy)$/.exec(base) ??
    /^([\w-]+)\.(?:test|spec)\.([cm]?[jt]sx?)$/.exec(base) ??
    /^test_(\w+)\.(py)$/.exec(base) ??
    /^(\w+)_test\.(py|go|c|cc|cpp|rb|exs|erl|lua|ml)$/.exec(base) ??
    /^test_?(\w+)\.(c|cc|cpp|rb|lua|ml|pl)$/.exec(base) ??
    /^(\w+)_(?:spec|SUITE)\.(rb|erl|lua)$/.exec(base) ??
    /^(\w+?)Test\.(php)$/.exec(base) ??
    /^(\w+?)_tests?\.(rs)$/.exec(base) ??
    // HDL testbenches: `adder_tb.vhd`, `tb_alu.v`, `fifo_test.sv`.
    /^(\w+?)_(?:tb|testbench|test)\.(vhdl?|s?v)$/.exec(base) ??
    /^tb_(\w+)\.(vhdl?|s?v)$/.exec(base) ??
    // Any other language, the same conventions: `test_movavg.m`, `slug-test.scm`, `cart_spec.cr`, `ParserTests.fs`.
    /^tests?[_-]([\w-]+)\.(\w+)$/.exec(base) ??
    /^([\w-]+?)[_-](?:tests?|spec)\.(\w+)$/.exec(base) ??
    /^([A-Z]\w+?)(?:Tests?|Spec)\.(\w+)$/.exec(base);
  if (!m?.[1] || !m[2]) return undefined;
  return `${dir}${m[1]}.${m[2]}`;
}

/** Crates a Rust test uses that are not the one under test: the standard library, paths relative to this one, the usual test helpers. */
const RUST_NOT_CRATE = /^(?:std|core|alloc|crate|self|super|proptest|quickcheck|rstest|pretty_assertions|assert_cmd|predicates|tempfile|serde\w*|tokio|anyhow|criterion|insta)$/;

const NOT_SUBJECT = /^(?:Test|Test2|strict|warnings|lib|utf8|vars|constant|parent|base|Exporter|Carp|Data::Dumper|FindBin|POSIX|minitest|minitest\/autorun|rspec|test\/unit|test_helper|spec_helper|unittest|pytest|os|sys|re|json|typing|pathlib|collections|dataclasses|assert|node:.*|vitest|@jest\/globals|busted|luaunit|eunit|ct|lists|io|maps|string|PHPUnit)(?:$|::|\\|\/)/;

/**
 * The files a test file imports from the project, as path suffixes to look for (`use Version;` ->
 * `Version.pm`, `require_relative '../lib/cart'` -> `lib/cart.rb`, `from shop.cart import x` ->
 * `shop/cart.py`, `import { x } from '../src/cart'` -> `src/cart`, `require 'cart'` (Lua) ->
 * `cart.lua`, `cart:total(...)` (Erlang) -> `cart.erl`, `#include "ring.h"` -> `ring.c`): where
 * the code under test is when the file names do not pair up. Test frameworks left out.
 */
export function importedSubjects(testPath: string, lines: readonly string[]): string[] {
  const dir = testPath.slice(0, testPath.lastIndexOf('/') + 1);
  const ext = /\.([A-Za-z0-9]+)$/.exec(testPath)?.[1]?.toLowerCase() ?? '';
  const join = (rel: string): string => {
    const parts: string[] = [];
    for (const seg of `${dir}${rel}`.split('/')) {
      if (seg === '..') parts.pop();
      else if (seg !== '.' && seg !== '') parts.push(seg);
    }
    return parts.join('/');
  };
  const out: string[] = [];
  const add = (p: string | undefined): void => {
    if (p && !out.includes(p)) out.push(p);
  };
  for (const line of lines.slice(0, 200)) {
    let m: RegExpExecArray | null;
    if ((ext === 't' || ext === 'pl' || ext === 'pm') && (m = /^\s*use\s+([A-Za-z][\w:]*)\s*[;(\s]/.exec(line)) && !NOT_SUBJECT.test(m[1] as string)) add(`${(m[1] as string).replace(/::/g, '/')}.pm`);
    if (ext === 'rb' && (m = /require_relative\s+['"]([^'"]+)['"]/.exec(line)) && !NOT_SUBJECT.test(m[1] as string)) add(`${join(m[1] as string)}.rb`.replace(/\.rb\.rb$/, '.rb'));
    if (ext === 'rb' && (m = /^\s*require\s+['"]([\w/]+)['"]/.exec(line)) && !NOT_SUBJECT.test(m[1] as string)) add(`${m[1] as string}.rb`);
    if (ext === 'py' && (m = /^\s*(?:from\s+([\w.]+)\s+import|import\s+([\w.]+))/.exec(line))) {
      const mod = (m[1] ?? m[2]) as string;
      if (!NOT_SUBJECT.test(mod) && !mod.startsWith('.')) add(`${mod.replace(/\./g, '/')}.py`);
    }
    if (/^[cm]?[jt]sx?$/.test(ext) && (m = /(?:from\s+|require\(\s*|import\(\s*)['"](\.{1,2}\/[^'"]+)['"]/.exec(line))) {
      const p = join(m[1] as string);
      if (/\.[cm]?[jt]sx?$/.test(p)) add(p);
      else add(`${p}.${/^[cm]?ts/.test(ext) ? ext.replace(/x$/, '') : 'js'}`);
    }
    if (ext === 'lua' && (m = /require\s*\(?\s*['"]([\w.]+)['"]/.exec(line)) && !NOT_SUBJECT.test(m[1] as string)) add(`${(m[1] as string).replace(/\./g, '/')}.lua`);
    if (ext === 'erl') for (const call of line.matchAll(/\b([a-z]\w*):[a-z]\w*\(/g)) if (!NOT_SUBJECT.test(call[1] as string) && !/_(?:SUITE|tests?)$/.test(call[1] as string)) add(`${call[1] as string}.erl`);
    if (ext === 'php' && (m = /^\s*use\s+([\w\\]+)\s*;/.exec(line)) && !NOT_SUBJECT.test(m[1] as string)) add(`${(m[1] as string).split('\\').pop() as string}.php`);
    if (ext === 'php' && (m = /require(?:_once)?\s*\(?\s*(?:__DIR__\s*\.\s*)?['"]\/?([^'"]+\.php)['"]/.exec(line))) add(join(m[1] as string));
    if (/^(?:c|cc|cpp)$/.test(ext) && (m = /^\s*#include\s+"([^"]+)\.h(?:pp)?"/.exec(line))) add(`${(m[1] as string).replace(/^(?:\.\.\/)+/, '').replace(/^include\//, '')}.${ext}`);
    if (ext === 'ml' && (m = /^\s*open\s+([A-Z]\w*)/.exec(line))) add(`${(m[1] as string).charAt(0).toLowerCase()}${(m[1] as string).slice(1)}.ml`);
    // A Rust integration test (`tests/x.rs`) uses its crate by name (`use posttags::distinct;`): the crate's
    // `src/<module>.rs` when it names a module (`use posttags::tags::distinct`), else its `src/lib.rs`.
    if (ext === 'rs' && /(?:^|\/)tests\/$/.test(dir) && (m = /^\s*use\s+([a-z_]\w*)::(?:([a-z_]\w*)::)?/.exec(line)) && !RUST_NOT_CRATE.test(m[1] as string)) {
      if (m[2]) add(join(`../src/${m[2] as string}.rs`));
      add(join('../src/lib.rs'));
    }
    if (out.length >= 3) break;
  }
  return out;
}
