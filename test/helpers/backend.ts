import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { PING_INTERVAL_MS, createApp } from '../../backend/app.js';
import { STREAM_LEASE_MS } from '../../backend/config.js';
import { createLocalEngine } from '../../backend/answer/local.js';
import { Lifecycle } from '../../backend/lifecycle.js';
import { LocalEmbedder } from '../../backend/retrieval/embed.js';
import { createContextService, type ContextService, type ContextServiceOptions } from '../../backend/services/context.js';
import { BACKEND_TIMEOUTS } from '../../backend/server.js';
import { createBoundedServer, type ServerTimeouts } from '../../http/server.js';
import type { AppDeps } from '../../backend/app.js';
import { migrateLatest, openDb } from '../../backend/db.js';
import type { Db } from '../../backend/db.js';
import { BACKEND_TOKEN, Jwt } from '../../protocol/jwt.js';
import type { Dialect, TestDatabase } from './databases.js';

export interface TestBackend {
  url: string;
  /** The listening server (its connections can be counted). */
  server: Server;
  db: Db;
  dataDir: string;
  secret: string;
  /** The context service the app runs on (made here over this backend's database). */
  context: ContextService;
  /** A valid token for `userId`. */
  token(userId: string): Promise<string>;
  /** fetch against the backend as `userId` (JSON body when `body` is given). */
  request(userId: string | null, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

/** Signs a token the way the controller does (protocol/jwt.ts), valid `ttlSeconds`. */
export function signToken(secret: string, userId: string, ttlSeconds = 300): Promise<string> {
  return Jwt.of(secret).sign(BACKEND_TOKEN, { sub: userId, jti: randomUUID() }, ttlSeconds);
}

export interface StartOptions {
  /** Reuse an existing database (e.g. a second backend on one MySQL). */
  database?: TestDatabase;
  dataDir?: string;
  secret?: string;
  deps?: Partial<AppDeps>;
  /** How the context service is made (embedder, upload slots, log limits); DATA_DIR is the backend's. */
  context?: Partial<Omit<ContextServiceOptions, 'dataDir'>>;
  /** The server's header, request, keep-alive and idle bounds (default: the backend's own). */
  serverTimeouts?: Partial<ServerTimeouts>;
  /** Takes knex's warnings (default: stderr). A test that kills connections on purpose passes expectLostConnections(). */
  onDbWarning?: (message: string) => void;
}

/** Lost connections are what a connection-killing test expects: those warnings are kept (counted), every other one still printed. */
export function expectLostConnections(): { sink: (message: string) => void; lost: string[] } {
  const lost: string[] = [];
  return {
    lost,
    sink: (message) => {
      if (/Connection lost: The server closed the connection/.test(message)) lost.push(message);
      else console.warn(message);
    },
  };
}

/** A real backend (createApp) on an ephemeral port over a fresh database of `dialect`. */
export async function startTestBackend(dialect: Dialect, options: StartOptions = {}): Promise<TestBackend> {
  const database = options.database ?? (await dialect.create());
  const ownsDatabase = options.database === undefined;
  const db = openDb(database.url, options.onDbWarning);
  await migrateLatest(db);
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-test-data-'));
  const secret = options.secret ?? randomBytes(32).toString('hex');
  const log = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  // The whole app as backend/server.ts composes it; a test replaces the parts it is about.
  const lifecycle = options.deps?.lifecycle ?? new Lifecycle();
  const context = options.deps?.context ?? createContextService({ embedder: new LocalEmbedder(), ...options.context, dataDir, db, lifecycle });
  const app = createApp({
    db,
    log,
    jwtSecret: secret,
    dataDir,
    lifecycle,
    pingIntervalMs: PING_INTERVAL_MS,
    streamLeaseMs: STREAM_LEASE_MS,
    ...options.deps,
    engine: options.deps?.engine ?? createLocalEngine({ typingDelayMs: 0 }),
    context,
  });
  // The server as backend/server.ts makes it: bounded times, guarded sockets.
  const server: Server = createBoundedServer(app.callback(), { ...BACKEND_TIMEOUTS, ...options.serverTimeouts });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const token = (userId: string) => signToken(secret, userId);
  return {
    url,
    server,
    db,
    dataDir,
    secret,
    context,
    token,
    async request(userId, method, p, body, headers = {}) {
      const h: Record<string, string> = { ...headers };
      if (userId !== null) h.authorization = `Bearer ${await token(userId)}`;
      let payload: string | undefined;
      if (body !== undefined) {
        payload = typeof body === 'string' ? body : JSON.stringify(body);
        h['content-type'] ??= 'application/json';
      }
      return fetch(url + p, { method, headers: h, body: payload });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      // The context service's idle worker threads (ingest, index) end with the file: Jest keeps
      // the process for the next files, and a worker left with threads exits slowly at the end.
      if (!options.deps?.context) await context.close();
      await db.destroy();
      if (ownsDatabase) await database.drop();
      if (!options.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
