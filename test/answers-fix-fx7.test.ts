/**
 * "How do I fix it?" names what the evidence names (helper fx7, backend/answer/local/fixNamed.ts and
 * the values rule of remedyFacts.ts): the filesystem a full disk filled and the step's variable for it,
 * the call that gave a raise site its values, values that differ only in line endings, the C++ member
 * the linker could not find. Made-up logs (none of the realfail cases); every citation checked.
 */
import { addressesIn, dfRows, pathVariables, servicePorts, variableHolding } from '../backend/answer/local/fixNamed.js';
import { composeLocalAnswer } from '../backend/answer/local/index.js';
import type { CiContextUpload } from '../protocol/schemas.js';
import { analyzedChatContext } from './answerFixtures.js';
import { checkAnswer } from './helpers/claimChecks.js';
import { lineEndingsOnly } from '../backend/answer/local/remedyFacts.js';
import type { LogSpan } from '../backend/answer/logtext.js';
import { fixOfShellLog } from './helpers/shellLogFix.js';

const fixOf = (lines: string[]): Promise<string> => fixOfShellLog(lines, 'tiles', '/tmp/jenkins9.sh');
const span = (lines: string[]): LogSpan => ({ start_line: 1, end_line: lines.length, text: lines.join('\n') });

describe('a full disk: the filesystem df showed and the variable that names it', () => {
  it("a trap's df run after the error, its `$VAR` matched to bash's expansion", async () => {
    const text = await fixOf([
      `+ trap 'echo done; df -k "$TILE_OUT"; rm -rf "$TILE_OUT"/cache' EXIT`,
      '+ ./render --zoom 12 --dest /srv/scratch/tiles/cache',
      'render: write /srv/scratch/tiles/cache/12/511.png: No space left on device',
      '+ echo done',
      'done',
      '+ df -k /srv/scratch/tiles',
      'Filesystem     1K-blocks  Used Available Use% Mounted on',
      'tmpfs               2048  2048         0 100% /srv/scratch/tiles',
      '+ rm -rf /srv/scratch/tiles/cache',
    ]);
    expect(text).toContain("The step's `df` after the error showed `tmpfs 2048 2048 0 100% /srv/scratch/tiles` [L10-L10]: `/srv/scratch/tiles` is 2048 KiB in all, 0 KiB free, 100% used then.");
    expect(text).toContain('`$TILE_OUT` is `/srv/scratch/tiles` in this step (`df -k "$TILE_OUT"` [L3-L3] ran as `df -k /srv/scratch/tiles` [L8-L8])');
  });

  it('an assignment the trace shows names the directory of the message', async () => {
    const text = await fixOf(['+ export CACHE_DIR=/mnt/ci-cache', '+ cp -r build /mnt/ci-cache/build-42', "cp: error writing '/mnt/ci-cache/build-42/app.bin': No space left on device"]);
    expect(text).toContain('`$CACHE_DIR` is `/mnt/ci-cache` in this step [L3-L3]');
  });

  it('no df and no variable: nothing said of either', async () => {
    const text = await fixOf(['+ ./render --dest out', 'render: write out/1.png: No space left on device']);
    expect(text).not.toContain("The step's `df`");
    expect(text).not.toContain('in this step');
  });

  it('reads df rows under the heading and under `df | tail -1`, and no other table', () => {
    const log = span(['+ df -h /tmp/dist', '+ tail -1', 'tmpfs           384K     0  384K   0% /tmp/dist', 'Name Size Used Avail 12% /x', '+ ls']);
    expect(dfRows(log, 1, 5).map((r) => [r.line, r.size, r.mount, r.unit])).toEqual([[3, '384K', '/tmp/dist', undefined]]);
  });

  it('a variable and a mount point: the value under the mount, the most specific one', () => {
    const vars = pathVariables(span(['+ OUT=/mnt/v/build', '+ ROOT=/mnt', '+ LOG=/var/log/x']), 1, 3);
    expect(variableHolding(vars, '/mnt/v', true)?.name).toBe('OUT');
    expect(variableHolding(vars, '/mnt/v/build/a.o')?.name).toBe('OUT');
    expect(variableHolding(vars, '/srv/y')).toBeUndefined();
  });
});

