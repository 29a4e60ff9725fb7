/**
 * "How do I fix it?" for a type lacking a member its interface, trait or base requires (helper fx16, issue 25 point
 * 3): the member as the interface declares it (its signature, cited where it is declared), the file that declares the
 * type, the member to add in the type's language; a C++ `override` that overrides nothing gets the base's signature
 * and the out-of-class definition to change with it (jenkins/workspace/requiredMembers.ts,
 * backend/answer/local/requiredMemberSteps.ts). Made-up projects with the tools' own output (go1.19, javac 17, rustc,
 * tsc 5.9, g++ and clang++, run on this machine), guards where nothing may be said, then the real cases of the tuning
 * rounds (<= 22). Every citation checked.
 */
import { fixOfRealCase, fixOfShellLog } from './helpers/shellLogFix.js';
import { project, removeProjects } from './helpers/projectDir.js';
import { requiredMemberOf } from '../jenkins/workspace/requiredMembers.js';
import { computingCalls } from '../jenkins/workspace/clues.js';

afterAll(removeProjects);

const goQueue = 'package queue\n\n// Queue holds pending jobs.\ntype Queue interface {\n\tPush(job string) error\n\tPop() (string, bool)\n\tLen() int\n}\n';
const goRing = 'package queue\n\n// Ring is a fixed-size queue.\ntype Ring struct {\n\titems []string\n}\n\nfunc (r *Ring) Push(job string) error { r.items = append(r.items, job); return nil }\n\nfunc (r *Ring) Pop() (string, bool) {\n\tif len(r.items) == 0 {\n\t\treturn "", false\n\t}\n\tj := r.items[0]\n\tr.items = r.items[1:]\n\treturn j, true\n}\n';
const goMain = 'package main\n\nimport (\n\t"fmt"\n\n\t"example.com/jobs/queue"\n)\n\nfunc main() {\n\tvar q queue.Queue = &queue.Ring{}\n\tfmt.Println(q.Len())\n}\n';
const goLog = ['+ go build ./...', '# example.com/jobs/cmd/run', 'cmd/run/main.go:10:22: cannot use &queue.Ring{} (value of type *queue.Ring) as type queue.Queue in variable declaration:', '\t*queue.Ring does not implement queue.Queue (missing Len method)'];

