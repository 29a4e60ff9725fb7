import { describe, expect, it } from '@jest/globals';
import { analyze } from '../../test/helpers/rulesReading.js';
import type { Finding } from '../../protocol/types.js';

/**
 * A program the agent lacks, or has in another version, in the words of whatever needed it (verdicts.ts LACKED_PROGRAM;
 * docs/notes/analyzer.md, "Round 17 tuning (helper t18)"). Made-up logs of other projects.
 */
const top = (text: string): Finding | undefined => analyze(text)[0]?.finding;
const step = (...out: string[]): string => ['[Pipeline] sh', ...out, '[Pipeline] }', 'ERROR: script returned exit code 1', 'Finished: FAILURE'].join('\n');

describe('a program the agent lacks', () => {
  it("a process never started (Rust's std, any Rust tool), over cargo's error class", () => {
    const f = top(step('+ cargo test --locked', 'error: could not execute process `/opt/tools/mold -run rustc -vV` (never executed)', '', 'Caused by:', '  No such file or directory (os error 2)'));
    expect([f?.class, f?.confidence]).toEqual(['missing-tool', 'medium']);
    expect(f?.message).toContain('(never executed)');
  });

  it("gcc's driver not finding the linker it was told to use, over make's verdict", () => {
    const f = top(step('+ make', 'cc -fuse-ld=lld -o bin/app obj/main.o obj/util.o', "collect2: fatal error: cannot find 'ld'", 'compilation terminated.', 'make: *** [Makefile:12: bin/app] Error 1'));
    expect([f?.class, f?.message]).toEqual(['missing-tool', "collect2: fatal error: cannot find 'ld'"]);
  });

  it("a toolchain's home variable pointing at no toolchain", () => {
    expect(top(step('+ ./gradlew build', '', 'ERROR: JAVA_HOME is set to an invalid directory: /opt/jdk-17', '', 'Please set the JAVA_HOME variable in your environment to match the', 'location of your Java installation.'))?.class).toBe('missing-tool');
  });

  it("a project's guard naming the runtime version it needs and the one the agent runs", () => {
    const f = top(step('+ ./scripts/check-env.sh', 'error: this service needs Python 3.12 (see .python-version), but the agent has 3.10.12'));
    expect([f?.class, f?.confidence]).toEqual(['missing-tool', 'medium']);
  });

  it("counter-example: a dependency's version conflict is not the agent's runtime", () => {
    const f = top(step('+ ./scripts/check-deps.sh', 'error: plugin-x requires left-pad 2.0 but the lock file has 1.3.0'));
    expect(f?.class).not.toBe('missing-tool');
  });
});
