import path from 'node:path';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '../http/router.js';
import Koa from 'koa';
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import { createLogger } from '../http/logger.js';
import { accessLog, REQUEST_ID_HEADER, requestContext, requestIdOf, withRequestLog } from '../http/request.js';
import type { ControllerConfig } from './config.js';
import { errorMiddleware, HttpError, NotFound } from './errors.js';
import { crossSiteRefusal, hostCheck, hostRefusal } from './hosts.js';
import { createIdentity } from './identity.js';
import { buildCiContextResult } from '../jenkins/context.js';
import { HISTORY_WINDOW } from '../jenkins/history.js';
import { registerHistoryRoute } from './routes/history.js';
import { resolveReferer } from '../jenkins/referer.js';
import { BackendProxy } from './proxy.js';
import { CONTEXT_LOG_ROUTE, CONTEXT_ROUTE, uploadContext, uploadContextLog, type BuildCiContext, type ContextRouteDeps, type ParseReferer } from './routes/context.js';
import { registerWorkspaceRoutes } from './workspace/routes.js';
import { runWorkspaceTool } from './workspace/tools.js';
import { TOOLS_PATH } from '../protocol/toolToken.js';
import { Watcher } from './watch/index.js';
import { openedChat, registerWatchRoutes } from './watch/routes.js';
import { createBoundedServer, SERVER_TIMEOUTS, type ServerTimeouts } from '../http/server.js';
import { SERVED_METHODS, methodNotImplemented, onClientError, onConnect } from './wire.js';
import { createCors } from './cors.js';
import { DEFAULT_CONTROLLER_UPLOADS_MAX, uploadSlots } from './uploadSlots.js';
import { openApiText } from './openapi.js';
import { WebPage } from './web/serve.js';

/** Everything the controller's HTTP surface is mounted under (CONTRACT section 3). */
export const API_PREFIX = '/chatbot-api';

export interface ControllerDeps {
  config: ControllerConfig;
  logger?: Logger;
  /** The backend client; made from the config when absent (pass one to close it yourself). */
  proxy?: BackendProxy;
  /** Reads the CI context from JENKINS_HOME; the real reader when absent. */
  buildCiContext?: BuildCiContext;
  /** Job, build and screen from a Referer; the real parser when absent. */
  parseReferer?: ParseReferer;
  /** The failed-build watcher when CICHAT_WATCH is on (it starts after the server listens). */
  watcher?: () => Watcher | undefined;
  /** The watcher's first retry pause (tests shorten it). */
  watchRetryFirstMs?: number;
  /** Header, request, keep-alive and idle bounds of the server (SERVER_TIMEOUTS; tests shorten them). */
  serverTimeouts?: Partial<ServerTimeouts>;
}

declare module 'koa' {
  interface DefaultState {
    /** The caller's user id, set once identity has been checked. */
    userId?: string;
  }
}

/**
 * The controller's Koa application: error rendering, the health check, caller identity, context
 * injection, workspace browsing, and the streaming proxy for everything else under
 * `/chatbot-api`. No I/O of its own beyond serving requests.
 */
export function createControllerApp(deps: ControllerDeps): Koa {
  return buildController(deps).app;
}

/**
 * The paths whose whole handling is "check the caller, mint a token, relay": the chats and
 * messages APIs. They are the busy ones (a chat UI polls the list, every answer streams) and
 * need none of Koa's request/response objects, so `createControllerHandler` serves them straight
 * from node:http. Everything else (health, context injection, workspaces, unknown paths, and any
 * caller who fails identity) goes through the Koa app, which renders errors.
 */
const CHATS_PATH = `${API_PREFIX}/chats`;
const MESSAGES_PATH = `${API_PREFIX}/messages/`;
function isPlainProxyPath(url: string): boolean {
  if (url.startsWith(MESSAGES_PATH)) return true;
  if (!url.startsWith(CHATS_PATH)) return false;
  const next = url[CHATS_PATH.length];
  return next === undefined || next === '/' || next === '?';
}

/**
 * The controller's request listener: the Koa app, with a fast path for the plain proxied paths
 * (about a fifth less CPU per proxied request; see docs/notes/controller.md).
 */
