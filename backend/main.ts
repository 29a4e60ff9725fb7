import type { BackendConfig } from './config.js';
import { ConfigError, loadBackendConfig } from './config.js';
import type { RunningBackend } from './server.js';
import { startBackend } from './server.js';
import { databaseProblem } from './dbProblem.js';
import { onParentGone } from '../http/lifeline.js';
import { ignoreBrokenStdio } from '../http/logSink.js';

async function main(): Promise<void> {
  // A parent that died (cichat serve killed) leaves our stderr without a reader: stopping must
  // still work (issue 27).
  ignoreBrokenStdio();
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
  let closing = false;
  const stop = (signal: NodeJS.Signals | 'parent gone') => {
    if (closing) return;
    closing = true;
    console.error(`cichat backend: ${signal}, stopping (open answers are saved as interrupted)`);
    // The bound: whatever still hangs after 10 s is cut by exiting.
    setTimeout(() => {
      console.error('cichat backend: not stopped after 10 s, exiting anyway');
      process.exit(1);
    }, 10_000).unref();
    backend.close().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  onParentGone(() => stop('parent gone'));
  // Said after the handlers are in: whoever waits for this line may signal at once, and a SIGTERM
  // before process.on is the default action (killed, exit 143).
  console.error(`cichat backend listening on ${backend.url}`);
}

void main();
