import type { BackendConfig } from './config.js';
import { ConfigError, loadBackendConfig } from './config.js';
import type { RunningBackend } from './server.js';
import { startBackend } from './server.js';
import { databaseProblem } from './dbProblem.js';

async function main(): Promise<void> {
  let config: BackendConfig;
  try {
    config = loadBackendConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      for (const line of err.problems) console.error(line);
      process.exit(1);
    }
    throw err;
  }
  let backend: RunningBackend;
  try {
    backend = await startBackend(config);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'EADDRINUSE') console.error(`BACKEND_PORT: port ${config.port} on ${config.host} is already in use`);
    else console.error(databaseProblem(err, config.databaseUrl) ?? err);
    process.exit(1);
  }
  console.error(`cichat backend listening on ${backend.url}`);
  let closing = false;
  const stop = () => {
    if (closing) return;
    closing = true;
    backend.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main();
