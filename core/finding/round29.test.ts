import { describe, expect, it } from '@jest/globals';
import { analyze } from '../../test/helpers/rulesReading.js';

/**
 * Session 55 (helper t30; docs/notes/analyzer.md "Session 55 (helper t30)"): mechanisms of rounds 28 and 29's class
 * misses that hold in a second tool, each on a made-up minimal log in that tool's own words (every row read another
 * class before the change), with counter-examples that must not move.
 * 1. A Go linter passing on the compiler's error (goLinters.ts): the package does not build.
 * 2. A secret or a client certificate refused, in OpenSSL's reason strings (families/credentials.ts).
 * 3. An HTTP client answered by something that is not HTTP (families/downloads.ts): the network or the endpoint
 *    (Python's http.client `BadStatusLine` was read so already).
 * 4. A manifest's local dependency directory that is not there (CMake's add_subdirectory, families/nativeBuild.ts), as
 *    cargo's path dependencies and pip's editable directories are labelled.
 */
const top = (log: string) => analyze(log)[0]?.finding;
const gha = (...lines: string[]) => ['##[group]Run bash -xe ci.sh', 'bash -xe ci.sh', '##[endgroup]', ...lines, '##[error]Process completed with exit code 1.', ''].join('\n');
const jenkins = (...lines: string[]) => ['Started by user ci', '[Pipeline] sh', ...lines, '[Pipeline] }', 'ERROR: script returned exit code 1', 'Finished: FAILURE', ''].join('\n');

describe('a Go linter passing on the compiler\'s error is a compile error', () => {
  const ROWS: [name: string, log: string, file: string, line: number][] = [
    ['golangci-lint labels it (typecheck)', gha('+ golangci-lint run ./...', 'pkg/limits/limits.go:22:9: cannot use n (variable of type int64) as int value in return statement (typecheck)', '\treturn n', '\t       ^', '1 issues:', '* typecheck: 1'), 'pkg/limits/limits.go', 22],
    ['staticcheck labels it (compile)', gha('+ staticcheck ./...', '-: # example.com/acme/limits', 'limits/limits.go:14:2: undefined: maxBurst (compile)'), 'limits/limits.go', 14],
    ['go vet prints the compiler\'s block of a package another imports', jenkins('+ go vet ./...', '# example.com/shop/orders', 'orders/orders.go:31:12: invalid operation: a == b (struct containing map[string]int cannot be compared)'), 'orders/orders.go', 31],
  ];
  it.each(ROWS)('%s', (_name, log, file, line) => {
    const f = top(log);
    expect([f?.class, f?.location?.file, f?.location?.line]).toEqual(['compile-error', file, line]);
  });

  it('counter-examples: the linters\' own findings stay lint', () => {
    expect(top(gha('+ golangci-lint run ./...', 'pkg/limits/limits.go:22:9: Error return value of `f.Close` is not checked (errcheck)', '\tdefer f.Close()', '1 issues:', '* errcheck: 1'))?.class).toBe('lint');
    expect(top(jenkins('+ go vet ./...', '# example.com/shop/orders', 'orders/orders.go:14:2: unreachable code'))?.class).toBe('lint');
    // go/types says `impossible type assertion` too; vet's ifaceassert words it so: not taken as the compiler's.
    expect(top(jenkins('+ go vet ./...', '# example.com/shop/orders', 'orders/orders.go:9:7: impossible type assertion: no type can implement both io.ReadCloser and interface{Close()}'))?.class).toBe('lint');
  });
});

