import Koa from 'koa';
import type { Logger } from 'pino';
import type { AnswerEngine, ChatContext } from './answer/engine.js';
import { authMiddleware } from './auth.js';
import type { Db } from './db.js';
import { errorMiddleware, ServiceUnavailable } from './errors.js';
import { Lifecycle } from './lifecycle.js';
import { requestContext } from '../http/request.js';
import { registerChatRoutes } from './routes/chats.js';
import { healthRoutes } from './routes/health.js';
import Router from '@koa/router';

/** Registers one resource's routes on the app's (authenticated) router. */
export type RouteGroup = (router: Router, deps: AppDeps) => void;

export interface AppDeps {
  db: Db;
  log: Logger;
  jwtSecret: string;
  dataDir: string;
  engine?: AnswerEngine;
  /** Extra route groups registered behind authentication (context, messages). */
  routes?: RouteGroup[];
  /** Called after a chat is deleted (drops its index files). */
  onChatDeleted?: (chatId: number) => Promise<void> | void;
  /** The chat's uploaded context for the answer engines (null when none). */
  loadContext?: (chatId: number) => Promise<ChatContext | null>;
  /** Interval of `: ping` comments on silent streams (ms); the contract says 15 s. */
  pingIntervalMs?: number;
  /** The process's replica id, running streams and uploads, and whether it is closing. */
  lifecycle: Lifecycle;
}

/** What createApp takes: AppDeps, the lifecycle made when not given (one per app). */
export type AppOptions = Omit<AppDeps, 'lifecycle'> & { lifecycle?: Lifecycle };

/** The backend's middleware chain and routes; no I/O of its own. */
export function createApp(options: AppOptions): Koa {
  const deps: AppDeps = { ...options, lifecycle: options.lifecycle ?? new Lifecycle() };
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
  for (const register of [registerChatRoutes, ...(deps.routes ?? [])]) register(router, deps);
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}
