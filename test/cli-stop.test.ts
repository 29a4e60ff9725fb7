/**
 * Issue 27, point 1: stopping `cichat serve` never leaves the backend or the controller behind.
 * Real processes, real signals, 20 stops in a row, cycling through the four ways a stop
 * happens: Ctrl-C in a terminal (SIGINT to the whole process group), the same with the output
 * piped through `tee` (the reader of our output dies with us), SIGTERM to `serve` alone (a
 * service manager), and `serve` killed with SIGKILL (the parent's death: the children must
 * notice and stop themselves). After each stop no process of the group may be left after the
 * shutdown limit (12 s: the backend's 10 s bound plus start-up slack); idle services stop in
 * well under a second, so the loop stays short. `npm start` itself is stopped twice with Ctrl-C.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { httpStatus, PACKAGE_ROOT } from '../cli/services.js';
import { freePort } from './helpers/stack.js';
import { nodeArgs } from './helpers/entry.js';
import { until } from './helpers/poll.js';

/** The shutdown limit a stop is held to. */
const LIMIT_MS = 12_000;

/** Pids of the live (not zombie) processes whose process group is `pgid`. */
function groupMembers(pgid: number): { pid: number; cmd: string }[] {
  const out: { pid: number; cmd: string }[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) !== pgid || fields[0] === 'Z') continue;
      out.push({ pid: Number(name), cmd: fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ').trim() });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** Whether `url` answers 2xx (node:http: ~40 polls per start, cheaper than fetch's). */
async function healthy(url: string): Promise<boolean> {
  try {
    const status = await httpStatus(url, 2000);
    return status >= 200 && status < 300;
  } catch {
    return false;
  }
}

type Mode = 'ctrl-c' | 'ctrl-c-tee' | 'sigterm' | 'parent-killed';

describe('stopping cichat serve (issue 27)', () => {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  const started: ChildProcess[] = [];

  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-stop-'));
    env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATA_DIR: dataDir,
      DATABASE_URL: `sqlite:${path.join(dataDir, 'cichat.sqlite')}`,
      JWT_SECRET: 'stop-test-secret-0123456789-abcdefghijklmnopqrstuvwxyz',
      TYPING_DELAY_MS: '0',
      CICHAT_WATCH: 'off',
      NO_COLOR: '1',
    };
  });
  afterAll(() => {
    for (const c of started) {
      if (c.pid) for (const m of groupMembers(c.pid)) process.kill(m.pid, 'SIGKILL');
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** Starts serve (in its own process group, as a terminal's foreground job is), waits until both answer. */
  async function start(mode: Mode | 'npm'): Promise<{ group: number; servePid: () => number | undefined; ports: [number, number] }> {
    const ports: [number, number] = [await freePort(), await freePort()];
    const flags = ['--no-demo', '--port', String(ports[0]), '--backend-port', String(ports[1])];
    const serveCmd = [process.execPath, ...nodeArgs('cli/main'), 'serve', ...flags];
    const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
    let child: ChildProcess;
    if (mode === 'npm') {
      child = spawn('npm', ['start', '--', ...flags], { cwd: PACKAGE_ROOT, env, detached: true, stdio: 'ignore' });
    } else if (mode === 'ctrl-c-tee') {
      const log = path.join(dataDir, `tee-${ports[0]}.log`);
      child = spawn('sh', ['-c', `${serveCmd.map(quote).join(' ')} 2>&1 | tee ${quote(log)} >/dev/null`], { cwd: PACKAGE_ROOT, env, detached: true, stdio: 'ignore' });
    } else {
      child = spawn(serveCmd[0] ?? process.execPath, serveCmd.slice(1), { cwd: PACKAGE_ROOT, env, detached: true, stdio: 'ignore' });
    }
    started.push(child);
    const group = child.pid ?? 0;
    await until(
      'backend and controller to answer',
      async () =>
        (await healthy(`http://127.0.0.1:${ports[0]}/chatbot-api/healthz`)) && (await healthy(`http://127.0.0.1:${ports[1]}/healthz`)) ? true : undefined,
      { timeoutMs: 60_000, intervalMs: 100, explain: () => JSON.stringify(groupMembers(group)) },
    );
    const servePid = (): number | undefined => groupMembers(group).find((m) => / serve --no-demo/.test(m.cmd) && !m.cmd.startsWith('sh ') && !m.cmd.includes('npm'))?.pid;
    return { group, servePid, ports };
  }

  /** Stops the way `mode` says; answers the processes left after the limit (then killed) and the time taken. */
  async function stop(mode: Mode | 'npm', s: { group: number; servePid: () => number | undefined }): Promise<{ left: string[]; ms: number }> {
    const members = groupMembers(s.group);
    expect(members.some((m) => m.cmd.includes('backend/main'))).toBe(true);
    expect(members.some((m) => m.cmd.includes('controller/main'))).toBe(true);
    const t0 = Date.now();
    if (mode === 'ctrl-c' || mode === 'ctrl-c-tee' || mode === 'npm') process.kill(-s.group, 'SIGINT');
    else process.kill(s.servePid() ?? -1, mode === 'sigterm' ? 'SIGTERM' : 'SIGKILL');
    while (Date.now() - t0 < LIMIT_MS && groupMembers(s.group).length > 0) await new Promise((r) => setTimeout(r, 50));
    const left = groupMembers(s.group);
    for (const m of left) process.kill(m.pid, 'SIGKILL');
    return { left: left.map((m) => `${m.pid} ${m.cmd}`), ms: Date.now() - t0 };
  }

  it('20 stops in a row (Ctrl-C, Ctrl-C through tee, SIGTERM, parent killed) leave no process behind', async () => {
    const modes: Mode[] = ['ctrl-c', 'ctrl-c-tee', 'sigterm', 'parent-killed'];
    const results: string[] = [];
    for (let i = 0; i < 20; i += 1) {
      const mode = modes[i % modes.length] ?? 'ctrl-c';
      const s = await start(mode);
      const { left, ms } = await stop(mode, s);
      results.push(`${i + 1} ${mode}: ${left.length === 0 ? `all stopped in ${ms} ms` : `LEFT ${left.join('; ')}`}`);
      // the ports are free again
      expect(await healthy(`http://127.0.0.1:${s.ports[1]}/healthz`)).toBe(false);
    }
    expect(results.filter((r) => r.includes('LEFT'))).toEqual([]);
  }, 600_000);

  it('a linked `cichat` (npm link: a symlink to cli/bin.js) serves from another directory; tsx is a devDependency only', async () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
      scripts: Record<string, string>;
    };
    expect(pkg.dependencies.tsx).toBeUndefined();
    expect(pkg.devDependencies.tsx).toBeDefined();
    expect(pkg.scripts.start).toBe('node cli/bin.js serve');
    const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-link-'));
    fs.symlinkSync(path.join(PACKAGE_ROOT, 'cli', 'bin.js'), path.join(bin, 'cichat'));
    const ports = [await freePort(), await freePort()];
    // Run from / (not the checkout): `--import tsx` used to be looked up there (ERR_MODULE_NOT_FOUND).
    const child = spawn(path.join(bin, 'cichat'), ['serve', '--no-demo', '--port', String(ports[0]), '--backend-port', String(ports[1])], {
      cwd: '/',
      env: { ...env, DATA_DIR: path.join(dataDir, 'linked') },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    started.push(child);
    let err = '';
    child.stderr?.setEncoding('utf8').on('data', (t: string) => (err += t));
    const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await until('the linked serve to answer', async () => ((await healthy(`http://127.0.0.1:${ports[0]}/chatbot-api/healthz`)) ? true : undefined), {
      timeoutMs: 60_000,
      intervalMs: 100,
      explain: () => err,
    });
    process.kill(-(child.pid ?? 0), 'SIGINT');
    expect(await exit).toBe(130);
    expect(err).not.toContain('ERR_MODULE_NOT_FOUND');
    fs.rmSync(bin, { recursive: true, force: true });
  }, 120_000);

  it('npm start stops on Ctrl-C with both children, twice', async () => {
    for (let i = 0; i < 2; i += 1) {
      const s = await start('npm');
      const { left } = await stop('npm', s);
      expect(left).toEqual([]);
    }
  }, 180_000);
});
