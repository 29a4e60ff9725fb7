/**
 * Client JSON nested thousands of levels deep (30 KB of brackets) is a 422 naming the depth
 * limit on every body-reading route of the backend, on both dialects, never a 500 from a
 * recursive walk; a context nested up to the limit is stored.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { withoutNulls } from '../protocol/schemas.js';
import { maskDeep } from '../backend/retrieval/ingest.js';
import { MAX_JSON_DEPTH } from '../http/depth.js';
import { testDialects } from './helpers/databases.js';
import { startTestBackend, type TestBackend } from './helpers/backend.js';
import { scriptedEngine } from './helpers/engines.js';

const dialects = await testDialects();

/** `{"ciContext": {"x": {"x": ... }}}` with `levels` objects under ciContext. */
function nestedContext(levels: number): string {
  return `{"ciContext":{"currentScreen":"Dashboard","deep":${'{"x":'.repeat(levels)}1${'}'.repeat(levels)}}}`;
}

describe('withoutNulls', () => {
  test('drops nulls and undefined at every level (arrays too), and survives 15000 levels', () => {
    expect(withoutNulls({ a: null, b: { c: null, d: [null, { e: null, f: 1 }, undefined, 2] } })).toEqual({ b: { d: [{ f: 1 }, 2] } });
    const deep = JSON.parse('['.repeat(15000) + ']'.repeat(15000)) as unknown;
    expect(() => withoutNulls(deep)).not.toThrow();
  });
});

describe('maskDeep', () => {
  test('masks every string at every level, keeps keys and other values, and survives 15000 levels', () => {
    const masked = maskDeep({ a: ['token=ghp_abcdefghijklmnopqrstuvwxyz0123456789', 1, null, { b: 'plain' }], ghp_key: true });
    expect(JSON.stringify(masked)).not.toContain('ghp_abcdefghij');
    expect(masked).toMatchObject({ a: [expect.stringContaining('****'), 1, null, { b: 'plain' }], ghp_key: true });
    const deep = JSON.parse('['.repeat(15000) + ']'.repeat(15000)) as unknown;
    expect(() => maskDeep(deep)).not.toThrow();
  });
});

describe.each(dialects)('deeply nested bodies on $name', (dialect) => {
  let backend: TestBackend;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-deep-'));
    backend = await startTestBackend(dialect, {
      dataDir,
      deps: {
        engine: scriptedEngine({}),
      },
    });
  });
  afterAll(async () => {
    await backend?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('a 30 KB nested context body is 422 naming the limit; nothing is stored', async () => {
    const chat = (await (await backend.request('deep', 'POST', '/chats/', { title: 'deep' })).json()) as { id: number };
    const body = nestedContext(5000);
    expect(body.length).toBeGreaterThan(30_000);
    const res = await backend.request('deep', 'POST', `/context/${chat.id}/`, body);
    expect(res.status).toBe(422);
    const { detail } = (await res.json()) as { detail: string };
    expect(detail).toContain(`limit is ${MAX_JSON_DEPTH}`);
    const last = (await (await backend.request('deep', 'GET', `/context/${chat.id}/last-upload`)).json()) as { last_upload_at: unknown };
    expect(last.last_upload_at).toBeNull();
    const arrays = `{"ciContext":${'['.repeat(15000)}${']'.repeat(15000)}}`;
    const res2 = await backend.request('deep', 'POST', `/context/${chat.id}/`, arrays);
    expect(res2.status).toBe(422);
  });

  test('a context nested to the limit is stored and echoed', async () => {
    const chat = (await (await backend.request('deep', 'POST', '/chats/', { title: 'deep' })).json()) as { id: number };
    // body -> ciContext -> deep -> ... : MAX_JSON_DEPTH levels in all.
    const res = await backend.request('deep', 'POST', `/context/${chat.id}/`, nestedContext(MAX_JSON_DEPTH - 2));
    expect(res.status).toBe(200);
    const res2 = await backend.request('deep', 'POST', `/context/${chat.id}/`, nestedContext(MAX_JSON_DEPTH - 1));
    expect(res2.status).toBe(422);
  });

  test('the other body routes refuse a deep body the same way', async () => {
    const deep = `{"title":"t","x":${'['.repeat(10000)}${']'.repeat(10000)}}`;
    for (const [method, path] of [
      ['POST', '/chats/'],
      ['POST', '/messages/send'],
      ['PUT', '/chats/1/title'],
    ] as const) {
      const res = await backend.request('deep', method, path, deep);
      expect([path, res.status]).toEqual([path, 422]);
      expect(((await res.json()) as { detail: string }).detail).toContain(`limit is ${MAX_JSON_DEPTH}`);
    }
  });
});
