/**
 * What a build fetches over the network: a host it could not reach, a socket that timed out, a download the
 * server does not have or that does not match its pinned hash. Rules of the tuning rounds 4 and 5 (issue 25,
 * helpers fix4a, fix4b, fix5a; docs/notes/analyzer.md), kept by what they concern (rv5, session 45). Tried
 * with RULES (rules.ts): `DOWNLOAD_FIRST_RULES` before the general rules, `DOWNLOAD_RULES` after them, as before.
 */
import type { Rule } from '../ruleTypes.js';

export const DOWNLOAD_FIRST_RULES: Rule[] = [
  // A download the server does not have: curl's `(22) The requested URL returned error: 404`, wget's `ERROR 404: Not Found.`
  // (after its date and time, or a URL), PowerShell's Invoke-WebRequest (5.1: `The remote server returned an error: (404)
  // Not Found.`; 7: `Response status code does not indicate success: 404 (Not Found).`). At medium: the request's URL
  // settles the class (httpStatus.ts `withHttpStatus`: an artifact's URL is a dependency's, another is unsettled).
  { cls: 'dependency-resolution', priority: 46, confidence: 'medium', re: /^curl: \(22\) The requested URL returned error: 4(?:04|06|10)\b|^(?:\S+ ){0,2}ERROR 4(?:04|06|10): (?:Not Found|Not Acceptable|Gone)\.?$|^Invoke-WebRequest : The remote server returned an error: \(4(?:04|10)\)|^\|?\s*Response status code does not indicate success: 4(?:04|10) \(/, read: (_m, line) => ({ tool: /^curl/.test(line) ? 'curl' : /ERROR/.test(line) ? 'wget' : 'Invoke-WebRequest' }) },
  // PowerShell's refusals of the request's credentials, in its own words (curl's and wget's are the general status rule's).
  { cls: 'permission-credentials', priority: 41, confidence: 'high', re: /^Invoke-WebRequest : The remote server returned an error: \(40[137]\)|^\|?\s*Response status code does not indicate success: 40[137] \(/, read: () => ({ tool: 'Invoke-WebRequest' }) },
  // An HTTP client whose answer was no HTTP at all: the address is some other service's port (an SMTP greeting, SSH's
  // banner, a TLS record), or the service broke mid-answer. Node's parser (`Error: Parse Error: Expected HTTP/, RTSP/ or
  // ICE/`, HPE_INVALID_CONSTANT), Go's transport (`malformed HTTP response "220 relay ESMTP"`), Python's http.client
  // (`BadStatusLine`), curl's `(8) Weird server reply` and `(1) Received HTTP/0.9 when not allowed`: the network or the
  // endpoint, not the code (as curl's and Python's `wrong version number` for TLS spoken to a plain port, rounds 18 and
  // 29, and http.client's `RemoteDisconnected`, round 19; session 55, t30: round 29).
  { cls: 'network', priority: 39, confidence: 'medium', re: /Parse Error: Expected HTTP\/|\bHPE_INVALID_CONSTANT\b|\bmalformed HTTP (?:response|status code)\b|\bhttp\.client\.BadStatusLine\b|^curl: \((?:8\) Weird server reply|1\) Received HTTP\/0\.9 when not allowed)/, read: (_m, line) => ({ ...(/^curl:/.test(line) ? { tool: 'curl' } : {}) }) },
];

export const DOWNLOAD_RULES: Rule[] = [
  // A download that does not match its pinned hash (pip's `THESE PACKAGES DO NOT MATCH THE
  // HASHES`, `hash mismatch`, `checksum mismatch`): the resolver refuses the artifact; pip names
  // the requirements file's line on the package's line below.
  {
    cls: 'dependency-resolution',
    priority: 45,
    confidence: 'high',
    re: /\bDO NOT MATCH THE HASHES\b|\b(?:hash|checksum|sha256|digest) mismatch\b|\bchecksums? did not match\b/i,
    near: { re: /\(from -r (?<file>[^\s()]+) \(line (?<line>\d+)\)\)/, from: 1, to: 3 },
    read: () => ({}),
  },
  // A timeout raised inside a socket or HTTP library's frame (Python's `TimeoutError: timed out`
  // under `socket.py`, `ssl.py`, `http/client.py`, urllib3, requests): the network did not answer.
  {
    cls: 'network',
    priority: 40,
    confidence: 'high',
    re: /^(?:(?:[\w.]+\.)?(?:TimeoutError|timeout|ReadTimeout(?:Error)?|ConnectTimeout(?:Error)?)): (?:timed out|The read operation timed out|_ssl\.c:\d+: The handshake operation timed out)/,
    near: { re: /^\s*File "[^"]*\/(?:socket|ssl|http\/client|urllib\/request|urllib3\/[\w/]+|requests\/[\w/]+|httpx\/[\w/]+|aiohttp\/[\w/]+)\.py", line \d+/, from: -4, to: -1, required: true },
    read: () => ({}),
  },
  // A resource a tool must fetch by URL could not be had (xmllint's `Failed to locate the main
  // schema resource at 'http://...'`, `Failed to load/fetch/download '...'`): the network's.
  { cls: 'network', priority: 41, confidence: 'medium', re: /^(?!warning\b)(?:[\w ]+ : )?.*\bFailed to (?:locate|load|fetch|download|retrieve|open)\b.*['"]https?:\/\/[^'"]+['"]/, read: (_m, line) => ({ ...(/https?:\/\/([\w.-]+)/.exec(line)?.[1] ? { host: /https?:\/\/([\w.-]+)/.exec(line)?.[1] as string } : {}) }) },
  // A host the resolver could not reach (`Could not reach host index.rubygems.org. Check your
  // network connection`), or a download whose cause below is the name lookup (`file could not be
  // downloaded` over `getaddrinfo for x failed: Name or service not known`).
  { cls: 'network', priority: 40, confidence: 'high', re: /\bCould not reach (?:host|server) ([\w.-]+\.[a-z]{2,})\b|\bCheck your (?:network|internet) connection\b/i, read: (m) => (m[1] ? { host: m[1] } : {}) },
  {
    cls: 'network',
    priority: 40,
    confidence: 'high',
    re: /\bcould not be (?:downloaded|fetched|retrieved)\b/i,
    near: { re: /\bgetaddrinfo\b|\bName or service not known\b|\bTemporary failure in name resolution\b|\bCould not resolve host\b|\bConnection (?:refused|timed out)\b|\bNetwork is unreachable\b/i, from: 1, to: 3, required: true },
    read: (_m, line) => {
      const host = /https?:\/\/([\w.-]+)/.exec(line)?.[1];
      return host ? { host } : {};
    },
  },
];
