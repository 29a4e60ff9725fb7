/**
 * git: evidence rules of the tuning rounds 10, 13, 16 (issue 25; docs/notes/analyzer.md, each
 * round's "opened" section), kept by tool family (rv3, session 43). Each is a tool's own wording for one cause,
 * never a case's words. Tried with RULES (rules.ts): `GIT_FIRST_RULES` before the general rules (each is
 * narrower than a general rule that matches the same line), `GIT_RULES` after the rules of rounds 4-9.
 */
import type { Rule } from '../ruleTypes.js';

export const GIT_FIRST_RULES: Rule[] = [
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
];

export const GIT_RULES: Rule[] = [
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
