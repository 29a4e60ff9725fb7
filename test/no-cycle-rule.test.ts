/**
 * The lint rule that keeps import circles out (issue 31; scripts/eslint/no-cycle.js): it reports a
 * circle through value and type imports, names the whole circle, and lets a dynamic import() and
 * a straight chain pass.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import noCycle from '../scripts/eslint/no-cycle.js';

async function lint(files: Record<string, string>): Promise<string[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-nocycle-'));
  try {
    for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
    const eslint = new ESLint({
      cwd: dir,
      overrideConfigFile: true,
      overrideConfig: [
        {
          files: ['**/*.ts'],
          languageOptions: { parser: tseslint.parser },
          plugins: { local: { rules: { 'no-cycle': noCycle } } },
          rules: { 'local/no-cycle': 'error' },
        },
      ],
    });
    const results = await eslint.lintFiles(['*.ts']);
    return results.flatMap((r) => r.messages.map((m) => `${path.basename(r.filePath)}:${m.line} ${m.message}`)).sort();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('local/no-cycle', () => {
  it('reports a circle of three files on each of them, naming the circle', async () => {
    const out = await lint({
      'a.ts': "import { b } from './b.js';\nexport const a = () => b;\n",
      'b.ts': "import { c } from './c.js';\nexport const b = () => c;\n",
      'c.ts': "export { a } from './a.js';\nexport const c = 1;\n",
    });
    expect(out).toHaveLength(3);
    expect(out[0]).toMatch(/^a\.ts:1 import circle: .*a\.ts -> .*b\.ts -> .*c\.ts -> .*a\.ts/);
  });

  it('counts type-only imports', async () => {
    const out = await lint({
      'app.ts': "import { route } from './route.js';\nexport interface Deps { x: number }\nexport const app = route;\n",
      'route.ts': "import type { Deps } from './app.js';\nexport const route = (d: Deps) => d.x;\n",
    });
    expect(out).toHaveLength(2);
  });

  it('lets a chain and a dynamic import() pass', async () => {
    const out = await lint({
      'a.ts': "import { b } from './b.js';\nexport const a = () => b;\n",
      'b.ts': "export const b = async () => (await import('./a.js')).a;\n",
    });
    expect(out).toEqual([]);
  });
});
