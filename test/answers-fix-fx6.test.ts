/**
 * "How do I fix it?" for an error that is the operating system's answer (helper fx6,
 * backend/answer/local/osCondition.ts): a path refused, a read-only database, no such file, a
 * connection refused, raised in a program or a test. The remedy addresses the environment (the
 * path's owner, the user the step runs as, the working directory, the service), never "change what
 * that line does with the values it gets", and says it cannot tell which side to change. Made-up logs
 * (none of the realfail cases); every citation checked.
 */
import { osConditionOf, userOfLine } from '../backend/answer/local/osCondition.js';
import { fixOfShellLog } from './helpers/shellLogFix.js';

const fixOf = (lines: string[]): Promise<string> => fixOfShellLog(lines, 'ledger', '/tmp/jenkins4.sh');

describe('an OS condition raised in a program', () => {
  it('a read-only database written by a step run as another user: the environment, the user, both sides', async () => {
    const text = await fixOf([
      '+ setpriv --reuid nobody --regid nogroup --clear-groups python3 tools/record.py',
      'Traceback (most recent call last):',
      '  File "/var/ci/ws/ledger/tools/record.py", line 14, in <module>',
      '    main()',
      '  File "/var/ci/ws/ledger/tools/record.py", line 10, in main',
      '    db.execute("INSERT INTO runs VALUES (?)", (stamp,))',
      'sqlite3.OperationalError: attempt to write a readonly database',
    ]);
    expect(text).not.toContain('values it gets');
    // The class is permission-credentials since round 19's tuning (f825ad53): the refusal's own remedy, not the exception's line.
    expect(text).toContain('SQLite found the database read-only');
    expect(text).toContain('The step ran as `nobody` [L3-L3]');
    expect(text).toContain("I can't tell from the log which side to change");
    expect(text).toContain('If the step should run as `nobody`');
  });

  it('a relative path a test opened: the working directory, and the language\'s way to anchor it', async () => {
    const text = await fixOf([
      '+ python3 -m pytest -q tests',
      '==================================== ERRORS ====================================',
      '___________________ ERROR at setup of test_rates_load ___________________',
      '    @pytest.fixture',
      '    def rates():',
      '>       with open("data/rates.csv", encoding="utf-8") as fh:',
      "E       FileNotFoundError: [Errno 2] No such file or directory: 'data/rates.csv'",
      '',
      'tests/conftest.py:6: FileNotFoundError',
      '=========================== short test summary info ============================',
      "ERROR tests/test_rates.py::test_rates_load - FileNotFoundError: [Errno 2] No such file or directory: 'data/rates.csv'",
      '1 error in 0.05s',
    ]);
    expect(text).not.toContain('values it gets');
    expect(text).toContain('`data/rates.csv` is a relative path');
    expect(text).toContain('Path(__file__).parent');
    expect(text).toContain("I can't tell from the log which side is wrong");
  });

  it('a file the program could not create: its directory is missing', async () => {
    const text = await fixOf([
      '+ ./build/report --out /var/ci/ws/ledger/out/daily/report.txt',
      'report: cannot create /var/ci/ws/ledger/out/daily/report.txt: No such file or directory',
      'Traceback (most recent call last):',
      '  File "/var/ci/ws/ledger/tools/report.py", line 3, in <module>',
      "FileNotFoundError: [Errno 2] No such file or directory: 'x'",
    ]);
    // Whatever the finding, no remedy tells to change the line's values for an OS answer.
    expect(text).not.toContain('values it gets');
  });
});

