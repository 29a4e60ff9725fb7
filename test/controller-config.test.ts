/**
 * Controller configuration: the validator itself, and the real process started with
 * `npx tsx controller/main.ts` (bad environment -> one line per variable, exit 1).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isLoopbackHost, loadControllerConfig } from '../controller/config.js';
import { nodeArgs } from './helpers/entry.js';

let tmp: string;

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-controller-config-'));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** The variables a test did not set must not leak in from the environment running jest. */
function env(vars: Record<string, string>): NodeJS.ProcessEnv {
  return { DATA_DIR: path.join(tmp, 'data'), ...vars };
}

describe('loadControllerConfig', () => {
  test('defaults of the contract, with the JWT key generated once into DATA_DIR/jwt-secret', () => {
    const result = loadControllerConfig(env({}));
    if (!result.ok) throw new Error(result.problems.join('\n'));
    const { config } = result;
    expect(config.host).toBe('127.0.0.1');
    expect(config.port).toBe(8080);
    expect(config.backendUrl).toBe('http://127.0.0.1:8000');
    expect(config.jwtTtlSeconds).toBe(300);
    expect(config.jenkinsHome).toBe(path.resolve('seeds/jenkins-home'));
    // The sample home records /var/jenkins_home paths: mapped onto it when it is the default home.
    expect(config.pathMap).toEqual([{ from: '/var/jenkins_home', to: path.resolve('./seeds/jenkins-home') }]);
    expect(config.auth).toEqual({ mode: 'none', user: 'local' });
    const stored = fs.readFileSync(path.join(tmp, 'data', 'jwt-secret'), 'utf8').trim();
    expect(config.jwtSecret).toBe(stored);
    expect(fs.statSync(path.join(tmp, 'data', 'jwt-secret')).mode & 0o777).toBe(0o600);
    // A second start (or the backend) reads the same key.
    const again = loadControllerConfig(env({}));
    expect(again.ok && again.config.jwtSecret).toBe(stored);
  });

  test('every value set explicitly', () => {
    const secret = randomBytes(32).toString('hex');
    const home = path.join(tmp, 'jenkins_home');
    fs.mkdirSync(home, { recursive: true });
    const result = loadControllerConfig(
      env({
        CONTROLLER_HOST: '0.0.0.0',
        CONTROLLER_PORT: '9090',
        BACKEND_URL: 'https://backend.internal:8443/api/',
        JWT_SECRET: secret,
        JWT_TTL_SECONDS: '60',
        JENKINS_HOME: home,
        JENKINS_PATH_MAP: '/var/jenkins_home=/srv/jenkins',
        CONTROLLER_AUTH: 'tokens',
        CONTROLLER_TOKENS_FILE: 'tokens.txt',
      }),
    );
    if (!result.ok) throw new Error(result.problems.join('\n'));
    expect(result.config).toMatchObject({
      host: '0.0.0.0',
      port: 9090,
      backendUrl: 'https://backend.internal:8443/api',
      jwtSecret: secret,
      jwtTtlSeconds: 60,
      jenkinsHome: home,
      pathMap: [{ from: '/var/jenkins_home', to: '/srv/jenkins' }],
      auth: { mode: 'tokens', tokensFile: path.resolve('tokens.txt') },
    });
  });

  test('reports every problem at once, one line per variable', () => {
    const result = loadControllerConfig(
      env({
        CONTROLLER_PORT: '70000',
        BACKEND_URL: 'ftp://x',
        JWT_SECRET: 'short',
        JWT_TTL_SECONDS: '0',
        JENKINS_PATH_MAP: 'relative=/x',
        CONTROLLER_AUTH: 'ldap',
        CONTROLLER_USER: 'has space',
        JENKINS_HOME: path.join(tmp, 'no-such-home'),
      }),
    );
    expect(result.ok).toBe(false);
    const problems = result.ok ? [] : result.problems;
    const named = problems.map((line) => line.split(':')[0]);
    expect(named.sort()).toEqual(
      ['BACKEND_URL', 'CONTROLLER_AUTH', 'CONTROLLER_PORT', 'CONTROLLER_USER', 'JENKINS_HOME', 'JENKINS_PATH_MAP', 'JWT_SECRET', 'JWT_TTL_SECONDS'].sort(),
    );
    expect(problems.find((l) => l.startsWith('JWT_SECRET'))).toMatch(/at least 32 bytes/);
    expect(problems.find((l) => l.startsWith('JENKINS_HOME'))).toMatch(/no-such-home is not a directory/);
  });

  test('CONTROLLER_AUTH=none refuses a non-loopback host; tokens mode needs its file', () => {
    const open = loadControllerConfig(env({ CONTROLLER_HOST: '0.0.0.0' }));
    expect(open.ok).toBe(false);
    expect(open.ok ? '' : open.problems.join('\n')).toMatch(/^CONTROLLER_HOST: refusing to listen on 0\.0\.0\.0 with CONTROLLER_AUTH=none/);
    const tokens = loadControllerConfig(env({ CONTROLLER_AUTH: 'tokens' }));
    expect(tokens.ok ? '' : tokens.problems.join('\n')).toMatch(/^CONTROLLER_TOKENS_FILE: required when CONTROLLER_AUTH=tokens/);
  });

  test.each([
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['localhost', true],
    ['::1', true],
    ['[::1]', true],
    ['0.0.0.0', false],
    ['::', false],
    ['192.168.1.5', false],
    ['ci.example.com', false],
  ])('isLoopbackHost(%s) is %s', (host, expected) => {
    expect(isLoopbackHost(host)).toBe(expected);
  });
});

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the controller with exactly `vars` (plus PATH/HOME), bounded in time: through
 * `npx tsx controller/main.ts` as a user would, or as node itself (tsx as a loader, or dist/ with
 * CICHAT_TEST_DIST=1, see helpers/entry.ts) when the test sends a signal: npx does not relay
 * signals to its child, and the tsx CLI relays SIGTERM but kills its child (exit 143) when the
 * child does not acknowledge it within ~30 ms, which a loaded machine misses.
 */
