/**
 * Concrete commands a fix names (issue 25, point 3): the formatter's own write mode for the file
 * it listed (`gofmt -w config.go`, `shfmt -w scripts/tag.sh`, `black alerts/rules.py`), and the
 * system package that usually provides a C library the linker, pkg-config, meson or CMake did not
 * find (`-lsodium` / `libsodium` -> `libsodium-dev`). Each is built from the finding's tool, file,
 * symbol or dependency only; nothing is said when those are not there.
 */
import type { Finding } from '../../../protocol/types.js';
import { inlineCode } from '../logtext.js';

/** The source files a formatter's message lists (`test -z limits.go`, `would reformat x/y.py`). */
const FILE_IN_MESSAGE = /(?:^|[\s'"`])((?:[\w.@-]+\/)*[\w.@-]+\.(?:go|sh|bash|py|pyi|rs|js|jsx|ts|tsx|mjs|cjs|css|scss|json|md|ya?ml|c|cc|cpp|h|hpp|tf|rb|java|kt))(?=$|[\s'"`:,])/g;

/** The file the formatter names: the finding's place, else a file its message lists (relative paths only). */
function formattedFile(f: Finding): string | undefined {
  const loc = f.location?.file;
  if (loc && !/^(?:\/|[A-Za-z]:[\\/])/.test(loc)) return loc.replace(/^\.\//, '');
  const files = [...f.message.matchAll(FILE_IN_MESSAGE)].map((m) => m[1] as string).filter((p) => !p.startsWith('/') && !/\.orig$/.test(p));
  return files.length === 1 ? files[0] : undefined;
}

/** The command that lets the linter or formatter fix what it reported, scoped to its file when known. */
export function lintFixCommand(f: Finding): string | undefined {
  const file = formattedFile(f) ?? '';
  switch (f.tool) {
    case 'eslint':
      return `npx eslint --fix ${file}`.trim();
    case 'black':
      return `black ${file || '.'}`;
    case 'isort':
      return `isort ${file || '.'}`;
    case 'prettier':
      return `npx prettier --write ${file || '.'}`;
    case 'rustfmt':
      return 'cargo fmt';
    case 'clippy':
      return 'cargo clippy --fix';
    case 'rubocop':
      return `bundle exec rubocop -a ${file}`.trim();
    case 'gofmt':
      return `gofmt -w ${file || '.'}`;
    case 'goimports':
      return `goimports -w ${file || '.'}`;
    case 'shfmt':
      return `shfmt -w ${file || '.'}`;
    case 'clang-format':
      return file ? `clang-format -i ${file}` : undefined;
    case 'stylelint':
      return `npx stylelint --fix ${file}`.trim();
    case 'terraform':
      return /fmt/.test(f.message) ? 'terraform fmt -recursive' : undefined;
    default:
      return undefined;
  }
}

/** A C library's name as the linker or pkg-config asked for it (`-lsodium:` -> `sodium`, `libsodium` -> `sodium`). */
function libraryName(f: Finding): string | undefined {
  if (f.class === 'link-error' && f.symbol?.startsWith('-l')) return f.symbol.slice(2).replace(/[:,.]+$/, '') || undefined;
  if (f.class === 'dependency-resolution' && f.dependency && /^(?:pkg-config|pkgconf|meson|cmake|configure|autoconf)$/.test(f.tool ?? '')) {
    const dep = f.dependency.replace(/[<>=].*$/, '').trim();
    if (!/^[\w.+-]+$/.test(dep)) return undefined;
    // CMake's find_package names (`ZLIB`, `OpenSSL`) are not package names: lower-cased, they usually are.
    return dep.replace(/^lib/, '').toLowerCase();
  }
  return undefined;
}

/**
 * Where a missing C library usually comes from: the `lib<name>-dev` package on Debian and Ubuntu
 * (`-devel` on Fedora/RHEL). Said as the usual naming, not as a fact of this agent.
 */
export function systemPackageHint(f: Finding): string | undefined {
  const name = libraryName(f);
  if (!name || name.length < 2 || !/^[\w.+-]+$/.test(name)) return undefined;
  const deb = `lib${name}-dev`;
  const asked = f.class === 'link-error' ? inlineCode(`-l${name}`) : inlineCode(f.dependency ?? name);
  return `${asked} is usually provided by the development package ${inlineCode(deb)} on Debian and Ubuntu (${inlineCode(`apt-get install ${deb}`)} in the agent's image or setup step; ${inlineCode(`lib${name}-devel`)} on Fedora/RHEL): install it where the build runs.`;
}
