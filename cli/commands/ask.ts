/** `cichat ask`: one answer streamed to stdout, after an optional upload of a piped build log. */
import { Command, Option } from 'commander';
import { intArg, type CommandDeps } from '../command.js';
import type { Ctx } from '../io.js';
import type { ErrorCode, Source, StreamEvent } from '../../protocol/types.js';
import { colourful, localTime, paint, printJson } from '../output.js';
import { ApiError, InterruptedError, UsageError, UserError } from '../errors.js';
import type { PreparedLog } from '../upload.js';
import type { CichatClient, ContextUpload, ContextUploadResult } from '../client.js';
import type { WatchedFailure, WorkspaceChanges, WorkspaceChangesNotRead, WorkspaceSnippet } from '../../protocol/types.js';
import { logSubject } from '../chatSubject.js';

export interface AskOptions {
  chat?: number;
  job?: string;
  build?: number;
  title?: string;
  stdin: boolean;
  /** A local checkout: the source the piped log's failure names is sent with it. */
  workspace?: string;
}

export function askCommand(deps: CommandDeps): Command {
  return new Command('ask')
    .description('ask one question and stream the answer to stdout; text piped on stdin is uploaded as the build log first')
    .argument('<question...>', 'the question (quotes optional)')
    .addOption(new Option('--chat <id>', 'ask in this chat (default: a new chat)').argParser(intArg('--chat')))
    .option('--job <name>', 'the job the question is about (full name with folders, e.g. team/api)')
    .addOption(new Option('--build <number>', 'the build number of --job').argParser(intArg('--build')))
    .option('--title <title>', 'title of the new chat (default: the question)')
    .option('--no-stdin', 'do not read a build log from stdin even when it is not a terminal')
    .option('--workspace <dir>', 'a local checkout: the source lines the failure names (and its Jenkinsfile) are sent with the log')
    .action(async (words: string[], opts: AskOptions, cmd: Command) => {
      await ask(await deps.ctxOf(cmd), words.join(' '), opts);
    });
}

const CITATION = /\[L\d+(?:-L?\d+)?(?:,\s*L\d+(?:-L?\d+)?)*\]/g;

/**
 * Colours `[L120-L131]` citations in streamed text without delaying the rest: text is passed
 * on at once except from an unclosed `[` (at most 40 characters are held back).
 */
export class CitationPainter {
  private held = '';
  constructor(private readonly colour: boolean) {}

  push(text: string): string {
    if (!this.colour) return text;
    const all = this.held + text;
    const open = all.lastIndexOf('[');
    if (open >= 0 && all.indexOf(']', open) < 0 && all.length - open < 40 && !all.slice(open).includes('\n')) {
      this.held = all.slice(open);
      return this.paint(all.slice(0, open));
    }
    this.held = '';
    return this.paint(all);
  }

  end(): string {
    const rest = this.held;
    this.held = '';
    return this.paint(rest);
  }

  private paint(text: string): string {
    return text.replace(CITATION, (c) => paint(true, 'cyan', c));
  }
}

/**
 * The title of a chat made by `ask`: what it is about, then the question (60 characters):
 * `team/api #42: why did the build fail?` with --job/--build; with a piped log, the job its
 * console names (`api: why ...`, cli/chatSubject.ts logSubject), else the file it came from
 * (`build.log: why ...` for `< build.log`), else the question alone.
 */
export function chatTitle(question: string, about: { job?: string; build?: number; logName?: string }): string {
  const oneLine = question.replace(/\s+/g, ' ').trim();
  const q = oneLine.length > 60 ? `${oneLine.slice(0, 57)}...` : oneLine || 'New Chat';
  const subject = about.job !== undefined ? `${about.job}${about.build !== undefined ? ` #${about.build}` : ''}` : about.logName;
  return subject ? `${subject}: ${q}`.slice(0, 200) : q;
}

