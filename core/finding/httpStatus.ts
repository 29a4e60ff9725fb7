/**
 * Which HTTP status the failing request got (session 57, helper fx21; issue 25): one reader for the rules' classes
 * (rules.ts' status rules, built by `httpStatusRe`) and for the answers (the finding's `http_status`, set by
 * `withHttpStatus`). Before, backend/answer/local/httpStatus.ts read the finding's message again with its own forms.
 * A client's words for the status: curl's `The requested URL returned error: 404`, wget's `ERROR 404: Not Found.` (and
 * its `awaiting response... 404 Not Found`), R's `HTTP status was '404 Not Found'`, pip's `HTTP error 404 while
 * getting URL`, PowerShell's `The remote server returned an error: (404) Not Found.` (5.1) and `Response status code
 * does not indicate success: 404 (Not Found).` (7), and the labelled forms any client prints (`status code 403`,
 * `HTTP Error 429: Too Many Requests`, `HTTP/1.1 503`, `response code: 401`, requests' `429 Client Error: ...`).
 *
 * A download client's own status line also settles the class when the request's URL says what it fetched (RFC 9110
 * 15.5): a 404 or 410 for a URL that names an artifact, a release or a package (a version in its path, an archive's or
 * a package's file name, `/releases/download/`) is a dependency the build fetches that the server does not have
 * (dependency-resolution: the open round 4's curl-artifact-404 was labelled so); a 5xx for such a URL is the server's
 * (network); 401/403/407 are the credentials' (the rules' already). A 404 for any other URL (`/healthz`, an API's path)
 * does not say whether the build's URL or the server is wrong: the class is left to the rules' medium, which
 * calibration says `unknown` unless the excerpt's words support it.
 */
import type { Finding, HttpStatus } from '../../protocol/types.js';

/** The labels clients print before a status code. */
const LABEL = String.raw`returned error|status code|HTTP Error|HTTP\/[\d.]+|response code|[Ss]tatus`;

/** A server's HTTP status `codes` (a pattern) as clients report it: after its label, or before its reason phrase (requests: `429 Client Error: Too Many Requests`; Ruby's `401 "Unauthorized"`). The rules' status pattern. */
export function httpStatusRe(codes: string, reasons: string): RegExp {
  return new RegExp(String.raw`(?:\b(?:${LABEL})[:=]? (?:${codes})\b|\b(?:${codes}) (?:(?:Client |Server )?Error: )?"?(?:${reasons})\b)`, 'i');
}

/** The reason phrases of the 4xx and 5xx statuses a download meets (RFC 9110 15.5, 15.6). */
const REASONS = 'Bad Request|Unauthorized|Payment Required|Forbidden|Not Found|Method Not Allowed|Not Acceptable|Proxy Authentication Required|Request Timeout|Conflict|Gone|Too Many Requests|Internal Server Error|Not Implemented|Bad Gateway|Service Unavailable|Gateway Time-?out';

/** The forms, most specific first: `code`, and `said` (the status as printed) or `reason`, and `url` where the line names it. */
const FORMS: RegExp[] = [
  /\bURL '(?<url>[^']+)': HTTP status was '(?<said>(?<code>[45]\d\d)[^']*)'/,
  /\bThe requested URL returned error: (?<said>(?<code>[45]\d\d)(?: [A-Za-z][\w ]*)?)/,
  /\bERROR (?<said>(?<code>[45]\d\d): [^.]*)\./,
  /\bHTTP error (?<said>(?<code>[45]\d\d)) while getting (?<url>\S+)/,
  /\bThe remote server returned an error: \((?<code>[45]\d\d)\) (?<reason>[^.]+)\./,
  /\bResponse status code does not indicate success: (?<code>[45]\d\d) \((?<reason>[^)]+)\)/,
  /\bawaiting response\.\.\. (?<said>(?<code>[45]\d\d)(?: [A-Za-z][\w ]*)?)$/,
  new RegExp(String.raw`\b(?<code>[45]\d\d) (?:(?:Client |Server )?Error: )?"?(?<reason>${REASONS})\b"?(?:[^\n]*? - (?:GET|HEAD) (?<url>https?:\/\/\S+))?`),
  new RegExp(String.raw`\b(?:${LABEL})[:=]? (?<said>(?<code>[45]\d\d))\b`, 'i'),
];

/** The 4xx or 5xx status `text` says a server answered, or undefined. */
export function httpStatusIn(text: string): Omit<HttpStatus, 'log_line'> | undefined {
  for (const re of FORMS) {
    const g = re.exec(text)?.groups;
    if (!g?.code) continue;
    const said = g.reason ? `${g.code} ${g.reason.trim()}` : (g.said ?? g.code).trim();
    return { code: Number(g.code), said, ...(g.url ? { url: g.url } : {}) };
  }
  return undefined;
}

