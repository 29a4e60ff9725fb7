/**
 * Evidence rules from round 16 once it was opened for tuning (issue 25, helper t17; docs/notes/analyzer.md,
 * "Round 16 opened (helper t17)"). Each is a tool's documented wording for one cause, never a case's words, and
 * each is checked on made-up logs of other projects in core/finding/round16.test.ts. Tried with RULES (rules.ts).
 */
import type { Rule } from './ruleTypes.js';

export const ROUND16_RULES: Rule[] = [
  // Node refusing a command-line flag it does not know (`node: bad option: --experimental-strip-types`, exit 9): a flag
  // of a later Node than the one on the agent (or a misspelt one: medium).
  { cls: 'missing-tool', priority: 15, confidence: 'medium', re: /^(?:\S*\/)?node: bad option: (--?[\w-]+)/, read: () => ({ tool: 'node', symbol: 'node' }) },
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
  // cargo's resolver refusing a dependency graph with a cycle (`error: cyclic package dependency: package `a v0.1.0
  // (...)` depends on itself. Cycle:`): the manifests' dependencies, before anything compiles.
  { cls: 'dependency-resolution', priority: 15, confidence: 'high', re: /^error: cyclic package dependency: package `/, read: () => ({ tool: 'cargo' }) },
  // Go's text/template or html/template failing while it executes (`template: report.tmpl:4:11: executing
  // "report.tmpl" at <.Total>: can't evaluate field Total in type main.Summary`, template.ExecError): the program's
  // error at run time, at the template's line and column.
  {
    cls: 'runtime-exception',
    priority: 50,
    confidence: 'high',
    re: /\btemplate: ([\w./-]+\.\w+):(\d+):(\d+): executing "[^"]*" at <[^>]*>: \S/,
    read: (m) => ({ tool: 'go', exception: 'template.ExecError', file: m[1] as string, line: Number(m[2]), column: Number(m[3]) }),
  },
];
