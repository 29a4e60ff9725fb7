/**
 * The `cichat` command line as a function of its IO: `run(argv, io)` parses, runs the command
 * and answers the exit code. The program holds the global options and the `Ctx` of a run; each
 * command is declared and run in its own file, cli/commands/<name>.ts (cli/command.ts says what
 * such a file may import at its top: `cichat --help` loads them all).
 */
import { Command, CommanderError } from 'commander';
import { EXIT_USAGE, reportError } from './errors.js';
import type { CichatClient, ClientOptions } from './client.js';
import type { CommandDeps } from './command.js';
import type { CliIO, Ctx } from './io.js';
import type { GlobalOptions } from './options.js';
import { packageVersion } from './version.js';
import { analyzeCommand } from './commands/analyze.js';
import { askCommand } from './commands/ask.js';
import { chatCommand } from './commands/chat.js';
import { chatsCommand } from './commands/chats.js';
import { contextCommand } from './commands/context.js';
import { failuresCommand } from './commands/failures.js';
import { historyCommand } from './commands/history.js';
import { serveCommand } from './commands/serve.js';
import { tokenCommand } from './commands/token.js';
import { wsCommand } from './commands/ws.js';

export type { GlobalOptions } from './options.js';

/** Makes the controller client (tests may hand in their own). */
export type ClientFactory = (options: ClientOptions) => CichatClient;

/** Builds the command tree; actions run with `io` and clients from `makeClient`. */
export function buildProgram(io: CliIO, makeClient?: ClientFactory, setExit: (code: number) => void = () => undefined): Command {
  const program = new Command();

  /** The context of a command: its options, IO and (lazily) its client. A bad --url is a usage error here. */
  async function ctxOf(cmd: Command): Promise<Ctx> {
    const options = cmd.optsWithGlobals<GlobalOptions>();
    const { CichatClient: Client, clientOptionsFrom } = await import('./client.js');
    const clientOptions = clientOptionsFrom(options, io.env);
    let client: CichatClient | undefined;
    return {
      options,
      io,
      client: () => (client ??= makeClient ? makeClient(clientOptions) : new Client(clientOptions)),
      exit: setExit,
    };
  }

  program
    .configureOutput({ writeOut: (t) => void io.stdout.write(t), writeErr: (t) => void io.stderr.write(t) })
    .name('cichat')
    .description('A chat assistant for your CI server: ask why a build failed, from the terminal or a pipeline.')
    .version(packageVersion(), '-V, --version', 'print the version')
    .option('--url <url>', 'the controller to talk to (default: $CICHAT_URL or http://127.0.0.1:8080)')
    .option('--token <token>', 'bearer token for a controller in `tokens` mode (default: $CICHAT_TOKEN)')
    .option('--json', 'print machine-readable JSON on stdout instead of text')
    .configureHelp({ showGlobalOptions: true })
    .showSuggestionAfterError()
    .exitOverride()
    .addHelpText(
      'after',
      `
Exit codes: 0 success, 1 failure, 2 usage error, 130 interrupted.
Results go to stdout; progress and diagnostics to stderr.

Examples:
  cichat serve                                   start backend + controller locally
  cichat chat                                    open the terminal UI
  cichat ask "why did the last build fail?"      one answer, streamed
  cat build.log | cichat ask "why did it fail?"  upload a log to a new chat, then ask
  cichat analyze build.log                       offline: ranked failure excerpts`,
    );

  const deps: CommandDeps = { io, ctxOf };
  for (const command of [
    serveCommand(deps),
    chatCommand(deps),
    askCommand(deps),
    chatsCommand(deps),
    contextCommand(deps),
    wsCommand(deps),
    historyCommand(deps),
    failuresCommand(deps),
    analyzeCommand(deps),
    tokenCommand(deps),
  ]) {
    program.addCommand(command);
  }
  // The program's settings (output, exit override, help layout, suggestions) hold for the whole
  // tree: `program.command()` would have copied them when a command was made, `addCommand`
  // does not.
  function inherit(parent: Command): void {
    for (const sub of parent.commands) {
      sub.copyInheritedSettings(parent);
      inherit(sub);
    }
  }
  inherit(program);

  return program;
}

/** Runs `cichat` with `argv` (node and script first, as process.argv) and answers the exit code. */
export async function run(argv: string[], io: CliIO, makeClient?: ClientFactory): Promise<number> {
  let code = 0;
  const program = buildProgram(io, makeClient, (c) => (code = c));
  try {
    await program.parseAsync(argv);
    return code;
  } catch (err) {
    // --help and --version end here with code 0; every other commander error is a usage error.
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : EXIT_USAGE;
    return reportError(err, io.stderr);
  }
}
