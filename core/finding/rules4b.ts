/**
 * Evidence rules from round 4's held-out families once they were opened for tuning (issue 25,
 * helper fix4b). Each is a shape tools share or a tool family's own verdict line, never a case's
 * words: a download's HTTP 404, git's refusal to push, git's whitespace check, an exception
 * named `XError@file(line)` (D), an OCaml program's uncaught exception, a runner's time limit
 * `timeout after N seconds`, a build file's missing library (dune), a Pascal runtime error code,
 * a stack overflow's own line. Tried before RULES' broader shapes (rules.ts).
 */
import type { Rule, RuleHit } from './ruleTypes.js';

const PATH = String.raw`((?:[A-Za-z]:)?[\w.~@+\\/-]*\.[A-Za-z]\w{0,7}|[\w.~@+\\/-]*\/[\w.~@+-]+)`;
const at = (file: string | undefined, line: string | undefined, column?: string): RuleHit => ({
  ...(file ? { file } : {}),
  ...(line ? { line: Number(line) } : {}),
  ...(column ? { column: Number(column) } : {}),
});

/** Free Pascal's (and Delphi's) runtime error codes that are not a program's own exception: 203 heap overflow, 204 invalid pointer. */
const PASCAL_OUT_OF_MEMORY = /^Runtime error 203 at \$[0-9A-Fa-f]+/;
const PASCAL_RUNTIME = /^Runtime error (?!203\b)(\d+) at \$[0-9A-Fa-f]+/;

