import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Finding } from '../../protocol/types.js';
import { misplacedFiles, wantedFileOf } from './misplacedFiles.js';
import { goModOf, goWorkGaps, useDirectives } from './goWork.js';
import { collectSnippets } from './snippets.js';

const finding = (message: string, over: Partial<Finding> = {}): Finding => ({ class: 'unknown', message, message_line: 1, confidence: 'low', evidence: [1], ...over });

/** A workspace held in memory: path -> text. */
function reader(files: Record<string, string>) {
  return {
    index: async (_ws: string) => Object.keys(files).sort(),
    read: async (_ws: string, rel: string) => (rel in files ? { lines: (files[rel] as string).split('\n') } : new Error('not found')),
  };
}

const messages = async (files: Record<string, string>, message: string, placed: { path: string; line?: number }[] = [], over: Partial<Finding> = {}): Promise<string[]> =>
  (await misplacedFiles(reader(files), ['ws'], [finding(message, over)], placed)).map((h) => `${h.rel}:${h.index + 1} ${h.message}`);

describe('the file a "not found" name maps to', () => {
  it.each([
    ['PHP Fatal error:  Uncaught Error: Class "Shop\\Pricing\\TaxTable" not found in /ws/src/Cart.php:28', 'class', ['Shop', 'Pricing', 'TaxTable.php']],
    ["PHP Fatal error:  Uncaught Error: Interface 'App\\Contracts\\Clock' not found", 'class', ['App', 'Contracts', 'Clock.php']],
    ["ModuleNotFoundError: No module named 'app.utils'", 'module', ['app', 'utils.py']],
    ["Can't locate Acme/Feed.pm in @INC (you may need to install the Acme::Feed module)", 'module', ['Acme', 'Feed.pm']],
    ['cannot load such file -- ./lib/money (LoadError)', 'module', ['lib', 'money.rb']],
    ['cmd/restock/main.go:6:2: no required module provides package example.com/inventory/Store; to add it:', 'package', ['example.com', 'inventory', 'Store']],
    ['app/main.c:2:10: fatal error: geohash/geohash.h: No such file or directory', 'header', ['geohash', 'geohash.h']],
    ["src/a.c:1:10: fatal error: 'util.h' file not found", 'header', ['util.h']],
    ['Main.java:3: error: cannot find symbol (symbol: class Money; location: package shop.pricing)', 'class', ['shop', 'pricing', 'Money.java']],
  ])('%s', (message, kind, segments) => {
    expect(wantedFileOf(finding(message))).toMatchObject({ kind, segments });
  });
  it('is none for a name no file carries', () => {
    expect(wantedFileOf(finding('/usr/bin/python3: No module named pytest.__main__; \'pytest\' is a package and cannot be directly executed'))).toBeUndefined();
    expect(wantedFileOf(finding('TypeError: undefined is not a function'))).toBeUndefined();
    expect(wantedFileOf(finding('go: package fmtx is not in std'))).toBeUndefined();
  });
});

