/**
 * cargo's missing git ref under its `Caused by:` chain (helper fx21, session 57; ux18's leftover): cargo prints
 * `error: failed to get `ledger` as a dependency` and, three `Caused by:` headings below, `failed to find tag `v1.1.0``.
 * The ref line is the finding's message (the ref as its symbol), so the fix names the manifest line that pins it. The
 * lines were made on this machine with cargo 1.8x against a local repository holding tag v1.0.0 only.
 */
import { analyzedLog } from './helpers/analyzedLog.js';
import { askWithGit as ask, gitRepo, removeGitRepos } from './helpers/gitRepo.js';
import { checkCitations } from './helpers/claimChecks.js';

afterAll(removeGitRepos);

const job = (command: string, output: string[]): string => ['Started by an SCM change', '[app] $ /bin/sh -xe /tmp/jenkins3.sh', `+ ${command}`, ...output, "Build step 'Execute shell' marked build as failure", 'Finished: FAILURE', ''].join('\n');

const chain = (kind: 'tag' | 'branch', ref: string, last: string[]): string[] => [
  '    Updating git repository `https://git.example.com/acme/ledger.git`',
  'error: failed to get `ledger` as a dependency of package `app v0.1.0 (/var/lib/jenkins/workspace/app)`',
  '',
  'Caused by:',
  '  failed to load source for dependency `ledger`',
  '',
  'Caused by:',
  `  unable to update https://git.example.com/acme/ledger.git?${kind}=${ref}`,
  '',
  'Caused by:',
  ...last,
];
const CARGO = job('cargo build --locked', chain('tag', 'v1.1.0', ['  failed to find tag `v1.1.0`', '', 'Caused by:', "  reference 'refs/remotes/origin/tags/v1.1.0' not found; class=Reference (4); code=NotFound (-3)"]));
const BRANCH = job('cargo build', chain('branch', 'release-2', ['  failed to find branch `release-2`', '', 'Caused by:', "  cannot locate remote-tracking branch 'origin/release-2'; class=Reference (4); code=NotFound (-3)"]));

describe("cargo's missing git ref under `Caused by:`", () => {
  it('every excerpt: dependency-resolution, the ref line the message, the ref the symbol, the dependency kept', () => {
    // Before: the first excerpt's message was `error: failed to get `ledger` as a dependency ...` (no ref read).
    const excerpts = analyzedLog(CARGO).excerpts;
    expect(excerpts.length).toBeGreaterThan(0);
    for (const e of excerpts) {
      expect(e.finding?.class).toBe('dependency-resolution');
      expect(e.finding?.message).toBe('failed to find tag `v1.1.0`');
      expect(e.finding?.symbol).toBe('v1.1.0');
    }
    expect(excerpts[0]?.finding?.dependency).toBe("ledger");
  });

  it('a branch', () => {
    const f = analyzedLog(BRANCH).excerpts[0]?.finding;
    expect(f?.message).toBe('failed to find branch `release-2`');
    expect(f?.symbol).toBe('release-2');
  });

  it('counter-example: a chain whose cause is the network keeps the network', () => {
    const log = job('cargo build', chain('tag', 'v1.1.0', ["  failed to connect to git.example.com: Connection refused; class=Net (12)"]));
    const f = analyzedLog(log).excerpts[0]?.finding;
    expect(f?.class).toBe('network');
  });

  it('the fix names the line of Cargo.toml that pins the ref, and the change block shows the hunk', async () => {
    const manifest = (tag: string): string => `[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\nledger = { git = "https://git.example.com/acme/ledger.git", tag = "${tag}" }\n`;
    const { dir } = gitRepo([
      { message: 'Start', files: { 'Cargo.toml': manifest('v1.0.0'), 'src/main.rs': 'fn main() {}\n' } },
      { message: 'Bump ledger', files: { 'Cargo.toml': manifest('v1.1.0') } },
    ], { prefix: 'cichat-fx21-' });
    const fix = await ask('how do I fix it?', CARGO, dir);
    expect(checkCitations(fix, CARGO.split('\n'))).toEqual([]);
    expect(fix).toContain('`Cargo.toml:7` pins `v1.1.0`');
    expect(fix).toContain('Line 7 of `Cargo.toml`');
    expect(fix).not.toContain('Nothing here shows it caused the failure');
  });
});