describe('a path variable for an OS refusal', () => {
  it('a file not found under a directory the step set', async () => {
    const text = await fixOf(['+ SECRETS_DIR=/run/ci/secrets', '+ ./deploy --password-file /run/ci/secrets/db.pass', 'deploy: open /run/ci/secrets/db.pass: no such file or directory']);
    expect(text).toContain('`$SECRETS_DIR` is `/run/ci/secrets` in this step [L3-L3]: the path the error names comes from that variable');
  });
});

describe('the call that gave the raise site its values', () => {
  it("a Python traceback: the frame that called the raise site", async () => {
    const text = await fixOf([
      '+ python3 tools/summarise.py data/week.csv',
      'Traceback (most recent call last):',
      '  File "/ci/ws/tiles/tools/summarise.py", line 30, in <module>',
      '    main(sys.argv[1])',
      '  File "/ci/ws/tiles/tools/summarise.py", line 24, in main',
      '    print(ratio(hits, misses))',
      '  File "/ci/ws/tiles/tools/summarise.py", line 8, in ratio',
      '    return a / b',
      'ZeroDivisionError: division by zero',
    ]);
    expect(text).toContain('`ratio` (where the error was raised) was called from `main` at `/ci/ws/tiles/tools/summarise.py:24` [L7-L7]');
  });

  it("pytest's long form: the caller outside the tests and the arguments it printed", async () => {
    const text = await fixOf([
      '+ python3 -m pytest -q tests',
      '=================================== FAILURES ===================================',
      '_________________________________ test_share _________________________________',
      '    def test_share():',
      '>       assert share_by_team([]) == {}',
      '',
      'tests/test_share.py:4: ',
      '_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ ',
      'tiles/share.py:9: in share_by_team',
      '    return {t: part(n, total) for t, n in counts.items()} or {"all": part(0, total)}',
      '_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ ',
      '',
      'n          = 0',
      'total      = 0',
      '',
      '    def part(n, total):',
      '>       return n / total',
      'E       ZeroDivisionError: division by zero',
      '',
      'tiles/share.py:3: ZeroDivisionError',
      '=========================== short test summary info ============================',
      'FAILED tests/test_share.py::test_share - ZeroDivisionError: division by zero',
    ]);
    expect(text).toContain('`part` (where the error was raised) was called from `share_by_team` at `tiles/share.py:9` [L11-L11]');
    expect(text).toContain('pytest printed the arguments `part` got: `n          = 0`, `total      = 0` [L15-L16].');
  });

  it("a raise site a test's function called (a traceback's frame in tests/): no caller sentence", async () => {
    const text = await fixOf([
      '+ python3 -m unittest tests.test_ratio',
      'Traceback (most recent call last):',
      '  File "/ci/ws/tiles/tests/test_ratio.py", line 5, in test_ratio',
      '    self.assertEqual(ratio(1, 0), 0)',
      '  File "/ci/ws/tiles/tools/summarise.py", line 8, in ratio',
      '    return a / b',
      'ZeroDivisionError: division by zero',
    ]);
    expect(text).toContain('ZeroDivisionError');
    expect(text).not.toContain('was called from');
  });

  it('a raise site the test called directly: no caller sentence', async () => {
    const text = await fixOf([
      '+ python3 -m pytest -q tests',
      '    def test_share():',
      '>       assert part(1, 0) == 0',
      '',
      'tests/test_share.py:4: ',
      '_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ ',
      '',
      '    def part(n, total):',
      '>       return n / total',
      'E       ZeroDivisionError: division by zero',
      '',
      'tiles/share.py:3: ZeroDivisionError',
      'FAILED tests/test_share.py::test_share - ZeroDivisionError: division by zero',
    ]);
    expect(text).not.toContain('was called from');
  });
});

