/**
 * "How do I fix it?" with the workspace files a fix needs (helper fx8, issue 25 point 3): the line
 * of any setting file that holds the address a connection went to (`.gitmodules`, `sqitch.conf`),
 * the configuration line that passes an option the program refused (pytest.ini's `addopts`), the
 * build file's list of sources a link needs one more in (`SRCS = ...`). Made-up projects written to
 * disk and read by the CLI's reader (`cichat ask --workspace DIR`), then real cases of the tuning
 * data; every citation checked. A binary file, a link leading out of the directory and a document
 * that only mention the value are never cited.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { snippetsFromDir } from '../cli/snippets.js';
import { composeLocalAnswer } from '../backend/answer/local/index.js';
import type { CiContextUpload } from '../protocol/schemas.js';
import type { WorkspaceSnippet } from '../protocol/types.js';
import { analyzedChatContext } from './answerFixtures.js';
import { checkAnswer } from './helpers/claimChecks.js';
import { fixOfRealCase } from './helpers/shellLogFix.js';

const FIX = 'How do I fix it?';
const made: string[] = [];
afterAll(() => {
  for (const d of made) fs.rmSync(d, { recursive: true, force: true });
});

/** A project on disk: path -> text (a Buffer for bytes; `{ link }` for a symbolic link). */
function project(files: Record<string, string | Buffer | { link: string }>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fx8-ws-'));
  made.push(dir);
  for (const [rel, body] of Object.entries(files)) {
    const p = path.join(dir, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    if (typeof body === 'object' && !Buffer.isBuffer(body)) fs.symlinkSync(body.link, p);
    else fs.writeFileSync(p, body);
  }
  return dir;
}

/** The fix answer for a shell step's log over the snippets the CLI reads from `dir`; its citations checked. */
async function fixIn(dir: string, lines: string[]): Promise<{ text: string; snippets: WorkspaceSnippet[] }> {
  const log = `${['Started by user ops', '[app] $ /bin/sh -xe /tmp/jenkins8.sh', ...lines, "Build step 'Execute shell' marked build as failure", 'Finished: FAILURE'].join('\n')}\n`;
  const snippets = await snippetsFromDir(dir, log);
  const upload = { buildDetails: { result: 'FAILURE', consoleLog: log }, workspaceSnippets: snippets } as CiContextUpload;
  const ctx = analyzedChatContext(upload, log);
  const text = (await composeLocalAnswer(FIX, ctx)).text;
  expect(checkAnswer(FIX, text, log.split('\n'), ctx)).toEqual([]);
  return { text, snippets };
}

describe('the address a connection went to, where a setting file holds it', () => {
  it('a dotfile of the project, not the README that mentions it nor the script that starts a server', async () => {
    const dir = project({
      '.lfsconfig': '[lfs]\n\turl = http://127.0.0.1:45999/assets.git/info/lfs\n',
      'README.md': 'The LFS store is at 127.0.0.1:45999.\n',
      'stub.sh': 'python3 -m http.server 45999 --bind 127.0.0.1 &\n',
      'ci.sh': 'git lfs pull\n',
    });
    const { text, snippets } = await fixIn(dir, ['+ git lfs pull', 'batch response: Post "http://127.0.0.1:45999/assets.git/info/lfs/objects/batch": dial tcp 127.0.0.1:45999: connect: connection refused', 'error: failed to fetch some objects']);
    expect(text).toContain('`.lfsconfig:2` sets `127.0.0.1:45999` (`url = http://127.0.0.1:45999/assets.git/info/lfs`), where the build tried to connect');
    expect(snippets.map((s) => s.path)).not.toEqual(expect.arrayContaining(['README.md']));
    expect(text).not.toContain('stub.sh');
  });

  it('psql\'s "host", port N: the config line with both', async () => {
    const dir = project({ 'sqitch.conf': '[core]\n\tengine = pg\n[target "ci"]\n\turi = db:pg://app@127.0.0.1:47001/app\n', 'ci.sh': 'sqitch deploy ci\n' });
    const { text } = await fixIn(dir, ['+ sqitch deploy ci', 'psql: error: connection to server at "127.0.0.1", port 47001 failed: Connection refused']);
    expect(text).toContain('`sqitch.conf:4` sets `127.0.0.1:47001`');
  });

  it('never read: a binary file, a link leading out of the directory, a file that is not there', async () => {
    const outside = project({ 'hosts.ini': 'url = http://127.0.0.1:45888/x\n' });
    const dir = project({
      'conf/blob.dat': Buffer.concat([Buffer.from('url = http://127.0.0.1:45888/x\n'), Buffer.from([0, 1, 2, 0])]),
      'conf/hosts.ini': { link: path.join(outside, 'hosts.ini') },
      'conf/gone.ini': { link: path.join(outside, 'no-such-file.ini') },
      'ci.sh': 'curl -fsS http://127.0.0.1:45888/x\n',
    });
    const { text, snippets } = await fixIn(dir, ['+ curl -fsS http://127.0.0.1:45888/x', 'curl: (7) Failed to connect to 127.0.0.1 port 45888 after 0 ms: Couldn\'t connect to server']);
    expect(snippets.filter((s) => s.path.startsWith('conf/'))).toEqual([]);
    expect(text).not.toMatch(/blob\.dat|hosts\.ini|gone\.ini/);
  });
});

describe('an option the program refused, passed by its configuration', () => {
  it("setup.cfg's addopts: the line, and where the option comes from", async () => {
    const dir = project({ 'setup.cfg': '[metadata]\nname = app\n\n[tool:pytest]\naddopts = --strict-markers --reruns 2\n', 'ci.sh': 'python3 -m pytest\n', 'tests/test_a.py': 'def test_a():\n    assert True\n' });
    const { text } = await fixIn(dir, ['+ python3 -m pytest', 'ERROR: usage: __main__.py [options] [file_or_dir] [file_or_dir] [...]', '__main__.py: error: unrecognized arguments: --reruns', '  inifile: /ws/setup.cfg', '  rootdir: /ws']);
    expect(text).toContain('`setup.cfg:5` passes `--reruns` (`addopts = --strict-markers --reruns 2`): the program reads this file as well as its command line');
  });
  it('a shell script that passes it is the command line, not a configuration', async () => {
    const dir = project({ 'run-tests.sh': 'python3 -m pytest --reruns 2\n', 'ci.sh': 'sh run-tests.sh\n' });
    const { text } = await fixIn(dir, ['+ sh run-tests.sh', '__main__.py: error: unrecognized arguments: --reruns']);
    expect(text).not.toContain('from its configuration');
    expect(text).not.toContain('reads this file as well as its command line');
  });
});

describe('a link symbol defined in a file the build does not list', () => {
  it("the Makefile's list, and the file missing from it", async () => {
    const dir = project({
      Makefile: 'CC = cc\nSRCS = src/main.c src/io.c\nOBJS = $(SRCS:.c=.o)\n\napp: $(OBJS)\n\t$(CC) -o $@ $(OBJS)\n',
      'src/main.c': 'int crc(int);\nint main(void) { return crc(1); }\n',
      'src/io.c': 'int io(void) { return 0; }\n',
      'src/crc.c': 'int crc(int x)\n{\n    return x * 31;\n}\n',
    });
    const { text } = await fixIn(dir, ['+ make', 'cc -c -o src/main.o src/main.c', 'cc -c -o src/io.o src/io.c', 'cc -o app src/main.o src/io.o', "/usr/bin/ld: src/main.o: in function `main':", "main.c:(.text+0x9): undefined reference to `crc'", 'collect2: error: ld returned 1 exit status', 'make: *** [Makefile:6: app] Error 1']);
    expect(text).toContain('`Makefile:2` lists the files the build compiles and links in `SRCS` (`SRCS = src/main.c src/io.c`), and `src/crc.c`, which defines `crc`, is not among them: add it there');
  });
});

describe('real cases of the tuning data (the project as the workspace)', () => {
  const fixOf = fixOfRealCase;
  it('sqitch: the target URI in sqitch.conf', async () => {
    expect(await fixOf('sqitch-deploy-refused')).toContain('`sqitch.conf:6` sets `127.0.0.1:47612` (`uri = db:pg://postgres@127.0.0.1:47612/data7b_sqitch`)');
  });
  it('a submodule: its URL in .gitmodules', async () => {
    expect(await fixOf('git-submodule-port-refused')).toContain('`.gitmodules:3` sets `127.0.0.1:47864`');
  });
  it("pytest-xdist: pytest.ini's addopts passes -n", async () => {
    expect(await fixOf('pytest-xdist-missing')).toContain('`pytest.ini:3` passes `-n` (`addopts = -ra -q -n auto`)');
  });
  it('lld: SRCS lacks the file that defines the member', async () => {
    expect(await fixOf('lld-undefined-symbol')).toContain('`Makefile:4` lists the files the build compiles and links in `SRCS` (`SRCS = src/main.cpp src/checksum.cpp`), and `src/checksum_simd.cpp`, which defines `Checksum::update`, is not among them');
  });
  it("gradle: the task the build script defines now", async () => {
    expect(await fixOf('gradle-task-not-found')).toContain('`build.gradle` defines the tasks `itest` and no `integrationTest`: run `itest` in the CI script if that is the one meant');
  });
  it('javac: sourceCompatibility, the level a text block is too new for', async () => {
    expect(await fixOf('gradle-text-block-source-11')).toContain('`build.gradle:2` sets the language level the compiler checks against (`sourceCompatibility = 11`)');
  });
  it("ctest: the PASS_REGULAR_EXPRESSION the program's output did not match", async () => {
    expect(await fixOf('ctest-regex-not-found')).toContain('`CMakeLists.txt:6` sets the output the test requires (`set_tests_properties(version_banner PROPERTIES PASS_REGULAR_EXPRESSION');
  });
});
