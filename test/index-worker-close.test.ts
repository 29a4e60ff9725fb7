/**
 * The HNSW index worker (vectorIndex.ts, WorkerIndexBuilder) closed at any moment: right after
 * it started (inside hnswlib's initIndex), with inserts queued, after a write. Cutting that thread
 * inside an hnswlib call aborts the whole process (FATAL ERROR ... napi_throw, SIGABRT): this
 * file then fails with "a jest worker process was terminated".
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { IndexBuilder, WorkerIndexBuilder, indexWorkerStats } from '../backend/retrieval/vectorIndex.js';

const DIM = 64;
function vectors(n: number, from: number): Float32Array[] {
  return Array.from({ length: n }, (_, i) => Float32Array.from({ length: DIM }, (_, j) => Math.sin((from + i) * 7 + j)));
}

test('builders closed while starting or inserting end their thread, and never abort the process', async () => {
  for (let i = 0; i < 40; i++) {
    const builder = new WorkerIndexBuilder(DIM);
    if (i % 2 === 1) builder.add(vectors(200, i * 1000));
    await new Promise((r) => setTimeout(r, i % 10));
    await builder.close();
    // A closed builder says so instead of hanging.
    await expect(builder.writeTo(path.join(os.tmpdir(), 'never-written.bin'))).rejects.toThrow('index builder closed');
  }
});

test('a builder closed after its write keeps the file whole', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-index-close-'));
  try {
    const builder = new WorkerIndexBuilder(DIM);
    builder.add(vectors(50, 0));
    builder.add(vectors(50, 50));
    await builder.writeTo(path.join(dir, 'a.bin'));
    await builder.close();
    expect(builder.size).toBe(100);
    expect(builder.pointCount).toBe(100);
    expect(fs.statSync(path.join(dir, 'a.bin')).size).toBeGreaterThan(0);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('after a clean write the worker serves the next upload (one thread start), with a fresh index that matches the main thread\'s', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-index-reuse-'));
  try {
    const first = new WorkerIndexBuilder(DIM);
    first.add(vectors(30, 0));
    await first.writeTo(path.join(dir, 'a.bin'));
    await first.close();
    await first.close(); // twice: no hang
    const started = indexWorkerStats.started;
    const second = new WorkerIndexBuilder(DIM);
    second.add(vectors(20, 500));
    await second.writeTo(path.join(dir, 'b.bin'));
    await second.close();
    expect(indexWorkerStats.started).toBe(started);
    // The reused worker began a new index: the second file holds only the second upload's 20.
    expect(second.pointCount).toBe(20);
    const same = new IndexBuilder(DIM);
    same.add(vectors(20, 500));
    await same.writeTo(path.join(dir, 'c.bin'));
    expect(fs.readFileSync(path.join(dir, 'b.bin')).equals(fs.readFileSync(path.join(dir, 'c.bin')))).toBe(true);
    // A builder stopped before its write ends its thread: the next one starts another.
    const stopped = new WorkerIndexBuilder(DIM);
    stopped.add(vectors(10, 0));
    await stopped.close();
    const after = indexWorkerStats.started;
    const third = new WorkerIndexBuilder(DIM);
    third.add(vectors(5, 0));
    await third.writeTo(path.join(dir, 'd.bin'));
    await third.close();
    expect(indexWorkerStats.started).toBe(after + 1);
    // Reused many times, the worker gathers no listeners (MaxListenersExceededWarning at 11).
    for (let i = 0; i < 15; i++) {
      const b = new WorkerIndexBuilder(DIM);
      b.add(vectors(2, i));
      await b.writeTo(path.join(dir, 'e.bin'));
      await b.close();
    }
    expect(indexWorkerStats.idleExitListeners()).toBe(1);
    expect(indexWorkerStats.started).toBe(after + 1);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
