import type { Finding } from '../../protocol/types.js';
import { calleeOf, constraintOf, dependencyName, duplicateSymbolOf, findClues, missingPathOf } from './clues.js';

const finding = (over: Partial<Finding>): Finding => ({ class: 'unknown', message: 'x', message_line: 1, confidence: 'high', evidence: [1], ...over });

/** A workspace held in memory: path -> text. */
function reader(files: Record<string, string>) {
  return {
    index: async (_ws: string) => Object.keys(files).sort(),
    read: async (_ws: string, rel: string) => (rel in files ? { lines: (files[rel] as string).split('\n') } : new Error('not found')),
  };
}

describe('the key names of a finding', () => {
  it.each([
    ['org.acme:pricing-core:jar:1.4.0', 'pricing-core'],
    ['com.squareup.okio:okio:3.99.0', 'okio'],
    ['@scope/widgets@^2.0.0', '@scope/widgets'],
    ['left-pad@9.9.9', 'left-pad'],
    ['requests==2.99.0', 'requests'],
    ['Django>=9.0', 'Django'],
    ['example.com/retry@v0.0.0', 'example.com/retry'],
    ['serde_json', 'serde_json'],
  ])('dependency %s is declared as %s', (dep, name) => {
    expect(dependencyName(dep)).toBe(name);
  });
  it('a missing path, from the usual messages', () => {
    expect(missingPathOf('src/csv.c:3:10: fatal error: strbuf.h: No such file or directory')).toBe('strbuf.h');
    expect(missingPathOf("Error: ENOENT: no such file or directory, open 'data/airports.json'")).toBe('data/airports.json');
    expect(missingPathOf("FileNotFoundError: [Errno 2] No such file or directory: 'budgets.json'")).toBe('budgets.json');
    expect(missingPathOf('ci.sh: line 2: cd: public: No such file or directory')).toBe('public');
    expect(missingPathOf('everything is fine')).toBeUndefined();
    // A path the process may not write is not a missing one.
    expect(missingPathOf('makeinfo: could not open /srv/pub/manual/tally.info for writing: Permission denied')).toBeUndefined();
    expect(missingPathOf("Error: EACCES: permission denied, open 'out/report.json'")).toBeUndefined();
    // javac's `cannot find symbol` names no file: no workspace listing is made for it.
    expect(missingPathOf('src/A.java:[60,5] cannot find symbol')).toBeUndefined();
  });
  it('a symbol defined twice, and a callee called with the wrong arguments', () => {
    expect(duplicateSymbolOf("/usr/bin/ld: build/main.o:(.data+0x0): multiple definition of `log_level'; build/log.o:(.data+0x0): first defined here")).toBe('log_level');
    expect(calleeOf('QuoteService.java:[12,31] method taxFor in class com.acme.TaxCalculator cannot be applied to given types;')).toBe('taxFor');
    expect(calleeOf('./main.go:9:14: not enough arguments in call to retry.Do')).toBe('Do');
    expect(calleeOf("TypeError: total() missing 1 required positional argument: 'region'")).toBe('total');
  });
});

