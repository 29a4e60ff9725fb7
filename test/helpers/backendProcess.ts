/**
 * The backend as a child process (backend/main.ts through tsx, or dist/: test/helpers/entry.ts) on a free port, for tests that
 * stop it with signals: its own DATA_DIR (hence replica id), a database URL, extra variables.
 */
import { PACKAGE_ROOT, startService, waitHealthy, type Service } from '../../cli/services.js';
import { signToken } from './backend.js';
import { freePort, retryOnTakenPort } from './stack.js';
import { entryScript } from './entry.js';

export const PROCESS_SECRET = 'process-tests-secret-0123456789-abcdefghijklmnop';

export interface BackendProcess {
  url: string;
  service: Service;
  dataDir: string;
  /** fetch as `user` with a fresh token (JSON body when given). */
  request(user: string, method: string, p: string, body?: unknown): Promise<Response>;
}

/** A backend on a free port; a start whose port another process took first is tried again (stack.ts retryOnTakenPort). */
export async function spawnBackend(databaseUrl: string, dataDir: string, env: NodeJS.ProcessEnv = {}): Promise<BackendProcess> {
  return retryOnTakenPort(
    () => spawnBackendOnce(databaseUrl, dataDir, env),
    (err) => /BACKEND_PORT: port \d+ on \S+ is already in use/.test((err as Error).message),
  );
}

async function spawnBackendOnce(databaseUrl: string, dataDir: string, env: NodeJS.ProcessEnv): Promise<BackendProcess> {
  const port = await freePort();
  const service = startService(
    'backend',
    entryScript('backend/main'),
    {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      BACKEND_HOST: '127.0.0.1',
      BACKEND_PORT: String(port),
      JWT_SECRET: PROCESS_SECRET,
      LLM_PROVIDER: 'local',
      TYPING_DELAY_MS: '0',
      EMBEDDINGS: 'local',
      LOG_LEVEL: 'warn',
      ...env,
    },
    // Enough lines that a test's failure message can show the one bad request among hundreds.
    { cwd: PACKAGE_ROOT, keepLines: 2000 },
  );
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitHealthy(`${url}/healthz`, service, 90_000);
  } catch (err) {
    await service.stop(1000);
    throw new Error(`${(err as Error).message}\n${service.lastLines().join('\n')}`, { cause: err });
  }
  return {
    url,
    service,
    dataDir,
    async request(user, method, p, body) {
      const headers: Record<string, string> = { authorization: `Bearer ${await signToken(PROCESS_SECRET, user)}` };
      if (body !== undefined) headers['content-type'] = 'application/json';
      return fetch(url + p, { method, headers, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
    },
  };
}
