import { commandBefore, lineRunning, printingProgram, scriptRunBy, tracesOf } from './scriptTrace.js';

describe('the failing command the snippets quote the script line of: the finding\'s and the answers\' reader (core/log/failingStep.ts)', () => {
  it('the nearest echoed command within 60 lines, read past its clock', () => {
    const log = ['2026-11-29T10:00:00.000Z + ./deploy.sh staging', '2026-11-29T10:00:01.000Z ssh: connect to host db port 22: Connection refused'];
    expect(commandBefore(log, 2)).toBe('./deploy.sh staging');
    expect(commandBefore(['+ make', ...Array<string>(60).fill('x'), 'error'], 62)).toBeUndefined();
  });
  it('passes over a cleanup and an EXIT trap\'s command, as the finding and the answers do', () => {
    const log = ["+ trap 'rm -rf $TMP' EXIT", '+ curl -sf https://repo/x.tgz -o x.tgz', 'curl: (6) Could not resolve host: repo', '+ rm -rf /tmp/t', '+ kill 4242', "Build step 'Execute shell' marked build as failure"];
    expect(commandBefore(log, 6)).toBe('curl -sf https://repo/x.tgz -o x.tgz');
  });
  it('reads past the added lines of a diff a check printed (`+  text`), to the command that printed them', () => {
    const log = ['+ git diff --check HEAD~1 HEAD', 'docs/usage.md:8: trailing whitespace.', '+  Combines with `--from`. ', 'ERROR: script returned exit code 2'];
    expect(commandBefore(log, 4)).toBe('git diff --check HEAD~1 HEAD');
  });
  it('counts the runs of the command in every echo form the reader knows', () => {
    const log = ['+ sqlite3 db < a.sql', 'ok', '$ sqlite3 db < a.sql', 'Error: near line 3: syntax error'];
    expect(tracesOf(log, 'sqlite3 db < a.sql', 4)).toBe(2);
  });
});

describe('the script a traced command ran, and its line that runs the program an error names (fx5)', () => {
  it('printingProgram: the coreutils-style printer, not a severity word or a path', () => {
    expect(printingProgram('sort: write failed: /tmp/x/sortA1: No space left on device')).toBe('sort');
    expect(printingProgram('curl: (7) Failed to connect to 127.0.0.1 port 3128')).toBe('curl');
    expect(printingProgram('fatal: No names found, cannot describe anything.')).toBeUndefined();
    expect(printingProgram('./scripts/deploy.sh: line 3: X: unbound variable')).toBeUndefined();
    expect(printingProgram('Error: listen EACCES')).toBeUndefined();
  });
  it('scriptRunBy: the workspace script a command runs, directly or through a shell', () => {
    const files = ['ci.sh', 'scripts/pack.sh', 'tools/merge.sh'];
    expect(scriptRunBy('./scripts/pack.sh 1.0 hello', files)).toBe('scripts/pack.sh');
    expect(scriptRunBy('bash tools/merge.sh', files)).toBe('tools/merge.sh');
    expect(scriptRunBy('make dist', files)).toBeUndefined();
    expect(scriptRunBy('/usr/local/bin/pack.sh', files)).toBeUndefined();
  });
  it('lineRunning: the one line that runs the program in a command position; none when several or only mentioned', () => {
    const script = ['#!/bin/bash', '# sort the samples', 'echo "sort them"', './export.sh | sort -T /scratch -k1,1 > out'];
    expect(lineRunning(script, 'sort')).toBe(3);
    expect(lineRunning([...script, 'sort -u out > uniq'], 'sort')).toBeUndefined();
    expect(lineRunning(['VERSION=$(git describe --tags)', 'sed -i "s/x/y/" a.txt'], 'sed')).toBe(1);
    expect(lineRunning(['mysort -k1 a'], 'sort')).toBeUndefined();
  });
});