describe('values that differ only in line endings', () => {
  it('the expected side has CRLF: the file the message names, converted to LF', () => {
    const said = lineEndingsOnly('"a\\r\\nb\\r\\n"', '"a\\nb\\n"', 'report_test.go:9: table differs from testdata/table.golden');
    expect(said).toContain('the expected value has CRLF');
    expect(said).toContain('`dos2unix testdata/table.golden`');
    expect(lineEndingsOnly('"a\\nb\\r\\n"', '"a\\nb\\n"')).toContain('`dos2unix FILE`');
  });

  it('the program wrote CRLF; or the values differ otherwise: nothing said', () => {
    expect(lineEndingsOnly('"a\\n"', '"a\\r\\n"')).toContain('the program wrote CRLF');
    expect(lineEndingsOnly('"a\\r\\n"', '"b\\n"')).toBeUndefined();
    expect(lineEndingsOnly('"a\\n"', '"b\\n"')).toBeUndefined();
  });

  it("Go's `got:` / `want:` under a failed check", async () => {
    const text = await fixOf([
      '+ go test ./report',
      '--- FAIL: TestTable (0.00s)',
      '    report_test.go:9: table differs from testdata/table.golden',
      '         got: "a  1\\nb  2\\n"',
      '        want: "a  1\\r\\nb  2\\r\\n"',
      'FAIL',
      'FAIL\texample.com/tiles/report\t0.004s',
    ]);
    expect(text).toContain('The two differ only in line endings: the expected value has CRLF');
    expect(text).toContain('`dos2unix testdata/table.golden`');
  });
});

describe('a C++ member the linker could not find', () => {
  it("names the member in the step about the class's source", async () => {
    const text = await fixOf([
      '+ make',
      'g++ -c -o build/grid.o src/grid.cpp',
      'g++ -c -o build/main.o src/main.cpp',
      'g++ -o build/tiles build/grid.o build/main.o',
      "/usr/bin/ld: build/main.o: in function `main':",
      "main.cpp:(.text+0x2a): undefined reference to `Grid::reset(int)'",
      'collect2: error: ld returned 1 exit status',
    ]);
    expect(text).toContain('Check that it defines `Grid::reset(int)`');
  });
});

/** The fix answer over a made-up log with workspace snippets (the controller's shape); citations checked. */
async function fixWithSnippets(lines: string[], snippets: object[]): Promise<string> {
  const log = `${['Started by user ops', '[tiles] $ /bin/sh -xe /tmp/jenkins9.sh', ...lines, "Build step 'Execute shell' marked build as failure", 'Finished: FAILURE'].join('\n')}\n`;
  const upload = { buildDetails: { result: 'FAILURE', consoleLog: log }, workspaceSnippets: snippets } as unknown as CiContextUpload;
  const ctx = analyzedChatContext(upload, log);
  const text = (await composeLocalAnswer('How do I fix it?', ctx)).text;
  expect(checkAnswer('How do I fix it?', text, log.split('\n'), ctx)).toEqual([]);
  return text;
}

const SMOKE = [
  'package smoke;',
  '',
  'public class Smoke {',
  '    static final String BASE = "http://127.0.0.1:18081";',
  '',
  '    static void get(String path) throws Exception {',
  '        CLIENT.send(HttpRequest.newBuilder(URI.create(BASE + path)).build(), BodyHandlers.ofString());',
  '    }',
  '',
  '    public static void main(String[] args) throws Exception {',
  '        for (String p : List.of("/health", "/orders/export")) {',
  '            get(p);',
  '        }',
  '    }',
  '}',
].join('\n');

describe('the call it came from, from the workspace', () => {
  const main = ['package smoke;', '', 'public class Main {', '    public static void main(String[] args) throws Exception {', '        for (String p : List.of("/health", "/orders/export")) {', '            Smoke.get(p);', '        }', '    }', '}'].join('\n');
  it('a JVM stack: the project frame in another file that called the failing one, its lines shown', async () => {
    const text = await fixWithSnippets(
      [
        '+ java smoke/Main.java',
        'Exception in thread "main" java.net.http.HttpTimeoutException: request timed out',
        '\tat java.net.http/jdk.internal.net.http.HttpClientImpl.send(HttpClientImpl.java:572)',
        '\tat smoke.Smoke.get(Smoke.java:7)',
        '\tat smoke.Main.main(Main.java:6)',
      ],
      [
        { workspaceId: 'local', path: 'smoke/Smoke.java', startLine: 1, endLine: 15, text: SMOKE, kind: 'source', line: 7, logLine: 6 },
        { workspaceId: 'local', path: 'smoke/Main.java', startLine: 1, endLine: 9, text: main, kind: 'source', line: 6, logLine: 7 },
      ],
    );
    expect(text).toContain('`smoke.Smoke.get` (where the error was raised) was called from `smoke.Main.main` at `smoke/Main.java:6` [L7-L7]');
    expect(text).toContain('**The call it came from:** `smoke/Main.java:6` (in `smoke.Main.main`) [L7-L7] called `smoke.Smoke.get`:');
    expect(text).toContain('List.of("/health", "/orders/export")');
  });

  it('the caller a few lines from the failing line is in the source shown: not shown again', async () => {
    const text = await fixWithSnippets(
      ['+ java smoke/Smoke.java', 'Exception in thread "main" java.net.http.HttpTimeoutException: request timed out', '\tat java.net.http/jdk.internal.net.http.HttpClientImpl.send(HttpClientImpl.java:572)', '\tat smoke.Smoke.get(Smoke.java:7)', '\tat smoke.Smoke.main(Smoke.java:12)'],
      [{ workspaceId: 'local', path: 'smoke/Smoke.java', startLine: 1, endLine: 15, text: SMOKE, kind: 'source', line: 7, logLine: 6 }],
    );
    expect(text).toContain('was called from `smoke.Smoke.main` at `smoke/Smoke.java:12` [L7-L7]');
    expect(text).not.toContain('**The call it came from:**');
  });
});

