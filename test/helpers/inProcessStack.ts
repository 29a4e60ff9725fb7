/**
 * The real backend (startTestBackend, offline engine) and the real controller (startController)
 * in this process, the controller in front of the backend: for integration tests that go through
 * both without the cost of processes. Their data go under `dir`, which the caller owns.
 */
import fs from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { createLocalEngine } from '../../backend/answer/local.js';
import type { ContextService } from '../../backend/services/context.js';
import { startController, type RunningController } from '../../controller/app.js';
import { loadControllerConfig } from '../../controller/config.js';
import { startTestBackend, type TestBackend } from './backend.js';
import type { Dialect } from './databases.js';

export interface InProcessStack {
  backend: TestBackend;
  controller: RunningController;
  /** The backend's context service (to ingest or load a context directly). */
  context: ContextService;
  /** Stops the controller, then the backend (`dir` stays). */
  close(): Promise<void>;
}

export async function startInProcessStack(
  dialect: Dialect,
  options: {
    dir: string;
    secret: string;
    /** The controller's variables besides its port, data directory, backend URL and secret (JENKINS_HOME...). */
    controllerEnv: Record<string, string>;
    /** The offline engine's pause between pieces (default 0). */
    typingDelayMs?: number;
  },
): Promise<InProcessStack> {
  const dataDir = path.join(options.dir, 'backend-data');
  fs.mkdirSync(dataDir, { recursive: true });
  const backend = await startTestBackend(dialect, {
    secret: options.secret,
    dataDir,
    deps: { engine: createLocalEngine({ typingDelayMs: options.typingDelayMs ?? 0 }) },
  });
  let controller: RunningController;
  try {
    controller = await startTestController({
      DATA_DIR: path.join(options.dir, 'controller-data'),
      BACKEND_URL: backend.url,
      JWT_SECRET: options.secret,
      ...options.controllerEnv,
    });
  } catch (err) {
    await backend.close();
    throw err;
  }
  return {
    backend,
    controller,
    context: backend.context,
    async close() {
      await controller.close(0);
      await backend.close();
    },
  };
}

/** The controller on an ephemeral port from `env` (its variables, as a user sets them), silent; throws the config's problems. */
export async function startTestController(env: Record<string, string>): Promise<RunningController> {
  const config = loadControllerConfig({ CONTROLLER_PORT: '0', ...env });
  if (!config.ok) throw new Error(config.problems.join('\n'));
  return startController(config.config, { logger: pino({ level: 'silent' }) });
}
