/**
 * A class's general step says only what the failure's kind supports (helper au's audit of the
 * offline answers, docs/notes/answer.md): a resolver's "check the name and version" is not said
 * of a version conflict, a stale lock file, a checksum mismatch, a missing local path or a
 * specifier the tool does not understand; a refused path is not a credential; and any such step
 * yields to a step from the tool's own wording.
 */
import type { Finding } from '../../../protocol/types.js';
import { chooseRemedies, remedyInput, type RemedyRule } from './remedyShape.js';
import { fixRemedies } from './remedies.js';

const finding = (over: Partial<Finding>): Finding => ({ class: 'unknown', message: 'x', message_line: 1, confidence: 'high', evidence: [1], ...over });
const stepsOf = (f: Partial<Finding>): string => fixRemedies(finding(f), undefined).steps.map((s) => s.text).join('\n');

describe('chooseRemedies: a general step yields to the tool\'s wording', () => {
  it('drops a yieldsToWording step when another rule gives a wording step, keeps it otherwise', () => {
    const general: RemedyRule = { id: 'class', specificity: 'class', steps: () => [{ text: 'G', lines: [], yieldsToWording: true }, { text: 'C', lines: [] }] };
    const worded: RemedyRule = { id: 'w', specificity: 'wording', steps: () => [{ text: 'W', lines: [] }] };
    const fact: RemedyRule = { id: 'f', specificity: 'fact', steps: () => [{ text: 'F', lines: [] }] };
    const i = remedyInput(finding({}), undefined);
    expect(chooseRemedies([general, worded], i).map((s) => s.text)).toEqual(['W', 'C']);
    expect(chooseRemedies([general, fact], i).map((s) => s.text)).toEqual(['G', 'C', 'F']);
  });
});

describe('dependency resolution: the kind the resolver states', () => {
  const dep = (tool: string, message: string, dependency?: string): string => stepsOf({ class: 'dependency-resolution', tool, message, ...(dependency ? { dependency } : {}) });
  it('a version conflict is not a missing release', () => {
    const text = dep('pip', 'ERROR: Cannot install -r requirements.txt (line 2) because these package versions have conflicting dependencies.');
    expect(text).toContain('cannot be installed together');
    expect(text).not.toContain('No release of');
  });
  it('a lock file the command may not update: regenerate it with the tool and commit it', () => {
    const text = dep('cargo', 'error: cannot update the lock file /ws/Cargo.lock because --locked was passed to prevent this');
    expect(text).toContain('`cargo update --workspace`');
    expect(text).not.toContain('cargo search');
  });
  it('a checksum mismatch names the module and says the content changed, not that it does not exist', () => {
    const text = dep('go', 'verifying example.com/units@v1.1.0: checksum mismatch');
    expect(text).toContain('`example.com/units@v1.1.0`');
    expect(dep('cargo', 'error: checksum for `hexfmt v0.2.0` changed between lock files')).toContain('differs from the checksum the project recorded');
    expect(text).not.toMatch(/go get|exists/);
  });
  it('a local path dependency that is not there is not a registry lookup', () => {
    expect(dep('npm', "npm error enoent Could not read package.json: Error: ENOENT: no such file or directory, open '/ws/packages/money/package.json'", 'money')).toContain('from a local path, `/ws/packages/money/package.json`');
    expect(dep('maven', 'Could not find artifact com.legacy:legacy-crypto:jar:1.2 at specified path /ws/lib/legacy-crypto-1.2.jar', 'com.legacy:legacy-crypto:jar:1.2')).not.toContain('settings.xml');
  });
  it('a specifier the tool does not understand gets no `npm view` of it', () => {
    const text = dep('npm', 'npm error Unsupported URL Type "workspace:": workspace:*');
    expect(text).toContain('does not understand the version specifier `workspace:*`');
    expect(text).not.toContain('npm view');
  });
  it('a wording step replaces the general one (go vendoring)', () => {
    const text = fixRemedies(finding({ class: 'dependency-resolution', tool: 'go', message: 'go: inconsistent vendoring in /ws:' }), { start_line: 1, end_line: 3, text: 'go: inconsistent vendoring in /ws:\n\texample.com/x@v1.2.0: is explicitly required in go.mod, but vendor/modules.txt indicates example.com/x@v1.1.0\n\tTo ignore the vendor directory, use -mod=readonly or -mod=mod.\n\tTo sync the vendor directory, run:\n\t\tgo mod vendor' }).steps.map((s) => s.text).join('\n');
    expect(text).not.toContain('go get');
  });
});

