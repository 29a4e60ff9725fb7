import type { Finding } from '../../../protocol/types.js';
import { environmentNeedOf } from './blame.js';
import { osConditionOf, osFixLine, osUnsure } from './osCondition.js';
import { CLASS_REMEDIES } from './remedyClass.js';
import { remedyInput } from './remedyShape.js';

describe('osCondition near misses (adv)', () => {
  it('a read-only file system is the mount; a read-only database or file is not', () => {
    expect(osConditionOf("OSError: [Errno 30] Read-only file system: '/mnt/cache/pip'")).toEqual({ kind: 'read-only', what: '/mnt/cache/pip', mount: true });
    expect(osConditionOf('sqlite3.OperationalError: attempt to write a readonly database')?.mount).toBeUndefined();
  });

  it('the hedge for a read-only mount offers no chown; for a path in a system directory neither', () => {
    const mount = osConditionOf("touch: cannot touch '/srv/data/x': Read-only file system") as NonNullable<ReturnType<typeof osConditionOf>>;
    expect(osUnsure(mount, 'jenkins')?.text).not.toContain('chown');
    expect(osFixLine(mount)).toContain('mounted read-only');
    const etc = osConditionOf("PermissionError: [Errno 13] Permission denied: '/etc/myapp/config.json'") as NonNullable<ReturnType<typeof osConditionOf>>;
    expect(osUnsure(etc, 'jenkins')?.text).not.toContain('chown');
    expect(osUnsure(etc, 'jenkins')?.text).toContain('`/etc/myapp`');
    const own = osConditionOf("PermissionError: [Errno 13] Permission denied: '/srv/build/out.txt'") as NonNullable<ReturnType<typeof osConditionOf>>;
    expect(osUnsure(own, 'jenkins')?.text).toContain('`chown -R jenkins /srv/build`');
  });

  it("says which side is wrong (its `sides`, so the source's Fix line does not ask again) for a missing path only", () => {
    const missing = osConditionOf("FileNotFoundError: [Errno 2] No such file or directory: 'fixtures/users.json'") as NonNullable<ReturnType<typeof osConditionOf>>;
    expect(osUnsure(missing, 'jenkins')).toEqual({ text: expect.stringContaining('which side is wrong') as unknown as string, sides: true });
    const own = osConditionOf("PermissionError: [Errno 13] Permission denied: '/srv/build/out.txt'") as NonNullable<ReturnType<typeof osConditionOf>>;
    expect(osUnsure(own, 'jenkins')?.sides).toBe(false);
  });
});

describe('a refused connection names its address (core/log/values.ts addressPorts)', () => {
  it('a bracketed IPv6 after a space', () => {
    expect(osConditionOf('Error: connect ECONNREFUSED [::1]:8080')).toEqual({ kind: 'refused', what: '[::1]:8080' });
  });
});

describe("the OS table's words in the other answers (core/finding/errno.ts osKindWords)", () => {
  it('"infrastructure or code?": a file or a permission the program needed is the table\'s condition, not a word inside a name', () => {
    // The table's spellings: .NET's refusal, Rust's NotFound, Python's [Errno 13].
    expect(environmentNeedOf("Unhandled exception. System.UnauthorizedAccessException: Access to the path '/srv/out/report.txt' is denied.")).toBe('a permission');
    expect(environmentNeedOf('thread \'main\' panicked at src/main.rs:9:41: Os { code: 2, kind: NotFound, message: "No such file" }')).toBe('a file or directory');
    expect(environmentNeedOf('called `Result::unwrap()` on an `Err` value: Custom { kind: NotFound, error: "config.toml" }')).toBe('a file or directory');
    // Surefire's short names and a cloud API's refusal stay.
    expect(environmentNeedOf('ExporterTest.writesTheMonthFile:18 » NoSuchFile /tmp/junit1/exports/2026/payroll.csv')).toBe('a file or directory');
    expect(environmentNeedOf('botocore.exceptions.ClientError: An error occurred (AccessDenied) when calling the PutObject operation: Access Denied')).toBe('a permission');
    // `eAccess` inside a class name and `filenotfound` inside a path are no condition.
    expect(environmentNeedOf('java.lang.IllegalStateException: Timeout waiting to lock file hash cache (org.gradle.cache.internal.DefaultCacheAccess@1d7f7be7)')).toBeUndefined();
    expect(environmentNeedOf('AssertionError: /tmp/ws/junit5-tempdir-nosuchfile-long/out.txt differs')).toBeUndefined();
  });

  it('"infrastructure or code?": a connection is an error symbol as a word, not `ENOTFOUND` inside a path or a name', () => {
    expect(environmentNeedOf('Error: getaddrinfo ENOTFOUND registry.internal.example')).toBe('a connection');
    expect(environmentNeedOf("FetchError: request to https://registry.example/x failed, reason: connect ECONNREFUSED 10.0.0.7:443")).toBe('a connection');
    expect(environmentNeedOf("Error: Request failed: { code: 'ENOTFOUND', hostname: 'db' }")).toBe('a connection');
    expect(environmentNeedOf('AssertionError: /tmp/ws/pytest-filenotfound-cwd/out.txt differs')).toBeUndefined();
    expect(environmentNeedOf('TypeError: cannot read properties of undefined (reading x) at /srv/app/cache/enotfound.json')).toBeUndefined();
    expect(environmentNeedOf('AssertionError: expected C:\\ws\\FileNotFoundHandlerTest to pass')).toBeUndefined();
    // A module or a program not found is no connection (the old row read `ENOTFOUND` inside their names).
    expect(environmentNeedOf("ModuleNotFoundError: No module named 'yaml'")).toBe('a module');
    expect(environmentNeedOf("graphviz.backend.execute.ExecutableNotFound: failed to execute PosixPath('dot'), make sure the Graphviz executables are on your systems' PATH")).toBe('an executable');
  });

  it('the fix for a path refused reads the permission words of the table and a read-only mount, not a read-only database', () => {
    const step = (message: string): string => {
      const f: Finding = { class: 'permission-credentials', message, message_line: 3, confidence: 'high', evidence: [3] };
      return CLASS_REMEDIES[0]!.steps(remedyInput(f, undefined))[0]?.text ?? '';
    };
    // git's refusal of its object store (the table's `insufficient permission`); a credential's words still go elsewhere.
    expect(step('error: insufficient permission for adding an object to repository database /var/lib/jenkins/ws/.git/objects')).toContain('The user the step runs as may not write or open `/var/lib/jenkins/ws/.git/objects`');
    expect(step("System.UnauthorizedAccessException: Access to the path '/srv/out/report.txt' is denied.")).not.toContain('may not write or open');
    expect(step("touch: cannot touch '/srv/data/x': Read-only file system")).toContain('mounted read-only');
    expect(step('sqlite3.OperationalError: attempt to write a readonly database')).not.toContain('may not write or open');
  });
});
