/**
 * Evidence rules from round 5's open cases (issue 25, helper fix5a): the words and report shapes
 * many tools share for a cause (a check's expected/actual pair, a runtime's `Unhandled X`, a
 * resolver's unreachable host, a validator's schema words, a scanner's `Issue:` over its
 * `Location:`), never one tool's sentence alone. Tried after ROUND4A_RULES, before RULES' broader
 * shapes (a line's first matching rule is its rule).
 */
import type { Rule } from './ruleTypes.js';

const SRC = String.raw`(?:[A-Za-z]:)?[^\s:()"'\[\]<>|*?]*?`;

/** A check's report of what it expected and what it got, on the lines below its message. */
const EXPECTED_BELOW = /^\s*(?:ERROR: +)?(?:Expected|Expected value|Wanted)\s*:|^\s*(?:\(\d+\)\s+)?Location\s+\|\s+Observed\s+\|\s+Expected\b/;

export const ROUND5A_RULES: Rule[] = [
  // A check that failed with its expected value printed below it (busted's `Expected objects to be
  // the same.` over `Passed in:` / `Expected:`, plunit's `wrong answer` over `Expected:` / `Got:`,
  // Octave's `ASSERT errors for:` over its `Observed | Expected` table): an assertion, whatever the
  // tool. The line may carry its place (`spec/x.lua:10: Expected ...`).
  {
    cls: 'test-assertion',
    priority: 57,
    confidence: 'high',
    re: new RegExp(String.raw`^(?:(${SRC}\.\w{1,8}):(\d+): )?(?:error: )?(?:.*\b(?:Expected|expected)\b.*\b(?:to be|to equal|the same|equal)\b|.*\bwrong answer\b|ASSERT errors? for:|assert(?:ion)? ?\(.*\) failed|.*\bassert(?:ion)? failed\b)`),
    near: { re: EXPECTED_BELOW, from: 1, to: 4, required: true },
    read: (m) => (m[1] ? { file: m[1], line: Number(m[2]) } : {}),
  },
  // A runtime's report of a condition nothing handled (SBCL's `Unhandled UNBOUND-VARIABLE in thread
  // #<...>:` with the condition's text indented below it).
  { cls: 'runtime-exception', priority: 50, confidence: 'high', re: /^Unhandled ([A-Z][\w-]*[A-Z]) in thread\b/, read: (m) => ({ exception: m[1] as string }) },
  // The heap ran out (`Heap exhausted during garbage collection`, `Heap exhausted, game over.`,
  // `heap space exhausted`): out of memory, whichever runtime.
  { cls: 'out-of-memory', priority: 18, confidence: 'high', re: /\b[Hh]eap (?:space )?exhausted\b|\bexhausted (?:the )?heap\b/, read: () => ({}) },
  // A host the resolver could not reach (`Could not reach host index.rubygems.org. Check your
  // network connection`), or a download whose cause below is the name lookup (`file could not be
  // downloaded` over `getaddrinfo for x failed: Name or service not known`).
  { cls: 'network', priority: 40, confidence: 'high', re: /\bCould not reach (?:host|server) ([\w.-]+\.[a-z]{2,})\b|\bCheck your (?:network|internet) connection\b/i, read: (m) => (m[1] ? { host: m[1] } : {}) },
  {
    cls: 'network',
    priority: 40,
    confidence: 'high',
    re: /\bcould not be (?:downloaded|fetched|retrieved)\b/i,
    near: { re: /\bgetaddrinfo\b|\bName or service not known\b|\bTemporary failure in name resolution\b|\bCould not resolve host\b|\bConnection (?:refused|timed out)\b|\bNetwork is unreachable\b/i, from: 1, to: 3, required: true },
    read: (_m, line) => {
      const host = /https?:\/\/([\w.-]+)/.exec(line)?.[1];
      return host ? { host } : {};
    },
  },
  // A package that asks for another version of the language than the one running (`Package 'x'
  // requires a different Python: 3.11.7 not in '>=3.12'`, `requires Ruby version >= 3.2`): the
  // machine has the wrong version of a tool.
  { cls: 'missing-tool', priority: 54, confidence: 'high', re: /\brequires a different (Python|Ruby|PHP|Node(?:\.js)?|Java|Perl)\b|\brequires (Python|Ruby|PHP|Node(?:\.js)?|Java|Perl) (?:version )?[<>=~^]+ ?\d/i, read: (m) => ({ symbol: (m[1] ?? m[2]) as string }) },
  // A JSON Schema validator's words for a document that breaks its schema (ajv's `must have
  // required property 'x'`, `must NOT have additional properties`, Python jsonschema's `'x' is a
  // required property`): the data is checked and refused, a lint.
  {
    cls: 'lint',
    priority: 36,
    confidence: 'high',
    re: /\bmust (?:have required property|NOT have (?:additional|unevaluated) properties|be (?:string|number|integer|boolean|object|array|null|equal to (?:one of )?the allowed values)|match (?:pattern|format)|NOT be valid)\b|\bis a required property\b|\bis not valid under any of the given schemas\b|\bAdditional properties are not allowed\b/,
    read: () => ({}),
  },
  // A scanner's finding with its place on a `Location:` line below (bandit's `>> Issue: [B602:x]
  // ...` over `Severity:` and `Location: ops/x.py:6`): a lint finding at that place.
  {
    cls: 'lint',
    priority: 35,
    confidence: 'high',
    re: /^(?:>> )?Issue: (?:\[([\w.-]+)(?::[\w.-]+)?\] )?\S/,
    near: { re: /^\s*Location: (?<file>[^\s:]+\.\w{1,8}):(?<line>\d+)(?::(?<col>\d+))?\s*$/, from: 1, to: 3, required: true },
    read: (m) => (m[1] ? { code: m[1] } : {}),
  },
  // A documentation checker's words about a comment's tags (doxygen's `file:14: error: argument 'x'
  // of command @param is not found in the argument list`, `is not documented`, javadoc's `@param
  // name not found`): the documentation is refused, a lint at that place.
  {
    cls: 'lint',
    priority: 34,
    confidence: 'high',
    re: new RegExp(String.raw`^(${SRC}\.\w{1,8}):(\d+):(?:(\d+):)? (?:error|warning): .*(?:\bcommand [@\\]\w+|[@\\](?:param|return|returns|throws)\b.*\bnot found\b|\bis not documented\b|\bdocumented parameter\b)`),
    read: (m) => ({ file: m[1] as string, line: Number(m[2]), ...(m[3] ? { column: Number(m[3]) } : {}) }),
  },
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
  // A test runner's line that a test raised instead of answering (plunit's `test gold: received
  // error: ...`, `test x: raised exception`), at the place line above it: the test's error.
  {
    cls: 'test-error',
    priority: 58,
    confidence: 'high',
    re: /^\s*test (\S+): (?:received error|raised (?:an )?(?:error|exception)|caught (?:an )?(?:error|exception)|uncaught (?:error|exception))\b/,
    near: { re: /^(?:ERROR|FAIL(?:ED)?|Error):? (?<file>\S+\.\w{1,8}):(?<line>\d+):(?:(?<col>\d+):)?$/, from: -2, to: -1 },
    read: (m) => ({ test: m[1] as string }),
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
  // A program's own word that it was sent the termination signal (Octave's `fatal: caught signal
  // Terminated -- stopping myself...`, `received SIGTERM, shutting down`): stopped from outside, by
  // a time limit or a cancellation; its line says more than the exit code after it.
  { cls: 'timeout-aborted', priority: 24, confidence: 'high', re: /\b(?:caught|received|got) (?:signal )?(?:Terminated|SIGTERM|TERM signal|signal 15)\b/i, read: () => ({}) },
  // A test the strict-xfail check failed: it was marked as expected to fail and passed
  // (`[XPASS(strict)] reason`, unittest's `unexpected success`): the test's expectation is wrong.
  { cls: 'test-assertion', priority: 58, confidence: 'high', re: /\[XPASS\(strict\)\]|\bUNEXPECTED SUCCESS\b|\bunexpected(?:ly)? success(?:es)?\b/i, read: () => ({}) },
];