describe('a type lacking a member its interface requires', () => {
  it('Go: the interface method, the type\'s file and the method with its receiver', async () => {
    const fix = await fixOfShellLog(goLog, 'jobs', '/tmp/jenkins7.sh', project({ 'go.mod': 'module example.com/jobs\n\ngo 1.19\n', 'queue/queue.go': goQueue, 'queue/ring.go': goRing, 'cmd/run/main.go': goMain }));
    expect(fix).toContain('`queue/queue.go:7` declares `Len` in `Queue` as `Len() int`, and `Ring` (declared at `queue/ring.go:4`) does not implement it: add `func (r *Ring) Len() int { ... }` to `Ring` in `queue/ring.go`');
    expect(fix).toContain('the log does not say what it should do');
    // A Go interface has no default bodies.
    expect(fix).not.toContain('default body');
  });

  it('Go: nothing when two interfaces of that name declare the member (I can\'t tell which)', async () => {
    const fix = await fixOfShellLog(goLog, 'jobs', '/tmp/jenkins7.sh', project({ 'queue/queue.go': goQueue, 'legacy/queue.go': goQueue.replace('package queue', 'package legacy'), 'queue/ring.go': goRing, 'cmd/run/main.go': goMain }));
    expect(fix).not.toContain('does not implement it: add');
  });

  it('Go: a method with a pointer receiver is not a missing member', () => {
    expect(requiredMemberOf('notify/notifier.go:29:11: cannot use Slack{…} (value of type Slack) as type Notifier in map literal:\n\tSlack does not implement Notifier (Send method has pointer receiver)')).toBeUndefined();
  });

  it('Java: the interface method as declared, with @Override, and the interface\'s default body as the other way', async () => {
    const store = 'package app;\n\npublic interface Store {\n    String get(String key);\n\n    void put(String key, String value);\n\n    int size();\n}\n';
    const mapStore = 'package app;\n\nimport java.util.HashMap;\nimport java.util.Map;\n\npublic class MapStore implements Store {\n    private final Map<String, String> m = new HashMap<>();\n\n    public String get(String key) { return m.get(key); }\n\n    public void put(String key, String value) { m.put(key, value); }\n}\n';
    const log = ['+ javac -d out src/app/MapStore.java src/app/Store.java', 'src/app/MapStore.java:6: error: MapStore is not abstract and does not override abstract method size() in Store', 'public class MapStore implements Store {', '       ^', '1 error'];
    const fix = await fixOfShellLog(log, 'store', '/tmp/jenkins7.sh', project({ 'src/app/Store.java': store, 'src/app/MapStore.java': mapStore }));
    expect(fix).toContain('`src/app/Store.java:8` declares `size` in `Store` as `int size();`, and `MapStore` does not implement it: add `@Override public int size() { ... }` to `MapStore` in `src/app/MapStore.java`');
    expect(fix).toContain('or give it a `default` body in `Store` if every type may share one');
  });

  it('Java: nothing when the interface is not the project\'s (a library\'s)', async () => {
    const log = ['+ javac -d out src/app/Job.java', 'src/app/Job.java:3: error: Job is not abstract and does not override abstract method run() in Runnable', 'public class Job implements Runnable {', '       ^', '1 error'];
    const fix = await fixOfShellLog(log, 'jobs', '/tmp/jenkins7.sh', project({ 'src/app/Job.java': 'package app;\n\npublic class Job implements Runnable {\n    public void start() {}\n}\n' }));
    expect(fix).not.toContain('does not implement it: add');
  });

  it('Rust E0046: the trait item as the trait declares it, in the impl the error points at', async () => {
    const log = ['+ rustc --edition 2021 src/main.rs', 'error[E0046]: not all trait items implemented, missing: `name`', ' --> src/main.rs:6:1', '  |', '6 | impl Shape for Square {', '  | ^^^^^^^^^^^^^^^^^^^^^ missing `name` in implementation', '', 'error: aborting due to 1 previous error'];
    const fix = await fixOfShellLog(log, 'shapes', '/tmp/jenkins7.sh', project({ 'src/shape.rs': 'pub trait Shape {\n    fn area(&self) -> f64;\n    fn name(&self) -> String;\n}\n', 'src/main.rs': 'mod shape;\nuse shape::Shape;\n\nstruct Square(f64);\n\nimpl Shape for Square {\n    fn area(&self) -> f64 {\n        self.0 * self.0\n    }\n}\n\nfn main() {\n    println!("{}", Square(2.0).area());\n}\n' }));
    expect(fix).toContain('`src/shape.rs:3` declares `name` in `Shape` as `fn name(&self) -> String;`, and `Square` does not implement it: add `fn name(&self) -> String { ... }` to the `impl Shape for Square` block in `src/main.rs`');
  });

  const cache = 'export interface Cache {\n  get(key: string): string | undefined;\n  set(key: string, value: string): void;\n  clear(): void;\n}\n';
  const memory = "import type { Cache } from './cache';\n\nexport class MemoryCache implements Cache {\n  private m = new Map<string, string>();\n  get(key: string): string | undefined {\n    return this.m.get(key);\n  }\n  set(key: string, value: string): void {\n    this.m.set(key, value);\n  }\n}\n";
  it('tsc TS2420: the property tsc names on the next line, as the interface declares it', async () => {
    const log = ['+ npx tsc --noEmit', "src/memory.ts(3,14): error TS2420: Class 'MemoryCache' incorrectly implements interface 'Cache'.", "  Property 'clear' is missing in type 'MemoryCache' but required in type 'Cache'."];
    const fix = await fixOfShellLog(log, 'cache', '/tmp/jenkins7.sh', project({ 'src/cache.ts': cache, 'src/memory.ts': memory }));
    expect(fix).toContain('`src/cache.ts:4` declares `clear` in `Cache` as `clear(): void;`, and `MemoryCache` does not implement it: add `clear(): void { ... }` to `MemoryCache` in `src/memory.ts`');
    // A TypeScript interface has no bodies.
    expect(fix).not.toMatch(/body in `Cache`/);
  });

  it('tsc TS2515: an abstract getter of the base class, and a body in the base as the other way', async () => {
    const report = "export abstract class Report {\n  abstract title(): string;\n\n  abstract get format(): string;\n\n  header(): string {\n    return this.title().toUpperCase();\n  }\n}\n";
    const daily = "import { Report } from './report';\n\nexport class DailyReport extends Report {\n  title(): string {\n    return 'daily';\n  }\n}\n";
    const log = ['+ npx tsc --noEmit', "src/daily.ts(3,14): error TS2515: Non-abstract class 'DailyReport' does not implement inherited abstract member format from class 'Report'."];
    const fix = await fixOfShellLog(log, 'reports', '/tmp/jenkins7.sh', project({ 'src/report.ts': report, 'src/daily.ts': daily }));
    expect(fix).toContain('`src/report.ts:4` declares `format` in `Report` as `abstract get format(): string;`, and `DailyReport` does not implement it: add `get format(): string { ... }` to `DailyReport` in `src/daily.ts`');
    expect(fix).toContain('or give it a body in `Report` (not `abstract`) if every subclass may share one');
  });
});

