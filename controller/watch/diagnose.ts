/**
 * One failed build, diagnosed for each watching user (issue 19, part 2): a chat titled
 * `<job> #<n> failed`, the build's context uploaded (built by jenkins/context.ts, with the last
 * green build when the context builder adds it), the first question asked and its answer
 * stored. Every step is recorded in the queue item, so a restart resumes where it stopped
 * instead of making a second chat or asking twice.
 */
import type { Logger } from 'pino';
import { cleanLines } from '../../core/log/clean.js';
import { analyzeLines } from '../../core/log/analyze.js';
import { baselineOf } from '../../core/log/baseline.js';
import { findingLine } from '../../core/finding/text.js';
import { createLineMasker } from '../../core/secrets.js';
import type { CiContextOptions, CiContextResult } from '../../jenkins/context.js';
import type { CiContext, QaPair, Source } from '../../protocol/types.js';
import { BackendCallError, type BackendCalls } from './backend.js';
import type { FailureRecord, QueueItem, UserChat } from './store.js';

export const FIRST_QUESTION = 'Why did the build fail?';
/** Titles are 1-200 characters (CONTRACT section 2). */
const TITLE_MAX = 200;
const CAUSE_MAX = 200;
/** How many cited log lines travel in the webhook message. */
const CITED_LINES_MAX = 8;
const CITED_LINE_CHARS = 300;

export interface DiagnoseDeps {
  calls: BackendCalls;
  jenkinsHome: string;
  buildCiContext: (options: CiContextOptions) => Promise<CiContextResult>;
  /** Workspaces and their confinement (the same as the workspace routes'): snippets for the context. */
  workspace?: CiContextOptions['workspace'];
  /** Who gets a chat, decided when the build is diagnosed (the token file may have changed). */
  users: () => Promise<string[]>;
  logger: Logger;
  /** Persists the item's progress (called after each step). */
  save: () => void;
}

/** `<job> #<n> failed`, the job's name cut from the left when the whole would pass 200 characters. */
export function chatTitle(job: string, build: number): string {
  const tail = ` #${build} failed`;
  const room = TITLE_MAX - tail.length;
  const name = job.length > room ? `…${job.slice(job.length - room + 1)}` : job;
  return `${name}${tail}`;
}

/**
 * The first line of an answer that says something, without markdown and citation marks,
 * cut to 200 characters (at a sentence end when there is one).
 */
