/**
 * "How do I fix it?" reads the project's files (helper fx11, issue 25 point 3): a symbol the linker could not find
 * that the workspace defines where no other file can link to it (jenkins/workspace/linkVisibility.ts,
 * backend/answer/local/linkageSteps.ts): `static`, `inline` in a source file, a template defined in a source file, a
 * C++ `const` that does not see its `extern` declaration, a library built with hidden visibility whose declaration
 * lacks the export mark; the data file the failing code reads (jenkins/workspace/dataFiles.ts,
 * backend/answer/local/dataFileSteps.ts); a name the tool says is not defined and the project's definition of a name
 * like it (jenkins/workspace/renamedName.ts, backend/answer/local/renamedSteps.ts); a name used before its declaration
 * ran (jenkins/workspace/useBeforeDeclaration.ts). Made-up logs and projects first (each shape with a case where nothing may be said), then
 * the real cases of the tuning rounds (<= 19); every citation checked.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fixOfRealCase, fixOfShellLog } from './helpers/shellLogFix.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A project directory with these files. */
function project(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'fx11-'));
  dirs.push(dir);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

/** A make run whose link of `out` from `objects` misses `symbol`, as GNU ld says it. */
function linkLog(objects: string[], symbol: string, user: string): string[] {
  return [
    '+ make',
    ...objects.map((o) => `cc -c -o ${o} ${o.replace(/\.o$/, '.c')}`),
    `cc -o app ${objects.join(' ')}`,
    `/usr/bin/ld: ${user}: in function \`main':`,
    `${path.basename(user, '.o')}.c:(.text+0x2c): undefined reference to \`${symbol}'`,
    'collect2: error: ld returned 1 exit status',
    'make: *** [Makefile:4: app] Error 1',
  ];
}