describe('a C++ override that overrides nothing', () => {
  const sink = '#pragma once\n#include <string>\n\nclass Sink {\npublic:\n    virtual ~Sink() = default;\n    virtual void emit(const std::string &line, int level) = 0;\n};\n\nclass FileSink : public Sink {\npublic:\n    void emit(const std::string &line) override;\n};\n';
  const fileSink = '#include "sink.hpp"\n#include <iostream>\n\nvoid FileSink::emit(const std::string &line)\n{\n    std::cout << line << "\\n";\n}\n';
  const files = { 'src/sink.hpp': sink, 'src/file_sink.cpp': fileSink };
  const said = ['`src/sink.hpp:7` declares `emit` in `Sink` as `virtual void emit(const std::string &line, int level) = 0;`, and `FileSink::emit` at `src/sink.hpp:12` is declared with another signature, so it overrides nothing: make it `void emit(const std::string &line, int level) override;`', 'and its definition at `src/file_sink.cpp:4` (`void FileSink::emit(const std::string &line)`) the same way', 'the log does not say which side changed'];

  it('g++: the base\'s signature and the definition to change with the declaration', async () => {
    const log = ['+ g++ -c src/file_sink.cpp -o file_sink.o', 'In file included from src/file_sink.cpp:1:', 'src/sink.hpp:12:10: error: ‘void FileSink::emit(const std::string&)’ marked ‘override’, but does not override', '   12 |     void emit(const std::string &line) override;', '      |          ^~~~'];
    const fix = await fixOfShellLog(log, 'sinks', '/tmp/jenkins7.sh', project(files));
    for (const s of said) expect(fix).toContain(s);
  });

  it('clang++: the same from its note on the hidden virtual function', async () => {
    const log = ['+ clang++ -c src/file_sink.cpp -o file_sink.o', 'In file included from src/file_sink.cpp:1:', "src/sink.hpp:12:40: error: non-virtual member function marked 'override' hides virtual member function", '    void emit(const std::string &line) override;', '                                       ^', "src/sink.hpp:7:18: note: hidden overloaded virtual function 'Sink::emit' declared here: different number of parameters (2 vs 1)", '    virtual void emit(const std::string &line, int level) = 0;', '                 ^', '1 error generated.'];
    const fix = await fixOfShellLog(log, 'sinks', '/tmp/jenkins7.sh', project(files));
    for (const s of said) expect(fix).toContain(s);
  });
});

