/**
 * A MariaDB outage under traffic: a mariadbd of the test's own (its own datadir made by
 * mariadb-install-db, its own port) is killed for 15 s while clients create and list chats
 * through a backend process. During the outage every request is 503 `{detail}` (never a 500,
 * never a hang past the pool's timeout); afterwards the same backend process serves again
 * without a restart, and every chat whose creation was acknowledged (201) is there.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knexFactory from 'knex';
import { spawnBackend, type BackendProcess } from './helpers/backendProcess.js';
import { freePort } from './helpers/stack.js';
import { until } from './helpers/poll.js';

const MARIADBD = ['/usr/sbin/mariadbd', '/usr/sbin/mysqld'].find((f) => fs.existsSync(f));
const INSTALL_DB = ['/usr/bin/mariadb-install-db', '/usr/bin/mysql_install_db'].find((f) => fs.existsSync(f));
const OUTAGE_MS = 15_000;

interface Server {
  child: ChildProcess;
  exited: Promise<void>;
}

function startMariadb(dir: string, port: number): Server {
  const child = spawn(
    MARIADBD!,
    [
      '--no-defaults',
      `--datadir=${path.join(dir, 'data')}`,
      `--port=${port}`,
      '--bind-address=127.0.0.1',
      `--socket=${path.join(dir, 'sock')}`,
      `--pid-file=${path.join(dir, 'pid')}`,
      `--user=${os.userInfo().username}`,
      '--innodb-buffer-pool-size=32M',
      '--skip-log-bin',
    ],
    { stdio: ['ignore', 'ignore', fs.openSync(path.join(dir, 'server.log'), 'a')] },
  );
  return { child, exited: new Promise((resolve) => child.once('exit', () => resolve())) };
}

async function waitForMariadb(port: number): Promise<void> {
  await until(
    `mariadbd on port ${port}`,
    async () => {
      const k = knexFactory({
        client: 'mysql2',
        connection: { host: '127.0.0.1', port, user: 'root', password: '' },
        pool: { min: 0, max: 1 },
        log: { warn: () => undefined, error: () => undefined, debug: () => undefined, deprecate: () => undefined },
      });
      try {
        await k.raw('select 1');
        return true;
      } catch {
        return undefined;
      } finally {
        await k.destroy();
      }
    },
    { timeoutMs: 60_000, intervalMs: 250 },
  );
}

const describeIf = MARIADBD && INSTALL_DB ? describe : describe.skip;
if (!MARIADBD || !INSTALL_DB) console.warn('db-outage: mariadbd or mariadb-install-db not installed; skipped');

describeIf('a MariaDB outage under traffic', () => {
  let dir: string;
  let port: number;
  let server: Server | undefined;
  let backend: BackendProcess | undefined;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-outage-'));
    await new Promise<void>((resolve, reject) => {
      const install = spawn(
        INSTALL_DB!,
        ['--no-defaults', `--datadir=${path.join(dir, 'data')}`, '--auth-root-authentication-method=normal', '--skip-test-db', `--user=${os.userInfo().username}`],
        { stdio: 'ignore' },
      );
      install.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`mariadb-install-db exited ${code}`))));
    });
    port = await freePort();
    server = startMariadb(dir, port);
    await waitForMariadb(port);
    const admin = knexFactory({ client: 'mysql2', connection: { host: '127.0.0.1', port, user: 'root', password: '' }, pool: { min: 0, max: 1 } });
    await admin.raw('CREATE DATABASE cichat CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci');
    await admin.destroy();
    backend = await spawnBackend(`mysql://root@127.0.0.1:${port}/cichat`, path.join(dir, 'backend'));
  }, 120_000);

  afterAll(async () => {
    await backend?.service.stop(2000);
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('every request during the outage is 503 {detail}; the backend recovers without a restart; nothing acknowledged is lost', async () => {
    const b = backend!;
    const acknowledged = new Set<string>();
    const statuses = new Map<number, number>();
    const bad: string[] = [];
    let phase: 'before' | 'down' | 'restarting' | 'after' = 'before';
    const downStatuses = new Map<number, number>();
    let stop = false;
    let n = 0;

    const client = async (id: number) => {
      while (!stop) {
        const title = `c${id}-${++n}`;
        const create = Math.random() < 0.5;
        const startedIn = phase;
        let res: Response;
        try {
          res = create ? await b.request('outage', 'POST', '/chats/', { title }) : await b.request('outage', 'GET', '/chats/?limit=5');
        } catch (err) {
          bad.push(`${title}: ${(err as Error).message}`);
          continue;
        }
        const text = await res.text();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (startedIn === 'down' && phase === 'down') downStatuses.set(res.status, (downStatuses.get(res.status) ?? 0) + 1);
        if (res.status === 201) acknowledged.add(title);
        else if (res.status === 503) {
          const body = JSON.parse(text) as { detail?: unknown };
          if (typeof body.detail !== 'string' || Object.keys(body).length !== 1) bad.push(`503 body ${text}`);
        } else if (res.status !== 200) bad.push(`${res.status} ${text}`);
        if (phase === 'down') await new Promise((r) => setTimeout(r, 50));
      }
    };
    const clients = Array.from({ length: 4 }, (_, i) => client(i));

    await until('traffic before the outage', () => (acknowledged.size >= 10 ? true : undefined), { timeoutMs: 60_000, intervalMs: 100 });
    server!.child.kill('SIGKILL');
    await server!.exited;
    phase = 'down';
    await new Promise((r) => setTimeout(r, 2000));
    const health = await fetch(`${b.url}/healthz`);
    expect(health.status).toBe(503);
    expect(await health.json()).toEqual({ detail: expect.any(String) });
    await new Promise((r) => setTimeout(r, OUTAGE_MS - 2000));
    await until('requests answered during the outage', () => ((downStatuses.get(503) ?? 0) >= 10 ? true : undefined), { timeoutMs: 30_000 });
    // Requests that overlap the restart may be answered either way: only those wholly inside the
    // outage are judged.
    phase = 'restarting';
    server = startMariadb(dir, port);
    await waitForMariadb(port);
    phase = 'after';
    const ackedAtRestart = acknowledged.size;
    await until('the backend to create chats again', () => (acknowledged.size > ackedAtRestart + 10 ? true : undefined), {
      timeoutMs: 60_000,
      intervalMs: 100,
    });
    stop = true;
    await Promise.all(clients);

    // On a bad answer, the backend's own last log lines say what it met.
    if (bad.length > 0) throw new Error(`bad answers:\n${bad.join('\n')}\nbackend log:\n${b.service.lastLines().filter((l) => !l.includes('database is unavailable')).join('\n')}`);
    expect(b.service.child.exitCode).toBeNull(); // the same process, never restarted
    expect([...downStatuses.keys()]).toEqual([503]);
    expect(statuses.get(500)).toBeUndefined();

    // Every acknowledged chat is there.
    const titles = new Set<string>();
    for (let offset = 0; ; offset += 100) {
      const page = (await (await b.request('outage', 'GET', `/chats/?limit=100&offset=${offset}`)).json()) as { items: { title: string }[]; total_items: number };
      for (const c of page.items) titles.add(c.title);
      if (offset + 100 >= page.total_items) break;
    }
    const lost = [...acknowledged].filter((t) => !titles.has(t));
    expect(lost).toEqual([]);
  }, 240_000);
});
