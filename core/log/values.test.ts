import { addressOf, addressPorts, quotedPathOf, refusedOptionOf } from './values.js';

describe('an address and its port (addressPorts, the one pattern the answers and the clue search read)', () => {
  it('a bracketed IPv6 after a space, IPv4 and localhost; never the end of a longer name', () => {
    expect(addressPorts('connect ECONNREFUSED [::1]:8080')).toEqual([{ host: '[::1]', port: '8080', text: '[::1]:8080' }]);
    expect(addressPorts('from 127.0.0.1:5432 to (localhost:6379)').map((a) => a.text)).toEqual(['127.0.0.1:5432', 'localhost:6379']);
    expect(addressPorts('Failed to connect to mylocalhost:80: Connection refused')).toEqual([]);
    expect(addressPorts('Failed to connect to mylocalhost:80', { names: true })).toEqual([]);
    expect(addressPorts('x.127.0.0.1:80 and 10.0.0.1:80')).toEqual([{ host: '10.0.0.1', port: '80', text: '10.0.0.1:80' }]);
  });

  it("with names, a dotted host name too, never a source file's name and line", () => {
    expect(addressPorts('Connection refused: registry.example.com:443', { names: true }).map((a) => a.host)).toEqual(['registry.example.com']);
    expect(addressPorts('Connection refused: registry.example.com:443')).toEqual([]);
    expect(addressPorts("/usr/lib/ruby/3.1.0/socket.rb:1214:in `__connect_nonblock': Failed to open TCP connection to db.internal:5432", { names: true }).map((a) => a.text)).toEqual(['db.internal:5432']);
    // A path's file and line is no host (a single `/` before it); a URL's host is (`//`).
    expect(addressPorts('gmake[2]: *** [CMakeFiles/app.dir/build.make:76: CMakeFiles/app.dir/main.c.o] Error 1', { names: true })).toEqual([]);
    expect(addressPorts("fatal: unable to access 'https://git.example.com:8443/x.git/'", { names: true }).map((a) => a.text)).toEqual(['git.example.com:8443']);
  });
});

describe('the literal values a message names', () => {
  it('the address: host:port in a URL or a dial, psql\'s "host", port N, a port alone', () => {
    expect(addressOf("fatal: unable to access 'http://127.0.0.1:47864/scm/x.git/': Failed to connect to 127.0.0.1 port 47864")).toEqual({ host: '127.0.0.1', port: '47864' });
    expect(addressOf('connection to server at "127.0.0.1", port 47612 failed: Connection refused')).toEqual({ host: '127.0.0.1', port: '47612' });
    expect(addressOf('dial tcp [::1]:6379: connect: connection refused')).toEqual({ host: '[::1]', port: '6379' });
    expect(addressOf('Could not connect to cache.example.com:11211')).toEqual({ host: 'cache.example.com', port: '11211' });
    expect(addressOf('ECONNREFUSED on port 5433')).toEqual({ port: '5433' });
  });
  it("a source file's name and line is no address; the finding's own host is kept", () => {
    expect(addressOf("/usr/lib/ruby/3.1.0/socket.rb:1214:in `__connect_nonblock': Failed to open TCP connection to 127.0.0.1:41122")).toEqual({ host: '127.0.0.1', port: '41122' });
    expect(addressOf('at Main.java:12 connect failed')).toEqual({});
    expect(addressOf('Failed to connect to pypi.org', 'pypi.org')).toEqual({ host: 'pypi.org' });
    expect(addressOf('proxy 10.0.0.1:3128 refused', 'pypi.org')).toEqual({ host: 'pypi.org' });
    // addressPorts' reading (one pattern): a test's name is no host, an address after a host name's `/` is one.
    expect(addressOf('[ERROR]   WarningMinerTest.extractWarnings_statsOutput:189 expected 3')).toEqual({});
    expect(addressOf('Remote call on JNLP4-connect connection from agent-7.example.net/203.0.113.88:43072 failed')).toEqual({ host: '203.0.113.88', port: '43072' });
  });
  it('a quoted path', () => {
    expect(quotedPathOf('open() "/var/log/nginx/status.access.log" failed (13: Permission denied)')).toBe('/var/log/nginx/status.access.log');
    expect(quotedPathOf("cannot create 'out/report.json'")).toBe('out/report.json');
    expect(quotedPathOf("no such label 'install-guide'")).toBeUndefined();
  });
  it('the option a program refused', () => {
    expect(refusedOptionOf('__main__.py: error: unrecognized arguments: -n')).toBe('-n');
    expect(refusedOptionOf('flag provided but not defined: -race')).toBe('-race');
    expect(refusedOptionOf("error: unexpected argument '--dry' found")).toBe('--dry');
    expect(refusedOptionOf('everything is fine')).toBeUndefined();
  });
});