describe('a symbol defined where no other file can link to it', () => {
  const crcC = '#include "crc.h"\n\nstatic unsigned crc8(const unsigned char *p, int n)\n{\n    return n ? p[0] : 0;\n}\n\nunsigned crc16(const unsigned char *p, int n)\n{\n    return crc8(p, n) << 8;\n}\n';
  const crcH = '#ifndef CRC_H\n#define CRC_H\nunsigned crc16(const unsigned char *p, int n);\n#endif\n';
  const mainC = '#include "crc.h"\nint main(void)\n{\n    return (int)crc8((const unsigned char *)"x", 1);\n}\n';

  it('static: says so, and offers the prototype for the header named after the defining file', async () => {
    const ws = project({ 'src/crc.c': crcC, 'src/crc.h': crcH, 'src/main.c': mainC });
    const fix = await fixOfShellLog(linkLog(['src/main.o', 'src/crc.o'], 'crc8', 'src/main.o'), 'crc', '/tmp/jenkins7.sh', ws);
    expect(fix).toContain('`src/crc.c:3` defines `crc8` as `static`');
    expect(fix).toContain('`src/crc.h` is the header of `src/crc.c` and declares no `crc8`');
    expect(fix).toContain('`unsigned crc8(const unsigned char *p, int n);`');
    // The usual reading ("not compiled into this link") is not said of a definition whose linkage is the cause.
    expect(fix).not.toContain('is not compiled into this link');
  });

  it('says nothing of static when another file defines the name for the link', async () => {
    const ws = project({ 'src/crc.c': crcC, 'src/crc.h': crcH, 'src/main.c': mainC, 'lib/crc8.c': 'unsigned crc8(const unsigned char *p, int n)\n{\n    return 0;\n}\n' });
    const fix = await fixOfShellLog(linkLog(['src/main.o', 'src/crc.o'], 'crc8', 'src/main.o'), 'crc', '/tmp/jenkins7.sh', ws);
    expect(fix).not.toContain('as `static`');
  });

  it('a C++ const that does not see its extern declaration; nothing when it includes the header', async () => {
    const files = { 'src/limits.h': '#pragma once\nextern const int kMaxConnections;\n', 'src/defaults.cpp': '// defaults\nconst int kMaxConnections = 256;\n', 'src/main.cpp': '#include "limits.h"\nint main() { return kMaxConnections; }\n' };
    const log = ['+ make', 'c++ -c -o src/defaults.o src/defaults.cpp', 'c++ -c -o src/main.o src/main.cpp', 'c++ -o app src/defaults.o src/main.o', 'ld.lld: error: undefined symbol: kMaxConnections', '>>> referenced by main.cpp', '>>>               src/main.o:(main)', 'c++: error: linker command failed with exit code 1 (use -v to see invocation)', 'make: *** [Makefile:4: app] Error 1'];
    const fix = await fixOfShellLog(log, 'limits', '/tmp/jenkins7.sh', project(files));
    expect(fix).toContain('`src/defaults.cpp:2` defines `kMaxConnections` as a `const` at namespace scope');
    expect(fix).toContain('Add `#include "limits.h"` to `src/defaults.cpp`');
    expect(fix).toContain('`extern const int kMaxConnections = 256;`');
    const included = await fixOfShellLog(log, 'limits', '/tmp/jenkins7.sh', project({ ...files, 'src/defaults.cpp': '#include "limits.h"\nconst int kMaxConnections = 256;\n' }));
    expect(included).not.toContain('at namespace scope');
  });

  it('inline in a source file, and a template defined in a source file with its explicit instantiation', async () => {
    const ws = project({
      'src/rate.h': 'class Rate {\npublic:\n    double ratio() const;\n};\n',
      'src/rate.cpp': '#include "rate.h"\n\ninline double Rate::ratio() const\n{\n    return 1.0;\n}\n',
      'src/stats.hpp': '#pragma once\n#include <vector>\nnamespace stats {\ntemplate <typename T>\nT median(std::vector<T> v);\n}\n',
      'src/stats.cpp': '#include "stats.hpp"\nnamespace stats {\n\ntemplate <typename T>\nT median(std::vector<T> v)\n{\n    return v[0];\n}\n}\n',
    });
    const inline = await fixOfShellLog(['+ make', 'c++ -o app src/main.o src/rate.o', 'ld.lld: error: undefined symbol: Rate::ratio() const', '>>> referenced by main.cpp', 'make: *** [Makefile:4: app] Error 1'], 'rate', '/tmp/jenkins7.sh', ws);
    expect(inline).toContain('`src/rate.cpp:3` defines `Rate::ratio` as `inline` in a source file');
    expect(inline).toContain('the header that declares it (`src/rate.h:3`)');
    const template = await fixOfShellLog(['+ make', 'g++ -o app src/main.o src/stats.o', "/usr/bin/ld: src/main.o: in function `main':", "main.cpp:(.text.startup+0x11d): undefined reference to `int stats::median<int>(std::vector<int, std::allocator<int> >)'", 'collect2: error: ld returned 1 exit status', 'make: *** [Makefile:4: app] Error 1'], 'stats', '/tmp/jenkins7.sh', ws);
    expect(template).toContain('`src/stats.cpp:5` defines the template `stats::median` in a source file');
    expect(template).toContain('`template int stats::median<int>(std::vector<int, std::allocator<int> >);`');
    expect(template).toContain('(`src/stats.hpp:5`)');
  });

  it('a library built with hidden visibility: the declaration without the export mark; nothing when the build does not hide', async () => {
    const files = {
      'geo/geo.h': '#pragma once\n#define GEO_API __attribute__((visibility("default")))\nGEO_API double geo_km(double a, double b);\ndouble geo_deg(double a, double b);\n',
      'geo/geo.c': '#include "geo.h"\nGEO_API double geo_km(double a, double b)\n{\n    return a - b;\n}\n\ndouble geo_deg(double a, double b)\n{\n    return a + b;\n}\n',
      Makefile: 'CFLAGS += -fPIC -fvisibility=hidden\nlibgeo.so: geo/geo.o\n\tcc -shared -o $@ $^\n',
      'app/route.c': '#include "geo.h"\nint main(void) { return (int)geo_deg(1, 2); }\n',
    };
    const log = ['+ make', 'cc -fPIC -fvisibility=hidden -c -o geo/geo.o geo/geo.c', 'cc -shared -o libgeo.so geo/geo.o', 'cc -o route app/route.c -L. -lgeo', "/usr/bin/ld: /tmp/ccX.o: in function `main':", "route.c:(.text+0x1b): undefined reference to `geo_deg'", 'collect2: error: ld returned 1 exit status', 'make: *** [Makefile:6: route] Error 1'];
    const fix = await fixOfShellLog(log, 'geo', '/tmp/jenkins7.sh', project(files));
    expect(fix).toContain('`geo/geo.h:4` declares `geo_deg` without `GEO_API`');
    expect(fix).toContain('`Makefile:1` builds with hidden visibility');
    expect(fix).toContain('`geo/geo.c:7` defines `geo_deg`');
    const shown = await fixOfShellLog(log, 'geo', '/tmp/jenkins7.sh', project({ ...files, Makefile: 'CFLAGS += -fPIC\nlibgeo.so: geo/geo.o\n\tcc -shared -o $@ $^\n' }));
    expect(shown).not.toContain('without `GEO_API`');
  });
});

