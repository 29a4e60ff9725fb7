/**
 * @koa/router, loaded through its CommonJS build. Its ES build imports its CommonJS dependencies
 * (path-to-regexp, koa-compose, http-errors, debug), and Node lexes each for its export names:
 * importing it took ~50 ms of CPU, requiring the CommonJS build ~23 ms (same version, same code),
 * paid at every backend and controller start (docs/notes/house.md, "`npm test` time", eighth
 * session). Loaded at import as before, so a missing package still fails the start. The type is
 * the package's own; the router itself is used the same way (no `instanceof Router` in it or here).
 */
import { createRequire } from 'node:module';
import type KoaRouter from '@koa/router';

type Router = KoaRouter;
const Router = (createRequire(import.meta.url)('@koa/router') as { default: typeof KoaRouter }).default;

export default Router;
