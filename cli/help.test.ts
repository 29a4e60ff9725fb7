/**
 * Every help text of `cichat`, byte for byte (issue 31 point 7: the commands moved from
 * program.ts into their own files; the snapshots were taken from the code before the move).
 * Also the texts commander prints from a command's declaration on its own: a group without its
 * subcommand, an unknown command or option (with the suggestion), a missing argument.
 */
import { Readable } from 'node:stream';
import type { Command } from 'commander';
import { TextOutput } from './io.js';
import { buildProgram, run } from './program.js';

/** Every command of the tree, as typed after `cichat`. A command added or removed changes this list on purpose. */
const COMMANDS = [
  'serve',
  'chat',
  'ask',
  'chats',
  'chats list',
  'chats new',
  'chats show',
  'chats rename',
  'chats rm',
  'context',
  'context upload',
  'context last',
  'ws',
  'ws tree',
  'ws cat',
  'history',
  'failures',
  'analyze',
  'token',
  'token add',
  'token list',
  'token rm',
];

async function runCli(args: string[]) {
  const stdout = new TextOutput();
  const stderr = new TextOutput();
  const stdin = Object.assign(Readable.from([]), { isTTY: true });
  const code = await run(['node', 'cichat', ...args], { stdout, stderr, stdin, env: { NO_COLOR: '1' } });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

function paths(cmd: Command, prefix: string[] = []): string[] {
  return cmd.commands.flatMap((sub) => {
    const here = [...prefix, sub.name()];
    return [here.join(' '), ...paths(sub, here)];
  });
}

describe('cichat help texts', () => {
  it('the command tree is the one snapshotted below', () => {
    const io = { stdout: new TextOutput(), stderr: new TextOutput(), stdin: Readable.from([]), env: {} };
    expect(paths(buildProgram(io))).toEqual(COMMANDS);
  });

  it.each([[['--help']], [['-h']], [['help']], [[]]])('cichat %j', async (args) => {
    expect(await runCli(args)).toMatchSnapshot();
  });

  it.each(COMMANDS.map((c) => [c]))('cichat %s --help', async (command) => {
    const r = await runCli([...command.split(' '), '--help']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatchSnapshot();
    // `cichat help <command>` (for `chats list` commander shows the help of `chats`)
    expect(await runCli(['help', ...command.split(' ')])).toMatchSnapshot();
  });

  it.each([
    [['chats']],
    [['token']],
    [['ak', 'why?']],
    [['ask', '--chta', '3', 'why?']],
    [['ws', 'cat', 'team/api']],
  ])('cichat %j', async (args) => {
    expect(await runCli(args)).toMatchSnapshot();
  });
});
