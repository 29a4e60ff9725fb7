/**
 * Places in any form (places.ts): each form a tool family prints, read without naming the tool;
 * places that are not the project's (system, runtime, library paths, the CI's own script) are
 * not given.
 */
import { analyze } from '../log/analyze.js';
import type { Finding } from '../../protocol/types.js';
import { placeIn, placeNear, projectFile, workspaceIn } from './places.js';

const top = (text: string): Finding => {
  const found = analyze(text)[0]?.finding;
  if (!found) throw new Error('no finding');
  return found;
};

describe('the forms of a place on one line', () => {
  it.each([
    ['a program before the place, no space (`m4:x.m4:7:`)', 'm4:site.conf.m4:12: cannot open `ssl.m4\': No such file or directory', { file: 'site.conf.m4', line: 12 }],
    ['path:line followed by a word, not a space', 'tests/check_io.c:41:E:core:test_reads:0: (after this point) Received signal 11', { file: 'tests/check_io.c', line: 41 }],
    ['a bracketed tag before the place', '[----] tests/test_queue.c:9: Assertion Failed', { file: 'tests/test_queue.c', line: 9 }],
    ['a list number before the place', '    2. tests/test_rate.c:31  - CU_ASSERT_TRUE(ok)', { file: 'tests/test_rate.c', line: 31 }],
    ['a quoted path then `line N:`', '"plots/cpu.gp" line 4: undefined variable: ymax', { file: 'plots/cpu.gp', line: 4 }],
    ['`file PATH line N`', 'compilation error: file xsl/page.xsl line 27 element for-each', { file: 'xsl/page.xsl', line: 27 }],
    ['`file PATH, line N`', 'file src/tests/test_cart.py, line 12', { file: 'src/tests/test_cart.py', line: 12 }],
    ['`PATH: line N:` with a directory and no extension', 'etc/nginx_site: line 3: unknown directive "lisen"', { file: 'etc/nginx_site', line: 3 }],
    ['a shell script `PATH: line N:`', 'build.sh: line 14: NAME: readonly variable', { file: 'build.sh', line: 14 }],
    ['`in PATH on line N, column C`', 'NameError: variable @gap is undefined in less/grid.less on line 22, column 9:', { file: 'less/grid.less', line: 22, column: 9 }],
    ['a line starting with `PATH N:C`', '  scss/_nav.scss 17:3  @use', { file: 'scss/_nav.scss', line: 17, column: 3 }],
    ['`at PATH:LINE,COL`', 'Parse error at lib/menu.js:30,12', { file: 'lib/menu.js', line: 30, column: 12 }],
    ['`line: N PATH`', '1) test: MathTest::testAdd (F) line: 44 tests/math_test.cpp', { file: 'tests/math_test.cpp', line: 44 }],
    ['`line N of PATH`', 'error on line 8 of conf/app.ini: missing =', { file: 'conf/app.ini', line: 8 }],
    ['a place in brackets', '[ERROR:idl/users.thrift:19] (last token was \'Addr\')', { file: 'idl/users.thrift', line: 19 }],
    ['a place in parentheses at the end (a Clojure-style frame)', 'Execution error (NullPointerException) at app.core/run (core.clj:27).', { file: 'core.clj', line: 27 }],
    ["a Go package under the project's `internal/` (Node's own `internal/` modules are .js)", 'internal/api/server.go:9:2: no required module provides package x/y', { file: 'internal/api/server.go', line: 9, column: 2 }],
    ['a Node frame in the project', '    at Object.total (/home/ci/ws/shop/src/cart.js:15:28)', { file: '/home/ci/ws/shop/src/cart.js', line: 15, column: 28 }],
  ])('%s', (_what, line, place) => {
    expect(placeIn(line)).toEqual(place);
  });

  it.each([
    ['a system file', "Can't exec \"automake\": No such file or directory at /usr/share/autoconf/Autom4te/FileUtils.pm line 274."],
    ['an installed package', '    at parse (/ws/node_modules/acorn/dist/acorn.js:310:11)'],
    ['the runtime', '    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1611:16)'],
    ["an older Node's own module", '    at Module._compile (internal/modules/cjs/loader.js:1137:30)'],
    ["the shell's report of a killed command", 'ci.sh: line 2: 22109 Segmentation fault      ./a.out'],
    ["the CI's own script", '/tmp/jenkins8812.sh: line 3: foo: command not found'],
    ['a JVM frame (frames.ts reads those)', '\tat java.base/java.util.concurrent.FutureTask.run(FutureTask.java:264)'],
    ["make's verdict on a recipe", 'make: *** [Makefile:9: test] Error 2'],
    ['a command the script ran', "+ report='docs/a.md:5: Locate: teh'"],
    ['a heading naming a file without its directory in a sentence', 'In Downloader.php line 88:'],
    ['a version', 'required geo = "^0.3" line 2'],
    ["Rust's standard library as a panic names it", "thread 'main' (14628) panicked at /rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/std/src/io/stdio.rs:1165:9:"],
    ["the C file cgo generates in go's work directory", "/tmp/go-build/crc.cgo2.c:54: undefined reference to `crc16_ccitt'"],
    ["go test's prefix of the testing package's own report", '    testing.go:1097: TempDir RemoveAll cleanup: unlinkat /tmp/T/001/a.tgz: permission denied'],
  ])('gives no place for %s', (_what, line) => {
    expect(placeIn(line)).toBeUndefined();
  });
});

