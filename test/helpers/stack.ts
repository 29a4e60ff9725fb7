/**
 * A real cichat stack for tests: backend and controller spawned as processes on ephemeral
 * ports with their own temporary DATA_DIR and SQLite database, and a runner for the real CLI
 * process (`node --import tsx cli/main.ts ...`, or dist/cli/main.js: test/helpers/entry.ts).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PACKAGE_ROOT, startService, waitHealthy, type Service } from '../../cli/services.js';
import { entryScript, nodeArgs } from './entry.js';

/** The CLI's entry point: sources through tsx, or dist/ under CICHAT_TEST_DIST=1 (test/helpers/entry.ts). */
export const CLI_MAIN = entryScript('cli/main');

/** Why the stack cannot start yet (backend or controller not written), or null when it can. */
export function stackMissing(): string | null {
  // A missing entry point is a broken checkout, never a reason to skip: fail loudly.
  const missing = ['backend/main.ts', 'controller/main.ts'].filter((f) => !fs.existsSync(path.join(PACKAGE_ROOT, f)));
  if (missing.length) throw new Error(`${missing.join(' and ')} missing from ${PACKAGE_ROOT}`);
  return null;
}

/** A free TCP port on loopback (the OS picks it). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * freePort's port is free when it answers, not when a child process binds it: another test's process may take it
 * in between, and the child then exits saying the port is in use (CI saw it for the backend in session 45 and for
 * the controller in session 49). Such a start is tried again, up to `attempts` times in all: `taken(err)` tells a
 * taken port from any other failure (rethrown at once), and `moved(port)` gets a new free port before each retry.
 */
export async function retryOnTakenPort<T>(
  start: () => Promise<T>,
  taken: (err: unknown) => boolean,
  moved: (port: number) => void = () => {},
  attempts = 3,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (err) {
      if (attempt >= attempts || !taken(err)) throw err;
      moved(await freePort());
    }
  }
}

export interface Stack {
  /** The controller's base URL (what `--url` takes). */
  url: string;
  backendUrl: string;
  dataDir: string;
  /** The environment the CLI should run with (CICHAT_URL set). */
  cliEnv: NodeJS.ProcessEnv;
  stop(): Promise<void>;
}

const SECRET = 'cli-tests-secret-0123456789-abcdefghijklmnopqrstuvwxyz';

/** Starts backend + controller; `env` adds or overrides variables of both. */
export async function startStack(env: NodeJS.ProcessEnv = {}): Promise<Stack> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-cli-'));
  const [backendPort, controllerPort] = [await freePort(), await freePort()];
  const backendUrl = `http://127.0.0.1:${backendPort}`;
  const url = `http://127.0.0.1:${controllerPort}`;
  const jenkinsHome = path.join(PACKAGE_ROOT, 'seeds', 'jenkins-home');
  const childEnv: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    DATABASE_URL: `sqlite:${path.join(dataDir, 'cichat.sqlite')}`,
    BACKEND_HOST: '127.0.0.1',
    BACKEND_PORT: String(backendPort),
    CONTROLLER_HOST: '127.0.0.1',
    CONTROLLER_PORT: String(controllerPort),
    BACKEND_URL: backendUrl,
    JWT_SECRET: SECRET,
    TYPING_DELAY_MS: '0',
    LLM_PROVIDER: 'local',
    EMBEDDINGS: 'local',
    ...(fs.existsSync(jenkinsHome) ? { JENKINS_HOME: jenkinsHome, JENKINS_PATH_MAP: `/var/jenkins_home=${jenkinsHome}` } : {}),
    ...env,
  };
  const services: Service[] = [
    startService('backend', entryScript('backend/main'), childEnv, { cwd: PACKAGE_ROOT }),
    startService('controller', entryScript('controller/main'), childEnv, { cwd: PACKAGE_ROOT }),
  ];
  const stop = async (): Promise<void> => {
    await Promise.all(services.map((s) => s.stop()));
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitHealthy(`${backendUrl}/healthz`, services[0]!, 90000);
    await waitHealthy(`${url}/chatbot-api/healthz`, services[1]!, 90000);
  } catch (err) {
    const tails = services.map((s) => `--- ${s.name} ---\n${s.lastLines().join('\n')}`).join('\n');
    await stop();
    throw new Error(`${(err as Error).message}\n${tails}`, { cause: err });
  }
  const cliEnv: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, CICHAT_URL: url, NO_COLOR: '1' };
  return { url, backendUrl, dataDir, cliEnv, stop };
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the real CLI. `input` is piped to stdin (stdin is closed at once when there is none,
 * as in a pipeline step that pipes nothing).
 */
export function runCli(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; input?: string | Buffer; timeoutMs?: number; onStdout?: (text: string) => void } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs('cli/main'), ...args], {
      cwd: PACKAGE_ROOT,
      env: options.env ?? { PATH: process.env.PATH, HOME: process.env.HOME },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (t: string) => {
      stdout += t;
      options.onStdout?.(t);
    });
    child.stderr.on('data', (t: string) => (stderr += t));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`cichat ${args.join(' ')} did not finish in ${options.timeoutMs ?? 60000} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, options.timeoutMs ?? 60000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}
