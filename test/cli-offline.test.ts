/**
 * The CLI as a user runs it, where no server is needed: help, usage errors (exit 2), an
 * unreachable controller (one line and a hint, exit 1) and `token add`, as real processes. The
 * usage errors and `analyze` run in-process in cli/program.test.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { TextOutput } from '../cli/io.js';
import { run } from '../cli/program.js';
import { PACKAGE_ROOT } from '../cli/services.js';
import { freePort, runCli } from './helpers/stack.js';

const env = { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' };
let dir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-cli-offline-'));
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});


describe('cichat without a server', () => {
  it('--help lists every command and exits 0', async () => {
    const r = await runCli(['--help'], { env });
    expect(r.code).toBe(0);
    for (const c of ['serve', 'chat', 'ask', 'chats', 'context', 'ws', 'analyze', 'token']) expect(r.stdout).toMatch(new RegExp(`^  ${c}\\b`, 'm'));
    expect(r.stdout).toContain('--json');
    const sub = await runCli(['context', 'upload', '--help'], { env });
    expect(sub.code).toBe(0);
    expect(sub.stdout).toContain('--from-env');
    expect(sub.stdout).toContain('JOB_NAME');
  });

  it('the help bundle of cli/bin.js prints the help texts of the program (cli/help.test.ts has them all)', async () => {
    for (const args of [['--help'], ['context', 'upload', '--help'], ['token', 'rm', '-h'], ['help', 'ask']]) {
      const out = await promisify(execFile)(process.execPath, [path.join(PACKAGE_ROOT, 'cli', 'bin.js'), ...args], { cwd: dir, env });
      const stdout = new TextOutput();
      const stdin = Object.assign(Readable.from([]), { isTTY: true });
      expect(await run(['node', 'cichat', ...args], { stdout, stderr: new TextOutput(), stdin, env })).toBe(0);
      expect(out.stdout).toBe(stdout.text);
      expect(out.stderr).toBe('');
    }
  });

  it('the help bundle holds the declarations and no more: commander and node: modules, no client, Ink or log analyzer (cli/command.ts)', async () => {
    // @ts-expect-error: plain JS beside bin.js (no declarations)
    const { buildHelpBundle } = (await import('../cli/helpBundle.js')) as {
      buildHelpBundle(main: string, out: string): Promise<{ inputs: string[]; imports: string[]; bytes: number }>;
    };
    const bundle = await buildHelpBundle(path.join(PACKAGE_ROOT, 'cli', 'main.ts'), path.join(dir, 'help.mjs'));
    const cli = path.join(PACKAGE_ROOT, 'cli');
    const inputs = bundle.inputs.map((f) => path.relative(cli, f)).sort();
    // A file added here is loaded by every `cichat --help`: keep it small and free of packages.
    const light = ['../protocol/chatTitle.ts', 'chatSubject.ts', 'command.ts', 'errors.ts', 'io.ts', 'main.ts', 'output.ts', 'program.ts', 'sources.ts', 'tree.ts', 'version.ts'];
    expect(inputs.filter((f) => !f.startsWith('commands/'))).toEqual(light);
    const commands = fs.readdirSync(path.join(cli, 'commands')).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
    expect(inputs.filter((f) => f.startsWith('commands/'))).toEqual(commands.map((f) => `commands/${f}`).sort());
    expect(bundle.imports.filter((i) => !i.startsWith('node:')).sort()).toEqual(['commander']);
  });

  it('--version prints the version of package.json (stated once: issue 31)', async () => {
    const pkg = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    const r = await runCli(['--version'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${pkg.version}\n`);
  });

  it('a usage error is exit 2 from the real process too (the others run in-process: cli/program.test.ts)', async () => {
    const r = await runCli(['chats', 'show', 'abc'], { env });
    expect(r.stderr).toMatch(/id: must be a positive integer/);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
  });

  it('analyze of a missing file is one line and exit 1 from the real process too (its stream was opened before anything listened)', async () => {
    const missing = path.join(dir, 'nope.log');
    const r = await runCli(['analyze', missing], { env });
    expect(r.stderr).toBe(`cichat: cannot read ${missing}: no such file\n`);
    expect(r.code).toBe(1);
  });

  it('says what to do when the controller is unreachable, exit 1', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const r = await runCli(['chats', 'list'], { env: { ...env, CICHAT_URL: url } });
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n')[0]).toBe(`cichat: Cannot reach the controller at ${url}: is \`npm start\` running?`);
    expect(r.stderr).toMatch(/^hint: /m);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace for a user-fixable error
    const flag = await runCli(['--url', url, 'ask', 'why?'], { env });
    expect(flag.code).toBe(1);
    expect(flag.stderr).toContain(`Cannot reach the controller at ${url}`);
  });

  it('token add prints the token once and stores only its hash', async () => {
    const file = path.join(dir, 'tokens', 'controller-tokens');
    const r = await runCli(['token', 'add', 'alice', '--file', file], { env });
    expect(r.code).toBe(0);
    const token = r.stdout.trim();
    expect(token).toMatch(/^\S{20,}$/);
    const stored = fs.readFileSync(file, 'utf8');
    expect(stored).toMatch(/^# created \d{4}-\d\d-\d\dT[\d:.]+Z\n/);
    expect(stored.split('\n').slice(1).join('\n')).toBe(`alice:${createHash('sha256').update(token).digest('hex')}\n`);
    expect(stored).not.toContain(token);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const bad = await runCli(['token', 'add', 'a:b', '--file', file], { env });
    expect(bad.code).toBe(2);
  });
});
