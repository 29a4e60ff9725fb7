/**
 * git: evidence rules of the tuning rounds 4, 5, 10, 13, 16 (issue 25; docs/notes/analyzer.md, each
 * round's "opened" section), kept by tool family (rv3, session 43). Each is a tool's own wording for one cause,
 * never a case's words. Tried with RULES (rules.ts): `GIT_FIRST_RULES` before the general rules (each is
 * narrower than a general rule that matches the same line), `GIT_RULES` after the general rules and the cross-tool families' (rules.ts).
 */
import type { Rule } from '../ruleTypes.js';
import { at, PATH } from './shapes.js';

export const GIT_FIRST_RULES: Rule[] = [
  // OpenSSH's line under which git prints its catch-all `fatal: Could not read from remote repository.` (for every ssh
  // failure): closed or reset before or during the version exchange (`kex_exchange_identification: ...`), or after it
  // (`Connection closed by 203.0.113.7 port 47913`): the network's, whatever git says of access rights (ux18).
  { cls: 'network', priority: 39, confidence: 'high', re: /^(?:kex|ssh)_exchange_identification: \S|^Connection (?:closed|reset) by (\S+) port \d+|^Connection timed out during banner exchange/, read: (m) => ({ tool: 'ssh', ...(m[1] ? { host: m[1] } : {}) }) },
  // git's HTTP transport failing mid-transfer (`error: RPC failed; curl 92 HTTP/2 stream 5 was not closed cleanly`,
  // `error: RPC failed; HTTP 502 curl 22 ...`): the connection, not the repository.
  { cls: 'network', priority: 40, confidence: 'medium', re: /^error: RPC failed; (?:curl \d+|HTTP 5\d\d)\b/, read: () => ({ tool: 'git' }) },
  // git's dispatcher finding no `git-<name>` program for a subcommand (`git: 'lfs' is not a git command. See 'git
  // --help'.`): an extension (git-lfs, git-crypt, git-annex) not installed, or a misspelt subcommand (medium).
  { cls: 'missing-tool', priority: 15, confidence: 'medium', re: /^git: '([\w-]+)' is not a git command\b/, read: (m) => ({ tool: 'git', symbol: `git-${m[1] as string}` }) },
  // git's refusal of a repository another user owns (git >= 2.35.2, CVE-2022-24765: `fatal: detected dubious ownership in
  // repository at '/path'`, until `safe.directory` names it): a matter of ownership and permission, not of the code.
  { cls: 'permission-credentials', priority: 15, confidence: 'high', re: /^fatal: detected dubious ownership in repository at '/, read: () => ({ tool: 'git' }) },
  // A remote that answers that the repository is not there (`fatal: repository 'https://host/org/x.git/' not found`: an
  // HTTP remote's 404): the build fetches a repository that was renamed, removed or misnamed.
  { cls: 'dependency-resolution', priority: 45, confidence: 'medium', re: /^fatal: repository '([^']+)' not found$/, read: () => ({ tool: 'git' }) },
  // `git describe` with no tag reachable (`fatal: No names found, cannot describe anything.`): a clone without tags (a
  // shallow or tag-less fetch) under a script that derives a version from them.
  { cls: 'ci-script', priority: 15, confidence: 'medium', re: /^fatal: No names found, cannot describe anything\.$/, read: () => ({ tool: 'git' }) },
  // git refusing a push: ` ! [rejected]        HEAD -> main (fetch first)`, ` ! [remote rejected] main -> main (pre-receive hook declined)`.
  // The remote's own failure to store the push (`(unpacker error)`, `(failed to update ref)`) is no refusal of the script's:
  // its reason is git's `error: remote unpack failed: <reason>` above the row.
  { cls: 'ci-script', priority: 40, confidence: 'high', re: /^\s*! \[(?:rejected|remote rejected)\]\s+\S+ -> \S+ \((?!unpacker error\)|failed to update ref\)|failed to write\b).+\)$/, read: () => ({ tool: 'git' }) },
  // ... that the remote could not create its object directory: the pushing user may not write the repository (git's
  // receive-pack says so for a repository owned by another user), medium: a full disk says it in the same words.
  { cls: 'permission-credentials', priority: 39, confidence: 'medium', re: /^error: remote unpack failed: (?:unable to create temporary object directory|.*\b(?:insufficient permission|[Pp]ermission denied)\b)/, read: () => ({ tool: 'git' }) },
  // git's whitespace check (`git diff --check`, the sample pre-commit hook): `docs/x.md:5: trailing whitespace.`
  { cls: 'lint', priority: 40, confidence: 'high', re: new RegExp(String.raw`^${PATH}:(\d+): (?:trailing whitespace|space before tab in indent|indent with spaces|new blank line at EOF|leftover conflict marker)\.$`), read: (m) => ({ tool: 'git', ...at(m[1], m[2]) }) },
];

export const GIT_RULES: Rule[] = [
  // A pinned commit the remote does not have (a submodule's commit never pushed, a lock's revision gone).
  { cls: 'dependency-resolution', priority: 44, confidence: 'high', re: /\bdid not contain [0-9a-f]{7,40}\b|\breference is not a tree: [0-9a-f]{7,40}\b|\bUnable to checkout '[0-9a-f]{7,40}' in submodule path\b/, read: () => ({ tool: 'git' }) },
  { cls: 'dependency-resolution', priority: 46, confidence: 'medium', re: /\bnot our ref [0-9a-f]{7,40}\b/, read: () => ({ tool: 'git' }) },
  // A name the script creates that already exists: git's tag/branch/remote, a clone's non-empty directory.
  { cls: 'ci-script', priority: 14, confidence: 'high', re: /^fatal: (?:(?:tag|branch|remote|worktree) '[^']+' already exists|a branch named '[^']+' already exists|destination path '[^']+' already exists and is not an empty directory)/, read: () => ({ tool: 'git' }) },
  // `git apply` / `git am` of a patch whose context the file no longer has (`error: patch failed: src/x.c:16` over
  // `error: src/x.c: patch does not apply`): the script's patch and the source it patches disagree (round 19, t20);
  // the hunk's place is the one `patch failed:` names.
  {
    cls: 'ci-script',
    priority: 15,
    confidence: 'medium',
    re: /^error: (\S+): patch does not apply$/,
    near: { re: /^error: patch failed: (?<file>\S+):(?<line>\d+)$/, from: -3, to: -1 },
    read: () => ({ tool: 'git' }),
  },
  // git run where the checkout is not (`fatal: not a git repository (or any of the parent directories): .git`): the
  // script's working directory, not the code (helper t12).
  { cls: 'ci-script', priority: 15, confidence: 'medium', re: /^fatal: not a git repository \(or any of the parent directories\)/, read: () => ({ tool: 'git' }) },
];
