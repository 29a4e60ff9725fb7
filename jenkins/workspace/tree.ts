import type { Dirent } from 'node:fs';
import { lstatSync, promises as fs, readdirSync } from 'node:fs';
import path from 'node:path';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { notFound } from './errors.js';
import { wireName } from './names.js';
import type { WorkspaceTreeNode } from './types.js';

export const DEFAULT_TREE_DEPTH = 4;
export const MAX_TREE_DEPTH = 20;
export const DEFAULT_MAX_NODES = 10_000;
/** Never listed and never walked: they dwarf the sources and say little about a build. */
export const EXCLUDED_NAMES: ReadonlySet<string> = new Set(['.git', 'node_modules', 'target']);
/** Entries handled between two returns to the event loop, so other requests keep flowing. */
const ENTRIES_PER_SLICE = 4096;

export interface TreeOptions {
  /** Levels of entries listed below the workspace root; 4 by default. */
  depth?: number;
  /** Entries listed at most (the root not counted); 10000 by default. */
  maxNodes?: number;
}

interface PendingDirectory {
  node: WorkspaceTreeNode & { children: WorkspaceTreeNode[] };
  /** Bytes when the path holds a name that is not valid UTF-8 (a string would not reach it). */
  abs: string | Buffer;
}

/** A directory entry: its name as it travels (see names.ts) and, when not UTF-8, its bytes. */
interface Entry {
  name: string;
  directory: boolean;
  raw?: Buffer;
}

function byName(a: Entry, b: Entry): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

const SEP = Buffer.from(path.sep);

/**
 * The entries of a directory. Names come as strings (the fast, usual case); only when one was
 * not valid UTF-8 (Node shows U+FFFD, and the string would name no file) or the directory's own
 * path is bytes, the directory is read again as bytes so every name keeps its exact bytes.
 */
function readEntries(abs: string | Buffer): Entry[] {
  if (typeof abs === 'string') {
    const dirents: Dirent[] = readdirSync(abs, { withFileTypes: true });
    if (!dirents.some((e) => e.name.includes('\uFFFD'))) {
      return dirents.map((e) => ({ name: e.name, directory: e.isDirectory() }));
    }
  }
  return readdirSync(abs, { withFileTypes: true, encoding: 'buffer' }).map((e) => {
    const name = wireName(e.name);
    const entry: Entry = { name, directory: e.isDirectory() };
    if (Buffer.byteLength(name) !== e.name.length || Buffer.from(name).compare(e.name) !== 0) entry.raw = e.name;
    return entry;
  });
}

function childPath(abs: string | Buffer, prefix: string, entry: Entry): string | Buffer {
  if (typeof abs === 'string' && entry.raw === undefined) return prefix + entry.name;
  const base = typeof abs === 'string' ? Buffer.from(abs) : abs;
  return Buffer.concat([base, SEP, entry.raw ?? Buffer.from(entry.name)]);
}

/** The size lstat reports (a link's own length), or 0 when the entry vanished meanwhile. */
function entrySize(abs: string | Buffer): number {
  try {
    return lstatSync(abs).size;
  } catch {
    return 0;
  }
}

/**
 * Lists a workspace breadth first, so that when the node cap is reached the shallow levels are
 * complete and the cut falls on the deepest ones. Entries are sorted by name (code-unit order,
 * as `LC_ALL=C ls`); `.git`, `node_modules` and `target` are left out and never read. Symbolic
 * links are listed as files and never followed (directory entry types come from readdir, which
 * does not follow links). A directory whose children were cut, by the cap or because it sits at
 * the depth limit, carries `truncated: true`. Unreadable subdirectories are listed empty.
 *
 * Reads are synchronous in slices of a few thousand entries: per entry that is several times
 * cheaper than the thread-pool round trip of async fs, and the slices keep the event loop free.
 */
export async function workspaceTree(dir: string, options: TreeOptions = {}): Promise<WorkspaceTreeNode> {
  const depth = options.depth ?? DEFAULT_TREE_DEPTH;
  let budget = options.maxNodes ?? DEFAULT_MAX_NODES;
  let rootReal: string;
  try {
    rootReal = await fs.realpath(dir);
    if (!(await fs.stat(rootReal)).isDirectory()) throw new Error('not a directory');
  } catch {
    throw notFound('Workspace not found on this host');
  }
  const root: PendingDirectory['node'] = { name: path.basename(rootReal), type: 'directory', children: [] };
  let level: PendingDirectory[] = [{ node: root, abs: rootReal }];
  let sinceYield = 0;

  for (let d = 1; d <= depth && level.length > 0; d++) {
    const next: PendingDirectory[] = [];
    for (const { node, abs } of level) {
      if (budget <= 0) {
        node.truncated = true;
        continue;
      }
      let entries: Entry[];
      try {
        entries = readEntries(abs);
      } catch {
        if (node === root) throw notFound('Workspace not found on this host');
        continue;
      }
      entries = entries.filter((e) => !EXCLUDED_NAMES.has(e.name)).sort(byName);
      // Plain concatenation: path.join's normalisation costs more than the lstat per entry.
      const prefix = typeof abs !== 'string' ? '' : abs.endsWith(path.sep) ? abs : abs + path.sep;
      if (entries.length > budget) {
        node.truncated = true;
        entries = entries.slice(0, budget);
      }
      budget -= entries.length;
      for (const entry of entries) {
        const childAbs = childPath(abs, prefix, entry);
        if (entry.directory) {
          const child: PendingDirectory['node'] = { name: entry.name, type: 'directory', children: [] };
          node.children.push(child);
          next.push({ node: child, abs: childAbs });
        } else {
          node.children.push({ name: entry.name, type: 'file', size: entrySize(childAbs) });
        }
      }
      sinceYield += entries.length + 1;
      if (sinceYield >= ENTRIES_PER_SLICE) {
        sinceYield = 0;
        await yieldToEventLoop();
      }
    }
    level = next;
  }
  // Directories at the depth limit were not read: their children, if any, were cut.
  for (const { node } of level) node.truncated = true;
  return root;
}