/** Whether the status says the server has no such file (404 Not Found, 410 Gone). */
export const isNoSuchFile = (s: Pick<HttpStatus, 'code'>): boolean => s.code === 404 || s.code === 410;

/** The classes whose finding is about a request that failed (not a test's check of a status, not a compiler's). */
const REQUEST_CLASSES = new Set<Finding['class']>(['unknown', 'network', 'permission-credentials', 'dependency-resolution', 'ci-script', 'runtime-exception']);

/** A download client's own status line: curl's, wget's, PowerShell's (the line that settles the class with the URL). */
const DOWNLOAD_STATUS = /^curl: \(22\) The requested URL returned error: |(?:^|\s)ERROR [45]\d\d: |^HTTP request sent, awaiting response\.\.\. [45]\d\d|^Invoke-WebRequest : The remote server returned an error: \(|^\|?\s*Response status code does not indicate success: /;
/** A line that runs a download (a traced command, wget's request line, a PowerShell call or its echo), and its URL. */
const REQUEST = /(?:\bcurl\b|\bwget\b|^--[\d-]+ [\d:]+--\s|\bInvoke-WebRequest\b|\biwr\b)[^\n]*?['"]?(https?:\/\/[^\s'"]+)/;
/** A URL's path that names an artifact, a release or a package: a version segment, a versioned or packaged file name, a release download. */
const ARTIFACT_PATH = /\/v?\d+\.\d+(?:\.\d+)*(?:[-+.][\w.]+)?(?:\/|$)|[-_]v?\d+\.\d+(?:\.\d+)*[\w.+-]*$|\.(?:tar\.gz|tgz|tar\.xz|tar\.bz2|zip|jar|war|whl|gem|nupkg|deb|rpm|apk|exe|msi|dmg|pom|crate|tar)$|\/releases\/download\//i;

/** The URL of the request whose status is on line `at` (0-based): the nearest download command above (30 lines), or PowerShell's echo below (4). */
function requestUrl(at: number, count: number, bodyAt: (i: number) => string): { url: string; url_line: number } | undefined {
  for (let i = at; i >= Math.max(0, at - 30); i--) {
    const m = REQUEST.exec(bodyAt(i));
    // PowerShell 7's error view cuts a long command with `…`: that URL is not whole.
    if (m?.[1] && !/^\s*…/.test(bodyAt(i).slice((m.index ?? 0) + m[0].length))) return { url: m[1], url_line: i + 1 };
  }
  for (let i = at + 1; i < Math.min(count, at + 5); i++) {
    const u = /^\+ .*\bInvoke-WebRequest\b.*?(https?:\/\/[^\s'"]+)/.exec(bodyAt(i))?.[1];
    if (u) return { url: u, url_line: i + 1 };
  }
  return undefined;
}

/** Whether `url`'s path names an artifact, a release or a package the build downloads. */
export function namesArtifact(url: string): boolean {
  const path = url.replace(/^[a-z]+:\/\/[^/]+/i, '').replace(/[?#].*$/, '');
  return ARTIFACT_PATH.test(path);
}

/**
 * The finding step: the status the failing request got, read on the message line, else on the other evidence lines, as
 * `http_status` (with the request's URL when the line or the download command names it); and for a download client's
 * own status line, the class its URL settles (above).
 */
export function withHttpStatus(f: Finding, count: number, bodyAt: (i: number) => string): Finding {
  if (!REQUEST_CLASSES.has(f.class)) return f;
  let found: HttpStatus | undefined;
  for (const n of [f.message_line, ...f.evidence.filter((e) => e !== f.message_line)]) {
    const text = n === f.message_line ? f.message : n - 1 < count ? bodyAt(n - 1) : '';
    const s = httpStatusIn(text);
    if (s) {
      found = { ...s, log_line: n };
      break;
    }
  }
  if (!found) return f;
  const line = bodyAt(found.log_line - 1).trim();
  const download = DOWNLOAD_STATUS.test(line) || DOWNLOAD_STATUS.test(f.message);
  const request = found.url === undefined && download ? requestUrl(found.log_line - 1, count, bodyAt) : undefined;
  const url = found.url ?? request?.url;
  const status: HttpStatus = { ...found, ...request };
  const out: Finding = { ...f, http_status: status };
  if (!download || !url || !namesArtifact(url) || found.log_line !== f.message_line) return out;
  const host = f.host ?? /^[a-z]+:\/\/(?:[^@/]+@)?([^/:]+)/i.exec(url)?.[1];
  const decided: Finding['class'] | undefined = isNoSuchFile(found) ? 'dependency-resolution' : found.code >= 500 ? 'network' : undefined;
  if (!decided || (f.class !== 'unknown' && f.class !== decided && f.class !== 'dependency-resolution')) return out;
  const { rules_class: _c, rules_confidence: _r, likely_class: _l, ...rest } = out;
  return { ...rest, class: decided, confidence: 'high', ...(host ? { host } : {}) };
}
