import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { JWT_SECRET_MIN_BYTES, loadOrCreateJwtSecret } from '../protocol/auth.js';
import { parsePathMap, type PathMap } from '../jenkins/pathmap.js';
import { parseWorkspaceRoots } from '../jenkins/workspace/confine.js';
import { parseCorsOrigins } from './cors.js';
import { parseAllowedHosts } from './hosts.js';
import { DEFAULT_CONTROLLER_UPLOADS_MAX } from './uploadSlots.js';

/**
 * The controller's configuration (CONTRACT section 1). This is the only module that reads
 * `process.env`; everything else receives a `ControllerConfig`.
 */

/** Who the caller is: everyone is one local user, or a bearer token from the token file. */
export type ControllerAuth = { mode: 'none'; user: string } | { mode: 'tokens'; tokensFile: string };

export interface ControllerConfig {
  dataDir: string;
  host: string;
  port: number;
  /** Without a trailing slash, e.g. `http://127.0.0.1:8000`. */
  backendUrl: string;
  jwtSecret: string;
  jwtTtlSeconds: number;
  jenkinsHome: string;
  /** JENKINS_PATH_MAP parsed (empty when unset): where recorded paths are on this host. */
  pathMap: PathMap;
  /** CICHAT_WORKSPACE_ROOTS parsed; undefined: the instance's workspace dir (see jenkins/workspace/confine.ts). */
  workspaceRoots?: readonly string[];
  /**
   * CONTROLLER_ALLOWED_HOSTS parsed (lower case, `name` or `name:port`): `Host` values served in
   * `none` mode besides the loopback names.
   */
  allowedHosts?: readonly string[];
  /** CONTROLLER_CORS_ORIGINS parsed: exact browser origins given CORS headers (with credentials). */
  corsOrigins?: readonly string[];
  auth: ControllerAuth;
  /** pino level (`LOG_LEVEL`, default info): logs go to stderr. */
  logLevel: string;
  /**
   * CONTROLLER_FAST_PATH (default on): chats and messages relayed straight from node:http; off
   * sends every request through the Koa router (for `npm run bench -- proxy`, which compares them).
   */
  fastPath?: boolean;
  /** CONTROLLER_UPLOADS_MAX: context uploads handled at once (default 2); more get 503 with Retry-After. */
  uploadsMax?: number;
  /** CICHAT_HISTORY_BUILDS: how many of a job's last builds a failure is compared with (default 50; issue 29). */
  historyBuilds?: number;
  /** The failed-build watcher (CICHAT_WATCH...); undefined when off. See controller/watch/. */
  watch?: WatchConfig;
  /**
   * CONTROLLER_PUBLIC_URL: the controller as browsers reach it (`https://cichat.example.com`, no
   * trailing slash): links to the web page in webhook messages. Undefined when unset.
   */
  publicUrl?: string;
}

/** The failed-build watcher's settings (docs/notes/watch.md). */
export interface WatchConfig {
  /** CICHAT_WATCH_JOBS: glob patterns of full job names; empty = every job. */
  jobs: readonly string[];
  /** CICHAT_WATCH_USERS: who gets a chat per failure; undefined = the default (see watch.md). */
  users?: readonly string[];
  /** CICHAT_WATCH_CONCURRENCY: answers asked at the same time (1-32, default 2). */
  concurrency: number;
  /** CICHAT_WATCH_RESCAN_SECONDS: the safety-net rescan period (1-3600 s, default 60). */
  rescanSeconds: number;
  /** CICHAT_WEBHOOK_URL: one JSON POST per failure (Slack/Mattermost `text`). */
  webhookUrl?: string;
  /** CONTROLLER_PUBLIC_URL: the webhook message links to the chat's web page under it. */
  publicUrl?: string;
}

export type ConfigResult = { ok: true; config: ControllerConfig } | { ok: false; problems: string[] };

const emptyAsUndefined = (value: unknown): unknown => (value === '' ? undefined : value);

/**
 * A whole number from min to max (an empty variable = the default); `unit` reads "of seconds".
 * The one shape of every numeric variable, so their messages cannot drift apart.
 */
const wholeNumber = (min: number, max: number, fallback: number, unit = '') => {
  const message = `must be a whole number${unit ? ` ${unit}` : ''} between ${min} and ${max}`;
  return z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^\d+$/, message)
      .transform(Number)
      .refine((n) => n >= min && n <= max, message)
      .default(fallback),
  );
};

