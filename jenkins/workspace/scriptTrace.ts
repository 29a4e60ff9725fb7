/**
 * What a step's `sh -x` trace says of the command that failed (issue 25): the last command echoed
 * before the error, how many times it ran, and which files may hold the script line that ran it
 * (jenkins/workspace/snippets.ts quotes that line).
 */
import { bodyOf } from '../../core/finding/body.js';
import { echoedCommand, failingCommandAbove } from '../../core/log/failingStep.js';
import { escapeRegExp } from '../../core/regexp.js';

/** Classes whose cause is in how a step ran, not in a line of the code it built. */
export const SCRIPT_CLASSES = new Set(['network', 'permission-credentials', 'missing-tool', 'timeout-aborted', 'out-of-memory', 'disk-full', 'ci-script', 'dependency-resolution', 'unknown']);

/** Line i of `lines` as the finding reads it (its CI marks off: core/finding/body.ts). */
const bodyIn = (lines: readonly string[]) => (i: number): string | undefined => (lines[i] === undefined ? undefined : bodyOf(lines[i]));

/**
 * The command that ended the step failing on log line `n` (1-based), within 60 lines above it: the
 * one reader of the finding and the answers (core/log/failingStep.ts), so the script line quoted is
 * the command's they name.
 */
export function commandBefore(lines: readonly string[], n: number): string | undefined {
  return failingCommandAbove(Math.min(lines.length, n) - 1, bodyIn(lines), 60)?.command;
}

export const SCRIPT_FILE = /(?:^|\/)(?:[^/]+\.(?:sh|bash|ya?ml|groovy|mk|ps1|cmd|bat)|Makefile|GNUmakefile|Jenkinsfile|Dockerfile|package\.json|tox\.ini|noxfile\.py)$/;
export const SCRIPT_FILES_MAX = 200;

/** How many times `command` was echoed (`+ command`, `$ command`, ...: core/log/failingStep.ts) up to line `n` (1-based) of the log: the failing run's number. */
export function tracesOf(lines: readonly string[], command: string, n: number): number {
  const bodyAt = bodyIn(lines);
  let count = 0;
  for (let i = 0; i < Math.min(lines.length, n); i++) if (echoedCommand(bodyAt(i) ?? '') === command) count++;
  return count;
}

/** Words a tool prints before `:` that name no program (`fatal: ...`, `error: ...`). */
const NOT_A_PROGRAM = new Set(['fatal', 'error', 'warning', 'note', 'hint', 'info', 'debug', 'usage', 'caused', 'exception', 'traceback']);

/**
 * The program an error line names as its printer, coreutils-style (`sort: write failed: ...`,
 * `curl: (7) Failed ...`, `sed: can't read ...`); not a path (`./x.sh: line 3:` names its own line).
 */
export function printingProgram(message: string): string | undefined {
  const p = /^([a-z][\w.+-]*): \S/.exec(message.trim())?.[1];
  return p && !NOT_A_PROGRAM.has(p) ? p : undefined;
}

/** The workspace script a traced command runs (`./scripts/x.sh a b`, `bash tools/x.sh`): its path among `files`. */
export function scriptRunBy(command: string, files: readonly string[]): string | undefined {
  const words = command.trim().split(/\s+/);
  const path = /^(?:ba|da|z)?sh$|^source$|^\.$/.test(words[0] ?? '') ? words[1] : words[0];
  const rel = path?.replace(/^\.\//, '');
  return rel && !rel.startsWith('/') && files.includes(rel) ? rel : undefined;
}

/** The one line (0-based) of a script that runs `program` in a command's position; undefined for none or several. */
export function lineRunning(lines: readonly string[], program: string): number | undefined {
  const p = escapeRegExp(program);
  const re = new RegExp(`(?:^\\s*|[|;&(]\\s*|\\$\\(\\s*|\\b(?:then|do|else|exec|xargs|time|sudo|env|!)\\s+)${p}(?=\\s|$)`);
  const hits = lines.flatMap((l, i) => (!/^\s*#/.test(l) && re.test(l) ? [i] : []));
  return hits.length === 1 ? hits[0] : undefined;
}
