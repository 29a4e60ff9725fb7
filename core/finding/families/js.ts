/**
 * JavaScript: node, npm, npx, mocha, ESLint, JSON.parse: evidence rules of the tuning rounds 4, 10, 11, 16 (issue 25; docs/notes/analyzer.md, each
 * round's "opened" section), kept by tool family (rv3, session 43). Each is a tool's own wording for one cause,
 * never a case's words. Tried with RULES (rules.ts): `JS_FIRST_RULES` before the general rules (each is
 * narrower than a general rule that matches the same line), `JS_RULES` after the general rules and the cross-tool families' (rules.ts).
 */
import type { Rule } from '../ruleTypes.js';

export const JS_FIRST_RULES: Rule[] = [
  // npm's checkout of a git dependency's ref the repository does not have (npm 10: `npm error The git reference could not
  // be found` over git's `npm error error: pathspec 'v1.1.0' did not match ...`; ux18).
  { cls: 'dependency-resolution', priority: 44, confidence: 'high', re: /^npm (?:error|ERR!) error: pathspec '([^']+)' did not match any file\(s\) known to git/, read: (m) => ({ tool: 'npm', symbol: m[1] as string }) },
  // Node refusing a command-line flag it does not know (`node: bad option: --experimental-strip-types`, exit 9): a flag
  // of a later Node than the one on the agent (or a misspelt one: medium).
  { cls: 'missing-tool', priority: 15, confidence: 'medium', re: /^(?:\S*\/)?node: bad option: (--?[\w-]+)/, read: () => ({ tool: 'node', symbol: 'node' }) },
  // Node's loader asked for a built-in module it does not have (`Error [ERR_UNKNOWN_BUILTIN_MODULE]: No such built-in
  // module: node:sqlite`): a module of a later Node than the agent's (or a misspelt name: medium), as above (session 51, t26).
  { cls: 'missing-tool', priority: 15, confidence: 'medium', re: /^(?:\w*Error )?\[?ERR_UNKNOWN_BUILTIN_MODULE\]?: No such built-in module: (\S+)/, read: (m) => ({ tool: 'node', symbol: m[1] as string }) },
  // tsc naming a type package it cannot find (`error TS2688: Cannot find type definition file for 'mocha'.`, from
  // tsconfig's `types` or a `/// <reference types>`): the declarations are not installed, a dependency, before the
  // general `error TSnnnn` compile rule (session 51, t26).
  { cls: 'dependency-resolution', priority: 30, confidence: 'high', re: /\berror TS2688: Cannot find type definition file for '([^']+)'/, read: () => ({ tool: 'tsc', code: 'TS2688' }) },
];

