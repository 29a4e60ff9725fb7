/**
 * "How do I fix it?" on the everyday tools' well-known failures (issue 25, helper ta): what a
 * senior engineer says, built from the tool's own words, the log around them and the workspace.
 * Made-up logs and projects (none of the realfail cases), each with a counter-example the rule
 * must leave alone.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { composeLocalAnswer } from '../backend/answer/local/index.js';
import { snippetsFromDir } from '../cli/snippets.js';
import { analyzedChatContext } from './answerFixtures.js';
import { checkCitations } from './helpers/claimChecks.js';
import type { CiContextUpload } from '../protocol/schemas.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A project directory with these files. */
function project(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'cichat-fix-'));
  dirs.push(dir);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

/** The fix answer for a log (and a workspace), with every citation checked against the log. */
async function fixOf(lines: string[], workspace?: Record<string, string>): Promise<string> {
  const log = `${lines.join('\n')}\n`;
  const snippets = workspace ? await snippetsFromDir(project(workspace), log) : [];
  const upload = { buildDetails: { result: 'FAILURE', consoleLog: log }, workspaceSnippets: snippets } as CiContextUpload;
  const text = (await composeLocalAnswer('How do I fix it?', analyzedChatContext(upload, log))).text;
  expect(checkCitations(text, log.split('\n'))).toEqual([]);
  return text;
}

const FREESTYLE = ['Started by user ops', 'Running as SYSTEM', 'Building in workspace /var/lib/jenkins/workspace/thumbs', '[thumbs] $ /bin/bash -xe ci.sh'];
const END = ['Build step \'Execute shell\' marked build as failure', 'Finished: FAILURE'];

