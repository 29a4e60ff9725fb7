import { originSnippets, valueOrigins } from './origins.js';

describe("valueOrigins: the assignments further up of the names the failing line uses", () => {
  const js = [
    "import fs from 'node:fs';",
    "const path = require('node:path');",
    'const outDir = process.env.DIST_DIR;',
    'let unused = 1;',
    'function write(files) {',
    '  const body = JSON.stringify(files);',
    "  fs.writeFileSync(path.join(outDir, 'manifest.json'), body);",
    '}',
  ];
  it('finds the nearest assignment above the shown window, not an import, not a call, not a name only in a string', () => {
    expect(valueOrigins(js, 7, 6)).toEqual([{ name: 'outDir', line: 3 }]);
    // Inside the shown window (from line 5) the reader already sees `body`'s assignment: only what is above it.
    expect(valueOrigins(js, 7, 5).map((o) => o.name)).toEqual(['outDir']);
    expect(valueOrigins(["x = 'outDir'", "print('outDir')"], 2, 2)).toEqual([]);
  });
  it("reads Python's and Go's forms, keeps at most two, and takes no control keyword or markup tag for a type", () => {
    const py = ['RELAY_HOST = os.environ.get("RELAY_HOST", "127.0.0.1")', 'RELAY_PORT = 587', 'LIMIT = 3', '', 'def send():', '    smtplib.SMTP(RELAY_HOST, RELAY_PORT, LIMIT)'];
    expect(valueOrigins(py, 6, 5)).toEqual([{ name: 'RELAY_HOST', line: 1 }, { name: 'RELAY_PORT', line: 2 }]);
    expect(valueOrigins(['idx := map[string]string{}', 'if got := f(); got > 1 {', 'x', 'idx[k] = got'], 4, 3)).toEqual([{ name: 'idx', line: 1 }]);
    expect(valueOrigins(['<button type="submit">', '', '<input type="text">'], 3, 3)).toEqual([]);
  });
  it('makes one-line snippets marked with the line that uses them, masked; none without a marked line', () => {
    const failing = { path: 'scripts/build.mjs', workspaceId: 'w', startLine: 6, endLine: 8, text: '', kind: 'source' as const, line: 7 };
    const got = originSnippets(failing, js, (t) => t.replace('DIST_DIR', '***'));
    expect(got).toEqual([{ path: 'scripts/build.mjs', workspaceId: 'w', startLine: 3, endLine: 3, text: 'const outDir = process.env.***;', kind: 'source', message: 'assigns outDir, which line 7 uses' }]);
    expect(originSnippets({ ...failing, line: undefined }, js, (t) => t)).toEqual([]);
  });
  it("in a Makefile, the make variables of the failing line's recipe, quoted or not, set above the shown lines", () => {
    const mk = ['# release', "VERSION := $(RELEASE_VERSION)", 'PKG := dist/app_$(VERSION).deb', 'STAGE ?= build/pkg', '', '$(PKG): bin/app', '\trm -rf $(STAGE)', "\tsed 's/@VERSION@/$(VERSION)/' control.in > ${STAGE}/control", '\tdpkg-deb --build $(STAGE) $@'];
    expect(valueOrigins(mk, 9, 6, 3, true)).toEqual([{ name: 'STAGE', line: 4 }, { name: 'VERSION', line: 2 }]);
    const failing = { path: 'Makefile', workspaceId: 'w', startLine: 6, endLine: 9, text: '', kind: 'source' as const, line: 9 };
    expect(originSnippets(failing, mk, (t) => t).map((o) => o.message)).toEqual(['assigns STAGE, which line 9 uses', 'assigns VERSION, which line 9 uses']);
    // Not a Makefile: the quoted `$(VERSION)` is no name of the line's.
    expect(originSnippets({ ...failing, path: 'build.sh' }, mk, (t) => t)).toEqual([]);
  });
});