describe('a refused permission: what refused it', () => {
  const refused = (message: string, host?: string): string => stepsOf({ class: 'permission-credentials', message, ...(host ? { host } : {}) });
  it('a path of the file system: the path right before the refusal, its directory, the step\'s user; no credentials', () => {
    const text = refused('go install x: copying /tmp/go-build1/b001/exe/a.out: open /opt/tools/bin/relnotes: permission denied');
    expect(text).toContain('`/opt/tools/bin/relnotes`');
    expect(text).toContain("(`ls -ld /opt/tools/bin`)");
    expect(text).not.toMatch(/credential|expired/);
    expect(refused('/usr/bin/ld: cannot open output file /opt/b/bin/hexdiff: Permission denied')).toContain('`/opt/b/bin/hexdiff`');
    expect(refused('Exception in thread "main" java.nio.file.AccessDeniedException: /var/lib/reports/covsum')).toContain('`/var/lib/reports/covsum`');
  });
  it('running a file: its executable bit', () => {
    expect(refused('bash: ./deploy.sh: Permission denied')).toContain('`git update-index --chmod=+x deploy.sh`');
  });
  it('a server that refused a credential keeps the credentials step', () => {
    expect(refused('urllib.error.HTTPError: HTTP Error 401: Unauthorized')).toContain('present, still valid, and with access');
  });
  it("ssh's key file that others may read: its mode, not an expired credential", () => {
    const text = refused("Permissions 0644 for 'deploy/id_ed25519' are too open.");
    expect(text).toContain('`chmod 600 deploy/id_ed25519`');
    expect(text).not.toMatch(/expired/);
  });
});

describe('a link error of a known library symbol', () => {
  it('says which library to link, not that the function may have been renamed', () => {
    const text = stepsOf({ class: 'link-error', tool: 'ld', symbol: 'sqrt', message: "buildtimes.c:(.text.startup+0x88): undefined reference to `sqrt'" });
    expect(text).toContain('-lm');
    expect(text).not.toContain('renamed or removed');
  });
});

describe('a known library symbol: where its link line is', () => {
  const log = (lines: string[]) => ({ start_line: 1, end_line: lines.length, text: lines.join('\n') });
  it("names the Makefile rule or the CMake target that make's own line under the error names", () => {
    const byMake = fixRemedies(finding({ class: 'link-error', tool: 'ld', symbol: 'sqrt', message: "buildtimes.c:(.text+0x88): undefined reference to `sqrt'" }), log(["buildtimes.c:(.text+0x88): undefined reference to `sqrt'", 'collect2: error: ld returned 1 exit status', 'make: *** [Makefile:5: buildtimes] Error 1']));
    expect(byMake.steps.map((s) => s.text).join('\n')).toContain('the rule for `buildtimes` at `Makefile:5` [L3-L3]');
    const byCmake = fixRemedies(finding({ class: 'link-error', tool: 'ld', symbol: 'crc32', message: "codec.c:(.text+0x3c): undefined reference to `crc32'" }), log(["codec.c:(.text+0x3c): undefined reference to `crc32'", 'collect2: error: ld returned 1 exit status', 'gmake[2]: *** [CMakeFiles/pkgcodec.dir/build.make:97: libpkgcodec.so] Error 1']));
    expect(byCmake.steps.map((s) => s.text).join('\n')).toContain('`target_link_libraries(pkgcodec PRIVATE ZLIB::ZLIB)`');
  });
});