describe('the code under test, from the call that computed the checked value', () => {
  const check = '#pragma once\n#include <cstdio>\n#include <cstdlib>\n#define CHECK_EQ(a, b) do { auto va = (a); auto vb = (b); if (va != vb) { \\\n    std::fprintf(stderr, "%s:%d: CHECK_EQ(%s, %s) failed: %lld != %lld\\n", __FILE__, __LINE__, #a, #b, \\\n    (long long)va, (long long)vb); std::exit(1); } } while (0)\n';
  const stats = { 'src/stats.hpp': '#pragma once\nint scaled_percent(int part, int whole);\n', 'src/stats.cpp': '#include "stats.hpp"\n\nint scaled_percent(int part, int whole)\n{\n    return part / whole * 100;\n}\n', 'tests/check.hpp': check };
  const ccLog = ['+ g++ tests/percent_check.cpp src/stats.cpp -o percent_check', '+ ./percent_check', 'tests/percent_check.cpp:7: CHECK_EQ(got, 25) failed: 0 != 25'];

  it('C++: a check of a variable the test computed two lines up, in a file whose name does not pair', async () => {
    const test = '#include "../src/stats.hpp"\n#include "check.hpp"\n\nint main()\n{\n    int got = scaled_percent(1, 4);\n    CHECK_EQ(got, 25);\n    return 0;\n}\n';
    const fix = await fixOfShellLog(ccLog, 'stats', '/tmp/jenkins7.sh', project({ ...stats, 'tests/percent_check.cpp': test }));
    expect(fix).toContain('`src/stats.cpp:3` defines `scaled_percent` (`int scaled_percent(int part, int whole)`), which is called above the failing check, for the value it tests: what the check got comes from there.');
  });

  it('C++: nothing from a value another test computed (the search stops where the test starts)', async () => {
    const test = '#include "../src/stats.hpp"\n#include "check.hpp"\n\nint first() { int got = scaled_percent(1, 4); return got; }\nint main()\n{\n    CHECK_EQ(got, 25);\n    return 0;\n}\n';
    const fix = await fixOfShellLog(ccLog, 'stats', '/tmp/jenkins7.sh', project({ ...stats, 'tests/percent_check.cpp': test }));
    expect(fix).not.toContain('which is called above the failing check, for the value it tests');
  });

  it('Elixir: the function the check calls, in lib/, whose file is not named after the test', async () => {
    const log = ['+ mix test', '', '', '  1) test pads the cents (PriceTagTest)', '     test/price_tag_test.exs:4', '     Assertion with == failed', '     code:  assert tag == "$12.05"', '     left:  "$12.5"', '     right: "$12.05"', '     stacktrace:', '       test/price_tag_test.exs:6: (test)', '', '', 'Finished in 0.1 seconds (0.00s async, 0.1s sync)', '1 test, 1 failure'];
    const files = { 'mix.exs': 'defmodule Money.MixProject do\n  use Mix.Project\n\n  def project do\n    [app: :money, version: "0.1.0", elixir: "~> 1.12"]\n  end\nend\n', 'lib/format.ex': 'defmodule Money.Format do\n  @doc "Formats cents as a price string."\n  def price(cents) do\n    "$#{div(cents, 100)}.#{rem(cents, 100)}"\n  end\nend\n', 'test/test_helper.exs': 'ExUnit.start()\n', 'test/price_tag_test.exs': 'defmodule PriceTagTest do\n  use ExUnit.Case\n\n  test "pads the cents" do\n    tag = Money.Format.price(1205)\n    assert tag == "$12.05"\n  end\nend\n' };
    const fix = await fixOfShellLog(log, 'money', '/tmp/jenkins7.sh', project(files));
    expect(fix).toContain('`lib/format.ex:3` defines `price` (`def price(cents) do`), which is called above the failing check, for the value it tests');
  });

  it('reads the nearest assignment of a name the check uses, in the shapes of the languages', () => {
    expect(computingCalls('CHECK_EQ(got, want);', ['    long want = std::atol(argv[3]);', '    auto got = refill_tokens(milliseconds(ms), rate);', '    std::printf("%ld", ms);'])).toEqual(['refill_tokens', 'milliseconds', 'atol']);
    expect(computingCalls('assertNotNull(slot, "x");', ['        LocalTime slot = finder.firstFree(afternoon, LocalTime.of(12, 30), 15);'])).toEqual(['firstFree', 'of']);
    expect(computingCalls('if got != 3 {', ['\tgot := Count(items)'])).toEqual(['Count']);
    expect(computingCalls('assert_eq!(total, 3);', ['    let total: u32 = sum_all(&v);'])).toEqual(['sum_all']);
    expect(computingCalls('assert x == 1', ['def test_a():', '    x = compute()'])).toEqual(['compute']);
    expect(computingCalls('assert x == 1', ['    x = compute()', 'def test_b():'])).toEqual([]);
    expect(computingCalls('assert tag == "$12.05"', ['    tag = Money.Format.price(1205)'])).toEqual(['price']);
    expect(computingCalls('CHECK_EQ(got, 25);', ['    int got = parse().value();'])).toEqual(['parse']);
    expect(computingCalls('if (a == b) {', ['    a == load(b);'])).toEqual([]);
  });
});