describe('a file the log does not name, under another letter case or in another folder', () => {
  const php = 'PHP Fatal error:  Uncaught Error: Class "Shop\\Pricing\\TaxTable" not found in /var/jenkins_home/workspace/shop/src/Pricing/Cart.php:28';
  it('PSR-4: the class file whose name differs only in case, at its declaration', async () => {
    const files = { 'src/Pricing/Cart.php': '<?php\n', 'src/Pricing/Taxtable.php': '<?php\nnamespace Shop\\Pricing;\n\nfinal class TaxTable\n{\n}\n' };
    expect(await messages(files, php)).toEqual(['src/Pricing/Taxtable.php:4 the file for the class Shop\\Pricing\\TaxTable, named Pricing/TaxTable.php in another letter case']);
  });
  it('PSR-4: the folder in another case, and the file in another folder', async () => {
    expect(await messages({ 'src/pricing/TaxTable.php': '<?php\nclass TaxTable {}\n' }, php)).toEqual(['src/pricing/TaxTable.php:2 the file for the class Shop\\Pricing\\TaxTable, named Pricing/TaxTable.php in another letter case']);
    expect(await messages({ 'src/Tax/TaxTable.php': '<?php\nclass TaxTable {}\n' }, php)).toEqual(['src/Tax/TaxTable.php:2 the file for the class Shop\\Pricing\\TaxTable, in another folder than Shop/Pricing/TaxTable.php']);
  });
  it('says nothing when the file is there as spelled (the cause is elsewhere), or only in vendor/', async () => {
    expect(await messages({ 'src/Pricing/TaxTable.php': '<?php\n', 'src/Other/Taxtable.php': '<?php\n' }, php)).toEqual([]);
    expect(await messages({ 'vendor/acme/src/Pricing/Taxtable.php': '<?php\n' }, php)).toEqual([]);
    expect(await messages({ 'src/Money.php': '<?php\n' }, 'PHP Fatal error:  Uncaught Error: Class "NumberFormatter" not found in /ws/src/Money.php:11')).toEqual([]);
  });
  it('Python: the module file or package folder in another case; a module in a folder not searched', async () => {
    const py = "ModuleNotFoundError: No module named 'csvclean'";
    expect(await messages({ 'CsvClean.py': 'class CsvClean: pass\n', 'tests/test_csvclean.py': 'from csvclean import CsvClean\n' }, py)).toEqual(['CsvClean.py:1 the file for the module csvclean, named csvclean.py in another letter case']);
    expect(await messages({ 'CsvClean/__init__.py': '', 'run.py': '' }, py)).toEqual(['CsvClean/__init__.py:1 the file for the module csvclean, named csvclean/__init__.py in another letter case']);
    expect(await messages({ 'lib/csvclean.py': '', 'tests/test_a.py': '' }, py, [{ path: 'tests/test_a.py', line: 3 }], { location: { file: '/ws/tests/test_a.py', line: 3, log_line: 1 } })).toEqual(['lib/csvclean.py:1 the file for the module csvclean, in another folder than csvclean.py']);
    // Beside the importing script, or at the root: it would have been found there; nothing is said.
    expect(await messages({ 'tools/csvclean.py': '', 'tools/run.py': '' }, py, [{ path: 'tools/run.py', line: 1 }], { location: { file: '/ws/tools/run.py', line: 1, log_line: 1 } })).toEqual([]);
    expect(await messages({ 'csvclean.py': '' }, py)).toEqual([]);
    // The same name in many folders says nothing about which one was meant.
    expect(await messages({ 'a/csvclean.py': '', 'b/csvclean.py': '', 'c/csvclean.py': '' }, py)).toEqual([]);
  });
  it('Go: the package directory in another case, at its package line', async () => {
    const files = { 'go.mod': 'module example.com/inventory\n\ngo 1.21\n', 'store/store.go': '// Package store.\npackage store\n', 'cmd/restock/main.go': 'package main\n' };
    expect(await messages(files, 'cmd/restock/main.go:6:2: no required module provides package example.com/inventory/Store; to add it:')).toEqual(['store/store.go:2 the directory for the package example.com/inventory/Store, named Store in another letter case']);
    expect(await messages(files, 'main.go:3:2: no required module provides package example.com/inventory/store; to add it:')).toEqual([]);
    expect(await messages(files, 'main.go:3:2: no required module provides package github.com/other/Store; to add it:')).toEqual([]);
  });
  it('a header in a folder the include path lacks, not one beside the including file', async () => {
    const files = { 'app/main.c': '#include <geohash/geohash.h>\n', 'geohash/include/geohash/geohash.h': '#pragma once\n' };
    const msg = 'app/main.c:2:10: fatal error: geohash/geohash.h: No such file or directory';
    const placed = [{ path: 'app/main.c', line: 2 }];
    const loc = { location: { file: 'app/main.c', line: 2, log_line: 1 } };
    expect(await messages(files, msg, placed, loc)).toEqual(['geohash/include/geohash/geohash.h:1 the file for the header geohash/geohash.h, in another folder than geohash/geohash.h']);
    expect(await messages({ 'src/ring.c': '', 'src/ring.h': '' }, 'src/ring.c:2:10: fatal error: ring.h: No such file or directory', [{ path: 'src/ring.c', line: 2 }], { location: { file: '../../src/ring.c', line: 2, log_line: 1 } })).toEqual([]);
  });
});

