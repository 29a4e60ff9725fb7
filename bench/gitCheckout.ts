/**
 * A throw-away git checkout of a real-failure case (`--git`, session 52): `project/` with `commit.diff` applied in
 * reverse as the parent commit (the last green build), then the diff itself as the commit the failed build built,
 * under a neutral message that says nothing of the fix. The answers then see the change the way a user's checkout
 * gives it to `cichat ask --workspace DIR` (jenkins/workspace/gitChanges.ts reads it).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const AUTHOR = { GIT_AUTHOR_NAME: 'dev', GIT_AUTHOR_EMAIL: 'dev@example.invalid', GIT_COMMITTER_NAME: 'dev', GIT_COMMITTER_EMAIL: 'dev@example.invalid' };

/** The checkout's directory and how to remove it; undefined when the case has no diff or it does not apply. */
export function throwAwayCheckout(caseDir: string): { dir: string; remove: () => void } | undefined {
  const diff = path.join(caseDir, 'commit.diff');
  if (!existsSync(diff) || !existsSync(path.join(caseDir, 'project'))) return undefined;
  const dir = mkdtempSync(path.join(tmpdir(), 'cichat-bench-git-'));
  const remove = (): void => rmSync(dir, { recursive: true, force: true });
  const env = { ...process.env, ...AUTHOR, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
  const git = (args: string[], date: string): void => void execFileSync('git', ['-c', 'core.hooksPath=/dev/null', ...args], { cwd: dir, env: { ...env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date }, stdio: 'ignore' });
  try {
    cpSync(path.join(caseDir, 'project'), dir, { recursive: true });
    git(['init', '-q'], '2026-11-01T10:00:00Z');
    git(['apply', '-R', '--whitespace=nowarn', diff], '2026-11-01T10:00:00Z');
    git(['add', '-A', '-f', '.'], '2026-11-01T10:00:00Z');
    git(['commit', '-q', '--allow-empty', '-m', 'The last green build'], '2026-11-01T10:00:00Z');
    git(['apply', '--whitespace=nowarn', diff], '2026-11-02T10:00:00Z');
    git(['add', '-A', '-f', '.'], '2026-11-02T10:00:00Z');
    git(['commit', '-q', '-m', 'The change built by this build'], '2026-11-02T10:00:00Z');
    return { dir, remove };
  } catch {
    remove();
    return undefined;
  }
}
