/**
 * The job and build a chat is about. The backend says so in `job_name` / `build_number` (from the
 * chat's uploaded context); an older backend, or a chat without a context, leaves them absent or
 * null, and then the title is read instead. Kept free of React: `cichat chats list` uses it too.
 */
import type { Chat } from '../protocol/types.js';
import { logOnlyLabels } from '../protocol/chatTitle.js';

export interface ChatSubject {
  job: string;
  /** Null when the context names a job but no build (a job page). */
  build: number | null;
  /** The title without the subject, when it starts with `job #n:`; else the whole title. */
  rest: string;
  /** Where the subject came from. */
  from: 'context' | 'title';
}

/**
 * The job and build a title names: `team/api #42: why ...` (`cichat ask --job`), `Demo: team/api
 * #42 failed` (the demo chat), `$JOB_NAME #$BUILD_NUMBER failed` (the README's pipeline recipe).
 * The title without them is the rest.
 */
export function titleSubject(title: string): { job: string; build: number; rest: string } | undefined {
  const m = /^(?:Demo:\s*)?([\w.@+-]+(?:\/[\w.@+-]+)*) #(\d+)(?::\s*|\s+|$)/.exec(title);
  if (!m || !m[1] || !m[2]) return undefined;
  // `job #n: question` shows the question; other titles stay whole.
  const rest = /^[^\s]+ #\d+:\s*/.test(title) ? title.slice(m[0].length) : title;
  return { job: m[1], build: Number(m[2]), rest: rest || title };
}

/** The chat's subject: the backend's fields when it sent a job, else the title's, else none. */
export function chatSubject(chat: Pick<Chat, 'title' | 'job_name' | 'build_number'>): ChatSubject | undefined {
  const parsed = titleSubject(chat.title);
  if (typeof chat.job_name === 'string' && chat.job_name !== '') {
    const build = typeof chat.build_number === 'number' ? chat.build_number : null;
    // The title's `job #n:` prefix repeats the column: shown once, when it says the same.
    const same = parsed !== undefined && parsed.job === chat.job_name && parsed.build === build;
    return { job: chat.job_name, build, rest: same ? parsed.rest : chat.title, from: 'context' };
  }
  return parsed ? { ...parsed, from: 'title' } : undefined;
}

/** `team/api #42`, `team/api` (no build), or '' (no subject). */
export function subjectText(subject: ChatSubject | undefined): string {
  if (!subject) return '';
  return subject.build === null ? subject.job : `${subject.job} #${subject.build}`;
}

/**
 * A chat list's JOB column: the subject (`team/api #42`, `team/api`), else, for a chat made from a piped log, the
 * web list's Job and Build words (`logship (title), log only`: protocol/chatTitle.ts), else ''.
 */
export function listJobText(chat: Pick<Chat, 'title' | 'job_name'>, subject: ChatSubject | undefined): string {
  const text = subjectText(subject);
  if (text) return text;
  const log = logOnlyLabels(chat);
  return log ? `${log.job}, ${log.build}` : '';
}

/** The lines of a log's head that name where a Jenkins build ran: its workspace, else a freestyle step's `[job] $`. */
const WORKSPACE_LINE = /^(?:Building (?:remotely )?(?:on \S+(?: \([^)]*\))? )?in workspace |Running on .+? in )((?:\/|[A-Za-z]:\\|~\/)\S.*?)\s*$/;
const STEP_LINE = /^\[([^\]\s/\\]+)\] \$ (?:\/|[A-Za-z]:\\|cmd |powershell )/;

/**
 * The job a Jenkins console log names in its first lines, for the title of a chat made from a
 * piped log: the workspace it was built in (`Building in workspace /var/jenkins_home/workspace/team/api`,
 * `Running on agent-1 in /home/jenkins/workspace/api_main@2`), else a freestyle step's
 * `[api] $ /bin/sh -xe ...`. From a path, the part after its `workspace` directory (the job's
 * full name of a classic job; a branch job's directory as Jenkins named it), without `@2` or
 * `@tmp`; the last segment when no `workspace` directory is in it. Undefined when the lines name
 * none, or two different ones (parallel branches on other jobs' workspaces).
 */
export function logSubject(head: string): string | undefined {
  const names = new Set<string>();
  let step: string | undefined;
  for (const line of head.split(/\r?\n/, 400)) {
    const ws = WORKSPACE_LINE.exec(line)?.[1];
    if (ws) {
      const parts = ws.replace(/@[\w-]+$/, '').split(/[\\/]+/).filter(Boolean);
      const at = parts.lastIndexOf('workspace');
      const name = (at >= 0 && at < parts.length - 1 ? parts.slice(at + 1) : parts.slice(-1)).join('/');
      if (name) names.add(name);
      continue;
    }
    step ??= STEP_LINE.exec(line)?.[1]?.replace(/@[\w-]+$/, '');
  }
  if (names.size > 1) return undefined;
  const name = [...names][0] ?? step;
  return name && name.length <= 120 ? name : undefined;
}
