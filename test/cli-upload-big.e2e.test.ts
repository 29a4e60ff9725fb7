/**
 * The CLI's raw log upload (issue 28) end to end: the real `cichat` process pipes a generated
 * log bigger than the bounded store keeps (limits set low, 1 MiB each, so a 12 MB log stands
 * for a huge one) through a real controller and backend, gzip on the wire; the answer cites
 * the failure and says which lines were not kept. And a controller without the route: one line.
 * Big sizes and memory figures are the benchmarks' (bench/, helper perf28).
 */
import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { runCli, startStack, type Stack } from './helpers/stack.js';

/** About `mb` MB of Maven-like lines, the compile error and the end of the build last. */
function generatedLog(mb: number): { log: Buffer; lines: number } {
  const out: string[] = ['Started by user admin', '[Pipeline] sh', '+ mvn -B verify'];
  let size = 0;
  for (let i = 0; size < mb * 1_000_000; i++) {
    const line = i % 3 === 0 ? `[INFO] Compiling module-${i % 31} file Source${i}.java to target/classes` : `[INFO] Downloading artifact-${i % 97} from central (${i} KB)`;
    out.push(line);
    size += line.length + 1;
  }
  out.push('[ERROR] /src/main/java/com/acme/UserService.java:[42,17] cannot find symbol', '[ERROR]   symbol:   method findByEmail(java.lang.String)', 'ERROR: script returned exit code 1', 'Finished: FAILURE');
  return { log: Buffer.from(`${out.join('\n')}\n`), lines: out.length };
}

describe('cichat streams a big piped log through a real stack', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ CONTEXT_LOG_HEAD_MIB: '1', CONTEXT_LOG_TAIL_MIB: '1', CONTEXT_LOG_MIDDLE_MIB: '1' });
  }, 120000);
  afterAll(async () => {
    await stack?.stop();
  });

  it('ask with a 12 MB gzip log on stdin: uploaded whole (every line counted), kept bounded, the answer says what was not kept', async () => {
    const { log, lines } = generatedLog(12);
    const chat = Number((await runCli(['chats', 'new', 'big'], { env: stack.cliEnv })).stdout.trim());
    const up = await runCli(['--json', 'context', 'upload', String(chat), '--log', '-'], { env: { ...stack.cliEnv, CICHAT_UPLOAD_GZIP: '1' }, input: gzipSync(log), timeoutMs: 180000 });
    expect(up.stderr).toContain('cichat: stdin: decompressed gzip as it is read');
    expect(up.code).toBe(0);
    expect((JSON.parse(up.stdout) as { log_lines: number }).log_lines).toBe(lines);

    const answer = await runCli(['ask', '--chat', String(chat), 'why did the build fail?'], { env: stack.cliEnv, timeoutMs: 60000 });
    expect(answer.code).toBe(0);
    expect(answer.stdout).toContain('cannot find symbol');
    expect(answer.stdout).toMatch(new RegExp(`Lines [\\d,]+-[\\d,]+ of ${lines.toLocaleString('en-US')} were not kept`));

    // The piped form of ask makes its own chat from the same log (plain on the wire this time).
    const piped = await runCli(['ask', 'why did the build fail?'], { env: stack.cliEnv, input: log, timeoutMs: 180000 });
    expect(piped.code).toBe(0);
    expect(piped.stdout).toContain('cannot find symbol');
    expect(piped.stdout).toContain('were not kept');
  }, 400000);
});

describe('a controller older than the raw log route', () => {
  let server: http.Server;
  let url: string;
  beforeAll(async () => {
    // What the previous controller answers to a text/plain body on /context/...: JSON only.
    server = http.createServer((req, res) => {
      req.resume();
      res.setHeader('content-type', 'application/json');
      if (req.method === 'POST' && req.url?.endsWith('/log')) {
        res.statusCode = 415;
        res.end(JSON.stringify({ detail: 'The body must be JSON (Content-Type: application/json), not text/plain.' }));
      } else if (req.url?.includes('/last-upload')) res.end(JSON.stringify({ last_upload_at: null }));
      else res.end(JSON.stringify({ id: 5, user_id: 'local', title: 'x', created_at: '2026-11-24T00:00:00.000Z', updated_at: '2026-11-24T00:00:00.000Z' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const address = server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('gets one line saying so, exit 1, nothing stored', async () => {
    const r = await runCli(['context', 'upload', '5', '--log', '-'], { env: { PATH: process.env.PATH, HOME: process.env.HOME, CICHAT_URL: url }, input: 'ERROR: boom\n' });
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n')[0]).toBe(
      `cichat: ${url} does not take raw log uploads (POST /chatbot-api/context/{chat}/log answered 415: The body must be JSON (Content-Type: application/json), not text/plain.): its controller or backend is older than this cichat; nothing was stored`,
    );
  });
});
