/**
 * The `cichat` command line as a function of its IO: `run(argv, io)` parses, runs the command
 * and answers the exit code. Only commander is imported up front: every command loads what it
 * needs (the client, Ink, React) inside its action, so that `cichat --help` stays fast.
 */
import { Command, CommanderError, Option } from 'commander';
import { EXIT_USAGE, UsageError, parsePositiveInt, reportError } from './errors.js';
import type { CichatClient, ClientOptions } from './client.js';
import type { CliIO, Ctx } from './io.js';
import type { GlobalOptions } from './options.js';
import { packageVersion } from './version.js';

export type { GlobalOptions } from './options.js';

/** Makes the controller client (tests may hand in their own). */
export type ClientFactory = (options: ClientOptions) => CichatClient;

function intArg(name: string) {
  return (value: string): number => parsePositiveInt(value, name);
}

function globals(cmd: Command): GlobalOptions {
  return cmd.optsWithGlobals<GlobalOptions>();
}

/** Builds the command tree; actions run with `io` and clients from `makeClient`. */
export function buildProgram(io: CliIO, makeClient?: ClientFactory, setExit: (code: number) => void = () => undefined): Command {
  const program = new Command();

  /** The context of a command: its options, IO and (lazily) its client. A bad --url is a usage error here. */
  async function ctxOf(cmd: Command): Promise<Ctx> {
    const options = globals(cmd);
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

  /** --file, else CONTROLLER_TOKENS_FILE, else a usage error. */
  function tokensFile(file: string | undefined): string {
    const chosen = file ?? (io.env.CONTROLLER_TOKENS_FILE || undefined);
    if (!chosen) throw new UsageError('--file: the tokens file is needed', 'pass --file F or set CONTROLLER_TOKENS_FILE');
    return chosen;
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

  program
    .command('serve')
    .description('start the backend and the controller together with the embedded defaults (what `npm start` runs)')
    .addOption(new Option('--port <port>', 'controller port (default: $CONTROLLER_PORT or 8080)').argParser(intArg('--port')))
    .addOption(new Option('--backend-port <port>', 'backend port (default: $BACKEND_PORT or 8000)').argParser(intArg('--backend-port')))
    .option('--no-demo', 'do not create the demo chat on first start')
    .option('--verbose', 'copy the logs of backend and controller to stderr')
    .action(async (opts: { port?: number; backendPort?: number; demo: boolean; verbose?: boolean }, cmd: Command) => {
      const { serve } = await import('./commands/serve.js');
      await serve(await ctxOf(cmd), opts);
    });

  program
    .command('chat')
    .description('the terminal UI: chat list, streaming answers, retry, edit, stop, rename, delete')
    .argument('[chat-id]', 'open this chat directly', intArg('chat-id'))
    .action(async (chatId: number | undefined, _opts: unknown, cmd: Command) => {
      const { runChatUi } = await import('./commands/chat.js');
      await runChatUi(await ctxOf(cmd), chatId);
    });

  program
    .command('ask')
    .description('ask one question and stream the answer to stdout; text piped on stdin is uploaded as the build log first')
    .argument('<question...>', 'the question (quotes optional)')
    .addOption(new Option('--chat <id>', 'ask in this chat (default: a new chat)').argParser(intArg('--chat')))
    .option('--job <name>', 'the job the question is about (full name with folders, e.g. team/api)')
    .addOption(new Option('--build <number>', 'the build number of --job').argParser(intArg('--build')))
    .option('--title <title>', 'title of the new chat (default: the question)')
    .option('--no-stdin', 'do not read a build log from stdin even when it is not a terminal')
    .option('--workspace <dir>', 'a local checkout: the source lines the failure names (and its Jenkinsfile) are sent with the log')
    .action(
      async (
        words: string[],
        opts: { chat?: number; job?: string; build?: number; title?: string; stdin: boolean; workspace?: string },
        cmd: Command,
      ) => {
        const { ask } = await import('./commands/ask.js');
        await ask(await ctxOf(cmd), words.join(' '), opts);
      },
    );

  const chats = program.command('chats').description('chat management: list, new, show, rename, rm');
  chats
    .command('list')
    .description('list your chats, most recently updated first')
    .action(async (_opts: unknown, cmd: Command) => {
      const m = await import('./commands/chats.js');
      await m.listChats(await ctxOf(cmd));
    });
  chats
    .command('new')
    .description('create a chat and print its id')
    .argument('[title]', 'its title (default: "New Chat")')
    .action(async (title: string | undefined, _opts: unknown, cmd: Command) => {
      const m = await import('./commands/chats.js');
      await m.newChat(await ctxOf(cmd), title);
    });
  chats
    .command('show')
    .description('print a conversation, oldest question first')
    .argument('<id>', 'the chat id', intArg('id'))
    .action(async (id: number, _opts: unknown, cmd: Command) => {
      const m = await import('./commands/chats.js');
      await m.showChat(await ctxOf(cmd), id);
    });
  chats
    .command('rename')
    .description('give a chat a new title')
    .argument('<id>', 'the chat id', intArg('id'))
    .argument('<title...>', 'the new title, 1-200 characters')
    .action(async (id: number, title: string[], _opts: unknown, cmd: Command) => {
      const m = await import('./commands/chats.js');
      await m.renameChat(await ctxOf(cmd), id, title.join(' '));
    });
  chats
    .command('rm')
    .description('delete a chat with its conversation and context')
    .argument('<id>', 'the chat id', intArg('id'))
    .action(async (id: number, _opts: unknown, cmd: Command) => {
      const m = await import('./commands/chats.js');
      await m.removeChat(await ctxOf(cmd), id);
    });

  const context = program.command('context').description("a chat's CI context: upload a build, see the last upload");
  context
    .command('upload')
    .description('upload the context of a build to a chat (for pipelines); the controller adds what it knows of the build')
    .argument('<chat>', 'the chat id', intArg('chat'))
    .option('--job <name>', 'the job (full name with folders)')
    .addOption(new Option('--build <number>', 'the build number').argParser(intArg('--build')))
    .option('--log <file>', 'the build log to upload, "-" for stdin (default: the controller reads the last 1000 lines)')
    .option(
      '--from-env',
      'read JOB_NAME, BUILD_NUMBER, BUILD_URL, NODE_NAME, WORKSPACE (Jenkins) and GITHUB_* (GitHub Actions) from the environment; the source lines the log names are read from $WORKSPACE',
    )
    .option('--baseline-log <file>', "the last passing build's log, sent as buildDetails.lastSuccessfulBuild (the baseline a failure is compared with)")
    .option('--no-progress', 'no progress bar on stderr')
    .action(
      async (
        chat: number,
        opts: { job?: string; build?: number; log?: string; baselineLog?: string; fromEnv?: boolean; progress: boolean },
        cmd: Command,
      ) => {
        const m = await import('./commands/context.js');
        await m.uploadContext(await ctxOf(cmd), chat, opts);
      },
    );
  context
    .command('last')
    .description('print the time of the last context upload of a chat')
    .argument('<chat>', 'the chat id', intArg('chat'))
    .action(async (chat: number, _opts: unknown, cmd: Command) => {
      const m = await import('./commands/context.js');
      await m.lastUpload(await ctxOf(cmd), chat);
    });

  const ws = program.command('ws').description("browse a build's workspaces");
  ws.command('tree')
    .description('draw the workspaces of a build like `tree`, one tree per workspace')
    .argument('<job>', 'the job (full name with folders, e.g. team/api)')
    .argument('<build>', 'the build number', intArg('build'))
    .addOption(new Option('--depth <n>', 'how deep to descend, 1-20 (default 4)').argParser(intArg('--depth')))
    .action(async (job: string, build: number, opts: { depth?: number }, cmd: Command) => {
      if (opts.depth !== undefined && opts.depth > 20) throw new UsageError('--depth: must be between 1 and 20');
      const m = await import('./commands/ws.js');
      await m.workspaceTree(await ctxOf(cmd), job, build, opts.depth);
    });
  ws.command('cat')
    .description('print a file of a workspace')
    .argument('<job>', 'the job (full name with folders)')
    .argument('<build>', 'the build number', intArg('build'))
    .argument('<path>', 'the file, relative to the workspace')
    .option('--workspace <id>', 'the workspace id shown by `ws tree` (default: the first workspace holding the file)')
    .action(async (job: string, build: number, filePath: string, opts: { workspace?: string }, cmd: Command) => {
      const m = await import('./commands/ws.js');
      await m.workspaceCat(await ctxOf(cmd), job, build, filePath, opts.workspace);
    });

  program
    .command('history')
    .description("a job's recent builds with the fingerprint of each failure, and whether a failure is new, recurring, flaky or back")
    .argument('<job>', 'the job (full name with folders)')
    .option('--build <n>', 'the failed build to judge (default: the newest failed or unstable one)', intArg('--build'))
    .option('--window <n>', 'how many of the last builds to look at, 2-1000 (default: the controller\'s CICHAT_HISTORY_BUILDS, 50)', intArg('--window'))
    .action(async (job: string, opts: { build?: number; window?: number }, cmd: Command) => {
      if (opts.window !== undefined && (opts.window < 2 || opts.window > 1000)) throw new UsageError('--window: must be between 2 and 1000');
      const m = await import('./commands/history.js');
      await m.showHistory(await ctxOf(cmd), job, opts.build, opts.window);
    });

  program
    .command('failures')
    .description('recent failed builds the controller noticed (CICHAT_WATCH), each with its one-line cause and chat id')
    .addOption(new Option('--limit <n>', 'show at most n failures, 1-100 (default 20)').argParser(intArg('--limit')))
    .action(async (opts: { limit?: number }, cmd: Command) => {
      if (opts.limit !== undefined && opts.limit > 100) throw new UsageError('--limit: must be between 1 and 100');
      const m = await import('./commands/failures.js');
      await m.listFailures(await ctxOf(cmd), opts.limit ?? 20);
    });

  program
    .command('analyze')
    .description('offline: the failure excerpts of a build log, ranked, with line numbers (needs no server)')
    .argument('[file]', 'the log file, "-" or nothing for stdin')
    .addOption(new Option('--max <n>', 'show at most n excerpts (default 5)').argParser(intArg('--max')))
    .option('--baseline <file>', "the last passing build's log: excerpts it also printed rank lower, each is marked new or not")
    .action(async (file: string | undefined, opts: { max?: number; baseline?: string }, cmd: Command) => {
      const m = await import('./commands/analyze.js');
      await m.analyzeLog(await ctxOf(cmd), file, opts.max ?? 5, opts.baseline);
    });

  const token = program.command('token').description('controller tokens (CONTROLLER_AUTH=tokens)');
  token
    .command('add')
    .description('create a token for USER: prints it once, stores only its hash in the tokens file')
    .argument('<user>', 'the user id the token stands for')
    .option('--file <file>', 'the tokens file (default: $CONTROLLER_TOKENS_FILE)')
    .option('--replace', "revoke the user's earlier tokens (default: a second token is added beside them)")
    .action(async (user: string, opts: { file?: string; replace?: boolean }, cmd: Command) => {
      const m = await import('./commands/token.js');
      await m.addToken(await ctxOf(cmd), user, tokensFile(opts.file), opts.replace === true);
    });
  token
    .command('list')
    .description('list the tokens of the file: id, user and when it was made (never the token)')
    .option('--file <file>', 'the tokens file (default: $CONTROLLER_TOKENS_FILE)')
    .action(async (opts: { file?: string }, cmd: Command) => {
      const m = await import('./commands/token.js');
      await m.listTokenUsers(await ctxOf(cmd), tokensFile(opts.file));
    });
  token
    .command('rm')
    .description('revoke every token of USER, or the one token with ID (as `token list` shows it)')
    .argument('<user-or-id>', 'a user id, or a token id')
    .option('--file <file>', 'the tokens file (default: $CONTROLLER_TOKENS_FILE)')
    .action(async (which: string, opts: { file?: string }, cmd: Command) => {
      const m = await import('./commands/token.js');
      await m.removeToken(await ctxOf(cmd), which, tokensFile(opts.file));
    });

  for (const cmd of [chats, context, ws, token]) {
    cmd.configureHelp({ showGlobalOptions: true });
    cmd.action(() => {
      cmd.help({ error: true });
    });
  }
  // Subcommands inherit exitOverride and help settings only when set before they are created,
  // so apply them to the whole tree here.
  function applyToTree(cmd: Command): void {
    cmd.exitOverride();
    cmd.configureHelp({ showGlobalOptions: true });
    for (const sub of cmd.commands) applyToTree(sub);
  }
  applyToTree(program);

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