export const JS_RULES: Rule[] = [
  // ESLint's option parser (optionator) refusing a flag of the command line (`Invalid option '--ignore-path' - perhaps
  // you meant '--ignore-pattern'?`; eslintrc-only flags under a flat config): the script's command is wrong, nothing
  // was linted (session 53, t28: round 27).
  { cls: 'ci-script', priority: 15, confidence: 'high', re: /^Invalid option '(--?[\w-]+)'(?: - perhaps you meant '[^']+'\?)?$/, read: (m) => ({ tool: 'eslint', symbol: m[1] as string }) },
  // npm's fetch that got no answer in time (`npm error network timeout at: http://mirror/pkg`, code FETCH_ERROR): the
  // registry did not answer, the network's side.
  { cls: 'network', priority: 40, confidence: 'high', re: /^npm (?:ERR!|error) network timeout at: (\S+)/, read: (m) => ({ tool: 'npm', ...(/^https?:\/\/([\w.-]+)/.exec(m[1] as string)?.[1] ? { host: /^https?:\/\/([\w.-]+)/.exec(m[1] as string)?.[1] as string } : {}) }) },
  // `npm ls` finding the installed tree unlike package.json (`npm error code ELSPROBLEMS` over `npm error invalid:
  // ms@2.1.2 /ws/node_modules/ms`, or `missing: x@^1, required by y`): the installed dependencies are wrong.
  { cls: 'dependency-resolution', priority: 45, confidence: 'high', re: /^npm (?:ERR!|error) (?:invalid|missing): ((?:@[\w.-]+\/)?[\w.-]+)@/, read: (m) => ({ tool: 'npm', dependency: m[1] as string }) },
  // Node's ESM resolver naming a package it cannot find (`Error [ERR_MODULE_NOT_FOUND]: Cannot
  // find package 'js-yaml' imported from ...`): the dependency is not installed.
  { cls: 'dependency-resolution', priority: 47, confidence: 'high', re: /^(?:\w*Error )?\[?ERR_MODULE_NOT_FOUND\]?: Cannot find (?:package|module) '((?![./])[^']+)'/, read: (m) => ({ tool: 'node', exception: 'Error', dependency: m[1] as string }) },
  // The interpreter asked to run a script the checkout does not have: Python's `python3: can't open file '/ws/x.py':
  // [Errno 2] No such file or directory`, Node's `Error: Cannot find module '/ws/scripts/x.js'` for its entry point
  // (an empty `requireStack: []`: no module of the project's required it). The CI script names a wrong path
  // (helper t12). A module another one requires, or a package name, is a dependency (rules.ts).
  { cls: 'ci-script', priority: 15, confidence: 'medium', re: /^Error: Cannot find module '((?:[A-Za-z]:)?[./\\][^']*)'$/, near: { re: /^\s*requireStack: \[\]\s*$/, from: 1, to: 12, required: true }, read: (m) => ({ tool: 'node', symbol: m[1] as string }) },
  // Where the script ran a tool from the wrong directory or with a selection that names nothing: Maven's
  // MissingProjectException (`The goal you specified requires a project to execute but there is no POM in this
  // directory`), npm's `No workspaces found:` for its `--workspace` (helper t13): the script's call, ci-script.
  { cls: 'ci-script', priority: 15, confidence: 'high', re: /^npm (?:error|ERR!) No workspaces found:/, read: () => ({ tool: 'npm' }) },
  // `npx --no-install` (or a CI without a TTY) refusing to fetch a package that is not installed (`npm error npx
  // canceled due to missing packages and no YES option: ["pkg@v"]`): the tool is not there, missing-tool (helper t13).
  { cls: 'missing-tool', priority: 15, confidence: 'high', re: /^npm (?:error|ERR!) npx canceled due to missing packages and no YES option: \["([^"\]]+)"/, read: (m) => ({ tool: 'npx', dependency: m[1] as string }) },
  // npx given a package whose bins have none of its name (`npm error could not determine executable to run`, npm >= 7:
  // `npx @scope/pkg` picks the bin named after the package, or its only one): the script's call names no program the
  // package has (round 19, t20).
  { cls: 'ci-script', priority: 15, confidence: 'high', re: /^npm (?:error|ERR!) could not determine executable to run$/, read: () => ({ tool: 'npx' }) },
  // Round 12 (helper t13). mocha's report of an error thrown while it loaded or ran the test files, before any test
  // (`Exception during run: ReferenceError: require is not defined in ES module scope`): the suite failed to run.
  { cls: 'test-error', priority: 25, confidence: 'high', re: /^\s*Exception during run: ((?:[A-Z]\w*)?Error)\b/, read: (m) => ({ tool: 'mocha', exception: m[1] as string }) },
  // ESLint that finds no configuration file: v9's flat config (`ESLint couldn't find an eslint.config.(js|mjs|cjs)
  // file.`), v8's `ESLint couldn't find a configuration file.`: the project's setup for the linter, nothing linted.
  { cls: 'ci-script', priority: 15, confidence: 'high', re: /^ESLint couldn't find (?:an eslint\.config\.\S+ file|a configuration file)\./, read: () => ({ tool: 'eslint' }) },
  // npm meeting a dependency spec whose protocol it does not know (`Unsupported URL Type "workspace:": workspace:*`,
  // pnpm's and yarn's `workspace:`, `link:`, `portal:`): the manifest's dependency cannot be resolved by npm.
  { cls: 'dependency-resolution', priority: 45, confidence: 'high', re: /^npm (?:ERR!|error) Unsupported URL Type "([\w+-]+:)": (\S+)/, read: (m) => ({ tool: 'npm', dependency: m[2] as string }) },
  // JSON.parse's own SyntaxError (`... in JSON at position 117`, `Unexpected end of JSON input`, `"x" is not valid
  // JSON`, Firefox's `JSON.parse: ...`): data read at run time did not parse, the code's syntax is fine.
  {
    cls: 'runtime-exception',
    priority: 28,
    confidence: 'high',
    re: /^(?:Uncaught )?SyntaxError: (?:.* in JSON at position \d+|Unexpected end of JSON input|.* is not valid JSON|JSON\.parse: )/,
    read: () => ({ exception: 'SyntaxError' }),
  },
];
