/**
 * The whole command line in-process (`run(argv, io)`): usage errors (exit 2) and `analyze`
 * (file, stdin, JSON, a missing file). These ran as spawned processes before (about 1 s each
 * under tsx); test/cli-offline.test.ts keeps one of each kind as a real process.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { TextOutput } from './io.js';
import { run } from './program.js';

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-program-'));
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const FAILING_LOG = [
  'Started by user admin',
  '[Pipeline] sh',
  '+ mvn -B verify',
  '[INFO] Building orders-api 1.0',
  '[INFO] Running com.example.orders.OrderTotalsTest',
  '[ERROR] Tests run: 3, Failures: 1, Errors: 0, Skipped: 0',
  '[ERROR] totalsIncludeTax(com.example.orders.OrderTotalsTest)  Time elapsed: 0.01 s  <<< FAILURE!',
  'org.opentest4j.AssertionFailedError: expected: <107.0> but was: <100.0>',
  '\tat com.example.orders.OrderTotalsTest.totalsIncludeTax(OrderTotalsTest.java:21)',
  '[INFO] BUILD FAILURE',
  'Finished: FAILURE',
  '',
].join('\n');

/** Runs cichat in-process; `input` is what is piped on stdin (a terminal when absent). */
async function runCli(args: string[], options: { input?: string | Buffer; env?: NodeJS.ProcessEnv } = {}) {
  const stdout = new TextOutput();
  const stderr = new TextOutput();
  const stdin = Object.assign(Readable.from(options.input === undefined ? [] : [options.input]), { isTTY: options.input === undefined });
  const code = await run(['node', 'cichat', ...args], { stdout, stderr, stdin, env: { NO_COLOR: '1', ...options.env } });
  return { code, stdout: stdout.text, stderr: stderr.text };
}
const env = {};