describe('a secret or a client certificate refused, in OpenSSL\'s reason strings', () => {
  const ROWS: [name: string, log: string, words: string][] = [
    ['Node\'s crypto given the old passphrase of a signing key', jenkins('+ node scripts/sign.js dist/app.tgz', 'node:internal/crypto/keys:620', '    handle.init(kKeyObject, data, format, type, passphrase);', '           ^', '', 'Error: error:1C800064:Provider routines::bad decrypt', '    at createPrivateKey (node:internal/crypto/keys:620:12)', '    at Object.<anonymous> (/ws/scripts/sign.js:6:13)', '    at Module._compile (node:internal/modules/cjs/loader:1554:14) {', "  library: 'Provider routines',", "  reason: 'bad decrypt',", "  code: 'ERR_OSSL_BAD_DECRYPT'", '}', '', 'Node.js v20.19.2'), 'bad decrypt'],
    ['curl told by the server that it wants a client certificate', gha('+ curl -fsS --cacert ci/ca.pem https://artifacts.acme.internal:8443/upload -T dist/app.tgz', 'curl: (56) OpenSSL SSL_read: error:0A00045C:SSL routines::tlsv13 alert certificate required, errno 0'), 'alert certificate required'],
    ['Python\'s ssl told that the client certificate is not accepted', gha('+ python scripts/publish.py', 'Traceback (most recent call last):', '  File "/ws/scripts/publish.py", line 12, in <module>', '    conn.request("PUT", "/v1/release", body)', 'ssl.SSLError: [SSL: SSLV3_ALERT_BAD_CERTIFICATE] sslv3 alert bad certificate (_ssl.c:2580)'), 'bad certificate'],
  ];
  it.each(ROWS)('%s', (_name, log, words) => {
    const f = top(log);
    expect([f?.class, f?.message.includes(words)]).toEqual(['permission-credentials', true]);
  });

  it('the openssl command\'s own `bad decrypt` (read by the general words at medium before) is the rule\'s, high', () => {
    const f = top(jenkins('+ openssl rsa -in deploy/key.enc -passin env:KEY_PASS -out build/key.pem', 'Could not read private key from deploy/key.enc', '40E7B1A2B07F0000:error:1C800064:Provider routines:ossl_cipher_unpadblock:bad decrypt:../providers/implementations/ciphers/ciphercommon_block.c:124:'));
    expect([f?.class, f?.confidence]).toEqual(['permission-credentials', 'high']);
  });

  it('counter-examples: the client refusing the server\'s certificate, a program\'s own word for a failed decryption', () => {
    expect(top(gha('+ curl -fsS https://artifacts.acme.internal/upload', 'curl: (60) SSL certificate problem: unable to get local issuer certificate'))?.class).toBe('network');
    expect(top(gha('+ ./bin/unpack vault.bin', 'unpack: decrypt of block 3 failed: checksum mismatch'))?.class).not.toBe('permission-credentials');
  });
});

describe('an HTTP client answered by something that is not HTTP is the network\'s', () => {
  const ROWS: [name: string, log: string, words: string][] = [
    ['Go\'s transport given an SMTP greeting', gha('+ go run ./cmd/notify', '2026/11/30 18:02:11 post hook: Post "http://127.0.0.1:2525/hooks": net/http: HTTP/1.x transport connection broken: malformed HTTP response "220 relay.acme.internal ESMTP Postfix"', 'exit status 1'), 'malformed HTTP response'],
    ['curl given an SSH banner', gha('+ curl -fsS http://build-cache.acme.internal:22/health', 'curl: (1) Received HTTP/0.9 when not allowed'), 'HTTP/0.9'],
  ];
  it.each(ROWS)('%s', (_name, log, words) => {
    const f = top(log);
    expect([f?.class, f?.message.includes(words)]).toEqual(['network', true]);
  });

  it('counter-example: the program\'s own error after a good answer stays the program\'s', () => {
    const log = jenkins('+ node scripts/notify.js', '/ws/scripts/notify.js:9', '    const id = body.release.id;', '                            ^', '', "TypeError: Cannot read properties of undefined (reading 'id')", '    at IncomingMessage.<anonymous> (/ws/scripts/notify.js:9:29)', '', 'Node.js v20.19.2');
    expect(top(log)?.class).toBe('runtime-exception');
  });
});

describe('a manifest\'s local dependency directory that is not there is a dependency (CMake\'s add_subdirectory)', () => {
  it('a submodule not checked out', () => {
    const log = gha('+ cmake -S . -B build -DBUILD_TESTING=ON', '-- The CXX compiler identification is GNU 12.2.0', '-- Detecting CXX compile features - done', 'CMake Error at tests/CMakeLists.txt:2 (add_subdirectory):', '  add_subdirectory given source "../extern/googletest" which is not an', '  existing directory.', '', '', '-- Configuring incomplete, errors occurred!');
    const f = top(log);
    expect([f?.class, f?.location?.file, f?.location?.line, f?.dependency]).toEqual(['dependency-resolution', 'tests/CMakeLists.txt', 2, '../extern/googletest']);
  });

  it('counter-example: a source file the project itself lists is not a dependency', () => {
    const log = gha('+ cmake -S . -B build', 'CMake Error at CMakeLists.txt:9 (add_executable):', '  Cannot find source file:', '', '    src/main.c', '', '', '-- Configuring incomplete, errors occurred!');
    expect(top(log)?.class).not.toBe('dependency-resolution');
  });
});