describe('a refused connection: the port the client used and the ports the step started services on', () => {
  const log = ['+ python3 stub/server.py 18080 &', '+ sleep 1', '+ java smoke/Smoke.java', 'Exception in thread "main" java.net.ConnectException', '\tat java.net.http/jdk.internal.net.http.HttpClientImpl.send(HttpClientImpl.java:574)', '\tat smoke.Smoke.get(Smoke.java:7)', '\tat smoke.Smoke.main(Smoke.java:12)'];
  const snippet = { workspaceId: 'local', path: 'smoke/Smoke.java', startLine: 1, endLine: 15, text: SMOKE, kind: 'source', line: 7, logLine: 8 };

  it('the literal in the source against the stub started on another port', async () => {
    const text = await fixWithSnippets(log, [snippet]);
    expect(text).toContain('**The ports:** The step started `python3 stub/server.py 18080 &` [L3-L3] (port 18080), and the client connects to port 18081 (`smoke/Smoke.java:4`: `static final String BASE = "http://127.0.0.1:18081";`)');
  });

  it('the same port on both sides, or no service started: nothing said', async () => {
    expect(await fixWithSnippets(log, [{ ...snippet, text: SMOKE.replace('18081', '18080') }])).not.toContain('**The ports:**');
    expect(await fixWithSnippets(log.slice(1), [snippet])).not.toContain('**The ports:**');
  });

  it("reads services' ports by their arguments and their own words, never a client's", () => {
    const l = ['+ ./bin/mock-api --port=7000 &', '+ curl -s http://127.0.0.1:7001/health', 'Serving HTTP on 0.0.0.0 port 8000 (http://0.0.0.0:8000/) ...', '+ STUB=4242', '+ redis-server --port 6380 --daemonize yes'];
    expect(servicePorts(span(l), 10).map((p) => [p.port, p.line])).toEqual([['7000', 1], ['8000', 3], ['6380', 5]]);
    expect(addressesIn({ workspaceId: 'local', path: 'a.py', startLine: 10, endLine: 11, text: 'URL = "http://localhost:9000/x"\nT = "12:30"', kind: 'source' } as never).map((a) => [a.port, a.line])).toEqual([['9000', 10]]);
  });
});

describe("a refused connection's address, not a source position", () => {
  it('a bracketed IPv6 address is the agent itself; a longer name ending in `localhost` is no address', async () => {
    const v6 = await fixOf(['+ node smoke.js', 'Error: connect ECONNREFUSED [::1]:8080', '    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16)']);
    expect(v6).toContain('Nothing listened on `[::1]:8080` on the agent itself [L4-L5]');
    expect(v6).toContain('`nc -vz [::1] 8080`');
    // `mylocalhost:18081` is not `localhost:18081`: the client's port is not compared with the service the step started.
    const named = await fixOf(['+ ./mock-api --port 18080 &', '+ curl -sf http://mylocalhost:18081/health', 'curl: (7) Failed to connect to mylocalhost:18081 after 0 ms: Connection refused']);
    expect(named).not.toContain('**The ports:**');
    expect(named).toContain('Nothing accepted the connection on `mylocalhost:18081` [L5-L5]');
    expect(await fixOf(['+ ./mock-api --port 18080 &', '+ curl -sf http://localhost:18081/health', 'curl: (7) Failed to connect to localhost:18081 after 0 ms: Connection refused'])).toContain('and the client connects to port 18081 [L5-L5]');
  });

  it("Ruby's `socket.rb:1214:in` ahead of the host and port", async () => {
    const text = await fixOf([
      '+ ruby bin/sync',
      "/usr/lib/ruby/3.1.0/socket.rb:1214:in `__connect_nonblock': Failed to open TCP connection to 10.20.0.7:9200 (Connection refused - connect(2) for 10.20.0.7:9200) (Errno::ECONNREFUSED)",
      "\tfrom /usr/lib/ruby/3.1.0/net/http.rb:998:in `connect'",
      "\tfrom /ci/ws/tiles/lib/search.rb:12:in `push'",
    ]);
    expect(text).toContain('`10.20.0.7:9200`');
    expect(text).not.toContain('`socket.rb:1214`');
  });
});

