import type { Middleware } from 'koa';
import { ServiceUnavailable } from './errors.js';
import { dropRestOfBody } from '../http/server.js';

/**
 * The controller's cap on context uploads handled at once (CONTROLLER_UPLOADS_MAX, issue 24
 * point 8): each one is read whole into memory (up to 64 MiB of body, then its parse and the
 * `{ciContext}` sent on), so eight at once took the controller from 188 MB to 1.1 GB. Beyond
 * the cap an upload is refused at once with 503 and Retry-After, before any of its body is
 * read, as the backend does with CONTEXT_UPLOADS_MAX.
 */

/** Context uploads handled at once unless CONTROLLER_UPLOADS_MAX says otherwise. */
export const DEFAULT_CONTROLLER_UPLOADS_MAX = 2;
/** Seconds a refused upload is told to wait (Retry-After). */
export const CONTROLLER_UPLOAD_RETRY_AFTER_S = 5;

/** Koa middleware for the context upload route: holds one of `max` slots while the upload runs. */
export function uploadSlots(max: number): Middleware & { inUse(): number } {
  let used = 0;
  const middleware = async (ctx: Parameters<Middleware>[0], next: () => Promise<unknown>): Promise<void> => {
    if (used >= max) {
      dropRestOfBody(ctx.req, ctx.res);
      ctx.set('Retry-After', String(CONTROLLER_UPLOAD_RETRY_AFTER_S));
      throw new ServiceUnavailable(
        `The controller is already handling ${max} context upload${max === 1 ? '' : 's'} (CONTROLLER_UPLOADS_MAX): retry in ${CONTROLLER_UPLOAD_RETRY_AFTER_S} s.`,
      );
    }
    used++;
    // Released when the answer is over (relayed, failed or abandoned), not when the handler returns.
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      used--;
    };
    ctx.res.once('close', release);
    try {
      await next();
    } catch (err) {
      release();
      throw err;
    }
  };
  return Object.assign(middleware, { inUse: () => used });
}
