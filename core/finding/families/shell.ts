/**
 * The shell and its tools: sh/bash, env, sed, timeout, a child ended by a signal: evidence rules of the tuning rounds 5, 10, 11, 13 (issue 25; docs/notes/analyzer.md, each
 * round's "opened" section), kept by tool family (rv3, session 43). Each is a tool's own wording for one cause,
 * never a case's words. Tried with RULES (rules.ts): `SHELL_FIRST_RULES` before the general rules (each is
 * narrower than a general rule that matches the same line), `SHELL_RULES` after the general rules and the cross-tool families' (rules.ts).
 */
import type { Rule } from '../ruleTypes.js';

export const SHELL_FIRST_RULES: Rule[] = [
  // Probes of general wordings on made-up logs of other tools (t14), each a tool's documented message:
  // coreutils' `timeout --verbose` (`timeout: sending signal TERM to command 'npm'`): the command's time limit ran out.
  { cls: 'timeout-aborted', priority: 24, confidence: 'high', re: /^timeout: sending signal (?:TERM|KILL|INT|HUP) to command ['‘`]([^'’`]+)['’`]/, read: (m) => ({ tool: 'timeout', symbol: m[1] as string }) },
  // env(1) running a script whose `#!/usr/bin/env python` names an interpreter that is not on PATH
  // (`/usr/bin/env: 'python': No such file or directory`, older coreutils without quotes).
  { cls: 'missing-tool', priority: 15, confidence: 'high', re: /^(?:\/usr)?(?:\/bin\/)?env: ['‘]?([\w.+-]+)['’]?: No such file or directory$/, read: (m) => ({ tool: 'env', symbol: m[1] as string }) },
];

export const SHELL_RULES: Rule[] = [
  // find refusing the expression the script gave it (`find: missing argument to `-exec'`: an -exec without its `\;` or
  // `+`; `paths must precede expression`, `unknown predicate`): the command line is wrong, before any file was read.
  { cls: 'ci-script', priority: 15, confidence: 'high', re: /^find: (?:missing argument to [`'‘]-(?:exec|execdir|ok|okdir)['’]|paths must precede expression: |unknown predicate [`'‘])/, read: () => ({ tool: 'find' }) },
  // The shell's redirect to a variable that is empty or splits into words.
  { cls: 'ci-script', priority: 12, confidence: 'high', re: /^(?:\S+: )?(?:line \d+: )?\S+: ambiguous redirect$/, read: () => ({ tool: 'sh' }) },
  // A script saved with CRLF line endings: its shebang names `bash\r`, or each line ends in `\r`.
  { cls: 'ci-script', priority: 12, confidence: 'high', re: /\\r['’]?: No such file or directory$|\$'\\r': command not found$|\^M: bad interpreter\b|\r: bad interpreter\b/, read: () => ({ tool: 'sh' }) },
  // dash (Debian's and Ubuntu's /bin/sh) on a bash-only expansion (`${x//a/b}`, `${x:0:3}`): `script: LINE: Bad
  // substitution`, its script and line before the words (bash says `line N: ...: bad substitution`, words.ts).
  {
    cls: 'ci-script',
    priority: 12,
    confidence: 'high',
    re: /^(\S+): (\d+): Bad substitution$/,
    read: (m) => ({ tool: 'sh', ...(/[./]/.test(m[1] as string) ? { file: m[1] as string, line: Number(m[2]) } : {}) }),
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
  // A GNU tool's usage error (coreutils' and gnulib's `usage()`): a missing or extra operand (`cp: missing destination
  // file operand after 'out/etc/'`, `mkdir: missing operand`, `ln: missing file operand`, `cp: extra operand 'c'`) is
  // the command line the script or recipe wrote, short of a word it meant to pass (an empty variable, a glob's
  // miss) or with one too many, before any file was touched (helper ux17). An option the tool does not take
  // (`invalid option -- 'q'`, `unrecognized option '--x'`) only with the `Try 'tool --help'` line the usage error
  // prints under it, so a program's own sentence of the same words is not read as one.
  // GNU sed's `-i` with no file to edit (`sed: no input files`) is the same: the file operand expanded to nothing.
  { cls: 'ci-script', priority: 15, confidence: 'high', re: /^(?:\/(?:usr\/)?bin\/)?([a-z][\w.+-]*): (?:missing (?:destination )?(?:file )?operand(?: after ['‘].*['’])?|extra operand ['‘].*['’])$|^(sed): no input files$/, read: (m) => ({ tool: (m[1] ?? m[2]) as string }) },
  { cls: 'ci-script', priority: 15, confidence: 'high', re: /^(?:\/(?:usr\/)?bin\/)?([a-z][\w.+-]*): (?:invalid option -- ['‘].+['’]|unrecognized option ['‘].+['’]|option requires an argument -- ['‘].+['’])$/, below: /^Try ['‘][\w./+-]+ --help['’] for more information\.$/, read: (m) => ({ tool: m[1] as string }) },
  // bash's diagnostic on a variable of the script (`deploy.sh: line 3: DEPLOY_ENV: DEPLOY_ENV must be set`, the form of
  // `${VAR:?message}`, `X: readonly variable`, `X: parameter null or not set`): the script stopped on its own check of
  // its environment. Last resort (priority 58, the weakest strong rule): a tool's or the shell's own word on the same line (command not found,
  // Permission denied) wins; a warning is not a stop (helper t13).
  { cls: 'ci-script', priority: 58, confidence: 'medium', re: /^\S+: line \d+: (?!warning:)[A-Za-z_]\w*: (?!command not found$|Permission denied$|No such file or directory$|Is a directory$|cannot execute)\S/, read: () => ({ tool: 'sh' }) },
  // Exit status 141 is 128 + SIGPIPE (13): a reader that stops early (`head`, `grep -q`) closed the pipe, and
  // `set -o pipefail` made the writer's death the pipeline's failure: the script's construction, not the data.
  { cls: 'ci-script', priority: 26, confidence: 'medium', re: /\bexit (?:code|status) 141\b|\breturned exit code 141\b/, read: () => ({ tool: 'bash' }) },
  // The kernel's E2BIG (`cat: Argument list too long`, `/usr/bin/cp: Argument list too long`): a glob expanded past
  // the system's limit on exec's arguments; the step's exit 126 (cannot execute) is its consequence, no permission.
  { cls: 'ci-script', priority: 14, confidence: 'high', re: /: Argument list too long$/, read: () => ({ tool: 'sh' }) },
];
