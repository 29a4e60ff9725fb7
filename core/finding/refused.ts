/**
 * A tool's refusal of what the script's command gave it (session 54, helper t29; docs/notes/analyzer.md "Session 54
 * (helper t29)"). When no rule reads a failed step's line, a line that quotes an operand of the step's own command
 * (a path, a task, a directory, a start directory) and says the tool cannot take it (it does not exist, exists
 * already, is ambiguous, is not a directory) is the script's error: the command asked for something that is not
 * there, whatever the tool (`git worktree add X` over `fatal: 'X' already exists`, `ln -s a b` over `failed to create
 * symbolic link 'b': File exists`, `gradle test pack` over `Task 'pack' is ambiguous`, `mvn -f a/pom.xml` over `POM
 * file a/pom.xml ... does not exist`). The operand is the evidence, not the tool's wording: a line that names no
 * operand of the command stays unread here.
 * Not: a command that fetches what it names (`pip install x`, `docker pull x`, `apt-get install x`: a name it cannot
 * find is a dependency's), an operand that is a URL, a host, an image tag or a version pin (the network's or the
 * registry's), a bare word that is not quoted (a subcommand: `docker build` over `failed to build`).
 */
import type { Finding } from '../../protocol/types.js';
import { failingCommandAbove } from '../log/failingStep.js';
import { escapeRegExp } from '../regexp.js';
import { commandOf, words, type Command } from './generic.js';

/** A tool's words for an operand it cannot take. */
const REFUSAL = /\b(?:does(?: not|n't) exist|not found|No files matching|[Nn]o such (?:file|directory)|already exists|File exists|is ambiguous|is not a directory|[Nn]ot a directory|is not importable|[Cc]an(?:no|')t (?:read|open|find|stat|access)|[Cc]ould not (?:find|open|access|read))\b/;
/** Subcommands that fetch what they are given by name (a package manager's, a registry client's). */
const FETCHES = /^(?:install|add|get|fetch|pull|download|require|update|upgrade|clone|push)$/;
/** Operands that name something the network or a registry holds: a URL, a host or user@host, an image or module tag, a version pin. */
const REMOTE = /:\/\/|@|:|[<>=~^]/;

