/**
 * "How do I fix it?" names what the evidence names (helper fx7, backend/answer/local/fixNamed.ts and
 * the values rule of remedyFacts.ts): the filesystem a full disk filled and the step's variable for it,
 * the call that gave a raise site its values, values that differ only in line endings, the C++ member
 * the linker could not find. Made-up logs (none of the realfail cases); every citation checked.
 */
import { dfRows, pathVariables, variableHolding } from '../backend/answer/local/fixNamed.js';
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
  it("a Python traceback: the caller's frame, never the test's", async () => {
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
    expect(text).toContain('`ratio` (the raise site) was called from `main` at `/ci/ws/tiles/tools/summarise.py:24` [L7-L7]');
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
      'n = 0, total = 0',
      '',
      '    def part(n, total):',
      '>       return n / total',
      'E       ZeroDivisionError: division by zero',
      '',
      'tiles/share.py:3: ZeroDivisionError',
      '=========================== short test summary info ============================',
      'FAILED tests/test_share.py::test_share - ZeroDivisionError: division by zero',
    ]);
    expect(text).toContain('`part` (the raise site) was called from `share_by_team` at `tiles/share.py:9` [L11-L11]');
    expect(text).toContain('pytest printed the arguments `part` got: `n = 0, total = 0` [L15-L15].');
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
