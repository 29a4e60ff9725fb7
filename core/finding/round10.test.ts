import { describe, expect, it } from '@jest/globals';
import { analyze } from '../../test/helpers/rulesReading.js';
import type { Finding } from '../../protocol/types.js';

/**
 * Round 10's misses, opened for tuning (issue 25; docs/notes/analyzer.md, "Round 10 opened (helper
 * t11)"): each form on a made-up log of another project, with a counter-example.
 */
const top = (text: string): Finding | undefined => analyze(text)[0]?.finding;

describe('a lock file the tool may not rewrite under a frozen flag is a dependency error, not a compile error', () => {
  it("cargo's `cannot update the lock file ... because --locked was passed`", () => {
    const log = ['+ cargo test --locked', 'error: cannot update the lock file /srv/ci/geo/Cargo.lock because --locked was passed to prevent this', 'help: to generate the lock file without accessing the network, remove the --locked flag and use --offline instead.', 'Build step \'Execute shell\' marked build as failure'].join('\n');
    expect([top(log)?.class, top(log)?.tool]).toEqual(['dependency-resolution', 'cargo']);
  });

  it("yarn's `The lockfile would have been modified by this install`", () => {
    const log = ['+ yarn install --immutable', '➤ YN0000: ┌ Resolution step', '➤ YN0028: │ The lockfile would have been modified by this install, which is explicitly forbidden.', '➤ YN0000: └ Completed in 0s 412ms', '➤ YN0000: Failed with errors in 0s 420ms'].join('\n');
    expect(top(log)?.class).toBe('dependency-resolution');
  });
});

describe("rustc without the target's standard library is a missing tool", () => {
  it('E0463 for `std` under a cross build', () => {
    const log = ['+ cargo build --target armv7-unknown-linux-gnueabihf', '   Compiling probe v0.2.0 (/ci/probe)', "error[E0463]: can't find crate for `core`", '  |', '  = note: the `armv7-unknown-linux-gnueabihf` target may not be installed', 'error: could not compile `probe` (lib) due to 1 previous error'].join('\n');
    expect([top(log)?.class, top(log)?.tool]).toEqual(['missing-tool', 'rustc']);
  });

  it("counter-example: a crate of the project's own that is not found stays a compile error", () => {
    const log = ['   Compiling probe v0.2.0 (/ci/probe)', "error[E0463]: can't find crate for `serde_json`", ' --> src/lib.rs:3:1', '  |', '3 | extern crate serde_json;', '  | ^^^^^^^^^^^^^^^^^^^^^^^^ can\'t find crate', 'error: could not compile `probe` (lib) due to 1 previous error'].join('\n');
    expect(top(log)?.class).not.toBe('missing-tool');
  });
});

describe("the JVM's connection exception named alone is the network", () => {
  it('java.net.http: `java.net.ConnectException` over an innermost ClosedChannelException', () => {
    const log = ['+ java -cp build Probe', 'Exception in thread "main" java.net.ConnectException', '\tat java.net.http/jdk.internal.net.http.HttpClientImpl.send(HttpClientImpl.java:574)', '\tat Probe.main(Probe.java:21)', 'Caused by: java.net.ConnectException', '\tat java.net.http/jdk.internal.net.http.common.Utils.toConnectException(Utils.java:1083)', 'Caused by: java.nio.channels.ClosedChannelException', '\tat java.base/sun.nio.ch.SocketChannelImpl.ensureOpen(SocketChannelImpl.java:195)', '\t... 9 more', 'Build step \'Execute shell\' marked build as failure'].join('\n');
    const f = top(log);
    expect(f?.class).toBe('network');
    expect(f?.message).toContain('java.net.ConnectException');
  });
});

describe("pytest refusing a plugin's option is the plugin missing", () => {
  it('`--cov` from the ini file without pytest-cov', () => {
    const log = ['+ pytest', 'ERROR: usage: pytest [options] [file_or_dir] [file_or_dir] [...]', 'pytest: error: unrecognized arguments: --cov=shop --cov-report=xml', '  inifile: /ci/shop/setup.cfg', '  rootdir: /ci/shop', '', 'Build step \'Execute shell\' marked build as failure'].join('\n');
    expect([top(log)?.class, top(log)?.dependency]).toEqual(['missing-tool', 'pytest-cov']);
  });

  it("counter-example: an option no plugin adds stays the script's", () => {
    const log = ['+ pytest --verbos', 'ERROR: usage: pytest [options] [file_or_dir] [file_or_dir] [...]', 'pytest: error: unrecognized arguments: --verbos', '  inifile: None', '  rootdir: /ci/shop', ''].join('\n');
    expect(top(log)?.class).toBe('ci-script');
  });
});

describe("a Rust panic whose window starts at its message (Rust >= 1.73's heading above it) is a run-time error", () => {
  it('`cargo run` panicking on a string slice', () => {
    const log = ['+ cargo run --release -- notes.txt', '     Running `target/release/notes notes.txt`', '* first line', '', "thread 'main' (812) panicked at src/render.rs:22:14:", "byte index 12 is not a char boundary; it is inside 'ü' (bytes 11..13) of `Grüße an alle`", 'stack backtrace:', '   0: __rustc::rust_begin_unwind', '   1: core::panicking::panic_fmt', '##[error]Process completed with exit code 101.'].join('\n');
    const f = top(log);
    expect([f?.class, f?.location?.file, f?.location?.line]).toEqual(['runtime-exception', 'src/render.rs', 22]);
  });
});

describe("dash's `script: LINE: Bad substitution` is the script's error, at its line", () => {
  it('a bash-only expansion under /bin/sh', () => {
    const log = ['+ sh ci/release.sh', 'ci/release.sh: 12: Bad substitution', 'ERROR: script returned exit code 2', 'Finished: FAILURE'].join('\n');
    const f = top(log);
    expect([f?.class, f?.location?.file, f?.location?.line]).toEqual(['ci-script', 'ci/release.sh', 12]);
  });
});

describe('pytest that selected no test (exit 5) is the script\'s selection', () => {
  it('`-m` deselected everything', () => {
    const log = ['+ pytest -m smoke', '============================= test session starts ==============================', 'collected 12 items / 12 deselected / 0 selected', '============================ 12 deselected in 0.41s ============================', 'ERROR: script returned exit code 5'].join('\n');
    expect([top(log)?.class, top(log)?.tool]).toEqual(['ci-script', 'pytest']);
  });

  it('counter-example: a collection error is not read as nothing selected', () => {
    const log = ['+ pytest', 'collected 0 items / 1 error', '==================================== ERRORS ====================================', '_____________________ ERROR collecting tests/test_api.py ______________________', "E   ModuleNotFoundError: No module named 'httpx'", '=========================== short test summary info ============================', 'ERROR: script returned exit code 2'].join('\n');
    expect(top(log)?.class).not.toBe('ci-script');
  });
});