describe('real tuned cases', () => {
  const cases: [string, string[]][] = [
    ['go-build-missing-interface-method', ['declares `Delete` in `Store` as `Delete(key string) error`', 'add `func (s *Disk) Delete(key string) error { ... }` to `Disk` in `blob/disk.go`']],
    ['tsc-build-incorrectly-implements', ['`packages/core/src/index.ts:5` declares `firmware` in `Device` as `firmware(): string;`', 'to `ThermostatDriver` in `packages/thermostat/src/index.ts`']],
    ['tsc-abstract-member-not-implemented', ['declares `mimeType` in `Exporter` as `abstract get mimeType(): string;`', 'add `get mimeType(): string { ... }` to `CsvExporter`']],
    ['gxx-override-mismatch', ['make it `void write(std::ostream &out, const Row &row) const override;`', 'its definition at `src/json_exporter.cpp:3`']],
    ['maven-multimodule-override-mismatch', ['add `@Override public OptionalLong priceCents(String sku, Currency currency) { ... }` to `CatalogPriceSource`']],
    ['ctest-cxx-chrono-duration-cast-long', ['`src/limiter.cpp:2` defines `refill_tokens`', 'which is called above the failing check, for the value it tests']],
    ['maven-surefire-assertnotnull', ['`src/main/java/dk/klinik/booking/SlotFinder.java:11` defines `firstFree`', 'LUNCH_END']],
    // ExUnit prints `left:`/`right:` as Rust's assert_eq! does: the values are named as the comparison's, not assert_eq!'s.
    ['exunit-assert-equal', ['`lib/slug.ex:3` defines `slugify` (`def slugify(title) do`), which the failing line calls', '(right), the two values of the comparison in the order the test passes them']],
    ['autoconf-pkg-check-modules-not-met-long', ['pkg-config found `sqlite3` `3.40.1`, and the build requires `>= 3.45.0`']],
    ['rustc-e0046-missing-trait-item', ['`src/export.rs:13` declares `file_extension` in `Exporter`', 'to the `impl Exporter for JsonLines` block in `src/formats/jsonl.rs`']],
  ];
  it.each(cases)('%s', async (id, said) => {
    const fix = await fixOfRealCase(id);
    for (const s of said) expect(fix).toContain(s);
  });
});

