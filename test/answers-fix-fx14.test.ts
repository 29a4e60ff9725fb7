/**
 * "How do I fix it?" from the breaking change (issue 25 point 3, session 52, helper fx14): made-up projects with a
 * git history, read as `cichat ask --workspace DIR` reads them (cli/snippets.ts `snippetsFromDir`, `checkoutFromDir`:
 * jenkins/workspace/gitChanges.ts). The fix answer quotes the changed lines with the commit and offers the two honest
 * ways out; a change that touched nothing the error names is said as such; no git, nothing said; secrets masked;
 * the repository's own config (external diff, textconv, hooks) never runs.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { checkoutFromDir } from '../cli/snippets.js';
import { checkoutChanges } from '../jenkins/workspace/gitChanges.js';
import { ciContextSchema } from '../protocol/ciContext.js';
import { askWithGit as ask, gitRepo, removeGitRepos, tempDir } from './helpers/gitRepo.js';

afterAll(removeGitRepos);

/** A checkout whose history is `commits`. */
const repo = (commits: { message: string; files: Record<string, string> }[]): { dir: string; ids: string[] } => gitRepo(commits, { prefix: 'cichat-fx14-' });

const TEST = 'from pricing.tax import with_tax\n\n\ndef test_with_tax():\n    assert with_tax(10.99) == 13.19\n';
const PYTEST_LOG = `============================= test session starts ==============================
collected 1 item

tests/test_tax.py F                                                      [100%]

=================================== FAILURES ===================================
________________________________ test_with_tax _________________________________

    def test_with_tax():
>       assert with_tax(10.99) == 13.19
E       assert 13 == 13.19
E        +  where 13 = with_tax(10.99)

tests/test_tax.py:5: AssertionError
=========================== short test summary info ============================
FAILED tests/test_tax.py::test_with_tax - assert 13 == 13.19
============================== 1 failed in 0.02s ===============================
`;

const GCC_LOG = `+ make
gcc -Wall -c src/calc.c -o build/calc.o
src/calc.c: In function 'sum':
src/calc.c:5:12: error: 'totl' undeclared (first use in this function); did you mean 'total'?
    5 |     return totl;
      |            ^~~~
make: *** [Makefile:4: build/calc.o] Error 1
`;
const CALC = (ret: string): string => `int sum(const int *xs, int n) {\n    int total = 0;\n    for (int i = 0; i < n; i++) total += xs[i];\n    /* the sum */\n    return ${ret};\n}\n`;

