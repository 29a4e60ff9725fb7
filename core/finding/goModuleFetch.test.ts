import { findingOf } from './index.js';

/** go's line for an import whose module it had to fetch and could not (go 1.19, run here: `go vet` / `go build` in a module workspace). */
const at = (tail: string): string => `rates/rates.go:7:2: example.com/shipping/rates@v0.0.0: ${tail}`;
const one = (line: string, command = '+ go vet ./rates/... ./api/...') => findingOf([command, line], { start_line: 2, end_line: 2 });

describe("go's import line naming a module it could not fetch", () => {
  it('is a network failure when the fetch failed on the wire, at the import, not a vet finding', () => {
    const dns = one(at('Get "https://proxy.golang.org/example.com/shipping/rates/@v/v0.0.0.mod": dial tcp: lookup proxy.golang.org on 10.255.255.53:53: no such host'));
    expect(dns).toMatchObject({ class: 'network', tool: 'go', dependency: 'example.com/shipping/rates@v0.0.0', host: 'proxy.golang.org', location: { file: 'rates/rates.go', line: 7, column: 2 } });
    const refused = one(at('Get "http://127.0.0.1:1/example.com/shipping/rates/@v/v0.0.0.mod": dial tcp 127.0.0.1:1: connect: connection refused'), '+ go build ./rates/');
    expect(refused).toMatchObject({ class: 'network', tool: 'go' });
  });

  it("is the resolver's failure when the proxy answered without it, or lookups are off", () => {
    expect(one(at('reading file:///tmp/proxy/example.com/shipping/rates/@v/v0.0.0.mod: no such file or directory'))).toMatchObject({ class: 'dependency-resolution', tool: 'go', dependency: 'example.com/shipping/rates@v0.0.0' });
    expect(one(at('module lookup disabled by GOPROXY=off'))).toMatchObject({ class: 'dependency-resolution', tool: 'go' });
    // A compiler's error at an import stays the compiler's.
    expect(one('rates/rates.go:7:2: "example.com/shipping/zones" imported and not used', '+ go build ./rates/')).toMatchObject({ class: 'compile-error', tool: 'go' });
  });
});
