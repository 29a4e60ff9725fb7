/**
 * What the failing command is for, as class evidence where no rule holds the message (issue 25; docs/notes/analyzer.md,
 * "The failing command's purpose (helper t15)"). Applied only to a finding the rules left `unknown`, never over a
 * rules class, at confidence `medium` or `low` (the answers hedge both), with the command's line as evidence:
 * - an output comparison (`diff`, `cmp`, `git diff --exit-code`/`--quiet`) that printed a difference and made the step
 *   fail: the check failed, test-assertion (medium). The comparison is the script's own traced command (`+ diff ...`)
 *   or make's echoed recipe line above `make: *** [target] Error N` (a `diff` header inside another tool's output, as
 *   `gofmt -d` prints, is neither);
 * - a linter or formatter check (eslint, ruff, gofmt, shellcheck, pre-commit, ...) whose output names a file and line:
 *   lint (low). One that names no place may have failed to run at all (a missing plugin or standard), so it stays unknown.
 * Network clients, package managers and test runners are not read: on the tuning rounds their command disagreed with
 * the class the rules established in 41-78 % of the cases (an agent lost under ssh, a credential under curl, a
 * compile error under `go test`), so the command alone is no evidence of the class.
 */
import type { Finding, FindingClass } from '../../protocol/types.js';
import { failingCommandAbove } from '../log/failingStep.js';
import { bodyOf, lineBody } from './body.js';

/** How far above the message the failing command is looked for. */
const REACH = 200;
const MAKE_FAILED = /^make(?:\[\d+\])?: \*\*\* \[(?:[^\]:]+:\d+: )?([^\]]+)\] Error \d+$/;
/** Wrappers in front of the program (`npx eslint`, `python -m ruff`, `node_modules/.bin/standard`). */
const WRAPPER = /^(?:(?:sudo|time|npx|pnpm exec|yarn|uv run|poetry run|bundle exec|python3?(?:\.\d+)? -m|env(?: \w+=\S*)*|\w+=\S*)\s+)+/;
const COMPARE = /^(?:diff|cmp|colordiff)\s|^git (?:--no-pager )?diff\b.*\s--(?:exit-code|quiet)\b/;
/** A difference printed: a unified or normal diff's lines, git's header, cmp's report. */
const DIFFERENCE = /^(?:--- |\+\+\+ |@@ |[<>] |\d+(?:,\d+)?[acd]\d+(?:,\d+)?$|diff --git )|\bdiffer: (?:byte|char)\b|^cmp: EOF on\b/;
const LINTER = /^(?:eslint|ruff|flake8|pylint|pycodestyle|pydocstyle|pyflakes|gofmt|goimports|golangci-lint|staticcheck|black|isort|prettier|clang-format|clang-tidy|shellcheck|shfmt|hadolint|stylelint|markdownlint(?:-cli2)?|yamllint|rubocop|standard|jshint|tslint|cpplint|ktlint|biome|oxlint|pre-commit|swiftlint|phpcs|credo)$/;
/** A place a report names: `file.ext:line`, not one of the linter's own code (a crash's stack frame). */
const PLACE = /(?<![\w./-])(?![\w./-]*(?:node_modules|site-packages|dist-packages)\/)[\w./-]+\.[A-Za-z]{1,6}:\d+\b/;

/** An output comparison's command line (`diff -u a b`, `+ cmp a b`, make's echoed recipe): the answers name it. */
export function isComparison(text: string): boolean {
  return COMPARE.test(comparisonCommand(text));
}

/** The command of a comparison's line as the log prints it, its CI prefix and trace mark taken off. */
export function comparisonCommand(text: string): string {
  return bodyOf(text).trim().replace(/^\+ /, '').replace(WRAPPER, '');
}

/** The program a command line runs, its wrappers and directory taken off (`node_modules/.bin/eslint .` -> eslint). */
export function programOf(command: string): string {
  const first = command.trim().replace(WRAPPER, '').split(/\s+/)[0] ?? '';
  return first.slice(first.lastIndexOf('/') + 1);
}

/** The comparison make ran as a recipe line between `from` and the stop at `at` (0-based), when a difference follows it. */
function recipeCompare(from: number, at: number, bodyAt: (i: number) => string): number | undefined {
  for (let i = at - 1; i > from; i--) {
    if (!COMPARE.test(bodyAt(i).trim())) continue;
    for (let k = i + 1; k < at; k++) if (DIFFERENCE.test(bodyAt(k))) return i;
    return undefined;
  }
  return undefined;
}

/**
 * How a tool says the path it was given is not there, or not what it takes: the path, then the words, or the words, then
 * the path. git's pathspec (`error: pathspec 'x' did not match any file(s) known to git`, `fatal: pathspec 'x' did not
 * match any files`) and cp's directory without `-r` (`cp: -r not specified; omitting directory 'x'`) are real output
 * (test/fixtures/grammar git-pathspec-*, cp-omitting-directory), as are tsc's `error TS5058: The specified path does not
 * exist: 'x'` for `-p x` and unittest's `ImportError: Start directory is not importable: 'x'` for `discover -s x`
 * (tsc-project-missing, unittest-start-missing).
 */
