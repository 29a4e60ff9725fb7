/**
 * Compilers and other processors of source files: a diagnostic at a place of the input that another line
 * (a heading above, a verdict below, the tool's own prefix) makes the failure, and a build definition or a
 * server's configuration that does not parse. Rules of the tuning rounds 4 and 5 (issue 25, helpers fix4a,
 * fix4b, fix5a; docs/notes/analyzer.md), kept by what they concern (rv5, session 45). Tried with RULES
 * (rules.ts): `COMPILER_FIRST_RULES` before the general rules, `COMPILER_RULES` after them and after the test
 * verdicts (testVerdicts.ts). The order matters where two rules read one line: the place line under a
 * `warnings treated as errors` heading is that rule's before the compiler heading's (a gcc line can be under
 * both), and a place line over an `Expected:` is a check's before the fatal-verdict rule's here.
 */
import type { Rule } from '../ruleTypes.js';
import { at, PATH, SRC } from './shapes.js';

export const COMPILER_FIRST_RULES: Rule[] = [
  // A server's error log at its gravest levels naming a line of its configuration (nginx's `2026/11/25 02:05:13 [emerg] 1#1: unknown directive "x" in /etc/nginx/nginx.conf:26`):
  // the configuration does not parse, the server's compile error.
  { cls: 'compile-error', priority: 56, confidence: 'medium', re: new RegExp(String.raw`^\d{4}/\d\d/\d\d \d\d:\d\d:\d\d \[(?:emerg|alert|crit)\] \d+#\d+: (?:\*\d+ )?(.+?) in ${PATH}:(\d+)$`), read: (m) => at(m[2], m[3]) },
  // A warning the build treats as an error (`Warning, treated as error:` of sphinx -W, `warnings
  // being treated as errors`, `-Werror`): the place under the heading is what stopped the build.
  {
    cls: 'compile-error',
    priority: 30,
    confidence: 'high',
    re: new RegExp(String.raw`^(${SRC}\.\w{1,8}):(\d+):(?:(\d+):)?\s*(?!\d)\S`),
    near: { re: /^(?:Warning, treated as error:?|.*\bwarnings? (?:are |being )?treated as errors?\b.*)$/i, from: -3, to: -1, required: true },
    read: (m) => ({ file: m[1] as string, line: Number(m[2]), ...(m[3] ? { column: Number(m[3]) } : {}) }),
  },
  // A compiler's heading over its diagnostic (`Error compiling Cython file:`, a code excerpt and a
  // caret, then `pkg/x.pyx:22:25: message`): the place line under it is the compile error.
  {
    cls: 'compile-error',
    priority: 30,
    confidence: 'high',
    re: new RegExp(String.raw`^(${SRC}\.\w{1,8}):(\d+):(\d+): (?!warning\b)\S`),
    near: { re: /^Error compiling\b.*:$|^(?:Compilation|Compile) (?:failed|error)s?\b.*:$/i, from: -16, to: -1, required: true },
    read: (m) => ({ file: m[1] as string, line: Number(m[2]), column: Number(m[3]) }),
  },
  // GHC's `Could not find module ‘X’` under its `src/X.hs:4:1: error:` heading: no package the compiler sees holds
  // the module, a dependency not installed (medium: a misspelt module of the project says the same), before GHC's
  // compile-error heading (rules.ts) (session 52, t27).
  {
    cls: 'dependency-resolution',
    priority: 29,
    confidence: 'medium',
    re: /^\s+Could not (?:find|load) module [‘'`]([\w.']+)[’'`]/,
    near: { re: new RegExp(String.raw`^(?<file>${SRC}\.l?hs):(?<line>\d+):(?<col>\d+): error:`), from: -2, to: -1, required: true },
    read: (m) => ({ dependency: m[1] as string }),
  },
  // gfortran's diagnostic: `src/x.f90:12:20:`, the source line with its marker `1` below, then `Error: ... at (1)`
  // (the marker's reference): the compiler's own grammar, a compile error whatever command ran gfortran (make, a script).
  {
    cls: 'compile-error',
    priority: 30,
    confidence: 'high',
    re: /^Error: .*\bat \(1\)/,
    near: { re: new RegExp(String.raw`^(?<file>${SRC}\.[fF](?:90|95|03|08|or)?):(?<line>\d+):(?<col>\d+):$`), from: -6, to: -1, required: true },
    read: () => ({}),
  },
];

export const COMPILER_RULES: Rule[] = [
  // A tool's error on a line of a source file, printed as `tool: ERROR: file: line N: message`
  // (asciidoctor, other document and template processors): the file does not build.
  {
    cls: 'compile-error',
    priority: 31,
    confidence: 'high',
    re: new RegExp(String.raw`^[\w.-]+: (?:ERROR|FATAL|error|fatal): (${SRC}\.\w{1,8}): line (\d+): \S`),
    read: (m) => ({ file: m[1] as string, line: Number(m[2]) }),
  },
  // A compiler's error on a file with no line (`src/calc.y: error: shift/reduce conflicts: 9 found,
  // 0 expected`): the file the tool read does not build. An object or library file is the linker's, and
  // so is a linker's own name with a dot (`ld.lld: error:`, `ld.gold: error:`): a program, not a file.
  { cls: 'compile-error', priority: 33, confidence: 'medium', re: new RegExp(String.raw`^(?!(?:\S*\/)?(?:ld|lld|ld64|mold)\.\w+: )(${SRC}\.(?!(?:o|a|so|obj|lib|dll|dylib)\b)\w{1,8}): error: (?!unrecognized (?:arguments|option)|the following arguments|argument |invalid choice|option )\S`), read: () => ({}) },
  // A place line with no `error:` word that the tool's verdict below calls fatal (msgfmt's
  // `po/de.po:22: number of format specifications ... does not match` over `found 1 fatal error`).
  {
    cls: 'compile-error',
    priority: 31,
    confidence: 'high',
    re: new RegExp(String.raw`^(${SRC}\.\w{1,8}):(\d+):(?:(\d+):)? (?!warning\b|note\b)\S`, 'i'),
    near: { re: /\bfound \d+ fatal errors?\b|^\S+: \d+ fatal errors?\b/i, from: 1, to: 3, required: true },
    read: (m) => ({ file: m[1] as string, line: Number(m[2]), ...(m[3] ? { column: Number(m[3]) } : {}) }),
  },
  // A build definition file its tool could not parse (Maven's `Non-parseable POM /x/pom.xml: ...
  // @ line 7, column 36`, `Failed to parse build.gradle ... line 3, column 5`): the build's own
  // definition, a CI script error at that place.
  {
    cls: 'ci-script',
    priority: 15,
    confidence: 'high',
    re: /\b(?:Non-parseable|Unparseable|Malformed|Could not parse|Failed to parse|Unable to parse)\b.*?((?:[^\s:]*\/)?(?:pom\.xml|build\.gradle(?:\.kts)?|settings\.gradle(?:\.kts)?|build\.xml|package\.json|Cargo\.toml|pyproject\.toml|composer\.json|Gemfile|Jenkinsfile|Makefile))\b.*?\bline (\d+),? column (\d+)/i,
    read: (m) => ({ file: m[1] as string, line: Number(m[2]), column: Number(m[3]) }),
  },
];
