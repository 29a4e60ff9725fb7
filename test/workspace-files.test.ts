import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WorkspaceError } from '../jenkins/workspace/errors.js';
import { MAX_FILE_CHARS, TRUNCATION_MARK, readWorkspaceFile } from '../jenkins/workspace/file.js';
import { relativePathSegments } from '../jenkins/workspace/pathguard.js';
import { workspaceTree } from '../jenkins/workspace/tree.js';
import type { WorkspaceTreeNode } from '../jenkins/workspace/types.js';
import { writeFiles } from './fixtures/workspace-homes/fixture.js';

let root: string;
let ws: string;
const SECRET = 'outside-secret-7f1c9e';

beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cichat-wsf-')));
  ws = path.join(root, 'ws');
  await writeFiles(root, { 'secret.txt': SECRET, 'outside/inner.txt': SECRET });
  await writeFiles(ws, {
    'README.md': '# hello\n',
    'b.txt': 'bb',
    'B.txt': 'upper',
    'src/main/App.java': 'class App {}',
    'src/main/deep/er/file.txt': 'deep',
    '.git/HEAD': 'ref: refs/heads/main',
    'node_modules/left-pad/index.js': 'x',
    'target/classes/App.class': 'x',
    'sub/node_modules/x.js': 'x',
    '.hidden': 'h',
  });
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

async function failure(promise: Promise<unknown>): Promise<WorkspaceError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof WorkspaceError) return err;
    throw err;
  }
  throw new Error('expected a WorkspaceError');
}

function names(node: WorkspaceTreeNode | undefined): string[] {
  return (node?.children ?? []).map((c) => c.name);
}
function child(node: WorkspaceTreeNode | undefined, name: string): WorkspaceTreeNode | undefined {
  return node?.children?.find((c) => c.name === name);
}

describe('workspaceTree', () => {
  it('lists sorted entries with sizes, leaving .git, node_modules and target out', async () => {
    const tree = await workspaceTree(ws);
    expect(tree).toMatchObject({ name: 'ws', type: 'directory' });
    expect(names(tree)).toEqual(['.hidden', 'B.txt', 'README.md', 'b.txt', 'src', 'sub']);
    expect(child(tree, 'README.md')).toEqual({ name: 'README.md', type: 'file', size: 8 });
    expect(names(child(tree, 'sub'))).toEqual([]);
    const main = child(child(tree, 'src'), 'main');
    expect(names(main)).toEqual(['App.java', 'deep']);
    // depth 4: src/main/deep/er is listed, its children are not
    const er = child(child(main, 'deep'), 'er');
    expect(er).toEqual({ name: 'er', type: 'directory', children: [], truncated: true });
    expect(JSON.stringify(tree)).not.toMatch(/HEAD|left-pad|App\.class|"\.git"|"node_modules"|"target"/);
  });

  it('does not count the excluded folders against the node cap', async () => {
    await writeFiles(ws, Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`node_modules/m${i}/index.js`, 'x'])));
    const tree = await workspaceTree(ws, { maxNodes: 6 });
    expect(names(tree)).toEqual(['.hidden', 'B.txt', 'README.md', 'b.txt', 'src', 'sub']);
    expect(tree.truncated).toBeUndefined();
  });

  it('honours depth', async () => {
    const one = await workspaceTree(ws, { depth: 1 });
    expect(child(one, 'src')).toEqual({ name: 'src', type: 'directory', children: [], truncated: true });
    const two = await workspaceTree(ws, { depth: 2 });
    expect(names(child(two, 'src'))).toEqual(['main']);
    expect(child(child(two, 'src'), 'main')?.truncated).toBe(true);
  });

  it('caps the node count breadth first and marks the cut directories', async () => {
    await writeFiles(ws, Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`many/f${String(i).padStart(2, '0')}`, 'x'])));
    const tree = await workspaceTree(ws, { maxNodes: 10 });
    // level 1: 7 entries, then 3 of the 30 in many/, nothing deeper
    expect(names(tree)).toEqual(['.hidden', 'B.txt', 'README.md', 'b.txt', 'many', 'src', 'sub']);
    expect(tree.truncated).toBeUndefined();
    expect(names(child(tree, 'many'))).toEqual(['f00', 'f01', 'f02']);
    expect(child(tree, 'many')?.truncated).toBe(true);
    expect(child(tree, 'src')).toEqual({ name: 'src', type: 'directory', children: [], truncated: true });
    let count = 0;
    const walk = (n: WorkspaceTreeNode): void => n.children?.forEach((c) => { count++; walk(c); });
    walk(tree);
    expect(count).toBe(10);

    const cut = await workspaceTree(ws, { maxNodes: 3 });
    expect(names(cut)).toEqual(['.hidden', 'B.txt', 'README.md']);
    expect(cut.truncated).toBe(true);
  });

  it('lists symbolic links as files and never follows them', async () => {
    await fs.symlink(path.join(root, 'outside'), path.join(ws, 'link-dir'));
    await fs.symlink('../secret.txt', path.join(ws, 'link-file'));
    await fs.symlink('loop', path.join(ws, 'loop'));
    const tree = await workspaceTree(ws, { depth: 20 });
    expect(child(tree, 'link-dir')).toEqual({ name: 'link-dir', type: 'file', size: path.join(root, 'outside').length });
    expect(child(tree, 'link-file')).toEqual({ name: 'link-file', type: 'file', size: '../secret.txt'.length });
    expect(child(tree, 'loop')?.type).toBe('file');
    expect(JSON.stringify(tree)).not.toContain('inner.txt');
  });

  it('404 for a workspace that is not there', async () => {
    expect((await failure(workspaceTree(path.join(root, 'nope')))).status).toBe(404);
    expect((await failure(workspaceTree(path.join(ws, 'README.md')))).status).toBe(404);
  });
});

