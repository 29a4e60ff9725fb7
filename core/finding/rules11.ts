/**
 * Evidence rules from round 11 once it was opened for tuning (issue 25, helper t12; docs/notes/analyzer.md,
 * "Round 11 opened (helper t12)"; round 12's, helper t13: "Round 12 opened (helper t13)"). Each is a tool's own wording for one cause, never a case's words.
 * Tried with RULES (rules.ts).
 */
import type { Rule } from './ruleTypes.js';

/**
 * Standard-library modules of one Python version and not another: added in 3.9 (zoneinfo, graphlib), 3.11
 * (tomllib, wsgiref.types); removed in 3.12 (distutils, imp, asynchat, asyncore, smtpd) and 3.13 (the PEP 594
 * "dead batteries"). Not found, the interpreter is the wrong version, not a package the environment lacks.
 */
const VERSIONED_STDLIB =
  'tomllib|zoneinfo|graphlib|distutils|imp|asynchat|asyncore|smtpd|aifc|audioop|cgi|cgitb|chunk|crypt|imghdr|mailcap|msilib|nis|nntplib|ossaudiodev|pipes|sndhdr|spwd|sunau|telnetlib|uu|xdrlib|lib2to3';

/** The go command's failed fetch of an imported module: `file.go:L:C: module@version: reading URL: ` and the status. */
const GO_FETCH = String.raw`^(\S+\.go):(\d+):(\d+): (\S+@\S+): (?:reading|verifying|downloading) \S+: `;
const goFetch = (m: RegExpExecArray): ReturnType<NonNullable<Rule['read']>> => ({ tool: 'go', dependency: m[4] as string, file: m[1] as string, line: Number(m[2]), column: Number(m[3]) });