/** The sources of a stored answer (the newest pairs are looked at first). */
async function storedSources(client: CichatClient, chatId: number, qaPairId: number): Promise<Source[]> {
  for (let offset = 0; offset < 1000; offset += 20) {
    const page = await client.pairs(chatId, 20, offset);
    const pair = page.items.find((p) => p.id === qaPairId);
    if (pair) return pair.answer?.sources ?? [];
    if (page.items.length === 0 || offset + page.items.length >= page.total_items) break;
  }
  return [];
}

/** Whether a question asks about a failure (then `--job J` alone takes J's last failed build). */
export function asksAboutFailure(question: string): boolean {
  return /\b(fail\w*|broke\w*|break\w*|red|error\w*|crash\w*|went wrong|regress\w*)\b/i.test(question);
}

/** Without --chat, --job or a piped log there is nothing to answer from: which job, and the watcher's recent failures. */
async function whichJob(client: CichatClient, piped: boolean): Promise<UserError> {
  // No watcher (CICHAT_WATCH off) or an older controller: no list. An unreachable controller is that error.
  const recent: WatchedFailure[] = (
    await client.failures(5).catch((err: unknown) => {
      if (err instanceof ApiError) return [];
      throw err;
    })
  ).slice(0, 5);
  const lines = [
    `${piped ? 'stdin was empty and ' : ''}no build to answer from: name the job (its last completed build is taken, or its last failed one when you ask about a failure)`,
  ];
  if (recent.length > 0) {
    lines.push('recent failed builds the controller noticed:');
    for (const f of recent) {
      lines.push(`  ${f.job} #${f.build}${f.chat_id !== null ? ` (chat ${f.chat_id})` : ''}: ${f.error ?? f.cause}`);
    }
  }
  const first = recent[0];
  const hint =
    first !== undefined
      ? first.chat_id !== null
        ? `cichat ask --chat ${first.chat_id} "..."   or   cichat ask --job ${first.job} "..."`
        : `cichat ask --job ${first.job} "..."`
      : 'cichat ask --job FOLDER/JOB "why did the last build fail?"   (the job\'s full name in Jenkins; or pipe a log: cat build.log | cichat ask "...")';
  return new UserError(lines.join('\n'), hint);
}

/** How long a piped stdin may stay silent before its first byte until `cichat ask` says it is waiting for it. */
export const STDIN_SILENCE_MS = 3000;

export async function ask(ctx: Ctx, question: string, opts: AskOptions): Promise<void> {
  if (!question.trim()) throw new UsageError('the question is empty', 'cichat ask "why did the last build fail?"');
  if (question.length > 20000) throw new UsageError('the question is longer than 20000 characters');
  if (opts.build !== undefined && opts.job === undefined) throw new UsageError('--build needs --job', 'cichat ask --job team/api --build 7 "..."');
  const client = ctx.client();
  const note = (text: string): void => void ctx.io.stderr.write(`cichat: ${text}\n`);
  // The piped log streams to the raw upload route as it is read (issue 28): never held whole.
  // With --workspace it is read twice (its failure names the files sent beside it), so stdin is
  // kept in a temporary file first.
  const [{ stdinInput }, { prepareLog, spoolInput }] = await Promise.all([import('../stdin.js'), import('../upload.js')]);
  // Stdin is read unless --no-stdin: a pipe left open with nothing in it (a CI step, `ssh host
  // cichat ask`) would keep the call waiting without a word, so after a few seconds it says why.
  const silence = { ms: STDIN_SILENCE_MS, note: () => note(`waiting for a build log on stdin (nothing has arrived for ${STDIN_SILENCE_MS / 1000} s); not piping one? add --no-stdin, or < /dev/null`) };
  let input = opts.stdin ? stdinInput(ctx.io.stdin, silence) : undefined;
  let cleanup = async (): Promise<void> => undefined;
  if (input !== undefined && opts.workspace !== undefined) ({ input, cleanup } = await spoolInput(input));
  try {
    const log = input !== undefined ? await prepareLog(input, note) : undefined;
    await askWith(ctx, client, question, opts, log);
  } finally {
    await cleanup();
  }
}

