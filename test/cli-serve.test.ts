/**
 * `cichat serve` as `npm start` runs it: backend and controller come up on the given ports,
 * the demo chat is created once, `ask` can be interrupted (exit 130, the pair saved as
 * interrupted), Ctrl-C stops both, and a child that dies takes the other down with exit 1.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Chat, Page, QaPair } from '../protocol/types.js';
import { PACKAGE_ROOT } from '../cli/services.js';
import { freePort, runCli, stackMissing } from './helpers/stack.js';
import { nodeArgs } from './helpers/entry.js';
import { until as poll } from './helpers/poll.js';

const missing = stackMissing();
if (missing) console.warn(`cli-serve: ${missing}`);
const describeServe = missing ? describe.skip : describe;

interface Serve {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<number | null>;
}

function startServe(env: NodeJS.ProcessEnv, args: string[]): Serve {
  const child = spawn(process.execPath, [...nodeArgs('cli/main'), 'serve', ...args], { cwd: PACKAGE_ROOT, env });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (t: string) => (out += t));
  child.stderr.setEncoding('utf8').on('data', (t: string) => (err += t));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exit };
}

const until = <T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 90000): Promise<T> =>
  poll(what, probe, { timeoutMs, intervalMs: 100 });

async function listening(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(2000) });
    return true;
  } catch {
    return false;
  }
}

describeServe('cichat serve', () => {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let ports: { controller: number; backend: number };

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-serve-'));
    ports = { controller: await freePort(), backend: await freePort() };
    env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATA_DIR: dataDir,
      DATABASE_URL: `sqlite:${path.join(dataDir, 'cichat.sqlite')}`,
      JWT_SECRET: 'serve-test-secret-0123456789-abcdefghijklmnopqrstuvwxyz',
      TYPING_DELAY_MS: '40',
      NO_COLOR: '1',
    };
  });
  afterAll(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts both, creates the demo chat once, lets ask be interrupted, and stops on Ctrl-C', async () => {
    const url = `http://127.0.0.1:${ports.controller}`;
    const args = ['--port', String(ports.controller), '--backend-port', String(ports.backend)];
    const first = startServe(env, args);
    await until('serve to be ready', () => (first.stdout().includes('Ctrl-C stops both.') ? true : undefined));
    expect(first.stdout()).toContain(`${url}/chatbot-api`);
    expect(first.stdout()).toContain(`http://127.0.0.1:${ports.backend}`);
    expect(first.stdout()).toMatch(/(?:npx )?cichat --url \S+ chat/);
    expect(first.stdout()).toContain('ask');

    const cliEnv = { ...env, CICHAT_URL: url };
    const demoTitle = /^Demo: team\/api #\d+ failed$/;
    const chats = JSON.parse((await runCli(['--json', 'chats', 'list'], { env: cliEnv })).stdout) as Chat[];
    const demo = chats.find((c) => demoTitle.test(c.title));
    expect(demo).toBeDefined();
    expect(first.stdout()).toContain(`demo chat   ${demo?.id}`);
    expect(fs.existsSync(path.join(dataDir, 'demo-chat.json'))).toBe(true);
    const last = JSON.parse((await runCli(['--json', 'context', 'last', String(demo?.id)], { env: cliEnv })).stdout) as { last_upload_at: string | null };
    expect(last.last_upload_at).not.toBeNull();

    // ask, interrupted with Ctrl-C once the answer has begun to print
    const asking = spawn(process.execPath, [...nodeArgs('cli/main'), 'ask', '--chat', String(demo?.id), 'why did the last build fail?'], {
      cwd: PACKAGE_ROOT,
      env: cliEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let printed = '';
    let askErr = '';
    asking.stderr.setEncoding('utf8').on('data', (t: string) => (askErr += t));
    asking.stdout.setEncoding('utf8').on('data', (t: string) => {
      if (!printed) asking.kill('SIGINT');
      printed += t;
    });
    const askCode = await new Promise<number | null>((resolve) => asking.once('exit', (code) => resolve(code)));
    expect(printed.length).toBeGreaterThan(0);
    expect(askCode).toBe(130);
    expect(askErr).toContain('Interrupted');
    const pair = await until('the pair to be saved as interrupted', async () => {
      const res = await fetch(`${url}/chatbot-api/chats/${demo?.id}`);
      const p = ((await res.json()) as Page<QaPair>).items[0];
      return p?.answer?.status === 'interrupted' ? p : undefined;
    }, 10000);
    expect(pair.question.content).toBe('why did the last build fail?');

    first.child.kill('SIGINT');
    expect(await first.exit).toBe(130);
    expect(first.stderr()).toContain('Stopped.');
    expect(await listening(`${url}/chatbot-api/healthz`)).toBe(false);
    expect(await listening(`http://127.0.0.1:${ports.backend}/healthz`)).toBe(false);

    // second start: same data, no second demo chat; SIGTERM is a clean stop
    const second = startServe(env, args);
    await until('serve to be ready again', () => (second.stdout().includes('Ctrl-C stops both.') ? true : undefined));
    const again = JSON.parse((await runCli(['--json', 'chats', 'list'], { env: cliEnv })).stdout) as Chat[];
    expect(again.filter((c) => demoTitle.test(c.title))).toHaveLength(1);
    second.child.kill('SIGTERM');
    expect(await second.exit).toBe(0);
  }, 240000);

  it('refuses a backend port in use before starting anything, naming the holder', async () => {
    const blocker = net.createServer();
    const taken = await new Promise<number>((resolve) =>
      blocker.listen(0, '127.0.0.1', () => resolve((blocker.address() as net.AddressInfo).port)),
    );
    const controllerPort = await freePort();
    try {
      const serve = startServe(env, ['--port', String(controllerPort), '--backend-port', String(taken), '--no-demo']);
      expect(await serve.exit).toBe(1);
      expect(serve.stderr()).toContain(`cichat: backend port ${taken} (BACKEND_PORT) on 127.0.0.1 is in use by pid ${process.pid}`);
      expect(serve.stderr()).not.toContain('Starting backend');
      expect(await listening(`http://127.0.0.1:${controllerPort}/chatbot-api/healthz`)).toBe(false);
    } finally {
      blocker.close();
    }
  }, 120000);

  it('stops the controller and exits 1 with the backend\'s last lines when the backend dies at start', async () => {
    const controllerPort = await freePort();
    const backendPort = await freePort();
    // A database directory that is a file: the backend fails at once with a stack of its own.
    const serve = startServe({ ...env, DATABASE_URL: `sqlite:${path.join(PACKAGE_ROOT, 'package.json')}/db.sqlite` }, [
      '--port', String(controllerPort), '--backend-port', String(backendPort), '--no-demo',
    ]);
    expect(await serve.exit).toBe(1);
    expect(serve.stderr()).toContain('--- last lines of the backend ---');
    expect(serve.stderr()).toMatch(/^cichat: The backend stopped/m);
    expect(await listening(`http://127.0.0.1:${controllerPort}/chatbot-api/healthz`)).toBe(false);
  }, 120000);
});
