import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { analyze } from '../../test/helpers/rulesReading.js';
import { echoedCommand, failedOutputEnd, failingCommandAbove, stepSpan } from './failingStep.js';

/** The one reader of the command that ended a failing step (failingStep.ts), used by the finding and the answers alike. */
const commandAt = (at: number, ...lines: string[]): string | undefined => failingCommandAbove(at, (i) => lines[i])?.command;

describe('the command a CI log echoes', () => {
  it('reads each echo form, and no other line', () => {
    expect(['+ make check', '++ git rev-parse HEAD', '[ws] $ ./gradlew test', '$ npm ci', ' > git fetch --tags origin # timeout=10', 'C:\\ws\\app>msbuild app.sln', '##[group]Run npx eslint .'].map(echoedCommand)).toEqual(['make check', 'git rev-parse HEAD', './gradlew test', 'npm ci', 'git fetch --tags origin', 'msbuild app.sln', 'npx eslint .']);
    expect(['+  an added line of a diff, indented', '+++ b/src/a.c', '  + indented output', 'make: *** [all] Error 2', '+ ', 'Run tests'].map(echoedCommand)).toEqual([undefined, undefined, undefined, undefined, undefined, undefined]);
  });
});

describe('the command that ended the step', () => {
  it('is the nearest echoed at or above the failure', () => {
    expect(commandAt(2, '+ make check', '+ ./run_tests', 'FAIL: test_ring')).toBe('./run_tests');
  });

  it('passes over a cleanup, an EXIT trap\'s first command and a background start', () => {
    expect(commandAt(3, '+ ./run_tests', 'FAIL: test_ring', '+ wait', 'exit 1')).toBe('./run_tests');
    expect(commandAt(4, "+ trap 'rm -rf $TMP' EXIT", '+ ./check.sh', 'check: 2 errors', '+ rm -rf /tmp/x', 'exit 1')).toBe('./check.sh');
    expect(commandAt(3, '+ sleep 1', '+ ./serve &', 'bind: address already in use', 'exit 1')).toBe('sleep 1');
    expect(commandAt(3, '+ ./serve', '+ PID=4242', '+ curl -sf localhost:9000/ready', 'curl: (7) Failed to connect')).toBe('curl -sf localhost:9000/ready');
  });

  it('counter-example: a command that only shares the trap program\'s name is still its own failure when no trap is declared', () => {
    expect(commandAt(1, '+ rm -rf /build/out', 'rm: cannot remove \'/build/out\': Device or resource busy')).toBe('rm -rf /build/out');
  });

  it("names none under a freestyle step's own wrapper, past too many cleanups, or beyond the reach", () => {
    expect(commandAt(1, '[ws] $ /bin/sh -xe /tmp/jenkins123.sh', 'error: x')).toBeUndefined();
    expect(commandAt(6, '+ make', '+ wait', '+ wait', '+ wait', '+ wait', '+ wait', 'exit 1')).toBeUndefined();
    expect(failingCommandAbove(3, (i) => ['+ make', 'a', 'b', 'error'][i], 2)).toBeUndefined();
  });

  it('reads only the lines the caller gives (another parallel branch\'s are not the step\'s)', () => {
    const lines = ['[a] + make a', '[b] + make b', '[a] error: x'];
    const ofA = (i: number): string | undefined => (lines[i]?.startsWith('[a] ') ? lines[i]!.slice(4) : undefined);
    expect(failingCommandAbove(2, ofA)?.command).toBe('make a');
  });
});

describe('a parallel block whose branches print unprefixed and at once (ux12)', () => {
  const block = ['[Pipeline] parallel', '[Pipeline] { (Branch: unit)', '[Pipeline] { (Branch: lint)', '[Pipeline] sh', '[Pipeline] sh', '+ prove -l t/', '+ perl -c bin/app', 'bin/app syntax OK', 'not ok 3 - rounds up'];

  it('names no command: the nearest is maybe the other branch\'s; after the block, or with one step, the nearest', () => {
    expect(commandAt(block.length - 1, ...block)).toBeUndefined();
    // Named after the block closed, or when one step started in it.
    expect(commandAt(4, '[Pipeline] parallel', '[Pipeline] { (Branch: unit)', '[Pipeline] sh', '+ prove -l t/', 'not ok 3')).toBe('prove -l t/');
    expect(commandAt(block.length + 2, ...block, '[Pipeline] // parallel', '+ make dist', 'make: *** [dist] Error 1')).toBe('make dist');
  });
});

describe("the finding's command purpose reads the same command", () => {
  const jenkins = (...lines: string[]): string => ['[ci] $ /bin/bash -xe ci.sh', "+ trap 'kill $SERVER' EXIT", ...lines, '+ kill 4242', "Build step 'Execute shell' marked build as failure", 'Finished: FAILURE'].join('\n');

  it("a traced comparison that printed a difference, then its EXIT trap's `kill`: the comparison failed (test-assertion)", () => {
    const f = analyze(jenkins('+ ./calc < tests/sum.in > out/sum.txt', '+ diff tests/sum.expected out/sum.txt', '3c3', '< total 42', '---', '> total 41'))[0]?.finding;
    expect([f?.class, f?.evidence]).toEqual(['test-assertion', [9, 4]]);
    expect(analyze(jenkins('+ cmp build/assets.pak tests/golden/assets.pak', 'build/assets.pak tests/golden/assets.pak differ: byte 1025, line 7'))[0]?.finding?.class).toBe('test-assertion');
  });

  it('counter-example: a command that printed nothing of a difference stays unknown, trap or not', () => {
    expect(analyze(jenkins('+ ./calc < tests/sum.in > out/sum.txt', '+ ./publish.sh out/'))[0]?.finding?.class ?? 'unknown').toBe('unknown');
  });
});

