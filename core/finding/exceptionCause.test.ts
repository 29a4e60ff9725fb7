import { describe, expect, it } from '@jest/globals';
import { analyze } from '../../test/helpers/rulesReading.js';
import { causeNamed } from './exceptionCause.js';

/**
 * Session 56 (helper cl3; docs/notes/analyzer.md "Session 56 (helper cl3)"): the cause a runtime's exception names in
 * its type or reason wins over the exception (exceptionCause.ts, read by verdicts.ts). Made-up logs of runtimes no
 * round used (Crystal, Bun, a Python wrapper of a CLI no case ran); each read as the runtime's exception before.
 * Counter-examples: an exception whose words only touch a cause's vocabulary stays the exception.
 */
const top = (log: string) => analyze(log)[0]?.finding;
const gha = (...lines: string[]) => ['##[group]Run bash -xe ci.sh', 'bash -xe ci.sh', '##[endgroup]', ...lines, '##[error]Process completed with exit code 1.', ''].join('\n');

describe('the cause an exception names wins over the exception', () => {
  const ROWS: [name: string, log: string, cls: string][] = [
    ['Crystal\'s socket refused (Socket::ConnectError)', gha('+ crystal run src/notify.cr', "Unhandled exception: Error connecting to '127.0.0.1:8025': Connection refused (Socket::ConnectError)", "  from /usr/share/crystal/src/socket/tcp_socket.cr:29:3 in 'initialize'", "  from src/notify.cr:7:1 in '__crystal_main'"), 'network'],
    ['Crystal\'s read that timed out (IO::TimeoutError)', gha('+ crystal run src/probe.cr', 'Unhandled exception: Read timed out (IO::TimeoutError)', "  from /usr/share/crystal/src/io/evented.cr:84:9 in 'read_timed_out'", "  from src/probe.cr:4:1 in '__crystal_main'"), 'network'],
    ['Bun\'s typed array the memory limit refused', gha('+ bun run scripts/atlas.ts', '1 | const px = new Uint8Array(w * h * 4);', '               ^', 'RangeError: Array buffer allocation failed', '      at /ws/scripts/atlas.ts:1:12', '', 'Bun v1.1.8 (Linux x64)'), 'out-of-memory'],
    ['a Python wrapper\'s own type for a CLI not on PATH', gha('+ python3 tools/diagram.py', 'Traceback (most recent call last):', '  File "/ws/tools/diagram.py", line 5, in <module>', '    render("docs/arch.mmd")', '  File "/ws/venv/lib/python3.11/site-packages/mermaidpy/run.py", line 40, in render', '    raise ExecutableNotFound(cmd) from e', "mermaidpy.ExecutableNotFound: failed to execute ['mmdc'], make sure the mermaid-cli executables are on your PATH"), 'missing-tool'],
  ];
  it.each(ROWS)('%s', (_name, log, cls) => {
    expect([top(log)?.class, top(log)?.confidence]).toEqual([cls, 'medium']);
  });

  it('counter-examples: a key, a limit, a level or a pool named in an exception is no cause', () => {
    const py = (raised: string, cause: string) => gha('+ python3 tools/x.py', 'Traceback (most recent call last):', '  File "/ws/tools/x.py", line 8, in <module>', `    ${raised}`, cause);
    expect(top(py('print(cfg["timeout"])', "KeyError: 'timeout'"))?.class).toBe('runtime-exception');
    expect(top(py('raise ValueError(lim)', 'ValueError: memory limit must be positive, got -1'))?.class).toBe('runtime-exception');
    expect(top(py('check("admin")', "ValueError: unknown permission level 'admin'"))?.class).toBe('runtime-exception');
    expect(top(gha('+ java -jar build/app.jar', 'Exception in thread "main" java.lang.IllegalStateException: Connection pool shut down', '\tat dev.acme.Db.get(Db.java:30)', '\tat dev.acme.Main.main(Main.java:8)'))?.class).toBe('runtime-exception');
    // A test's check whose values are a status's words is the check's.
    expect(top(gha('+ python3 -m pytest -q', 'F', '=================================== FAILURES ===================================', '_________________________________ test_label __________________________________', '    def test_label():', '>       assert label(429) == "Too Many Requests"', "E       AssertionError: assert 'Too many' == 'Too Many Requests'", 'tests/test_http.py:4: AssertionError', '1 failed in 0.02s'))?.class).toBe('test-assertion');
  });
});

describe('causeNamed reads the type and the reason in the operating system\'s and the protocol\'s terms', () => {
  it.each([
    ['java.net.SocketTimeoutException: Read timed out', 'network'],
    ['Error: connect ECONNREFUSED 127.0.0.1:5432', 'network'],
    ['urllib.error.HTTPError: HTTP Error 502: Bad Gateway', 'network'],
    ['urllib.error.HTTPError: HTTP Error 407: Proxy Authentication Required', 'permission-credentials'],
    ['OSError: [Errno 28] No space left on device', 'disk-full'],
    ['Fatal error: exception Out_of_memory', 'out-of-memory'],
  ])('%s', (line, cls) => {
    expect(causeNamed(line)).toBe(cls);
  });

  it('names nothing for an HTTP 404, a bare timeout word, a status code in a value, or a native library (linkage.ts\'s)', () => {
    expect(causeNamed('java.lang.UnsatisfiedLinkError: no zstd-jni in java.library.path')).toBeUndefined();
    expect(causeNamed('urllib.error.HTTPError: HTTP Error 404: Not Found')).toBeUndefined();
    expect(causeNamed("KeyError: 'timeout'")).toBeUndefined();
    expect(causeNamed('AssertionError: expected 401 to equal 200')).toBeUndefined();
  });
});