export function oneLineCause(answer: string): string {
  for (const raw of answer.split('\n')) {
    let line = raw
      .replace(/^\s*(?:#{1,6}\s+|[-*+]\s+|>\s*|\d+\.\s+)/, '')
      .replace(/\*\*|__|`/g, '')
      .replace(/\s*\[(?:L|lines?\s*)\d+(?:\s*[-–]\s*L?\d+)?\]/gi, '')
      .replace(/\s+/g, ' ')
      .trim();
    if (line === '' || /^[-=_*]{3,}$/.test(line)) continue;
    if (line.length > CAUSE_MAX) {
      const end = line.lastIndexOf('. ', CAUSE_MAX);
      line = end > 60 ? line.slice(0, end + 1) : `${line.slice(0, CAUSE_MAX - 1)}…`;
    }
    return line;
  }
  return '';
}

/** Excerpts that only report the ending (an exit code, Jenkins' verdict): never the cause when another one says more. */
const CONSEQUENCE = /^(?:ERROR: )?script returned exit code \d+$|^Finished: \w+$|^Build step '.*' marked build as failure$|^\[INFO\] BUILD FAILURE$|^BUILD FAILED/;

/**
 * The one-line cause from the build's finding (issue 25): the first excerpt, in the analyzer's
 * order, whose finding has a class and is new since the last green build when its log is known
 * (`greenLines`); `Compile error at src/Main.java:8: cannot find symbol`. When every such error
 * also appears in the green build, the first is named with "(also in the last green build: may
 * not be the cause)". Undefined when no finding has a class.
 */
export function findingCause(lines: readonly string[], greenLines?: readonly string[]): string | undefined {
  return causeOf(lines, greenLines)?.text;
}

/** The cause line and the excerpt it was read from (whose lines the webhook quotes with it). */
function causeOf(lines: readonly string[], greenLines?: readonly string[]): { text: string; span: Source } | undefined {
  if (lines.length === 0) return undefined;
  // Compared with the last green build as the backend's ingest compares them: an error it printed
  // too is not named as the cause while a new one is there (issue 25).
  const baseline = greenLines && greenLines.length > 0 ? baselineOf(greenLines.join('\n')) : undefined;
  const excerpts = analyzeLines(lines, { maxExcerpts: 5, ...(baseline ? { baseline } : {}) }).filter((e) => e.score > 0 && e.finding);
  const known = excerpts.filter((e) => e.finding?.class !== 'unknown' && !CONSEQUENCE.test(e.finding?.message ?? ''));
  // A finding read back from outside its excerpt is new only when its message line is: the analyzer
  // sets the flag so (core/log/baseline.ts markReadBackOld).
  const fresh = known.find((e) => e.new_since_baseline !== false);
  const span = (e: (typeof known)[number]): Source => ({ kind: 'log', start_line: e.start_line, end_line: e.end_line });
  if (fresh?.finding) return { text: findingLine(fresh.finding, CAUSE_MAX), span: span(fresh) };
  const old = known[0];
  if (!old?.finding) return undefined;
  const also = ' (also in the last green build: may not be the cause)';
  return { text: `${findingLine(old.finding, CAUSE_MAX - also.length)}${also}`, span: span(old) };
}

/** Cleaned lines, secrets masked: how the backend stores and numbers a log. */
function storedLines(text: string): string[] {
  const mask = createLineMasker();
  return cleanLines(text).map((line) => mask(line));
}

const logText = (build: { consoleLog?: unknown; consoleLogTail?: unknown } | null | undefined): string =>
  typeof build?.consoleLog === 'string' ? build.consoleLog : typeof build?.consoleLogTail === 'string' ? build.consoleLogTail : '';

/** The log of a context as the backend numbers it: cleaned lines, secrets masked. */
export function contextLogLines(context: CiContext): string[] {
  return storedLines(logText(context.buildDetails));
}

/** The last green build's log the context carries (its tail), cleaned and masked; [] without one. */
export function greenLogLines(context: CiContext): string[] {
  const green = context.buildDetails?.lastSuccessfulBuild;
  return typeof green === 'object' && green !== null ? storedLines(logText(green as { consoleLog?: unknown; consoleLogTail?: unknown })) : [];
}

/**
 * The first log lines an answer cites (its first `log` source), else the analyzer's best
 * excerpt, at most 8 lines of 300 characters.
 */
export function citedLines(lines: readonly string[], sources: readonly Source[] | undefined): string[] {
  const cited = sources?.find((s): s is Extract<Source, { kind: 'log' }> => s.kind === 'log');
  const span = cited ?? analyzeLines(lines, { maxExcerpts: 1 })[0];
  if (!span) return [];
  const from = Math.max(1, span.start_line);
  const to = Math.min(lines.length, span.end_line, from + CITED_LINES_MAX - 1);
  const out: string[] = [];
  for (let i = from; i <= to; i++) {
    const line = lines[i - 1] ?? '';
    out.push(line.length > CITED_LINE_CHARS ? `${line.slice(0, CITED_LINE_CHARS - 1)}…` : line);
  }
  return out;
}

/** The build's page: the job's URL (known when Jenkins' root URL is configured) and the number. */
export function buildUrlOf(context: CiContext, build: number): string | undefined {
  const jobUrl = context.jobDetails?.url;
  if (typeof jobUrl !== 'string' || jobUrl === '') return undefined;
  return `${jobUrl.endsWith('/') ? jobUrl : `${jobUrl}/`}${build}/`;
}

/** What users are shown for a build that could not be read (the cause is in the controller's log). */
export const NOT_FOUND_ERROR = 'Not diagnosed: the build could not be read from JENKINS_HOME (deleted, or unreadable); the controller log says why.';
/** What users are shown for a build whose diagnosis kept failing. */
export const GAVE_UP_ERROR = 'Not diagnosed: the diagnosis failed repeatedly (backend or answer engine unavailable); the controller log says why.';

/** Diagnoses `item` for every watching user; the record for `GET /failures` and the webhook. */
export async function diagnose(item: QueueItem, deps: DiagnoseDeps): Promise<FailureRecord> {
  const { logger } = deps;
  const result = await deps.buildCiContext({
    jenkinsHome: deps.jenkinsHome,
    jobName: item.job,
    buildNumber: item.build,
    currentScreen: `Build ${item.job} #${item.build}`,
    ...(deps.workspace ? { workspace: deps.workspace } : {}),
  });
  const history = result.context.buildDetails?.history;
  const base = {
    ...(history
      ? {
          history: {
            fingerprint: history.fingerprint,
            verdict: history.verdict,
            failingSince: history.failingSince,
            streak: history.streak,
            seenInLast: history.seenInLast,
            window: history.window,
            reason: history.reason,
          },
        }
      : {}),
    key: item.key,
    job: item.job,
    build: item.build,
    result: item.result,
    detectedAt: item.detectedAt,
    citedLines: [] as string[],
    ...(buildUrlOf(result.context, item.build) ? { buildUrl: buildUrlOf(result.context, item.build) } : {}),
  };
  if (result.notFound) {
    // Deleted between its end and now (a retention policy): nothing left to explain.
    // The reason stays in the log: the record is shown to users, who get a sentence without paths.
    const why = result.problems[0]?.error.message ?? 'the build is gone';
    logger.warn({ job: item.job, build: item.build, why }, 'watch: failed build vanished before it was diagnosed');
    const watchers = await deps.users().catch(() => [] as string[]);
    return { ...base, cause: '', chats: [], unread: [], diagnosedAt: new Date().toISOString(), error: NOT_FOUND_ERROR, watchers };
  }
  const users = await deps.users();
  if (users.length === 0) logger.warn({ job: item.job, build: item.build }, 'watch: no watching user (CICHAT_WATCH_USERS); no chat made');

  let answered: QaPair | null = null;
  for (const user of users) {
    answered = (await diagnoseFor(user, item, result.context, deps)) ?? answered;
  }
  const lines = contextLogLines(result.context);
  const content = answered?.answer?.content ?? '';
  const chats = users.flatMap((user) => {
    const chat = item.chats[user];
    return chat ? [{ user, chatId: chat.chatId }] : [];
  });
  const found = causeOf(lines, greenLogLines(result.context));
  return {
    ...base,
    // The finding's message and place first; the answer's first line when no finding has a class.
    // The lines quoted with it are the ones the cause was read from (issue 25).
    cause: found?.text ?? (oneLineCause(content) || (lines.length ? `See the log of ${item.job} #${item.build}` : '')),
    citedLines: citedLines(lines, found ? [found.span] : answered?.answer?.sources),
    chats,
    unread: chats.map((c) => c.user),
    diagnosedAt: new Date().toISOString(),
  };
}

/** How far the backend's clock may lag the controller's when a lost chat is looked for. */
export const CHAT_CLOCK_SKEW_MS = 5 * 60_000;

/**
 * The user's chat about `item`: the one an earlier run asked for and died before recording
 * (its intent is in `item.creating`), else a new one. The intent is on disk before the backend
 * is asked, so a kill between the backend making the chat and work.json holding its id never
 * leads to a second chat for the same failure.
 */
async function chatFor(user: string, item: QueueItem, deps: DiagnoseDeps): Promise<UserChat> {
  const { calls, logger } = deps;
  const title = chatTitle(item.job, item.build);
  const asked = item.creating?.[user];
  if (asked !== undefined) {
    const lost = await calls.findChat(user, title, asked - CHAT_CLOCK_SKEW_MS);
    if (lost) {
      logger.info({ job: item.job, build: item.build, user, chatId: lost.id }, 'watch: chat made before a restart found; reused');
      return { chatId: lost.id };
    }
  }
  (item.creating ??= {})[user] = Date.now();
  deps.save();
  const created = await calls.createChat(user, title);
  return { chatId: created.id };
}

/** One user's chat: made, context uploaded, question answered; answers the stored pair. */
async function diagnoseFor(user: string, item: QueueItem, context: CiContext, deps: DiagnoseDeps): Promise<QaPair | null> {
  const { calls } = deps;
  let chat = item.chats[user];
  let pair: QaPair | null = null;
  if (chat) {
    try {
      pair = await calls.newestPair(user, chat.chatId);
    } catch (err) {
      // The user deleted the chat while it was being made: make a new one.
      if (!(err instanceof BackendCallError && err.status === 404)) throw err;
      delete item.chats[user];
      chat = undefined;
      pair = null;
    }
    if (chat?.done && pair?.answer) return pair;
  }
  if (!chat) {
    chat = await chatFor(user, item, deps);
    item.chats[user] = chat;
    if (item.creating) {
      delete item.creating[user];
      if (Object.keys(item.creating).length === 0) delete item.creating;
    }
    deps.save();
  }
  if (pair?.answer?.status !== 'complete') {
    if (pair) {
      // Asked before a restart, not answered to the end: ask that pair again.
      await calls.ask(user, chat.chatId, FIRST_QUESTION, pair.qa_pair_id);
    } else {
      await calls.uploadContext(user, chat.chatId, context);
      await calls.ask(user, chat.chatId, FIRST_QUESTION);
    }
    pair = await calls.newestPair(user, chat.chatId);
  }
  chat.done = true;
  deps.save();
  return pair;
}
