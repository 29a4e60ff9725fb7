/**
 * What a command file is given to declare its command (issue 31 point 7, gh's layout): each
 * `cli/commands/<name>.ts` exports `<name>Command(deps): Command` with its name, description,
 * arguments, options, help text and action, and runs it in the same file. `program.ts` only
 * adds them to the program, holds the global options and makes the `Ctx` of a run.
 *
 * `cichat --help` loads every command file (cli/helpBundle.js bundles them for a checkout,
 * scripts/bundle-cli.mjs into dist/cli/program.js for the package), so a command file imports
 * at its top only commander, this module, `errors`, `output`, `io`, a few small pure helpers
 * (`chatSubject`, `sources`, `tree`) and types; everything else (the client, Ink, React,
 * `stdin`, `upload`, `core/`, `jenkins/`) is `await import()`ed where the command runs. The help
 * bundle leaves every dynamic import out; test/cli-offline.test.ts fails when it holds more.
 *
 * Settings of the whole tree (output, exit override, help layout, suggestions) are the
 * program's: program.ts copies them to every command after adding them, so a command file sets
 * none of its own.
 */
import { Command } from 'commander';
import { parsePositiveInt } from './errors.js';
import type { CliIO, Ctx } from './io.js';

export interface CommandDeps {
  /** The streams and environment of this run (what an action may read before it has a Ctx). */
  io: CliIO;
  /** The context of a run of `cmd`: global options, IO, the client (made on first use). A bad --url is a usage error here. */
  ctxOf(cmd: Command): Promise<Ctx>;
}

/** An argument parser for a positive integer; a bad value is a usage error naming `name`. */
export function intArg(name: string) {
  return (value: string): number => parsePositiveInt(value, name);
}

/** A command that only groups subcommands (`chats`, `token`): alone it prints its help on stderr (exit 2). */
export function commandGroup(name: string, description: string): Command {
  const group = new Command(name).description(description);
  group.action(() => {
    group.help({ error: true });
  });
  return group;
}
