/**
 * The HTTP status a server answered the failing request with, in the answers' words (session 56, fx20). The status is
 * the finding's (`http_status`, read by core/finding/httpStatus.ts since session 57, fx21; before, this module read the
 * message again). The host was reached: a 404 or 410 says the server has no file at that URL, which no re-run changes
 * (RFC 9110 15.5.5 "404 Not Found", 15.5.11 "410 Gone").
 */
import type { Finding, HttpStatus } from '../../../protocol/types.js';
import { isNoSuchFile } from '../../../core/finding/httpStatus.js';
import { inlineCode } from '../logtext.js';

export { isNoSuchFile };

/** The status the finding's request got, when the finding carries one. */
export const httpStatusOf = (f: Pick<Finding, 'http_status'>): HttpStatus | undefined => f.http_status;

/**
 * `the server `host` answered `404 Not Found` for `url``: the words both answers use. With `at`, each cited on its own
 * line: the status on its line, the URL on the download command's when another line names it.
 */
export function answeredWords(s: HttpStatus, host: string | undefined, at?: (line: number) => string): string {
  const apart = at !== undefined && s.url !== undefined && s.url_line !== undefined && s.url_line !== s.log_line;
  const said = `the server${host ? ` ${inlineCode(host)}` : ''} answered ${inlineCode(s.said)}`;
  if (apart) return `${said} ${at(s.log_line)} for ${inlineCode(s.url as string)} ${at(s.url_line as number)}`;
  return `${said}${s.url ? ` for ${inlineCode(s.url)}` : ''}${at ? ` ${at(s.log_line)}` : ''}`;
}
