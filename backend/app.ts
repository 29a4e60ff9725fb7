import Koa from 'koa';
import { authMiddleware } from './auth.js';
import { errorMiddleware, ServiceUnavailable } from './errors.js';
import { requestContext } from '../http/request.js';
import { registerChatRoutes } from './routes/chats.js';
import { registerMessageRoutes } from './routes/messages.js';
import { healthRoutes } from './routes/health.js';
import Router from '../http/router.js';
import type { AppDeps } from './deps.js';
import { registerContextRoutes } from './routes/context.js';

export type { AppDeps, ContextService, RouteGroup } from './deps.js';

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
  for (const register of [registerChatRoutes, registerMessageRoutes, registerContextRoutes]) register(router, deps);
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}