async function askWith(ctx: Ctx, client: CichatClient, question: string, opts: AskOptions, piped: PreparedLog | undefined): Promise<void> {
  const hasLog = piped !== undefined && !piped.empty;
  const log = hasLog ? piped : undefined;
  if (opts.workspace !== undefined && !hasLog && opts.job === undefined) {
    // A follow-up in a chat (ux6): its log is on the server already, so say what the chat keeps and how to send the files anew.
    if (opts.chat !== undefined) {
      throw new UsageError(
        `--workspace reads the files a build log names, and no log is piped: chat ${opts.chat} keeps the source lines its last upload sent`,
        `cichat ask --chat ${opts.chat} "..."   (without --workspace), or to send them again: cat build.log | cichat ask --chat ${opts.chat} --workspace DIR "..."`,
      );
    }
    throw new UsageError('--workspace needs a build log piped on stdin (or --job)', 'cat build.log | cichat ask --workspace . "how do I fix it?"');
  }
  if (opts.chat === undefined && opts.job === undefined && !hasLog) throw await whichJob(client, piped !== undefined);
  const snippets = opts.workspace !== undefined ? await workspaceSnippets(opts.workspace, log) : [];
  const { changes, notRead } = opts.workspace !== undefined ? await (await import('../snippets.js')).checkoutFromDir(opts.workspace, snippets, ctx.io.env) : {};

  // The job the console names (its workspace) says more than the file it was saved in (`fail.log`).
  const logName = hasLog ? (logSubject(piped.head) ?? ctx.io.stdinName?.()) : undefined;
  const title = opts.title ?? chatTitle(question, { job: opts.job, build: opts.build, logName });
  const chatId = opts.chat ?? (await client.createChat(title)).id;
  if (opts.chat === undefined) ctx.io.stderr.write(`chat ${chatId}\n`);
  // A chat made for this call is removed when the call fails before an answer began in it.
  const made = opts.chat === undefined;
  let answerBegan = false;
  try {
    await uploadFor(ctx, client, chatId, { ...opts, question, log, snippets, changes, notRead, made });
    await answer();
  } catch (err) {
    if (made && !answerBegan) {
      try {
        await client.deleteChat(chatId);
        ctx.io.stderr.write(`cichat: removed chat ${chatId} (made for this call, nothing in it)\n`);
      } catch {
        ctx.io.stderr.write(`cichat: could not remove chat ${chatId} (made for this call): cichat chats rm ${chatId}\n`);
      }
    }
    throw err;
  }

  async function answer(): Promise<void> {
  const abort = new AbortController();
  const onSignal = (): void => abort.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  // On a terminal the answer is rendered as Markdown line by line as it streams (as in the
  // UI); piped, it stays the plain text the engine wrote.
  const colour = !ctx.options.json && colourful(ctx.io.stdout, ctx.io.env);
  const painter: { push(text: string): string; end(): string } = colour
    ? new (await import('../ui/markdownText.js')).MarkdownStream(Math.max(20, (ctx.io.stdout.columns ?? 80) - 1))
    : new CitationPainter(false);
  let content = '';
  let qaPairId: number | undefined;
  let endedWith: 'done' | 'error' | undefined;
  let errorDetail = '';
  // CICHAT_TIMING=1 reports on stderr how long the answer took to start and to print.
  const timing = ctx.io.env.CICHAT_TIMING === '1';
  const sentAt = performance.now();
  let startedAt: number | undefined;
  let firstChunkAt: number | undefined;
  try {
    for await (const event of client.stream({ kind: 'send', chatId, content: question }, abort.signal)) {
      handle(event);
    }
  } catch (err) {
    if (abort.signal.aborted) {
      if (!ctx.options.json) ctx.io.stdout.write(painter.end() + '\n');
      throw new InterruptedError(`Interrupted: the answer was stopped (chat ${chatId}${qaPairId ? `, pair ${qaPairId}` : ''}).`);
    }
    throw err;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }

  function handle(event: StreamEvent): void {
    switch (event.event) {
      case 'started':
        qaPairId = event.qa_pair_id;
        answerBegan = true;
        startedAt = performance.now();
        break;
      case 'chunk':
        content += event.content;
        if (!ctx.options.json) ctx.io.stdout.write(painter.push(event.content));
        firstChunkAt ??= performance.now();
        break;
      case 'done':
        endedWith = 'done';
        break;
      case 'error':
        endedWith = 'error';
        errorDetail = event.detail;
        break;
      default: {
        const never: never = event;
        throw new Error(`Unknown stream event ${JSON.stringify(never)}`);
      }
    }
  }

  if (timing) {
    const ms = (a: number | undefined, b: number | undefined): string => (a !== undefined && b !== undefined ? (b - a).toFixed(1) : '-');
    ctx.io.stderr.write(
      `timing: request->started ${ms(sentAt, startedAt)} ms, started->first chunk printed ${ms(startedAt, firstChunkAt)} ms, total ${ms(sentAt, performance.now())} ms\n`,
    );
  }
  if (ctx.options.json) {
    // The stream carries no sources: they are read from the stored pair.
    const sources = qaPairId !== undefined ? await storedSources(client, chatId, qaPairId) : [];
    printJson(ctx.io.stdout, {
      chat_id: chatId,
      qa_pair_id: qaPairId ?? null,
      status: endedWith === 'done' ? 'complete' : 'failed',
      content,
      sources,
      ...(errorDetail ? { detail: errorDetail } : {}),
    });
  } else {
    const tail = painter.end();
    ctx.io.stdout.write(tail + (colour || content.endsWith('\n') ? '' : '\n'));
  }
  if (endedWith === 'error') throw new UserError(`The answer failed: ${errorDetail}`, `retry it in \`cichat chat ${chatId}\``);
  if (endedWith !== 'done') throw new UserError('The answer stream ended before it was complete.', `see \`cichat chats show ${chatId}\``);
}
}