describe('relativePathSegments', () => {
  it.each([
    ['../secret.txt', 'segment'],
    ['src/../../secret.txt', 'segment'],
    ['..', 'segment'],
    ['/etc/passwd', 'absolute'],
    ['C:/Windows/win.ini', 'drive letter'],
    ['c:secret', 'drive letter'],
    ['src\\..\\x', 'backslash'],
    ['a\0b', 'NUL'],
    ['%2e%2e/secret.txt', 'segment'],
    ['..%2fsecret.txt', 'segment'],
    ['%252e%252e%252fsecret.txt', 'segment'],
    ['%25252e%25252e/x', 'segment'],
    ['%2fetc%2fpasswd', 'absolute'],
    ['a%00b', 'NUL'],
    ['%5c..%5cx', 'backslash'],
    ['%c0%ae%c0%ae/x', 'malformed'],
    ['file:///etc/passwd', 'URL'],
  ])('refuses %j (%s)', (input, why) => {
    let error: unknown;
    try {
      relativePathSegments(input);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(WorkspaceError);
    expect((error as WorkspaceError).status).toBe(400);
    expect((error as WorkspaceError).message).toContain('Path traversal');
    expect((error as WorkspaceError).message).toContain(why);
  });

  it('accepts ordinary relative paths, dots inside names included', () => {
    expect(relativePathSegments('src/./main/App.java')).toEqual(['src', 'main', 'App.java']);
    expect(relativePathSegments('....//x')).toEqual(['....', 'x']);
    expect(relativePathSegments('a..b/.env')).toEqual(['a..b', '.env']);
    expect(relativePathSegments('100%.txt')).toEqual(['100%.txt']);
  });
});

describe('readWorkspaceFile', () => {
  it('reads a file', async () => {
    expect(await readWorkspaceFile(ws, 'src/main/App.java')).toBe('class App {}');
    expect(await readWorkspaceFile(ws, './README.md')).toBe('# hello\n');
  });

  it('keeps exactly 50000 characters, and cuts above with the mark', async () => {
    await writeFiles(ws, { 'exact.txt': 'a'.repeat(MAX_FILE_CHARS), 'over.txt': 'a'.repeat(MAX_FILE_CHARS) + 'b' });
    expect(await readWorkspaceFile(ws, 'exact.txt')).toBe('a'.repeat(MAX_FILE_CHARS));
    expect(await readWorkspaceFile(ws, 'over.txt')).toBe('a'.repeat(MAX_FILE_CHARS) + TRUNCATION_MARK);
    expect(TRUNCATION_MARK).toBe('\n\n[FILE TRUNCATED]');
  });

  it.each([
    ['2-byte', 'é'],
    ['3-byte', '€'],
    ['4-byte (surrogate pair)', '😀'],
  ])('counts %s characters, never cutting one', async (_kind, ch) => {
    // An odd ASCII prefix moves every boundary off the byte and UTF-16 alignments.
    const text = 'x' + ch.repeat(MAX_FILE_CHARS + 10);
    await writeFiles(ws, { 'multi.txt': text });
    const content = await readWorkspaceFile(ws, 'multi.txt');
    expect(content.endsWith(TRUNCATION_MARK)).toBe(true);
    const kept = content.slice(0, -TRUNCATION_MARK.length);
    expect([...kept].length).toBe(MAX_FILE_CHARS);
    expect(kept).toBe('x' + ch.repeat(MAX_FILE_CHARS - 1));
    expect(kept).not.toContain('\uFFFD');
  });

  it('reads only the head of a huge file (1 GiB, sparse)', async () => {
    const file = path.join(ws, 'huge.log');
    await fs.writeFile(file, 'line of log\n'.repeat(30_000));
    await fs.truncate(file, 1024 ** 3);
    // The tail is all NUL bytes: scanning or decoding it would call the file binary or fill
    // memory; only the head is read.
    const content = await readWorkspaceFile(ws, 'huge.log');
    expect(content).toBe('line of log\n'.repeat(30_000).slice(0, MAX_FILE_CHARS) + TRUNCATION_MARK);
  });

  it('refuses binary files (NUL in the first 8 KiB) with 415, but not a NUL after that', async () => {
    await writeFiles(ws, {
      'app.bin': Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x00, 0x01]),
      'late-nul.txt': Buffer.concat([Buffer.from('t'.repeat(8192)), Buffer.from([0])]),
    });
    const err = await failure(readWorkspaceFile(ws, 'app.bin'));
    expect(err.status).toBe(415);
    expect(await readWorkspaceFile(ws, 'late-nul.txt')).toBe('t'.repeat(8192) + '\0');
  });

  it('reads a file that is not UTF-8 as Windows-1252, or in the encoding its XML declaration names, never as U+FFFD (ux3, session 42)', async () => {
    await writeFiles(ws, {
      'latin1.txt': Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x80, 0x0a]),
      'pom.xml': Buffer.from("<?xml version='1.0' encoding='ISO-8859-1'?>\n<name>Résumé</name>\n", 'latin1'),
    });
    expect(await readWorkspaceFile(ws, 'latin1.txt')).toBe('café €\n');
    expect(await readWorkspaceFile(ws, 'pom.xml')).toBe("<?xml version='1.0' encoding='ISO-8859-1'?>\n<name>Résumé</name>\n");
  });

  it('does not serve files under .git (a remote URL may carry a token)', async () => {
    const err = await failure(readWorkspaceFile(ws, '.git/HEAD'));
    expect(err.status).toBe(400);
    expect(await readWorkspaceFile(ws, 'target/classes/App.class')).toBe('x');
  });

  it('404 for a missing file, 400 for a directory', async () => {
    expect((await failure(readWorkspaceFile(ws, 'nope.txt'))).status).toBe(404);
    expect((await failure(readWorkspaceFile(ws, 'README.md/x'))).status).toBe(404);
    expect((await failure(readWorkspaceFile(ws, 'src'))).status).toBe(400);
  });

  it('follows links that stay inside, refuses those that leave', async () => {
    await fs.symlink('src/main/App.java', path.join(ws, 'inside-link'));
    await fs.symlink(path.join(root, 'secret.txt'), path.join(ws, 'abs-link'));
    await fs.symlink('../secret.txt', path.join(ws, 'rel-link'));
    await fs.symlink(path.join(root, 'outside'), path.join(ws, 'dir-link'));
    await fs.symlink('self', path.join(ws, 'self'));
    expect(await readWorkspaceFile(ws, 'inside-link')).toBe('class App {}');
    for (const p of ['abs-link', 'rel-link', 'dir-link/inner.txt', 'self']) {
      const err = await failure(readWorkspaceFile(ws, p));
      expect(err.status).toBe(400);
      expect(err.message).toContain('Path traversal');
    }
  });

  it('works when the workspace itself is reached through a link', async () => {
    await fs.symlink(ws, path.join(root, 'ws-link'));
    expect(await readWorkspaceFile(path.join(root, 'ws-link'), 'b.txt')).toBe('bb');
    const err = await failure(readWorkspaceFile(path.join(root, 'ws-link'), '../secret.txt'));
    expect(err.message).toContain('Path traversal');
  });

  it('refuses a FIFO without blocking', async () => {
    const { execFileSync } = await import('node:child_process');
    execFileSync('mkfifo', [path.join(ws, 'pipe')]);
    expect((await failure(readWorkspaceFile(ws, 'pipe'))).status).toBe(415);
  });
});
