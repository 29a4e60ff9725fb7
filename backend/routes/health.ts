import Router from '../../http/router.js';
import { requestLog } from '../../http/request.js';
import type { AppDeps } from '../deps.js';

/** `GET /healthz`: no token; 200 when the database answers, else 503. */
export function healthRoutes(deps: AppDeps): Router {
  const router = new Router();
  router.get('/healthz', async (ctx) => {
    try {
      await deps.db.raw('select 1');
      ctx.body = { status: 'ok' };
    } catch (err) {
      requestLog(deps.log).error({ err }, 'health check: database unavailable');
      ctx.status = 503;
      ctx.body = { detail: 'The database is unavailable.' };
    }
  });
  return router;
}
