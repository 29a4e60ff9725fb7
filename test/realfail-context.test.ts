/**
 * The kept real-failure contexts (test/helpers/realfailContext.ts) can never serve what the code
 * under test would not make: their directory is named by a hash of every source file, so a
 * changed, added or removed source makes a new one; and what they hold is what the analyzer,
 * the CLI's snippets and the offline engine's answers give now.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cleanLines } from '../core/log/clean.js';
import { snippetsFromDir } from '../cli/snippets.js';
import { analyzedExcerpts } from './answerFixtures.js';
import { REALFAIL_ROOT, TUNED_CASES } from './helpers/realfail.js';
import { codeDirName, realfailContext, realfailExcerpts } from './helpers/realfailContext.js';
import { realfailAnswer } from './helpers/realfailAnswer.js';
import { composeLocalAnswer } from '../backend/answer/local/index.js';

describe('the kept contexts directory', () => {
  let root: string;
  const write = (rel: string, text: string): void => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  };
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-rfc-'));
    write('core/log/analyze.ts', 'export const a = 1;\n');
    write('backend/answer/local/index.ts', 'export const b = 2;\n');
    write('core/data/table.json', '{"x":1}\n');
    write('test/answerFixtures.ts', 'export {};\n');
    write('test/helpers/realfailContext.ts', 'export {};\n');
    write('test/helpers/realfail.ts', 'export {};\n');
    write('package-lock.json', '{}\n');
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('is named afresh when a source file changes, is added or goes, or a helper or the lock file changes', () => {
    const first = codeDirName(root);
    expect(codeDirName(root)).toBe(first);
    const changes: Array<[string, () => void]> = [
      ['a source edited', () => write('core/log/analyze.ts', 'export const a = 2;\n')],
      ['a source added', () => write('jenkins/new.ts', 'export {};\n')],
      ['a data file edited', () => write('core/data/table.json', '{"x":2}\n')],
      ['a source removed', () => fs.rmSync(path.join(root, 'backend/answer/local/index.ts'))],
      ['the context helper edited', () => write('test/helpers/realfailContext.ts', 'export const c = 3;\n')],
      ['the lock file edited', () => write('package-lock.json', '{"v":1}\n')],
    ];
    const seen = new Set([first]);
    for (const [what, change] of changes) {
      change();
      const name = codeDirName(root);
      expect([what, seen.has(name)]).toEqual([what, false]);
      seen.add(name);
    }
  });

  it('is the same when only a test file changes (not an input of a context)', () => {
    const first = codeDirName(root);
    write('core/log/analyze.test.ts', 'it("x", () => {});\n');
    expect(codeDirName(root)).toBe(first);
  });
});

describe('what is kept is what the code makes now', () => {
  const ids = TUNED_CASES.filter((_, i) => i % Math.max(1, Math.floor(TUNED_CASES.length / 12)) === 0);
  const json = (v: unknown): unknown => JSON.parse(JSON.stringify(v));

  it.each(ids)('%s: the excerpts are the analyzer\'s, the snippets the CLI\'s', async (id) => {
    const log = fs.readFileSync(path.join(REALFAIL_ROOT, id, 'fail.log'), 'utf8');
    const { excerpts } = await realfailExcerpts(id);
    expect(excerpts).toEqual(json(analyzedExcerpts(cleanLines(log))));
    const { ctx } = await realfailContext(id, true);
    expect(ctx.failureExcerpts).toEqual(excerpts);
    const snippets = await snippetsFromDir(path.join(REALFAIL_ROOT, id, 'project'), log);
    expect(ctx.ciContext.workspaceSnippets ?? []).toEqual(json(snippets));
  });

  it.each(ids)("%s: the kept answers to \"why?\" and \"how do I fix it?\" are the ones the engine composes now", async (id) => {
    for (const withWorkspace of [false, true]) {
      const { ctx } = await realfailContext(id, withWorkspace);
      for (const q of ['Why did the build fail?', 'How do I fix it?'] as const) {
        expect([q, withWorkspace, await realfailAnswer(id, q, withWorkspace)]).toEqual([q, withWorkspace, (await composeLocalAnswer(q, ctx)).text]);
      }
    }
  });

  it('reads no case that is not tuned', async () => {
    await expect(realfailExcerpts('no-such-case')).rejects.toThrow(/not a tuned case/);
    await expect(realfailAnswer('no-such-case', 'Why did the build fail?', false)).rejects.toThrow(/not a tuned case/);
  });
});
