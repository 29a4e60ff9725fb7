/**
 * The cause a runtime's exception names (session 56, helper cl3; docs/notes/analyzer.md "Session 56 (helper cl3)").
 *
 * On unseen rounds the largest cell of wrong classes said (not `unknown`) is a runtime's exception (or a test's error)
 * whose label is the cause it reports: a connection refused or timed out, a request refused for its credentials, an
 * allocation the memory limit refused, a program not on PATH, a full disk. Each round
 * brings it in a runtime no rule had read (Java's HttpTimeoutException, Node's `fetch failed` and `allocation
 * failed`, Python's urllib and smtplib errors, Ruby's Net::ReadTimeout, Tcl's `connection refused`, OCaml's
 * Out_of_memory...). What is common is not a tool's format but the grammar of an
 * exception: a type name and a reason, both of which name the cause in the operating system's or the protocol's own
 * terms (an errno name, an HTTP status with its reason phrase, the socket's verbs). Read here on the exception's
 * line only, and only for a finding classed as the runtime's exception or the test's error: the cause wins over what
 * it produced, at `medium` (the words say what refused, not why). A native library not loaded is left to linkage.ts
 * (its labels depend on who loaded it: the JVM's UnsatisfiedLinkError is a link error, glibc's loader at a program's
 * start a missing tool).
 */
import type { FindingClass } from '../../protocol/types.js';

/** A cause's words on an exception's line, most specific first (a proxy's 407 is a credential, not the network). */
const CAUSES: readonly (readonly [FindingClass, RegExp])[] = [
  ['disk-full', /\bENOSPC\b|\bNo space left on device\b/i],
  // The allocator's refusal (`allocation failed`, `cannot allocate memory`), a runtime's own type (OutOfMemoryError, OCaml's Out_of_memory, Python's MemoryError).
  ['out-of-memory', /\bout of memory\b|\bOutOfMemory\w*|\bOut_of_memory\b|\ballocation failed\b|\bcannot allocate memory\b|\bMemoryError\b/i],
  // A wrapper's own type for a program it could not start (`graphviz.ExecutableNotFound`), or its words for PATH.
  ['missing-tool', /\bExecutableNotFound\b|\bexecutables? (?:not found|are on)\b|\bnot found (?:on|in) (?:the )?PATH\b/i],
  // A request refused for who made it: the HTTP statuses of authentication with their reason phrase, a server's word
  // for bad credentials, the operating system's EACCES/EPERM. A read-only file system or database (EROFS) is not read
  // here: errno.ts's `read-only` condition owns it, and the runtime's answer says whether the mount is read-only
  // (test/answers-adv.test.ts; the lead, session 56).
  ['permission-credentials', /\bHTTP Error 40[137]\b|\b40[137] (?:Unauthorized|Forbidden|Proxy Authentication Required)\b|\bAuthentication(?:Error| failed| required| credentials)\b|\bpassword (?:was )?incorrect\b|\bbad decrypt\b|\baccess denied\b|\bpermission denied\b|\bEACCES\b|\bEPERM\b/i],
  // The socket's and the resolver's errno names and verbs, an HTTP client's own timeout type, a server's overload statuses.
  ['network', /\bconnection (?:refused|reset|closed|aborted)\b|\bE(?:CONNREFUSED|CONNRESET|TIMEDOUT|HOSTUNREACH|NETUNREACH|AI_AGAIN|NOTFOUND)\b|\bToo Many Requests\b|\bHTTP Error (?:429|5\d\d)\b|\bfetch failed\b|\bother side closed\b|\bName or service not known\b|\bgetaddrinfo\b|\bcould not resolve host\b|\bwrong version number\b|(?:Http|Net::Read|Net::Open|Socket|Connect|Read)Timeout|\b(?:request|read|connect(?:ion)?|socket) timed out\b/i],
];

/** The cause an exception's line (its type and its reason) names, if any. */
export function causeNamed(line: string): FindingClass | undefined {
  for (const [cls, re] of CAUSES) if (re.test(line)) return cls;
  return undefined;
}
