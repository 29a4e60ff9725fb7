import type { Server } from 'node:http';
import { createApp } from './app.js';
import { createEngine } from './answer/index.js';
import { createEmbedder } from './retrieval/embed.js';
import { createContextService } from './routes/context.js';
import { registerMessageRoutes } from './routes/messages.js';
import type { BackendConfig } from './config.js';
import { migrateLatest, openDb } from './db.js';
import { createLogger } from './logger.js';

export interface RunningBackend {
  url: string;
  server: Server;
  close(): Promise<void>;
}

/** config -> database -> migrate -> listen. */
export async function startBackend(config: BackendConfig): Promise<RunningBackend> {
  const log = createLogger(config.logLevel);
  const db = openDb(config.databaseUrl);
  try {
    await migrateLatest(db);
  } catch (err) {
    await db.destroy();
    throw err;
  }
  const engine = createEngine({
    provider: config.llmProvider,
    typingDelayMs: config.typingDelayMs,
    ...(config.openaiApiKey !== undefined ? { openaiApiKey: config.openaiApiKey } : {}),
    ...(config.openaiBaseUrl !== undefined ? { openaiBaseUrl: config.openaiBaseUrl } : {}),
    llmModel: config.llmModel,
    llmContextTokens: config.llmContextTokens,
    onRetry: (notice) => log.warn({ notice }, 'model server retry'),
    tools: { controllerUrl: config.controllerUrl, jwtSecret: config.jwtSecret, maxCalls: config.llmToolCalls, tokenBudget: config.llmToolTokens },
  });
  const embedder = await createEmbedder(config);
  const context = createContextService({ dataDir: config.dataDir, embedder, db });
  const app = createApp({
    db,
    log,
    jwtSecret: config.jwtSecret,
    dataDir: config.dataDir,
    engine,
    routes: [registerMessageRoutes, context.routes],
    loadContext: context.loadContext,
    onChatDeleted: context.onChatDeleted,
  });
  const server = app.listen(config.port, config.host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  server.keepAliveTimeout = 65_000;
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  log.info({ url, database: config.databaseUrl.replace(/:[^:@/]*@/, ':****@') }, 'backend listening');
  return {
    url,
    server,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await db.destroy();
    },
  };
}
