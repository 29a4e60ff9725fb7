import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { indexHtml, readBuiltAssets, writeAssets, type WebAssets } from './bundle.js';

describe('the web page files', () => {
  test('index.html loads its script and style sheet by path, nothing inline', () => {
    const html = indexHtml('/assets/app.1.js', '/assets/app.2.css');
    expect(html).toContain('<script type="module" src="/assets/app.1.js"></script>');
    expect(html).toContain('<link rel="stylesheet" href="/assets/app.2.css">');
    expect(html).not.toMatch(/<style|style=|<script>/);
  });

  test('what npm run build writes is what a compiled controller reads back', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-web-built-'));
    try {
      const assets: WebAssets = {
        index: { path: '/', type: 'text/html; charset=utf-8', body: Buffer.from(indexHtml('/assets/app.a.js', '/assets/app.b.css')) },
        files: [
          { path: '/assets/app.a.js', type: 'text/javascript; charset=utf-8', body: Buffer.from('console.log(1)') },
          { path: '/assets/app.b.css', type: 'text/css; charset=utf-8', body: Buffer.from('body{}') },
        ],
        origin: 'sources',
      };
      expect(readBuiltAssets(dir)).toBeUndefined();
      writeAssets(assets, dir);
      expect(readBuiltAssets(dir)).toEqual({ ...assets, origin: 'built' });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
