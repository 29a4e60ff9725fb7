/**
 * The failed command's own words over the CI's exit line (session 47, helper t22; docs/notes/analyzer.md).
 *
 * A step whose command printed a few lines and stopped, under a `bash -x` trace, reads: the echoed
 * command (`+ sox in.wav out.mp3`), what it printed, the runner's markers, the runner's exit line
 * (`ERROR: script returned exit code 2`). When no rule reads the printed lines, the exit line is the
 * finding's message, although the command said why. Which printed line is its diagnostic is the shell
 * tools' grammar, not their wording: a program names itself first (`docker: unknown command: ...`,
 * `sox FAIL formats: ...`, POSIX's `argv[0]: message`), a script its own path (`scripts/publish.zsh:6:
 * no matches found: ...`, bash's `./x.sh: line 6: ...`), and a checker the place it reports
 * (`docs/usage.md:7: trailing whitespace.`). A heading that ends in a colon introduces its detail:
 * the place line under it (`go: errors parsing go.mod:` over `.../go.mod:5: unknown directive: ...`).
 * A program that printed only data (a table of sizes, a listing) says no such line: the exit stays.
 */
import { RUNNER_MARK } from '../log/stepExit.js';
import { commandOf, locatedIn, words } from './generic.js';

/** A severity word a tool puts after its name without a colon (`sox FAIL formats: ...`). */
const SEVERITY_AFTER_NAME = /^(?:FAIL|FAILED|ERROR|FATAL|error|fatal)\b/;

/** Whether `t` (trimmed) opens with the program's name or a script argument's path, as a diagnostic does. */
function namesItself(t: string, program: string, scripts: readonly string[]): boolean {
  if (program !== '' && t.startsWith(program)) {
    const rest = t.slice(program.length);
    if (/^(?:\[\d+\])?: \S/.test(rest) || (rest.startsWith(' ') && SEVERITY_AFTER_NAME.test(rest.slice(1)))) return true;
  }
  return scripts.some((s) => t.startsWith(`${s}:`) && /^:(?: line)? ?\d+: \S/.test(t.slice(s.length)));
}

/** A place with a message (`file:line: msg`): what a checker or compiler says of a file. */
function placeSaid(t: string): boolean {
  const p = locatedIn(t);
  return p !== undefined && p.message.trim() !== '';
}

/** How far above the exit line the step's command is looked for. */
const REACH = 30;
/** A `bash -x` trace of a command (`+ cmd`, `++ cmd` in a substitution; a diff's added line `+  text` is none) or a CI's `$ cmd`. */
const TRACED = /^(?:\++ (?=\S)|\$ )(.+)$/;

/**
 * The 0-based index of the failed command's diagnostic between its echoed command and the CI's exit
 * line at `exit` (0-based), or undefined when it printed none or no command is echoed within reach.
 */
export function ownDiagnostic(exit: number, bodyAt: (i: number) => string): number | undefined {
  let at = exit - 1;
  while (at >= 0 && exit - at <= REACH && !(TRACED.test(bodyAt(at).trim()) && !/^\+\+\+ /.test(bodyAt(at).trim()))) at--;
  const echoed = at >= 0 && exit - at <= REACH ? TRACED.exec(bodyAt(at).trim())?.[1] : undefined;
  if (echoed === undefined) return undefined;
  const cmd = commandOf(echoed);
  // The scripts it ran: arguments that are paths to a file (`scripts/publish.zsh`, `./check.sh`).
  const scripts = words(cmd.text).slice(1).filter((w) => /^[\w.~/-]+\.\w{1,6}$/.test(w) && /\//.test(w)).flatMap((w) => [w, w.replace(/^\.\//, '')]);
  const out: number[] = [];
  for (let i = at + 1; i < exit; i++) {
    const t = bodyAt(i).trim();
    if (t !== '' && !RUNNER_MARK.test(t)) out.push(i);
  }
  for (let k = 0; k < out.length; k++) {
    const i = out[k] as number;
    const t = bodyAt(i).trim();
    if (!namesItself(t, cmd.program, scripts) && !placeSaid(t)) continue;
    const next = out[k + 1];
    // A heading over its detail: the detail's place line is the diagnostic.
    if (/:$/.test(t) && next !== undefined && placeSaid(bodyAt(next).trim())) return next;
    return i;
  }
  return undefined;
}

/** make's verdict on a recipe line that failed (`make: *** [Makefile:5: install] Error 1`, GNU make 4.2+ and older). */
export const MAKE_VERDICT = /^g?make(?:\[\d+\])?: \*\*\* (?:\[[^\]]+\] )?Error \d+$/;
/** make's own lines that are no command's words: its verdicts, directory changes, nothing-to-do. */
const MAKE_OWN = /^g?make(?:\[\d+\])?: (?:\*\*\* |Entering directory |Leaving directory |Nothing to be done |'[^']*' is up to date)/;
/** A program's diagnostic as POSIX writes it: `argv[0]: message` (`cp: missing ...`, `/bin/sh: 1: x: not found`). */
const NAMED_LINE = /^((?:[\w.~-]*\/)*([\w.+-]+))(?:\[\d+\])?: (?!(?:warning|note|info|hint|notice|debug)\b)\S/i;

/**
 * The 0-based index of the recipe command's own diagnostic above make's verdict at `verdict` (0-based), or
 * undefined. make echoes each recipe line before the shell runs it (GNU make manual, "Recipe Echoing"), so
 * between the step's command (`+ make install`) and the verdict are the echoed lines and what they printed: the
 * diagnostic is a line that opens with the name of a program an echoed line above it runs (`cp: missing
 * destination file operand after 'out/etc/'` under `for f in ...; do cp  out/etc/; done`), or with make's or a
 * shell's name (`make: ./gen.sh: No such file or directory`, `/bin/sh: 1: gen: not found`). The first such line
 * is the command's: under make the recipe stops at its first failing line.
 */
export function recipeDiagnostic(verdict: number, bodyAt: (i: number) => string): number | undefined {
  const span: number[] = [];
  for (let i = verdict - 1; i >= 0 && verdict - i <= REACH; i--) {
    const t = bodyAt(i).trim();
    if (TRACED.test(t) && !/^\+\+\+ /.test(t)) break;
    if (t !== '' && !RUNNER_MARK.test(t)) span.unshift(i);
  }
  const seen = new Set<string>();
  for (const i of span) {
    const t = bodyAt(i).trim();
    const named = NAMED_LINE.exec(t);
    const program = named?.[2];
    if (named && program && !MAKE_OWN.test(t) && (seen.has(program) || /^(?:g?make|(?:ba|da|z|k)?sh)$/.test(program))) return i;
    // The programs a line runs, as an echoed recipe line names them (each word that could be a command's name).
    for (const w of words(t)) seen.add(w.replace(/^.*\//, '').replace(/[;)]+$/, ''));
  }
  return undefined;
}
