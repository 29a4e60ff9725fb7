import { osConditionOf, osFixLine, osUnsure } from './osCondition.js';
import { addressPorts } from './osWords.js';

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

describe('an address and its port (osWords.ts addressPorts, the one pattern the answers read)', () => {
  it('a bracketed IPv6 after a space, IPv4 and localhost; never the end of a longer name', () => {
    expect(addressPorts('connect ECONNREFUSED [::1]:8080')).toEqual([{ host: '[::1]', port: '8080', text: '[::1]:8080' }]);
    expect(osConditionOf('Error: connect ECONNREFUSED [::1]:8080')).toEqual({ kind: 'refused', what: '[::1]:8080' });
    expect(addressPorts('from 127.0.0.1:5432 to (localhost:6379)').map((a) => a.text)).toEqual(['127.0.0.1:5432', 'localhost:6379']);
    expect(addressPorts('Failed to connect to mylocalhost:80: Connection refused')).toEqual([]);
    expect(addressPorts('Failed to connect to mylocalhost:80', { names: true })).toEqual([]);
    expect(addressPorts('x.127.0.0.1:80 and 10.0.0.1:80')).toEqual([{ host: '10.0.0.1', port: '80', text: '10.0.0.1:80' }]);
  });

  it('with names, a dotted host name too (a source position is the caller\'s to skip)', () => {
    expect(addressPorts('Connection refused: registry.example.com:443', { names: true }).map((a) => a.host)).toEqual(['registry.example.com']);
    expect(addressPorts('Connection refused: registry.example.com:443')).toEqual([]);
  });
});