describe("a module go.work does not use", () => {
  const files = {
    'go.work': 'go 1.19\n\nuse (\n\t./api\n\t./rates\n)\n',
    'api/go.mod': 'module example.com/shipping/api\n\ngo 1.19\n\nrequire example.com/shipping/rates v0.0.0\n',
    'rates/go.mod': 'module example.com/shipping/rates\n\ngo 1.19\n\nrequire example.com/shipping/zones v0.0.0\n',
    'zones/go.mod': 'module example.com/shipping/zones\n\ngo 1.19\n',
    'tools/go.mod': 'module example.com/shipping/tools\n\ngo 1.19\n',
  };
  const fetched = 'rates/rates.go:7:2: example.com/shipping/rates@v0.0.0: Get "https://proxy.golang.org/example.com/shipping/rates/@v/v0.0.0.mod": dial tcp: lookup proxy.golang.org: no such host';
  it('reads use lines and go.mod files', () => {
    expect(useDirectives(['go 1.21', 'use ./a', 'use (', '  ./b // the b module', ')'])).toEqual([{ dir: './a', index: 1 }, { dir: './b', index: 3 }]);
    expect(goModOf(['module example.com/x', 'require (', '\texample.com/y v0.0.0', '\tgolang.org/x/text v0.3.0 // indirect', ')', 'require example.com/z v1.0.0'])).toEqual({
      module: 'example.com/x',
      moduleIndex: 0,
      requires: [{ path: 'example.com/y', index: 2 }, { path: 'golang.org/x/text', index: 3 }, { path: 'example.com/z', index: 5 }],
    });
  });
  it('names the module a used module requires (not one nothing requires), then go.work\'s use line', async () => {
    const hits = await goWorkGaps(reader(files), ['ws'], [finding(fetched)]);
    expect(hits.map((h) => `${h.rel}:${h.index + 1} ${h.message}`)).toEqual([
      'zones/go.mod:1 declares the module example.com/shipping/zones, which rates requires and whose directory zones go.work does not use',
      'go.work:3 lists the module directories go.work uses (no zones)',
    ]);
  });
  it('says nothing when go.work uses every module a used one requires, or there is no go.work, or go needed no module of the repository', async () => {
    expect(await goWorkGaps(reader({ ...files, 'go.work': 'go 1.19\nuse ./api\nuse ./rates\nuse ./zones\n' }), ['ws'], [finding(fetched)])).toEqual([]);
    const { 'go.work': _work, ...noWork } = files;
    expect(await goWorkGaps(reader(noWork), ['ws'], [finding(fetched)])).toEqual([]);
    expect(await goWorkGaps(reader(files), ['ws'], [finding('rates/rates.go:9:2: undefined: zones.Of')])).toEqual([]);
    // A published module's pseudo-version (`v0.0.0-<date>-<commit>`) is no module of the repository: the proxy was
    // unreachable for it, whatever go.work uses (review rv1, session 51).
    const published = 'go: golang.org/x/sys@v0.0.0-20220811171246-fbc7d0a398ab: Get "https://proxy.golang.org/golang.org/x/sys/@v/v0.0.0-20220811171246-fbc7d0a398ab.mod": dial tcp: lookup proxy.golang.org: no such host';
    expect(await goWorkGaps(reader(files), ['ws'], [finding(published)])).toEqual([]);
  });
});

describe('the snippet reader sends the file the log does not name (controller and CLI alike)', () => {
  let dir = '';
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'cichat-misplaced-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const write = (files: Record<string, string>): void => {
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      writeFileSync(path.join(dir, rel), text);
    }
  };
  it('a PHP class file in another case, as a clue snippet at its declaration', async () => {
    write({ 'src/Pricing/Cart.php': '<?php\nnamespace Shop\\Pricing;\nfinal class Cart\n{\n    public function total(): int\n    {\n        return TaxTable::rateFor("DE");\n    }\n}\n', 'src/Pricing/Taxtable.php': '<?php\nnamespace Shop\\Pricing;\n\nfinal class TaxTable\n{\n}\n' });
    const log = ['Running on Jenkins in /var/jenkins_home/workspace/shop', '+ php tests/run.php', 'PHP Fatal error:  Uncaught Error: Class "Shop\\Pricing\\TaxTable" not found in /var/jenkins_home/workspace/shop/src/Pricing/Cart.php:7', 'Stack trace:', '#0 {main}', '  thrown in /var/jenkins_home/workspace/shop/src/Pricing/Cart.php on line 7', 'Finished: FAILURE'].join('\n');
    const { snippets } = await collectSnippets({ log, workspaces: [{ workspaceId: 'local', dir }] });
    const clue = snippets.find((s) => s.path === 'src/Pricing/Taxtable.php');
    expect(clue).toMatchObject({ line: 4, message: 'clue: the file for the class Shop\\Pricing\\TaxTable, named Pricing/TaxTable.php in another letter case' });
    expect(clue?.text).toContain('final class TaxTable');
  });
  it("the module go.work lacks, and go.work's use block", async () => {
    write({ 'go.work': 'go 1.19\n\nuse (\n\t./rates\n)\n', 'rates/go.mod': 'module example.com/s/rates\n\ngo 1.19\n\nrequire example.com/s/zones v0.0.0\n', 'rates/rates.go': 'package rates\n\nimport (\n\t"fmt"\n\n\t"example.com/s/zones"\n)\n', 'zones/go.mod': 'module example.com/s/zones\n\ngo 1.19\n', 'zones/zones.go': 'package zones\n' });
    const log = ['+ go vet ./rates/...', 'rates/rates.go:6:2: example.com/s/rates@v0.0.0: Get "https://proxy.golang.org/example.com/s/rates/@v/v0.0.0.mod": dial tcp: lookup proxy.golang.org on 10.0.0.1:53: no such host', 'ERROR: script returned exit code 1', 'Finished: FAILURE'].join('\n');
    const { snippets } = await collectSnippets({ log, workspaces: [{ workspaceId: 'local', dir }] });
    expect(snippets.filter((s) => s.message?.startsWith('clue: ')).map((s) => `${s.path}:${s.line} ${s.message}`)).toEqual([
      'zones/go.mod:1 clue: declares the module example.com/s/zones, which rates requires and whose directory zones go.work does not use',
      'go.work:3 clue: lists the module directories go.work uses (no zones)',
    ]);
  });
});