describe('the data file the failing code reads', () => {
  const testLog = (lines: string[]): string[] => ['+ npx vitest run', ...lines, ' Test Files  1 failed (1)', 'npm error Test failed.'];

  it("a JSON parser's position: the line it falls on, and the trailing comma before it", async () => {
    const ws = project({
      'test/convert.test.js': "import { readFileSync } from 'node:fs';\nimport { test } from 'vitest';\nlet rates;\ntest('converts', () => {\n  rates = JSON.parse(readFileSync(new URL('./fixtures/rates.json', import.meta.url), 'utf8'));\n});\n",
      'test/fixtures/rates.json': '{\n  "rates": {\n    "EUR": 1,\n    "SEK": 11.52,\n  }\n}\n',
    });
    const fix = await fixOfShellLog(testLog([' FAIL  test/convert.test.js > converts', 'SyntaxError: Expected double-quoted property name in JSON at position 49', ' ❯ test/convert.test.js:5:16']), 'rates', '/tmp/jenkins7.sh', ws);
    expect(fix).toContain('`test/fixtures/rates.json:5` is where the position the parser names falls in `./fixtures/rates.json`');
    expect(fix).toContain('the line before it, 4, ends with a comma (`"SEK": 11.52,`)');
  });

  it('a name the error quotes, in the file the error names; nothing for a file the workspace lacks without a missing-file error', async () => {
    const ws = project({
      'config/config_test.go': 'package config\n\nimport "testing"\n\nfunc TestLoad(t *testing.T) {\n\tc, err := Load("testdata/relay.json")\n\tif err != nil {\n\t\tt.Fatalf("Load(testdata/relay.json): %v", err)\n\t}\n\t_ = c\n}\n',
      'config/testdata/relay.json': '{\n  "host": "relay",\n  "retry_backoff_ms": 200\n}\n',
    });
    const log = ['+ go test ./config', '--- FAIL: TestLoad (0.00s)', '    config_test.go:8: Load(testdata/relay.json): json: unknown field "retry_backoff_ms"', 'FAIL', 'FAIL\texample.com/relay/config\t0.004s'];
    const fix = await fixOfShellLog(log, 'relay', '/tmp/jenkins7.sh', ws);
    expect(fix).toContain('`config/testdata/relay.json:3` holds `retry_backoff_ms`');
    expect(fix).toContain("I can't tell from the log which side is out of date");
    const other = await fixOfShellLog(log.map((l) => l.replace(/relay\.json/g, 'other.json')), 'relay', '/tmp/jenkins7.sh', ws);
    expect(other).not.toContain('a file like');
  });

  it('a missing file: the file like it with the same extension, and a classpath resource in a sub-directory', async () => {
    const ws = project({
      'tests/total.rs': 'use std::fs;\n\n#[test]\nfn totals() {\n    let csv = fs::read_to_string("tests/fixtures/orders.csv").unwrap();\n    assert!(!csv.is_empty());\n}\n',
      'tests/fixtures/orders-2024.csv': 'id,total\n1,10\n',
      'src/test/java/k/ScalerTest.java': 'package k;\n\nclass ScalerTest {\n    void load() throws Exception {\n        var r = new java.io.InputStreamReader(getClass().getResourceAsStream("/bread.properties"));\n    }\n}\n',
      'src/test/resources/recipes/bread.properties': 'flour=500\n',
    });
    const rust = await fixOfShellLog(['+ cargo test', 'running 1 test', 'test totals ... FAILED', '', 'failures:', '', '---- totals stdout ----', "thread 'totals' panicked at tests/total.rs:5:63:", 'called `Result::unwrap()` on an `Err` value: Os { code: 2, kind: NotFound, message: "No such file or directory" }', '', 'test result: FAILED. 0 passed; 1 failed', 'error: test failed, to rerun pass `--test total`'], 'orders', '/tmp/jenkins7.sh', ws);
    expect(rust).toContain('The workspace has `tests/fixtures/orders-2024.csv`, a file like `tests/fixtures/orders.csv`, which the failing code reads');
    const java = await fixOfShellLog(['+ gradle test', '> Task :test FAILED', '', 'k.ScalerTest > load FAILED', '    java.lang.NullPointerException', '        at java.base/java.io.Reader.<init>(Reader.java:168)', '        at k.ScalerTest.load(ScalerTest.java:5)', '', '1 test completed, 1 failed'], 'bread', '/tmp/jenkins7.sh', ws);
    expect(java).toContain('it is `/recipes/bread.properties`');
  });
});

