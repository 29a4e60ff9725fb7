/**
 * A dependency's git ref that its repository does not have (helper ux18, session 56; docs/notes/answer.md "Session 56
 * (helper ux18)"): class dependency-resolution, the ref-not-found line the message, and the fix names the manifest line
 * that pins the ref; when the last commit changed that line, the change block shows the hunk. The tools' lines were made
 * on this machine against a local repository with tag v1.0.0 only (mix 1.14, pip 24, npm 10, go 1.19, cargo 1.8x;
 * bundler's wording from its MissingGitRevisionError).
 */
import { analyzedLog } from './helpers/analyzedLog.js';
import { askWithGit as ask, gitRepo, removeGitRepos } from './helpers/gitRepo.js';
import { checkCitations } from './helpers/claimChecks.js';

afterAll(removeGitRepos);

const job = (command: string, output: string[]): string => ['Started by an SCM change', '[app] $ /bin/sh -xe /tmp/jenkins2.sh', `+ ${command}`, ...output, "Build step 'Execute shell' marked build as failure", 'Finished: FAILURE', ''].join('\n');

const MIX = job('mix deps.get', ['* Getting auth (https://git.example.com/acme/auth.git - v1.1.0)', "error: pathspec 'v1.1.0' did not match any file(s) known to git", '** (Mix) Command "git --git-dir=.git checkout --quiet v1.1.0" failed']);
const PIP = job('pip install -r requirements.txt', [
  'Collecting auth (from -r requirements.txt (line 1))',
  '  Cloning https://git.example.com/acme/auth.git (to revision v1.1.0) to /tmp/pip-install-k2/auth_1',
  '  Running command git clone --filter=blob:none --quiet https://git.example.com/acme/auth.git /tmp/pip-install-k2/auth_1',
  "  WARNING: Did not find branch or tag 'v1.1.0', assuming revision or ref.",
  '  Running command git checkout -q v1.1.0',
  "  error: pathspec 'v1.1.0' did not match any file(s) known to git",
  '  error: subprocess-exited-with-error',
  '  ',
  '  × git checkout -q v1.1.0 did not run successfully.',
  '  │ exit code: 1',
  '  ╰─> See above for output.',
]);
const NPM = job('npm ci', ['npm error code 1', 'npm error The git reference could not be found', 'npm error command git --no-replace-objects checkout v1.1.0', "npm error error: pathspec 'v1.1.0' did not match any file(s) known to git", 'npm error A complete log of this run can be found in: /var/lib/jenkins/.npm/_logs/2026-12-01T03_57_05_383Z-debug-0.log']);
const GO = job('go build ./...', ['go: downloading git.example.com/acme/auth.git v1.1.0', 'main.go:2:8: reading git.example.com/acme/auth.git/go.mod at revision v1.1.0: unknown revision v1.1.0']);
const BUNDLER = job('bundle install', ['Fetching https://git.example.com/acme/auth.git', 'Revision v1.1.0 does not exist in the repository https://git.example.com/acme/auth.git. Maybe you misspelled it?']);

const findingOf = (log: string) => analyzedLog(log).excerpts[0]?.finding;

describe("a dependency's git ref that does not exist", () => {
  it.each([
    ['mix', MIX, "error: pathspec 'v1.1.0' did not match any file(s) known to git"],
    ['pip', PIP, "error: pathspec 'v1.1.0' did not match any file(s) known to git"],
    ['npm', NPM, "npm error error: pathspec 'v1.1.0' did not match any file(s) known to git"],
    ['go', GO, 'main.go:2:8: reading git.example.com/acme/auth.git/go.mod at revision v1.1.0: unknown revision v1.1.0'],
    ['bundler', BUNDLER, 'Revision v1.1.0 does not exist in the repository https://git.example.com/acme/auth.git. Maybe you misspelled it?'],
  ])('%s: dependency-resolution, the ref-not-found line', (_tool, log, message) => {
    // Before: mix, pip, npm and bundler were unknown (low), go's was a compile-error (medium).
    const f = findingOf(log);
    expect(f?.class).toBe('dependency-resolution');
    expect(f?.message).toBe(message);
  });

  it("counter-example: the build's own `git checkout` of a path is not a dependency's", () => {
    const f = findingOf(job('git checkout config/app.env', ["error: pathspec 'config/app.env' did not match any file(s) known to git"]));
    expect(f?.class).not.toBe('dependency-resolution');
  });

  it('mix: the fix names the line of mix.exs that pins the ref, and the change block shows the hunk', async () => {
    const mixExs = (tag: string): string => `defmodule App.MixProject do\n  use Mix.Project\n  def project, do: [app: :app, version: "0.1.0", deps: deps()]\n  defp deps do\n    [\n      {:auth, git: "https://git.example.com/acme/auth.git", tag: "${tag}"}\n    ]\n  end\nend\n`;
    const { dir } = gitRepo([
      { message: 'Start', files: { 'mix.exs': mixExs('v1.0.0'), 'lib/app.ex': 'defmodule App do end\n' } },
      { message: 'Bump auth', files: { 'mix.exs': mixExs('v1.1.0') } },
    ], { prefix: 'cichat-ux18-' });
    const fix = await ask('how do I fix it?', MIX, dir);
    expect(checkCitations(fix, MIX.split('\n'))).toEqual([]);
    expect(fix).toContain('`mix.exs:6` pins `v1.1.0` (`{:auth, git: "https://git.example.com/acme/auth.git", tag: "v1.1.0"}`), the ref the dependency\'s repository does not have [L5-L5]');
    // The change block shows the hunk (old ref -> new ref), not "Nothing here shows it caused the failure".
    expect(fix).toContain('Line 6 of `mix.exs`, which `mix` resolves the dependencies from (`mix deps.get` [L3-L3] failed resolving them): commit');
    expect(fix).toContain('changed `{:auth, git: "https://git.example.com/acme/auth.git", tag: "v1.0.0"}` to `{:auth, git: "https://git.example.com/acme/auth.git", tag: "v1.1.0"}`');
    expect(fix).not.toContain('Nothing here shows it caused the failure');
  });

  it('pip: the line of requirements.txt that pins the ref', async () => {
    const { dir } = gitRepo([{ message: 'Start', files: { 'requirements.txt': 'requests==2.32.3\nauth @ git+https://git.example.com/acme/auth.git@v1.1.0\n' } }], { prefix: 'cichat-ux18-' });
    const fix = await ask('how do I fix it?', PIP, dir);
    expect(checkCitations(fix, PIP.split('\n'))).toEqual([]);
    expect(fix).toContain('`requirements.txt:2` pins `v1.1.0` (`auth @ git+https://git.example.com/acme/auth.git@v1.1.0`)');
  });
});
