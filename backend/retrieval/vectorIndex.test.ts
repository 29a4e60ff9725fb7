import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deleteChatIndex, indexDir, VectorIndexCache } from './vectorIndex.js';
import type { IndexTarget } from './vectorIndex.js';

/** Random unit vectors, reproducible. */
function vectors(n: number, dim: number, seed = 1): Float32Array[] {
  let s = seed;
  const rand = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32) - 0.5;
  return Array.from({ length: n }, () => {
    const v = Float32Array.from({ length: dim }, rand);
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  });
}

describe('VectorIndexCache', () => {
  let dataDir: string;
  const dim = 32;
  const data = vectors(200, dim);
  const target: IndexTarget = { chatId: 7, contextId: 3, uploadedAt: 1_700_000_000_000, embedderId: 'test-32', dim, count: 200 };
  let loads = 0;
  const load = async () => {
    loads++;
    return data;
  };

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-index-'));
    loads = 0;
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  const files = () => fs.readdirSync(indexDir(dataDir)).sort();

  test('builds from the database vectors once, writes the file and a sidecar, then serves from memory', async () => {
    const cache = new VectorIndexCache(dataDir);
    const first = await cache.open(target, load);
    expect(first.source).toBe('rebuilt');
    expect(files()).toEqual(['chat-7-ctx-3.hnsw', 'chat-7.json']);
    const meta = JSON.parse(fs.readFileSync(path.join(indexDir(dataDir), 'chat-7.json'), 'utf8'));
    expect(meta).toMatchObject({ chatId: 7, contextId: 3, dim, embedderId: 'test-32', count: 200, file: 'chat-7-ctx-3.hnsw' });
    expect((await cache.open(target, load)).source).toBe('memory');
    expect(loads).toBe(1);
  });

  test('finds the nearest vectors (each vector is its own nearest neighbour)', async () => {
    const cache = new VectorIndexCache(dataDir);
    for (const label of [0, 57, 199]) {
      const [best] = await cache.search(target, load, data[label]!, 3);
      expect(best!.label).toBe(label);
      expect(best!.similarity).toBeCloseTo(1, 4);
    }
    // k above the number of vectors is clamped, not an error.
    expect(await cache.search(target, load, data[0]!, 1000)).toHaveLength(200);
  });

  test('another process (a new cache) loads the file without touching the database', async () => {
    await new VectorIndexCache(dataDir).open(target, load);
    const other = new VectorIndexCache(dataDir);
    const opened = await other.open(target, load);
    expect(opened.source).toBe('file');
    expect(loads).toBe(1);
    const [best] = await other.search(target, load, data[42]!, 1);
    expect(best!.label).toBe(42);
  });

  test.each([
    ['missing', (dir: string) => fs.rmSync(path.join(dir, 'chat-7-ctx-3.hnsw'))],
    ['truncated', (dir: string) => fs.truncateSync(path.join(dir, 'chat-7-ctx-3.hnsw'), 100)],
    [
      'corrupt',
      (dir: string) => {
        const file = path.join(dir, 'chat-7-ctx-3.hnsw');
        const bytes = fs.readFileSync(file);
        bytes.fill(0xff, 0, 64);
        fs.writeFileSync(file, bytes);
      },
    ],
    ['garbage sidecar', (dir: string) => fs.writeFileSync(path.join(dir, 'chat-7.json'), '{not json')],
    ['sidecar gone', (dir: string) => fs.rmSync(path.join(dir, 'chat-7.json'))],
    [
      'replaced by a directory',
      (dir: string) => {
        const file = path.join(dir, 'chat-7-ctx-3.hnsw');
        fs.rmSync(file);
        fs.mkdirSync(path.join(file, 'inside'), { recursive: true });
        fs.writeFileSync(path.join(file, 'inside', 'x'), 'x');
      },
    ],
    [
      'a sidecar replaced by a directory',
      (dir: string) => {
        fs.rmSync(path.join(dir, 'chat-7.json'));
        fs.mkdirSync(path.join(dir, 'chat-7.json'));
      },
    ],
    [
      'replaced by a symbolic link',
      (dir: string) => {
        const file = path.join(dir, 'chat-7-ctx-3.hnsw');
        fs.renameSync(file, path.join(dir, '..', 'elsewhere.hnsw'));
        fs.symlinkSync(path.join(dir, '..', 'elsewhere.hnsw'), file);
      },
    ],
  ])('rebuilds from the database when the file is %s', async (_name, damage) => {
    await new VectorIndexCache(dataDir).open(target, load);
    damage(indexDir(dataDir));
    const fresh = new VectorIndexCache(dataDir);
    const opened = await fresh.open(target, load);
    expect(opened.source).toBe('rebuilt');
    expect(loads).toBe(2);
    const [best] = await fresh.search(target, load, data[10]!, 1);
    expect(best!.label).toBe(10);
    // The rebuilt file is good again for the next process: a regular file, not what replaced it.
    expect(fs.lstatSync(path.join(indexDir(dataDir), 'chat-7-ctx-3.hnsw')).isFile()).toBe(true);
    expect(fs.lstatSync(path.join(indexDir(dataDir), 'chat-7.json')).isFile()).toBe(true);
    expect((await new VectorIndexCache(dataDir).open(target, load)).source).toBe('file');
  });

  test('rebuilds when the file was built by another embedder, dimension or an older upload', async () => {
    await new VectorIndexCache(dataDir).open(target, load);
    const data16 = vectors(200, 16, 5);
    const otherDim: IndexTarget = { ...target, embedderId: 'test-16', dim: 16 };
    expect((await new VectorIndexCache(dataDir).open(otherDim, async () => data16)).source).toBe('rebuilt');

    const newer: IndexTarget = { ...target, contextId: 4, uploadedAt: target.uploadedAt + 1000, count: 50 };
    const newerData = vectors(50, dim, 9);
    const cache = new VectorIndexCache(dataDir);
    expect((await cache.open(newer, async () => newerData)).source).toBe('rebuilt');
    // The older context's file is gone; only the newest remains.
    expect(files()).toEqual(['chat-7-ctx-4.hnsw', 'chat-7.json']);
    const [best] = await cache.search(newer, async () => newerData, newerData[3]!, 1);
    expect(best!.label).toBe(3);
  });

  test('concurrent opens of one index build it once', async () => {
    const cache = new VectorIndexCache(dataDir);
    const results = await Promise.all([cache.open(target, load), cache.open(target, load), cache.open(target, load)]);
    expect(loads).toBe(1);
    expect(new Set(results.map((r) => r.index)).size).toBe(1);
  });

  test('refuses vectors that do not match the expected count', async () => {
    const cache = new VectorIndexCache(dataDir);
    await expect(cache.open({ ...target, count: 201 }, load)).rejects.toThrow(/200 vectors, expected 201/);
  });

  test('an empty context searches to nothing without building', async () => {
    const cache = new VectorIndexCache(dataDir);
    expect(await cache.search({ ...target, count: 0 }, load, data[0]!, 5)).toEqual([]);
    expect(loads).toBe(0);
  });

  test('deleteChatIndex removes the chat files and only them', async () => {
    const cache = new VectorIndexCache(dataDir);
    await cache.open(target, load);
    await cache.open({ ...target, chatId: 70 }, load);
    await deleteChatIndex(dataDir, 7);
    expect(files()).toEqual(['chat-70-ctx-3.hnsw', 'chat-70.json']);
    await deleteChatIndex(dataDir, 12345); // nothing there: fine
    await cache.delete(70);
    expect(files()).toEqual([]);
    await deleteChatIndex(path.join(dataDir, 'nowhere'), 1); // no index dir at all: fine
  });
});
