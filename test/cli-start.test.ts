/**
 * Issue 18, point 5, with real processes: `cichat serve` refuses a port in use and names the
 * process holding it; a missing MySQL database or an unreachable server is one line with the
 * fix (no stack) for the backend, `npm run db:migrate` and `cichat serve`; `--url notaurl` and
 * `cichat analyze` on a terminal without input are usage errors (exit 2); `--url` pointed at
 * the backend is recognised.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PACKAGE_ROOT } from '../cli/services.js';
import { freePort, runCli, startStack, type Stack } from './helpers/stack.js';
import { cliCommand } from './helpers/entry.js';
import { mysqlProblem } from './helpers/databases.js';

const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({ PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...extra });

/** Runs a TypeScript entry point of the repository (as `npm run db:migrate` does) and collects its output. */
function runTs(script: string, args: string[], childEnv: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(PACKAGE_ROOT, script), ...args], { cwd: PACKAGE_ROOT, env: childEnv });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (out += b.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

describe('usage errors', () => {
  it('--url notaurl is a usage error, exit 2, with the fix', async () => {
    const r = await runCli(['--url', 'notaurl', 'chats', 'list'], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('cichat: --url: "notaurl" is not an http(s) URL\nhint: e.g. --url http://127.0.0.1:8080\n');
    const fromEnv = await runCli(['chats', 'list'], { env: env({ CICHAT_URL: 'localhost:8080' }) });
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.stderr).toContain('CICHAT_URL=http://localhost:8080');
  });

  it('cichat analyze with no input on a terminal is exit 2', async () => {
    // `script` gives the CLI a pseudo-terminal as stdin, as in an interactive shell.
    const command = `${cliCommand()} analyze; echo "exit=$?"`;
    const r = await new Promise<string>((resolve) => {
      const child = spawn('script', ['-qec', command, '/dev/null'], { cwd: PACKAGE_ROOT, env: env() });
      let out = '';
      child.stdout.on('data', (b: Buffer) => (out += b.toString()));
      child.on('close', () => resolve(out));
    });
    expect(r).toContain('cichat: no log given (stdin is a terminal)');
    expect(r).toContain('exit=2');
  });
});

describe('the knex CLI (issue 31: knexfile works with npx knex)', () => {
  it('migrate:status lists the same migrations as db:migrate, by name, then none pending', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-knex-'));
    const knexBin = path.join(PACKAGE_ROOT, 'node_modules', 'knex', 'bin', 'cli.js');
    const knex = (...args: string[]) =>
      new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = spawn(process.execPath, [knexBin, '--knexfile', 'knexfile.js', ...args], { cwd: PACKAGE_ROOT, env: env({ DATA_DIR: dataDir }) });
        let out = '';
        child.stdout.on('data', (b: Buffer) => (out += b.toString()));
        child.stderr.on('data', (b: Buffer) => (out += b.toString()));
        child.on('close', (code) => resolve({ code, out }));
      });
    try {
      const before = await knex('migrate:status');
      expect(before.out).toContain('Pending Migration');
      expect(before.out).toContain('001_chats\n');
      expect(before.out).not.toContain('undefined');
      expect((await knex('migrate:latest')).code).toBe(0);
      const after = await knex('migrate:status');
      expect(after.out).toContain('No Pending Migration files Found.');
      expect(after.out).toContain('010_identifier_collation');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60000);
});

describe('--url pointed at the backend', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack.stop();
  });
  it('says that it is the backend and which URL to use', async () => {
    const r = await runCli(['--url', stack.backendUrl, 'chats', 'list'], { env: env() });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`cichat: ${stack.backendUrl} is the backend; use the controller's URL`);
    // the controller itself still works
    expect((await runCli(['--url', stack.url, 'chats', 'list'], { env: env() })).code).toBe(0);
  });
});

describe('cichat serve start-up checks', () => {
  it('names the port in use and the process holding it, before starting anything', async () => {
    const holder = net.createServer();
    const port = await freePort();
    await new Promise<void>((r) => holder.listen(port, '127.0.0.1', r));
    try {
      const backendPort = await freePort();
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-start-'));
      const r = await runCli(['serve', '--port', String(port), '--backend-port', String(backendPort), '--no-demo'], {
        env: env({ DATA_DIR: dataDir }),
      });
      fs.rmSync(dataDir, { recursive: true, force: true });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`cichat: controller port ${port} (CONTROLLER_PORT) on 127.0.0.1 is in use by pid ${process.pid} (`);
      expect(r.stderr).toContain('hint: stop it, or choose other ports');
      expect(r.stderr).not.toContain('Starting backend');
      expect(r.stdout).not.toContain('cichat is running');
    } finally {
      holder.close();
    }
  });
});

describe('a MySQL database that is missing or unreachable: one line with the fix', () => {
  let problem: string | null;
  const missing = `cichat_missing_${process.pid}_${Date.now()}`;
  beforeAll(async () => {
    problem = await mysqlProblem();
  });
  const oneLine = (out: string): void => {
    expect(out).not.toMatch(/^\s+at /m); // no stack
    expect(out.trim().split('\n')).toHaveLength(1);
  };

  it('npm run db:migrate, the backend and cichat serve say CREATE DATABASE', async () => {
    if (problem) throw new Error(problem);
    const url = `mysql://root@127.0.0.1:3306/${missing}`;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-db-'));
    try {
      const migrate = await runTs('backend/migrate.ts', ['latest'], env({ DATABASE_URL: url, DATA_DIR: dataDir }));
      expect(migrate.code).toBe(1);
      oneLine(migrate.out);
      expect(migrate.out).toContain(`DATABASE_URL: the database "${missing}" does not exist on the MySQL server at 127.0.0.1:3306`);
      expect(migrate.out).toContain(`CREATE DATABASE \`${missing}\``);

      const backend = await runTs('backend/main.ts', [], env({ DATABASE_URL: url, DATA_DIR: dataDir, BACKEND_PORT: String(await freePort()) }));
      expect(backend.code).toBe(1);
      oneLine(backend.out);
      expect(backend.out).toContain(`CREATE DATABASE \`${missing}\``);

      const serve = await runCli(['serve', '--port', String(await freePort()), '--backend-port', String(await freePort()), '--no-demo'], {
        env: env({ DATABASE_URL: url, DATA_DIR: dataDir }),
      });
      expect(serve.code).toBe(1);
      expect(serve.stderr).not.toMatch(/^\s+at /m);
      expect(serve.stderr).toContain(`cichat: backend: DATABASE_URL: the database "${missing}" does not exist`);
      expect(serve.stderr).toContain('CREATE DATABASE');
      expect(serve.stderr).not.toContain('last lines');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120000);

  it('an unreachable server names host and port', async () => {
    const port = await freePort(); // nothing listens there
    const migrate = await runTs('backend/migrate.ts', ['latest'], env({ DATABASE_URL: `mysql://root@127.0.0.1:${port}/cichat` }));
    expect(migrate.code).toBe(1);
    oneLine(migrate.out);
    expect(migrate.out).toContain(`DATABASE_URL: cannot reach the MySQL server at 127.0.0.1:${port} (ECONNREFUSED)`);
  });
});
