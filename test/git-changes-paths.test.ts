/**
 * jenkins/workspace/gitChanges.ts on paths and subjects git would quote or a committer could forge (rv3's left item 2,
 * session 54): a subject holding `\x1e`/`\x1f` forges no commit; a path with quotes, a tab, a backslash or a space is
 * listed as it is and its diff is read; a path with glob characters (`src/[id].ts`) is read literally, never as a
 * pathspec matching other files. Real git, made-up checkouts (test/helpers/gitRepo.ts).
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { checkoutChanges, commitsOf, formatOf } from '../jenkins/workspace/gitChanges.js';
import { gitIn, gitRepo, removeGitRepos } from './helpers/gitRepo.js';

afterAll(removeGitRepos);

describe('the commits and files of a checkout, as git holds them', () => {
  it('a subject that holds the header separators forges no commit: one commit, its own id, its subject whole', async () => {
    const forged = `fix \x1edeadbeefdeadbeefdeadbeefdeadbeefdeadbeef\x1fmallory\x1fship it`;
    const { dir, ids } = gitRepo([
      { message: 'first', files: { 'a.txt': 'a\n' } },
      { message: forged, files: { 'a.txt': 'a\nb\n' } },
    ]);
    const changes = await checkoutChanges(dir, {});
    expect(changes?.commits.map((c) => c.commitId)).toEqual([ids[1]]);
    expect(changes?.commits[0]?.message).toContain('mallory');
    expect(changes?.commits[0]?.author).toBe('Dana Dev');
    expect(changes?.commits[0]?.files).toEqual(['M a.txt']);
  });

  it('paths with a quote, a tab, a backslash and a space are listed as they are, and their diffs are read', async () => {
    const odd = ['src/say "hi".c', 'src/tab\there.c', 'src/back\\slash.c', 'src/with space.c'];
    const { dir } = gitRepo([
      { message: 'first', files: Object.fromEntries(odd.map((p) => [p, 'int x = 1;\n'])) },
      { message: 'second', files: Object.fromEntries(odd.map((p) => [p, 'int x = 2;\n'])) },
    ]);
    const changes = await checkoutChanges(dir, { named: [odd[0] as string] });
    expect([...(changes?.commits[0]?.files ?? [])].sort()).toEqual(odd.map((p) => `M ${p}`).sort());
    expect(changes?.diffs.map((d) => d.path).sort()).toEqual([...odd].sort());
    for (const d of changes?.diffs ?? []) expect(d.text).toContain('+int x = 2;');
    expect(changes?.diffs[0]?.path).toBe(odd[0]);
  });

  it('a renamed file gives `R100 old -> new`; a path with glob characters is read literally', async () => {
    const { dir } = gitRepo([
      { message: 'first', files: { 'pages/[id].ts': 'export const a = 1;\n', 'pages/i.ts': 'export const i = 1;\n', 'old.txt': 'x\n' } },
      { message: 'second', files: { 'pages/[id].ts': 'export const a = 2;\n', 'pages/i.ts': 'export const i = 2;\n' } },
    ]);
    gitIn(dir, 'mv', 'old.txt', 'new.txt');
    gitIn(dir, 'commit', '-q', '--amend', '--no-edit');
    const changes = await checkoutChanges(dir, { named: ['pages/[id].ts'] });
    expect(changes?.commits[0]?.files).toEqual(expect.arrayContaining(['R100 old.txt -> new.txt', 'M pages/[id].ts', 'M pages/i.ts']));
    const first = changes?.diffs[0];
    expect(first?.path).toBe('pages/[id].ts');
    // As a glob `[id]` would match `pages/i.ts` too, and its diff would be read in as this file's.
    expect(first?.text).toContain('+export const a = 2;');
    expect(first?.text).not.toContain('export const i');
  });
});

describe('commitsOf on git -z output', () => {
  const mark = 'abc123';
  const block = (id: string, author: string, subject: string, fields: string[]): string => `\x1e${mark}${id}\x1f${mark}${author}\x1f${mark}${subject}\0\n${fields.map((f) => `${f}\0`).join('')}`;
  const id = 'a'.repeat(40);

  it('reads renames, copies and plain statuses; leaves out a path with a line break', () => {
    const text = block(id, 'A', 's', ['M', 'a.c', 'R087', 'b.c', 'c.c', 'A', 'bad\nname.c', 'D', 'd.c']);
    expect(commitsOf(text, mark, () => false)[0]?.files).toEqual(['M a.c', 'R087 b.c -> c.c', 'D d.c']);
  });

  it('a header whose separators carry another mark is no commit of its own', () => {
    const text = block(id, 'A', `x\x1eother${'b'.repeat(40)}\x1fother`, ['M', 'a.c']);
    expect(commitsOf(text, mark, () => false).map((c) => c.commitId)).toEqual([id]);
    expect(formatOf(mark)).toBe(`--format=%x1e${mark}%H%x1f${mark}%an%x1f${mark}%s`);
  });
});
