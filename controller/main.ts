/**
 * The controller process (`npm run controller`): config -> app -> listen; nothing else.
 */
import v8 from 'node:v8';
import { createLogger } from '../http/logger.js';
import { onParentGone } from '../http/lifeline.js';
import { ignoreBrokenStdio } from '../http/logSink.js';
import { startController } from './app.js';
import { loadControllerConfig } from './config.js';
import { loadWebAssets } from './web/bundle.js';

// Old-generation headroom for relayed uploads (issue 28). Each piece of a request body is a
// Buffer of its own (Node's HTTP parser copies it), and V8 charges Buffer bytes allocated since
// the last full GC against the old generation's limit until a scavenge and the ArrayBuffer sweeper
// free them; it scavenges for them only after about 32 MB of pieces. Our heap is mostly long-lived
// code, so V8 grows the limit by its minimum (the new space + 8 MB) after each full GC: every
// ~8 MB of a relayed body then started a full mark-compact (about one a second during a 500 MB
// upload, 2-87 ms pauses on a loaded machine), with the heap the same size before and after. A
// limit of 4x the live heap (what V8 itself picks while it has no GC speed measured yet) lets the
// scavenges free the pieces first. The controller's heap is small, so this costs a few MB.
v8.setFlagsFromString('--heap-growing-percent=300');

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
