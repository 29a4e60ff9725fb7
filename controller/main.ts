/**
 * The controller process (`npm run controller`): config -> app -> listen; nothing else.
 */
import { createLogger } from '../http/logger.js';
import { onParentGone } from '../http/lifeline.js';
import { ignoreBrokenStdio } from '../http/logSink.js';
import { startController } from './app.js';
import { loadControllerConfig } from './config.js';
import { loadWebAssets } from './web/bundle.js';

// A parent that died (cichat serve killed) leaves our stdout/stderr without a reader (issue 27).
ignoreBrokenStdio();
const loaded = loadControllerConfig();
if (!loaded.ok) {
  for (const problem of loaded.problems) process.stderr.write(`${problem}\n`);
  process.stderr.write('cichat controller: not started, fix the variables above.\n');
  process.exit(1);
}
const { config } = loaded;
const logger = createLogger('cichat-controller', config.logLevel);

// The web page is built (from the sources) or read (compiled package) now, not at the first visit.
loadWebAssets().catch((err: unknown) => logger.error({ err }, 'web page: could not build or read the page'));

try {
  const controller = await startController(config, { logger });
  // The handlers before the line that says we listen: whoever waits for that line may signal
  // at once, and a SIGTERM before process.on is the default action (killed, exit 143).
  let stopping = false;
  const stop = (signal: NodeJS.Signals | 'parent gone'): void => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping');
    // Bounded like the backend: a connection that never ends must not keep us alive.
    setTimeout(() => process.exit(1), 10_000).unref();
    void controller.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  onParentGone(() => stop('parent gone'));
  const who = config.auth.mode === 'none' ? `every caller is "${config.auth.user}"` : `tokens from ${config.auth.tokensFile}`;
  process.stdout.write(
    `cichat controller listening on ${controller.url}/chatbot-api (backend ${config.backendUrl}, JENKINS_HOME ${config.jenkinsHome}, ${who})\n`,
  );
  process.stdout.write(`web page: ${controller.url}/\n`);
  if (config.watch) process.stdout.write(`watching JENKINS_HOME for failed builds (CICHAT_WATCH=on); list them with \`cichat failures\`\n`);
} catch (err) {
  const e = err as NodeJS.ErrnoException;
  const hint =
    e.code === 'EADDRINUSE'
      ? `CONTROLLER_PORT: ${config.host}:${config.port} is already in use`
      : e.code === 'EADDRNOTAVAIL'
        ? `CONTROLLER_HOST: ${config.host} is not an address of this machine`
        : `cichat controller: could not listen on ${config.host}:${config.port}: ${e.message}`;
  process.stderr.write(`${hint}\n`);
  process.exit(1);
}
