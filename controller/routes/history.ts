/**
 * `GET /chatbot-api/history?jobName&buildNumber&window` (issue 29, CONTRACT section 6): a job's
 * last builds with each failure's fingerprint, and the verdict of the build asked about (by
 * default the newest failed or unstable one). Read from JENKINS_HOME through the per-job index
 * in DATA_DIR/history (jenkins/history.ts), so a second look costs milliseconds.
 */
import type Router from '@koa/router';
import type { z } from 'zod';
import { inputOf, validate } from '../../http/validate.js';
import { BuildNotFoundError, JobNotFoundError, notFoundCode } from '../../jenkins/errors.js';
import { jobHistory } from '../../jenkins/history.js';
import { resolveBuildNumber } from '../../jenkins/jobs.js';
import { NotFound } from '../errors.js';
import { HistoryQuerySchema } from '../schemas.js';

export interface HistoryRouteDeps {
  jenkinsHome: string;
  cacheDir: string;
  window: number;
}

export function registerHistoryRoute(router: Router, deps: HistoryRouteDeps): void {
  router.get('/history', validate({ query: HistoryQuerySchema }), async (ctx) => {
    const { query } = inputOf<undefined, z.infer<typeof HistoryQuerySchema>>(ctx);
    try {
      const build = query.buildNumber === undefined ? undefined : await resolveBuildNumber(deps.jenkinsHome, query.jobName, query.buildNumber);
      const found = await jobHistory(query.jobName, {
        jenkinsHome: deps.jenkinsHome,
        cacheDir: deps.cacheDir,
        window: query.window ?? deps.window,
        ...(build !== undefined ? { build } : {}),
      });
      ctx.body = {
        job: found.job,
        window: query.window ?? deps.window,
        builds: found.builds,
        build: found.current?.build ?? null,
        history: found.current?.history ?? null,
      };
    } catch (err) {
      if (err instanceof JobNotFoundError || err instanceof BuildNotFoundError) throw new NotFound(err.message, notFoundCode(err));
      throw err;
    }
  });
}
