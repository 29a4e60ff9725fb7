import { addressOf, quotedPathOf, refusedOptionOf } from './values.js';

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
