/**
 * The machine's tools: a program or an add-on the build needs that is not installed, or a language runtime of
 * another version than a package requires. Rules of the tuning rounds 4 and 5 (issue 25, helpers fix4a, fix5a,
 * fix5b; docs/notes/analyzer.md), kept by what they concern (rv5, session 45). Tried with RULES (rules.ts):
 * after the general rules, as before.
 */
import type { Rule } from '../ruleTypes.js';

export const TOOLCHAIN_RULES: Rule[] = [
  // mix refusing the running Elixir for the project's `elixir:` requirement (`** (Mix) You're trying to run :ledger on
  // Elixir v1.14.0 but it has declared in its mix.exs file it supports only Elixir ~> 1.16`): the agent's Elixir is too old.
  { cls: 'missing-tool', priority: 54, confidence: 'high', re: /^\*\* \(Mix\) You're trying to run :\w+ on Elixir v[\w.-]+ but it has declared in its mix\.exs file it supports only Elixir /, read: () => ({ tool: 'mix', symbol: 'elixir' }) },
  // A package's engines field the running runtime does not satisfy: the line naming the required
  // version (`npm error notsup Required: {"node":">=22.11.0"}`) says more than `Unsupported engine`.
  { cls: 'missing-tool', priority: 54, confidence: 'high', re: /^(?:npm|pnpm|yarn) (?:error|ERR!|ERR_PNPM_\w+) (?:notsup )?Required: \{"(node|npm|pnpm|yarn)":/, read: (m) => ({ tool: 'node', symbol: m[1] as string }) },
  // A program the tool needs is not installed, and the tool says to install it by the same name
  // (`pdflatex not found. Please select a different --pdf-engine or install pdflatex`).
  { cls: 'missing-tool', priority: 55, confidence: 'high', re: /^(?:[\w.+-]+: )?['"`]?([\w.+-]+)['"`]? (?:not found|is not installed|was not found|could not be found)\b.*\binstall (?:(?:the )?package )?['"`]?\1\b/, read: (m) => ({ symbol: m[1] as string }) },
  // A package that asks for another version of the language than the one running (`Package 'x'
  // requires a different Python: 3.11.7 not in '>=3.12'`, `requires Ruby version >= 3.2`): the
  // machine has the wrong version of a tool.
  { cls: 'missing-tool', priority: 54, confidence: 'high', re: /\brequires a different (Python|Ruby|PHP|Node(?:\.js)?|Java|Perl)\b|\brequires (Python|Ruby|PHP|Node(?:\.js)?|Java|Perl) (?:version )?[<>=~^]+ ?\d/i, read: (m) => ({ symbol: (m[1] ?? m[2]) as string }) },
  // A tool that cannot load an add-on, plugin or extension it was told to use: the package providing it is not installed.
  { cls: 'missing-tool', priority: 35, confidence: 'medium', re: /\b(?:error|Error|ERROR): (?:unable to|cannot|could not|failed to) load (?:the )?(?:addon|add-on|plugin|extension|module) [`'"‘]?([\w.:/-]+)/, read: (m) => ({ dependency: m[1] as string }) },
];