describe('a file a directive includes, missing', () => {
  it('the file like it on the include path; nothing of another included file the error does not name', async () => {
    const ws = project({ 'proxy.conf.m4': "divert(-1)\ninclude(`upstreams.m4')dnl\ndivert(0)dnl\nserver {\n    listen 443 ssl;\n    include(`tls.m4')dnl\n}\n", 'templates/upstreams.m4': 'upstream app { server 127.0.0.1:9000; }\n', 'templates/tls-params.m4': '    ssl_protocols TLSv1.2 TLSv1.3;\n' });
    const fix = await fixOfShellLog(['+ m4 -I templates proxy.conf.m4', "m4:proxy.conf.m4:6: cannot open `tls.m4': No such file or directory"], 'proxy', '/tmp/jenkins7.sh', ws);
    expect(fix).toContain('The workspace has `templates/tls-params.m4`, a file like `tls.m4`');
    expect(fix).not.toContain('a file like `upstreams.m4`');
  });
});

describe('a name the tool says is not defined, and the definition of a name like it (a rename)', () => {
  it('a name in another file of the same language, the failing place cited; nothing when no name is like it', async () => {
    const ws = project({ 'src/report.pas': 'unit Report;\ninterface\nimplementation\nuses Temps;\nprocedure Show;\nbegin\n  WriteLn(CelsiusToF(21.5));\nend;\nend.\n', 'src/temps.pas': 'unit Temps;\ninterface\nfunction CelsiusToFahrenheit(c: Double): Double;\nimplementation\nend.\n' });
    const log = ['+ fpc src/report.pas', 'Free Pascal Compiler version 3.2.2', 'report.pas(7,11) Error: Identifier not found "CelsiusToF"', 'report.pas(9,4) Fatal: There were 1 errors compiling module, stopping', 'Fatal: Compilation aborted'];
    const fix = await fixOfShellLog(log, 'temps', '/tmp/jenkins7.sh', ws);
    expect(fix).toContain('`src/temps.pas:3` defines `CelsiusToFahrenheit`');
    expect(fix).toContain('where `CelsiusToF` is still used (`src/report.pas:7`)');
    const none = await fixOfShellLog(log.map((l) => l.replace('CelsiusToF', 'KelvinOf')), 'temps', '/tmp/jenkins7.sh', ws);
    expect(none).not.toContain('a name like');
  });

  it('no place in the message: the line that still uses the old name; the closest of two like names', async () => {
    const ws = project({ 'haproxy.cfg': 'frontend fe_main\n    bind :8080\n    use_backend be_apiv2 if is_v2\n    default_backend be_api\n\nbackend be_api\n    server a 127.0.0.1:9001\n\nbackend be_api_v2\n    server b 127.0.0.1:9002\n' });
    const fix = await fixOfShellLog(['+ haproxy -c -f haproxy.cfg', "[ALERT]    (4242) : config : Proxy 'fe_main': unable to find required use_backend: 'be_apiv2'.", '[ALERT]    (4242) : config : Fatal errors found in configuration.'], 'lb', '/tmp/jenkins7.sh', ws);
    expect(fix).toContain('`haproxy.cfg:9` defines `be_api_v2`');
    expect(fix).toContain('`haproxy.cfg:3` still uses `be_apiv2`');
    expect(fix).not.toContain('defines `be_api` (');
  });
});

