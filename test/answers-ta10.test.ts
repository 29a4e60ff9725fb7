/**
 * Answers as a user reads them (helper ta10, issue 25): the error that carries the failure leads
 * even when a keyword would not call it one, a strict xfail that passed is said as such, and the
 * fix answer's steps are concrete. Made-up logs (none of the realfail cases), each rule with a
 * counter-example it must leave alone; every citation checked against the log.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { composeLocalAnswer } from '../backend/answer/local/index.js';
import { snippetsFromDir } from '../cli/snippets.js';
import { analyzedChatContext } from './answerFixtures.js';
import { checkAnswer } from './helpers/claimChecks.js';
import { tidyPeriods } from '../backend/answer/local/reply.js';
import type { CiContextUpload } from '../protocol/schemas.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'cichat-ta10-'));
  dirs.push(dir);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

async function answer(question: string, lines: string[], workspace?: Record<string, string>): Promise<string> {
  const log = `${lines.join('\n')}\n`;
  const snippets = workspace ? await snippetsFromDir(project(workspace), log) : [];
  const upload = { buildDetails: { result: 'FAILURE', consoleLog: log }, ...(snippets.length > 0 ? { workspaceSnippets: snippets } : {}) } as CiContextUpload;
  const ctx = analyzedChatContext(upload, log);
  const text = (await composeLocalAnswer(question, ctx)).text;
  expect(checkAnswer(question, text, log.split('\n'), ctx)).toEqual([]);
  return text;
}

const START = ['Started by user ops', '[orders] $ /bin/sh -xe /tmp/jenkins7.sh'];
const END = ["Build step 'Execute shell' marked build as failure", 'Finished: FAILURE'];

describe('pytest: a strict expected failure that passed', () => {
  const XPASS = [
    ...START,
    '+ python3 -m pytest -q',
    '..F.                                                                     [100%]',
    '=================================== FAILURES ===================================',
    '____________________________ test_discount_caps_at_50 ____________________________',
    '[XPASS(strict)] GH-88: the cap is applied after tax',
    '=========================== short test summary info ============================',
    'FAILED tests/test_discount.py::test_discount_caps_at_50 - [XPASS(strict)] GH-88: the cap is...',
    '1 failed, 3 passed in 0.31s',
    ...END,
  ];

  it('leads with the XPASS line, not the count line under it, and says the test passed', async () => {
    const why = await answer('Why did the build fail?', XPASS);
    expect(why).toMatch(/the first real error is \[L7-L7\]: `\[XPASS\(strict\)\] GH-88/);
    expect(why).toContain('is marked as an expected failure (`xfail`, strict) and it passed');
    expect(why).not.toMatch(/check did not hold|`1 failed, 3 passed/);
  });

  it('the fix removes the xfail marker from the test, in its file', async () => {
    const fix = await answer('How do I fix it?', XPASS);
    expect(fix).toMatch(/remove the `xfail` marker from `test_discount_caps_at_50` in `tests\/test_discount\.py`/);
    expect(fix).not.toContain('gives a different value');
  });

  it('counter-example: a failed assert keeps its own words', async () => {
    const fail = XPASS.map((l) => (l.startsWith('[XPASS') ? 'E       assert 50 == 45' : l.replace('[XPASS(strict)] GH-88: the cap is...', 'assert 50 == 45')));
    const why = await answer('Why did the build fail?', fail);
    expect(why).toMatch(/first real error is \[L7-L7\]: `assert 50 == 45`/);
    expect(why).not.toContain('xfail');
  });
});

/** A failing step: the command, what it printed, the exit. */
const step = (command: string, ...printed: string[]): string[] => [...START, `+ ${command}`, ...printed, 'ERROR: script returned exit code 1', 'Finished: FAILURE'];