describe("a failed step's last output under Jenkins' verdicts alone (ux14)", () => {
  const end = (lines: string[], at = lines.length - 1): number | undefined => failedOutputEnd(at, (i) => lines[i])?.end;
  const parallel = ['[Pipeline] parallel', '[Pipeline] { (Branch: a)', '[Pipeline] { (Branch: b)', '[Pipeline] sh', '[Pipeline] sh', '+ ./a', '+ ./b', 'b is fine', 'table has no row for X', '[Pipeline] }', 'Failed in branch a', 'b still fine', '[Pipeline] }', '[Pipeline] // parallel'];

  it("is the line above the failed branch's closings, from the verdict after the block, from a skipped stage, or from `Failed in branch` itself", () => {
    expect(end([...parallel, 'ERROR: script returned exit code 3'])).toBe(8);
    expect(end([...parallel, '[Pipeline] { (Deploy)', 'Stage "Deploy" skipped due to earlier failure(s)', '[Pipeline] // stage', 'ERROR: script returned exit code 3'])).toBe(8);
    expect(end(parallel, 10)).toBe(8);
  });

  it('of a sequential Pipeline: the line above the failed stage closing, under the next stage skipped', () => {
    const lines = ['[Pipeline] { (Test)', '[Pipeline] sh', '+ ./check', 'carriers stale', '[Pipeline] }', '[Pipeline] // stage', '[Pipeline] stage', '[Pipeline] { (Deploy)', 'Stage "Deploy" skipped due to earlier failure(s)', '[Pipeline] }', '[Pipeline] // stage', 'ERROR: script returned exit code 4'];
    expect(failedOutputEnd(11, (i) => lines[i])).toEqual({ end: 3, skipped: 8 });
  });

  it('counter-examples: a process step after the block (its output may say why), no failed branch, no skip', () => {
    expect(end([...parallel, '[Pipeline] sh', '+ ./notify', 'ERROR: script returned exit code 3'])).toBeUndefined();
    expect(end(['[Pipeline] parallel', '[Pipeline] { (Branch: a)', '+ ./a', 'ok', '[Pipeline] }', '[Pipeline] // parallel', 'ERROR: script returned exit code 1'])).toBeUndefined();
    expect(end(['[Pipeline] sh', '+ ./a', 'boom', 'ERROR: script returned exit code 1'])).toBeUndefined();
  });
});

describe('no command above a closed parallel block whose branches interleaved (ux14)', () => {
  it('names none after the block, where the nearest echoed command may be any branch\'s', () => {
    const lines = ['[Pipeline] parallel', '[Pipeline] { (Branch: a)', '[Pipeline] { (Branch: b)', '[Pipeline] sh', '[Pipeline] sh', '+ ./a', '+ ./b', 'x', '[Pipeline] }', '[Pipeline] }', '[Pipeline] // parallel', 'ERROR: script returned exit code 1'];
    expect(failingCommandAbove(11, (i) => lines[i])).toBeUndefined();
    // One branch, or branches that ran no process step at once: the command is named as before.
    const one = ['[Pipeline] parallel', '[Pipeline] { (Branch: a)', '[Pipeline] sh', '+ ./a', 'x', '[Pipeline] }', '[Pipeline] // parallel', 'ERROR: script returned exit code 1'];
    expect(failingCommandAbove(7, (i) => one[i])?.command).toBe('./a');
  });
});

describe("a build step's span (stepSpan)", () => {
  const LOGS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../test/fixtures/jenkins-console/logs');

  it("starts below a Windows freestyle batch step's wrapper (jenkins-console w06), as below a shell step's", () => {
    const log = readFileSync(path.join(LOGS, 'w06-msbuild-missing-package-windows-long.log'), 'utf8').split('\n');
    // L13 `[erp-api] $ cmd /c call C:\Windows\TEMP\jenkins….bat`; the error at L65; the step's verdict at L134.
    expect(stepSpan(64, log.length, (i) => log[i])).toEqual({ from: 13, to: 132 });
    const sh = ['Started by user a', '[ws] $ /bin/sh -xe /tmp/jenkins1.sh', '+ make', 'error: x'];
    expect(stepSpan(3, sh.length, (i) => sh[i]).from).toBe(2);
  });

  it('counter-example: a batch file the step calls itself is no new step', () => {
    const lines = ['[ws] $ cmd /c call C:\\TEMP\\jenkins1.bat', 'C:\\ws>call build.bat', 'error: x'];
    expect(stepSpan(2, lines.length, (i) => lines[i]).from).toBe(1);
  });
});
