/** `cichat context upload | last`: the scripted way to give a chat the context of a build. */
import { Option, type Command } from 'commander';
import { commandGroup, intArg, type CommandDeps } from '../command.js';
import type { Ctx } from '../io.js';
import type { ContextUpload } from '../client.js';
import type { CiContext } from '../../protocol/types.js';
import { localTime, printJson } from '../output.js';
import { ApiError, UsageError, UserError } from '../errors.js';

export function contextCommand(deps: CommandDeps): Command {
  const context = commandGroup('context', "a chat's CI context: upload a build, see the last upload");
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
    .action(async (chat: number, opts: UploadOptions, cmd: Command) => {
      await uploadContext(await deps.ctxOf(cmd), chat, opts);
    });
  context
    .command('last')
    .description('print the time of the last context upload of a chat')
    .argument('<chat>', 'the chat id', intArg('chat'))
    .action(async (chat: number, _opts: unknown, cmd: Command) => {
      await lastUpload(await deps.ctxOf(cmd), chat);
    });
  return context;
}

export interface UploadOptions {
  job?: string;
  build?: number;
  log?: string;
  baselineLog?: string;
  fromEnv?: boolean;
  progress: boolean;
}

/** Jenkins' variables and GitHub Actions' that describe the build a pipeline step runs in. */
const JENKINS_VARS = ['JOB_NAME', 'BUILD_NUMBER', 'BUILD_URL', 'BUILD_ID', 'BUILD_TAG', 'NODE_NAME', 'WORKSPACE', 'JENKINS_URL', 'GIT_COMMIT', 'GIT_BRANCH'];
const GITHUB_VARS = [
  'GITHUB_REPOSITORY', 'GITHUB_RUN_ID', 'GITHUB_RUN_NUMBER', 'GITHUB_RUN_ATTEMPT', 'GITHUB_WORKFLOW', 'GITHUB_JOB',
  'GITHUB_SHA', 'GITHUB_REF', 'GITHUB_REF_NAME', 'GITHUB_HEAD_REF', 'GITHUB_BASE_REF', 'GITHUB_EVENT_NAME',
  'GITHUB_ACTOR', 'GITHUB_SERVER_URL', 'GITHUB_WORKSPACE', 'RUNNER_OS', 'RUNNER_NAME',
];

/** The backend refuses context bodies over 64 MiB; keep some room for the JSON around the log. */
const MAX_LOG_BYTES = 60 * 1024 * 1024;
/** The passing build's log never takes more than this of that room (its end is what is compared). */
const MAX_BASELINE_BYTES = 16 * 1024 * 1024;

/**
 * How the 60 MiB are shared between the failing log and the passing one (`--baseline-log`):
 * the failing log keeps at least 44 MiB, the passing log gets what the failing one leaves, at
 * most 16 MiB; both are cut to their ends.
 */
export function logBudgets(failBytes: number, baselineBytes: number): { log: number; baseline: number } {
  const baseline = Math.min(baselineBytes, MAX_BASELINE_BYTES, MAX_LOG_BYTES - Math.min(failBytes, MAX_LOG_BYTES - MAX_BASELINE_BYTES));
  return { log: MAX_LOG_BYTES - baseline, baseline };
}

/**
 * What `--from-env` finds: jobName and buildNumber from JOB_NAME / BUILD_NUMBER (the
 * controller looks them up in JENKINS_HOME), everything else as `ciEnvironment`.
 */
export function contextFromEnv(env: NodeJS.ProcessEnv): ContextUpload {
  const upload: ContextUpload = {};
  const ciEnvironment: Record<string, string> = {};
  for (const name of [...JENKINS_VARS, ...GITHUB_VARS]) {
    const value = env[name];
    if (value !== undefined && value !== '') ciEnvironment[name] = value;
  }
  if (env.JOB_NAME) upload.jobName = env.JOB_NAME;
  if (env.BUILD_NUMBER && /^\d+$/.test(env.BUILD_NUMBER)) upload.buildNumber = Number(env.BUILD_NUMBER);
  if (Object.keys(ciEnvironment).length > 0) upload.ciEnvironment = ciEnvironment;
  return upload;
}

/** Keeps the end of a log that is too large to upload, cut at a line start. */
export function tailOfLog(log: string, maxBytes = MAX_LOG_BYTES): { log: string; cut: boolean } {
  const bytes = Buffer.byteLength(log);
  if (bytes <= maxBytes) return { log, cut: false };
  const buf = Buffer.from(log);
  let tail = buf.subarray(bytes - maxBytes).toString('utf8');
  const nl = tail.indexOf('\n');
  if (nl >= 0) tail = tail.slice(nl + 1);
  return { log: tail, cut: true };
}