describe('the project and its workspace', () => {
  it('makes a path under the workspace the log shows relative, and refuses one outside it', () => {
    const lines = ['Started by user ci', 'Building in workspace /var/lib/jenkins/workspace/site', '+ make'];
    const root = workspaceIn((i) => lines[i] ?? '', lines.length);
    expect(root).toBe('/var/lib/jenkins/workspace/site');
    expect(projectFile('/var/lib/jenkins/workspace/site/less/a.less', root)).toBe('less/a.less');
    expect(projectFile('/tmp/other/a.less', root)).toBeUndefined();
    expect(projectFile('less/a.less', root)).toBe('less/a.less');
    expect(projectFile('/usr/lib/python3.11/json/decoder.py')).toBeUndefined();
  });
});

describe('the lines tied to the message', () => {
  const near = (lines: string[], m: number) => placeNear((i) => lines[i] ?? '', lines.length, m);

  it('reads the place below the message, in its indented report', () => {
    const lines = ['+ sass in.scss out.css', 'Error: Undefined mixin.', '  ╷', '3 │   @include shadow;', '  │   ^^^^^^^^^^^^^^^', '  ╵', '  scss/_box.scss 3:3  @use', '  in.scss 1:1        root stylesheet'];
    expect(near(lines, 1)).toMatchObject({ file: 'scss/_box.scss', line: 3, column: 3, index: 6 });
  });

  it('takes the first project frame under the error, not the library ones', () => {
    const lines = ['TypeError: x.map is not a function', '    at walk (/ws/node_modules/lib/index.js:4:2)', '    at World.<anonymous> (/ws/app/steps/basket.js:21:7)'];
    expect(near(lines, 0)).toMatchObject({ file: '/ws/app/steps/basket.js', line: 21 });
  });

  it('reads the line above the message in the same report', () => {
    const lines = ['+ named-checkzone ex.org zones/ex.org', 'dns_master_load: zones/ex.org.db:9: mail.ex.org: CNAME and other data', 'zone ex.org/IN: loading from master file zones/ex.org.db failed: CNAME and other data'];
    expect(near(lines, 2)).toMatchObject({ file: 'zones/ex.org.db', line: 9 });
  });

  it('reads a row under its file heading (`L<n> |`)', () => {
    const lines = ['   /ws/site/about.html', '      L7 |    <ul>', '             ^ Tag must be paired, missing: [ </ul> ] (tag-pair)', '', 'Scanned 1 files, found 1 errors in 1 files (9 ms)'];
    expect(near(lines, 4)).toMatchObject({ file: '/ws/site/about.html', line: 7 });
  });

  it('does not read past a command, nor a later tool output not indented under the message', () => {
    expect(near(['+ ./gen.sh', 'Type "Money" not defined', '+ cc -c src/a.c', 'src/a.c:3:1: error: x'], 1)).toBeUndefined();
    expect(near(['Package foo was not found', 'Perhaps you should add', 'to the PKG_CONFIG_PATH', "Package 'foo' not found", 'cc -o x x.c', 'x.c:3:10: fatal error: foo.h: No such file or directory'], 0)).toBeUndefined();
  });

  it("reads the one row of a runner's list of failures below the failure, not a list of several", () => {
    const one = ['Assertion Failed: expected 3 items, got 2', '', '', 'Failing scenarios:', '  features/basket.feature:12  Three items', '', '0 features passed, 1 failed'];
    expect(near(one, 0)).toMatchObject({ file: 'features/basket.feature', line: 12, index: 4 });
    const two = ['Assertion Failed: expected 3 items, got 2', '', '', 'Failing scenarios:', '  features/basket.feature:12  Three items', '  features/basket.feature:20  Four items', ''];
    expect(near(two, 0)).toBeUndefined();
  });

  it("reads what a script's check echoed above its own `+ exit 1`", () => {
    const lines = ["+ echo 'docs/guide.md:12: Locate: teh'", 'docs/guide.md:12: Locate: teh', "+ echo 'spelling errors found'", 'spelling errors found', '+ exit 1'];
    expect(near(lines, 4)).toMatchObject({ file: 'docs/guide.md', line: 12, index: 1 });
  });
});