describe('the environment of a refusal', () => {
  it('a file the program ran from a temporary directory: its executable bit or a noexec mount', async () => {
    const text = await fixOf([
      '+ python3 tools/hooks.py',
      'Traceback (most recent call last):',
      '  File "/srv/ci/ws/ledger/tools/hooks.py", line 9, in <module>',
      '    subprocess.run([str(hook)], check=True)',
      '  File "/usr/lib/python3.12/subprocess.py", line 1955, in _execute_child',
      '    raise child_exception_type(errno_num, err_msg, err_filename)',
      "PermissionError: [Errno 13] Permission denied: '/tmp/ci-tmp/tmpab12/hook.sh'",
    ]);
    expect(text).toContain('The program tried to run `/tmp/ci-tmp/tmpab12/hook.sh` and was refused');
    expect(text).toContain('`noexec`');
  });

  it('a test refused a system path: its own temporary directory, and no chown of a system directory', async () => {
    const text = await fixOf([
      '+ setpriv --reuid=nobody --regid=nogroup go test ./server',
      '=== RUN   TestServe',
      '    serve_test.go:21: listen unix /run/ledgerd/ledgerd.sock: bind: permission denied',
      '--- FAIL: TestServe (0.00s)',
      'FAIL',
    ]);
    expect(text).toContain('`t.TempDir()`');
    expect(text).not.toContain('chown -R nobody /run');
  });

  it("a credential refusal relays the server's reason and never says the address is wrong", async () => {
    const text = await fixOf([
      '+ export API=http://127.0.0.1:48111',
      '+ ./bin/publish',
      '2026/11/29 10:00:00 publish: POST http://127.0.0.1:48111/v1/items: 401 Unauthorized: {"error":"invalid or missing bearer token"}',
    ]);
    expect(text).toContain("The server's reason: `invalid or missing bearer token`");
    expect(text).toContain('`Authorization: Bearer <token>`');
    expect(text).not.toMatch(/expired/);
  });

  it("Go's go.mod missing in a directory a go.work names", async () => {
    const text = await fixOf(['+ go build ./...', 'go: open /srv/ci/ws/ledger/tools/seed/go.mod: no such file or directory']);
    expect(text).toContain('a `use` line of `go.work`');
  });
});

describe('osConditionOf', () => {
  it('reads the condition and its path; a credential or a database grant is not one', () => {
    expect(osConditionOf('open() "/var/log/nginx/a.log" failed (13: Permission denied)')).toEqual({ kind: 'permission', what: '/var/log/nginx/a.log' });
    expect(osConditionOf("OSError: [Errno 30] Read-only file system: '/srv/out/a.txt'")).toEqual({ kind: 'read-only', what: '/srv/out/a.txt', mount: true });
    expect(osConditionOf('sqlite3.OperationalError: attempt to write a readonly database')).toEqual({ kind: 'read-only' });
    expect(osConditionOf('setup: open testdata/seed.sql: no such file or directory')).toEqual({ kind: 'missing-path', what: 'testdata/seed.sql' });
    expect(osConditionOf('Error: connect ECONNREFUSED 127.0.0.1:6432')).toEqual({ kind: 'refused', what: '127.0.0.1:6432' });
    expect(osConditionOf('OSError: [Errno 28] No space left on device')).toEqual({ kind: 'no-space' });
    // A docker socket's URL is not a path to chown.
    expect(osConditionOf('permission denied while trying to connect to the Docker daemon socket at unix:///run/docker.sock: Head "http://%2Frun%2Fdocker.sock/_ping"')).toEqual({ kind: 'permission' });
    expect(osConditionOf('ERROR:  permission denied for schema public')).toBeUndefined();
    expect(osConditionOf('remote: HTTP Basic: Access denied. 403 Forbidden, Permission denied')).toBeUndefined();
  });

  it('reads the user a command runs as', () => {
    expect(userOfLine('+ setpriv --reuid nobody --regid nogroup python3 x.py')).toBe('nobody');
    expect(userOfLine('+ setpriv --reuid=builder --regid=builder make')).toBe('builder');
    expect(userOfLine('+ sudo -n -u deploy ./ship.sh')).toBe('deploy');
    expect(userOfLine('+ runuser -u app -- node server.js')).toBe('app');
    expect(userOfLine('+ su app -c ./run.sh')).toBe('app');
    expect(userOfLine('+ docker run --rm --user 1000 img make')).toBe('1000');
    expect(userOfLine('uid=65534(nobody) gid=65534(nogroup) groups=65534(nogroup)')).toBe('nobody');
    expect(userOfLine('Running as SYSTEM')).toBeUndefined();
  });
});