export const STEP_RULES: Rule[] = [
  // A download the server does not have: curl's `(22) The requested URL returned error: 404`, wget's `ERROR 404: Not Found.`
  { cls: 'dependency-resolution', priority: 46, confidence: 'medium', re: /^curl: \(22\) The requested URL returned error: 40[46]\b|^\S+ ERROR 40[46]: Not Found\.?$/, read: (_m, line) => ({ tool: /^curl/.test(line) ? 'curl' : 'wget' }) },
  // git refusing a push: ` ! [rejected]        HEAD -> main (fetch first)`, ` ! [remote rejected] main -> main (pre-receive hook declined)`.
  // The remote's own failure to store the push (`(unpacker error)`, `(failed to update ref)`) is no refusal of the script's:
  // its reason is git's `error: remote unpack failed: <reason>` above the row.
  { cls: 'ci-script', priority: 40, confidence: 'high', re: /^\s*! \[(?:rejected|remote rejected)\]\s+\S+ -> \S+ \((?!unpacker error\)|failed to update ref\)|failed to write\b).+\)$/, read: () => ({ tool: 'git' }) },
  // ... that the remote could not create its object directory: the pushing user may not write the repository (git's
  // receive-pack says so for a repository owned by another user), medium: a full disk says it in the same words.
  { cls: 'permission-credentials', priority: 39, confidence: 'medium', re: /^error: remote unpack failed: (?:unable to create temporary object directory|.*\b(?:insufficient permission|[Pp]ermission denied)\b)/, read: () => ({ tool: 'git' }) },
  // git's whitespace check (`git diff --check`, the sample pre-commit hook): `docs/x.md:5: trailing whitespace.`
  { cls: 'lint', priority: 40, confidence: 'high', re: new RegExp(String.raw`^${PATH}:(\d+): (?:trailing whitespace|space before tab in indent|indent with spaces|new blank line at EOF|leftover conflict marker)\.$`), read: (m) => ({ tool: 'git', ...at(m[1], m[2]) }) },
  // Go's import cycle (`imports example.com/x: import cycle not allowed`): the package graph does not compile.
  { cls: 'compile-error', priority: 40, confidence: 'high', re: /\bimport cycle not allowed\b/, read: () => ({ tool: 'go' }) },
  // An exception named with its place, D's form: `core.exception.AssertError@src/x.d(34): unittest failure`.
  { cls: 'test-assertion', priority: 57, confidence: 'high', re: new RegExp(String.raw`^((?:[a-z]\w*\.)*\w*Assert\w*)@${PATH}\((\d+)\): (.*)$`), read: (m) => ({ exception: m[1] as string, ...at(m[2], m[3]) }) },
  { cls: 'runtime-exception', priority: 58, confidence: 'high', re: new RegExp(String.raw`^((?:[a-z]\w*\.)*[A-Z]\w*(?:Error|Exception))@${PATH}\((\d+)\): (.*)$`), read: (m) => ({ exception: m[1] as string, ...at(m[2], m[3]) }) },
  // OCaml's uncaught exception; its place is the first `Called from ... in file "x", line N` of the project (below).
  { cls: 'runtime-exception', priority: 58, confidence: 'high', re: /^Fatal error: exception (\w[\w.]*)/, near: { re: /^Called from \S+ in file "(?<file>[^"]*\/[^"]+)", line (?<line>\d+)/, from: 1, to: 12 }, read: (m) => ({ tool: 'ocaml', exception: m[1] as string }) },
  // A runner's own time limit on a test or a step: `x.rkt: raco test: timeout after 10 seconds`, `Test timeout after 60 s`.
  { cls: 'timeout-aborted', priority: 30, confidence: 'medium', re: /^(?!.*\b(?:[Cc]onnect(?:ion)?|[Rr]esolv\w*|[Rr]ead|handshake)\b).*\b[Tt]ime ?out after \d+(?:\.\d+)? ?(?:s|secs?|seconds?|minutes?|m)\b\.?$/, read: () => ({}) },
  // A build file naming a library the environment lacks: dune's `Error: Library "yojson" not found.` under `File "bin/dune", line 3, characters 12-18:`.
  { cls: 'dependency-resolution', priority: 45, confidence: 'high', re: /^Error: (?:Library|Package) "([^"]+)" not found\.?$/, near: { re: /^File "(?<file>[^"]+)", line (?<line>\d+), characters (?<col>\d+)-\d+:$/, from: -6, to: -1 }, read: (m) => ({ dependency: m[1] as string }) },
  // A filter's error at a place of its input: jq's `jq: error (at manifest.json:7): Cannot index array with string "linux"`.
  { cls: 'runtime-exception', priority: 58, confidence: 'medium', re: new RegExp(String.raw`^(\w[\w.-]*): error \(at ${PATH}:(\d+)\): \S`), read: (m) => ({ tool: m[1] as string, ...at(m[2], m[3]) }) },
  // A server's error log at its gravest levels naming a line of its configuration (nginx's `2026/11/25 02:05:13 [emerg] 1#1: unknown directive "x" in /etc/nginx/nginx.conf:26`):
  // the configuration does not parse, the server's compile error.
  { cls: 'compile-error', priority: 56, confidence: 'medium', re: new RegExp(String.raw`^\d{4}/\d\d/\d\d \d\d:\d\d:\d\d \[(?:emerg|alert|crit)\] \d+#\d+: (?:\*\d+ )?(.+?) in ${PATH}:(\d+)$`), read: (m) => at(m[2], m[3]) },
  // Free Pascal's runtime errors: 203 is a heap overflow (out of memory), the others the program's own fault.
  { cls: 'out-of-memory', priority: 40, confidence: 'medium', re: PASCAL_OUT_OF_MEMORY, read: () => ({ tool: 'fpc', exception: 'Runtime error 203' }) },
  { cls: 'runtime-exception', priority: 58, confidence: 'medium', re: PASCAL_RUNTIME, read: (m) => ({ tool: 'fpc', exception: `Runtime error ${m[1]}` }) },
  // A thread's stack overflow is said first by the thread (`thread 'main' (20940) has overflowed its stack`), then by the runtime.
  { cls: 'runtime-exception', priority: 52, confidence: 'high', re: /^thread '[^']+'(?: \(\d+\))? has overflowed its stack$/, read: () => ({ tool: 'rust', exception: 'stack overflow' }) },
  // cargo's reason under `failed to select a version`: a feature the dependency does not have.
  { cls: 'dependency-resolution', priority: 44, confidence: 'high', re: /^package `[^`]+` depends on `([^`]+)` with feature `[^`]+` but `[^`]+` does not have that feature\.?$/, read: (m) => ({ tool: 'cargo', dependency: m[1] as string }) },
];