export async function uploadContext(ctx: Ctx, chatId: number, opts: UploadOptions): Promise<void> {
  const upload: ContextUpload = opts.fromEnv ? contextFromEnv(ctx.io.env) : {};
  if (opts.job !== undefined) upload.jobName = opts.job;
  if (opts.build !== undefined) upload.buildNumber = opts.build;
  if (upload.buildNumber !== undefined && upload.jobName === undefined) {
    throw new UsageError('--build needs --job (or JOB_NAME with --from-env)');
  }
  if (opts.log === '-' && opts.baselineLog === '-') throw new UsageError('--log and --baseline-log cannot both read stdin');
  // A log without a passing one streams through the raw route: any size, never held whole.
  if (opts.log !== undefined && opts.baselineLog === undefined) return uploadLogContext(ctx, chatId, opts, upload);
  const [{ readFileOrStdin }, { uploadInterruptibly }, { envWorkspaceSnippets }] = await Promise.all([
    import('../stdin.js'),
    import('../upload.js'),
    import('../snippets.js'),
  ]);
  // gzip is decompressed, a non-UTF-8 log read as Windows-1252, binary refused (cli/stdin.ts).
  const note = (text: string): void => void ctx.io.stderr.write(`cichat: ${text}\n`);
  const failText = opts.log !== undefined ? await readFileOrStdin(opts.log, ctx.io.stdin, note) : undefined;
  const baselineText = opts.baselineLog !== undefined ? await readFileOrStdin(opts.baselineLog, ctx.io.stdin, note) : undefined;
  // An empty log would wipe the chat's log (`curl ... | cichat context upload` whose download
  // failed): refused before anything is sent (the backend refuses it too, CONTRACT section 6).
  if (failText !== undefined && failText.trim() === '') throw emptyLog(opts.log === '-' ? 'stdin' : (opts.log ?? ''), chatId);
  if (baselineText !== undefined && baselineText.trim() === '') throw emptyLog(opts.baselineLog === '-' ? 'stdin' : (opts.baselineLog ?? ''), chatId, 'baseline log');
  const budget = logBudgets(failText === undefined ? 0 : Buffer.byteLength(failText), baselineText === undefined ? 0 : Buffer.byteLength(baselineText));
  if (failText !== undefined) {
    const { log, cut } = tailOfLog(failText, budget.log);
    if (cut) ctx.io.stderr.write(`cichat: the log is larger than ${Math.floor(budget.log / 1048576)} MiB: only its end is uploaded (beside --baseline-log both logs travel as JSON; without it any size streams)\n`);
    upload.consoleLog = log;
  }
  if (baselineText !== undefined) {
    const { log, cut } = tailOfLog(baselineText, budget.baseline);
    if (cut) ctx.io.stderr.write(`cichat: the baseline log is larger than ${Math.floor(budget.baseline / 1048576)} MiB: only its end is uploaded\n`);
    upload.baselineLog = log;
  }
  // On the agent, $WORKSPACE is the checkout the build ran in: the source its failure names.
  const workspace = opts.fromEnv ? ctx.io.env.WORKSPACE : undefined;
  if (workspace) {
    const snippets = await envWorkspaceSnippets(workspace, upload.consoleLog, (text) => void ctx.io.stderr.write(`cichat: ${text}\n`));
    if (snippets.length > 0) upload.workspaceSnippets = snippets;
  }
  // What the chat holds now, so that Ctrl-C can say whether it kept it.
  const before = (await ctx.client().lastUpload(chatId)).last_upload_at;
  const send = (body: ContextUpload) => uploadInterruptibly(ctx, chatId, body, { label: 'uploading context', progress: opts.progress, before });
  let result;
  try {
    result = await send(upload);
  } catch (err) {
    // A pipeline on a CI server whose home this controller does not read: JOB_NAME is unknown
    // here, but the log is still worth having. Only for a job that came from the environment.
    if (!(err instanceof ApiError && jobFromEnvUnknown(err, opts, upload) && upload.consoleLog !== undefined)) throw err;
    const instead = [`the log (${lines(lineCount(upload.consoleLog))})`, upload.ciEnvironment ? 'the CI environment variables' : undefined];
    dropUnknownJob(upload, instead.filter(Boolean).join(' and '), note);
    result = await send(upload);
  }
  if (ctx.options.json) return printJson(ctx.io.stdout, result);
  const what = [
    upload.jobName ? `job ${jobRef(upload)}` : undefined,
    upload.consoleLog !== undefined ? `log of ${lines(lineCount(upload.consoleLog))}` : undefined,
    upload.baselineLog !== undefined ? `passing log of ${lines(lineCount(upload.baselineLog))}` : undefined,
    upload.workspaceSnippets ? `${upload.workspaceSnippets.length} workspace snippet${upload.workspaceSnippets.length === 1 ? '' : 's'}` : undefined,
  ].filter(Boolean);
  ctx.io.stdout.write(`Uploaded the context of chat ${chatId}${what.length ? ` (${what.join(', ')})` : ''}.\n`);
}

/** The job and build an upload names: `team/api #42`. */
const jobRef = (upload: ContextUpload): string => `${upload.jobName}${upload.buildNumber !== undefined ? ` #${upload.buildNumber}` : ''}`;

/** Says that the controller's JENKINS_HOME lacks the upload's job, and takes the job out: `sent` goes again without it. */
function dropUnknownJob(upload: ContextUpload, sent: string, note: (text: string) => void): void {
  note(`warning: job ${jobRef(upload)} is not in the controller's JENKINS_HOME; uploading ${sent} without the job's facts`);
  delete upload.jobName;
  delete upload.buildNumber;
}

