/**
 * Review of session 53 (helper rv3): `workspaceChanges` read from hostile and large checkouts
 * (jenkins/workspace/gitChanges.ts) and the sentences the fix answer builds from it
 * (backend/answer/local/changeDiff.ts). Real git histories made here; each case failed before its mend.
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { changeDiffStep } from '../backend/answer/local/changeDiff.js';
import { checkoutChanges } from '../jenkins/workspace/gitChanges.js';
import { workspaceChangesSchema } from '../protocol/ciContext.js';
import type { CiContext, Finding } from '../protocol/types.js';
import { askWithGit as ask, gitIn, gitRepo, removeGitRepos, tempDir } from './helpers/gitRepo.js';

afterAll(removeGitRepos);

const gccLog = (file: string, line: number, name: string): string => `+ make
gcc -Wall -c ${file} -o build/out.o
${file}: In function 'main':
${file}:${line}:12: error: '${name}' undeclared (first use in this function); did you mean 'total'?
    ${line} |     return ${name};
      |            ^~~~
make: *** [Makefile:4: build/out.o] Error 1
`;
const MAIN = (ret: string): string => `int main(void) {\n    int total = 0;\n    return ${ret};\n}\n`;

describe('gitChanges: a hostile or large checkout', () => {
  it('an empty `.git` directory in a folder of another repository gives nothing: git never answers for the repository above', async () => {
    const { dir: outer } = gitRepo(
      [
        { message: 'Home config', files: { 'config.xml': '<hudson/>\n' } },
        { message: 'Outer history', files: { 'credentials.xml': '<secret>x</secret>\n' } },
      ],
      { prefix: 'cichat-rv3-outer-' },
    );
    const ws = path.join(outer, 'workspace', 'job');
    mkdirSync(path.join(ws, '.git'), { recursive: true });
    writeFileSync(path.join(ws, 'main.c'), MAIN('totl'));
    expect(await checkoutChanges(ws, {})).toBeUndefined();
    expect(await checkoutChanges(ws, { gitFileAllowed: true })).toBeUndefined();
  });

  it("a diff past git's output bound is kept, cut, not dropped; a commit of many binary files keeps the failure's file and runs git a bounded number of times", async () => {
    const gen = (v: string): string => Array.from({ length: 30000 }, (_, i) => `int ${v}${i} = 0;`).join('\n');
    const files: Record<string, string | Buffer> = { 'src/gen.c': gen('w'), 'src/main.c': MAIN('totl') };
    for (let i = 0; i < 130; i++) files[`assets/img${String(i).padStart(3, '0')}.png`] = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, i, 1, 2, 3]);
    const { dir, ids } = gitRepo([{ message: 'Base', files: { 'src/gen.c': gen('v'), 'src/main.c': MAIN('total') } }, { message: 'Regenerate and assets', files }], { prefix: 'cichat-rv3-big-' });
    // Every git call counted through a wrapper before the real git on PATH.
    const bin = tempDir('cichat-rv3-bin-');
    const calls = path.join(bin, 'calls');
    writeFileSync(path.join(bin, 'git'), `#!/bin/sh\necho "$*" >> ${calls}\nexec /usr/bin/git "$@"\n`);
    chmodSync(path.join(bin, 'git'), 0o755);
    const PATH = process.env.PATH;
    process.env.PATH = `${bin}:${PATH ?? ''}`;
    let changes: Awaited<ReturnType<typeof checkoutChanges>>;
    try {
      changes = await checkoutChanges(dir, { named: ['src/gen.c', 'src/main.c'] });
    } finally {
      process.env.PATH = PATH;
    }
    expect(changes?.head).toBe(ids[1]);
    const genDiff = changes?.diffs.find((d) => d.path === 'src/gen.c');
    expect(genDiff?.truncated).toBe(true);
    expect(genDiff?.text).toMatch(/^@@ -1,\d+ \+1,\d+ @@\n-int v0 = 0;/);
    expect(changes?.commits[0]?.files).toContain('M src/main.c');
    expect(changes?.diffs.some((d) => d.path === 'src/main.c' && d.text.includes('+    return totl;'))).toBe(true);
    const shows = readFileSync(calls, 'utf8').split('\n').filter((l) => / show /.test(l)).length;
    expect(shows).toBeLessThanOrEqual(24);
    // The answer names the change at the error's line, not "did not touch".
    const fix = await ask('how do I fix it?', gccLog('src/main.c', 3, 'totl'), dir);
    expect(fix).toContain("Line 3 of `src/main.c`, the error's own line");
    expect(fix).not.toContain('did not touch');
  });

  it("masked text stays inside the schema's bounds (a mask is longer than a one-letter secret); a path longer than the schema allows is left out", async () => {
    const deep = `${Array.from({ length: 5 }, (_, i) => `${String(i)}${'d'.repeat(220)}`).join('/')}/x.c`;
    const subject = `${'Tidy '.repeat(398)}token: x`;
    expect(subject.length).toBeLessThanOrEqual(2000);
    const { dir } = gitRepo([{ message: 'Base', files: { 'src/main.c': MAIN('total') } }, { message: subject, files: { 'src/main.c': MAIN('totl'), [deep]: 'int x;\n' } }], { prefix: 'cichat-rv3-bounds-' });
    const changes = await checkoutChanges(dir, { named: ['src/main.c'] });
    expect(changes?.commits[0]?.message).toContain('Tidy');
    expect(JSON.stringify(changes)).not.toContain('token: x');
    expect(workspaceChangesSchema.safeParse(changes).success).toBe(true);
  });
});

describe('changeDiff: what the fix answer says of the change', () => {
  it('a merge at the head: the commits it brought in, not "the last commit ... only that one"', async () => {
    const { dir } = gitRepo([{ message: 'Base', files: { 'src/main.c': MAIN('total'), 'README.md': '# m\n' } }], { prefix: 'cichat-rv3-merge-' });
    gitIn(dir, 'checkout', '-q', '-b', 'feature');
    writeFileSync(path.join(dir, 'src/main.c'), MAIN('totl'));
    gitIn(dir, 'commit', '-qam', 'Shorter name');
    writeFileSync(path.join(dir, 'NOTES.md'), 'notes\n');
    gitIn(dir, 'add', '-A');
    gitIn(dir, 'commit', '-qm', 'Notes');
    gitIn(dir, 'checkout', '-q', '-');
    writeFileSync(path.join(dir, 'README.md'), '# m\nmore\n');
    gitIn(dir, 'commit', '-qam', 'Readme');
    gitIn(dir, 'merge', '-q', '--no-ff', 'feature', '-m', 'Merge feature');
    const head = gitIn(dir, 'rev-parse', 'HEAD');
    const fix = await ask('how do I fix it?', gccLog('src/main.c', 3, 'totl'), dir);
    expect(fix).toContain(`**The last commit (\`${head.slice(0, 10)}\`) is a merge: the 2 commits it brought in`);
    expect(fix).not.toContain('so only that one');
    expect(fix).toContain("Line 3 of `src/main.c`, the error's own line");
    const why = await ask('why did the build fail?', gccLog('src/main.c', 3, 'totl'), dir);
    expect(why).toContain('The commits the last merge brought in wrote that line');
  });

  it("the last green build's commit given but not an ancestor here: not said to be unknown", async () => {
    const { dir, ids } = gitRepo([{ message: 'Base', files: { 'src/main.c': MAIN('total') } }, { message: 'Shorter name', files: { 'src/main.c': MAIN('totl') } }], { prefix: 'cichat-rv3-base-' });
    const fix = await ask('how do I fix it?', gccLog('src/main.c', 3, 'totl'), dir, { GIT_PREVIOUS_SUCCESSFUL_COMMIT: 'abcdef1234567', GIT_COMMIT: ids[1] });
    expect(fix).toContain('the range since the last green build is not known here, so only that one');
    expect(fix).not.toContain("the last green build's commit is not known");
  });

  it('more commits since the last green build than are read: the ones not read may have touched the file, so "did not touch" is not said', async () => {
    const commits = [
      { message: 'Base', files: { 'src/main.c': MAIN('total') } },
      { message: 'Shorter name', files: { 'src/main.c': MAIN('totl') } },
      ...Array.from({ length: 21 }, (_, i) => ({ message: `Docs ${i}`, files: { [`docs/page${i}.md`]: `page ${i}\n` } })),
    ];
    const { dir, ids } = gitRepo(commits, { prefix: 'cichat-rv3-many-' });
    const fix = await ask('how do I fix it?', gccLog('src/main.c', 3, 'totl'), dir, { GIT_PREVIOUS_SUCCESSFUL_COMMIT: ids[0], GIT_COMMIT: ids[22] });
    expect(fix).toContain('22 commits)**');
    expect(fix).not.toContain('did not touch');
    expect(fix).toContain("The files git listed for the change since the last green build do not include the files the error names (`src/main.c`), but 2 more commits of the range were not read, so I can't tell whether it touched them");
  });

  it("the error's line further down a cut diff: whether the change touched it is not shown, not denied", async () => {
    const body = (v: string): string => Array.from({ length: 3000 }, (_, i) => `int ${v}${i} = 0;`).join('\n');
    const file = (v: string, ret: string): string => `${body(v)}\nint main(void) {\n    int total = 0;\n    return ${ret};\n}\n`;
    const { dir } = gitRepo([{ message: 'Base', files: { 'src/main.c': file('v', 'total') } }, { message: 'Rename and typo', files: { 'src/main.c': file('w', 'totl') } }], { prefix: 'cichat-rv3-cut-' });
    const fix = await ask('how do I fix it?', gccLog('src/main.c', 3003, 'totl'), dir);
    expect(fix).toContain('its diff is cut here, so whether it touched line 3003, the error\'s line, is not shown');
    expect(fix).not.toContain('(not line 3003');
  });

  it("a commit that lists the error's file without its diff here (binary, too large, past the diffs read): said as changed, with the command that shows it", () => {
    const id = 'c'.repeat(40);
    const ci = { workspaceChanges: { range: 'last-commit', base: 'b'.repeat(40), head: id, commits: [{ commitId: id, message: 'Assets', files: ['M src/main.c', 'A logo.png'] }], diffs: [] } } as unknown as CiContext;
    const f = { class: 'compile-error', message: "'totl' undeclared" } as Finding;
    const step = changeDiffStep(ci, f, { located: { path: 'src/main.c', line: 3 }, named: [] });
    expect(step).toContain("- Commit `cccccccccc` (Assets) changed `src/main.c`, a file the error names; its diff is not here");
    expect(step).toContain('`git show cccccccccc -- src/main.c` shows it');
    expect(step).not.toContain('did not touch');
  });
});
