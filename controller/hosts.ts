/**
 * The DNS-rebinding guard of `CONTROLLER_AUTH=none` (CONTRACT section 3): without tokens, the
 * only thing between a web page and every chat, log and workspace file is that the controller
 * listens on loopback. A page whose own name is made to resolve to 127.0.0.1 passes that check,
 * but its requests still carry its name in `Host`, so only loopback names are served.
 */

/** Served in `none` mode whatever CONTROLLER_ALLOWED_HOSTS says (with or without a port). */
export const LOOPBACK_HOST_NAMES: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

const PORT = /^[0-9]{1,5}$/;
const HOST_NAME = /^(?=.{1,253}$)[a-z0-9_]([a-z0-9_-]{0,62})(\.[a-z0-9_]([a-z0-9_-]{0,62}))*\.?$/;
const IPV6_LITERAL = /^\[[0-9a-f:.]+\]$/;
/** Any 127.0.0.0/8 address: an IP literal cannot be rebound, and the controller may listen on 127.0.0.2. */
const IPV4_LOOPBACK = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

/** `name` and `port` of a Host value (lower case); null when it is not a host[:port]. */
function splitHost(value: string): { name: string; port: string | undefined } | null {
  const host = value.trim().toLowerCase();
  let name: string;
  let port: string | undefined;
  if (host.startsWith('[')) {
    const close = host.indexOf(']');
    if (close < 0) return null;
    name = host.slice(0, close + 1);
    const rest = host.slice(close + 1);
    if (rest !== '') {
      if (!rest.startsWith(':')) return null;
      port = rest.slice(1);
    }
    if (!IPV6_LITERAL.test(name)) return null;
  } else {
    const colon = host.indexOf(':');
    name = colon < 0 ? host : host.slice(0, colon);
    port = colon < 0 ? undefined : host.slice(colon + 1);
    if (!HOST_NAME.test(name)) return null;
  }
  if (port !== undefined && !(PORT.test(port) && Number(port) <= 65535)) return null;
  return { name, port };
}

/**
 * Parses CONTROLLER_ALLOWED_HOSTS: comma-separated host names or IP addresses (IPv6 in
 * brackets), each optionally with `:port` (then only that port); case-insensitive. Every bad
 * entry is a problem, named.
 */
export function parseAllowedHosts(spec: string | undefined): { hosts: string[]; problems: string[] } {
  const hosts: string[] = [];
  const problems: string[] = [];
  for (const raw of (spec ?? '').split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    const parts = splitHost(entry);
    if (!parts || entry.includes('*')) {
      problems.push(`"${entry}" is not a host name or IP address with an optional :port (e.g. cichat.example.com or 10.0.0.5:8080)`);
      continue;
    }
    hosts.push(parts.port === undefined ? parts.name : `${parts.name}:${parts.port}`);
  }
  return { hosts, problems };
}

/**
 * The check of `none` mode: true when the request's `Host` is a loopback name, any
 * 127.0.0.0/8 address, or one of `allowed` (with the port, when the entry names one). A
 * request without `Host` (HTTP/1.0) passes: browsers always send one, so it is not a page.
 */
export function hostCheck(allowed: readonly string[]): (host: string | undefined) => boolean {
  const names = new Set([...LOOPBACK_HOST_NAMES, ...allowed]);
  // The proxy's fast path asks on every request, nearly always with the same one or two values:
  // once a value passed, it passes on a single Set lookup (bounded, so a flood of names cannot grow it).
  const passed = new Set<string>();
  return (host) => {
    if (host === undefined || passed.has(host)) return true;
    const parts = splitHost(host);
    if (!parts) return false;
    const ok = names.has(parts.name) || IPV4_LOOPBACK.test(parts.name) || (parts.port !== undefined && names.has(`${parts.name}:${parts.port}`));
    if (ok && passed.size < 64) passed.add(host);
    return ok;
  };
}

/** The `detail` of the 403 for a Host not served in `none` mode; names the way out. */
export function hostRefusal(host: string): string {
  const shown = host.length > 100 ? `${host.slice(0, 100)}...` : host;
  return (
    `Host "${shown}" is not served: with CONTROLLER_AUTH=none the controller answers only ` +
    `${LOOPBACK_HOST_NAMES.join(', ')} (a web page whose name resolves to this machine must not read your chats). ` +
    'Add the name to CONTROLLER_ALLOWED_HOSTS if you reach the controller under it.'
  );
}

/** Methods that read only: a page on another site may cause them, it cannot read the answer (CORS). */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The cross-site write guard: a browser names the page that makes a request in `Origin`. A
 * request that changes something (POST, PUT, PATCH, DELETE) from a page of another origin than
 * the controller's own (`http(s)://<Host>`) and not listed in CONTROLLER_CORS_ORIGINS is refused:
 * a page on any site could otherwise post to a local controller a body the browser sends
 * without a preflight (a context upload with no Content-Type). Clients that are not browsers
 * (the CLI, the watcher, curl) send no Origin and are not concerned. A page behind a proxy that
 * rewrites Host is trusted through CONTROLLER_ALLOWED_HOSTS or CONTROLLER_CORS_ORIGINS. Only in
 * `none` mode: with tokens, a page cannot authenticate a request without a preflight. Answers
 * why, or undefined.
 */
export function crossSiteRefusal(
  method: string,
  origin: string | undefined,
  host: string | undefined,
  trusted: { corsOrigins: readonly string[]; allowedHosts: readonly string[] },
): string | undefined {
  if (origin === undefined || SAFE_METHODS.has(method)) return undefined;
  const o = origin.trim().toLowerCase();
  if (trusted.corsOrigins.includes(o)) return undefined;
  const h = (host ?? '').trim().toLowerCase();
  const originHost = /^https?:\/\/([^/]+)$/.exec(o)?.[1];
  if (originHost !== undefined && (originHost === h || trusted.allowedHosts.some((a) => a === originHost || a === originHost.replace(/:\d+$/, '')))) {
    return undefined;
  }
  return `A ${method} from a page of ${origin} is refused: the controller only takes changes from its own pages (${h || 'its host'}) and the origins in CONTROLLER_CORS_ORIGINS`;
}
