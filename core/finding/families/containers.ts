/**
 * Containers: docker and hadolint: evidence rules of the tuning rounds 13 (issue 25; docs/notes/analyzer.md, each
 * round's "opened" section), kept by tool family (rv3, session 43). Each is a tool's own wording for one cause,
 * never a case's words. Tried with RULES (rules.ts): `CONTAINER_FIRST_RULES` before the general rules (each is
 * narrower than a general rule that matches the same line), `CONTAINER_RULES` after the general rules and the cross-tool families' (rules.ts).
 */
import type { Rule } from '../ruleTypes.js';

export const CONTAINER_FIRST_RULES: Rule[] = [
  // BuildKit's report of a RUN step killed by the kernel (`did not complete successfully: exit code: 137`, 128 + SIGKILL).
  { cls: 'out-of-memory', priority: 20, confidence: 'high', re: /\bdid not complete successfully: exit code: 137\b/, read: () => ({ tool: 'docker', exception: 'killed' }) },
  // hadolint's default (tty) format: `Dockerfile:4 DL3008 warning: Pin versions in apt get install.` (DL: its own
  // rules, SC: ShellCheck's on RUN lines), the Dockerfile's line: lint.
  { cls: 'lint', priority: 35, confidence: 'high', re: /^(\S*Dockerfile\S*):(\d+) ((?:DL|SC)\d{4}) (?:error|warning|info|style): /, read: (m) => ({ tool: 'hadolint', code: m[3] as string, file: m[1] as string, line: Number(m[2]) }) },
];
