import { lineRunning, printingProgram, scriptRunBy } from './scriptTrace.js';

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