describe("the error's own lines", () => {
  it("Node's lines under the message, before its stack", async () => {
    const text = await fixOf([
      '+ node scripts/bundle.js',
      'TypeError: Converting circular structure to JSON',
      "    --> starting at object with constructor 'Node'",
      "    --- property 'owner' closes the circle",
      '    at JSON.stringify (<anonymous>)',
      '    at Object.<anonymous> (/ci/ws/tiles/scripts/bundle.js:9:20)',
    ]);
    expect(text).toContain("The error's own lines under its message: `--> starting at object with constructor 'Node'` [L5-L5]; `--- property 'owner' closes the circle` [L6-L6].");
  });

  it("Node's system error fields after the stack: the path it failed on", async () => {
    const text = await fixOf([
      '+ node deploy.js',
      'node:fs:573',
      '  return binding.open(',
      '                 ^',
      '',
      "Error: EACCES: permission denied, open",
      '    at Object.openSync (node:fs:573:18)',
      '    at Object.<anonymous> (/ci/ws/tiles/deploy.js:4:18) {',
      '  errno: -13,',
      "  code: 'EACCES',",
      "  syscall: 'open',",
      "  path: '/run/ci/secrets/db.pass'",
      '}',
    ]);
    expect(text).toContain("Node's error names `path: '/run/ci/secrets/db.pass'` [L14-L14]: that is what the call failed on.");
  });

  it('a message with no lines of its own under it: nothing said', async () => {
    const text = await fixOf(['+ node a.js', 'TypeError: x is not a function', '    at Object.<anonymous> (/ci/ws/tiles/a.js:1:1)']);
    expect(text).not.toContain("The error's own lines");
  });
});

describe("rustc's help that points to another file", () => {
  it('the type without the trait, with its line', async () => {
    const text = await fixOf([
      '+ cargo build --offline',
      '   Compiling tiles v0.1.0 (/ci/ws/tiles)',
      "error[E0277]: `Span` doesn't implement `std::fmt::Display`",
      '  --> src/main.rs:9:20',
      '   |',
      '9  |     println!("{}", s);',
      '   |                    ^ `Span` cannot be formatted with the default formatter',
      '   |',
      "help: the trait `std::fmt::Display` is not implemented for `Span`",
      '  --> src/span.rs:3:1',
      '   |',
      '3  | pub struct Span(pub u32, pub u32);',
      '   | ^^^^^^^^^^^^^^^',
      '',
      'error: could not compile `tiles` (bin "tiles") due to 1 previous error',
    ]);
    expect(text).toContain('The compiler points to another file, `src/span.rs:3:1` [L12-L12] (`pub struct Span(pub u32, pub u32);` [L14-L14])');
  });
});

describe('a file dated in the future', () => {
  it("make's and tar's warnings before the error name the file", async () => {
    const text = await fixOf([
      '+ tar -xf cache.tar',
      'tar: gen/config.h: time stamp 2026-11-25 03:47:41 is 3598.7 s in the future',
      '+ make check',
      "make: Warning: File 'gen/config.h' has modification time 3598 s in the future",
      'cc -o tests/t tests/t.c',
      "t: tests/t.c:6: main: Assertion `strcmp(VERSION, argv[1]) == 0' failed.",
      'make: *** [Makefile:9: check] Aborted',
    ]);
    expect(text).toContain('The log warns that `gen/config.h` [L4-L4] has a modification time in the future');
  });

  it('no such warning: nothing said', async () => {
    const text = await fixOf(['+ make check', "t: tests/t.c:6: main: Assertion `x == 1' failed.", 'make: *** [Makefile:9: check] Aborted']);
    expect(text).not.toContain('in the future');
  });
});