describe('the fix for the everyday tools says what a senior engineer says', () => {
  it('Docker: a socket the user may not open is the docker group; a daemon that does not run is DOCKER_HOST or another agent', async () => {
    const socket = await fixOf([...FREESTYLE, '+ docker build -t thumbs:ci .', 'permission denied while trying to connect to the Docker daemon socket at unix:///var/run/docker.sock: Post "http://%2Fvar%2Frun%2Fdocker.sock/v1.45/build": dial unix /var/run/docker.sock: connect: permission denied', ...END]);
    expect(socket).toContain('add it to the docker group');
    expect(socket).toContain('`ls -l /var/run/docker.sock`');
    const daemon = await fixOf([...FREESTYLE, '+ docker compose up -d db', 'Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?', ...END]);
    expect(daemon).toContain('No Docker daemon answered at `unix:///var/run/docker.sock`');
    expect(daemon).toContain('`DOCKER_HOST`');
    // Another permission problem is not Docker's.
    const other = await fixOf([...FREESTYLE, '+ cp thumbs.tar /srv/releases/', "cp: cannot create regular file '/srv/releases/thumbs.tar': Permission denied", ...END]);
    expect(other).not.toContain('docker group');
  });

  it('Docker: a refused pull leaves both causes open (no such repository, or a login), names the registry host; Docker Hub when the image names none', async () => {
    const pull = await fixOf([...FREESTYLE, '+ docker compose -f it/compose.yml up -d db', "Error response from daemon: pull access denied for registry.internal/postgres-it, repository does not exist or may require 'docker login': denied: requested access to the resource is denied", ...END]);
    expect(pull).toContain("Docker could not pull `registry.internal/postgres-it` [L6-L6]: in its words the repository does not exist or needs a login, and it does not say which.");
    expect(pull).toContain('`docker login registry.internal`');
    expect(pull).not.toContain('the log names no host');
    const hub = await fixOf([...FREESTYLE, '+ docker run --rm acme/builder:3 make', "docker: Error response from daemon: pull access denied for acme/builder, repository does not exist or may require 'docker login'.", ...END]);
    expect(hub).toContain('`docker login docker.io`');
  });

  it('a time limit that stopped a loop: the failure it repeated, counted and cited; not when nothing repeats', async () => {
    const probe = (n: number): string[] => ['curl: (22) The requested URL returned error: 404', `waiting for the api (attempt ${n})`];
    const loop = await fixOf(['Started by user ci', '[Pipeline] timeout', 'Timeout set to expire in 20 sec', '[Pipeline] sh', '+ ./smoke.sh', ...[1, 2, 3, 4, 5].flatMap(probe), 'Sending interrupt signal to process', '[Pipeline] // timeout', 'Timeout has been exceeded', 'Finished: ABORTED']);
    expect(loop).toContain('Before the limit stopped it, the step printed `curl: (22) The requested URL returned error: 404` 5 times (first [L6-L6], last [L14-L14])');
    const slow = await fixOf(['Started by user ci', '[Pipeline] timeout', 'Timeout set to expire in 20 sec', '[Pipeline] sh', '+ ./import.sh', 'imported 1000 rows', 'imported 2000 rows', 'imported 3000 rows', 'Sending interrupt signal to process', 'Timeout has been exceeded', 'Finished: ABORTED']);
    expect(slow).not.toContain('Before the limit stopped it');
  });

  it('a command an npm script runs that is not installed: a devDependency; a Go generator: go install with its module', async () => {
    const npm = await fixOf([...FREESTYLE, '+ npm run lint', '', '> thumbs-web@0.3.0 lint', '> eslint src --max-warnings 0', '', 'sh: 1: eslint: not found', ...END]);
    expect(npm).toContain('The npm script `lint`');
    expect(npm).toContain('devDependency');
    expect(npm).not.toContain('Debian');
    const gen = await fixOf([...FREESTYLE, '+ go generate ./...', 'internal/store/mock.go:5: running "mockgen": exec: "mockgen": executable file not found in $PATH', ...END]);
    expect(gen).toContain('`go install go.uber.org/mock/mockgen@<version>`');
    expect(gen).toContain('`internal/store/mock.go:5`');
  });

  it('a command Debian ships under another package name: that package; the log naming one wins', async () => {
    const xml = await fixOf([...FREESTYLE, '+ xmllint --noout site/sitemap.xml', 'ci.sh: line 4: xmllint: command not found', ...END]);
    expect(xml).toContain('`libxml2-utils`');
    const told = await fixOf([...FREESTYLE, '+ sponge out.txt', "Command 'sponge' not found, but can be installed with:", 'sudo apt install moreutils', 'ci.sh: line 2: sponge: command not found', ...END]);
    expect(told).toMatch(/names the package that has it: `moreutils` \[L\d+-L\d+\]/);
    // A command Debian ships under its own name gets no package claim.
    const own = await fixOf([...FREESTYLE, '+ zstd -q dist.tar', 'ci.sh: line 3: zstd: command not found', ...END]);
    expect(own).not.toContain('comes in the');
  });

  it('a link line with its libraries before the objects: move them after (LDLIBS with make); not when they come after', async () => {
    const early = [...FREESTYLE, '+ make', 'cc -O2 -c -o main.o main.c', 'cc -L/opt/z/lib -lz main.o -o packer', "/usr/bin/ld: main.o: in function `pack':", "main.c:(.text+0x2a): undefined reference to `compress2'", 'collect2: error: ld returned 1 exit status', 'make: *** [<builtin>: packer] Error 1', ...END];
    const fix = await fixOf(early);
    expect(fix).toContain('names `-lz` before the object files');
    expect(fix).toContain('libraries go in `LDLIBS`');
    const late = await fixOf(early.map((l) => (l === 'cc -L/opt/z/lib -lz main.o -o packer' ? 'cc -L/opt/z/lib main.o -lz -o packer' : l)));
    expect(late).not.toContain('before the object files');
  });

  it('a make variable that refers to itself: += or :=, even when the finding is only the exit status', async () => {
    const fix = await fixOf(['Started by user ops', '[Pipeline] sh', '+ make release', 'GNUmakefile:9: *** Recursive variable \'LDFLAGS\' references itself (eventually).  Stop.', '[Pipeline] }', 'ERROR: script returned exit code 2', 'Finished: FAILURE']);
    expect(fix).toContain('`LDFLAGS += ...`');
    expect(fix).toContain('`LDFLAGS := $(LDFLAGS) ...`');
  });

  it('npm ci without a lock file: commit it, and .gitignore must not list it', async () => {
    const fix = await fixOf([...FREESTYLE, '+ npm ci', 'npm error code EUSAGE', 'npm error', 'npm error The `npm ci` command can only install with an existing package-lock.json or', 'npm error npm-shrinkwrap.json with lockfileVersion >= 1. Run an install with npm@5 or', 'npm error later to generate a package-lock.json file, then try again.', ...END]);
    expect(fix).toContain('commit `package-lock.json`');
    expect(fix).toContain('`.gitignore` must not list it');
  });

  it('a pytest fixture nothing defines: the listed fixtures named like it, never one that only contains its letters', async () => {
    const fix = await fixOf([
      ...FREESTYLE,
      '+ python -m pytest -q',
      '.E                                                                       [100%]',
      '==================================== ERRORS ====================================',
      '_____________________ ERROR at setup of test_resize_keeps_ratio _____________________',
      'file /var/lib/jenkins/workspace/thumbs/tests/test_resize.py, line 7',
      '  def test_resize_keeps_ratio(image):',
      "E       fixture 'image' not found",
      '>       available fixtures: cache, capfd, image_factory, imagefile, monkeypatch, sample_image, tmp_path',
      ">       use 'pytest --fixtures [testpath]' for help on them.",
      '',
      '/var/lib/jenkins/workspace/thumbs/tests/test_resize.py:7',
      '1 passed, 1 error in 0.31s',
      ...END,
    ]);
    expect(fix).toMatch(/the nearest are `image_factory`, `sample_image` \[L\d+-L\d+\]/);
    expect(fix).not.toContain('`imagefile`');
  });

  it('a full disk: the path of the write that failed, in lower-case words too', async () => {
    const fix = await fixOf([...FREESTYLE, '+ go build -o /srv/artifacts/thumbs .', 'go build thumbs: copying /tmp/go-build1/b001/exe/a.out to /srv/artifacts/thumbs: write /srv/artifacts/thumbs: no space left on device', ...END]);
    expect(fix).toContain('The write that failed was to `/srv/artifacts/thumbs`');
  });

  it('the workspace: the header that declares a C function used undeclared, the declaration a call does not match, the variable behind a default path', async () => {
    const c = await fixOf(
      [...FREESTYLE, '+ make', 'cc -std=c11 -Wall -Werror=implicit-function-declaration -c -o src/thumb.o src/thumb.c', 'src/thumb.c:6:12: error: implicit declaration of function ‘scale_dims’ [-Werror=implicit-function-declaration]', '    6 |     return scale_dims(w, h, 128);', '      |            ^~~~~~~~~~', 'make: *** [<builtin>: src/thumb.o] Error 1', ...END],
      { 'src/thumb.c': '#include <stdio.h>\n\nint thumb_size(int w, int h)\n{\n    /* the longest side is 128 */\n    return scale_dims(w, h, 128);\n}\n', 'src/geometry.h': '#ifndef GEOMETRY_H\n#define GEOMETRY_H\nint scale_dims(int w, int h, int max);\n#endif\n', 'src/geometry.c': '#include "geometry.h"\nint scale_dims(int w, int h, int max) { return w > h ? max : max * w / h; }\n', Makefile: 'thumb: src/thumb.o src/geometry.o\n' },
    );
    expect(c).toContain('`#include "geometry.h"`');
    const ts = await fixOf(
      ['2026-11-20T10:00:00.0000000Z ##[group]Run npx tsc -p .', '2026-11-20T10:00:00.1000000Z ##[endgroup]', '2026-11-20T10:00:01.0000000Z src/card.ts(4,10): error TS2554: Expected 3 arguments, but got 2.', '2026-11-20T10:00:01.1000000Z ##[error]Process completed with exit code 2.'],
      { 'src/card.ts': "import { thumbUrl } from './urls';\n\nexport function card(id: string): string {\n  return thumbUrl(id, 128);\n}\n", 'src/urls.ts': 'export function thumbUrl(id: string, size: number, format: string): string {\n  return `/t/${id}/${size}.${format}`;\n}\n', 'tsconfig.json': '{}\n' },
    );
    expect(ts).toContain('declares `thumbUrl` with the parameters `(id: string, size: number, format: string)`');
    const env = await fixOf(
      [...FREESTYLE, '+ python3 tools/publish.py', 'Traceback (most recent call last):', '  File "/var/lib/jenkins/workspace/thumbs/tools/publish.py", line 6, in <module>', '    with open(os.path.join(out, "index.json"), "w") as fh:', "PermissionError: [Errno 13] Permission denied: '/srv/thumbs/public/index.json'", ...END],
      { 'tools/publish.py': 'import json\nimport os\n\nout = os.environ.get("PUBLISH_DIR", "/srv/thumbs/public")\nos.makedirs(out, exist_ok=True)\nwith open(os.path.join(out, "index.json"), "w") as fh:\n    json.dump({}, fh)\n' },
    );
    expect(env).toContain('as the value used when `PUBLISH_DIR` is not set');
  });
  it('C: a definition of another type than the header declares names both places and both types; clang too; another error does not', async () => {
    const gcc = await fixOf([...FREESTYLE, '+ make', 'cc -Wall -c -o src/queue.o src/queue.c',
      "src/queue.c:21:6: error: conflicting types for ‘queue_put’; have ‘void(struct queue *, long int)’",
      '   21 | void queue_put(struct queue *q, long item)', '      |      ^~~~~~~~~', 'In file included from src/queue.c:2:',
      "src/queue.h:9:6: note: previous declaration of ‘queue_put’ with type ‘void(struct queue *, int)’",
      '    9 | void queue_put(struct queue *q, int item);', "make: *** [<builtin>: src/queue.o] Error 1", ...END]);
    expect(gcc).toContain('`queue_put` is defined [L7-L7] with another type than `src/queue.h:9` [L11-L11] declares');
    expect(gcc).toContain('(`void(struct queue *, long int)` here, `void(struct queue *, int)` there)');
    expect(gcc).toContain('the log does not say which');
    const clang = await fixOf([...FREESTYLE, '+ make', "src/queue.c:21:6: error: conflicting types for 'queue_put'", 'void queue_put(struct queue *q, long item)', '     ^',
      "src/queue.h:9:6: note: previous declaration is here", 'void queue_put(struct queue *q, int item);', '1 error generated.', ...END]);
    expect(clang).toContain('`queue_put` is defined [L6-L6] with another type than `src/queue.h:9` [L9-L9] declares.');
    const other = await fixOf([...FREESTYLE, '+ make', "src/queue.c:21:6: error: implicit declaration of function ‘queue_grow’", "make: *** [<builtin>: src/queue.o] Error 1", ...END]);
    expect(other).not.toContain('with another type than');
  });
});