describe('findClues: where the workspace names what failed', () => {
  it('the manifest line that declares a dependency that did not resolve, not the lock file', async () => {
    const files = {
      'package-lock.json': '{ "left-pad": "9.9.9" }',
      'package.json': '{\n  "name": "app",\n  "dependencies": {\n    "left-pad": "^9.9.9"\n  }\n}',
      'src/a.js': "require('left-pad')",
    };
    const hits = await findClues(reader(files), ['ws'], finding({ class: 'dependency-resolution', tool: 'npm', dependency: 'left-pad@^9.9.9', message: 'npm error notarget No matching version found for left-pad@^9.9.9.' }));
    expect(hits.map((h) => [h.rel, h.index + 1, h.message])).toEqual([['package.json', 4, 'declares the dependency left-pad']]);
  });
  it('the script line that names the host and port nothing answered on', async () => {
    const files = { 'ci.sh': 'set -e\nexport CACHE_ADDR=127.0.0.1:42039\ngo run ./cmd/seed', 'README.md': 'talks to 127.0.0.1:42039' };
    const hits = await findClues(reader(files), ['ws'], finding({ class: 'network', host: '127.0.0.1', message: 'dial tcp 127.0.0.1:42039: connect: connection refused' }));
    expect(hits.map((h) => [h.rel, h.index + 1])).toEqual([['ci.sh', 2]]);
  });
  it('a header that defines a variable the linker found twice (never the extern declaration)', async () => {
    const files = { 'include/a.h': 'extern int verbose;\nint log_level = 1;\nvoid log_set(int);', 'src/log.c': 'int log_level;' };
    const hits = await findClues(reader(files), ['ws'], finding({ class: 'link-error', tool: 'ld', message: "multiple definition of `log_level'; build/log.o: first defined here" }));
    expect(hits.map((h) => [h.rel, h.index + 1])).toEqual([['include/a.h', 2]]);
  });
  it('a file named like a missing header, and the other file that declares a missing name', async () => {
    const header = await findClues(reader({ 'include/str_buf.h': 'typedef struct strbuf strbuf;', 'src/csv.c': '#include "strbuf.h"' }), ['ws'], finding({ class: 'compile-error', message: 'src/csv.c:3:10: fatal error: strbuf.h: No such file or directory', location: { file: 'src/csv.c', line: 3, log_line: 1 } }));
    expect(header.map((h) => [h.rel, h.message])).toEqual([['include/str_buf.h', 'a file named like strbuf.h, which does not exist']]);
    const declared = await findClues(reader({ 'src/time.ts': '// Duration in ms\nexport type Duration = number;', 'src/cfg.ts': 'let t: Duration;' }), ['ws'], finding({ class: 'compile-error', symbol: 'Duration', message: "src/cfg.ts(1,8): error TS2304: Cannot find name 'Duration'.", location: { file: 'src/cfg.ts', line: 1, log_line: 1 } }));
    expect(declared.map((h) => [h.rel, h.index + 1])).toEqual([['src/time.ts', 2]]);
    // The same words with a folder for a separator: a file moved into a directory (fx6).
    const folded = await findClues(reader({ 'requirements/dev.txt': 'pytest', 'requirements/base.txt': 'requests', 'ci.sh': 'pip install -r requirements-dev.txt' }), ['ws'], finding({ class: 'ci-script', message: "ERROR: Could not open requirements file: [Errno 2] No such file or directory: 'requirements-dev.txt'" }));
    expect(folded.map((h) => [h.rel, h.message])).toEqual([['requirements/dev.txt', 'a file named like requirements-dev.txt, which does not exist']]);
  });
  it('the scripts block of package.json for a missing npm script; nothing for a finding with no key name', async () => {
    const hits = await findClues(reader({ 'package.json': '{\n  "scripts": {\n    "lint:js": "eslint ."\n  }\n}' }), ['ws'], finding({ class: 'ci-script', tool: 'npm', symbol: 'lint', message: 'npm error Missing script: "lint"' }));
    expect(hits.map((h) => [h.rel, h.index + 1])).toEqual([['package.json', 2]]);
    expect(await findClues(reader({ 'a.sh': 'echo hi' }), ['ws'], finding({ class: 'disk-full', message: 'No space left on device' }))).toEqual([]);
  });
  it('no callee clue for a method called on a field or a call result: its type is not the project definition of that name', async () => {
    const files = { 'src/lib.rs': 'impl Templates {\n    pub fn insert(&self, name: &str) {\n        self.load(name);\n    }\n    fn load(&self, name: &str) {}\n}' };
    const f = finding({ class: 'test-error', message: 'RefCell already borrowed', location: { file: 'src/lib.rs', line: 29, log_line: 3 } });
    const chained = await findClues(reader(files), ['ws'], f, 3, '                self.cache.borrow_mut().insert(name.to_string(), t.clone());');
    expect(chained.filter((h) => /which the failing line calls/.test(h.message))).toEqual([]);
    const own = await findClues(reader(files), ['ws'], f, 3, '        let t = self.load(name);');
    expect(own.map((h) => [h.rel, h.index + 1, h.message])).toEqual([['src/lib.rs', 5, 'defines load, which the failing line calls']]);
  });
  it('the project function a failing check calls (not the test framework, not a test file)', async () => {
    const files = { 'tests/test_ring.c': 'int ring_push(ring *r, int v) { return 0; }', 'src/ring.c': '#include "ring.h"\n\nint ring_push(ring *r, int v) {\n  return 1;\n}' };
    const f = finding({ class: 'test-assertion', message: "test_ring: tests/test_ring.c:8: test_fills_up: Assertion `ring_push(&r, i)' failed.", location: { file: 'tests/test_ring.c', line: 8, log_line: 3 } });
    const hits = await findClues(reader(files), ['ws'], f, 3, '    for (int i = 0; i < RING_CAP; i++) assert(ring_push(&r, i));');
    expect(hits.map((h) => [h.rel, h.index + 1, h.message])).toEqual([['src/ring.c', 3, 'defines ring_push, which the failing line calls']]);
  });
  it('where a time or memory limit is set, and where the project asks for a tool version or runs a missing tool', async () => {
    const timeout = await findClues(reader({ 'ci.sh': 'set -e\ngo test -timeout 5s ./...', 'main.go': 'x := 5' }), ['ws'], finding({ class: 'timeout-aborted', message: 'panic: test timed out after 5s' }));
    expect(timeout.map((h) => [h.rel, h.index + 1, h.message])).toEqual([['ci.sh', 2, 'sets a time limit']]);
    const heap = await findClues(reader({ 'pom.xml': '<project>\n  <argLine>-Xmx48m</argLine>\n</project>' }), ['ws'], finding({ class: 'out-of-memory', message: 'java.lang.OutOfMemoryError: Java heap space' }));
    expect(heap.map((h) => [h.rel, h.index + 1])).toEqual([['pom.xml', 2]]);
    const version = await findClues(reader({ 'pom.xml': '<properties>\n  <maven.compiler.release>21</maven.compiler.release>\n</properties>', 'src/A.java': 'int x = 21;' }), ['ws'], finding({ class: 'missing-tool', message: 'Fatal error compiling: error: release version 21 not supported' }));
    expect(version.map((h) => [h.rel, h.index + 1, h.message])).toEqual([['pom.xml', 2, 'asks for the version']]);
    const tool = await findClues(reader({ 'ci.sh': '# yarn is needed\nyarn install --frozen-lockfile' }), ['ws'], finding({ class: 'missing-tool', symbol: 'yarn', message: 'ci.sh: line 2: yarn: command not found' }));
    expect(tool.map((h) => [h.rel, h.index + 1, h.message])).toEqual([['ci.sh', 2, 'runs yarn']]);
  });
  it('an unresolved import: the file named like it; an option the program does not take: the options it defines; a checked artifact: where the build names it', async () => {
    const imp = await findClues(reader({ 'src/format/money.ts': 'export const x = 1;', 'src/index.ts': "import { x } from './money';" }), ['ws'], finding({ class: 'compile-error', message: '✘ [ERROR] Could not resolve "./money"', location: { file: 'src/index.ts', line: 1, log_line: 1 } }));
    expect(imp.map((h) => [h.rel, h.message])).toEqual([['src/format/money.ts', 'a file named like ./money, which does not exist']]);
    const opt = await findClues(reader({ 'tools/release.py': "import argparse\np = argparse.ArgumentParser()\np.add_argument('--preview', action='store_true')" }), ['ws'], finding({ class: 'ci-script', message: 'release.py: error: unrecognized arguments: --dry' }));
    expect(opt.map((h) => [h.rel, h.index + 1, h.message])).toEqual([['tools/release.py', 3, 'defines the options the program takes']]);
    const art = await findClues(reader({ 'ci.sh': 'test -s dist/bundle.js', 'build.sh': 'cat src/*.js > build/bundle.js' }), ['ws'], finding({ class: 'ci-script', message: 'test -s dist/bundle.js' }));
    expect(art.map((h) => [h.rel, h.index + 1, h.message])).toEqual([['build.sh', 1, 'names bundle.js, the file the check looks for as dist/bundle.js']]);
  });
  it('lists no workspace when the finding names nothing to look for', async () => {
    let listed = 0;
    const counting = { index: async () => { listed++; return ['a.c']; }, read: async () => ({ lines: ['x'] }) };
    expect(await findClues(counting, ['ws'], finding({ class: 'compile-error', tool: 'javac', message: 'src/A.java:[60,5] cannot find symbol', location: { file: 'src/A.java', line: 60, log_line: 2 } }))).toEqual([]);
    expect(listed).toBe(0);
  });

  it('the address as written, in any setting file (a dotfile, an option line), never a server, a comment or a document (fx8)', async () => {
    const files = {
      '.gitmodules': '[submodule "vendor/x"]\n\turl = http://127.0.0.1:47864/scm/x.git',
      'README.md': 'the server is 127.0.0.1:47864',
      'stub.sh': '# old: 127.0.0.1:47864\npython3 -m http.server 47864 --bind 127.0.0.1',
      'requirements.txt': '--index-url http://ci:${TOKEN}@127.0.0.1:47864/simple/',
    };
    const hits = await findClues(reader(files), ['ws'], finding({ class: 'network', message: "fatal: unable to access 'http://127.0.0.1:47864/scm/x.git/': Failed to connect to 127.0.0.1 port 47864" }));
    expect(hits.map((h) => [h.rel, h.index + 1, h.message])).toEqual([['.gitmodules', 2, 'names 127.0.0.1:47864'], ['requirements.txt', 1, 'names 127.0.0.1:47864']]);
  });
  it("an option a configuration passes, not a script's command line (fx8)", async () => {
    const files = { 'pytest.ini': '[pytest]\n# -n is xdist\naddopts = -ra -n auto', 'ci.sh': 'python3 -m pytest -n 2' };
    const hits = await findClues(reader(files), ['ws'], finding({ class: 'missing-tool', message: '__main__.py: error: unrecognized arguments: -n' }));
    expect(hits.map((h) => [h.rel, h.index + 1, h.message])).toEqual([['pytest.ini', 3, 'passes -n to the program from its configuration']]);
  });
  it("a link symbol not found: the build file's list of sources (fx8)", async () => {
    const files = { Makefile: 'CC = cc\nOBJS = build/main.o build/io.o\n\napp: $(OBJS)\n\t$(CC) -o $@ $(OBJS)', 'CMakeLists.txt': 'add_executable(app src/main.c)' };
    const hits = await findClues(reader(files), ['ws'], finding({ class: 'link-error', symbol: 'crc32', message: "main.c:(.text+0x36): undefined reference to `crc32'" }));
    expect(hits.map((h) => [h.rel, h.index + 1, h.message])).toEqual([['CMakeLists.txt', 1, 'lists the files the build compiles and links']]);
  });
  it('a quoted path refused is looked for whole; a line with its name only is said to name the name (fx8)', async () => {
    const files = { 'conf/nginx.conf': 'access_log /tmp/ok/access.log;\naccess_log /var/log/nginx/status.access.log;', 'Makefile': 'status.access.log: x' };
    const hits = await findClues(reader(files), ['ws'], finding({ class: 'permission-credentials', message: 'open() "/var/log/nginx/status.access.log" failed (13: Permission denied)' }));
    expect(hits.map((h) => [h.rel, h.index + 1, h.message])).toEqual([['conf/nginx.conf', 2, 'names /var/log/nginx/status.access.log']]);
    const named = await findClues(reader({ Makefile: 'build/notify: src/notify.c' }), ['ws'], finding({ class: 'permission-credentials', message: "cp: cannot create '/usr/local/bin/notify': Permission denied" }));
    expect(named.map((h) => h.message)).toEqual(['names notify']);
  });
  it("gradle's missing task: the build script's tasks; a newer feature: the language level; ctest's output check: its expression (fx8)", async () => {
    const task = await findClues(reader({ 'build.gradle': "apply plugin: 'java'\ntasks.register('itest', Test) {\n}" }), ['ws'], finding({ class: 'ci-script', tool: 'gradle', message: "Task 'integrationTest' not found in root project 'app'." }));
    expect(task.map((h) => [h.rel, h.index + 1, h.message])).toEqual([['build.gradle', 2, 'defines the tasks gradle knows (no integrationTest)']]);
    const level = await findClues(reader({ 'build.gradle': "java {\n  // sourceCompatibility = 17 later\n  sourceCompatibility = 11\n}", 'src/Q.java': 'int sourceCompatibility = 11;' }), ['ws'], finding({ class: 'compile-error', message: 'error: text blocks are not supported in -source 11', location: { file: 'src/Q.java', line: 8, log_line: 3 } }));
    expect(level.map((h) => [h.rel, h.index + 1, h.message])).toEqual([['build.gradle', 3, 'sets the language level the compiler checks against']]);
    const regex = await findClues(reader({ 'CMakeLists.txt': 'add_test(NAME banner COMMAND app --version)\nset_tests_properties(banner PROPERTIES PASS_REGULAR_EXPRESSION "^app [0-9]+\\\\.[0-9]+")' }), ['ws'], finding({ class: 'test-assertion', message: 'Required regular expression not found. Regex=[^app [0-9]+\\.[0-9]+' }));
    expect(regex.map((h) => [h.rel, h.index + 1, h.message])).toEqual([['CMakeLists.txt', 2, 'sets the output the test requires']]);
  });
});

describe('constraintOf (ux8)', () => {
  it("reads Go's type argument outside its constraint, in go 1.18-1.19's and 1.20's words", () => {
    expect(constraintOf('cmd/report/main.go:13:42: float64 does not implement agg.Number (float64 missing in ~int | ~int32 | ~int64)')).toEqual({ type: 'float64', name: 'Number', set: '~int | ~int32 | ~int64' });
    expect(constraintOf('x.go:3:4: MyFloat does not satisfy Number (possibly missing ~ for float64 in int | float64)')).toEqual({ type: 'MyFloat', name: 'Number', set: 'int | float64' });
    expect(constraintOf('x.go:3:4: *T does not implement io.Reader (missing method Read)')).toBeUndefined();
  });
});
