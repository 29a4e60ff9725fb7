/**
 * `cichat chat` in a real terminal: tmux at 80x24 runs the UI against a real stack; a question
 * is typed, the streamed answer appears on the screen; a second answer is stopped with Esc
 * and is shown (and stored) as interrupted.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import type { QaPair, Page } from '../protocol/types.js';
import { runCli, stackMissing, startStack, type Stack } from './helpers/stack.js';
import { cliCommand } from './helpers/entry.js';
import { until as poll } from './helpers/poll.js';

const hasTmux = spawnSync('tmux', ['-V']).status === 0;
// Under CI tmux is installed by .ci/run: its absence fails the run instead of skipping silently.
if (!hasTmux && (process.env.CI === 'true' || process.env.CI === '1')) throw new Error('tmux is not installed (.ci/run installs it)');
const missing = stackMissing() ?? (hasTmux ? null : 'skipped: tmux is not installed');
if (missing) console.warn(`cli-tmux: ${missing}`);
const describeTmux = missing ? describe.skip : describe;

let session = `cichat-test-${process.pid}`;

function tmux(...args: string[]): string {
  return execFileSync('tmux', args, { encoding: 'utf8' });
}

function screen(): string {
  return tmux('capture-pane', '-p', '-t', session);
}

function keys(...names: string[]): void {
  tmux('send-keys', '-t', session, ...names);
}

function type(text: string): void {
  tmux('send-keys', '-t', session, '-l', text);
}

const until = <T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 60000): Promise<T> =>
  poll(what, probe, { timeoutMs, intervalMs: 150, explain: () => `screen:\n${screen()}` });

describeTmux('cichat chat in tmux', () => {
  let stack: Stack;
  let chatId: number;

  async function pairs(): Promise<QaPair[]> {
    const res = await fetch(`${stack.url}/chatbot-api/chats/${chatId}?limit=100`);
    return ((await res.json()) as Page<QaPair>).items.reverse();
  }

  beforeAll(async () => {
    // Typing slow enough that the second answer is still streaming when Esc is pressed.
    stack = await startStack({ TYPING_DELAY_MS: '40' });
    const created = await runCli(['chats', 'new', 'tmux test'], { env: stack.cliEnv });
    chatId = Number(created.stdout.trim());
    // The sample failing build gives answers long enough to be stopped half way.
    const upload = await runCli(['context', 'upload', String(chatId), '--job', 'team/api', '--build', '42'], { env: stack.cliEnv });
    expect(upload.code).toBe(0);
    const command = `env CICHAT_URL=${stack.url} TERM=xterm-256color ${cliCommand()} chat ${chatId}`;
    tmux('new-session', '-d', '-s', session, '-x', '80', '-y', '24', command);
  }, 120000);

  async function chatTitles(): Promise<Map<number, string>> {
    const res = await fetch(`${stack.url}/chatbot-api/chats/?limit=100`);
    const page = (await res.json()) as Page<{ id: number; title: string }>;
    return new Map(page.items.map((c) => [c.id, c.title]));
  }

  afterAll(async () => {
    spawnSync('tmux', ['kill-session', '-t', `cichat-test-${process.pid}`]);
    spawnSync('tmux', ['kill-session', '-t', `cichat-test-list-${process.pid}`]);
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
    // In 80x24 the key help still says how to quit.
    expect(screen()).toContain('^C/^Q quit');

    // PgUp stops at the first line of the conversation (no blank pages), says what is below,
    // and PgDn comes back in as many presses as PgUp went up.
    expect(screen()).toMatch(/↑ \d+ more lines? above/);
    // Each press is awaited until the screen changes; a press that changes nothing within
    // 800 ms means the top was reached (counted, as before, among the presses).
    let ups = 0;
    for (let moved = true; moved && ups < 40; ) {
      const before = screen();
      keys('PageUp');
      ups++;
      const until800 = Date.now() + 800;
      while (screen() === before && Date.now() < until800) await new Promise((r) => setTimeout(r, 40));
      moved = screen() !== before;
    }
    const top = screen().split('\n');
    expect(top[1]).toContain('› why did the last build fail?');
    expect(screen()).toMatch(/↓ \d+ more lines? below/);
    expect(screen()).not.toContain('above');
    for (let i = 0; i < ups - 1; i++) keys('PageDown');
    await until('the bottom again', () => (!screen().includes('below') && screen().includes('above') ? true : undefined), 10000);

    tmux('send-keys', '-t', session, '-l', 'what should I fix first?');
    tmux('send-keys', '-t', session, 'Enter');
    await until('the second answer streaming', () => (screen().includes('answering') ? true : undefined));
    tmux('send-keys', '-t', session, 'Escape');
    const stopped = await until('the second answer interrupted', async () => {
      const list = await pairs();
      return list[1]?.answer?.status === 'interrupted' ? list[1] : undefined;
    }, 15000);
    expect(stopped.question.content).toBe('what should I fix first?');
    await until('the interrupted mark on the screen, and no stream', () =>
      screen().includes('⏹ interrupted') && !screen().includes('answering') ? true : undefined,
    10000);

    // A smaller terminal: the frame is redrawn to fit it.
    tmux('resize-window', '-t', session, '-x', '60', '-y', '16');
    await until('the frame to fit 60x16', () => {
      const rows = screen().replace(/\n$/, '').split('\n');
      return rows[0]?.includes('cichat · tmux test') && rows.some((r) => r.includes('Enter send')) && rows.every((r) => r.length <= 60)
        ? true
        : undefined;
    }, 10000);
    expect(screen()).toContain('⏹ interrupted');

    tmux('send-keys', '-t', session, 'C-c');
    await until('the UI to quit', () => {
      const r = spawnSync('tmux', ['has-session', '-t', session]);
      return r.status !== 0 ? true : undefined;
    }, 20000);
  }, 180000);

  it('creates, renames and deletes (after confirmation) chats from the list', async () => {
    session = `cichat-test-list-${process.pid}`;
    const command = `env CICHAT_URL=${stack.url} TERM=xterm-256color ${cliCommand()} chat`;
    tmux('new-session', '-d', '-s', session, '-x', '80', '-y', '24', command);
    await until('the chat list', () => (screen().includes('n new') && screen().includes('tmux test') ? true : undefined));
    keys('n');
    await until('the title prompt', () => (screen().includes('New chat title:') ? true : undefined));
    type('made in the list');
    keys('Enter');
    const created = await until('the new chat', async () => {
      for (const [id, title] of await chatTitles()) if (title === 'made in the list') return id;
      return undefined;
    });
    await until('the new chat opened', () => (screen().includes(`made in the list (#${created})`) ? true : undefined));

    keys('Tab');
    await until('the list again', () => (screen().includes('d delete') ? true : undefined));
    // the newest chat is first and selected
    keys('r');
    await until('the rename prompt', () => (screen().includes('Rename to:') ? true : undefined));
    // ^U and the new title in one burst (as a paste or a fast typist sends them)
    type('\u0015renamed in the list');
    keys('Enter');
    await until('the rename', async () => ((await chatTitles()).get(created) === 'renamed in the list' ? true : undefined));

    keys('d');
    await until('the confirmation', () => (screen().includes(`Delete chat #${created}`) ? true : undefined));
    keys('n'); // anything but y keeps it
    await until('the confirmation to go', () => (!screen().includes('Delete chat #') ? true : undefined));
    expect((await chatTitles()).has(created)).toBe(true);
    keys('d');
    await until('the confirmation', () => (screen().includes(`Delete chat #${created}`) ? true : undefined));
    keys('y');
    await until('the chat to be deleted', async () => (!(await chatTitles()).has(created) ? true : undefined));
    // One q quits. The test presses again after 2 s (as a person would) because one run on a
    // loaded machine once missed the first press; keys handled by a not-yet-redrawn handler
    // were since fixed (test/cli-app.test.ts), and on a quiet machine one press has done it
    // in every run since, but that one miss was never reproduced to prove its cause.
    let lastPress = 0;
    await until(
      'the UI to quit',
      () => {
        if (spawnSync('tmux', ['has-session', '-t', session]).status !== 0) return true;
        if (Date.now() - lastPress > 2000) {
          lastPress = Date.now();
          keys('q');
        }
        return undefined;
      },
      20000,
    );
  }, 120000);
});
