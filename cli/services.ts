/**
 * Running backend and controller as child processes (for `cichat serve` and the tests): spawn
 * through tsx, keep the last lines of their output for when they die, wait until healthy,
 * stop cleanly.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
/** Whether this is the compiled package (`npm run build`: dist/cli/services.js) rather than the sources run by tsx. */
export const COMPILED = import.meta.url.endsWith('.js');
/** The package root (where seeds/ lives, and backend/ and controller/, or dist/ when compiled). */
export const PACKAGE_ROOT = path.resolve(here, COMPILED ? '../..' : '..');

/** The entry point of a service (`backend` or `controller`): compiled JavaScript when this is the built package. */
export function serviceEntry(name: 'backend' | 'controller'): string {
  return COMPILED ? path.join(PACKAGE_ROOT, 'dist', name, 'main.js') : path.join(PACKAGE_ROOT, name, 'main.ts');
}

/** tsx's ESM loader as a file URL (only the sources need it; a checkout has tsx as a devDependency). */
export function tsxLoader(): string {
  return pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
}

export interface ServiceExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface Service {
  readonly name: string;
  readonly child: ChildProcess;
  /** Settles when the process has exited. */
  readonly exited: Promise<ServiceExit>;
  /** The last lines it wrote (stdout and stderr), oldest first. */
  lastLines(): string[];
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once it has exited. */
  stop(graceMs?: number): Promise<ServiceExit>;
}

/** Starts `node <script>` (`--import tsx` for TypeScript sources) with `env`; `echo` receives each output line. */
export function startService(
  name: string,
  script: string,
  env: NodeJS.ProcessEnv,
  options: { cwd?: string; echo?: (line: string) => void; keepLines?: number } = {},
): Service {
  // tsx by its resolved path: `--import tsx` would be looked up from the working directory
  // (`cd /tmp && cichat serve` from a linked checkout: ERR_MODULE_NOT_FOUND, issue 27).
  const child = spawn(process.execPath, script.endsWith('.ts') ? ['--import', tsxLoader(), script] : [script], {
    cwd: options.cwd ?? process.cwd(),
    env,
    // The IPC channel is the child's lifeline: it closes however this process ends, and the
    // child then stops itself (http/lifeline.ts).
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  child.channel?.unref();
  const keep = options.keepLines ?? 40;
  const lines: string[] = [];
  const collect = (stream: NodeJS.ReadableStream | null): void => {
    let partial = '';
    stream?.setEncoding('utf8');
    stream?.on('data', (text: string) => {
      const parts = (partial + text).split('\n');
      partial = parts.pop() ?? '';
      for (const line of parts) {
        lines.push(line);
        if (lines.length > keep) lines.shift();
        options.echo?.(line);
      }
    });
    stream?.on('end', () => {
      if (partial) lines.push(partial);
      partial = '';
    });
  };
  collect(child.stdout);
  collect(child.stderr);
  const exited = new Promise<ServiceExit>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    child.once('error', () => resolve({ code: 1, signal: null }));
  });
  let exitState: ServiceExit | undefined;
  void exited.then((e) => (exitState = e));
  return {
    name,
    child,
    exited,
    lastLines: () => [...lines],
    // The backend bounds its own shutdown at 10 s (streams saved, uploads let finish): wait past that.
    async stop(graceMs = 12_000) {
      if (exitState) return exitState;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const e = await exited;
      clearTimeout(timer);
      return e;
    },
  };
}

/**
 * The status of a GET of `url` (plain http), its body read and dropped; rejects when the
 * connection fails or no answer comes within `timeoutMs`. Through node:http, not fetch: a
 * process's first fetch loads and compiles Node's undici, and each poll through it cost more,
 * ~0.3 CPU-s of a `cichat serve` start's health waits (0.45 -> 0.19 CPU-s for the serve process).
 */
export function httpStatus(url: string, timeoutMs = 2000): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { timeout: timeoutMs }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
  });
}

/**
 * Polls `url` until it answers 2xx (every 100 ms, up to `timeoutMs`); rejects as soon as the
 * service exits or the time is up.
 */
export async function waitHealthy(url: string, service: Service, timeoutMs = 60000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let dead: ServiceExit | undefined;
  void service.exited.then((e) => (dead = e));
  let last = '';
  while (Date.now() < deadline) {
    if (dead) throw new Error(`${service.name} exited (${dead.code ?? dead.signal}) before it was healthy`);
    try {
      const status = await httpStatus(url);
      if (status >= 200 && status < 300) return;
      last = `${status}`;
    } catch (err) {
      last = err instanceof Error ? err.message : String(err);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${service.name} was not healthy at ${url} after ${timeoutMs} ms (${last})`);
}
