/** `cichat token add | list | rm` in-process on a temporary tokens file. */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { hashToken, parseTokenFile } from '../../core/tokens.js';
import { TextOutput, type CliIO } from '../io.js';
import { run } from '../program.js';

function io(env: NodeJS.ProcessEnv = {}): CliIO & { stdout: TextOutput; stderr: TextOutput } {
  return { stdout: new TextOutput(), stderr: new TextOutput(), stdin: Object.assign(Readable.from([]), { isTTY: true }), env };
}
const cichat = async (args: string[], env: NodeJS.ProcessEnv = {}) => {
  const out = io(env);
  const code = await run(['node', 'cichat', ...args], out);
  return { code, stdout: out.stdout.text, stderr: out.stderr.text };
};

describe('cichat token', () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cichat-tokens-'));
    file = path.join(dir, 'tokens');
  });
  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('add for an existing user says it adds a second token; --replace revokes the first', async () => {
    const first = await cichat(['token', 'add', 'alice', '--file', file]);
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(/^Token for alice added/);
    const second = await cichat(['token', 'add', 'alice', '--file', file]);
    expect(second.stderr).toContain('A second token for alice');
    expect(second.stderr).toContain('use --replace to revoke it');
    let entries = parseTokenFile(await fs.readFile(file, 'utf8')).entries;
    expect(entries.map((e) => e.sha256)).toEqual([hashToken(first.stdout.trim()), hashToken(second.stdout.trim())]);
    const third = await cichat(['token', 'add', 'alice', '--file', file, '--replace']);
    expect(third.stderr).toMatch(/replaces the 2 earlier tokens \([0-9a-f]{8}, [0-9a-f]{8}\), which no longer work/);
    entries = parseTokenFile(await fs.readFile(file, 'utf8')).entries;
    expect(entries).toEqual([{ userId: 'alice', sha256: hashToken(third.stdout.trim()) }]);
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
  });

  it('list shows ids, users and creation times, never a token or a whole hash', async () => {
    const a = await cichat(['token', 'add', 'alice', '--file', file]);
    await cichat(['token', 'add', 'bob', '--file', file]);
    await fs.appendFile(file, 'carol:' + hashToken('by-hand') + '\n');
    const list = await cichat(['token', 'list'], { CONTROLLER_TOKENS_FILE: file });
    expect(list.code).toBe(0);
    const lines = list.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^ID +USER +CREATED$/);
    expect(lines[1]).toMatch(/^[0-9a-f]{8} {2}alice +\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(lines[2]).toMatch(/^[0-9a-f]{8} {2}bob /);
    expect(lines[3]).toMatch(/^[0-9a-f]{8} {2}carol +\(unknown: written by hand\)$/);
    expect(list.stdout).not.toContain(a.stdout.trim());
    expect(list.stdout).not.toContain(hashToken(a.stdout.trim()));
    const json = await cichat(['--json', 'token', 'list', '--file', file]);
    expect((JSON.parse(json.stdout) as { user: string }[]).map((t) => t.user)).toEqual(['alice', 'bob', 'carol']);
  });

  it('rm USER removes every token of the user, rm ID one token; others stay', async () => {
    await cichat(['token', 'add', 'alice', '--file', file]);
    await cichat(['token', 'add', 'alice', '--file', file]);
    const bob = await cichat(['token', 'add', 'bob', '--file', file]);
    const bobId = hashToken(bob.stdout.trim()).slice(0, 8);
    const byUser = await cichat(['token', 'rm', 'alice', '--file', file]);
    expect(byUser.code).toBe(0);
    expect(byUser.stdout).toMatch(/^Removed 2 tokens of alice/);
    expect(parseTokenFile(await fs.readFile(file, 'utf8')).entries.map((e) => e.userId)).toEqual(['bob']);
    const carol = await cichat(['token', 'add', 'carol', '--file', file]);
    const byId = await cichat(['token', 'rm', bobId, '--file', file]);
    expect(byId.stdout).toContain(`Removed 1 token of bob (${bobId})`);
    const left = parseTokenFile(await fs.readFile(file, 'utf8'));
    expect(left.entries).toEqual([{ userId: 'carol', sha256: hashToken(carol.stdout.trim()) }]);
    expect(left.problems).toEqual([]);
    // the created comment went with its token
    expect((await fs.readFile(file, 'utf8')).match(/# created/g)).toHaveLength(1);
    const none = await cichat(['token', 'rm', 'nobody', '--file', file]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('No token of a user or with an id "nobody"');
    const noFile = await cichat(['token', 'list']);
    expect(noFile.code).toBe(2);
  });
});