describe("an exception's place step says only what the exception supports", () => {
  const raise = { file: 'java/lang/Enum.java', line: 273, function: 'java.lang.Enum.valueOf', log_line: 3 };
  const project = { file: 'com/acme/Parser.java', line: 19, function: 'com.acme.Parser.status', log_line: 5 };
  const exc = (exception: string, message: string, frames = { raise, project }): string =>
    stepsOf({ class: 'runtime-exception', exception, message, location: { file: frames.project.file, line: frames.project.line, log_line: frames.project.log_line, frames } });
  it('a class that did not load: the classpath, not the values of the line', () => {
    const text = exc('NoClassDefFoundError', 'Exception in thread "main" java.lang.NoClassDefFoundError: dev/notes/common/Slugs');
    expect(text).toContain('first needed code it could not load');
    expect(text).not.toContain('with the values it gets');
  });
  it('a message that is the type alone is not said to describe anything', () => {
    const text = exc('ConcurrentModificationException', 'Exception in thread "main" java.util.ConcurrentModificationException');
    expect(text).toContain("gives nothing beyond the exception's type");
    expect(text).not.toContain('as the message');
  });
  it("a library method's check is not called the project's own", () => {
    const text = exc('IllegalArgumentException', 'java.lang.IllegalArgumentException: No enum constant com.acme.Status.shipped');
    expect(text).toContain('`java.lang.Enum.valueOf`, a library method, rejected what the project\'s call at `com/acme/Parser.java:19` passed it');
    expect(text).not.toContain('threw it on purpose');
    const own = exc('IllegalArgumentException', 'java.lang.IllegalArgumentException: amount < 0', { raise: project, project });
    expect(own).toContain('threw it on purpose');
  });
});

describe('memory outside the heap and a read before initialization', () => {
  it('direct buffer memory and native threads get no -Xmx step', () => {
    for (const message of ['java.lang.OutOfMemoryError: Direct buffer memory', 'java.lang.OutOfMemoryError: Cannot reserve 100663296 bytes of direct buffer memory (allocated: 0, limit: 67108864)', 'java.lang.OutOfMemoryError: unable to create native thread: possibly out of memory or process/resource limits reached']) {
      const text = stepsOf({ class: 'out-of-memory', exception: 'OutOfMemoryError', message });
      expect(text).not.toContain('-Xmx');
      expect(text).toMatch(/MaxDirectMemorySize|threads/);
    }
  });
  it("a `const` read before its declaration is the declarations' order, not the line's values", () => {
    expect(stepsOf({ class: 'test-error', exception: 'ReferenceError', message: "ReferenceError: Cannot access 'DEFAULTS' before initialization" })).toContain('temporal dead zone');
  });
});

describe('a test error in teardown, and what a JVM test waits on', () => {
  it("pytest's teardown heading: the body ran, the cleanup failed (not 'did not get as far as checking')", () => {
    const lines = ['___ ERROR at teardown of test_rotate ___', '', '    def log_file(tmp_path):', '>       os.remove(path)', "E       FileNotFoundError: [Errno 2] No such file or directory: '/tmp/x/app.log'"];
    const f = finding({ class: 'test-error', tool: 'pytest', exception: 'FileNotFoundError', message: lines[4]?.slice(8) as string, message_line: 5, test: { name: 'tests/test_rotate.py::test_rotate', log_line: 1 } });
    const text = fixRemedies(f, undefined, (n) => lines[n - 1]).steps.map((s) => s.text).join('\n');
    expect(text).toContain("The error came in the test's teardown [L1-L1]");
    expect(text).not.toContain('did not get as far');
  });
  it('a timed-out test named like a JVM class waits on JVM things, whatever the step printed', () => {
    const text = stepsOf({ class: 'timeout-aborted', message: 'ERROR: script returned exit code 124', test: { name: 'dev.acme.jobs.WorkerPoolTest', log_line: 1 } });
    expect(text).toContain('latch');
    expect(text).not.toContain('promise');
  });
});
