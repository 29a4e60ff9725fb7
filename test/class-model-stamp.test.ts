/**
 * The class model table's stamp (scripts/classModelStamp.ts): the staleness test of
 * test/findings-realfail.test.ts trusts a table whose stamp holds without making it again, so the
 * stamp must change with anything the table is made from: every module the making loads, the
 * packages, Node, each tuned case's files; and with the table's own text. Held-out cases are never
 * among its inputs. The landed stamp must hold for the code and cases here (Node's version aside): a stale one fails
 * here, naming the command, instead of costing every run the making again in silence.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { classTokens } from '../core/finding/classModel.js';
import type { Finding } from '../protocol/types.js';
import { inputsHash, inputsNow, landed, modelCaseFiles, modelModules, stampOf, stampProblem, TABLE_MODULE } from '../scripts/classModelStamp.js';
import { TUNED_CASES } from './helpers/realfail.js';

const ROOT = process.cwd();

/** The repository-relative files `file` imports by a relative specifier (static, dynamic, re-exports), as .ts sources. */
function relativeImports(file: string): string[] {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  const out: string[] = [];
  // A statement at a line's start (its names may span lines, never a quote), a bare import, or import('...').
  for (const m of text.matchAll(/^(?:(import|export)\s+(type\s)?[^'"`;]*?from\s*|import\s*)'(\.{1,2}\/[^']+)'|\bimport\(\s*'(\.{1,2}\/[^']+)'\s*\)/gm)) {
    if (m[2] !== undefined) continue; // `import type`: erased, it loads nothing
    const target = path.join(path.dirname(file), (m[3] ?? m[4])!).replace(/\.js$/, '');
    out.push(['.ts', '.tsx', '.js', '.mjs', '.json', ''].map((ext) => target + ext).find((t) => existsSync(path.join(ROOT, t))) ?? target);
  }
  return out;
}

describe('the class model table stamp', () => {
  let modules: string[];
  beforeAll(async () => {
    modules = await modelModules();
  });

  it('holds every module making the table loads: the making itself, the analyzer, the loader of the cases, and what they import', () => {
    for (const f of ['scripts/classModelData.ts', 'bench/realCases.ts', 'core/log/analyze.ts', 'core/log/baseline.ts', 'core/log/clean.ts', 'core/finding/classModel.ts', 'core/finding/index.ts', 'protocol/types.ts']) {
      expect([f, modules.includes(f)]).toEqual([f, true]);
    }
    // The cases' loader lives apart from the answer benches: an answer change leaves the stamp holding.
    expect(modules.filter((m) => /^(?:backend|cli|controller|jenkins)\/|^bench\/findings\.ts$/.test(m))).toEqual([]);
    // The same graph read here without esbuild: what the modules import, and the making itself; no module of ours is
    // left out but the table's own (classModel.ts imports it; it is what the making writes, hashed apart in the stamp).
    const reached = new Set(['scripts/classModelData.ts', ...modules.flatMap(relativeImports)]);
    expect(reached.has(TABLE_MODULE)).toBe(true);
    expect(modules).not.toContain(TABLE_MODULE);
    expect([...reached].filter((f) => f !== TABLE_MODULE).sort()).toEqual(modules);
  });

  it('follows every kind of import, and nothing that is not imported (a made-up graph)', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'cichat-stamp-graph-'));
    try {
      const files: Record<string, string> = {
        'entry.ts': "import { a } from './a.js';\nimport type { T } from './types.js';\nimport './side.js';\nexport * from './reexp.js';\nexport const later = (): Promise<unknown> => import('./lazy.js');\nexport const t: T | number = a;\n",
        'a.ts': "export { b } from './sub/b.js';\nimport { CLASS_MODEL } from './core/finding/classModelTable.js';\nexport const a = CLASS_MODEL.n;\n",
        'sub/b.ts': "import data from '../data.json';\nexport const b = data.n;\n",
        'data.json': '{ "n": 1 }\n',
        'core/finding/classModelTable.ts': 'export const CLASS_MODEL = { n: 2 };\n',
        'types.ts': 'export type T = string;\n',
        'side.ts': 'globalThis.toString();\n',
        'reexp.ts': 'export const r = 3;\n',
        'lazy.ts': 'export const l = 4;\n',
        'unrelated.ts': "export const u = 5;\n",
      };
      for (const [f, text] of Object.entries(files)) {
        mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
        writeFileSync(path.join(root, f), text);
      }
      // A static, a re-exported, a side-effect, a dynamic and a JSON import each reach a file; a type-only import and
      // a file no one imports do not; the table's own module is left out though imported.
      expect(await modelModules(root, 'entry.ts')).toEqual(['a.ts', 'data.json', 'entry.ts', 'lazy.ts', 'reexp.ts', 'side.ts', 'sub/b.ts']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('no module of the making reads a file or imports one by a computed path, but the cases\' loader (its cases are hashed)', () => {
    const reading = modules.filter((f) => /\b(?:readFileSync|readFile|readdirSync|readdir|createReadStream|openSync|require)\s*\(|\bimport\(\s*[^'"\s)]/.test(readFileSync(path.join(ROOT, f), 'utf8')));
    expect(reading).toEqual(['bench/realCases.ts']);
  });

  it("the landed table is no input of the making: a finding's likely class is not among the model's tokens", () => {
    const lines = ['+ ./deploy.sh', 'rollout: step 3 of 5 did not settle', 'ERROR: script returned exit code 1'];
    const f: Finding = { class: 'unknown', message: lines[1] as string, message_line: 2, confidence: 'low', evidence: [2] };
    const guessed: Finding = { ...f, likely_class: { class: 'timeout-aborted', probability: 0.95, words: ['settle'] } };
    expect(classTokens(lines, { start_line: 1, end_line: 3 }, guessed)).toEqual(classTokens(lines, { start_line: 1, end_line: 3 }, f));
  });

  it('holds each tuned case (expected.json, fail.log, pass.log) and no held-out case', () => {
    const files = modelCaseFiles();
    const ids = [...new Set(files.map((f) => f.split('/')[3]!))];
    expect(ids).toEqual([...TUNED_CASES].sort());
    expect(files.length).toBe(3 * TUNED_CASES.length);
  });

  it('changes with a file edited, added or missing, and with the table; not otherwise', () => {
    const files = ['a.ts', 'b.ts', 'case/fail.log'];
    const bytes = new Map<string, string>([['a.ts', 'export const a = 1;'], ['b.ts', 'export const b = 2;'], ['case/fail.log', 'error: x']]);
    const read = (m: Map<string, string>) => (f: string): string | undefined => m.get(f);
    const base = inputsHash(files, read(bytes));
    expect(inputsHash(files, read(new Map(bytes)))).toBe(base);
    expect(inputsHash(files, read(new Map([...bytes, ['b.ts', 'export const b = 3;']])))).not.toBe(base);
    expect(inputsHash(files, read(new Map([...bytes, ['case/fail.log', 'error: y']])))).not.toBe(base);
    expect(inputsHash([...files, 'c.ts'], read(new Map([...bytes, ['c.ts', '']])))).not.toBe(base);
    expect(inputsHash(files, read(new Map([...bytes].filter(([f]) => f !== 'a.ts'))))).not.toBe(base);
    // A file's bytes cannot pass for its neighbour's name.
    expect(inputsHash(['a.ts', 'b.ts'], read(new Map([['a.ts', 'x'], ['b.ts', 'y']])))).not.toBe(inputsHash(['a.ts', 'b.ts'], read(new Map([['a.ts', 'xb.ts'], ['b.ts', 'y']]))));
    expect(stampOf('table', base)).toBe(stampOf('table', base));
    expect(stampOf('table edited', base)).not.toBe(stampOf('table', base));
    expect(stampOf('table', inputsHash(files, read(new Map([...bytes, ['a.ts', '']]))))).not.toBe(stampOf('table', base));
    expect(stampOf('table', base, 'v22.0.0')).not.toBe(stampOf('table', base, 'v24.0.0'));
  });

  it('the landed stamp holds for the code and cases here, Node\'s version aside (else: run `npm run class-model`)', async () => {
    const { stamp, table } = landed();
    expect(stampProblem(stamp, table, await inputsNow()) ?? 'holds').toBe('holds');
  }, 60_000);

  it('a stale, missing or hand-edited stamp is a problem naming the command; another Node is not', () => {
    const inputs = inputsHash(['a.ts'], () => 'export const a = 1;');
    const made = stampOf('table', inputs, 'v20.1.0');
    expect(stampProblem(made, 'table', inputs)).toBeUndefined();
    expect(stampProblem(stampOf('table', inputs, 'v24.11.1'), 'table', inputs)).toBeUndefined();
    const problems = [
      stampProblem(made, 'table', inputsHash(['a.ts'], () => 'export const a = 2;')),
      stampProblem(undefined, 'table', inputs),
      stampProblem(made, 'table edited', inputs),
      stampProblem(`inputs ${inputs} table 0123\n`, 'table', inputs), // the form before Node's version stood apart
    ];
    expect(problems.map((p) => [/stale/.test(p ?? ''), /missing/.test(p ?? ''), /by hand/.test(p ?? ''), /not of the form/.test(p ?? '')])).toEqual([
      [true, false, false, false],
      [false, true, false, false],
      [false, false, true, false],
      [false, false, false, true],
    ]);
    for (const p of problems) expect(p).toMatch(/Run `npm run class-model` \(or `npm run gates`\) and commit/);
  });
});