export function createControllerHandler(deps: ControllerDeps): http.RequestListener {
  const { app, proxy, identity, logger, hostAllowed } = buildController(deps);
  const watcher = deps.watcher;
  const cors = createCors(deps.config.corsOrigins ?? []);
  const viaKoa = app.callback();
  // forward() answers every failure itself; this is for a bug in it, which must cost one
  // request (500, as the Koa path's error middleware would answer), never the process.
  const failed = (res: http.ServerResponse, err: unknown, reqId: string): void => {
    logger.error({ err, reqId }, 'proxy failed');
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const body = JSON.stringify({ detail: 'Internal error' });
    res.writeHead(500, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
  if (deps.config.fastPath === false) {
    return (req, res) => {
      if (hostAllowed(req.headers.host) && cors.handle(req, res)) return;
      void viaKoa(req, res);
    };
  }
  return (req, res) => {
    const url = req.url ?? '/';
    // Browser clients on other origins, opted in by CONTROLLER_CORS_ORIGINS (preflights end here).
    if (hostAllowed(req.headers.host) && cors.handle(req, res)) return;
    // Refusals (bad method, foreign Host) are answered by the Koa app like every other error.
    // A browser's write from another site (Origin) is judged by the Koa app as well.
    const fromPage = deps.config.auth.mode === 'none' && req.headers.origin !== undefined && req.method !== 'GET' && req.method !== 'HEAD';
    if (!isPlainProxyPath(url) || !SERVED_METHODS.has(req.method ?? '') || !hostAllowed(req.headers.host) || fromPage) {
      void viaKoa(req, res);
      return;
    }
    // The fast path keeps the kit's request id and access log (http/request.ts) by hand. The id
    // is set on the request first: a request handed to the Koa app below keeps it.
    const started = process.hrtime.bigint();
    const reqId = requestIdOf(req.headers);
    req.headers[REQUEST_ID_HEADER] = reqId;
    const log = logger.child({ reqId });
    let userId: string;
    try {
      userId = withRequestLog(log, () => identity.userOf(req.headers));
    } catch {
      void viaKoa(req, res); // the Koa app checks again and renders the 401 as usual
      return;
    }
    // Opening a chat the watcher made marks it read (docs/notes/watch.md).
    if (watcher) {
      const opened = openedChat(req.method ?? 'GET', url);
      if (opened !== undefined) watcher()?.markRead(userId, opened);
    }
    res.setHeader('X-Request-Id', reqId);
    res.once('close', () => {
      if (logger.isLevelEnabled('info')) accessLog(log, req.method ?? 'GET', url, res.statusCode, started, !res.writableFinished);
    });
    proxy
      .forward(req, res, {
        method: req.method ?? 'GET',
        pathAndQuery: url.slice(API_PREFIX.length),
        headers: req.headers,
        userId,
        log,
      })
      .catch((err: unknown) => failed(res, err, reqId));
  };
}

interface BuiltController {
  app: Koa;
  proxy: BackendProxy;
  identity: ReturnType<typeof createIdentity>;
  logger: Logger;
  /** The DNS-rebinding guard: every Host passes in `tokens` mode. */
  hostAllowed: (host: string | undefined) => boolean;
  webPage: WebPage;
}

/**
 * The context builder with the job's failure history (issue 29): indexes in DATA_DIR/history,
 * CICHAT_HISTORY_BUILDS builds. A caller's own `history` option wins.
 */
export function withHistory(config: ControllerConfig, build: BuildCiContext): BuildCiContext {
  const history = { cacheDir: path.join(config.dataDir, 'history'), window: config.historyBuilds ?? HISTORY_WINDOW };
  return (options) => build({ history, ...options });
}

function buildController(deps: ControllerDeps): BuiltController {
  const { config } = deps;
  const logger = deps.logger ?? createLogger('cichat-controller', config.logLevel);
  const proxy =
    deps.proxy ??
    new BackendProxy({
      backendUrl: config.backendUrl,
      jwtSecret: config.jwtSecret,
      jwtTtlSeconds: config.jwtTtlSeconds,
      logger,
    });
  const identity = createIdentity(config.auth, logger);
  const hostAllowed = config.auth.mode === 'none' ? hostCheck(config.allowedHosts ?? []) : () => true;
  // DATA_DIR holds jwt-secret, the key that signs backend tokens for any user.
  const confinement = { ...(config.workspaceRoots ? { roots: config.workspaceRoots } : {}), privateDirs: [config.dataDir] };
  const contextDeps = {
    jenkinsHome: config.jenkinsHome,
    workspace: { pathMap: config.pathMap, confinement },
    proxy,
    buildCiContext: withHistory(config, deps.buildCiContext ?? buildCiContextResult),
    parseReferer: deps.parseReferer ?? ((home: string, referer: string | undefined) => resolveReferer(home, referer)),
  };

  const app = new Koa();
  app.proxy = false;
  // Errors are rendered by errorMiddleware; Koa's default handler would log them a second time.
  app.silent = true;
  app.on('error', (err: Error) => logger.debug({ err }, 'koa error'));

  app.use(requestContext(logger));
  app.use(errorMiddleware(logger));
  app.use(async (ctx: Context, next: Next) => {
    if (!SERVED_METHODS.has(ctx.method)) throw new HttpError(501, methodNotImplemented(ctx.method));
    const host = ctx.req.headers.host;
    if (!hostAllowed(host)) throw new HttpError(403, hostRefusal(host ?? ''));
    const crossSite =
      config.auth.mode === 'none'
        ? crossSiteRefusal(ctx.method, ctx.req.headers.origin, host, { corsOrigins: config.corsOrigins ?? [], allowedHosts: config.allowedHosts ?? [] })
        : undefined;
    if (crossSite !== undefined) throw new HttpError(403, crossSite);
    await next();
  });
  // The backend's calls for the openai engine's workspace tools: their own token, not a caller's.
  const toolDeps = { jenkinsHome: config.jenkinsHome, pathMap: config.pathMap, confinement, jwtSecret: config.jwtSecret };
  app.use(async (ctx: Context, next: Next) => {
    if (ctx.path !== TOOLS_PATH) return next();
    if (ctx.method !== 'POST') throw new HttpError(405, `Only POST is served at ${TOOLS_PATH}`);
    await runWorkspaceTool(ctx, toolDeps);
  });
  const router = controllerRouter({ config, proxy, identity, contextDeps, watcher: deps.watcher, logger });
  app.use(router.routes());
  // The web page (issue 30): static, no caller data, so served before identity like openapi.json.
  const webPage = new WebPage(logger);
  app.use(webPage.middleware());
  app.use((ctx: Context) => {
    throw new NotFound(`Nothing is served at ${ctx.path}: the web page is at / and the cichat API is under ${API_PREFIX}/`);
  });
  return { app, proxy, identity, logger, hostAllowed, webPage };
}

interface RouterDeps {
  config: ControllerConfig;
  proxy: BackendProxy;
  identity: ReturnType<typeof createIdentity>;
  contextDeps: ContextRouteDeps;
  watcher: (() => Watcher | undefined) | undefined;
  logger: Logger;
}

/** The caller's user id, set by the identity middleware that runs before every route but health. */
function userOf(ctx: Context): string {
  const userId = ctx.state.userId;
  if (userId === undefined) throw new Error('identity middleware did not run');
  return userId;
}

/**
 * Every route the controller serves under `/chatbot-api` (CONTRACT section 3), in the order they
 * are tried: the health check (no caller identity), then, once the caller is known, context
 * injection, workspace browsing, and the relay of everything else to the backend.
 */
function controllerRouter({ config, proxy, identity, contextDeps, watcher, logger }: RouterDeps): Router {
  const router = new Router({ prefix: API_PREFIX });
  router.get('/healthz', async (ctx) => {
    ctx.respond = false;
    await proxy.forward(ctx.req, ctx.res, {
      method: ctx.method,
      pathAndQuery: ctx.url.slice(API_PREFIX.length),
      headers: ctx.req.headers,
      userId: undefined,
    });
  });
  // Public like healthz: it describes the API, no caller data.
  router.get('/openapi.json', (ctx) => {
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = openApiText();
  });
  router.use(async (ctx, next) => {
    ctx.state.userId = identity.userOf(ctx.req.headers);
    await next();
  });
  // Uploads are read whole into memory: only so many at once (controller/uploadSlots.ts).
  const uploads = uploadSlots(config.uploadsMax ?? DEFAULT_CONTROLLER_UPLOADS_MAX);
  // The raw log, streamed through (never held here): before the JSON upload's route.
  router.post(CONTEXT_LOG_ROUTE, uploads, async (ctx) => uploadContextLog(ctx, userOf(ctx), contextDeps));
  router.post(CONTEXT_ROUTE, uploads, async (ctx) => uploadContext(ctx, userOf(ctx), contextDeps));
  router.put(CONTEXT_ROUTE, uploads, async (ctx) => uploadContext(ctx, userOf(ctx), contextDeps));
  registerWorkspaceRoutes(router, {
    jenkinsHome: config.jenkinsHome,
    pathMap: config.pathMap,
    // DATA_DIR holds jwt-secret, the key that signs backend tokens for any user.
    confinement: { ...(config.workspaceRoots ? { roots: config.workspaceRoots } : {}), privateDirs: [config.dataDir] },
    logger,
    revealHome: config.auth.mode === 'none',
  });
  registerWatchRoutes(router, watcher ?? (() => undefined));
  registerHistoryRoute(router, { jenkinsHome: config.jenkinsHome, cacheDir: path.join(config.dataDir, 'history'), window: config.historyBuilds ?? HISTORY_WINDOW });
  // The chats and messages APIs (and anything else under the prefix): relayed as they are.
  router.all('{/*rest}', async (ctx) => {
    const userId = userOf(ctx);
    // Opening a chat the watcher made marks it read (docs/notes/watch.md).
    const opened = watcher ? openedChat(ctx.method, ctx.url) : undefined;
    if (opened !== undefined) watcher?.()?.markRead(userId, opened);
    ctx.respond = false;
    const rest = ctx.url.slice(API_PREFIX.length);
    await proxy.forward(ctx.req, ctx.res, {
      method: ctx.method,
      pathAndQuery: rest === '' || rest.startsWith('?') ? `/${rest}` : rest,
      headers: ctx.req.headers,
      userId,
    });
  });
  return router;
}

export interface RunningController {
  /** Where it listens, e.g. `http://127.0.0.1:8080`. */
  url: string;
  server: http.Server;
  /** The failed-build watcher, when CICHAT_WATCH is on. */
  watcher?: Watcher;
  /** Stops accepting, lets requests in flight finish for up to `graceMs`, then cuts the rest. */
  close(graceMs?: number): Promise<void>;
}

/**
 * Starts the controller on `config.host:config.port` (port 0 picks a free one) and answers
 * where it listens. Used by controller/main.ts, `cichat serve` and the tests.
 */
export async function startController(
  config: ControllerConfig,
  options: Omit<ControllerDeps, 'config' | 'proxy'> = {},
): Promise<RunningController> {
  const logger = options.logger ?? createLogger('cichat-controller', config.logLevel);
  const proxy = new BackendProxy({
    backendUrl: config.backendUrl,
    jwtSecret: config.jwtSecret,
    jwtTtlSeconds: config.jwtTtlSeconds,
    logger,
  });
  // The watcher starts after the server listens: its first scan of a large home takes seconds.
  const watcher = config.watch
    ? new Watcher({
        watch: config.watch,
        jenkinsHome: config.jenkinsHome,
        dataDir: config.dataDir,
        auth: config.auth,
        backendUrl: config.backendUrl,
        mintJwt: (user) => proxy.mintJwt(user),
        logger,
        workspace: { pathMap: config.pathMap, confinement: { ...(config.workspaceRoots ? { roots: config.workspaceRoots } : {}), privateDirs: [config.dataDir] } },
        buildCiContext: withHistory(config, options.buildCiContext ?? buildCiContextResult),
        ...(options.watchRetryFirstMs !== undefined ? { retryFirstMs: options.watchRetryFirstMs } : {}),
      })
    : undefined;
  // Bounded header, request, keep-alive and idle time, every socket guarded (http/server.ts).
  const server = createBoundedServer(
    createControllerHandler({ ...options, config, logger, proxy, ...(watcher ? { watcher: () => watcher } : {}) }),
    { ...SERVER_TIMEOUTS, ...options.serverTimeouts },
  );
  // 431, 501 and 400 for what never parses into a request, as `{detail}` like every other error.
  server.on('clientError', onClientError(logger));
  server.on('connect', onConnect);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  watcher?.start().catch((err: unknown) => logger.error({ err }, 'watch: could not start the failed-build watcher'));
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${address.port}`,
    server,
    ...(watcher ? { watcher } : {}),
    close(graceMs = 1000) {
      closing ??= new Promise<void>((resolve) => {
        // A webhook post in progress is let finish (at most its 10 s timeout) before the end.
        const watcherClosed = watcher?.close() ?? Promise.resolve();
        server.close(() => {
          clearTimeout(timer);
          proxy.close();
          void watcherClosed.then(() => resolve());
        });
        server.closeIdleConnections();
        // Open answer streams would hold close() forever: cut them after the grace period
        // (each cut aborts its backend request, so the pair is saved as interrupted).
        const timer = setTimeout(() => server.closeAllConnections(), graceMs);
        timer.unref();
      });
      return closing;
    },
  };
}