const port = (fallback: number) => wholeNumber(0, 65535, fallback);

const host = (fallback: string) =>
  z.preprocess(
    emptyAsUndefined,
    z.string().regex(/^[A-Za-z0-9.:[\]%-]+$/, 'must be a host name or an IP address').default(fallback),
  );

const userId = z
  .string()
  .min(1, 'must not be empty')
  .max(255, 'must be at most 255 characters')
  .regex(/^[^:\s]+$/, 'must not contain ":" or spaces');

const envSchema = z.object({
  DATA_DIR: z.preprocess(emptyAsUndefined, z.string().default('./data')),
  CONTROLLER_HOST: host('127.0.0.1'),
  CONTROLLER_PORT: port(8080),
  BACKEND_URL: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .default('http://127.0.0.1:8000')
      .refine((value) => {
        try {
          const url = new URL(value);
          return (url.protocol === 'http:' || url.protocol === 'https:') && url.search === '' && url.hash === '';
        } catch {
          return false;
        }
      }, 'must be an http:// or https:// URL without query or fragment, e.g. http://127.0.0.1:8000'),
  ),
  JWT_SECRET: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .refine((s) => Buffer.byteLength(s) >= JWT_SECRET_MIN_BYTES, `must be at least ${JWT_SECRET_MIN_BYTES} bytes`)
      .optional(),
  ),
  JWT_TTL_SECONDS: wholeNumber(1, 86400, 300, 'of seconds'),
  JENKINS_HOME: z.preprocess(emptyAsUndefined, z.string().default('./seeds/jenkins-home')),
  JENKINS_PATH_MAP: z.preprocess(emptyAsUndefined, z.string().optional()),
  CONTROLLER_AUTH: z.preprocess(
    emptyAsUndefined,
    z.enum(['none', 'tokens'], { error: 'must be "none" or "tokens"' }).default('none'),
  ),
  CONTROLLER_USER: z.preprocess(emptyAsUndefined, userId.default('local')),
  CONTROLLER_TOKENS_FILE: z.preprocess(emptyAsUndefined, z.string().optional()),
  LOG_LEVEL: z.preprocess(
    emptyAsUndefined,
    z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
        error: 'must be one of fatal, error, warn, info, debug, trace, silent',
      })
      .default('info'),
  ),
  CICHAT_WORKSPACE_ROOTS: z.preprocess(emptyAsUndefined, z.string().optional()),
  CONTROLLER_ALLOWED_HOSTS: z.preprocess(emptyAsUndefined, z.string().optional()),
  CONTROLLER_FAST_PATH: z.preprocess(emptyAsUndefined, z.enum(['on', 'off'], { error: 'must be "on" or "off"' }).default('on')),
  CONTROLLER_UPLOADS_MAX: wholeNumber(1, 64, DEFAULT_CONTROLLER_UPLOADS_MAX),
  CICHAT_HISTORY_BUILDS: wholeNumber(2, 1000, 50),
  CICHAT_WATCH: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim().toLowerCase() || undefined : v),
    z.enum(['on', 'off', 'true', 'false', '1', '0', 'yes', 'no'], { error: 'must be "on" or "off"' }).optional(),
  ),
  CICHAT_WATCH_JOBS: z.preprocess(emptyAsUndefined, z.string().optional()),
  CICHAT_WATCH_USERS: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .refine(
        (s) => s.split(',').every((u) => u.trim() === '' || userId.safeParse(u.trim()).success),
        'must be user ids separated by commas (each 1-255 characters, no ":" or spaces)',
      )
      .optional(),
  ),
  CICHAT_WATCH_CONCURRENCY: wholeNumber(1, 32, 2),
  CICHAT_WATCH_RESCAN_SECONDS: wholeNumber(1, 3600, 60, 'of seconds'),
  CICHAT_WEBHOOK_URL: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .refine((value) => {
        try {
          const url = new URL(value);
          return url.protocol === 'http:' || url.protocol === 'https:';
        } catch {
          return false;
        }
      }, 'must be an http:// or https:// URL (a Slack or Mattermost incoming webhook)')
      .optional(),
  ),
  CONTROLLER_CORS_ORIGINS: z.preprocess(emptyAsUndefined, z.string().optional()),
  CONTROLLER_PUBLIC_URL: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .refine((value) => {
        try {
          const url = new URL(value);
          return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password && !url.search && !url.hash && (url.pathname === '/' || url.pathname === '');
        } catch {
          return false;
        }
      }, 'must be the address browsers reach the controller at, scheme, host and optional port only (e.g. https://cichat.example.com); the web page is served at its root')
      .optional(),
  ),
});