/** The source lines the piped log's failure names, read from a local checkout (`--workspace`). */
async function workspaceSnippets(dir: string, log: PreparedLog | undefined): Promise<WorkspaceSnippet[]> {
  const [{ snippetsFromDir }, { sparseLog }] = await Promise.all([import('../snippets.js'), import('../upload.js')]);
  return snippetsFromDir(dir, log ? await sparseLog(log) : undefined);
}

interface UploadFor extends AskOptions {
  question: string;
  log: PreparedLog | undefined;
  snippets: WorkspaceSnippet[];
  /** The checkout's change from git (`--workspace` on a git checkout). */
  changes: WorkspaceChanges | undefined;
  notRead?: WorkspaceChangesNotRead | undefined;
  /** The chat was made for this call (an interrupted upload then says it is removed). */
  made: boolean;
}

/**
 * The upload before the question: the piped log and/or the job's facts. `--job J` without
 * `--build` names a permalink the controller resolves: J's last failed build when the question
 * is about a failure (its last completed one when J has none), else its last completed build.
 */
async function uploadFor(ctx: Ctx, client: CichatClient, chatId: number, o: UploadFor): Promise<void> {
  if (o.log === undefined && o.job === undefined) return;
  const [{ factsHeaderValue }, { uploadInterruptibly, uploadLogInterruptibly }] = await Promise.all([import('../client.js'), import('../upload.js')]);
  let before: string | null | undefined = o.made ? null : undefined;
  if (!o.made) {
    // An upload replaces the chat's context: say so, with when the one replaced was made.
    before = (await client.lastUpload(chatId)).last_upload_at;
    if (before) {
      const what = o.log !== undefined ? 'this log replaces it' : `the context of ${o.job} replaces it`;
      ctx.io.stderr.write(`cichat: chat ${chatId} already has a context (uploaded ${localTime(before)}); ${what}\n`);
    }
  }
  const upload: ContextUpload = {};
  if (o.job !== undefined) upload.jobName = o.job;
  if (o.build !== undefined) upload.buildNumber = o.build;
  else if (o.job !== undefined) upload.buildNumber = asksAboutFailure(o.question) ? 'lastFailedBuild' : 'lastCompletedBuild';
  if (o.snippets.length > 0) upload.workspaceSnippets = o.snippets;
  if (o.changes !== undefined) upload.workspaceChanges = o.changes;
  // Why the checkout's change is missing (a shallow clone), laid over the controller's facts like any CiContext field.
  if (o.notRead !== undefined) upload.ciContext = { workspaceChangesNotRead: o.notRead };
  const interrupted = (err: unknown): unknown =>
    err instanceof InterruptedError && o.made ? new InterruptedError(`Interrupted during the upload: nothing was kept (chat ${chatId}, made for this call, is removed).`) : err;
  const log = o.log;
  let header: string | undefined;
  if (log !== undefined && (o.snippets.length > 0 || o.changes !== undefined || o.notRead !== undefined)) {
    const fitted = factsHeaderValue({ ...(o.snippets.length > 0 ? { workspaceSnippets: o.snippets } : {}), ...(o.changes !== undefined ? { workspaceChanges: o.changes } : {}), ...(o.notRead !== undefined ? { workspaceChangesNotRead: o.notRead } : {}) });
    if (fitted.dropped.length > 0) ctx.io.stderr.write(`cichat: left out to fit the 12 KiB facts header beside the log: ${fitted.dropped.join(', ')}\n`);
    header = fitted.header;
  }
  const send = async (body: ContextUpload): Promise<ContextUploadResult> => {
    try {
      if (log === undefined) return await uploadInterruptibly(ctx, chatId, body, { label: 'uploading log', progress: true, before });
      return await uploadLogInterruptibly(
        ctx,
        chatId,
        log,
        { ...(body.jobName !== undefined ? { jobName: body.jobName } : {}), ...(body.buildNumber !== undefined ? { buildNumber: body.buildNumber } : {}), ...(header !== undefined ? { header } : {}) },
        { label: 'uploading log', progress: true, before },
      );
    } catch (err) {
      throw interrupted(err);
    }
  };
  let result;
  let sentBuild = upload.buildNumber;
  try {
    result = await send(upload);
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 404 && upload.buildNumber === 'lastFailedBuild' && isError(err, 'build_not_found', / has no failed build /))) throw withJobHint(err, log !== undefined);
    // The 404 came before the log was read: the same log goes again (cli/client.ts LogBody).
    if (log !== undefined && !log.body.rewind()) throw err;
    ctx.io.stderr.write(`cichat: ${o.job} has no failed build; taking its last completed build\n`);
    sentBuild = 'lastCompletedBuild';
    result = await send({ ...upload, buildNumber: sentBuild });
  }
  if (o.job !== undefined && o.build === undefined) {
    const build = result.received_data.buildDetails as { number?: unknown; result?: unknown } | undefined;
    if (typeof build?.number === 'number') {
      const which = sentBuild === 'lastFailedBuild' ? 'its last failed build' : 'its last completed build';
      ctx.io.stderr.write(`cichat: ${o.job}: ${which}, #${build.number}${typeof build.result === 'string' ? ` (${build.result})` : ''}\n`);
    }
  }
}

/**
 * Which error a 404 is: by its body's `code`; an older controller sends none, and then by its wording
 * (jenkins/errors.ts JobNotFoundError, controller/routes/context.ts resolveBuildRef).
 */
function isError(err: ApiError, code: ErrorCode, wording: RegExp): boolean {
  return err.code !== undefined ? err.code === code : wording.test(err.detail);
}

/**
 * A job the controller's JENKINS_HOME does not have (ux6: a build of another Jenkins, asked about
 * with `--job`): the one line gets what to do, list the jobs it knows or pipe the build's log.
 */
function withJobHint(err: unknown, piped: boolean): unknown {
  if (!(err instanceof ApiError) || err.status !== 404 || err.hint || !isError(err, 'job_not_found', /^No job .* in JENKINS_HOME/)) return err;
  const hint = piped
    ? 'the controller reads only the jobs of its own JENKINS_HOME: drop --job to ask about the piped log alone (`cichat failures` lists the jobs with recent failures)'
    : 'the controller reads only the jobs of its own JENKINS_HOME (`cichat failures` lists the jobs with recent failures); for a build of another Jenkins, pipe its console log: cat build.log | cichat ask "..."';
  return new ApiError(err.status, err.detail, hint, err.retryAfterSeconds);
}
