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
import { escapeRegExp } from '../regexp.js';
import { words, type Command } from './generic.js';

/** A tool's words for an operand it cannot take. */
const REFUSAL = /\b(?:does(?: not|n't) exist|not found|No files matching|[Nn]o such (?:file|directory)|already exists|File exists|is ambiguous|is not a directory|[Nn]ot a directory|is not importable|[Cc]an(?:no|')t (?:read|open|find|stat|access)|[Cc]ould not (?:find|open|access|read))\b/;
/** Subcommands that fetch what they are given by name (a package manager's, a registry client's). */
const FETCHES = /^(?:install|add|get|fetch|pull|download|require|update|upgrade|clone|push)$/;
/** Operands that name something the network or a registry holds: a URL, a host or user@host, an image or module tag, a version pin. */
const REMOTE = /:\/\/|@|:|[<>=~^]/;

/** A diagnostic's pointer to its place, on the line under it: `--> src:1:1`. */
const POINTER = /^\s*--> \S+:\d+:\d+\s*$/;

/**
 * The operand of `command` that `line` refuses (quoted, or a path standing as a word of it, or the last part of a
 * path it names), or undefined.
 */
export function refusedOperand(command: Command, line: string, next = ''): string | undefined {
  if (!REFUSAL.test(line)) return undefined;
  // The place a diagnostic points to on the line under it (ruff's and rustc's `--> path:1:1`) is the refusal's too.
  if (POINTER.test(next)) line = `${line} ${next.trim().slice(4)}`;
  const ws = words(command.text);
  const at = ws.findIndex((w) => w.replace(/^.*\//, '') === command.program);
  const args = ws.slice(at + 1);
  // The subcommand (the first word that is no option): `pip install x`, `yarn add x`, `go get x`, `docker pull x`.
  if (FETCHES.test(args.find((w) => !w.startsWith('-')) ?? '')) return undefined;
  for (const word of args) {
    // An option's attached value (`--reporter=x`, `-Dx=y` are not operands of a file): only `--opt=value` with a path.
    const w = word.startsWith('-') ? (/^--[\w-]+=([\w.~/-]*\/[\w.~/-]*)$/.exec(word)?.[1] ?? '') : word;
    if (w.length < 3 || REMOTE.test(w) || /^\d+$|^[.~/]+$/.test(w)) continue;
    const e = escapeRegExp(w);
    const end = '(?=$|[\\s\'"`’!,;)])';
    const quoted = new RegExp(`['"\`‘]${e}['"\`’]`).test(line);
    const path = /[/.]/.test(w) && new RegExp(`(?:^|[\\s(=])${e}${end}`).test(line);
    const tail = new RegExp(`/${escapeRegExp(w.replace(/^.*\//, ''))}${end}`).test(line) && new RegExp(`${e}${end}`).test(line);
    // A place of it (`src:1:1`, ruff's `src:1:1: E902 ...` or its `--> src:1:1` under the refusal): a path by its form, no subcommand.
    const place = new RegExp(`(?:^|\\s)${e}:\\d+:\\d+\\b`).test(line);
    if (quoted || path || tail || place) return w;
  }
  return undefined;
}