/** A diagnostic's pointer to its place, on the line under it: `--> src:1:1`. */
const POINTER = /^\s*--> \S+:\d+:\d+\s*$/;
/** The refusal words that say the operand is not there (ruff's E902, cp's and tar's `cannot stat`, pytest's and go's `not found`, ESLint's `No files matching`). */
const ABSENT = /[Nn]o such file or directory|does(?: not|n't) exist|\bnot found\b|[Cc]annot stat|can't stat|No files matching/;
/** Characters after an operand's name on the line. */
const END = '(?=$|[\\s\'"`’!,;)])';

/** What a line refuses of the step's command. */
export interface Refusal {
  /** The operand as the command gives it (`./internal/labels/...`, `config/app.json`). */
  operand: string;
  /** The operand as a path: `./` and a trailing `/` or go's `/...` trimmed (`internal/labels`). */
  path: string;
  /** The refusal says it is not there (not: exists already, is ambiguous, is not a directory). */
  absent: boolean;
  /** Named by a quote, a path's own form (a `/` or `.` in it, or its last part after a `/`) or a place (`src:1:1`), not only as a word before `:`: what the class may rest on. */
  quoted: boolean;
  /** Named only on the pointer line under the refusal (`--> src:1:1`). */
  onNext: boolean;
}

/** The operands of `command` a tool may refuse: its words after the program, with what a fetch, the network or a registry holds left out. */
function operandsOf(command: Command): string[] {
  const ws = words(command.text);
  const at = ws.findIndex((w) => w.replace(/^.*\//, '') === command.program);
  const args = ws.slice(at + 1);
  // The subcommand (the first word that is no option): `pip install x`, `yarn add x`, `go get x`, `docker pull x`.
  if (FETCHES.test(args.find((w) => !w.startsWith('-')) ?? '')) return [];
  const out: string[] = [];
  for (const word of args) {
    // An option's attached value (`--reporter=x`, `-Dx=y` are not operands of a file): only `--opt=value` with a path.
    const w = word.startsWith('-') ? (/^--[\w-]+=([\w.~/-]*\/[\w.~/-]*)$/.exec(word)?.[1] ?? '') : word;
    if (w.length < 3 || REMOTE.test(w) || /^\d+$|^[.~/]+$/.test(w)) continue;
    out.push(w);
  }
  return out;
}

/** Whether `line` names operand `w` by a quote, its path's form, its last part or a place of it. */
function namesQuoted(w: string, line: string): boolean {
  const e = escapeRegExp(w);
  const quoted = new RegExp(`['"\`‘]${e}['"\`’]`).test(line);
  const path = /[/.]/.test(w) && new RegExp(`(?:^|[\\s(=])${e}${END}`).test(line);
  const tail = new RegExp(`/${escapeRegExp(w.replace(/^.*\//, ''))}${END}`).test(line) && new RegExp(`${e}${END}`).test(line);
  // A place of it (`src:1:1`, ruff's `src:1:1: E902 ...` or its `--> src:1:1` under the refusal): a path by its form, no subcommand.
  const place = new RegExp(`(?:^|\\s)${e}:\\d+:\\d+\\b`).test(line);
  return quoted || path || tail || place;
}

/** Whether `line` names path `p` as a word of its own (after a space, a quote, `(` or `/`; before a space, a quote or `:`): `tar: public: Cannot stat`, `lstat ./internal/labels/: ...`. */
const namesPath = (p: string, line: string): boolean => new RegExp(`(?:^|[\\s'"\`‘(/])(?:\\./)?${escapeRegExp(p)}/?(?=$|[\\s'"\`’:,;)])`).test(line);

/**
 * The one reader of "the operand of `command` that `line` refuses" (with `next`, the line under it, when that is the
 * diagnostic's `--> place` pointer): the first operand named by a quote or a path's form (`quoted`), else the first
 * named only as a word; undefined when the line says no refusal or names no operand.
 */
export function refusalOf(command: Command, line: string, next = ''): Refusal | undefined {
  if (!REFUSAL.test(line)) return undefined;
  // The place a diagnostic points to on the line under it (ruff's and rustc's `--> path:1:1`) is the refusal's too.
  const joined = POINTER.test(next) ? `${line} ${next.trim().slice(4)}` : line;
  const absent = ABSENT.test(line);
  let word: Refusal | undefined;
  for (const w of operandsOf(command)) {
    const path = w.replace(/^\.\//, '').replace(/\/\.\.\.$/, '').replace(/\/+$/, '');
    if (namesQuoted(w, joined)) return { operand: w, path, absent, quoted: true, onNext: !namesQuoted(w, line) };
    if (!word && path !== '' && path !== '.' && namesPath(path, joined)) word = { operand: w, path, absent, quoted: false, onNext: !namesPath(path, line) };
  }
  return word;
}

/**
 * The operand of `command` that `line` refuses (quoted, or a path standing as a word of it, or the last part of a
 * path it names), or undefined: what a class may rest on (evidence.ts).
 */
export function refusedOperand(command: Command, line: string, next = ''): string | undefined {
  const r = refusalOf(command, line, next);
  return r?.quoted ? r.operand : undefined;
}

/** How far above its message a finding's refusal is read (at most; never above the step's command), and below. */
const ABOVE = 30;
const BELOW = 3;

/**
 * The finding step: the operand of the failed step's own command that a tool refused within the lines the command
 * printed up to the finding (30 at most) and 3 below it (ruff's `--> src:1:1`), as `refused` on the finding, for
 * whoever asks what the command named that was not there (the answer's change block: backend/answer/local/changeDiff.ts).
 * The step's command is core/log/failingStep.ts's, as the answers read it.
 */
export function withRefusedOperand(f: Finding, count: number, bodyAt: (i: number) => string): Finding {
  const msg = f.message_line - 1;
  const last = Math.min(count - 1, msg + BELOW);
  let any = false;
  for (let i = Math.max(0, msg - ABOVE); i <= last && !any; i++) any = REFUSAL.test(bodyAt(i));
  if (!any) return f;
  const step = failingCommandAbove(Math.min(count - 1, msg), (i) => (i < count ? bodyAt(i) : undefined));
  if (!step) return f;
  const command = commandOf(step.command);
  const first = step.line < msg ? Math.max(msg - ABOVE, step.line + 1) : msg;
  for (let i = first; i <= last; i++) {
    const r = refusalOf(command, bodyAt(i), i + 1 <= last ? bodyAt(i + 1) : '');
    if (!r) continue;
    return { ...f, refused: { operand: r.operand, path: r.path, absent: r.absent, log_line: i + 1, end_line: r.onNext ? i + 2 : i + 1, command_line: step.line + 1 } };
  }
  return f;
}
