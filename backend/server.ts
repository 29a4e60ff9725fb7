import type { Server } from 'node:http';
import { createBoundedServer, SERVER_TIMEOUTS, type ServerTimeouts } from '../http/server.js';
import { PING_INTERVAL_MS, createApp } from './app.js';
import { createEngine } from './answer/index.js';
import { createEmbedder } from './retrieval/embed.js';
import { logKeepLimits } from './retrieval/ingest.js';
import { createContextService } from './services/context.js';
import type { BackendConfig } from './config.js';
import { migrateLatest, openDb } from './db.js';
import { createLogger } from './logger.js';
import { Lifecycle } from './lifecycle.js';
import { sweep } from './maintenance.js';
import { sweepBuildingContexts } from './store/contexts.js';
import { loadOrCreateReplicaId } from './replica.js';

export interface RunningBackend {
  url: string;
  server: Server;
  lifecycle: Lifecycle;
  /**
   * Graceful stop: refuse new requests, end every stream with `error` (pairs saved
   * `interrupted` with all text sent, leases released), let other requests finish, close the
   * connections and the database; all within `timeoutMs` (connections are cut at that point).
   */
  close(timeoutMs?: number): Promise<void>;
}

/** How long a graceful stop may take before open connections are cut (main.ts exits by 10 s). */
export const SHUTDOWN_TIMEOUT_MS = 8000;
/** Of the shutdown time, what is kept for cut uploads to discard their building context. */
const CUT_RESERVE_MS = 2500;
/** How often leftovers (orphaned `streaming` pairs, dead uploads) are swept while running. */
export const SWEEP_INTERVAL_MS = 60_000;

/**
 * The backend's connection bounds: those of both servers, but kept-alive connections live 65 s,
 * longer than the controller's agent keeps its idle sockets (30 s), so the controller is the
 * one that closes them and never sends a request on a socket the backend is closing.
 */
export const BACKEND_TIMEOUTS: Readonly<ServerTimeouts> = { ...SERVER_TIMEOUTS, keepAliveMs: 65_000 };

/** config -> database -> migrate -> listen. */
export async function startBackend(config: BackendConfig, options: { serverTimeouts?: Partial<ServerTimeouts> } = {}): Promise<RunningBackend> {
  const log = createLogger(config.logLevel);
  const db = openDb(config.databaseUrl);
  try {
    await migrateLatest(db);
  } catch (err) {
    await db.destroy();
    throw err;
  }
  const engine = await createEngine({
    provider: config.llmProvider,
    typingDelayMs: config.typingDelayMs,
    ...(config.openaiApiKey !== undefined ? { openaiApiKey: config.openaiApiKey } : {}),
    ...(config.openaiBaseUrl !== undefined ? { openaiBaseUrl: config.openaiBaseUrl } : {}),
    llmModel: config.llmModel,
    llmContextTokens: config.llmContextTokens,
    log,
    tools: { controllerUrl: config.controllerUrl, jwtSecret: config.jwtSecret, maxCalls: config.llmToolCalls, tokenBudget: config.llmToolTokens },
  });
  const lifecycle = new Lifecycle(config.replicaId ?? loadOrCreateReplicaId(config.dataDir));
  try {
    // What this replica left behind when it last died: its leases, its pairs, its uploads.
    const swept = await sweep(db, lifecycle, { atStart: true });
    if (swept.pairs + swept.uploads > 0) log.warn({ ...swept, replica: lifecycle.replicaId }, 'recovered after an unclean stop');
  } catch (err) {
    await db.destroy();
    throw err;
  }
  const embedder = await createEmbedder(config);
  const context = createContextService({
    dataDir: config.dataDir,
    embedder,
    db,
    lifecycle,
    uploadsMax: config.contextUploadsMax,
    logKeep: logKeepLimits(config.contextLogHeadMib, config.contextLogTailMib, config.contextLogMiddleMib),
  });
  const app = createApp({
    db,
    log,
    jwtSecret: config.jwtSecret,
    dataDir: config.dataDir,
    engine,
    context,
    pingIntervalMs: PING_INTERVAL_MS,
    streamLeaseMs: config.streamLeaseMs,
    lifecycle,
  });
  // Bounded header, request, keep-alive and idle time, every socket guarded (http/server.ts).
  const server = createBoundedServer(app.callback(), { ...BACKEND_TIMEOUTS, ...options.serverTimeouts });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
    server.listen(config.port, config.host);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  log.info({ url, database: config.databaseUrl.replace(/:[^:@/]*@/, ':****@') }, 'backend listening');
  const sweeper = setInterval(() => {
    sweep(db, lifecycle, { atStart: false }).then(
      (swept) => {
        if (swept.pairs + swept.uploads > 0) log.info(swept, 'swept leftovers');
      },
      (err: unknown) => log.warn({ err }, 'sweep failed'),
    );
  }, SWEEP_INTERVAL_MS);
  sweeper.unref();
  let closing: Promise<void> | undefined;
  return {
    url,
    server,
    lifecycle,
    close(timeoutMs = SHUTDOWN_TIMEOUT_MS) {
      closing ??= (async () => {
        const deadline = Date.now() + timeoutMs;
        clearInterval(sweeper);
        lifecycle.closing = true;
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        const left = await lifecycle.stopAll(Math.max(0, deadline - Date.now() - 500));
        if (left > 0) log.error({ streams: left }, 'streams still saving at shutdown');
        // Let other requests in flight (uploads) finish while there is time, then cut: early
        // enough that a cut upload still has time to discard its building context (below)
        // before the database goes. Waiting until the deadline itself left one behind on a
        // loaded machine (found by test/upload-sigterm.e2e under CI load).
        const cutAt = deadline - Math.min(CUT_RESERVE_MS, timeoutMs / 4);
        let done = false;
        void closed.then(() => (done = true));
        while (!done && Date.now() < cutAt) {
          server.closeIdleConnections();
          await new Promise((r) => setTimeout(r, 50));
        }
        server.closeAllConnections();
        lifecycle.stopUploads();
        await closed;
        // The uploads cut above end (their context discarded, their index worker stopped) before
        // the database goes and the process exits: an exit kills worker threads wherever they are.
        while (lifecycle.activeUploads().length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        // No upload of this replica finishes now: a building context one of them could not discard
        // in time (a loaded machine) goes here, as the next start's sweep would take it, so none is
        // left behind for the chat (the old context stays the chat's current one throughout).
        await sweepBuildingContexts(db, lifecycle.replicaId, [], true).catch((err: unknown) => log.error({ err }, 'could not discard the cut uploads\' building contexts'));
        await context.close();
        await db.destroy();
        log.info({ replica: lifecycle.replicaId }, 'backend stopped');
      })();
      return closing;
    },
  };
}
