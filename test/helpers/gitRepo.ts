/**
 * Made-up git checkouts for the answer tests of `workspaceChanges` (fx14, rv3): `gitRepo(commits)` writes each commit's
 * files and commits them in a fresh temporary directory (or `dir`), and `askWithGit` answers as
 * `cat build.log | cichat ask --workspace DIR` does (cli/snippets.ts `snippetsFromDir`, `checkoutFromDir`).
 * `removeGitRepos()` (in an `afterAll`) deletes the directories it made.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { checkoutFromDir, snippetsFromDir } from '../../cli/snippets.js';
import type { CiContextUpload } from '../../protocol/schemas.js';
import { analyzedChatContext } from '../answerFixtures.js';
import { askLocal } from './askLocal.js';

const dirs: string[] = [];

/** An author and a config of git's own that the machine's cannot change. */
export const GIT_ENV = { GIT_AUTHOR_NAME: 'Dana Dev', GIT_AUTHOR_EMAIL: 'dana@example.invalid', GIT_COMMITTER_NAME: 'Dana Dev', GIT_COMMITTER_EMAIL: 'dana@example.invalid', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };

/** git run in `dir` with GIT_ENV; its output trimmed. */
export function gitIn(dir: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, env: { ...process.env, ...GIT_ENV }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).trim();
}

/** A checkout whose history is `commits` (each: files written, then a commit with its message); returns the dir and the commit ids. */
export function gitRepo(commits: { message: string; files: Record<string, string | Buffer> }[], opts: { prefix?: string; dir?: string } = {}): { dir: string; ids: string[] } {
  const dir = opts.dir ?? mkdtempSync(path.join(tmpdir(), opts.prefix ?? 'cichat-git-'));
  if (opts.dir === undefined) dirs.push(dir);
  mkdirSync(dir, { recursive: true });
  gitIn(dir, 'init', '-q');
  const ids: string[] = [];
  for (const c of commits) {
    for (const [rel, content] of Object.entries(c.files)) {
      mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      writeFileSync(path.join(dir, rel), content);
    }
    gitIn(dir, 'add', '-A');
    gitIn(dir, 'commit', '-q', '-m', c.message);
    ids.push(gitIn(dir, 'rev-parse', 'HEAD'));
  }
  return { dir, ids };
}

/** A fresh temporary directory, removed with the repositories. */
export function tempDir(prefix = 'cichat-git-'): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

/** The answer as `cat build.log | cichat ask --workspace DIR` gets it (`env`: the build's, as `GIT_COMMIT`). */
export async function askWithGit(question: string, log: string, dir: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  const workspaceSnippets = await snippetsFromDir(dir, log);
  const { changes: workspaceChanges, notRead } = await checkoutFromDir(dir, workspaceSnippets, env);
  const upload = { buildDetails: { result: 'FAILURE', consoleLog: log }, workspaceSnippets, ...(workspaceChanges ? { workspaceChanges } : {}), ...(notRead ? { workspaceChangesNotRead: notRead } : {}) } as CiContextUpload;
  return askLocal(question, analyzedChatContext(upload, log));
}

/** Deletes every directory made here. */
export function removeGitRepos(): void {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
}
