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
  // dash (Debian's and Ubuntu's /bin/sh) on a bash-only expansion (`${x//a/b}`, `${x:0:3}`): `script: LINE: Bad
  // substitution`, its script and line before the words (bash says `line N: ...: bad substitution`, words.ts).
  {
    cls: 'ci-script',
    priority: 12,
    confidence: 'high',
    re: /^(\S+): (\d+): Bad substitution$/,
    read: (m) => ({ tool: 'sh', ...(/[./]/.test(m[1] as string) ? { file: m[1] as string, line: Number(m[2]) } : {}) }),
  },
  // pytest that selected no test (`collected 3 items / 3 deselected / 0 selected`, `collected 0 items`, `no tests
  // ran`): it exits 5, so the step fails without a failing test; the script's selection (`-m`, `-k`, paths) matches nothing.
  {
    cls: 'ci-script',
    priority: 48,
    confidence: 'medium',
    re: /^collected \d+ items? \/ \d+ deselected \/ 0 selected\s*$|^collected 0 items\s*$|^=+ no tests ran in [\d.]+s =+$/,
    read: () => ({ tool: 'pytest' }),
  },
  // Any runner that found nothing to run (mocha's and vitest's `No test files found`, jest's `No tests found, exiting
  // with code 1`, jasmine's `No specs found`, phpunit's `No tests executed!`, ctest's `No tests were found!!!`): the
  // script's selection (a glob, a pattern, a directory) matches no test, the script's error (t16).
  {
    cls: 'ci-script',
    priority: 48,
    confidence: 'medium',
    re: /^(?:Error: )?No test files found\b|^No tests found(?:, exiting with code \d+|\b.*\bmatching\b)|^No specs found\b|^No tests executed!|^No tests were found!*$/,
  },
  // A child that ended on SIGTERM, as make and the shell report it (`make: *** [Makefile:8: check] Terminated`,
  // `ci.sh: line 5:  4242 Terminated   ./x`, a bare `Terminated`): stopped from outside, by a time limit (`timeout`)
  // or a cancellation, the taxonomy's timeout / aborted (helper t12). `Killed` (SIGKILL) is left to the memory rules.
  // SIGALRM's description, `Alarm clock` (strsignal), in the same places: the program's own alarm() watchdog (a time
  // limit the test set itself) ran out, the same class (helper t13).
  { cls: 'timeout-aborted', priority: 26, confidence: 'medium', re: /^(?:g?make(?:\[\d+\])?: \*\*\* \[[^\]]*\] (?:Terminated|Alarm clock)$|(?:\S+: )?line \d+: +\d+ (?:Terminated|Alarm clock)\b|(?:Terminated|Alarm clock)$)/, read: () => ({}) },
  // GNU sed refusing its own program (`sed: -e expression #1, char 5: unterminated `s' command`, `unknown option to
  // `s'`): the expression the CI script wrote is wrong, before any input is read (helper t12).
  { cls: 'ci-script', priority: 15, confidence: 'high', re: /^sed: -e expression #\d+, char \d+: \S/, read: () => ({ tool: 'sed' }) },
  // git run where the checkout is not (`fatal: not a git repository (or any of the parent directories): .git`): the
  // script's working directory, not the code (helper t12).
  { cls: 'ci-script', priority: 15, confidence: 'medium', re: /^fatal: not a git repository \(or any of the parent directories\)/, read: () => ({ tool: 'git' }) },
  // The interpreter asked to run a script the checkout does not have: Python's `python3: can't open file '/ws/x.py':
  // [Errno 2] No such file or directory`, Node's `Error: Cannot find module '/ws/scripts/x.js'` for its entry point
  // (an empty `requireStack: []`: no module of the project's required it). The CI script names a wrong path
  // (helper t12). A module another one requires, or a package name, is a dependency (rules.ts).
  { cls: 'ci-script', priority: 15, confidence: 'high', re: /^(?:\S*\/)?python[\d.]*: can't open file '([^']+)': \[Errno 2\] No such file or directory/, read: (m) => ({ tool: 'python', symbol: m[1] as string }) },
  { cls: 'ci-script', priority: 15, confidence: 'medium', re: /^Error: Cannot find module '((?:[A-Za-z]:)?[./\\][^']*)'$/, near: { re: /^\s*requireStack: \[\]\s*$/, from: 1, to: 12, required: true }, read: (m) => ({ tool: 'node', symbol: m[1] as string }) },
];