function runController(
  vars: Record<string, string>,
  onStdout?: (text: string, kill: () => void) => void,
  via: 'npx' | 'node' = 'npx',
): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const [command, args] =
      via === 'npx' ? ['npx', ['tsx', 'controller/main.ts']] : [process.execPath, nodeArgs('controller/main')];
    const child = spawn(command as string, args as string[], {
      cwd: path.resolve('.'),
      detached: true, // its own process group, so that a timeout can stop every process it started
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmp, DATA_DIR: path.join(tmp, 'proc-data'), ...vars },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      reject(new Error(`controller did not exit in time; stderr: ${stderr}`));
    }, 45_000);
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      onStdout?.(stdout, () => child.kill('SIGTERM'));
    });
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('the controller process', () => {
  test('bad environment: exit 1 with one line naming each bad variable', async () => {
    const result = await runController({
      CONTROLLER_PORT: 'eighty',
      JWT_SECRET: 'too-short',
      CONTROLLER_AUTH: 'tokens',
      JWT_TTL_SECONDS: '-5',
    });
    expect(result.code).toBe(1);
    const lines = result.stderr.split('\n').filter((l) => /^[A-Z_]+: /.test(l));
    expect(lines.map((l) => l.split(':')[0]).sort()).toEqual(
      ['CONTROLLER_PORT', 'CONTROLLER_TOKENS_FILE', 'JWT_SECRET', 'JWT_TTL_SECONDS'].sort(),
    );
  });

  test('CONTROLLER_AUTH=none on 0.0.0.0: refused with a clear message, exit 1', async () => {
    const result = await runController({ CONTROLLER_HOST: '0.0.0.0' });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/CONTROLLER_HOST: refusing to listen on 0\.0\.0\.0 with CONTROLLER_AUTH=none/);
    expect(result.stdout).not.toMatch(/listening/);
  });

  test('a good environment: prints where it listens, and SIGTERM stops it cleanly (exit 0)', async () => {
    const result = await runController({ CONTROLLER_PORT: '0', JWT_SECRET: randomBytes(32).toString('hex') }, (out, kill) => {
      if (out.includes('listening on')) kill();
    }, 'node');
    expect(result.stdout).toMatch(/^cichat controller listening on http:\/\/127\.0\.0\.1:\d+\/chatbot-api /);
    expect(result.code).toBe(0);
  });
});
