/**
 * How a chat list names the job of a chat whose context came from a piped log (no Jenkins record): both clients
 * (the web page's chat list and `cichat chats list`) read it from the chat's wire fields, so it is kept here, the
 * one module both may import (shared/ARCHITECTURE.md: web imports only protocol/).
 */
import type { Chat } from './types.js';

/**
 * The job a chat's title names when the chat's context names none (ux6-ux9: a chat made from a piped log is titled
 * `<the job its console names>: <question>` by `cichat ask`, and its Job column said `none`). Only the title's
 * `name: ` prefix, a job-like name (letters, digits, `._-@+`, `/` between parts): the list shows it as the title's,
 * not as a Jenkins record. Undefined for any other title.
 */
export function titleJob(title: string): string | undefined {
  // `Demo: <job> #<n> failed` is the demo chat's title, not a job called Demo.
  return /^Demo:/.test(title) ? undefined : /^([\w.@+-]+(?:\/[\w.@+-]+)*): \S/.exec(title)?.[1];
}

/** The words a chat list shows for a chat made from a piped log: its Job (`<name> (title)`) and its Build (`log only`). */
export interface LogOnlyLabels {
  job: string;
  build: 'log only';
}

/**
 * The list's labels for a chat that has no job from its context (`job_name` null or absent) and whose title names
 * one (`titleJob`); undefined for any other chat (it has a Jenkins job, or nothing names one).
 */
export function logOnlyLabels(chat: Pick<Chat, 'title' | 'job_name'>): LogOnlyLabels | undefined {
  if (chat.job_name != null) return undefined;
  const name = titleJob(chat.title);
  return name === undefined ? undefined : { job: `${name} (title)`, build: 'log only' };
}
