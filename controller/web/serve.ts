/**
 * Serving the web page (issue 30) from the controller: `/`, `/failures`, `/chats`,
 * `/chats/<id>` and `/new` answer the same `index.html` (the page routes itself), the script and
 * style sheet under `/assets/` by content hash. Every answer carries a strict Content-Security-
 * Policy (own script and style only, nothing inline, no frames), `X-Frame-Options: DENY`,
 * `nosniff` and no referrer. The page is static and holds no data: it is served like the API's
 * public routes (after the Host and method checks, before caller identity), and everything it
 * shows comes from `/chatbot-api` with the caller's identity.
 */
import { createHash } from 'node:crypto';
import { gzipSync, brotliCompressSync, constants as zlib } from 'node:zlib';
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import { loadWebAssets, type WebAsset, type WebAssets } from './bundle.js';

/** The page's own URLs: each serves index.html. */
const PAGE_PATH = /^\/(?:failures|chats|new)?\/?$|^\/chats\/[1-9]\d{0,15}\/?$/;

/** No inline script or style, no other origin, never framed. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

interface Served {
  asset: WebAsset;
  gzip: Buffer;
  br: Buffer;
  etag: string;
  immutable: boolean;
}

function prepare(asset: WebAsset, immutable: boolean): Served {
  return {
    asset,
    gzip: gzipSync(asset.body, { level: 9 }),
    br: brotliCompressSync(asset.body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: asset.body.length } }),
    etag: `"${createHash('sha256').update(asset.body).digest('base64url').slice(0, 22)}"`,
    immutable,
  };
}

/** The page's files, loaded once (built in memory from the sources when no build ships them). */
export class WebPage {
  private loading: Promise<Map<string, Served>> | undefined;

  constructor(
    private readonly logger: Logger,
    private readonly load: () => Promise<WebAssets> = loadWebAssets,
  ) {}

  /** Starts loading now (the controller calls it at start so the first visitor does not wait). */
  warm(): void {
    void this.files().catch(() => undefined);
  }

  private files(): Promise<Map<string, Served>> {
    this.loading ??= this.load().then(
      (assets) => {
        const map = new Map<string, Served>();
        map.set('/', prepare(assets.index, false));
        for (const f of assets.files) map.set(f.path, prepare(f, true));
        this.logger.info({ origin: assets.origin, files: assets.files.map((f) => `${f.path} ${f.body.length} B`) }, 'web page ready');
        return map;
      },
      (err: unknown) => {
        this.loading = undefined; // tried again at the next request
        this.logger.error({ err }, 'web page: could not build or read the page');
        throw err;
      },
    );
    return this.loading;
  }

  /** Koa middleware: answers the page's paths for GET and HEAD, passes everything else on. */
  middleware() {
    return async (ctx: Context, next: Next): Promise<void> => {
      if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
      const key = PAGE_PATH.test(ctx.path) ? '/' : ctx.path.startsWith('/assets/') ? ctx.path : undefined;
      if (key === undefined) return next();
      const files = await this.files();
      const served = files.get(key);
      if (!served) return next();
      ctx.set(SECURITY_HEADERS);
      ctx.set('Cache-Control', served.immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      ctx.set('ETag', served.etag);
      ctx.vary('Accept-Encoding');
      if (ctx.get('If-None-Match') === served.etag) {
        ctx.status = 304;
        return;
      }
      ctx.type = served.asset.type;
      // The smallest the caller takes (brotli, then gzip), whatever order it lists them in.
      const takes = ctx.acceptsEncodings();
      const accepted = takes.includes('br') ? 'br' : takes.includes('gzip') ? 'gzip' : 'identity';
      if (accepted === 'br') {
        ctx.set('Content-Encoding', 'br');
        ctx.body = served.br;
      } else if (accepted === 'gzip') {
        ctx.set('Content-Encoding', 'gzip');
        ctx.body = served.gzip;
      } else {
        ctx.body = served.asset.body;
      }
    };
  }
}
