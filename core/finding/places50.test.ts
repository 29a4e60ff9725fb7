import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { analyze } from '../log/analyze.js';

/**
 * Session 50 (helper loc3; docs/notes/analyzer.md "Session 50 (helper loc3): places by mechanism"): places a build
 * tool's or a linker's own grammar names, read from real output made on this machine by test/fixtures/grammar/make.sh
 * (Gradle 4.4.1, Ant 1.10.13, GNU ld 2.40 through gcc 12), never written by hand.
 */
const DIR = path.join(process.cwd(), 'test', 'fixtures', 'grammar');
const seen = (id: string): [string | undefined, string | null] => {
  const f = analyze(readFileSync(path.join(DIR, `${id}.log`), 'utf8'))[0]?.finding;
  return [f?.class, f?.location?.line !== undefined ? `${f.location.file}:${f.location.line}` : null];
};

describe("Gradle's `* Where:` names the build script's line", () => {
  it.each([
    // `Build file '/ws/build.gradle' line: 8` over `Could not find method implementation() ...` (no java plugin).
    ['gradle-build-file-where', 'build.gradle:8'],
    // `Settings file '/ws/settings.gradle' line: 3`.
    ['gradle-settings-file-where', 'settings.gradle:3'],
    // `Script '/ws/gradle/versions.gradle' line: 3`: the applied script, not the build file that applied it.
    ['gradle-applied-script-where', 'gradle/versions.gradle:3'],
  ])('%s -> %s', (id, place) => {
    expect(seen(id)[1]).toBe(place);
  });
});

describe("a program an Ant task ran: the task's line when the program names none of the project's", () => {
  it('a class compiled without debug information (`at dev.acme.Table.main(Unknown Source)`): build.xml:7, the <java> task', () => {
    expect(seen('ant-java-oom-no-debug')).toEqual(['out-of-memory', 'build.xml:7']);
  });
  it('with debug information the project frame is the place, as before', () => {
    expect(seen('ant-java-oom-debug')).toEqual(['out-of-memory', 'dev/acme/Table.java:10']);
  });
});

describe("GNU ld's `FILE:LINE:(.text+0x..): relocation truncated to fit` is the linker's error, at that line", () => {
  it('with debug information: the first relocation line is the message and its line the place', () => {
    expect(seen('ld-relocation-truncated-debug')).toEqual(['link-error', 'ring.c:6']);
    const f = analyze(readFileSync(path.join(DIR, 'ld-relocation-truncated-debug.log'), 'utf8'))[0]?.finding;
    expect(f?.message).toMatch(/relocation truncated to fit: R_X86_64_PC32 against symbol `ring_head'/);
  });
  it('without it (`ring.c:(.text+0xb): ...`) ld names no line: none is given', () => {
    expect(seen('ld-relocation-truncated-nodebug')).toEqual(['link-error', null]);
  });
});

describe("a test runner's report that prints the place at the end of the failure (PHPUnit 9.6 --testdox, busted -o TAP)", () => {
  it("PHPUnit's testdox box: `│ Failed asserting that ...`, the values' diff, then `│ /ws/tests/TagsTest.php:14`", () => {
    expect(seen('phpunit-testdox-array-diff')).toEqual(['test-assertion', '/tmp/ws/phpunit-testdox-array-diff/tests/TagsTest.php:14']);
    const f = analyze(readFileSync(path.join(DIR, 'phpunit-testdox-array-diff.log'), 'utf8'))[0]?.finding;
    expect(f?.message).toBe('Failed asserting that two arrays are equal.');
  });
  it('the same failure without --testdox reads as before', () => {
    expect(seen('phpunit-array-diff')).toEqual(['test-assertion', '/tmp/ws/phpunit-array-diff/tests/TagsTest.php:14']);
  });
  it("busted's TAP: `# spec/error_spec.lua @ 5` is the test's place, `# Failure message: src/stock.lua:6: ...` the error's", () => {
    expect(seen('busted-tap-error')).toEqual(['test-error', 'src/stock.lua:6']);
    const f = analyze(readFileSync(path.join(DIR, 'busted-tap-error.log'), 'utf8'))[0]?.finding;
    expect([f?.message, f?.test?.name]).toEqual(['src/stock.lua:6: attempt to compare nil with number', 'stock lists the SKUs at or below the minimum']);
  });
  it("busted's TAP: a check with its `# Expected:` value below is an assertion, at the check's line", () => {
    expect(seen('busted-tap-assert')).toEqual(['test-assertion', 'spec/assert_spec.lua:6']);
  });
});

describe("Python's implicit chain (`During handling of the above exception, another exception occurred:`)", () => {
  it('a write that failed, then the file\'s close while it was handled: the write\'s line (the failure), not the `with` that closed it', () => {
    expect(seen('python-chained-close-enospc')).toEqual(['disk-full', '/tmp/ws/python-chained-close-enospc/tools/export.py:7']);
  });
  it('a handler that raised on purpose (`raise RuntimeError(...)` under its frame) keeps its own line', () => {
    expect(seen('python-chained-raise-in-except')).toEqual(['runtime-exception', '/tmp/ws/python-chained-raise-in-except/tools/stock.py:8']);
  });
});