describe('cichat in-process', () => {
  it.each([
    [['ask'], /missing required argument/],
    [['chats', 'show', 'abc'], /id: must be a positive integer/],
    [['ws', 'tree', 'team/api', '42', '--depth', '0'], /--depth: must be a positive integer/],
    [['ws', 'tree', 'team/api', '42', '--depth', '21'], /--depth: must be between 1 and 20/],
    [['frobnicate'], /unknown command/],
    [['chats', 'list', '--bogus'], /unknown option/],
    [['token', 'add', 'bob'], /--file/],
    [['ask', '--build', '3', 'why?'], /--build needs --job/],
    [['--url', 'notaurl', 'chats', 'list'], /--url: "notaurl" is not an http\(s\) URL/],
    [['analyze'], /no log given \(stdin is a terminal\)/],
    [['token', 'list'], /--file: the tokens file is needed/],
  ])('usage error %j exits 2', async (args, message) => {
    const r = await runCli(args);
    expect(r.stderr).toMatch(message);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
  });

  it('analyze ranks the failure excerpts of a log file, with line numbers', async () => {
    const file = path.join(dir, 'build.log');
    fs.writeFileSync(file, FAILING_LOG);
    const r = await runCli(['analyze', file], { env });
    expect(r.code).toBe(0);
    const first = r.stdout.split('\n\n')[0] ?? '';
    expect(first).toMatch(/^#1 lines? \d+/);
    expect(first).toMatch(/^ ?\d+ │ .*AssertionFailedError: expected: <107.0> but was: <100.0>$/m);
    // the number printed is the line's number in the file
    const numbered = /^ ?(\d+) │ org\.opentest4j/m.exec(r.stdout);
    expect(Number(numbered?.[1])).toBe(8);
  });

  it('analyze shows a likely class as a guess beside a finding no rule established (JSON: likely_class, class unknown)', async () => {
    // the class model reads the error's block and the lines above it (helper ml4): a resolver's words there
    const log = ['+ tidyup install', 'Resolving dependencies of module app', 'Downloading module index from the repository', 'tidyup: missing dependencies: module foo not found on the module path', 'tidyup: resolve the missing dependencies or pass --ignore-missing-deps', 'Finished: FAILURE', ''].join('\n');
    const r = await runCli(['analyze', '-'], { env, input: log });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ {3}unknown: line 4, low confidence$/m);
    expect(r.stdout).toMatch(/^ {3}not established; its words \([\w, -]+\) suggest dependency-resolution, a guess$/m);
    const json = JSON.parse((await runCli(['analyze', '--json'], { env, input: log })).stdout) as { finding?: { class: string; likely_class?: { class: string; words: string[] } } }[];
    expect(json[0]?.finding?.class).toBe('unknown');
    expect(json[0]?.finding?.likely_class?.class).toBe('dependency-resolution');
  });

  it("analyze says a rule's high that calibration lowered (JSON: confidence medium, rules_confidence high)", async () => {
    // Jenkins' label line under a pipeline's time-out: the label rule says agent-lost at high, the excerpt's words read
    // as a time-out (core/finding/calibration.ts; test/answerNoAgent.test.ts).
    const log = ['Started by user alice', '[Pipeline] Start of Pipeline', '[Pipeline] timeout', 'Timeout set to expire in 30 min', '[Pipeline] {', '[Pipeline] node', 'Still waiting to schedule task', 'All nodes of label ‘docker-arm64’ are offline', 'Cancelling nested steps due to timeout', '[Pipeline] // node', '[Pipeline] }', '[Pipeline] // timeout', '[Pipeline] End of Pipeline', 'Timeout has been exceeded', 'Finished: ABORTED', ''].join('\n');
    const r = await runCli(['analyze', '-'], { env, input: log });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ {3}agent-lost \(jenkins\): line 8, medium confidence \(a rule's high, lowered: the excerpt's other words read more like another class\)$/m);
    const json = JSON.parse((await runCli(['analyze', '--json'], { env, input: log })).stdout) as { finding?: { class: string; confidence: string; rules_confidence?: string } }[];
    expect(json[0]?.finding).toMatchObject({ class: 'agent-lost', confidence: 'medium', rules_confidence: 'high' });
  });

  it('analyze of a passing log says no failure was found, then shows where the log ends', async () => {
    const passing = ['[Pipeline] sh', '+ make', 'cc -o app src/main.o', '[Pipeline] End of Pipeline', 'Finished: SUCCESS', ''].join('\n');
    const r = await runCli(['analyze', '-'], { env, input: passing });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^No failure found in 5 lines\. The log ends:$/m);
    expect(r.stdout).toMatch(/^\s?5 │ Finished: SUCCESS$/m);
  });

  it('analyze reads stdin and prints JSON with the lines', async () => {
    const r = await runCli(['analyze', '--json'], { env, input: FAILING_LOG });
    expect(r.code).toBe(0);
    const excerpts = JSON.parse(r.stdout) as { start_line: number; end_line: number; score: number; reason: string; lines: string[] }[];
    expect(excerpts.length).toBeGreaterThan(0);
    const top = excerpts[0]!;
    expect(top.lines).toEqual(FAILING_LOG.split('\n').slice(top.start_line - 1, top.end_line));
    expect(excerpts.some((e) => e.lines.some((l) => l.includes('AssertionFailedError')))).toBe(true);
    const again = await runCli(['--json', 'analyze', '-'], { env, input: FAILING_LOG });
    expect(JSON.parse(again.stdout)).toEqual(excerpts);
  });

  it('analyze reads a log as an upload does: gzip decompressed, Windows-1252 said, binary refused', async () => {
    const gz = await runCli(['analyze', '--json'], { env, input: gzipSync(FAILING_LOG) });
    expect(gz.code).toBe(0);
    expect(gz.stderr).toBe('cichat: stdin: decompressed gzip as it is read\n');
    expect(JSON.parse(gz.stdout)).toEqual(JSON.parse((await runCli(['analyze', '--json'], { env, input: FAILING_LOG })).stdout));
    const latin = await runCli(['analyze', '--json'], { env, input: Buffer.from('caf\xe9 ERROR: build failed\n', 'latin1') });
    expect(latin.stderr).toContain('not UTF-8: read as Windows-1252');
    expect((JSON.parse(latin.stdout) as { lines: string[] }[])[0]!.lines).toEqual(['café ERROR: build failed']);
    const file = path.join(dir, 'tool.bin');
    fs.writeFileSync(file, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1, 2, 3]));
    const bin = await runCli(['analyze', file], { env });
    expect(bin.code).toBe(1);
    expect(bin.stderr).toContain(`cichat: ${file} is not a text log`);
  });

  it('analyze FILE of a long log, read twice (the second time from where its lines shown are): what one read of stdin gives; with a byte-order mark, gzip', async () => {
    // ~140 000 lines past a quiet part of 60 000: more lines around blocks than one read keeps.
    const lines: string[] = [];
    for (let k = 0; k < 60_000; k++) lines.push(`compiling module ${k} quietly`);
    for (let k = 0; k < 700; k++) {
      lines.push(`error: step ${k} failed at src/file${k % 7}.c:${k}`);
      for (let i = 0; i < 200; i++) lines.push(`compiling module ${k}.${i}`);
    }
    const log = Buffer.from(`${lines.join('\n')}\nFinished: FAILURE\n`);
    const once = await runCli(['analyze', '--json', '-'], { env, input: log });
    expect(once.code).toBe(0);
    for (const [name, bytes] of [
      ['long.log', log],
      ['bom.log', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), log])],
      ['long.log.gz', gzipSync(log)],
    ] as const) {
      fs.writeFileSync(path.join(dir, name), bytes);
      const r = await runCli(['analyze', '--json', path.join(dir, name)], { env });
      expect([name, r.code, JSON.parse(r.stdout)]).toEqual([name, 0, JSON.parse(once.stdout)]);
    }
    // A pipe (`cichat analyze <(cmd)`) cannot be read twice: it is read once, as stdin is.
    const fifo = path.join(dir, 'log.fifo');
    execFileSync('mkfifo', [fifo]);
    const writer = spawn('sh', ['-c', 'cat "$0" > "$1"', path.join(dir, 'long.log'), fifo]);
    const piped = await runCli(['analyze', '--json', fifo], { env });
    expect([piped.code, JSON.parse(piped.stdout)]).toEqual([0, JSON.parse(once.stdout)]);
    writer.kill();
  });

  it('analyze of a missing file is a one-line error, exit 1', async () => {
    const r = await runCli(['analyze', path.join(dir, 'nope.log')], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`cichat: cannot read ${path.join(dir, 'nope.log')}: no such file\n`);
  });

});
