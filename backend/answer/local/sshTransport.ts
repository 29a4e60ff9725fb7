/**
 * OpenSSH's own line over git's catch-all (helper ux18, session 56; docs/notes/answer.md "Session 56 (helper ux18)"):
 * git prints `fatal: Could not read from remote repository.` and "Please make sure you have the correct access rights"
 * for every failure of its ssh transport, so the ssh line above it says what happened. The analyzer takes that line as
 * the message (core/finding/rules.ts, tool `ssh`); here the answer reads what it means:
 * - `kex_exchange_identification: Connection closed by remote host` (or `read: Connection reset by peer`, `banner line
 *   contains invalid characters`; `ssh_exchange_identification:` before OpenSSH 8; `Connection timed out during banner
 *   exchange`): the TCP connection was accepted, then no SSH server sent its version line (RFC 4253 4.2, "Protocol Version
 *   Exchange": the server sends `SSH-2.0-...` first). A port that is not the SSH server's, or a proxy, load balancer or
 *   firewall in front of it that accepts and closes the connection; sshd's own `MaxStartups` drops do the same.
 * - `Connection closed by 203.0.113.7 port 47913` alone (no banner line): the server closed it after the exchange began.
 * The host and port: the failing command's URL (`ssh://[user@]host:port/...`, scp's `user@host:path`: port 22), else
 * the line that names the address (`Connection closed by ADDRESS port N`).
 */
import type { Finding } from '../../../protocol/types.js';
import { at, inlineCode } from '../logtext.js';

type LineText = (line: number) => string | undefined;

export interface SshTransport {
  /** `banner`: closed before the server's version line; `closed`: closed (or reset) after it. */
  kind: 'banner' | 'closed';
  /** The host as the command names it (else the address ssh printed), and the port. */
  host?: string;
  port?: string;
  /** The log line that names the host (and the port, when one line names both). */
  hostLine?: number;
  /** The line naming the port, when another than `hostLine`. */
  portLine?: number;
  /** The URL names no port and ssh printed none: ssh's default. */
  defaultPort?: boolean;
  /** git's `fatal: Could not read from remote repository.` under it, when printed. */
  gitLine?: number;
}

const BANNER = /^(?:kex|ssh)_exchange_identification: \S|^Connection timed out during banner exchange/;
const CLOSED = /^Connection (?:closed|reset) by (?:authenticating user \S+ )?(\S+) port (\d+)/;
const SSH_URL = /\bssh:\/\/(?:[^@\s/]+@)?([\w.-]+|\[[\d:a-fA-F]+\])(?::(\d+))?\//;
const SCP_LIKE = /(?:^|\s)(?:[\w.-]+@)([\w.-]+\.[\w-]+):(?!\/\/)[\w./~-]/;
const GIT_CATCH_ALL = /^fatal: Could not read from remote repository\.?$/;

/** What the ssh line of a network finding says, or undefined when the finding is not one. */
export function sshTransportOf(f: Finding, lineText?: LineText): SshTransport | undefined {
  if (f.class !== 'network') return undefined;
  const kind = BANNER.test(f.message) ? 'banner' : CLOSED.test(f.message) ? 'closed' : undefined;
  if (kind === undefined) return undefined;
  const out: SshTransport = { kind };
  if (!lineText) return out;
  const m0 = f.message_line;
  let address: { host: string; port: string; line: number } | undefined;
  for (let n = m0; n <= m0 + 3; n++) {
    const t = lineText(n) ?? '';
    const c = CLOSED.exec(t);
    if (c && !address) address = { host: c[1] as string, port: c[2] as string, line: n };
    if (GIT_CATCH_ALL.test(t)) {
      out.gitLine = n;
      break;
    }
  }
  // The command's URL: the nearest line above that names one.
  for (let n = m0 - 1; n >= Math.max(1, m0 - 12); n--) {
    const t = lineText(n) ?? '';
    const u = SSH_URL.exec(t);
    const s = u ? undefined : SCP_LIKE.exec(t);
    if (!u && !s) continue;
    out.host = (u ?? s)![1] as string;
    out.hostLine = n;
    // The URL's port, else the one ssh printed (a `Port` of ~/.ssh/config), else ssh's default; ssh's own line wins a disagreement.
    if (address && address.port !== u?.[2]) {
      out.port = address.port;
      out.portLine = address.line;
    } else if (u?.[2] === undefined) {
      out.port = '22';
      out.defaultPort = true;
    } else out.port = u[2];
    return out;
  }
  if (address) {
    out.host = address.host;
    out.port = address.port;
    out.hostLine = address.line;
  }
  return out;
}

/** `host:port` as the log gives it, each cited where the log names it; `the server` when the log names no host. */
function where(t: SshTransport): string {
  if (t.host === undefined) return 'the server';
  const h = t.hostLine === undefined ? '' : ` ${at(t.hostLine)}`;
  if (t.portLine !== undefined && t.portLine !== t.hostLine) return `${inlineCode(t.host)}${h}, port ${inlineCode(t.port ?? '')} ${at(t.portLine)},`;
  if (t.portLine === undefined && t.port === '22' && t.defaultPort) return `${inlineCode(t.host)}${h} (port 22, ssh's default: the URL names no port)`;
  return `${inlineCode(`${t.host}:${t.port ?? '22'}`)}${h}`;
}

/** git's catch-all, said for what it is, when printed under the ssh line. */
function gitCatchAll(t: SshTransport): string {
  return t.gitLine === undefined ? '' : ` git's \`fatal: Could not read from remote repository.\` ${at(t.gitLine)} and its "access rights" advice are what git prints for every failure of its ssh connection; the ssh line above it says which, and it is not a refused key.`;
}

/** "What it means" of an ssh line over git's catch-all. `m` cites the message. */
export function sshMeaning(t: SshTransport, m: string): string {
  const w = where(t);
  if (t.kind === 'banner') return `ssh reached ${w} and the connection was accepted, but it was closed before any SSH server answered ssh's version exchange ${m}: whatever listens there is not an SSH server that talks to the agent (a wrong port, or a proxy, load balancer or firewall in front of the server that accepts and then drops the connection).${gitCatchAll(t)}`;
  return `ssh reached ${w} and the server closed the connection ${m} before git could read the repository.${gitCatchAll(t)}`;
}

/** The remedy's step for the same line. */
export function sshStep(t: SshTransport, m: string): string {
  const w = where(t);
  const host = t.host ?? 'HOST';
  const port = t.port ?? '22';
  const probe = inlineCode(`ssh -v -p ${port} git@${host}`);
  if (t.kind === 'banner') {
    return `${capitalFirst(w)} accepts TCP connections, but no SSH server answered on it ${m}. Check that this is the SSH server's port (from the agent, ${inlineCode(`nc ${host} ${port}`)} should print a line starting \`SSH-2.0-\`; ${probe} shows where the exchange stops): a wrong port in the URL, or a proxy, load balancer or firewall between the agent and the server that accepts the connection and closes it. If it is the right port, the server's log says why it dropped the connection (sshd's \`MaxStartups\` limit, the agent's address refused).`;
  }
  return `The SSH server at ${w} closed the connection after accepting it ${m}: its log (or the Git host's status) says why (a limit on connections, the agent's address refused, a restart); ${probe} from the agent shows how far the exchange gets.`;
}

const capitalFirst = (s: string): string => (s.startsWith('the ') ? `T${s.slice(1)}` : s);
