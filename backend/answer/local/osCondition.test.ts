import { osConditionOf, osFixLine, osUnsure } from './osCondition.js';

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
