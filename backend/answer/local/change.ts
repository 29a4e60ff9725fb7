import { clip, inlineCode } from '../logtext.js';

/** One commit of a build's change set, on one line: id, first line of the message, author. */
export function describeChange(change: { commitId?: string; author?: string; message?: string }): string {
  const id = change.commitId ? `${inlineCode(change.commitId.slice(0, 10))} ` : '';
  const message = change.message ? clip(change.message.split('\n')[0] ?? '', 100) : '(no message)';
  return `${id}${message}${change.author ? ` — ${change.author}` : ''}`;
}
