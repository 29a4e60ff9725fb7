/**
 * Quality gates: a check on the code or its data that refused it though it built (a linter's report or its
 * warning limit, a coverage threshold, a JSON Schema validator, a security scanner, a documentation checker;
 * a warning the build treats as an error is the compilers' family, compilers.ts). Rules of the tuning rounds 4 and 5 (issue 25, helpers fix4a and
 * fix5a; docs/notes/analyzer.md), kept by what they concern (rv5, session 45). Each is the wording many tools
 * share, never one case's words. Tried with RULES (rules.ts): after the general rules, as before.
 */
import type { Rule } from '../ruleTypes.js';
import { SRC } from './shapes.js';

/** A linter's verdict that its warnings are over the limit the build set. */
export const OVER_WARNING_LIMIT = /\btoo many (?:warnings|problems)\b.*\((?:maximum|max|limit):? \d+\)|\bwarnings? (?:count )?exceeds? (?:the )?(?:maximum|limit)\b/i;

export const QUALITY_GATE_RULES: Rule[] = [
  // A linter's stylish report whose rule is in parentheses (yamllint, eslint's and stylelint's
  // relatives): `  12:3      error    duplication of key "x" in mapping  (key-duplicates)`, under
  // the file's heading.
  { cls: 'lint', priority: 35, confidence: 'high', re: /^\s+(\d+):(\d+)\s+error\s+.+?\s{2,}\(([@\w/.-]+)\)$/, read: (m) => ({ code: m[3] as string, line: Number(m[1]), column: Number(m[2]) }) },
  // A linter failing on warnings over its limit (`ESLint found too many warnings (maximum: 0).`,
  // `--max-warnings`): lint, the place is the warning's (refineReports.ts).
  { cls: 'lint', priority: 36, confidence: 'high', re: OVER_WARNING_LIMIT, read: () => ({}) },
  // A coverage threshold not met (pytest-cov, coverage.py, nyc, jest, c8): the tests passed, the
  // check on them failed; a quality gate, read as lint.
  {
    cls: 'lint',
    priority: 36,
    confidence: 'high',
    re: /\bRequired test coverage of [\d.]+% not reached\b|\bcoverage (?:threshold|failure)\b.*\bnot met\b|\bCoverage for \w+ \([\d.]+%\) does not meet\b|\btotal coverage (?:of )?[\d.]+% is (?:less than|below)\b|\bcoverage [\d.]+% is below (?:the )?(?:minimum|threshold|required)/i,
    read: () => ({}),
  },
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
];