describe('the fix answer quotes the change that touched what the error names', () => {
  it('a test check whose code under test the last commit changed: the changed line, the commit, both ways out', async () => {
    const { dir, ids } = repo([
      { message: 'Tax with cents', files: { 'pricing/__init__.py': '', 'pricing/tax.py': 'def with_tax(amount):\n    return round(amount * 1.2, 2)\n', 'tests/test_tax.py': TEST } },
      { message: 'Whole units for tax', files: { 'pricing/tax.py': 'def with_tax(amount):\n    return int(amount * 1.2)\n' } },
    ]);
    const fix = await ask('how do I fix it?', PYTEST_LOG, dir);
    expect(fix).toContain(`**The last commit (\`${ids[1]?.slice(0, 10)}\``);
    expect(fix).toContain(`Line 2 of \`pricing/tax.py\`, the code under test: commit \`${ids[1]?.slice(0, 10)}\` (Whole units for tax) changed \`return round(amount * 1.2, 2)\` to \`return int(amount * 1.2)\`.`);
    expect(fix).toMatch(/the evidence does not say which was meant: if the new behaviour is intended, update the test's expectation at `tests\/test_tax\.py:5`.*if not, restore the old lines \(`git revert [0-9a-f]{10}`/);
    expect(fix).not.toContain('since the last green build (`');
  });

  it('a compile error on the line the commit wrote: said in the fix and in one sentence of the why', async () => {
    const { dir, ids } = repo([
      { message: 'Sum', files: { 'src/calc.c': CALC('total'), Makefile: 'build/calc.o: src/calc.c\n\tgcc -Wall -c src/calc.c -o build/calc.o\n' } },
      { message: 'Tidy sum', files: { 'src/calc.c': CALC('totl') } },
    ]);
    const id = ids[1]?.slice(0, 10) ?? '';
    const fix = await ask('how do I fix it?', GCC_LOG, dir);
    expect(fix).toContain(`Line 5 of \`src/calc.c\`, the error's own line: commit \`${id}\` (Tidy sum) changed \`return total;\` to \`return totl;\`.`);
    expect(fix).toContain('The error is on a line this change wrote, so that line is where to act');
    const why = await ask('why did the build fail?', GCC_LOG, dir);
    expect(why).toContain(`The last commit wrote that line: line 5 of \`src/calc.c\`, commit \`${id}\` (Tidy sum) changed \`return total;\` to \`return totl;\``);
  });

  it('since the last green build when the environment names its commit: every commit of the range counted', async () => {
    const { dir, ids } = repo([
      { message: 'Sum', files: { 'src/calc.c': CALC('total') } },
      { message: 'Tidy sum', files: { 'src/calc.c': CALC('totl') } },
      { message: 'Docs', files: { 'README.md': '# calc\n' } },
    ]);
    const fix = await ask('how do I fix it?', GCC_LOG, dir, { GIT_PREVIOUS_SUCCESSFUL_COMMIT: ids[0], GIT_COMMIT: ids[2] });
    expect(fix).toContain(`**The change since the last green build (\`${ids[0]?.slice(0, 10)}..${ids[2]?.slice(0, 10)}\`, 2 commits)**`);
    expect(fix).toContain(`commit \`${ids[1]?.slice(0, 10)}\` (Tidy sum) changed \`return total;\` to \`return totl;\``);
    // The environment's own `git diff` hint is not repeated when git's answer is there.
    expect(fix).not.toContain('**What changed since the last green commit:**');
  });
});

describe('guards', () => {
  it('a change that touched nothing the error names is said as such, with no cause claimed', async () => {
    const { dir } = repo([
      { message: 'Sum', files: { 'src/calc.c': CALC('totl') } },
      { message: 'Docs', files: { 'docs/usage.md': 'Call sum().\n' } },
    ]);
    const fix = await ask('how do I fix it?', GCC_LOG, dir);
    expect(fix).toContain('- The last commit did not touch the files the error names (`src/calc.c`)');
    expect(fix).toContain('it changed `docs/usage.md`. Nothing here shows it caused the failure');
    expect(fix).not.toMatch(/this change wrote|changed `return/);
    const why = await ask('why did the build fail?', GCC_LOG, dir);
    expect(why).not.toContain('commit');
  });

  it('a checkout without git: nothing of a change is said', async () => {
    const dir = tempDir('cichat-fx14-plain-');
    mkdirSync(path.join(dir, 'src'));
    writeFileSync(path.join(dir, 'src/calc.c'), CALC('totl'));
    expect((await checkoutFromDir(dir, [], {})).changes).toBeUndefined();
    const fix = await ask('how do I fix it?', GCC_LOG, dir);
    expect(fix).not.toMatch(/last commit|since the last green build|git revert/);
  });

  it('secrets in the changed lines are masked like the log', async () => {
    const { dir } = repo([
      { message: 'Config', files: { 'src/calc.c': CALC('total'), 'deploy.sh': 'export API_URL=https://api.example.invalid\n' } },
      { message: 'Deploy key', files: { 'src/calc.c': CALC('totl'), 'deploy.sh': 'export API_URL=https://api.example.invalid\nexport DEPLOY_PASSWORD=hunter2hunter2\n' } },
    ]);
    const changes = await checkoutChanges(dir, { named: ['src/calc.c'], gitFileAllowed: true });
    const all = JSON.stringify(changes);
    expect(all).toContain('DEPLOY_PASSWORD=****');
    expect(all).not.toContain('hunter2');
    // The failure's own file first.
    expect(changes?.diffs[0]?.path).toBe('src/calc.c');
  });

  it("the repository's own external diff, textconv and hooks never run", async () => {
    const { dir } = repo([
      { message: 'Sum', files: { 'src/calc.c': CALC('total'), '.gitattributes': '*.c diff=evil\n' } },
      { message: 'Tidy sum', files: { 'src/calc.c': CALC('totl') } },
    ]);
    const marker = path.join(dir, '..', `${path.basename(dir)}-ran`);
    const run = `sh -c 'touch ${marker}'`;
    execFileSync('git', ['config', 'diff.external', run], { cwd: dir });
    execFileSync('git', ['config', 'diff.evil.textconv', run], { cwd: dir });
    execFileSync('git', ['config', 'diff.evil.command', run], { cwd: dir });
    execFileSync('git', ['config', 'core.pager', run], { cwd: dir });
    execFileSync('git', ['config', 'core.fsmonitor', run], { cwd: dir });
    const changes = await checkoutChanges(dir, { named: ['src/calc.c'] });
    expect(changes?.diffs[0]?.text).toContain('+    return totl;');
    expect(existsSync(marker)).toBe(false);
  });

  it('the field is optional and bounded in the schema: an old client sends none, an oversized diff is refused', () => {
    expect(ciContextSchema.safeParse({ buildDetails: { result: 'FAILURE' } }).success).toBe(true);
    const change = { range: 'last-commit', base: 'a'.repeat(40), head: 'b'.repeat(40), commits: [{ commitId: 'b'.repeat(40) }], diffs: [{ path: 'x.c', commitId: 'b'.repeat(40), text: 'x'.repeat(5000) }] };
    const parsed = ciContextSchema.safeParse({ workspaceChanges: change });
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error?.issues)).toContain('workspaceChanges');
  });
});