describe('a name used before its declaration ran: which lines to move where', () => {
  it("tsc's TS2448 at a top-level use, and the temporal dead zone reached through a call; nothing when the declaration comes first", async () => {
    const ws = project({ 'src/limits.ts': 'import { log } from "./log";\n\nexport const budget = LIMIT * 2;\n\nexport const LIMIT = {\n  max: 10,\n}.max;\nlog(budget);\n' });
    const tsc = await fixOfShellLog(['+ npx tsc -p .', "src/limits.ts(3,23): error TS2448: Block-scoped variable 'LIMIT' used before its declaration.", '', 'Found 1 error in src/limits.ts:3'], 'limits', '/tmp/jenkins7.sh', ws);
    expect(tsc).toContain('`src/limits.ts:5` declares `LIMIT`');
    expect(tsc).toContain('move lines 5-7 above line 3 (or line 3 below line 7)');
    const js = project({ 'src/registry.js': 'const registry = build();\n\nfunction build() {\n  return { ...DEFAULTS };\n}\n\nconst DEFAULTS = { a: 1 };\nmodule.exports = registry;\n' });
    const log = ['+ node src/registry.js', '/ws/src/registry.js:4', '  return { ...DEFAULTS };', '              ^', '', "ReferenceError: Cannot access 'DEFAULTS' before initialization", '    at build (/ws/src/registry.js:4:15)', '    at Object.<anonymous> (/ws/src/registry.js:1:18)', '', 'Node.js v20.11.0'];
    const tdz = await fixOfShellLog(log, 'registry', '/tmp/jenkins7.sh', js);
    expect(tdz).toContain('line 1 of `src/registry.js`, above it, runs first and reaches its use at line 4: move line 7 above line 1');
    const fine = project({ 'src/registry.js': 'const DEFAULTS = { a: 1 };\nconst registry = build();\n\nfunction build() {\n  return { ...DEFAULTS };\n}\nmodule.exports = registry;\n' });
    expect(await fixOfShellLog(log, 'registry', '/tmp/jenkins7.sh', fine)).not.toContain('runs first');
  });
});

describe('real cases of the tuning rounds', () => {
  it.each([
    ['gold-static-function-undefined', ['`src/crc.c:3` defines `crc8` as `static`', '`src/crc.h` is the header of `src/crc.c`']],
    ['clangxx-lld-inline-defined-in-cpp-undefined', ['as `inline` in a source file', '(`src/rate.h:7`)']],
    ['lld-const-internal-linkage-undefined', ['`src/defaults.cpp` does not include `src/limits.h`', 'Add `#include "limits.h"`']],
    ['gxx-template-defined-in-cpp', ['defines the template `stats::median`', '(`src/stats.hpp:7`)']],
    ['ld-hidden-visibility-undefined', ['`geo/geo.h:5` declares `geo_bearing_deg` without `GEO_API`', '`CMakeLists.txt:3` builds with hidden visibility']],
    ['vitest-fixture-json-syntaxerror', ['`test/fixtures/rates.json:9` is where the position the parser names falls', '(`"SEK": 11.52,`)']],
    ['go-test-json-disallow-unknown-fields', ['`config/testdata/relay.json:5` holds `retry_backoff_ms`']],
    ['cargo-test-fixture-path-notfound', ['The workspace has `tests/fixtures/orders-2024.csv`']],
    ['gradle-junit-npe-in-before', ['it is `/recipes/bread.properties`']],
    ['java-exceptionininitializererror-static', ['The workspace has `resources/carriers/eu.properties`', 'it is `/carriers/eu.properties`']],
    ['pytest-fixture-setup-error', ['The workspace has `tests/fixtures/rates.json`']],
    ['asciidoctor-missing-include', ['The workspace has `docs/api/stock.adoc`']],
    ['m4-include-missing', ['The workspace has `templates/tls-params.m4`']],
    ['fpc-identifier-not-found', ['`src/temps.pas:7` defines `CelsiusToFahrenheit`', '(`src/report.pas:12`)']],
    ['gnuplot-undefined-variable', ['defines `slo_p95_ms`']],
    ['gprolog-existence-error', ['defines `discounted`', 'still uses `discount`']],
    ['haproxy-check-missing-backend', ['`haproxy.cfg:25` defines `be_api_v2`', '`haproxy.cfg:15` still uses `be_apiv2`']],
    ['maven-junit5-methodsource-missing', ['defines `standardRates`', "I can't tell which one was meant"]],
    ['ruby-uninitialized-constant', ['defines `TableWriter`']],
    ['sbcl-unbound-variable', ['defines `*default-vat-rate*`']],
    ['jest-tdz-referenceerror', ['line 1 of `src/templates.js`, above it, runs first and reaches its use at line 12: move lines 5-8 above line 1']],
    ['yosys-module-not-in-design', ['`rtl/uart_tx.v:1` defines `uart_tx`', 'still uses `uart_txd`']],
  ])('%s', async (id, said) => {
    const fix = await fixOfRealCase(id);
    for (const s of said) expect(fix).toContain(s);
  });
});
