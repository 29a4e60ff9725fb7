/**
 * An HTTP status a server answered a download with, as the tool words it (session 56, fx20): R's `cannot open URL 'u':
 * HTTP status was '404 Not Found'`, curl's `The requested URL returned error: 404`, wget's `ERROR 404: Not Found.`, pip's
 * `HTTP error 404 while getting u`. The host was reached: a 404 or 410 says the server has no file at that URL, which no
 * re-run changes (RFC 9110 15.5.5 "404 Not Found", 15.5.11 "410 Gone").
 */
import { inlineCode } from '../logtext.js';

export interface HttpStatus {
  code: number;
  /** The status as the tool printed it (`404 Not Found`, `404`). */
  said: string;
  /** The URL the message names, when it names one. */
  url?: string | undefined;
}

const FORMS: RegExp[] = [
  /\bURL '(?<url>[^']+)': HTTP status was '(?<said>(?<code>\d{3})[^']*)'/,
  /\bThe requested URL returned error: (?<said>(?<code>\d{3})(?: [A-Za-z][\w ]*)?)/,
  /\bERROR (?<said>(?<code>\d{3}): [^.]*)\./,
  /\bHTTP error (?<said>(?<code>\d{3})) while getting (?<url>\S+)/,
];

/** The HTTP status of a download's message, or undefined when it names none. */
export function httpStatusOf(message: string): HttpStatus | undefined {
  for (const re of FORMS) {
    const g = re.exec(message)?.groups;
    if (g?.code) return { code: Number(g.code), said: (g.said ?? g.code).trim(), ...(g.url ? { url: g.url } : {}) };
  }
  return undefined;
}

/** Whether the status says the server has no such file (404 Not Found, 410 Gone). */
export const isNoSuchFile = (s: HttpStatus): boolean => s.code === 404 || s.code === 410;

/** `the server `host` answered `404 Not Found` for `url``: the words both answers use. */
export function answeredWords(s: HttpStatus, host: string | undefined): string {
  return `the server${host ? ` ${inlineCode(host)}` : ''} answered ${inlineCode(s.said)}${s.url ? ` for ${inlineCode(s.url)}` : ''}`;
}