export const ROUND11_RULES: Rule[] = [
  // Where the script ran a tool from the wrong directory or with a selection that names nothing: Maven's
  // MissingProjectException (`The goal you specified requires a project to execute but there is no POM in this
  // directory`), npm's `No workspaces found:` for its `--workspace` (helper t13): the script's call, ci-script.
  { cls: 'ci-script', priority: 15, confidence: 'high', re: /\bThe goal you specified requires a project to execute but there is no POM in this directory\b/, read: () => ({ tool: 'maven' }) },
  { cls: 'ci-script', priority: 15, confidence: 'high', re: /^npm (?:error|ERR!) No workspaces found:/, read: () => ({ tool: 'npm' }) },
  // `npx --no-install` (or a CI without a TTY) refusing to fetch a package that is not installed (`npm error npx
  // canceled due to missing packages and no YES option: ["pkg@v"]`): the tool is not there, missing-tool (helper t13).
  { cls: 'missing-tool', priority: 15, confidence: 'high', re: /^npm (?:error|ERR!) npx canceled due to missing packages and no YES option: \["([^"\]]+)"/, read: (m) => ({ tool: 'npx', dependency: m[1] as string }) },
  // The Maven enforcer's DependencyConvergence and RequireUpperBoundDeps rules (`Dependency convergence error for
  // g:a:jar:v. Paths to dependency are:`, `Require upper bound dependencies error for g:a:v paths to dependency are:`):
  // two paths of the dependency tree ask for different versions of one artifact, a resolution failure (helper t13).
  { cls: 'dependency-resolution', priority: 45, confidence: 'high', re: /\b(?:Dependency convergence|Require upper bound dependencies) error for (\S+?)\.? [Pp]aths to dependency are:/, read: (m) => ({ tool: 'maven-enforcer', dependency: m[1] as string }) },
  // bash's diagnostic on a variable of the script (`deploy.sh: line 3: DEPLOY_ENV: DEPLOY_ENV must be set`, the form of
  // `${VAR:?message}`, `X: readonly variable`, `X: parameter null or not set`): the script stopped on its own check of
  // its environment. Last resort (priority 58, the weakest strong rule): a tool's or the shell's own word on the same line (command not found,
  // Permission denied) wins; a warning is not a stop (helper t13).
  { cls: 'ci-script', priority: 58, confidence: 'medium', re: /^\S+: line \d+: (?!warning:)[A-Za-z_]\w*: (?!command not found$|Permission denied$|No such file or directory$|Is a directory$|cannot execute)\S/, read: () => ({ tool: 'sh' }) },
  // Round 12 (helper t13). mocha's report of an error thrown while it loaded or ran the test files, before any test
  // (`Exception during run: ReferenceError: require is not defined in ES module scope`): the suite failed to run.
  { cls: 'test-error', priority: 25, confidence: 'high', re: /^\s*Exception during run: ((?:[A-Z]\w*)?Error)\b/, read: (m) => ({ tool: 'mocha', exception: m[1] as string }) },
  // Exit status 141 is 128 + SIGPIPE (13): a reader that stops early (`head`, `grep -q`) closed the pipe, and
  // `set -o pipefail` made the writer's death the pipeline's failure: the script's construction, not the data.
  { cls: 'ci-script', priority: 26, confidence: 'medium', re: /\bexit (?:code|status) 141\b|\breturned exit code 141\b/, read: () => ({ tool: 'bash' }) },
  // The kernel's E2BIG (`cat: Argument list too long`, `/usr/bin/cp: Argument list too long`): a glob expanded past
  // the system's limit on exec's arguments; the step's exit 126 (cannot execute) is its consequence, no permission.
  { cls: 'ci-script', priority: 14, confidence: 'high', re: /: Argument list too long$/, read: () => ({ tool: 'sh' }) },
  // ESLint that finds no configuration file: v9's flat config (`ESLint couldn't find an eslint.config.(js|mjs|cjs)
  // file.`), v8's `ESLint couldn't find a configuration file.`: the project's setup for the linter, nothing linted.
  { cls: 'ci-script', priority: 15, confidence: 'high', re: /^ESLint couldn't find (?:an eslint\.config\.\S+ file|a configuration file)\./, read: () => ({ tool: 'eslint' }) },
  // pytest given a path that does not exist (`ERROR: file or directory not found: tests/unit`, exit 4 usage error).
  { cls: 'ci-script', priority: 15, confidence: 'high', re: /^ERROR: file (?:or directory )?not found: (\S+)/, read: (m) => ({ tool: 'pytest', symbol: m[1] as string }) },
  // npm meeting a dependency spec whose protocol it does not know (`Unsupported URL Type "workspace:": workspace:*`,
  // pnpm's and yarn's `workspace:`, `link:`, `portal:`): the manifest's dependency cannot be resolved by npm.
  { cls: 'dependency-resolution', priority: 45, confidence: 'high', re: /^npm (?:ERR!|error) Unsupported URL Type "([\w+-]+:)": (\S+)/, read: (m) => ({ tool: 'npm', dependency: m[2] as string }) },
  // A standard module of another Python version (see VERSIONED_STDLIB): the interpreter is the wrong one.
  {
    cls: 'missing-tool',
    priority: 46,
    confidence: 'high',
    re: new RegExp(String.raw`^(?:E\s+)?(ModuleNotFoundError): No module named '(${VERSIONED_STDLIB})'`),
    read: (m) => ({ tool: 'python', exception: m[1] as string, symbol: 'python' }),
  },
  // The go command fetching a module for an import (`cmd/x/main.go:6:2: example.com/retry@v0.3.0: reading
  // https://proxy/example.com/retry/@v/v0.3.0.zip: 401 Unauthorized`): the place is the import, the failure the
  // module proxy's answer: 401/403 a credential, 404/410 a version that is not there, anything else the network.
  { cls: 'permission-credentials', priority: 20, confidence: 'high', re: new RegExp(String.raw`${GO_FETCH}40[13]\b`), read: goFetch },
  { cls: 'dependency-resolution', priority: 20, confidence: 'high', re: new RegExp(String.raw`${GO_FETCH}(?:404|410)\b`), read: goFetch },
  { cls: 'network', priority: 20, confidence: 'medium', re: new RegExp(String.raw`${GO_FETCH}5\d\d\b`), read: goFetch },
  // cargo: a path dependency whose manifest is not there (`failed to load manifest for dependency `x`` ... `failed
  // to read `/ws/crates/x/Cargo.toml``), and a vendored crate whose files differ from its checksum file (`the listed
  // checksum of `vendor/x/src/lib.rs` has changed:` over `expected:` / `actual:` hashes, no test's values).
  { cls: 'dependency-resolution', priority: 30, confidence: 'high', re: /^\s*failed to read `[^`]*\/Cargo\.toml`/, read: () => ({ tool: 'cargo' }) },
  { cls: 'dependency-resolution', priority: 20, confidence: 'high', re: /^error: the listed checksum of `[^`]+` has changed:?$/, read: () => ({ tool: 'cargo' }) },
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