/** CICHAT_WATCH_JOBS split into patterns; a pattern that cannot be used is a problem line. */
function parseJobPatterns(spec: string | undefined, problems: string[]): string[] {
  if (spec === undefined) return [];
  // Commas inside `{a,b}` belong to the pattern.
  const patterns: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of spec) {
    if (ch === '{') depth++;
    else if (ch === '}') depth = Math.max(0, depth - 1);
    if (ch === ',' && depth === 0) {
      patterns.push(current.trim());
      current = '';
    } else current += ch;
  }
  patterns.push(current.trim());
  const kept = patterns.filter((p) => p !== '');
  for (const p of kept) {
    if (p.startsWith('/') || p.split('/').some((s) => s === '..' || s === '')) {
      problems.push(`CICHAT_WATCH_JOBS: "${p}" is not a job name pattern (full names like team/*, team/**/main or *-deploy)`);
    }
  }
  return kept;
}

/** Whether `dir` is a directory this process can see (false for missing or unreadable paths). */
function isDirectory(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** Whether `host` only accepts connections from this machine. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h) || h === '::ffff:127.0.0.1';
}

/**
 * Validates every controller variable at once and returns either the typed configuration or
 * one line per problem, each naming its variable. When JWT_SECRET is unset the key is loaded
 * from (or generated once into) `DATA_DIR/jwt-secret`, shared with a backend started from the
 * same directory.
 */
