/**
 * A shallow checkout (session 55): a `--depth 1` clone (Jenkins' git "shallow clone", GitHub's `actions/checkout`
 * default) holds the last commit without its parent, so git cannot show what it changed. The answer says so, with
 * how to read it, instead of keeping silent as if nothing had changed; a deeper clone is read as before, and a full
 * history's single (root) commit is no shallow clone. Real git, made-up checkouts cloned with `--depth`.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { mergeContexts } from '../controller/routes/context.js';
import { readCheckout } from '../jenkins/workspace/gitChanges.js';
import { ciContextSchema } from '../protocol/ciContext.js';
import { askWithGit, GIT_ENV, gitRepo, removeGitRepos, tempDir } from './helpers/gitRepo.js';

afterAll(removeGitRepos);

const LOG = ['+ python -m pytest tests', 'tests/test_price.py:4: in test_total', '    assert total([2, 3]) == 5', 'src/price.py:2: in total', '    return sum(xs) + 1', 'E   assert 6 == 5', 'FAILED tests/test_price.py::test_total - assert 6 == 5', 'Build step \'Execute shell\' marked build as failure', 'Finished: FAILURE'].join('\n');

/** A history of three commits, the last one breaking `total`, cloned with `--depth depth` (file://, so git honours it). */
function clone(depth: number): { dir: string; head: string } {
  const { dir: origin, ids } = gitRepo([
    { message: 'price: first version', files: { 'src/price.py': 'def total(xs):\n    return sum(xs)\n', 'tests/test_price.py': 'from src.price import total\n\ndef test_total():\n    assert total([2, 3]) == 5\n' } },
    { message: 'docs: readme', files: { 'README.md': '# price\n' } },
    { message: 'price: add the handling fee', files: { 'src/price.py': 'def total(xs):\n    return sum(xs) + 1\n' } },
  ]);
  const dir = path.join(tempDir(), 'checkout');
  execFileSync('git', ['clone', '-q', `--depth=${depth}`, `file://${origin}`, dir], { env: { ...process.env, ...GIT_ENV } });
  return { dir, head: ids[2] as string };
}

describe('a shallow checkout', () => {
  it('depth 1: no change is read, and the head and its subject are given as the reason', async () => {
    const { dir, head } = clone(1);
    const read = await readCheckout(dir, { gitFileAllowed: true });
    expect(read.changes).toBeUndefined();
    expect(read.shallow).toEqual({ commitId: head, subject: 'price: add the handling fee' });
  });

  it('depth 2: the last commit is read as before (its parent is there)', async () => {
    const { dir, head } = clone(2);
    const read = await readCheckout(dir, { gitFileAllowed: true });
    expect(read.shallow).toBeUndefined();
    expect(read.changes?.head).toBe(head);
    expect(read.changes?.commits[0]?.files).toEqual(['M src/price.py']);
    expect(read.changes?.diffs[0]?.text).toContain('+    return sum(xs) + 1');
  });

  it("a full history's only commit is no shallow clone: nothing is read and nothing is said", async () => {
    const { dir } = gitRepo([{ message: 'only', files: { 'a.txt': 'a\n' } }]);
    expect(await readCheckout(dir, { gitFileAllowed: true })).toEqual({});
  });

  it('the fix answer says the checkout is shallow, names the commit, and how to read its change; never "did not touch"', async () => {
    const { dir, head } = clone(1);
    const fix = await askWithGit('how do I fix it?', LOG, dir);
    expect(fix).toContain("The checkout's change was not read:");
    expect(fix).toContain('shallow clone');
    expect(fix).toContain(head.slice(0, 10));
    expect(fix).toContain('price: add the handling fee');
    expect(fix).toContain('git fetch --deepen=1');
    expect(fix).not.toMatch(/did not touch|The last commit \(/);
    // A depth-2 clone shows the change instead.
    const deeper = await askWithGit('how do I fix it?', LOG, clone(2).dir);
    expect(deeper).not.toContain('shallow clone');
    expect(deeper).toContain('+ 1');
  });
});

describe('the reason on the wire', () => {
  it('the CiContext schema takes reason `shallow` with the head, and refuses an unknown reason', () => {
    const ok = ciContextSchema.safeParse({ workspaceChangesNotRead: { workspaceId: 'local', reason: 'shallow', head: 'a'.repeat(40), headSubject: 'fix', laterBuilds: [] } });
    expect(ok.success).toBe(true);
    const bad = ciContextSchema.safeParse({ workspaceChangesNotRead: { workspaceId: 'local', reason: 'shallowish', laterBuilds: [] } });
    expect(bad.success).toBe(false);
  });

  it("the caller's note about its own checkout replaces the controller's whole (no field of the other kept)", () => {
    const home = { workspaceChangesNotRead: { workspaceId: 'w1', reason: 'recorded-commit-absent' as const, recordedCommit: 'b'.repeat(40), laterBuilds: [12, 13] } };
    const sent = { workspaceChangesNotRead: { workspaceId: 'local', reason: 'shallow' as const, head: 'a'.repeat(40), laterBuilds: [] } };
    expect(mergeContexts(home, sent, undefined).workspaceChangesNotRead).toEqual(sent.workspaceChangesNotRead);
  });
});
