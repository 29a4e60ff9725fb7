/**
 * Go: the go command: evidence rules of the tuning rounds 4, 9, 11, 13, 16 (issue 25; docs/notes/analyzer.md, each
 * round's "opened" section), kept by tool family (rv3, session 43). Each is a tool's own wording for one cause,
 * never a case's words. Tried with RULES (rules.ts): `GO_FIRST_RULES` before the general rules (each is
 * narrower than a general rule that matches the same line), `GO_RULES` after the general rules and the cross-tool families' (rules.ts).
 */
import type { Rule } from '../ruleTypes.js';

/** The go command's failed fetch of an imported module: `file.go:L:C: module@version: reading URL: ` and the status. */
const GO_FETCH = String.raw`^(\S+\.go):(\d+):(\d+): (\S+@\S+): (?:reading|verifying|downloading) \S+: `;
const goFetch = (m: RegExpExecArray): ReturnType<NonNullable<Rule['read']>> => ({ tool: 'go', dependency: m[4] as string, file: m[1] as string, line: Number(m[2]), column: Number(m[3]) });

export const GO_FIRST_RULES: Rule[] = [
  // go: a module version whose git revision the repository does not have (`main.go:2:8: reading example.com/x.git/go.mod
  // at revision v1.1.0: unknown revision v1.1.0`, `go: x@v1.1.0: invalid version: unknown revision v1.1.0`; ux18): the
  // dependency's, not a compile error of the importing file.
  { cls: 'dependency-resolution', priority: 28, confidence: 'high', re: /(?:^|: )(?:reading \S+ at revision \S+|\S+@\S+: invalid version): unknown revision (\S+)$/, read: (m) => ({ tool: 'go', symbol: m[1] as string }) },
  // The go command's `no required module provides package P` over its `case-insensitive import collision: "a/store"
  // and "a/Store"`: the import's spelling differs from the package's directory only in case, a wrong import in the
  // source (a compile error at the import), not a module missing from go.mod.
  {
    cls: 'compile-error',
    priority: 28,
    confidence: 'high',
    re: /^((?:\.{1,2}\/)?[^\s:]+\.go):(\d+):(\d+): no required module provides package (\S+?);/,
    below: /^case-insensitive import collision: /,
    read: (m) => ({ tool: 'go', symbol: m[4] as string, file: m[1] as string, line: Number(m[2]), column: Number(m[3]) }),
  },
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
  // Go's import cycle (`imports example.com/x: import cycle not allowed`): the package graph does not compile.
  { cls: 'compile-error', priority: 40, confidence: 'high', re: /\bimport cycle not allowed\b/, read: () => ({ tool: 'go' }) },
];

export const GO_RULES: Rule[] = [
  // go's module mode on a vendor directory that disagrees with go.mod (`go: inconsistent vendoring in
  // DIR:`): the module's dependencies, as vendored, are not the ones it requires.
  { cls: 'dependency-resolution', priority: 45, confidence: 'high', re: /^go: inconsistent vendoring in /, read: () => ({ tool: 'go' }) },
  // The go command fetching a module for an import (`cmd/x/main.go:6:2: example.com/retry@v0.3.0: reading
  // https://proxy/example.com/retry/@v/v0.3.0.zip: 401 Unauthorized`): the place is the import, the failure the
  // module proxy's answer: 401/403 a credential, 404/410 a version that is not there, anything else the network.
  { cls: 'permission-credentials', priority: 20, confidence: 'high', re: new RegExp(String.raw`${GO_FETCH}40[13]\b`), read: goFetch },
  { cls: 'dependency-resolution', priority: 20, confidence: 'high', re: new RegExp(String.raw`${GO_FETCH}(?:404|410)\b`), read: goFetch },
  { cls: 'network', priority: 20, confidence: 'medium', re: new RegExp(String.raw`${GO_FETCH}5\d\d\b`), read: goFetch },
];
