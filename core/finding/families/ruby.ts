/**
 * Ruby: evidence rules of the tuning rounds 13 (issue 25; docs/notes/analyzer.md, each
 * round's "opened" section), kept by tool family (rv3, session 43). Each is a tool's own wording for one cause,
 * never a case's words. Tried with RULES (rules.ts): `RUBY_FIRST_RULES` before the general rules (each is
 * narrower than a general rule that matches the same line), `RUBY_RULES` after the general rules and the cross-tool families' (rules.ts).
 */
import type { Rule } from '../ruleTypes.js';

export const RUBY_FIRST_RULES: Rule[] = [
  // Bundler: a git gem's ref its repository does not have (`Revision v1.1.0 does not exist in the repository URL. Maybe you
  // misspelled it?`, MissingGitRevisionError; ux18).
  { cls: 'dependency-resolution', priority: 44, confidence: 'high', re: /^Revision (\S+) does not exist in the repository \S+?\.? Maybe you misspelled it\?/, read: (m) => ({ tool: 'bundler', symbol: m[1] as string }) },
  // Ruby's net/protocol giving up on a peer (`Net::ReadTimeout with #<Socket:(closed)> (Net::ReadTimeout)`, raised in
  // rbuf_fill; `Net::OpenTimeout`, `Net::WriteTimeout`): the server did not answer in time, the network's side.
  { cls: 'network', priority: 40, confidence: 'high', re: /\(Net::(?:Read|Open|Write)Timeout\)$|^(?:\S+:\d+:in `[^']+': )?Net::(?:Read|Open|Write)Timeout\b/, read: (m) => ({ tool: 'ruby', exception: /Net::\w+Timeout/.exec(m[0])?.[0] as string }) },
  // Ruby's report of an uncaught exception (`bin/import:9:in 'block in <main>': undefined method 'strip' for nil
  // (NoMethodError)`; before 3.4 a backtick opens the method): a run-time exception at the script's line.
  {
    cls: 'runtime-exception',
    priority: 50,
    confidence: 'high',
    re: /^((?:[\w.-]+\/)*[\w.-]+):(\d+):in [`'][^']*': .* \(((?:[A-Z]\w*::)*(?!LoadError\))[A-Z]\w*(?:Error|Exception))\)$/,
    read: (m) => ({ tool: 'ruby', exception: m[3] as string, file: m[1] as string, line: Number(m[2]) }),
  },
  // Ruby's `require` of a library that is not installed (`cannot load such file -- nokogiri (LoadError)`): a gem the
  // bundle lacks; medium, the name may also be a file of the project's own off the load path. A relative path
  // (`require_relative`, `./lib/x`) is the project's own file, not read here.
  { cls: 'dependency-resolution', priority: 45, confidence: 'medium', re: /\bcannot load such file -- (?![./])([\w-]+(?:\/[\w-]+)*) \(LoadError\)/, read: (m) => ({ tool: 'ruby', dependency: m[1] as string, exception: 'LoadError' }) },
];