describe("pkg-config's version refusal", () => {
  const said = (pkg: string, have: string, want: string): string => `found \`${pkg}\` \`${have}\`, and the build requires \`>= ${want}\``;

  it('configure (PKG_CHECK_MODULES) with pkgconf: the version found and the version required', async () => {
    const log = ['+ ./configure', 'checking for pkg-config... /usr/bin/pkg-config', 'checking pkg-config is at least version 0.9.0... yes', 'checking for zlib >= 1.3... no', 'configure: error: Package requirements (zlib >= 1.3) were not met:', '', "Package dependency requirement 'zlib >= 1.3' could not be satisfied.", "Package 'zlib' has version '1.2.13', required version is '>= 1.3'", '', 'Consider adjusting the PKG_CONFIG_PATH environment variable if you', 'installed software in a non-standard prefix.'];
    const fix = await fixOfShellLog(log, 'zipper', '/tmp/jenkins7.sh', project({ 'configure.ac': 'AC_INIT([zipper], [1.0])\nPKG_PROG_PKG_CONFIG\nPKG_CHECK_MODULES([ZLIB], [zlib >= 1.3])\nAC_OUTPUT\n' }));
    expect(fix).toContain(`pkg-config ${said('zlib', '1.2.13', '1.3')}`);
    expect(fix).toContain('install `zlib` `1.3` or later on the agent (its `zlib.pc` on `PKG_CONFIG_PATH`)');
    expect(fix).toContain('the log does not say which the code needs');
  });

  it("CMake's pkg_check_modules (pkgconf 1.8's output on this machine)", async () => {
    const log = ['+ cmake -S . -B build', "-- Checking for module 'zlib>=1.3'", "--   Package dependency requirement 'zlib >= 1.3' could not be satisfied.", "Package 'zlib' has version '1.2.13', required version is '>= 1.3'", 'CMake Error at /usr/share/cmake-3.25/Modules/FindPkgConfig.cmake:607 (message):', '  A required package was not found', 'Call Stack (most recent call first):', '  /usr/share/cmake-3.25/Modules/FindPkgConfig.cmake:829 (_pkg_check_modules_internal)', '  CMakeLists.txt:4 (pkg_check_modules)', '', '', '-- Configuring incomplete, errors occurred!'];
    const fix = await fixOfShellLog(log, 'zipper', '/tmp/jenkins7.sh');
    expect(fix).toContain(`pkg-config ${said('zlib', '1.2.13', '1.3')}`);
  });

  it("freedesktop pkg-config's and meson's wording", async () => {
    const pc = await fixOfShellLog(['+ ./configure', 'checking for libcurl >= 8.0... no', 'configure: error: Package requirements (libcurl >= 8.0) were not met:', '', "Requested 'libcurl >= 8.0' but version of libcurl is 7.88.1"], 'fetcher');
    expect(pc).toContain(`pkg-config ${said('libcurl', '7.88.1', '8.0')}`);
    const meson = await fixOfShellLog(['+ meson setup build', 'Found pkg-config: /usr/bin/pkg-config (1.8.1)', "Run-time dependency zlib found: NO found 1.2.13 but need: '>= 1.3'", '', "meson.build:3:0: ERROR: Dependency lookup for zlib with method 'pkgconfig' failed: Invalid version, need 'zlib' ['>= 1.3'] found '1.2.13'."], 'zipper');
    expect(meson).toContain(`meson ${said('zlib', '1.2.13', '1.3')}`);
  });

  it('nothing when the package is not found at all (no version to compare)', async () => {
    const fix = await fixOfShellLog(['+ ./configure', 'checking for zlib >= 1.3... no', 'configure: error: Package requirements (zlib >= 1.3) were not met:', '', "Package 'zlib', required by 'virtual:world', not found"], 'zipper');
    expect(fix).not.toContain('and the build requires');
  });
});
