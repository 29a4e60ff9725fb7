/**
 * Opt-in CORS for browser clients on other origins (CONTRACT section 3): only the exact origins
 * of `CONTROLLER_CORS_ORIGINS` get CORS headers, with credentials allowed, so never `*`.
 * Preflights from them are answered here (204); a preflight from any other origin is 403 and
 * carries no CORS header, so the browser refuses the request.
 */
import type http from 'node:http';

/** What a browser client may send besides the simple headers. */
const ALLOWED_HEADERS = ['authorization', 'content-type', 'x-request-id', 'accept', 'last-event-id', 'cache-control'];
const ALLOWED_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';
const MAX_AGE_SECONDS = '600';

/**
 * `CONTROLLER_CORS_ORIGINS`: comma-separated `scheme://host[:port]` origins, matched exactly
 * (lower-cased scheme and host, default ports dropped as browsers send them).
 */
export function parseCorsOrigins(raw: string | undefined): { origins: string[]; problems: string[] } {
  const origins: string[] = [];
  const problems: string[] = [];
  if (raw === undefined || raw.trim() === '') return { origins, problems };
  for (const item of raw.split(',').map((s) => s.trim()).filter(Boolean)) {
    if (item.includes('*')) {
      problems.push(`${item}: wildcards are not accepted (credentials are allowed, so each origin must be named exactly)`);
      continue;
    }
    let url: URL;
    try {
      url = new URL(item);
    } catch {
      problems.push(`${item}: must be an origin such as https://ci.example.com or http://localhost:3000`);
      continue;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      problems.push(`${item}: must start with http:// or https://`);
      continue;
    }
    if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash || url.username || url.password || /\/./.test(item.replace(/^https?:\/\//, ''))) {
      problems.push(`${item}: must be an origin only (scheme, host and port; no path, query or user)`);
      continue;
    }
    if (!origins.includes(url.origin)) origins.push(url.origin);
  }
  return { origins, problems };
}

export interface Cors {
  /**
   * Sets the CORS headers for an allowed origin; answers a preflight. Returns true when the
   * request was answered (a preflight) and must go no further.
   */
  handle(req: http.IncomingMessage, res: http.ServerResponse): boolean;
}

export function createCors(origins: readonly string[]): Cors {
  const allowed = new Set(origins);
  return {
    handle(req, res) {
      if (allowed.size === 0) return false;
      const origin = req.headers.origin;
      if (origin === undefined) return false;
      const preflight = req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
      res.setHeader('Vary', 'Origin');
      if (!allowed.has(origin)) {
        if (!preflight) return false;
        const body = JSON.stringify({ detail: `Origin ${origin.slice(0, 200)} is not allowed: add it to CONTROLLER_CORS_ORIGINS to let its pages call this controller` });
        res.writeHead(403, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
        res.end(body);
        return true;
      }
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Access-Control-Allow-Credentials', 'true');
      res.setHeader('Access-Control-Expose-Headers', 'X-Request-Id');
      if (!preflight) return false;
      const asked = String(req.headers['access-control-request-headers'] ?? '')
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter((h) => ALLOWED_HEADERS.includes(h));
      res.setHeader('Access-Control-Allow-Methods', ALLOWED_METHODS);
      res.setHeader('Access-Control-Allow-Headers', (asked.length > 0 ? asked : ALLOWED_HEADERS).join(', '));
      res.setHeader('Access-Control-Max-Age', MAX_AGE_SECONDS);
      res.writeHead(204);
      res.end();
      return true;
    },
  };
}