/** A 404 for a job that came from the environment (JOB_NAME) and that this controller's JENKINS_HOME does not have. */
function jobFromEnvUnknown(err: ApiError, opts: UploadOptions, upload: ContextUpload): boolean {
  return err.status === 404 && opts.fromEnv === true && opts.job === undefined && upload.jobName !== undefined;
}

/**
 * `context upload --log FILE|-` without a passing log: the log streams to the raw route
 * (`POST /context/{chat}/log`, issue 28) as it is read, whatever its size; the job and build go
 * in the query (the controller adds JENKINS_HOME's facts), the environment and workspace
 * snippets in X-Cichat-Context.
 */
async function uploadLogContext(ctx: Ctx, chatId: number, opts: UploadOptions, upload: ContextUpload): Promise<void> {
  const [{ logInput }, { prepareLog, sparseLog, spoolInput, uploadLogInterruptibly }, { envWorkspaceSnippets }, { factsHeaderValue }] = await Promise.all([
    import('../stdin.js'),
    import('../upload.js'),
    import('../snippets.js'),
    import('../client.js'),
  ]);
  const logName = opts.log === '-' ? 'stdin' : (opts.log ?? '');
  const note = (text: string): void => void ctx.io.stderr.write(`cichat: ${text}\n`);
  let input = await logInput(opts.log ?? '-', ctx.io.stdin);
  if (input === undefined) throw emptyLog('stdin', chatId);
  // The snippets of $WORKSPACE need the log's failure before the upload's header goes: stdin is
  // kept in a temporary file to be read twice.
  const workspace = opts.fromEnv ? ctx.io.env.WORKSPACE : undefined;
  let cleanup = async (): Promise<void> => undefined;
  if (workspace) ({ input, cleanup } = await spoolInput(input));
  try {
    const log = await prepareLog(input, note);
    if (log.empty) throw emptyLog(logName, chatId);
    const facts: CiContext = {};
    if (upload.ciEnvironment) facts.ciEnvironment = upload.ciEnvironment;
    if (workspace) {
      const snippets = await envWorkspaceSnippets(workspace, await sparseLog(log), note);
      if (snippets.length > 0) facts.workspaceSnippets = snippets;
    }
    const { header, dropped } = factsHeaderValue(facts);
    if (dropped.length > 0) note(`left out to fit the 12 KiB facts header beside the log: ${dropped.join(', ')}`);
    const before = (await ctx.client().lastUpload(chatId)).last_upload_at;
    const send = (job: ContextUpload) =>
      uploadLogInterruptibly(
        ctx,
        chatId,
        log,
        { ...(job.jobName !== undefined ? { jobName: job.jobName } : {}), ...(job.buildNumber !== undefined ? { buildNumber: job.buildNumber } : {}), ...(Object.keys(facts).length > 0 ? { header } : {}) },
        { label: 'uploading log', progress: opts.progress, before },
      );
    let result;
    try {
      result = await send(upload);
    } catch (err) {
      if (!(err instanceof ApiError && jobFromEnvUnknown(err, opts, upload))) throw err;
      // The 404 came before the log was read: the same log goes again, without the job.
      if (!log.body.rewind()) throw err;
      dropUnknownJob(upload, `the log${facts.ciEnvironment ? ' and the CI environment variables' : ''}`, note);
      result = await send(upload);
    }
    if (ctx.options.json) return printJson(ctx.io.stdout, result);
    const what = [
      upload.jobName ? `job ${jobRef(upload)}` : undefined,
      `log of ${lines(result.log_lines)}`,
      facts.workspaceSnippets ? `${facts.workspaceSnippets.length} workspace snippet${facts.workspaceSnippets.length === 1 ? '' : 's'}` : undefined,
    ].filter(Boolean);
    ctx.io.stdout.write(`Uploaded the context of chat ${chatId} (${what.join(', ')}).\n`);
  } finally {
    await cleanup();
  }
}

function emptyLog(from: string, chatId: number, what = 'log'): UserError {
  return new UserError(
    `the ${what} ${from === 'stdin' ? 'read from stdin' : from} is empty: nothing was uploaded, chat ${chatId} keeps its context`,
    'in a pipeline, make a failed download stop the step: set -o pipefail; curl -fsS "$BUILD_URL/consoleText" | cichat context upload ...',
  );
}

const lines = (n: number): string => `${n} line${n === 1 ? '' : 's'}`;

/** Lines as `wc -l` would count them, plus an unterminated last line. */
function lineCount(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return text.length > 0 && !text.endsWith('\n') ? n + 1 : n;
}

export async function lastUpload(ctx: Ctx, chatId: number): Promise<void> {
  const answer = await ctx.client().lastUpload(chatId);
  if (ctx.options.json) return printJson(ctx.io.stdout, answer);
  ctx.io.stdout.write(answer.last_upload_at ? `${answer.last_upload_at}\t(${localTime(answer.last_upload_at)} local)\n` : 'never\n');
}
