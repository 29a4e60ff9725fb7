/**
 * The types of the backend's parts as the app and its routes see them: the routes take them from
 * here, not from app.ts (which imports the routes: issue 31, no import circles).
 */
import type Router from '@koa/router';
import type { Logger } from 'pino';
import type { AnswerEngine } from './answer/engine.js';
import type { Db } from './db.js';
import type { Lifecycle } from './lifecycle.js';
import type { ContextService } from './services/context.js';

/** Registers one resource's routes on the app's (authenticated) router. */
export type RouteGroup = (router: Router, deps: AppDeps) => void;

export interface AppDeps {
  db: Db;
  log: Logger;
  jwtSecret: string;
  dataDir: string;
  engine: AnswerEngine;
  /** The per-chat CI context (backend/services/context.ts): ingest and retrieval, its reader for the engines, its clean-up on delete. */
  context: ContextService;
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

export type { ContextService } from './services/context.js';