const PATH_THEN_MISSING = /^['"’`]?:?(?: (?:cannot|can't|failed to) (?:stat|open|access|read)\w*:)? (?:no such file or directory|is not a directory|does not exist|not found|did not match any files?(?:\(s\))?)\b/i;
const MISSING_THEN_PATH = /\b(?:l?stat|cannot stat|cannot access|(?:file|directory|path|file or directory) not found:|not a directory:|does not exist:|no such file or directory:|omitting directory|is not importable:) ['"‘`]?$/i;

/** A command's arguments that may name a path (no option), in the form a tool prints them back (`./pkg/...` -> `./pkg`). */
function pathArguments(command: string): string[] {
  return command
    .split(/\s+/)
    .slice(1)
    .filter((a) => a !== '' && !a.startsWith('-') && !a.includes('='))
    .map((a) => a.replace(/^['"]|['"]$/g, '').replace(/\/\.\.\.$/, '').replace(/\/+$/, ''))
    .filter((a) => /^[\w./-]+$/.test(a) && /[A-Za-z]/.test(a));
}

/**
 * The line (0-based) between the traced command at `from` and `to` where a tool says a path the command was given is
 * not there (`lstat ./pkg/: no such file or directory` under `+ go test ./pkg/...`, `Error: /ws/build is not a
 * directory` under `+ cmake --build build`): the script named what does not exist, the script's error. A path the tool
 * read on its own (an include, a config file) or names as a place (`f.c:3:`) is not the command's argument.
 */
function missingArgument(from: number, to: number, command: string, bodyAt: (i: number) => string): number | undefined {
  const args = pathArguments(command);
  if (args.length === 0) return undefined;
  for (let k = from + 1; k <= to; k++) {
    const t = bodyAt(k);
    for (const a of args) {
      for (let i = t.indexOf(a); i >= 0; i = t.indexOf(a, i + 1)) {
        // The path as printed: the argument itself, or it made absolute (`/ws/proj/build` for `build`), whole.
        const start = i === 0 || /[\s'"‘`]/.test(t[i - 1] as string) || (t[i - 1] === '/' && a[0] !== '/' && a[0] !== '.') ? i : -1;
        if (start < 0) continue;
        const tail = t.slice(i + a.length).replace(/^\/+(?=['"’:\s]|$)/, '');
        if (/^[\w.-]/.test(tail)) continue;
        const before = t.slice(0, i).replace(/\S*$/, (w) => (w.startsWith('/') ? '' : w));
        if (PATH_THEN_MISSING.test(tail) || MISSING_THEN_PATH.test(before)) return k;
      }
    }
  }
  return undefined;
}

function purposeClass(lines: readonly string[], f: Finding): { cls: FindingClass; confidence: 'medium' | 'low'; line: number; target?: string; message?: number } | undefined {
  const bodyAt = (i: number): string => lineBody(lines, i);
  const at = f.message_line - 1;
  const traced = failingCommandAbove(at, bodyAt, REACH);
  if (!traced) return undefined;
  const between = (test: RegExp, from: number): boolean => {
    for (let k = from + 1; k <= at; k++) if (test.test(bodyAt(k))) return true;
    return false;
  };
  const make = MAKE_FAILED.exec(bodyAt(at).trim());
  if (make) {
    const recipe = recipeCompare(traced.line, at, bodyAt);
    return recipe === undefined ? undefined : { cls: 'test-assertion', confidence: 'medium', line: recipe, target: make[1] as string };
  }
  const command = traced.command.replace(WRAPPER, '');
  if (COMPARE.test(command)) return between(DIFFERENCE, traced.line) ? { cls: 'test-assertion', confidence: 'medium', line: traced.line } : undefined;
  if (LINTER.test(programOf(command)) && ((f.location !== undefined && PLACE.test(`${f.location.file}:1`)) || between(PLACE, traced.line))) return { cls: 'lint', confidence: 'low', line: traced.line };
  const missing = missingArgument(traced.line, at, command, bodyAt);
  if (missing !== undefined) return { cls: 'ci-script', confidence: 'medium', line: traced.line, message: missing };
  return undefined;
}

/**
 * A tool's refusal of the path the script gave it, said as its own error (session 49, t24): tsc's placeless `error
 * TS5058: The specified path does not exist: 'tsconfig.build.json'` under `+ npx tsc -p tsconfig.build.json` (a rule
 * reads every `error TSnnnn:` as a compile error), unittest's `ImportError: Start directory is not importable: 'tset'`
 * raised in its own discovery under `+ python3 -m unittest discover -s tset` (Python's grammar reads it as a runtime
 * exception). The message line itself is the refusal of the traced command's argument (missingArgument) and the finding
 * names no place in the code: no source was compiled or run, the script named what is not there: ci-script, medium.
 */
function refusedArgument(lines: readonly string[], f: Finding): number | undefined {
  if ((f.class !== 'compile-error' && f.class !== 'runtime-exception') || f.location !== undefined) return undefined;
  const bodyAt = (i: number): string => lineBody(lines, i);
  const at = f.message_line - 1;
  const traced = failingCommandAbove(at, bodyAt, REACH);
  return traced !== undefined && missingArgument(at - 1, at, traced.command.replace(WRAPPER, ''), bodyAt) === at ? traced.line : undefined;
}

/** The finding, its class read from the failing command's purpose when the rules left it unknown (else unchanged). */
export function withCommandPurpose(lines: readonly string[], f: Finding): Finding {
  const refused = refusedArgument(lines, f);
  if (refused !== undefined) return { ...f, class: 'ci-script', confidence: 'medium', evidence: [...f.evidence, refused + 1] };
  if (f.class !== 'unknown') return f;
  const p = purposeClass(lines, f);
  if (!p) return f;
  // The make target whose recipe compared is the check that failed (`make: *** [Makefile:8: check]`).
  const test = f.test === undefined && p.target !== undefined ? { test: { name: p.target, log_line: f.message_line } } : {};
  // The tool's own line that says why (a path the command was given is not there) is the message over a CI's exit line.
  const said = p.message === undefined || p.message + 1 === f.message_line ? {} : { message: lineBody(lines, p.message).trim(), message_line: p.message + 1 };
  return { ...f, class: p.cls, confidence: p.confidence, evidence: [...f.evidence, p.line + 1], ...test, ...said };
}
