/**
 * "How do I fix it?" names the command or the file to use (issue 25, point 3), on real failures of
 * the tuning data with their projects as the workspace: a formatter's own write mode for the file it
 * listed, the system package that usually provides a C library the build did not find, and the
 * module a relative import should name when the file it named was renamed or moved.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { composeLocalAnswer } from '../backend/answer/local/index.js';
import { snippetsFromDir } from '../cli/snippets.js';
import { analyzedChatContext } from './answerFixtures.js';
import type { CiContextUpload } from '../protocol/schemas.js';

const ROOT = path.join(process.cwd(), 'test', 'fixtures', 'realfail');
/** Round 4 is open for tuning; round 5 is held out (bench/findings.ts HELDOUT_ROUND): never read here. */
const OPEN_BEFORE_ROUND = 5;

function roundOf(id: string): number {
  const round = (JSON.parse(readFileSync(path.join(ROOT, id, 'expected.json'), 'utf8')) as { round?: number }).round;
  return typeof round === 'number' ? round : 1;
}

async function fixOf(id: string, workspace = true): Promise<string> {
  expect(roundOf(id)).toBeLessThan(OPEN_BEFORE_ROUND);
  const log = readFileSync(path.join(ROOT, id, 'fail.log'), 'utf8');
  const snippets = workspace ? await snippetsFromDir(path.join(ROOT, id, 'project'), log) : [];
  const upload = { buildDetails: { result: 'FAILURE', consoleLog: log }, workspaceSnippets: snippets } as CiContextUpload;
  return (await composeLocalAnswer('How do I fix it?', analyzedChatContext(upload, log))).text;
}

describe('the fix names the command and the module to use', () => {
  it('a formatter check: its write mode on the file it listed', async () => {
    expect(await fixOf('gofmt-unformatted-check', false)).toContain('`gofmt -w limits.go`');
    expect(await fixOf('gofmt-unformatted', false)).toContain('`gofmt -w config.go`');
    // shfmt-diff's lint (a rule's medium) is set aside: its excerpt's words do not support it (calibration.ts
    // `supported`, test/findings-realfail.test.ts SET_ASIDE), so the fix does not name a formatter's write mode.
    const shfmt = await fixOf('shfmt-diff', false);
    expect(shfmt).toContain("I can't tell what the fix is");
    expect(shfmt).toContain('`shfmt -d scripts/`');
  });
  it('a C library the linker or pkg-config did not find: the -dev package that usually provides it', async () => {
    const ld = await fixOf('ld-cannot-find-lib', false);
    expect(ld).toContain('`apt-get install libsodium-dev`');
    expect(ld).toContain('remove `-lsodium` from the link line');
    expect(ld).not.toContain('`sodium:`');
    expect(await fixOf('pkgconfig-package-not-found', false)).toContain('`libsodium-dev`');
    expect(await fixOf('meson-dependency-not-found', false)).toContain('`libsodium-dev`');
  });
  it('a relative import of a renamed file: the file that exports what the line imports, as a specifier', async () => {
    expect(await fixOf('webpack-module-not-found')).toContain('import it from `./http-client`');
    // TypeScript imports `currency.ts` as `./currency.js`, like the line imported `./money.js`.
    expect(await fixOf('tsc-cannot-find-module')).toContain('import it from `./currency.js`');
  });
  it('a relative import of a moved file: the same name in another directory; an ES module without its extension', async () => {
    expect(await fixOf('rollup-unresolved-import')).toContain('import it as `./util/format.js`');
    expect(await fixOf('node-esm-missing-extension')).toContain('import it from `scripts/build-index.js` as `./lib/slug.js`');
  });
  it('the code under test: a testbench names its design; a test file whose name ends like the subject is not the subject', async () => {
    expect(await fixOf('ghdl-testbench-assert')).toContain('**The code under test** (`rtl/adder.vhd`');
    expect(await fixOf('pytest-did-not-raise')).toContain('**The code under test** (`invoices/amounts.py`');
    expect(await fixOf('hypothesis-falsifying-example')).toContain('`batching/chunks.py`');
  });
  it('a well-known error gets the remedy its own words call for, each detail cited', async () => {
    expect(await fixOf('javac-unreported-exception', false)).toContain('declare it on the enclosing method (`throws IOException`)');
    expect(await fixOf('make-missing-separator', false)).toContain('make needs a tab character');
    const ssh = await fixOf('ssh-host-key-changed', false);
    expect(ssh).toMatch(/remove the old one as the log says, `ssh-keygen -f "[^"]+" -R "\[127\.0\.0\.1\]:44122"` \[L24-L24\]/);
    expect(await fixOf('curl-ssl-self-signed', false)).toContain('`curl --cacert <ca.pem>`');
    expect(await fixOf('mariadb-access-denied', false)).toContain("`GRANT ... TO 'migrator'@'127.0.0.1'`");
    expect(await fixOf('jest-snapshot-mismatch', false)).toMatch(/update the snapshot \(`npm test -- -u` \[L\d+-L\d+\]\)/);
    expect(await fixOf('tox-interpreter-not-found', false)).toContain('`skip_missing_interpreters = true`');
    expect(await fixOf('bundler-ruby-version', false)).toContain('run the build with Ruby 3.3');
    expect(await fixOf('git-push-rejected', false)).toMatch(/\(fetch first\) \[L\d+-L\d+\]: integrate them first, `git pull --rebase origin main`/);
  });
  it('a JDK class without its import, a well-known library not linked, an install into /usr, a missing OCaml library, a program to install, a refused gem push, a Hypothesis deadline', async () => {
    expect(await fixOf('ant-javac-cannot-find-symbol', false)).toContain('add `import java.util.Map;`');
    expect(await fixOf('cmake-ninja-undefined-deflate', false)).toContain('`target_link_libraries(<target> PRIVATE ZLIB::ZLIB)`');
    expect(await fixOf('make-install-permission', false)).toContain('`make install PREFIX=$HOME/.local`');
    expect(await fixOf('dune-library-not-found', false)).toContain('`opam install yojson`');
    expect(await fixOf('autoconf-required-prog-missing', false)).toContain('`apt-get install pandoc`');
    expect(await fixOf('gem-push-401', false)).toContain("`metadata['allowed_push_host']`");
    expect(await fixOf('cargo-should-panic-mismatch', false)).toMatch(/it said `invalid port 0: must be 1-65535` \[L24-L24\]/);
    expect(await fixOf('hypothesis-deadline-exceeded', false)).toMatch(/over Hypothesis's deadline of 200\.00ms \[L\d+-L\d+\]: .*`@settings\(deadline=\.\.\.\)`/);
  });
  it("npm's E401, a pinned hash that does not match, a lockfile behind package.json, a PHP extension, a signed overflow", async () => {
    expect(await fixOf('npm-publish-e401', false)).toMatch(/The registry answered 401 \(npm's code `E401` \[L\d+-L\d+\]\)/);
    const pip = await fixOf('pip-hash-mismatch', false);
    expect(pip).toContain('`--hash=sha256:806143ae5bfb6a3c6e736a764057db0e6a0e05e338b5630894a5f779cabb4f9b`');
    expect(await fixOf('pnpm-frozen-lockfile', false)).toMatch(/asks for `dayjs` \[L\d+-L\d+\], which `pnpm-lock\.yaml` does not record: run `pnpm install`/);
    expect(await fixOf('php-intl-missing', false)).toContain('`apt-get install php8.2-intl`');
    expect(await fixOf('ubsan-signed-overflow', false)).toContain('in an unsigned type where wrapping is meant');
  });
});