describe("the fix the tool's own words point to (made-up projects, each with its citation checked)", () => {
  const rows: [string, string[], RegExp][] = [
    ['cargo: a rust-version above the agent', step('cargo build', 'error: rustc 1.80.1 is not supported by the following package:', '  tinyjson@2.1.0 requires rustc 1.85', ''), /`tinyjson@2\.1\.0` requires rustc `1\.85` \[L5-L5\] and the agent's is `1\.80\.1` \[L4-L4\].*`rust-version` in its `Cargo\.toml`.*rustup toolchain install 1\.85.*cargo update -p tinyjson --precise/],
    ['npm: a package name the registry does not have', step('npm ci', 'npm error code E404', 'npm error 404 Not Found - GET https://registry.npmjs.org/@babel%2fcorre', 'npm error 404'), /no package named `@babel\/corre` \(the request for it \[L5-L5\]\).*misspelt name in `package\.json`/],
    ['npm: no version in the range', step('npm install', 'npm error code ETARGET', 'npm error notarget No matching version found for left-pad@^9.1.0.'), /has `left-pad` but no version in `\^9\.1\.0` \[L5-L5\]\. The command `npm view left-pad versions`.*range in `package\.json`/],
    ['node: a bare package not installed', step('node tools/gen.mjs', "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'chalk' imported from /srv/ci/tools/gen.mjs"), /`chalk` is imported by `\/srv\/ci\/tools\/gen\.mjs` \[L4-L4\] but is not installed: add it to `package\.json` \(`npm install --save-dev chalk`.*`devDependencies`/],
    ['go: inconsistent vendoring', step('go build ./...', 'go: inconsistent vendoring in /srv/ci/app:', '\tgithub.com/x/y@v1.2.0: is explicitly required in go.mod, but not marked as explicit in vendor/modules.txt', '', '\tTo sync the vendor directory, run:', '\t\tgo mod vendor'), /`go\.mod` and `vendor\/modules\.txt` disagree \[L4-L4\].*Run `go mod vendor` as go says \[L8-L8\]/],
    ['cmake: a preset not in the file', step('cmake --preset ci-debug', 'CMake Error: No such preset in /srv/ci/app: "ci-debug"', 'Available configure presets:', '', '  "release"', '  "debug"'), /The tool lists what it has: `release`, `debug` \[L5-L8\]\.[\s\S]*no preset `ci-debug` \[L4-L4\]; of the presets CMake lists, `debug` \[L8-L8\] shares its name's words: run `cmake --preset debug`/],
    ['cmake: an imported target before find_package', step('cmake -S . -B build', 'CMake Error at CMakeLists.txt:9 (target_link_libraries):', '  Target "app" links to:', '', '    OpenSSL::SSL', '', '  but the target was not found.  Possible reasons include:'), /`OpenSSL::SSL` \[L7-L7\] is an imported target.*`find_package\(OpenSSL REQUIRED\)` to `CMakeLists\.txt`/],
    ['cmake: an install path the user may not write', step('cmake --install build', 'CMake Error at build/cmake_install.cmake:44 (file):', '  file cannot create directory: /usr/share/app.  Maybe need', '  administrative privileges.'), /tried to create `\/usr\/share\/app` \[L5-L5\].*`install\(\)` an absolute `DESTINATION`.*--prefix/],
    ['go vet: a lock passed by value', step('go vet ./...', '# example.com/q/queue', 'queue/queue.go:40:9: Len passes lock by value: example.com/q/queue.Queue contains sync.RWMutex'), /`Queue` holds a `sync\.RWMutex` \[L5-L5\].*`\*Queue`, e\.g\. `func \(c \*Queue\) Len/],
    ['go vet: a misquoted struct tag', step('go vet ./...', '# example.com/q/api', 'api/types.go:8:2: struct field tag `json:"user_id",string` not compatible with reflect.StructTag.Get: key:"value" pairs not separated by spaces'), /write `json:"user_id,string"` for `json:"user_id",string` \[L5-L5\]/],
    ['JSON.parse: a trailing comma', step('node build.js', 'SyntaxError: Unexpected token \'}\', ..."debug": true,}" is not valid JSON', '    at JSON.parse (<anonymous>)'), /trailing comma \(`,}`\) \[L4-L4\]/],
    ['javac: a public class in another file', step('javac -d out src/app/Main.java src/app/Cart.java', 'src/app/Cart.java:3: error: class Basket is public, should be declared in a file named Basket.java', 'public class Basket {', '1 error'), /rename `src\/app\/Cart\.java` to `src\/app\/Basket\.java` \(`git mv src\/app\/Cart\.java src\/app\/Basket\.java`/],
    ['javac: a variable a path leaves unset', step('javac -d out src/app/Fee.java', 'src/app/Fee.java:14: error: variable rate might not have been initialized', '        return rate * amount;', '1 error'), /use of `rate` without assigning it \[L4-L4\].*`default:`/],
    ['a script with CRLF line endings', step('./tools/release.sh', "/usr/bin/env: 'bash\\r': No such file or directory"), /Windows \(CRLF\) line endings \[L4-L4\].*dos2unix.*\*\.sh text eol=lf/],
    ['ld: an object not built with -fPIC', [...START, '+ make', 'cc -shared -o libx.so x.o lib/libz2.a', '/usr/bin/ld: lib/libz2.a(inflate.o): relocation R_X86_64_32 against `.rodata\' can not be used when making a shared object; recompile with -fPIC', 'collect2: error: ld returned 1 exit status', 'make: *** [Makefile:9: libx.so] Error 1', ...END], /`inflate\.o` \(in `lib\/libz2\.a`\) was compiled without position-independent code.*`-fPIC` \(in the flags of the rule that builds it in `Makefile` \[L7-L7\]/],
    ['rust: an overflow names the method for its operation', [...START, '+ cargo test', 'running 1 test', 'test tests::adds ... FAILED', '', 'failures:', '', "---- tests::adds stdout ----", "thread 'tests::adds' panicked at src/lib.rs:4:9:", 'attempt to multiply with overflow', '', 'failures:', '    tests::adds', '', 'test result: FAILED. 0 passed; 1 failed', 'error: test failed, to rerun pass `--lib`', ...END], /`checked_mul`.*`saturating_mul`/],
  ];
  rows.push([
    'cmake: a library the project names that does not exist',
    [...START, '+ cmake --build build', '[ 50%] Building C object CMakeFiles/tool.dir/src/tool.c.o', '[100%] Linking C executable tool', '/usr/bin/ld: cannot find -lyamlx: No such file or directory', 'collect2: error: ld returned 1 exit status', 'gmake[2]: *** [CMakeFiles/tool.dir/build.make:97: tool] Error 1', ...END],
    /The link of `tool` \[L5-L5\] is CMake's, so `-lyamlx` comes from a `target_link_libraries\(tool \.\.\. yamlx\)`/,
  ]);
  rows.push([
    'a lost agent: the test running when the output stopped',
    [...START, '+ mvn -B test', '[INFO]  T E S T S', '[INFO] Running com.example.cart.CheckoutTest', 'Agent went offline during the build', 'ERROR: Connection was broken', 'Finished: FAILURE'],
    /The output stopped while `com\.example\.cart\.CheckoutTest` was running \[L5-L5\].*\(`mvn test -Dtest=CheckoutTest`\)/,
  ]);
  it.each(rows)('%s', async (_name, lines, want) => {
    expect(await answer('How do I fix it?', lines)).toMatch(want);
  });

  it('counter-examples: a relative import, a compiler error of another kind and a plain 404 page are left alone', async () => {
    const relative = await answer('How do I fix it?', step('node tools/gen.mjs', "Error [ERR_MODULE_NOT_FOUND]: Cannot find module '/srv/ci/tools/util.mjs' imported from /srv/ci/tools/gen.mjs"));
    expect(relative).not.toMatch(/npm install --save-dev/);
    const javac = await answer('How do I fix it?', step('javac -d out src/app/Fee.java', 'src/app/Fee.java:14: error: cannot find symbol', '  symbol:   variable rate', '1 error'));
    expect(javac).not.toMatch(/git mv|might not|`default:`/);
    const curl = await answer('How do I fix it?', step('curl -fsS https://example.com/a.tgz -o a.tgz', 'curl: (22) The requested URL returned error: 404'));
    expect(curl).not.toMatch(/no package named|package\.json/);
    const plainMake = await answer('How do I fix it?', [...START, '+ make', 'cc -o tool tool.o -lyamlx', '/usr/bin/ld: cannot find -lyamlx: No such file or directory', 'collect2: error: ld returned 1 exit status', 'make: *** [Makefile:4: tool] Error 1', ...END]);
    expect(plainMake).not.toContain('target_link_libraries(');
  });
});

describe('read as a user: no doubled period, no diagnosis again as the first fix step', () => {
  it('a quoted message ending in its own period takes no second one (outside fenced blocks only)', () => {
    expect(tidyPeriods('The first real error is `make: *** No rule to make target \'x\'.  Stop.`.')).toBe("The first real error is `make: *** No rule to make target 'x'.  Stop.`");
    expect(tidyPeriods('It said `done`.')).toBe('It said `done`.');
    expect(tidyPeriods('```text\nquoted `a.`.\n```')).toBe('```text\nquoted `a.`.\n```');
  });

  it("an exception's first fix step says where to act, not the message again", async () => {
    const lines = [...START, '+ python3 app.py', 'Traceback (most recent call last):', '  File "/srv/ci/app.py", line 9, in <module>', '    main()', '  File "/srv/ci/app.py", line 6, in main', '    print(total / count)', 'ZeroDivisionError: division by zero', ...END];
    const fix = await answer('How do I fix it?', lines);
    const first = fix.split('\n').find((l) => l.startsWith('- ')) ?? '';
    expect(first).toMatch(/^- Open `\/srv\/ci\/app\.py:6` \(in `main`\) \[L7-L7\], where `ZeroDivisionError` was raised/);
    expect(first).not.toContain('division by zero');
  });
});

describe('a symbol the workspace defines in a file the link never got', () => {
  const LINK = [...START, '+ make', 'cc -O2 -c -o out/app.o src/app.c', 'cc -O2 -c -o out/io.o src/io.c', 'cc -O2 -o out/app out/app.o out/io.o', '/usr/bin/ld: out/app.o: in function `main\':', "app.c:(.text+0x1d): undefined reference to `hash_mix'", 'collect2: error: ld returned 1 exit status', 'make: *** [Makefile:9: out/app] Error 1', ...END];
  const WS = { 'src/app.c': 'unsigned hash_mix(unsigned);\nint main(void) { return (int)hash_mix(3); }\n', 'src/io.c': 'int io_ok(void) { return 1; }\n', 'src/hash.c': '\nunsigned hash_mix(unsigned x) {\n  return x * 2654435761u;\n}\n' };

  it('names the object to add, as its siblings are named, and the rule that links them', async () => {
    const fix = await answer('How do I fix it?', LINK, WS);
    expect(fix).toContain('The link command [L6-L6] takes `out/app.o`, `out/io.o`, and the log compiles no `src/hash.c`: add `out/hash.o` (built from `src/hash.c` the way the others are) to the objects the rule at `Makefile:9` [L10-L10] links');
  });

  it('counter-example: a file that was compiled and linked gets no such step', async () => {
    const linked = LINK.map((l) => (l === 'cc -O2 -o out/app out/app.o out/io.o' ? 'cc -O2 -o out/app out/app.o out/io.o out/hash.o' : l));
    linked.splice(5, 0, 'cc -O2 -c -o out/hash.o src/hash.c');
    expect(await answer('How do I fix it?', linked, WS)).not.toContain('the log compiles no');
  });
});

describe('a symbol the workspace declares and never defines (jenkins/workspace/linkDecl.ts)', () => {
  const LINK = [...START, '+ cmake --build build', '[ 66%] Building CXX object CMakeFiles/stats.dir/src/stats.cpp.o', '[100%] Linking CXX executable stats', "/usr/bin/ld: CMakeFiles/stats.dir/src/main.cpp.o: in function `main':", "main.cpp:(.text+0x7a): undefined reference to `mean_of(std::vector<double, std::allocator<double> > const&)'", 'collect2: error: ld returned 1 exit status', 'gmake: *** [Makefile:91: all] Error 2', ...END];
  const WS = { 'src/main.cpp': '#include "stats.h"\nint main() { return (int)mean_of({1.0}); }\n', 'src/stats.h': '#pragma once\n#include <vector>\ndouble mean_of(const std::vector<double>& xs);\n', 'src/stats.cpp': '#include "stats.h"\ndouble average(const std::vector<double>& xs) {\n  return xs.empty() ? 0 : xs[0];\n}\n' };

  it('why: shows the declaration and says nothing defines it; fix: the orphan definition with the same parameter types, as a guess', async () => {
    const why = await answer('Why did the build fail?', LINK, WS);
    expect(why).toContain('**In the source:** `src/stats.h:3`');
    expect(why).toContain('It declares `mean_of`, and no C or C++ source file of the workspace defines it.');
    const fix = await answer('How do I fix it?', LINK, WS);
    expect(fix).toContain('`src/stats.cpp:2` defines `average`, with the same parameter types as `mean_of`, and no header declares it: if one of the two names was renamed without the other');
    expect(fix).not.toContain('**Where it is defined:**');
  });

  it('counter-examples: a definition elsewhere is "where it is defined"; no candidate is said as such', async () => {
    const defined = await answer('How do I fix it?', LINK, { ...WS, 'lib/mean.cpp': '#include <vector>\ndouble mean_of(const std::vector<double>& xs) {\n  return 0;\n}\n' });
    expect(defined).toContain('**Where it is defined:** `lib/mean.cpp:2` defines `mean_of`');
    expect(defined).not.toContain('no C or C++ source file of the workspace defines it');
    const none = await answer('How do I fix it?', LINK, { ...WS, 'src/stats.cpp': '#include "stats.h"\nint version() {\n  return 3;\n}\n' });
    expect(none).toContain('No definition in the workspace looks like it');
  });
});

describe('the fix names what the log lists next to the error (fixLogNames.ts; made-up logs, citations checked)', () => {
  const rows: [string, string[], RegExp][] = [
    ['rake: the task it suggests', step('rake ci:units', 'rake aborted!', "Don't know how to build task 'ci:units' (See the list of available tasks with `rake --tasks`)", 'Did you mean?  ci:test'), /The tool suggests `ci:test` \[L6-L6\]/],
    ['eslint --max-warnings: the rules warned about', step('npx eslint --max-warnings 0 src', '/srv/ci/src/a.js', '  2:3  warning  Unexpected console statement  no-console', '  7:1  warning  Unexpected var, use let or const instead  no-var', '', '✖ 2 problems (0 errors, 2 warnings)', '', 'ESLint found too many warnings (maximum: 0).'), /count against `--max-warnings` are of `no-console` \[L5-L5\], `no-var` \[L6-L6\]/],
    ['coverage.py under fail-under: the least covered files', step('pytest --cov=pricing --cov-fail-under=90', 'Name                  Stmts   Miss  Cover   Missing', '---------------------------------------------------', 'pricing/tax.py            6      0   100%', 'pricing/tiers.py         14     14     0%   1-18', 'TOTAL                    20     14    30%', '', 'FAIL Required test coverage of 90% not reached. Total coverage: 30.00%'), /least covered files in the report: `pricing\/tiers\.py` \(0%\) \[L7-L7\]/],
    ['ld: a C++ member not found, the source named after its class', [...START, '+ make', 'g++ -c -o build/json_reporter.o src/json_reporter.cpp', 'g++ -o report build/main.o build/json_reporter.o', "/usr/bin/ld: build/main.o: in function `main':", "main.cpp:(.text+0x2a): undefined reference to `JsonReporter::summary() const'", 'collect2: error: ld returned 1 exit status', 'make: *** [Makefile:9: report] Error 1', ...END], /`src\/json_reporter\.cpp` is compiled \[L4-L4\] and is named after `JsonReporter`/],
    ['sha256sum -c: the file that failed and the list it read', step('sha256sum -c ../vendor/SHA256SUMS', 'schemas-2.3.tar.gz: FAILED', 'sha256sum: WARNING: 1 computed checksum did NOT match'), /`schemas-2\.3\.tar\.gz` \[L4-L4\] does not match its checksum in `\.\.\/vendor\/SHA256SUMS`, the list the check read \[L3-L3\]/],
    ['node out of heap under npm: the command npm ran', [...START, '+ npm run typecheck', '', '> sdk@2.0.0 typecheck', '> tsc -p tsconfig.json', '', 'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory', ...END], /npm was running `tsc -p tsconfig\.json` \[L6-L6\] \(the script `typecheck`\)/],
    ['vitest: the first lines of its - Expected / + Received diff', [...START, '+ npx vitest run', ' FAIL  test/flags.test.js > flags > keeps the rollout', "AssertionError: expected { name: 'x' } to match object { name: 'x' }", '', '- Expected', '+ Received', '', '  {', '-   "rollout": 25,', '+   "rollout": 0.25,', '  }', '', ' ❯ test/flags.test.js:6:50', ...END], /the test expects `"rollout": 25,` \[L11-L11\] where the code gave `"rollout": 0\.25,` \[L12-L12\]/],
    ['pytest: the first differing key of a dict ==', step('python3 -m pytest -q', 'F.', '    def test_totals():', ">       assert totals(items, vat=0.07) == {'net': 35.0, 'vat': 2.45}", "E       AssertionError: assert {'net': 35.0, 'vat': 7.0} == {'net': 35.0, 'vat': 2.45}", 'E         ', 'E         Omitting 1 identical items, use -vv to show', 'E         Differing items:', "E         {'vat': 7.0} != {'vat': 2.45}", '', 'tests/test_cart.py:5: AssertionError', 'FAILED tests/test_cart.py::test_totals - AssertionError: assert {...}'), /pytest's comparison \[L11-L11\]: at the key `'vat'` the left side of the `==` holds `7\.0` and the right side `2\.45`/],
    ['pytest: the first index where two lists differ', step('python3 -m pytest -q', 'F', '>       assert slugs(titles) == ["a-b", "c-d"]', "E       AssertionError: assert ['a-b', 'c_d'] == ['a-b', 'c-d']", 'E         ', "E         At index 1 diff: 'c_d' != 'c-d'", 'E         Use -v to get more diff', '', 'tests/test_slug.py:9: AssertionError'), /first differ at index 1, where the left side of the `==` holds `'c_d'` and the right side `'c-d'` \[L8-L8\]|pytest's comparison \[L8-L8\]: the two sides first differ at index 1, where the left side of the `==` holds `'c_d'` and the right side `'c-d'`/],
    ['pyenv: the version that has the command', step('python3.12 --version', 'pyenv: python3.12: command not found', '', "The `python3.12' command exists in these Python versions:", '  3.12.1', ''), /pyenv has `python3\.12` in Python `3\.12\.1` \[L7-L7\].*`pyenv local 3\.12\.1`/],
    ['go: a flag the program does not define, and the ones it lists', step('go test ./store/ -args -dsn=sqlite://ci.db', 'flag provided but not defined: -dsn', 'Usage of /tmp/go-build1/b001/store.test:', '  -database-url string', '    \tdatabase to run the tests against', '  -test.v', '    \tverbose'), /defines no `-dsn`; the flags it lists \[L5-L5\] are `-database-url` \[L6-L6\]/],
    ['a compiler out of memory: the file it was compiling', [...START, '+ make', 'clang -O2 -c -o src/table.o src/table.c', 'LLVM ERROR: out of memory', 'Allocation failed', ...END], /was compiling `src\/table\.c` \[L4-L4\] when memory ran out/],
    ['a refused port while the log shows the service on another', step('node smoke.mjs', 'stub listening on 127.0.0.1:47710', 'Error: connect ECONNREFUSED 127.0.0.1:47711'), /a service on port `47710` \[L4-L4\].*connected to port `47711` \[L5-L5\]/],
    ['C++: an uncaught exception from std::stoi', [...START, '+ make', 'g++ -c -o src/main.o src/main.cpp', 'g++ -o bumpver src/main.o', '+ ./bumpver', "terminate called after throwing an instance of 'std::invalid_argument'", '  what():  stoi', ...END], /`\.\/bumpver` \[L6-L6\], was built from `src\/main\.cpp` \[L4-L4\] \(linked \[L5-L5\]\).*came from `std::stoi` \(its what\(\) is `stoi` \[L8-L8\]\)/s],
    ['exit 141 under pipefail: SIGPIPE from a reader that stopped', [...START, '+ set -euo pipefail', '++ sort -rV versions.txt', '++ head -n 1', '+ latest=4.49.99', 'ERROR: script returned exit code 141', 'Finished: FAILURE'], /SIGPIPE: a command wrote into a pipe whose reader had stopped \(`head -n 1` \[L5-L5\].*with pipefail set \[L3-L3\]/],
    ['go.sum: the hash it records for a module that no longer matches', step('go build ./...', 'verifying example.com/units@v1.1.0: checksum mismatch', '\tdownloaded: h1:AAAA=', '\tgo.sum:     h1:BBBB=', '', 'SECURITY ERROR'), /is not the one `go\.sum` records \(`h1:BBBB=` \[L6-L6\]\).*`go mod tidy`/],
    ['make -j: a generated header the compile ran before', [...START, '+ make -j4', './tools/genversion.sh build/version.h', 'gcc -Ibuild -c -o build/main.o src/main.c', 'src/main.c:2:10: fatal error: version.h: No such file or directory', 'compilation terminated.', 'make: *** [Makefile:15: build/main.o] Error 1', ...END], /generates `build\/version\.h` \[L4-L4\], and the rule for `build\/main\.o` in `Makefile:15` \[L8-L8\] compiled before it existed \(make ran jobs in parallel\)/],
    ['cp: a file of the same name the step made elsewhere', step('make', 'tar czf dist/reporter.tar.gz src', '+ cp build/reporter.tar.gz /tmp/outbox/', "cp: cannot stat 'build/reporter.tar.gz': No such file or directory"), /The step made `dist\/reporter\.tar\.gz` \[L4-L4\]/],
    ['a JVM trace reported at its deepest cause: the first line and the test class', [...START, '+ mvn -B test', '[INFO] Running dev.acme.BillingPeriodTest', '[ERROR] Tests run: 7, Failures: 0, Errors: 1', 'org.junit.jupiter.api.extension.ParameterResolutionException: Failed to convert String "2026-02-29" to type java.time.LocalDate', '\tat org.junit.Foo.bar(Foo.java:1)', 'Caused by: java.time.DateTimeException: Invalid date \'February 29\' as \'2026\' is not a leap year', '\tat java.time.LocalDate.create(LocalDate.java:1)', ...END], /starts with `org\.junit\.jupiter\.api\.extension\.ParameterResolutionException: Failed to convert String "2026-02-29".*\[L6-L6\].*Surefire was running `dev\.acme\.BillingPeriodTest` \[L4-L4\]/],
    ['a crash with no frame: the sources of the program that ran last', [...START, '+ make check', 'cc -Wall -g -o lookup lookup.c', './lookup', 'make: *** [Makefile:7: check] Segmentation fault', ...END], /`\.\/lookup` \[L5-L5\], was built from `lookup\.c` \[L4-L4\]/],
  ];
  it.each(rows)('%s', async (_name, lines, want) => {
    expect(await answer('How do I fix it?', lines)).toMatch(want);
  });
});
