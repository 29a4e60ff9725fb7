/**
 * `cichat chat` in a real terminal: tmux at 80x24 runs the UI against a real stack; a question
 * is typed, the streamed answer appears on the screen; a second answer is stopped with Esc
 * and is shown (and stored) as interrupted.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import type { QaPair, Page } from '../protocol/types.js';
import { CLI_MAIN, runCli, stackMissing, startStack, type Stack } from './helpers/stack.js';

const hasTmux = spawnSync('tmux', ['-V']).status === 0;
const missing = stackMissing() ?? (hasTmux ? null : 'skipped: tmux is not installed');
if (missing) console.warn(`cli-tmux: ${missing}`);
const describeTmux = missing ? describe.skip : describe;

const session = `cichat-test-${process.pid}`;

function tmux(...args: string[]): string {
  return execFileSync('tmux', args, { encoding: 'utf8' });
}

function screen(): string {
  return tmux('capture-pane', '-p', '-t', session);
}

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 60000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; screen:\n${screen()}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

describeTmux('cichat chat in tmux', () => {
  let stack: Stack;
  let chatId: number;

  async function pairs(): Promise<QaPair[]> {
    const res = await fetch(`${stack.url}/chatbot-api/chats/${chatId}?limit=100`);
    return ((await res.json()) as Page<QaPair>).items.reverse();
  }

  beforeAll(async () => {
    // Slow typing so that the second answer is still streaming when Esc is pressed.
    stack = await startStack({ TYPING_DELAY_MS: '100' });
    const created = await runCli(['chats', 'new', 'tmux test'], { env: stack.cliEnv });
    chatId = Number(created.stdout.trim());
    // The sample failing build gives answers long enough to be stopped half way.
    const upload = await runCli(['context', 'upload', String(chatId), '--job', 'team/api', '--build', '42'], { env: stack.cliEnv });
    expect(upload.code).toBe(0);
    const command = `env CICHAT_URL=${stack.url} TERM=xterm-256color ${process.execPath} --import tsx ${CLI_MAIN} chat ${chatId}`;
    tmux('new-session', '-d', '-s', session, '-x', '80', '-y', '24', command);
  }, 120000);

  afterAll(async () => {
    spawnSync('tmux', ['kill-session', '-t', session]);
    await stack?.stop();
  });

  it('shows a streamed answer, then stops the next one', async () => {
    await until('the UI', () => (screen().includes('tmux test') && screen().includes('Enter send') ? true : undefined));
    tmux('send-keys', '-t', session, '-l', 'why did the last build fail?');
    tmux('send-keys', '-t', session, 'Enter');
    const first = await until('the first answer', async () => {
      const list = await pairs();
      return list[0]?.answer?.status === 'complete' ? list[0] : undefined;
    });
    // The end of the answer is on the screen (the UI shows the tail of the conversation),
    // compared without Markdown markup and with the screen's wrapping undone.
    const flat = (text: string): string => text.replace(/\s+/g, ' ').trim();
    const lastLine = (first.answer?.content ?? '')
      .split('\n')
      .map((l) => l.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '').replace(/[*`#>]/g, '').trim())
      .filter((l) => l.length > 0)
      .pop() ?? '';
    const tail = flat(lastLine).slice(-40);
    expect(tail.length).toBeGreaterThan(0);
    await until('the answer on the screen', () => (flat(screen().replace(/[•│]/g, ' ')).includes(tail) ? true : undefined), 10000);
    // The frame fits 80x24: the title is still on the first row, the key help on the screen.
    expect(screen().split('\n')[0]).toContain('cichat · tmux test');
    expect(screen()).toContain('Enter send');

    tmux('send-keys', '-t', session, '-l', 'what should I fix first?');
    tmux('send-keys', '-t', session, 'Enter');
    await until('the second answer streaming', () => (screen().includes('answering') ? true : undefined));
    tmux('send-keys', '-t', session, 'Escape');
    const stopped = await until('the second answer interrupted', async () => {
      const list = await pairs();
      return list[1]?.answer?.status === 'interrupted' ? list[1] : undefined;
    }, 15000);
    expect(stopped.question.content).toBe('what should I fix first?');
    await until('the interrupted mark on the screen', () => (screen().includes('⏹ interrupted') ? true : undefined), 10000);
    expect(screen()).not.toContain('answering');

    tmux('send-keys', '-t', session, 'C-c');
    await until('the UI to quit', () => {
      const r = spawnSync('tmux', ['has-session', '-t', session]);
      return r.status !== 0 ? true : undefined;
    }, 10000);
  }, 180000);
});
