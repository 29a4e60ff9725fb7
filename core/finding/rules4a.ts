/**
 * Evidence rules from round 4's open cases (issue 25, helper fix4a): the words and shapes many
 * tools share for a cause, never one tool's sentence alone. Tried before RULES' broader shapes
 * (a line's first matching rule is its rule), so each is narrow enough not to take a line another
 * rule reads better (an `Access denied` stays the credentials rule's).
 */
import type { Rule } from './ruleTypes.js';

const SRC = String.raw`(?:[A-Za-z]:)?[^\s:()"'\[\]<>|*?]*?`;

/** A linter's verdict that its warnings are over the limit the build set. */
export const OVER_WARNING_LIMIT = /\btoo many (?:warnings|problems)\b.*\((?:maximum|max|limit):? \d+\)|\bwarnings? (?:count )?exceeds? (?:the )?(?:maximum|limit)\b/i;

export const ROUND4A_RULES: Rule[] = [
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
  // A linter's stylish report whose rule is in parentheses (yamllint, eslint's and stylelint's
  // relatives): `  12:3      error    duplication of key "x" in mapping  (key-duplicates)`, under
  // the file's heading.
  { cls: 'lint', priority: 35, confidence: 'high', re: /^\s+(\d+):(\d+)\s+error\s+.+?\s{2,}\(([@\w/.-]+)\)$/, read: (m) => ({ code: m[3] as string, line: Number(m[1]), column: Number(m[2]) }) },
  // A linter failing on warnings over its limit (`ESLint found too many warnings (maximum: 0).`,
  // `--max-warnings`): lint, the place is the warning's (refine4a.ts).
  { cls: 'lint', priority: 36, confidence: 'high', re: OVER_WARNING_LIMIT, read: () => ({}) },
  // A package's engines field the running runtime does not satisfy: the line naming the required
  // version (`npm error notsup Required: {"node":">=22.11.0"}`) says more than `Unsupported engine`.
  { cls: 'missing-tool', priority: 54, confidence: 'high', re: /^(?:npm|pnpm|yarn) (?:error|ERR!|ERR_PNPM_\w+) (?:notsup )?Required: \{"(node|npm|pnpm|yarn)":/, read: (m) => ({ tool: 'node', symbol: m[1] as string }) },
  // A coverage threshold not met (pytest-cov, coverage.py, nyc, jest, c8): the tests passed, the
  // check on them failed; a quality gate, read as lint.
  {
    cls: 'lint',
    priority: 36,
    confidence: 'high',
    re: /\bRequired test coverage of [\d.]+% not reached\b|\bcoverage (?:threshold|failure)\b.*\bnot met\b|\bCoverage for \w+ \([\d.]+%\) does not meet\b|\btotal coverage (?:of )?[\d.]+% is (?:less than|below)\b|\bcoverage [\d.]+% is below (?:the )?(?:minimum|threshold|required)/i,
    read: () => ({}),
  },
  // A download that does not match its pinned hash (pip's `THESE PACKAGES DO NOT MATCH THE
  // HASHES`, `hash mismatch`, `checksum mismatch`): the resolver refuses the artifact; pip names
  // the requirements file's line on the package's line below.
  {
    cls: 'dependency-resolution',
    priority: 45,
    confidence: 'high',
    re: /\bDO NOT MATCH THE HASHES\b|\b(?:hash|checksum|sha256|digest) mismatch\b|\bchecksums? did not match\b/i,
    near: { re: /\(from -r (?<file>[^\s()]+) \(line (?<line>\d+)\)\)/, from: 1, to: 3 },
    read: () => ({}),
  },
  // A program the tool needs is not installed, and the tool says to install it by the same name
  // (`pdflatex not found. Please select a different --pdf-engine or install pdflatex`).
  { cls: 'missing-tool', priority: 55, confidence: 'high', re: /^(?:[\w.+-]+: )?['"`]?([\w.+-]+)['"`]? (?:not found|is not installed|was not found|could not be found)\b.*\binstall (?:(?:the )?package )?['"`]?\1\b/, read: (m) => ({ symbol: m[1] as string }) },
  // A deadline a test or call ran past (hypothesis' `DeadlineExceeded: Test took 956ms, which
  // exceeds the deadline of 200ms`, gRPC's `DEADLINE_EXCEEDED`).
  { cls: 'timeout-aborted', priority: 25, confidence: 'high', re: /\bDeadlineExceeded: |\bexceeds the deadline of\b|\bDEADLINE_EXCEEDED\b/, read: () => ({}) },
  // A test that expected an exception and got none (pytest's `Failed: DID NOT RAISE`, JUnit's
  // `Expected X to be thrown, but nothing was thrown`, chai's `expected [Function] to throw`).
  { cls: 'test-assertion', priority: 58, confidence: 'high', re: /\bDID NOT RAISE\b|\bto be thrown, but nothing was thrown\b|\bMissing expected exception\b|\bexpected \[Function(?:: \w+)?\] to throw\b/, read: () => ({}) },
  // A timeout raised inside a socket or HTTP library's frame (Python's `TimeoutError: timed out`
  // under `socket.py`, `ssl.py`, `http/client.py`, urllib3, requests): the network did not answer.
  {
    cls: 'network',
    priority: 40,
    confidence: 'high',
    re: /^(?:(?:[\w.]+\.)?(?:TimeoutError|timeout|ReadTimeout(?:Error)?|ConnectTimeout(?:Error)?)): (?:timed out|The read operation timed out|_ssl\.c:\d+: The handshake operation timed out)/,
    near: { re: /^\s*File "[^"]*\/(?:socket|ssl|http\/client|urllib\/request|urllib3\/[\w/]+|requests\/[\w/]+|httpx\/[\w/]+|aiohttp\/[\w/]+)\.py", line \d+/, from: -4, to: -1, required: true },
    read: () => ({}),
  },
  // An SQL client's error on a statement's data (`ERROR 1062 (23000) at line 8: Duplicate entry`):
  // SQLSTATE classes 21 (cardinality), 22 (data), 23 (integrity constraint), 40 (rollback) are the
  // data's or statement's, a runtime error; access and connection errors keep their own rules.
  { cls: 'runtime-exception', priority: 48, confidence: 'high', re: /^ERROR (\d{4,5}) \((?:2[123]|40)[0-9A-Z]{3}\)(?: at line (\d+))?: \S/, read: (m) => ({ code: m[1] as string }) },
  // Node's ESM resolver naming a package it cannot find (`Error [ERR_MODULE_NOT_FOUND]: Cannot
  // find package 'js-yaml' imported from ...`): the dependency is not installed.
  { cls: 'dependency-resolution', priority: 47, confidence: 'high', re: /^(?:\w*Error )?\[?ERR_MODULE_NOT_FOUND\]?: Cannot find (?:package|module) '((?![./])[^']+)'/, read: (m) => ({ tool: 'node', exception: 'Error', dependency: m[1] as string }) },
  // A resource a tool must fetch by URL could not be had (xmllint's `Failed to locate the main
  // schema resource at 'http://...'`, `Failed to load/fetch/download '...'`): the network's.
  { cls: 'network', priority: 41, confidence: 'medium', re: /^(?!warning\b)(?:[\w ]+ : )?.*\bFailed to (?:locate|load|fetch|download|retrieve|open)\b.*['"]https?:\/\/[^'"]+['"]/, read: (_m, line) => ({ ...(/https?:\/\/([\w.-]+)/.exec(line)?.[1] ? { host: /https?:\/\/([\w.-]+)/.exec(line)?.[1] as string } : {}) }) },
];