export function loadControllerConfig(env: NodeJS.ProcessEnv = process.env): ConfigResult {
  const problems: string[] = [];
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const name = String(issue.path[0] ?? 'environment');
      problems.push(`${name}: ${issue.message}`);
    }
  }
  const values = parsed.success ? parsed.data : undefined;

  const authMode = values?.CONTROLLER_AUTH ?? (env.CONTROLLER_AUTH === 'tokens' ? 'tokens' : 'none');
  const hostValue = values?.CONTROLLER_HOST ?? env.CONTROLLER_HOST ?? '127.0.0.1';
  if (authMode === 'none' && !isLoopbackHost(hostValue)) {
    problems.push(
      `CONTROLLER_HOST: refusing to listen on ${hostValue} with CONTROLLER_AUTH=none (every caller would be ` +
        `"${env.CONTROLLER_USER || 'local'}"); use 127.0.0.1, or set CONTROLLER_AUTH=tokens and CONTROLLER_TOKENS_FILE`,
    );
  }
  if (authMode === 'tokens' && !emptyAsUndefined(env.CONTROLLER_TOKENS_FILE)) {
    problems.push('CONTROLLER_TOKENS_FILE: required when CONTROLLER_AUTH=tokens (create one with `cichat token add USER --file F`)');
  }

  let pathMap: PathMap = [];
  // The sample home shipped for the demo records paths as the official Docker image sees them
  // (/var/jenkins_home); when it is the home by default, map that prefix onto it.
  const usesSampleHome = emptyAsUndefined(env.JENKINS_HOME) === undefined;
  const pathMapSpec =
    emptyAsUndefined(env.JENKINS_PATH_MAP) === undefined && usesSampleHome
      ? `/var/jenkins_home=${path.resolve('./seeds/jenkins-home')}`
      : env.JENKINS_PATH_MAP;
  try {
    pathMap = parsePathMap(pathMapSpec);
  } catch (err) {
    // The parser names the variable and every bad pair in one message.
    const message = (err as Error).message;
    problems.push(message.startsWith('JENKINS_PATH_MAP') ? message : `JENKINS_PATH_MAP: ${message}`);
  }

  {
    // Checked from the raw value, so that it is reported together with every other problem.
    const home = path.resolve(emptyAsUndefined(env.JENKINS_HOME) === undefined ? './seeds/jenkins-home' : String(env.JENKINS_HOME));
    if (!isDirectory(home)) problems.push(`JENKINS_HOME: ${home} is not a directory (set it to the CI server's home, e.g. /var/jenkins_home)`);
  }

  const workspaceRoots = parseWorkspaceRoots(emptyAsUndefined(env.CICHAT_WORKSPACE_ROOTS) === undefined ? undefined : env.CICHAT_WORKSPACE_ROOTS, {
    jenkinsHome: path.resolve(emptyAsUndefined(env.JENKINS_HOME) === undefined ? './seeds/jenkins-home' : String(env.JENKINS_HOME)),
    dataDir: path.resolve(values?.DATA_DIR ?? './data'),
  });
  for (const problem of workspaceRoots.problems) problems.push(`CICHAT_WORKSPACE_ROOTS: ${problem}`);
  const allowedHosts = parseAllowedHosts(emptyAsUndefined(env.CONTROLLER_ALLOWED_HOSTS) === undefined ? undefined : env.CONTROLLER_ALLOWED_HOSTS);
  for (const problem of allowedHosts.problems) problems.push(`CONTROLLER_ALLOWED_HOSTS: ${problem}`);
  const cors = parseCorsOrigins(typeof env.CONTROLLER_CORS_ORIGINS === 'string' ? env.CONTROLLER_CORS_ORIGINS : undefined);
  for (const problem of cors.problems) problems.push(`CONTROLLER_CORS_ORIGINS: ${problem}`);

  let jwtSecret = values?.JWT_SECRET;
  if (values && jwtSecret === undefined) {
    try {
      jwtSecret = loadOrCreateJwtSecret(values.DATA_DIR, undefined);
    } catch (err) {
      problems.push(`JWT_SECRET: unset, and no key could be read or created in DATA_DIR (${(err as Error).message})`);
    }
  }

  const rawJobs = emptyAsUndefined(env.CICHAT_WATCH_JOBS);
  const watchJobs = parseJobPatterns(typeof rawJobs === 'string' ? rawJobs : undefined, problems);
  const watchOn = values?.CICHAT_WATCH !== undefined && ['on', 'true', '1', 'yes'].includes(values.CICHAT_WATCH);

  if (problems.length > 0 || !values || jwtSecret === undefined) return { ok: false, problems };
  const publicUrl = values.CONTROLLER_PUBLIC_URL ? new URL(values.CONTROLLER_PUBLIC_URL).origin : undefined;
  const watchUsers = values.CICHAT_WATCH_USERS?.split(',')
    .map((u) => u.trim())
    .filter((u) => u !== '');
  return {
    ok: true,
    config: {
      dataDir: values.DATA_DIR,
      host: values.CONTROLLER_HOST,
      port: values.CONTROLLER_PORT,
      backendUrl: values.BACKEND_URL.replace(/\/+$/, ''),
      jwtSecret,
      jwtTtlSeconds: values.JWT_TTL_SECONDS,
      jenkinsHome: path.resolve(values.JENKINS_HOME),
      pathMap,
      logLevel: values.LOG_LEVEL,
      fastPath: values.CONTROLLER_FAST_PATH === 'on',
      uploadsMax: values.CONTROLLER_UPLOADS_MAX,
      historyBuilds: values.CICHAT_HISTORY_BUILDS,
      ...(workspaceRoots.roots ? { workspaceRoots: workspaceRoots.roots } : {}),
      allowedHosts: allowedHosts.hosts,
      ...(watchOn
        ? {
            watch: {
              jobs: watchJobs,
              ...(watchUsers && watchUsers.length > 0 ? { users: [...new Set(watchUsers)] } : {}),
              concurrency: values.CICHAT_WATCH_CONCURRENCY,
              rescanSeconds: values.CICHAT_WATCH_RESCAN_SECONDS,
              ...(values.CICHAT_WEBHOOK_URL ? { webhookUrl: values.CICHAT_WEBHOOK_URL } : {}),
              ...(publicUrl ? { publicUrl } : {}),
            },
          }
        : {}),
      corsOrigins: cors.origins,
      ...(publicUrl ? { publicUrl } : {}),
      auth:
        values.CONTROLLER_AUTH === 'tokens'
          ? { mode: 'tokens', tokensFile: path.resolve(values.CONTROLLER_TOKENS_FILE ?? '') }
          : { mode: 'none', user: values.CONTROLLER_USER },
    },
  };
}
