/**
 * Time limits and stops from outside: a deadline a test or call ran past, a runner's own time limit, a wait that
 * timed out, a program's word that it was sent the termination signal. Rules of the tuning rounds 4 and 5
 * (issue 25, helpers fix4a, fix4b, fix5a, fix5b; docs/notes/analyzer.md), kept by what they concern (rv5,
 * session 45). Tried with RULES (rules.ts): `TIMEOUT_FIRST_RULES` before the general rules, `TIMEOUT_RULES`
 * after them, as before.
 */
import type { Rule } from '../ruleTypes.js';

export const TIMEOUT_FIRST_RULES: Rule[] = [
  // A runner's own time limit on a test or a step: `x.rkt: raco test: timeout after 10 seconds`, `Test timeout after 60 s`.
  { cls: 'timeout-aborted', priority: 30, confidence: 'medium', re: /^(?!.*\b(?:[Cc]onnect(?:ion)?|[Rr]esolv\w*|[Rr]ead|handshake)\b).*\b[Tt]ime ?out after \d+(?:\.\d+)? ?(?:s|secs?|seconds?|minutes?|m)\b\.?$/, read: () => ({}) },
];

export const TIMEOUT_RULES: Rule[] = [
  // A deadline a test or call ran past (hypothesis' `DeadlineExceeded: Test took 956ms, which
  // exceeds the deadline of 200ms`, gRPC's `DEADLINE_EXCEEDED`).
  { cls: 'timeout-aborted', priority: 25, confidence: 'high', re: /\bDeadlineExceeded: |\bexceeds the deadline of\b|\bDEADLINE_EXCEEDED\b/, read: () => ({}) },
  // A program's own word that it was sent the termination signal (Octave's `fatal: caught signal
  // Terminated -- stopping myself...`, `received SIGTERM, shutting down`): stopped from outside, by
  // a time limit or a cancellation; its line says more than the exit code after it.
  { cls: 'timeout-aborted', priority: 24, confidence: 'high', re: /\b(?:caught|received|got) (?:signal )?(?:Terminated|SIGTERM|TERM signal|signal 15)\b/i, read: () => ({}) },
  // A wait for something that never came (expect's prompt, a server's port, a condition).
  { cls: 'timeout-aborted', priority: 30, confidence: 'medium', re: /^(?!.*\b(?:[Cc]onnect(?:ion)?|[Rr]esolv\w*|handshake)\b).*\b[Tt]imed out waiting for\b/, read: () => ({}) },
];
