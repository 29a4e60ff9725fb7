/**
 * Evidence rules from round 10 once it was opened for tuning (issue 25, helper t11; docs/notes/analyzer.md,
 * "Round 10 opened (helper t11)"). Each is a tool's own wording for one cause, never a case's words.
 * Tried with RULES (rules.ts).
 */
import type { Rule } from './ruleTypes.js';

export const ROUND10_RULES: Rule[] = [
  // rustc without the standard library of the target it was asked to build for (`error[E0463]: can't find
  // crate for `std`` or `core`, `alloc`, `proc_macro`, `test`; its note `the `x` target may not be installed`):
  // the toolchain lacks the target, no source line is wrong. A missing crate of the project's own stays a compile error.
  {
    cls: 'missing-tool',
    priority: 30,
    confidence: 'high',
    re: /^error\[E0463\]: can't find crate for `(?:std|core|alloc|proc_macro|test)`/,
    read: () => ({ tool: 'rustc' }),
  },
  // pytest refusing an option that one of its plugins adds (`error: unrecognized arguments: -n` with its `inifile:` /
  // `rootdir:` under it): pytest parses the ini file's `addopts` with its own, so the plugin (pytest-xdist's
  // `-n`/`--dist`, pytest-cov's `--cov*`, pytest-timeout's `--timeout`, pytest-rerunfailures' `--reruns`, pytest-html's
  // `--html`, pytest-benchmark's `--benchmark-*`) is not installed. Another unknown option stays the script's (ci-script).
  {
    cls: 'missing-tool',
    priority: 13,
    confidence: 'medium',
    re: /^(?:ERROR: )?[\w.-]+: error: unrecognized arguments?: (?:.*\s)?(?:(-n|--numprocesses|--dist|--maxprocesses)|(--cov(?:-[\w-]+)?|--no-cov)|(--timeout(?:-method)?)|(--reruns(?:-delay)?|--only-rerun)|(--html|--self-contained-html)|(--benchmark-[\w-]+))(?:[=\s]|$)/,
    below: /^\s+(?:inifile|configfile|rootdir): /,
    read: (m) => ({ tool: 'pytest', dependency: m[1] ? 'pytest-xdist' : m[2] ? 'pytest-cov' : m[3] ? 'pytest-timeout' : m[4] ? 'pytest-rerunfailures' : m[5] ? 'pytest-html' : 'pytest-benchmark' }),
  },
];
