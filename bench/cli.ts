import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PACKAGE_ROOT, startService, waitHealthy, type Service } from '../cli/services.js';
import { readEvents } from '../protocol/sse.js';
import { flag, fmt, freePort, summarize } from './lib.js';

/**
 * `npm run bench -- cli [--runs 15] [--json]`
 *
 * 1. Start-up, each against `node -e 0` (node's own start) measured in the same run:
 *    `cichat --help` as the packed package runs it (`node dist/cli/main.js`; `npm run build`
 *    first when dist/ is missing) and as a checkout runs it (`node cli/bin.js`: a cached help
 *    bundle); `cichat analyze` of a real failing log after 30,000 lines of build output (compiled).
 * 2. `cichat ask`: from spawning the CLI to the first answer characters on its stdout, against
 *    a bare HTTP client in this process asking the same stack the same question (same run,
 *    alternating): the CLI's own cost is the difference. Backend and controller are processes
 *    (offline engine, TYPING_DELAY_MS=0).
 */
export async function run(args: string[]): Promise<void> {
  const runs = Number(flag(args, 'runs') ?? 15);
  const json = args.includes('--json');
  const say = (line: string) => {
    if (!json) console.log(line);
  };
  const result: Record<string, unknown> = { runs, cpus: os.cpus().length };
  const distMain = path.join(PACKAGE_ROOT, 'dist', 'cli', 'main.js');
  if (!fs.existsSync(distMain)) {
    say('dist/ is missing: npm run build');
    const b = spawnSync('npm', ['run', 'build'], { cwd: PACKAGE_ROOT, stdio: 'ignore' });
    if (b.status !== 0) throw new Error('npm run build failed');
  }

  // --- 1. start-up
  const log = bigLog();
  const commands: Array<[string, string[], string | undefined]> = [
    ['node -e 0 (baseline)', ['-e', '0'], undefined],
    ['cichat --help (dist)', [distMain, '--help'], undefined],
    ['cichat --help (checkout)', [path.join(PACKAGE_ROOT, 'cli', 'bin.js'), '--help'], undefined],
    [`cichat analyze ${(fs.statSync(log.file).size / 1e6).toFixed(1)} MB (dist)`, [distMain, 'analyze', log.file], undefined],
  ];
  say(`Start-up, ${runs} runs each, interleaved (median / p90)`);
  const times = new Map<string, number[]>(commands.map(([name]) => [name, []]));
  for (let i = 0; i < runs + 1; i++) {
    for (const [name, argv] of commands) {
      const t0 = performance.now();
      const r = spawnSync(process.execPath, argv, { cwd: PACKAGE_ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
      const ms = performance.now() - t0;
      if (r.status !== 0) throw new Error(`${name} exited ${r.status}: ${r.stderr.toString()}`);
      if (i > 0) times.get(name)!.push(ms); // the first round warms the caches
    }
  }
  const baseline = summarize(times.get(commands[0]![0])!).p50;
  const startup: Record<string, unknown> = {};
  for (const [name] of commands) {
    const s = summarize(times.get(name)!);
    startup[name] = { p50: s.p50, p90: s.p90 };
    say(`  ${name.padEnd(28)} ${fmt(s.p50)}  p90 ${fmt(s.p90)}  (+${fmt(s.p50 - baseline)} over node)`);
  }
  result.startup = startup;
  fs.rmSync(log.dir, { recursive: true, force: true });

  // --- 2. ask: first characters, CLI process vs bare client
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-bench-cli-'));
  const [backendPort, controllerPort] = [await freePort(), await freePort()];
  const url = `http://127.0.0.1:${controllerPort}`;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATA_DIR: dataDir,
    BACKEND_PORT: String(backendPort),
    CONTROLLER_PORT: String(controllerPort),
    BACKEND_URL: `http://127.0.0.1:${backendPort}`,
    TYPING_DELAY_MS: '0',
    LOG_LEVEL: 'warn',
  };
  const services: Service[] = [];
  try {
    services.push(startService('backend', path.join(PACKAGE_ROOT, 'dist', 'backend', 'main.js'), env, { cwd: PACKAGE_ROOT }));
    await waitHealthy(`http://127.0.0.1:${backendPort}/healthz`, services[0]!, 60_000);
    services.push(startService('controller', path.join(PACKAGE_ROOT, 'dist', 'controller', 'main.js'), env, { cwd: PACKAGE_ROOT }));
    await waitHealthy(`${url}/chatbot-api/healthz`, services[1]!, 60_000);
    const chat = (await (await fetch(`${url}/chatbot-api/chats/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":"bench"}' })).json()) as { id: number };
    const question = 'why did the build fail?';
    const bare: number[] = [];
    const cli: number[] = [];
    for (let i = 0; i < runs + 1; i++) {
      const b = await bareFirstChunk(url, chat.id, question);
      const c = await cliFirstChunk(distMain, url, chat.id, question);
      if (i > 0) {
        bare.push(b);
        cli.push(c);
      }
    }
    const sb = summarize(bare);
    const sc = summarize(cli);
    say(`\ncichat ask: spawn -> first answer characters (${runs} runs, alternating)`);
    say(`  bare HTTP client  p50 ${fmt(sb.p50)}  p90 ${fmt(sb.p90)}`);
    say(`  cichat ask (dist) p50 ${fmt(sc.p50)}  p90 ${fmt(sc.p90)}  (CLI's own: +${fmt(sc.p50 - sb.p50)}, of which node's start ${fmt(baseline)})`);
    result.ask = { bare: { p50: sb.p50, p90: sb.p90 }, cli: { p50: sc.p50, p90: sc.p90 } };
  } finally {
    await Promise.all(services.map((s) => s.stop(5000)));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  if (json) console.log(JSON.stringify(result));
}

/** A failing build log: 30,000 lines of build output, then a real fixture (test/fixtures/logs/maven-*.log). */
function bigLog(): { dir: string; file: string } {
  const fixtures = path.join(PACKAGE_ROOT, 'test', 'fixtures', 'logs');
  const names = fs.readdirSync(fixtures).filter((f) => f.endsWith('.log'));
  const pick = names.find((n) => n.startsWith('maven')) ?? names[0]!;
  const text = fs.readFileSync(path.join(fixtures, pick), 'utf8');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-bench-cli-log-'));
  const file = path.join(dir, 'build.log');
  const noise = Array.from({ length: 30_000 }, (_, i) => `[INFO] step ${i}: compiling module-${i % 97} ok`).join('\n');
  fs.writeFileSync(file, `${noise}\n${text}`);
  return { dir, file };
}

/** ms from sending the question to the first `chunk` event, read by this process. */
async function bareFirstChunk(url: string, chatId: number, content: string): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(`${url}/chatbot-api/messages/send`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ chat_id: chatId, content }),
  });
  let first = -1;
  for await (const e of readEvents(res.body as unknown as AsyncIterable<Uint8Array>)) {
    if (e.event === 'chunk' && first < 0) first = performance.now() - t0;
  }
  if (first < 0) throw new Error('no chunk in the answer');
  return first;
}

/** ms from spawning `cichat ask` to the first byte on its stdout; waits for it to exit. */
function cliFirstChunk(distMain: string, url: string, chatId: number, question: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let first = -1;
    let err = '';
    const child = spawn(process.execPath, [distMain, '--url', url, 'ask', '--chat', String(chatId), question], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.once('data', () => (first = performance.now() - t0));
    child.stdout.resume();
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    child.once('error', reject);
    child.once('close', (code) => {
      if (code !== 0 || first < 0) reject(new Error(`cichat ask exited ${code}: ${err}`));
      else resolve(first);
    });
  });
}