describe('findings', () => {
  it('gives the place of a tool never seen, printed as `"PATH" line N:`', () => {
    const log = ['Building in workspace /tmp/w/charts', '+ plotter charts/mem.plt', '"charts/mem.plt" line 5: undefined variable: limit', 'Build step \'Execute shell\' marked build as failure'].join('\n');
    expect(top(log).location).toMatchObject({ file: 'charts/mem.plt', line: 5, log_line: 3 });
  });

  it('drops a place in a system file (the tool names its own source)', () => {
    const log = ['+ autoreconf -fi', 'Can\'t exec "libtoolize": No such file or directory at /usr/share/autoconf/Autom4te/FileUtils.pm line 293.', 'autoreconf: error: libtoolize failed with exit status: 2'].join('\n');
    expect(top(log).location).toBeUndefined();
  });

  it("drops a place a rule read in a file the build generates (make's verdict in CMake's `CMakeFiles/Makefile2`)", () => {
    const log = ['+ cmake --build build', 'gmake[2]: ccache: No such file or directory', 'gmake[2]: *** [CMakeFiles/app.dir/build.make:76: CMakeFiles/app.dir/src/a.c.o] Error 127', 'gmake[1]: *** [CMakeFiles/Makefile2:83: CMakeFiles/app.dir/all] Error 2', 'gmake: *** [Makefile:91: all] Error 2', "Build step 'Execute shell' marked build as failure"].join('\n');
    expect(top(log).location?.file ?? 'none').not.toMatch(/CMakeFiles/);
  });

  it("gives the one place a failed command's short output names, over the CI's exit line, whatever its words", () => {
    const at = (...out: string[]) => {
      const lines = ['[Pipeline] sh', '+ zsh scripts/publish.zsh', ...out, '[Pipeline] }', '[Pipeline] End of Pipeline', 'ERROR: script returned exit code 1'];
      return placeNear((i) => lines[i] ?? '', lines.length, lines.length - 1);
    };
    expect(at('scripts/publish.zsh:6: no matches found: out/*.sha256')).toMatchObject({ file: 'scripts/publish.zsh', line: 6 });
    // Two places, or a longer output, do not settle which line failed.
    expect(at('docs/a.md:7: trailing whitespace.', 'docs/a.md:8: trailing whitespace.')).toBeUndefined();
    expect(at('scripts/publish.zsh:6: no matches found: out/*.sha256', 'one', 'two', 'three')).toBeUndefined();
  });

  it("gives make's recipe line, not the shell's `/bin/sh: 1:`, for a command the recipe could not find", () => {
    const log = ['+ make all', 'sort -u words.txt | sponge words.txt', '/bin/sh: 1: sponge: not found', 'make: *** [Makefile:8: words] Error 127', 'Finished: FAILURE'].join('\n');
    expect(top(log).location).toMatchObject({ file: 'Makefile', line: 8 });
  });
});
