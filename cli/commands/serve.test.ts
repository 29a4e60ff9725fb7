/**
 * The `npm start` banner and the README agree: the commands the banner suggests are the ones
 * the README documents, and every command of the README's CLI table is in `cichat --help`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { TextOutput } from '../io.js';
import { run } from '../program.js';
import { nextSteps, onPath } from './serve.js';

const README = fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'README.md'), 'utf8');

async function help(args: string[]): Promise<string> {
  const out = new TextOutput();
  await run(['node', 'cichat', ...args, '--help'], { stdout: out, stderr: new TextOutput(), stdin: Object.assign(Readable.from([]), { isTTY: true }), env: {} });
  return out.text;
}

describe('npm start banner', () => {
  it('suggests the README commands: cichat when installed, npx cichat and how to install otherwise', () => {
    const installed = nextSteps(true, '', 1);
    expect(installed).toEqual(['  cichat chat 1', '  cichat ask --chat 1 "why did the build fail?"']);
    for (const line of installed) expect(README).toContain(line.trim());
    const notInstalled = nextSteps(false, ' --url http://127.0.0.1:9090', 4);
    expect(notInstalled[0]).toBe('  npx cichat --url http://127.0.0.1:9090 chat 4');
    expect(notInstalled[2]).toContain('npm link');
    expect(README).toContain('npm link');
    expect(README).toContain('npm i -g ./cichat-');
  });

  it('without a demo chat, suggests ask with a piped log, which has something to answer from (ux3, session 42)', () => {
    expect(nextSteps(true, '', undefined)).toEqual(['  cichat chat', '  cat build.log | cichat ask "why did the build fail?"']);
  });

  it('finds an executable on PATH', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-path-'));
    try {
      expect(onPath('cichat', dir)).toBe(false);
      fs.writeFileSync(path.join(dir, 'cichat'), '#!/bin/sh\n', { mode: 0o755 });
      expect(onPath('cichat', `/nonexistent${path.delimiter}${dir}`)).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('README and --help agree', () => {
  const table = README.slice(README.indexOf('## The CLI'), README.indexOf('### In a Jenkins pipeline'));
  const rows = table.split('\n').filter((l) => l.startsWith('| `cichat '));

  it('every command of the README table is a command of cichat --help', async () => {
    expect(rows.length).toBeGreaterThanOrEqual(9);
    const top = await help([]);
    for (const row of rows) {
      const name = /^\| `cichat (\w+)/.exec(row)?.[1] ?? '';
      expect(top).toMatch(new RegExp(`^  ${name}\\b`, 'm'));
    }
  });

  it('the subcommands and flags the README names exist', async () => {
    const token = await help(['token']);
    for (const sub of ['add', 'list', 'rm']) expect(token).toMatch(new RegExp(`^  ${sub}\\b`, 'm'));
    expect(await help(['token', 'add'])).toContain('--replace');
    const ask = await help(['ask']);
    for (const flag of ['--chat', '--job', '--build', '--no-stdin']) expect(ask).toContain(flag);
    const serve = await help(['serve']);
    for (const flag of ['--port', '--backend-port']) expect(serve).toContain(flag);
  });
});
