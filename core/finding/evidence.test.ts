import { setGenericOnly } from './ablation.js';
import { roleOf } from './evidence.js';
import { findingOf } from './index.js';
import { commandOf } from './generic.js';
import { topFinding as top } from '../../test/helpers/findingCases.js';

/** General evidence (evidence.ts, words.ts) and the ablation switch (ablation.ts), on tools no rule names. */

describe('general evidence for tools no rule names (round 6 preparation)', () => {
  afterEach(() => setGenericOnly(false));

  it('the ablation switch leaves out the family rules, and only the family rules', () => {
    const javac = '+ javac -d out src/A.java\nsrc/A.java:6: error: cannot find symbol\nexit 1';
    expect(top(javac)).toMatchObject({ class: 'compile-error', tool: 'javac' });
    setGenericOnly(true);
    // Without javac's rule the finding comes from the command's role and the report's shape.
    expect(top(javac)).toMatchObject({ class: 'compile-error', location: { file: 'src/A.java', line: 6 } });
    expect(top(javac).confidence).toBe('medium');
    // The words any tool uses stay on.
    expect(top('+ ./pack.sh\nwrite failed: No space left on device\nexit 1').class).toBe('disk-full');
  });

  it('the message words settle infrastructure classes whatever printed them', () => {
    setGenericOnly(true);
    expect(top('+ qfetch pull\nqfetch: dial tcp 10.0.0.5:443: connect: connection refused\nexit 1').class).toBe('network');
    expect(top('+ ./deploy\nupload: server said 401 Unauthorized\nexit 1').class).toBe('permission-credentials');
    expect(top('+ frob run\nfrob: memory allocation of 81920000 bytes failed\nexit 134').class).toBe('out-of-memory');
    expect(top('+ ./ci.sh\n./ci.sh: line 4: zork: command not found\nexit 127').class).toBe('missing-tool');
    expect(top('+ zpm install\nzpm: package "left-pad" not found in registry\nexit 1').class).toBe('dependency-resolution');
    expect(top('+ ./ci.sh\n./ci.sh: line 3: TARGET: unbound variable\nexit 1').class).toBe('ci-script');
    expect(top('+ ./bench\nrun 3: timed out after 600 s\nexit 1').class).toBe('timeout-aborted');
    // The cause over the exception it raised.
    expect(top('+ python3 gen.py\nTraceback (most recent call last):\n  File "gen.py", line 3, in <module>\nOSError: [Errno 28] No space left on device\nexit 1').class).toBe('disk-full');
  });

  it('reads the role of a command from its invocation', () => {
    expect(roleOf(commandOf('zcc -O2 -o app src/app.zz src/main.c'))).toBe('compile');
    expect(roleOf(commandOf('quux test ./...'))).toBe('test');
    expect(roleOf(commandOf('./run tests/smoke'))).toBe('test');
    expect(roleOf(commandOf('sqlfmt --check migrations/'))).toBe('lint');
    expect(roleOf(commandOf('zlint src/'))).toBe('lint');
    expect(roleOf(commandOf('./tools/check-docs'))).toBeUndefined();
    expect(roleOf(commandOf('./deploy.sh prod'))).toBeUndefined();
  });

  it('a report under a compiling command is a compile error at its place; under a checking command lint, warnings too', () => {
    setGenericOnly(true);
    // make echoes the recipe without `+ `.
    expect(top('+ make all\nzcc -O2 -o app src/app.zz\nsrc/app.zz:12:4: error: unknown name `frob`\nmake: *** [Makefile:3: app] Error 1')).toMatchObject({ class: 'compile-error', location: { file: 'src/app.zz', line: 12 } });
    expect(top('+ sqllint --strict db/\ndb/001_init.sql:7:3: warning: implicit column list\nexit 1')).toMatchObject({ class: 'lint', location: { file: 'db/001_init.sql', line: 7 } });
  });

  it("a linter's stylish report is lint at its first error, under its file heading", () => {
    setGenericOnly(true);
    const log = ['+ npx somelint .', '', 'src/a.css', '  3:1   warning  Unexpected empty line  no-empty-first', '  9:14  error    Unexpected unit "pz"  unit-no-unknown', '', '✖ 2 problems (1 error, 1 warning)', 'exit 1'].join('\n');
    expect(top(log)).toMatchObject({ class: 'lint', message: 'Unexpected unit "pz"', location: { file: 'src/a.css', line: 9, column: 14 } });
  });

  it("a formatter's verdict or its diff under a checking command is lint", () => {
    setGenericOnly(true);
    expect(top('+ zfmt --check src\nsrc/x.z would be reformatted\nexit 1').class).toBe('lint');
    const diff = ['+ zfmt --diff src/x.z', '--- src/x.z', '+++ src/x.z', '@@ -3,4 +3,4 @@', ' a', ' b', '-c  =  1', '+c = 1', 'exit 1'].join('\n');
    expect(top(diff)).toMatchObject({ class: 'lint', location: { file: 'src/x.z', line: 5 } });
  });

  it("a test's failure at its place with the check's words is a test assertion there", () => {
    setGenericOnly(true);
    const log = ['+ zunit run', "Failure ('tests/test-sum.z:6'): sums", 'sum(1, 2) not equal to 4', 'exit 1'].join('\n');
    expect(top(log)).toMatchObject({ class: 'test-assertion', location: { file: 'tests/test-sum.z', line: 6 } });
  });

  it("the linker's words, an exception while testing, a build file's own error", () => {
    setGenericOnly(true);
    expect(top('+ make\nzld: main.o: undefined reference to `frob_init\'\nmake: *** [Makefile:4: app] Error 1').class).toBe('link-error');
    // An exception raised while a test command ran is the tests' error.
    expect(top('+ zunit tests/\nUncaught ValueError: bad state\n    at step (src/machine.js:9:3)\nexit 1').class).toBe('test-error');
    expect(top('+ node src/machine.js\nUncaught ValueError: bad state\n    at step (src/machine.js:9:3)\nexit 1').class).toBe('runtime-exception');
    // An error at a line of the build's own definition, not make's verdict on a recipe.
    expect(top('+ zbuild\nCMakeLists.txt:12: error: unknown command frob_add\nexit 1')).toMatchObject({ class: 'ci-script', location: { file: 'CMakeLists.txt', line: 12 } });
  });

  it("a formatter's diff above a verdict-only excerpt, with the diff's added lines no command", () => {
    setGenericOnly(true);
    const log = ['+ zfmt -d src/', '--- src/a.z.orig', '+++ src/a.z', '@@ -1,3 +1,3 @@', ' x', '-y  = 2', '+ y = 2', ' z', '', '', '', 'ERROR: script returned exit code 1'].join('\n');
    const lines = log.split('\n');
    expect(findingOf(lines, { start_line: lines.length, end_line: lines.length })).toMatchObject({ class: 'lint', message: '--- src/a.z.orig', location: { file: 'src/a.z', line: 2 } });
  });

  it("a dry run's state diff (Ansible's `--- before` / `+++ after`) names no file: no formatter's place", () => {
    const log = ['+ ansible-playbook --check site.yml', 'TASK [x : Ensure dir exists] ***', '--- before', '+++ after', '@@ -1,4 +1,4 @@', ' {', '-    "state": "absent"', '+    "state": "directory"', ' }', 'changed: [localhost]', 'fatal: [localhost]: FAILED! => {"changed": false, "msg": "dest \'/opt/x\' must be an existing dir"}', 'ERROR: script returned exit code 2'].join('\n');
    const lines = log.split('\n');
    const f = findingOf(lines, { start_line: 11, end_line: 12 });
    expect(f.location?.file).not.toBe('before');
    expect(f.message).not.toBe('--- before');
    // A formatter's diff under a checking command is still read (counter-example).
    const fmt = ['+ zfmt --check src', '--- src/a.z', '+++ src/a.z', '@@ -1,3 +1,3 @@', ' x', '-y  = 2', '+ y = 2', 'ERROR: script returned exit code 1'];
    expect(findingOf(fmt, { start_line: 8, end_line: 8 })).toMatchObject({ class: 'lint', location: { file: 'src/a.z', line: 2 } });
  });

  it('reads targets named for a role, and the step output above a verdict-only excerpt', () => {
    expect(roleOf(commandOf('make style-check'))).toBe('lint');
    expect(roleOf(commandOf('gradle integrationTest'))).toBe('test');
    expect(roleOf(commandOf('zsim -r alu_tb'))).toBe('test');
    expect(roleOf(commandOf('zrun --test-timeout 5 main.z'))).toBeUndefined();
    setGenericOnly(true);
    const log = ['+ zfmt --check src', 'Checking formatting...', '[warn] src/a.ts', '[warn] Code differs', '', '', 'ERROR: script returned exit code 1'];
    const found = findingOf(log, { start_line: log.length, end_line: log.length });
    expect(found).toMatchObject({ class: 'lint', message_line: 3 });
    expect(found.location).toBeUndefined();
    // A crash of a test program is still the program's crash.
    expect(top('+ ./ring_test\n==7==ERROR: AddressSanitizer: heap-use-after-free on address 0x6\n    #0 0x55 in pop src/ring.c:10\nexit 1').class).toBe('runtime-exception');
  });

  it("a check's words under a test command, and places in `prog:file:line:` and `(at file:line)` forms", () => {
    setGenericOnly(true);
    const log = ['+ zspec run', 'checking totals', 'tests/totals_spec.z:14:', '  expected 42 but got 41', '1 example, 1 failure', 'exit 1'].join('\n');
    expect(top(log)).toMatchObject({ class: 'test-assertion', location: { file: 'tests/totals_spec.z', line: 14 } });
    expect(top('+ zsql -f db/002_audit.sql\nzsql:db/002_audit.sql:6: ERROR:  permission denied for schema public\nexit 3')).toMatchObject({ class: 'permission-credentials', location: { file: 'db/002_audit.sql', line: 6 } });
    expect(top('+ zq .a.b data.json\nzq: error (at data.json:7): cannot index array\nexit 5')).toMatchObject({ location: { file: 'data.json', line: 7 } });
  });

  it("a stage's name gives the role a bare command does not; a shell's exit statuses 126 and 127", () => {
    setGenericOnly(true);
    const log = ['[Pipeline] { (Unit tests)', '[Pipeline] sh', '+ ./ci/run-all', 'tests/cart_check.z:9:', '  expected 3 but got 2', 'exit 1'].join('\n');
    expect(top(log)).toMatchObject({ class: 'test-assertion', location: { file: 'tests/cart_check.z', line: 9 } });
    expect(top('+ ./ci/deploy\nstep failed\nERROR: script returned exit code 127').class).toBe('missing-tool');
    expect(top('+ ./ci/deploy\nstep failed\nERROR: script returned exit code 126').class).toBe('permission-credentials');
    // A stage named for something else gives no role.
    expect(top('[Pipeline] { (Deploy)\n[Pipeline] sh\n+ ./ci/run-all\ntests/cart_check.z:9:\n  expected 3 but got 2\nexit 1').class).toBe('unknown');
  });

  it('claims nothing the evidence does not show', () => {
    setGenericOnly(true);
    // A checker script's report about another file: no role, no class.
    expect(top('+ ./tools/check-docs\ndocs/guide.md:14: broken link to #setup\nexit 1').class).toBe('unknown');
    // A connection's time limit is the network's, never a runner's.
    expect(top('+ ./fetch.sh\nerror: Connection timeout after 30 seconds\nexit 1').class).not.toBe('timeout-aborted');
    // An error at a place under a command with no role stays unknown.
    expect(top('+ ./deploy.sh\nconf/app.ini:3: error: bad value\nexit 1').class).toBe('unknown');
    // A warning-level place under a compiling command is no compile error.
    expect(top('+ zcc -o app src/app.zz\nsrc/app.zz:3:1: warning: unused name\nexit 1').class).toBe('unknown');
    // The word `timeout` in a flag is no time limit.
    expect(top('+ ./probe --timeout 30\nprobe failed\nexit 1').class).toBe('unknown');
  });
});
