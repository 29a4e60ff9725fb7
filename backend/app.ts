import Koa from 'koa';
import type { Logger } from 'pino';
import type { AnswerEngine, ChatContext } from './answer/engine.js';
import { authMiddleware } from './auth.js';
import type { Db } from './db.js';
import { errorMiddleware, ServiceUnavailable } from './errors.js';
import type { Lifecycle } from './lifecycle.js';
import { requestContext } from '../http/request.js';
import { registerChatRoutes } from './routes/chats.js';
import { registerMessageRoutes } from './routes/messages.js';
import { healthRoutes } from './routes/health.js';
import Router from '@koa/router';

/** Registers one resource's routes on the app's (authenticated) router. */
export type RouteGroup = (router: Router, deps: AppDeps) => void;

export interface AppDeps {
  db: Db;
  log: Logger;
  jwtSecret: string;
  dataDir: string;
  engine: AnswerEngine;
  /** The per-chat CI context: its routes, its reader for the engines, its clean-up on delete. */
  context: ContextPort;
  /** Interval of `: ping` comments on silent streams (ms); the contract says 15 s. */
  pingIntervalMs: number;
  /**
   * The stream lease (STREAM_LEASE_MS): outlives a crashed holder by at most this long; renewed
   * every fifth of it while the stream runs, so a live stream never loses it to a slow round trip.
   */
  streamLeaseMs: number;
  /** The process's replica id, running streams and uploads, and whether it is closing. */
  lifecycle: Lifecycle;
}

/** What the context service gives the rest of the app (backend/routes/context.ts `createContextService`). */
export interface ContextPort {
  routes: RouteGroup;
  loadContext: (chatId: number) => Promise<ChatContext | null>;
  /** Called after a chat is deleted (drops its index files). */
  onChatDeleted: (chatId: number) => Promise<void> | void;
}

/** The contract's interval of `: ping` comments on a silent stream. */
export const PING_INTERVAL_MS = 15_000;

/**
 * The backend's middleware chain and routes; no I/O of its own. Every part is given by the
 * composition root (backend/server.ts; the tests' helper): nothing is optional or found later.
 */
export function createApp(deps: AppDeps): Koa {
  const app = new Koa();
  app.proxy = false;
  app.silent = true;
  app.use(requestContext(deps.log));
  app.use(errorMiddleware(deps.log));
  app.use(async (ctx, next) => {
    // Between SIGTERM and exit: requests on kept-alive connections are refused, never half-served.
    if (deps.lifecycle.closing) {
      ctx.set('Connection', 'close');
      ctx.set('Retry-After', '2');
      throw new ServiceUnavailable('The backend is shutting down: try again in a moment.');
    }
    await next();
  });
  const health = healthRoutes(deps);
  app.use(health.routes());
  app.use(authMiddleware(deps.jwtSecret));
  const router = new Router();
  for (const register of [registerChatRoutes, registerMessageRoutes, deps.context.routes]) register(router, deps);
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}
