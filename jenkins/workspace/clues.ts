/**
 * Where the workspace names what a failure is about (issue 25, "how do I fix it?"): the manifest
 * line that declares a dependency that did not resolve, the script or configuration line that
 * names a host the agent could not reach, the scripts `package.json` defines when one is
 * missing, the files named like a missing file, the other file that declares a name the
 * compiler could not find, the header that defines a symbol the linker found twice. Tool-agnostic:
 * the key names come from the finding (its dependency, host, symbol, message), the lines are
 * found by text, so a new tool's manifest or script is found as well as a known one's.
 */
import type { Finding } from '../../protocol/types.js';
import { SNIPPET_CLUE_MARK } from '../../protocol/ciContext.js';
import { definitionsIn, missingSymbolOf } from '../../core/log/symbols.js';
import { escapeRegExp } from '../../core/regexp.js';
import { addressOf, GRADLE_TASK_DECLARATION, quotedPathOf, refusedOptionOf } from '../../core/log/values.js';

/** What the collector reads: a workspace's file list and a file's lines (or why not). */
/**
 * Go's type argument outside its constraint: `float64 does not implement agg.Number (float64 missing in ~int | ~int64)`
 * (go 1.18-1.19), `... does not satisfy ...` (1.20 and later): the type, the constraint's own name and its type set.
 */
export function constraintOf(message: string): { type: string; name: string; set: string } | undefined {
  const m = /([\w.*[\]]+) does not (?:implement|satisfy) (?:[\w]+\.)?([A-Za-z_]\w*)(?:\[[^\]]*\])? \((?:[\w.*[\]]+ )?(?:possibly )?missing (?:~ for \S+ )?in ([^)]+)\)/.exec(message);
  return m ? { type: m[1] as string, name: m[2] as string, set: (m[3] as string).trim() } : undefined;
}

export interface ClueReader<W> {
  index(workspace: W): Promise<string[]>;
  read(workspace: W, rel: string): Promise<{ lines: string[] } | Error>;
}

/** A workspace line that names the failure's key name, and the sentence the snippet carries. */
export interface ClueHit<W> {
  workspace: W;
  rel: string;
  lines: string[];
  /** 0-based index of the line. */
  index: number;
  /** The snippet's message: what the line is (`declares the dependency lodash`). */
  message: string;
}

/** How a clue snippet's message starts (`clue: declares the dependency lodash`): it is not a line the log names. */
export const CLUE_MARK = SNIPPET_CLUE_MARK;

/** Build manifests of the usual ecosystems, by file name. */
export const MANIFEST_FILE =
  /(?:^|\/)(?:pom\.xml|build\.gradle(?:\.kts)?|settings\.gradle(?:\.kts)?|gradle\.properties|libs\.versions\.toml|package\.json|go\.mod|Cargo\.toml|requirements[\w.-]*\.(?:txt|in)|constraints[\w.-]*\.txt|pyproject\.toml|setup\.py|setup\.cfg|Pipfile|environment\.ya?ml|Gemfile|[\w.-]+\.gemspec|composer\.json|CMakeLists\.txt|[\w.-]+\.cmake|meson\.build|configure\.(?:ac|in)|rebar\.config|mix\.exs|dune-project|dune|[\w.-]+\.opam|[\w.-]+\.rockspec|cpanfile|Makefile\.PL|Build\.PL|build\.xml|ivy\.xml|build\.sbt|conanfile\.(?:txt|py)|vcpkg\.json|[\w.-]+\.csproj|packages\.config|Directory\.Packages\.props|deno\.json|bower\.json|stack\.yaml|[\w.-]+\.cabal)$/;

/** A dependency's git ref its repository does not have, in the tools' words (core/finding/families/git.ts). */
const GIT_REF_MISSING = /did not match any file\(s\) known to git|^Revision \S+ does not exist in the repository|failed to find (?:tag|branch) `|^\s*revision \S+ not found$|: unknown revision \S+$/;

/** Scripts and configuration a step reads its settings from. */
const CONFIG_FILE =
  /(?:^|\/)(?:[^/]+\.(?:sh|bash|zsh|ya?ml|toml|ini|cfg|conf|env|properties|json|groovy|mk|ps1|cmd|bat|xml)|Makefile|GNUmakefile|Jenkinsfile|Dockerfile|\.npmrc|\.yarnrc|\.pypirc|\.netrc|pip\.conf|\.env[\w.-]*|docker-compose[\w.-]*)$/;

/** Credentials configuration: where a token, user or password for a remote is set. */
const CREDENTIAL_FILE = /(?:^|\/)(?:\.npmrc|\.yarnrc(?:\.yml)?|\.pypirc|pip\.conf|\.netrc|settings\.xml|gradle\.properties|\.docker\/config\.json|\.gem\/credentials|auth\.json)$/;

/** Documentation and data: a value mentioned there is not where the build takes it from. */
const DOC_FILE = /\.(?:md|markdown|rst|adoc|txt|html?|svg|csv|tsv|log|out|golden|snap)$/i;

/** Any text file where a setting may live (not a document; a manifest such as requirements.txt is kept). */
export function settingFile(rel: string, manifest: RegExp): boolean {
  return !DOC_FILE.test(rel) || manifest.test(rel);
}

/** A configuration dotfile without an extension the other lists know (`.gitmodules`, `.lfsconfig`, `.env.ci`). */
export const DOT_CONFIG = /(?:^|\/)\.(?!git\/)[\w-]+(?:\.[\w-]+)?$/;

/** A line that starts or declares a server (its own port), or a comment (`# x`, `-- x`, not an option `--index-url`): never where the client's address is set. */
export function notAClientSetting(line: string): boolean {
  return /^\s*(?:#|\/\/|;|--(?:\s|$)|\*|\/\*)/.test(line) || /\b(?:listen|bind|serve|http\.server|SimpleHTTPServer|nc\s+-\w*l)\b/i.test(line);
}

/** Build files that list a target's sources or objects by name. */
const BUILD_LIST_FILE = /(?:^|\/)(?:(?:GNU)?[Mm]akefile|[\w.-]+\.mk|Makefile\.am|CMakeLists\.txt|meson\.build)$/;
/** A list of C/C++/assembly sources or objects: a make variable assigned them, or a CMake/meson target given them. */
const SOURCE_LIST = /^\s*[A-Za-z_][\w.]*\s*[:+?]?=\s*(?:\S+\s+)*?[\w./$()-]+\.(?:c|cc|cpp|cxx|m|mm|s|S|o|obj)\b|^\s*(?:add_executable|add_library|target_sources|executable|library|shared_library|static_library)\s*\([^)]*\.(?:c|cc|cpp|cxx|m|mm)\b/;

/** gradle's `Task 'x' not found in root project 'y'`. */
const GRADLE_TASK_MISSING = /Task '([\w:-]+)' not found in (?:root )?project/;
/** A compiler refusing a feature of a newer language level than the one it was given. */
const LANGUAGE_LEVEL_MESSAGE = /not supported in -source (\d+)|use -source (\d+) or higher|(?:only available|enabled by default) with '?-std=|requires '?-std=|is a C\+\+\d+ extension|not available in (?:Java|Kotlin|language version) (\d+(?:\.\d+)?)/;
/** Where a build sets that level. */
const LANGUAGE_LEVEL_SETTING = /sourceCompatibility|targetCompatibility|languageVersion|jvmTarget|maven\.compiler\.(?:source|release|target)|<(?:source|release)>\s*\d|options\.release|-source\s+\d|--release\s+\d|-std=|CMAKE_C(?:XX)?_STANDARD|c(?:xx)?_std_\d|\bedition\s*=|\bstd\s*=/;
/** Build files where such settings live. */
const BUILD_SETTINGS_FILE = /(?:^|\/)(?:pom\.xml|build\.gradle(?:\.kts)?|gradle\.properties|build\.sbt|build\.xml|CMakeLists\.txt|[\w.-]+\.cmake|(?:GNU)?[Mm]akefile|[\w.-]+\.mk|meson\.build|Cargo\.toml|configure\.ac|[\w.-]+\.csproj|Directory\.Build\.props|ci\.sh|build\.sh)$/;

const SOURCE_FAMILIES: RegExp[] = [
  /\.(?:c|cc|cpp|cxx|h|hh|hpp|hxx)$/,
  /\.(?:ts|tsx|mts|cts|js|jsx|mjs|cjs)$/,
  /\.(?:java|kt|kts|scala|groovy)$/,
  /\.py$/,
  /\.go$/,
  /\.rs$/,
  /\.rb$/,
  /\.php$/,
  /\.(?:ml|mli)$/,
  /\.(?:erl|hrl)$/,
  /\.lua$/,
  /\.(?:pl|pm)$/,
  /\.(?:f|f90|f95|f03|for)$/i,
  /\.(?:cs|fs|vb)$/,
  /\.swift$/,
  /\.(?:ex|exs)$/,
];

/** Files read at most per workspace while looking for clues. */
const CLUE_FILES_MAX = 300;
/** Files larger than this many lines are not searched (generated code, lock files). */
const CLUE_LINES_MAX = 5000;

const base = (p: string): string => p.slice(p.lastIndexOf('/') + 1);
const LOCK_FILE = /(?:^|\/)(?:package-lock\.json|yarn\.lock|pnpm-lock\.yaml|Cargo\.lock|go\.sum|poetry\.lock|Pipfile\.lock|composer\.lock|Gemfile\.lock|gradle\.lockfile)$/;

/**
 * The name a dependency is declared under in a manifest, from the coordinate a resolver printed:
 * `org.acme:pricing-core:jar:1.4.0` -> `pricing-core`, `@scope/pkg@^2.0.0` -> `@scope/pkg`,
 * `requests==2.99.0` -> `requests`, `example.com/retry@v0.0.0` -> `example.com/retry`.
 */
export function dependencyName(dep: string): string | undefined {
  let d = dep.trim().replace(/^['"`]|['"`]$/g, '');
  // pip / gem / cargo requirement: a name before the version operator.
  const req = /^([A-Za-z0-9][\w.-]*(?:\[[\w,-]+\])?)\s*(?:===?|~=|!=|>=|<=|>|<|\^|~>?|\s)\s*\S/.exec(d);
  if (req && !d.includes(':') && !d.includes('/')) d = (req[1] as string).replace(/\[.*\]$/, '');
  // Maven / Gradle coordinates: group:artifact[:type]:version.
  const parts = d.split(':');
  if (parts.length >= 3 && parts.every((p) => /^[\w.${}-]+$/.test(p))) return parts[1];
  if (parts.length === 2 && /^[\w.-]+$/.test(parts[0] as string) && /^[\w.-]+$/.test(parts[1] as string) && (parts[0] as string).includes('.')) return parts[1];
  // npm / go: name@version (a scoped npm name keeps its first @).
  const at = d.lastIndexOf('@');
  if (at > 0) d = d.slice(0, at);
  d = d.replace(/\s.*$/, '');
  return d.length >= 2 && /[A-Za-z]/.test(d) ? d : undefined;
}

/** A path a message says does not exist (`strbuf.h: No such file or directory`, `open 'dist/a.json'`). */
export function missingPathOf(message: string): string | undefined {
  const patterns = [
    /(?:^|[\s:'"`])([\w./@+-]*[\w@+-]\.?[\w]*): No such file or directory/,
    /No such file or directory(?: \(os error 2\))?[:,]? (?:open |stat |lstat |scandir |access )?['"`]?([^'"`\s]+)['"`]?/,
    /ENOENT[^'"`]*['"`]([^'"`]+)['"`]/,
    // A path-like word only (`cannot find symbol` names no file).
    /(?:can't|cannot|could not|unable to) (?:open|find|read|stat|access|cd to)(?: file| directory)? ['"`]?([\w@+-]*[./][\w./@+-]*\w)['"`]?/i,
    /Cannot find module ['"`]([^'"`]+)['"`]/,
    /Could not resolve ['"`]([^'"`]+)['"`]/,
    /Module not found: (?:Error: )?Can't resolve ['"`]([^'"`]+)['"`]/,
    /Failed to resolve import ['"`]([^'"`]+)['"`]/,
    /^\+* ?(?:test|\[) -[sfedrx] ['"]?([^\s'"\]]+)/,
    /cd: ([^\s:]+): No such file/,
  ];
  // A path the process may not open (`could not open x for writing: Permission denied`) exists, or
  // is to be made: it is not missing, and no file "named like it" is the fix (issue 25: a false claim).
  if (/Permission denied|EACCES|EPERM|Operation not permitted|Read-only file system|EROFS/i.test(message) && !/No such file|ENOENT/.test(message)) return undefined;
  for (const re of patterns) {
    const p = re.exec(message)?.[1];
    // `./money` stays an import specifier; `./out/a.txt` is the path `out/a.txt`.
    if (p && p.length >= 2 && !/^(?:error|fatal|file|directory)$/i.test(p)) return /\.\w+$/.test(p) ? p.replace(/^\.\//, '') : p;
  }
  return undefined;
}

/** The symbol a linker found defined twice (`multiple definition of 'log_level'`). */
export function duplicateSymbolOf(message: string): string | undefined {
  return /(?:multiple definition of|duplicate symbol:?)\s*[`'‘"_]*([A-Za-z_][\w:]*)/.exec(message)?.[1];
}

/** The function or method a compiler says was called with the wrong arguments (javac, go, gcc/clang, Python, Kotlin). */
/**
 * The callable a call-arity message without a name points at by its column (tsc's `Expected 2
 * arguments, but got 1.` at `(5,19)`): the name that starts there and is called.
 */
function calleeAtColumn(f: Finding, sourceLine: string | undefined): string | undefined {
  const col = f.location?.column;
  if (!sourceLine || col === undefined || !/Expected \d+(?:-\d+)? arguments?, but got \d+|(?:not enough|too many) arguments/i.test(f.message)) return undefined;
  const m = /^(?:[A-Za-z_$][\w$]*\.)*([A-Za-z_$][\w$]*)\s*(?:<[^>]*>)?\s*\(/.exec(sourceLine.slice(col - 1));
  return m?.[1];
}

export function calleeOf(message: string): string | undefined {
  const patterns = [
    /(?:method|constructor) ([\w$]+) in (?:class|interface|enum|record) \S+ cannot be applied to given types/,
    /(?:not enough|too many) arguments in call to (?:[\w.]+\.)?(\w+)/,
    /too (?:few|many) arguments to (?:function|method|constructor) [‘'`"]?(?:[\w:]+::)?(\w+)/,
    /(\w+)\(\) (?:missing \d+ required (?:positional|keyword-only) arguments?|takes (?:from )?\d+ (?:to \d+ )?positional arguments? but \d+ (?:was|were) given|got an unexpected keyword argument)/,
    /No value passed for parameter '\w+'.*? (?:in|of) (?:fun )?(\w+)/,
  ];
  for (const re of patterns) {
    const m = re.exec(message)?.[1];
    if (m) return m;
  }
  return undefined;
}

function normalisedStem(p: string): string {
  return base(p).replace(/\.[^.]*$/, '').toLowerCase().replace(/[_.-]/g, '');
}

function near(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 2) return false;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min((prev[j] as number) + 1, (cur[j - 1] as number) + 1, (prev[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return (prev[b.length] as number) <= (a.length >= 6 ? 2 : 1);
}

interface Search {
  files: (rel: string) => boolean;
  line: (text: string, rel: string) => boolean;
  /** What the line is; a function of the line when that depends on what it holds. */
  message: string | ((text: string) => string);
  /** Files first whose path passes this. */
  prefer?: (rel: string) => boolean;
  max: number;
}

/** The searches a finding asks for, most telling first. */
function searchesOf(f: Finding, sourceLine?: string, above: readonly string[] = []): Search[] {
  const out: Search[] = [];
  const failing = f.location?.file;
  switch (f.class) {
    case 'dependency-resolution': {
      // A git ref the dependency's repository does not have (ux18: mix's and pip's `error: pathspec 'v1.1.0' ...`, npm's,
      // bundler's `Revision v1.1.0 does not exist ...`, go's `unknown revision v1.1.0`): the manifest line that pins it,
      // before the dependency's name (cargo's finding names both, the ref the more telling; fx21).
      const ref = f.symbol !== undefined && GIT_REF_MISSING.test(f.message) ? f.symbol : undefined;
      if (ref) {
        const pinned = new RegExp(`(?:^|[^\\w.-])${escapeRegExp(ref)}(?:$|[^\\w.-])`);
        out.push({ files: (r) => MANIFEST_FILE.test(r) && !LOCK_FILE.test(r), line: (t) => pinned.test(t), message: `pins the git ref ${ref}`, max: 1 });
      }
      const name = f.dependency ? dependencyName(f.dependency) : undefined;
      if (name) {
        const re = new RegExp(`(?:^|[^\\w-])${escapeRegExp(name)}(?:$|[^\\w-])`, 'i');
        out.push({ files: (r) => MANIFEST_FILE.test(r) && !LOCK_FILE.test(r), line: (t) => re.test(t) || (name.includes('/') && t.includes(name)), message: `declares the dependency ${name}`, max: 2 });
      }
      // A directory or file the resolver names (`replacement directory ../retry does not exist`).
      const dir = /(?:directory|path|file) ['"`]?(\.{0,2}\/?[\w./-]*\/[\w.-]+|\.\.?\/[\w.-]+)['"`]? does not exist|does not exist: ['"`]?([\w./-]+)/.exec(f.message);
      const p = dir?.[1] ?? dir?.[2];
      if (p) out.push({ files: (r) => MANIFEST_FILE.test(r) || CONFIG_FILE.test(r), line: (t) => t.includes(p), message: `names ${p}, which does not exist`, max: 1 });
      break;
    }
    case 'network':
    case 'permission-credentials': {
      // The address as the message names it (a URL's `host:port`, psql's `"host", port N`), searched as written in any
      // file that may hold a setting (`.gitmodules`, `.lfsconfig`, `sqitch.conf`, `config/flags.yml`), configuration first.
      const { host, port } = addressOf(f.message, f.host);
      const anywhere = (r: string): boolean => settingFile(r, MANIFEST_FILE);
      const configFirst = (r: string): boolean => CONFIG_FILE.test(r) || MANIFEST_FILE.test(r) || DOT_CONFIG.test(r);
      if (host && port) out.push({ files: anywhere, line: (t) => !notAClientSetting(t) && (t.includes(`${host}:${port}`) || (t.includes(host) && new RegExp(`\\b${port}\\b`).test(t))), message: `names ${host}:${port}`, max: 2, prefer: configFirst });
      else if (host && !/^(?:localhost|127\.0\.0\.1)$/.test(host)) out.push({ files: anywhere, line: (t) => !notAClientSetting(t) && t.includes(host), message: `names ${host}`, max: 2, prefer: configFirst });
      else if (port) out.push({ files: configFirst, line: (t) => !notAClientSetting(t) && new RegExp(`[:=\\s]${port}\\b`).test(t), message: `names port ${port}`, max: 2 });
      if (f.class === 'permission-credentials' && /auth|token|credential|password|401|403|E401|E403|unauthori[sz]ed|forbidden|denied \(publickey/i.test(f.message)) {
        out.push({ files: (r) => CREDENTIAL_FILE.test(r), line: (t) => /auth|token|password|username|_cred|email/i.test(t), message: 'sets the credentials the tool uses', max: 1 });
      }
      break;
    }
    case 'ci-script': {
      // A program refusing an option the command passed: the options its source defines.
      const option = refusedOptionOf(f.message);
      if (option) {
        out.push({ files: (r) => SOURCE_FAMILIES.some((re) => re.test(r)) && !TEST_PATH.test(r), line: (t) => /(?:add_argument|add_option|\.option|\.flag|Flag|\.arg|long\s*=|getopt|OptionParser|\boption\b)\s*\(?[^\n]*['"]--?[\w-]{2,}['"]/.test(t), message: 'defines the options the program takes', max: 2 });
      }
      // A check on a file the build should have made (`test -s dist/bundle.js`): where the configuration names that file.
      const checked = missingPathOf(f.message);
      const checkedName = checked?.slice(checked.lastIndexOf('/') + 1);
      if (checked && checkedName && checkedName.length >= 4) out.push({ files: (r) => CONFIG_FILE.test(r) || MANIFEST_FILE.test(r), line: (t) => t.includes(checkedName) && !t.includes(checked), message: `names ${checkedName}, the file the check looks for as ${checked}`, max: 1 });
      // Maven's `-pl X` that the reactor has no module for: the root POM's module list (fx12).
      const selected = /Could not find the selected project in the reactor: :?([\w.-]+)/.exec(f.message)?.[1];
      if (selected) out.push({ files: (r) => r === 'pom.xml', line: (t) => /<modules>|<module>/.test(t), message: `lists the modules the reactor has (no ${selected})`, max: 1 });
      if (f.tool === 'npm' && f.symbol) out.push({ files: (r) => base(r) === 'package.json', line: (t) => /"scripts"\s*:/.test(t), message: `lists the scripts package.json defines (no ${f.symbol})`, max: 1 });
      else if (GRADLE_TASK_MISSING.test(f.message)) out.push({ files: (r) => /(?:^|\/)build\.gradle(?:\.kts)?$/.test(r), line: (t) => GRADLE_TASK_DECLARATION.test(t), message: `defines the tasks gradle knows (no ${GRADLE_TASK_MISSING.exec(f.message)?.[1] ?? ''})`, max: 1 });
      else if (f.tool === 'make' && f.symbol) out.push({ files: (r) => /(?:^|\/)(?:GNU)?[Mm]akefile$|\.mk$/.test(r), line: (t) => /^[\w.%/-]+(?:\s+[\w.%/-]+)*\s*::?(?!=)/.test(t), message: `defines the targets make knows (no ${f.symbol})`, max: 1 });
      else if (f.symbol && f.symbol.length >= 2) {
        // A revision range (`v2.4.0..HEAD`): each named end, where a file or script names it.
        for (const sym of f.symbol.split(/\.{2,3}/).filter((p) => p.length >= 2 && p !== 'HEAD').slice(0, 2)) {
          out.push({ files: (r) => !/\.(?:md|rst)$/i.test(r), line: (t) => t.includes(sym), message: `names ${sym}`, max: 2 });
        }
      }
      const unbound = /(?:^|:\s)([A-Za-z_]\w*): (?:unbound variable|parameter null or not set)/.exec(f.message)?.[1];
      if (unbound) out.push({ files: (r) => CONFIG_FILE.test(r), line: (t) => new RegExp(`\\b${unbound}\\b`).test(t), message: `names ${unbound}`, max: 2 });
      break;
    }
    case 'link-error': {
      const dup = duplicateSymbolOf(f.message);
      if (dup) {
        const name = dup.split('::').pop() as string;
        const def = new RegExp(`^(?!\\s*extern\\b)(?!\\s*(?://|\\*|/\\*|#)).*\\b${escapeRegExp(name)}\\b(?:\\s*\\[[^\\]]*\\])?\\s*(?:=|;|\\{|\\()`);
        out.push({ files: (r) => /\.(?:h|hh|hpp|hxx|inc)$/.test(r), line: (t) => def.test(t) && !/^\s*(?:return|if|while|for)\b/.test(t) && !/\)\s*;\s*$/.test(t), message: `defines ${dup} in a header, so every file that includes it defines it again`, max: 1 });
      }
      // A symbol not found: the build file's list of the sources or objects it compiles and links (`SRCS = a.c b.c`,
      // `add_executable(app a.c b.c)`), where a file that defines it is added.
      else if (f.symbol || /undefined (?:reference|symbol)/.test(f.message)) {
        out.push({ files: (r) => BUILD_LIST_FILE.test(r), line: (t) => SOURCE_LIST.test(t), message: 'lists the files the build compiles and links', max: 1 });
      }
      break;
    }
    case 'compile-error': {
      // A feature newer than the language level the build compiles at (`text blocks are not supported in -source 11`,
      // `only available with -std=c++17`): the build file's line that sets the level.
      const level = LANGUAGE_LEVEL_MESSAGE.exec(f.message);
      if (level) {
        const n = level.slice(1).find((x) => x !== undefined && /^\d+$/.test(x));
        out.push({ files: (r) => BUILD_SETTINGS_FILE.test(r), line: (t) => LANGUAGE_LEVEL_SETTING.test(t) && (n === undefined || new RegExp(`(?:^|[^\\d.])${n}(?:$|[^\\d])`).test(t)) && !/^\s*(?:#|\/\/)/.test(t), message: 'sets the language level the compiler checks against', max: 1 });
      }
      // A name the compiler cannot see here, declared in another file of the same language (an import or include missing).
      // gcc in a UTF-8 locale quotes the name as ‘x’, which the finding may not have read as its symbol.
      const sym = f.symbol ?? missingSymbolOf(f.message);
      const family = failing ? SOURCE_FAMILIES.find((re) => re.test(failing)) : undefined;
      if (sym && family && /^[A-Za-z_$][\w$]*$/.test(sym)) {
        out.push({
          files: (r) => family.test(r) && !(failing && (failing === r || failing.endsWith(`/${r}`) || r.endsWith(`/${failing}`))),
          // A header's prototype (`char *str_trim(char *s);`) declares it too.
          line: (t, r) => new RegExp(`\\b${escapeRegExp(sym)}\\b`).test(t) && (definitionsIn([t]).some((d) => d.name === sym) || (/\.(?:h|hh|hpp|hxx)$/.test(r) && new RegExp(`^\\s*(?:extern\\s+)?[A-Za-z_][\\w\\s*&:<>,]*?\\b${escapeRegExp(sym)}\\s*\\([^;{}]*\\)\\s*(?:const\\s*)?;`).test(t))),
          message: `declares ${sym}, the name the compiler could not find`,
          max: 2,
          // In C and C++ the header is what the using file includes; the definition's file is second.
          prefer: (r) => /\.(?:h|hh|hpp|hxx)$/.test(r),
        });
      }
      // A type argument outside a generic's constraint (Go: `float64 does not implement agg.Number (float64 missing in
      // ~int | ~int64)`): where the constraint is declared, the other side of the fix (ux8).
      const constraint = constraintOf(f.message);
      if (constraint && failing?.endsWith('.go')) {
        const declared = new RegExp(`^\\s*type\\s+${escapeRegExp(constraint.name)}(?:\\[[^\\]]*\\])?\\s+interface\\b`);
        out.push({ files: (r) => r.endsWith('.go'), line: (t) => declared.test(t), message: `declares ${constraint.name}, the constraint ${constraint.type} is not in`, max: 1 });
      }
      // A Rust file that is a module of its crate: the `mod` line that declares it, whose `#[cfg(...)]` (a feature) may
      // compile it only in some builds (ux8's route-planner: `imperial.rs` under `#[cfg(feature = "imperial")]`).
      const rsMod = failing && /\.rs$/.test(failing) && !/(?:^|\/)(?:lib|main|mod)\.rs$/.test(failing) ? /([A-Za-z_]\w*)\.rs$/.exec(failing)?.[1] : undefined;
      if (rsMod && failing) {
        const dir = failing.slice(0, failing.lastIndexOf('/') + 1);
        const declared = new RegExp(`^\\s*(?:#\\[[^\\]]*\\]\\s*)*(?:pub(?:\\([^)]*\\))?\\s+)?mod\\s+${rsMod}\\s*;`);
        // The crate root or `mod.rs` of the failing file's own directory (the log's path may be the agent's absolute one).
        const sibling = (r: string): boolean => {
          const rDir = r.slice(0, r.lastIndexOf('/') + 1);
          return /(?:^|\/)(?:lib|main|mod)\.rs$/.test(r) && (rDir === '' ? dir === '' : `/${dir}`.endsWith(`/${rDir}`));
        };
        out.push({ files: sibling, line: (t) => declared.test(t), message: `declares the module ${rsMod}, which the failing file is`, max: 1 });
      }
      // A call whose arguments do not match the declaration: the declaration, with its parameters.
      const callee = calleeOf(f.message) ?? calleeAtColumn(f, sourceLine);
      const fam = failing ? SOURCE_FAMILIES.find((re) => re.test(failing)) : undefined;
      if (callee && fam) {
        const call = new RegExp(`\\b${escapeRegExp(callee)}\\s*\\(`);
        out.push({ files: (r) => fam.test(r), line: (t) => call.test(t) && definitionsIn([t]).some((d) => d.name === callee), message: `declares ${callee}, the callable the call does not match`, max: 1 });
      }
      break;
    }
    case 'test-assertion':
    case 'test-error': {
      // ctest's output check (`Required regular expression not found. Regex=[^semver [0-9]+`): where the build file sets it
      // (a CMake string doubles its backslashes).
      const regex = /Regex=\[(.{6,}?)\]?\s*$/.exec(f.message)?.[1];
      if (regex) out.push({ files: (r) => /(?:^|\/)CMakeLists\.txt$|\.cmake$/.test(r), line: (t) => t.replace(/\\\\/g, '\\').includes(regex.slice(0, 24)) && /REGULAR_EXPRESSION/.test(t), message: 'sets the output the test requires', max: 1 });
      // The functions the failing line calls, where the project defines them (not in tests): the code to look at.
      const fam = failing ? SOURCE_FAMILIES.find((re) => re.test(failing)) : undefined;
      const code = (sourceLine ?? '').replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""');
      // Go's convention prints the call it checked (`Percent(2, 3) = 66, want 67`): a test whose line only formats it names it there.
      const checked = /(?:^|\s|:\s)((?:[A-Za-z_]\w*\.)?[A-Za-z_]\w*)\([^()]*\) = .+?,? want /.exec(f.message)?.[1]?.split('.').pop();
      const callees = [...(checked ? [checked] : []), ...[...code.matchAll(/([A-Za-z_][\w]*)\s*\(/g)].filter((m) => !typedElsewhere(code.slice(0, m.index))).map((m) => m[1] as string)].filter((n, i, all) => n.length >= 3 && !NOT_THE_CODE.test(n) && all.indexOf(n) === i);
      // A check of a value the test computed above it (`auto got = refill_tokens(...)`, `slot = finder.firstFree(...)`):
      // the call that computed it, where no file name pairs the test with the code (session 54, fx16).
      const computed = computingCalls(code, above).filter((n) => !callees.includes(n) && n.length >= 3 && !NOT_THE_CODE.test(n)).slice(0, 1);
      for (const name of fam ? [...callees.slice(0, 2), ...computed] : []) {
        const call = new RegExp(`\\b${escapeRegExp(name)}\\s*\\(`);
        const why = name === checked ? 'the failing check names as the call it checked' : computed.includes(name) ? 'is called above the failing line for a value it uses' : 'the failing line calls';
        out.push({ files: (r) => (fam as RegExp).test(r) && !TEST_PATH.test(r), line: (t) => call.test(t) && definitionsIn([t]).some((d) => d.name === name && d.kind === 'callable'), message: `defines ${name}, which ${why}`, max: 1 });
      }
      break;
    }
    case 'timeout-aborted':
    case 'out-of-memory': {
      // Where the limit is set: a number the log printed with the setting's usual words, or the usual settings.
      const words = f.class === 'timeout-aborted' ? /time-?out|deadline|max[_-]?time|timeLimit|@Timeout/i : /Xmx|max-old-space-size|ulimit|mem(?:ory)?[_-]?limit|maxmemory|heap|memory:|mem_limit|MaxRAM/i;
      const numbers = [...f.message.matchAll(/\b(\d{2,})\s*(?:ms|s|m|sec|seconds|minutes|[kKmMgG]i?[bB]?)?\b/g)].map((m) => m[1] as string).slice(0, 2);
      const hasNumber = (t: string): boolean => numbers.some((n) => new RegExp(`\\b${n}\\b`).test(t));
      out.push({ files: (r) => CONFIG_FILE.test(r) || MANIFEST_FILE.test(r) || SOURCE_FAMILIES.some((re) => re.test(r)), line: (t) => words.test(t) && (numbers.length === 0 || hasNumber(t)) && /\d/.test(t), message: f.class === 'timeout-aborted' ? 'sets a time limit' : 'sets a memory limit', max: 1, prefer: (r) => CONFIG_FILE.test(r) });
      break;
    }
    case 'missing-tool': {
      // Where the project asks for a version: the number in the message, on a line that names a version setting.
      const versions = [...f.message.matchAll(/\b(\d+(?:\.\d+){0,2})\b/g)].map((m) => m[1] as string).filter((v) => v !== '0' && v !== '1').slice(0, 3);
      const settings = /version|release|source|target|toolchain|requires|engines|rust-version|python_requires|\bgo \d|node|java|jdk|sdk/i;
      if (versions.length > 0) out.push({ files: (r) => MANIFEST_FILE.test(r) || CONFIG_FILE.test(r) || /(?:^|\/)\.(?:nvmrc|node-version|python-version|tool-versions|ruby-version|java-version|sdkmanrc)$|rust-toolchain(?:\.toml)?$/.test(r), line: (t) => settings.test(t) && versions.some((v) => new RegExp(`(?:^|[^\\d.])${escapeRegExp(v)}(?:$|[^\\d])`).test(t)), message: 'asks for the version', max: 1 });
      if (f.symbol && /^[\w.+-]{2,}$/.test(f.symbol)) {
        const tool = new RegExp(`(?:^|[\\s;&|(\`$'"])${escapeRegExp(f.symbol)}(?:$|[\\s;&|)'"])`);
        out.push({ files: (r) => CONFIG_FILE.test(r) && !/\.json$/.test(r), line: (t) => tool.test(t) && !/^\s*#/.test(t), message: `runs ${f.symbol}`, max: 1 });
      }
      break;
    }
    default:
      break;
  }
  // An option the program refused that a configuration file passes (pytest.ini's `addopts = -n auto`): where it comes from.
  const refused = f.class === 'ci-script' || f.class === 'missing-tool' ? refusedOptionOf(f.message) : undefined;
  if (refused && refused.startsWith('-')) {
    const word = new RegExp(`(?:^|[\\s"'=\\[,])${escapeRegExp(refused)}(?:$|[\\s"',=\\]])`);
    out.push({ files: (r) => (CONFIG_FILE.test(r) || MANIFEST_FILE.test(r)) && !/\.(?:sh|bash|zsh|ps1|cmd|bat|groovy)$|(?:^|\/)(?:Jenkinsfile|Makefile|GNUmakefile)$/.test(r), line: (t) => word.test(t) && !/^\s*(?:#|;|\/\/)/.test(t), message: `passes ${refused} to the program from its configuration`, max: 1 });
  }
  if (f.class === 'permission-credentials' || f.class === 'disk-full') {
    // A path the message names (`cannot create 'out/a.tgz': Permission denied`): where the scripts name it.
    const p = /(?:open|create|write|access|mkdir|unlink|remove|cannot \w+)\s+['"`]?([\w./~-]*\/[\w.-]+|[\w-]+\.[\w]+)['"`]?[:,]?\s*(?:Permission denied|No space left|EACCES|EPERM|ENOSPC)|(?:EACCES|EPERM|ENOSPC)[^'"`]*['"`]([^'"`]+)['"`]|([\w./~-]+\/[\w.-]+|[\w-]+\.[\w]+): Permission denied|(?:Permission denied|No space left on device): ['"]([^'"]+)['"]/.exec(f.message);
    // Else a path the message quotes (nginx's `open() "/var/log/nginx/x.log" failed (13: Permission denied)`).
    const quoted = p ? undefined : /Permission denied|No space left|EACCES|EPERM|ENOSPC/.test(f.message) ? quotedPathOf(f.message) : undefined;
    const path = p ? (p[1] ?? p[2] ?? p[3] ?? p[4]) : quoted;
    const name = path?.slice(path.lastIndexOf('/') + 1);
    // The directory, where a script sets it apart from the file's name (`outDir = process.env.REPORT_DIR || '/srv/reports'`).
    const dir = path && path.lastIndexOf('/') > 0 ? path.slice(0, path.lastIndexOf('/')) : undefined;
    if (path && dir && dir.split('/').filter(Boolean).length >= 2) out.push({ files: (r) => CONFIG_FILE.test(r) || SOURCE_FAMILIES.some((re) => re.test(r)), line: (t) => t.includes(dir) && !t.includes(path), message: `names ${dir}`, max: 1 });
    // The path as written; a file's name alone only where the message named it that way (a quoted path is looked for whole),
    // and said as what the line holds (`names ci-notify`, not the path it does not write).
    if (path && name && name.length >= 3) out.push({ files: (r) => CONFIG_FILE.test(r) || SOURCE_FAMILIES.some((re) => re.test(r)), line: (t) => t.includes(quoted ?? name), message: (t) => `names ${t.includes(path) ? path : name}`, max: 1 });
  }
  return out;
}

/** The workspace path a relative specifier names from an importing file (`src/main.js`, `./util/f.js` -> `src/util/f.js`). */
function joinPath(importer: string, specifier: string): string {
  const parts = importer.split('/').slice(0, -1);
  for (const p of specifier.split('/')) {
    if (p === '..') parts.pop();
    else if (p !== '.' && p !== '') parts.push(p);
  }
  return parts.join('/');
}

/** The names an import line takes (`import { a, type B } from './x'`, `import c from`, `const { d } = require(`). */
function importedNames(line: string): string[] {
  const braces = /^\s*(?:import|export)\b[^{]*\{([^}]*)\}|^\s*(?:const|let|var)\s*\{([^}]*)\}\s*=\s*require\(/.exec(line);
  const names = (braces?.[1] ?? braces?.[2] ?? '').split(',').map((n) => n.trim().replace(/^type\s+/, '').split(/\s+as\s+|\s*:\s*/)[0]?.trim() ?? '');
  const dflt = /^\s*import\s+(?:type\s+)?([A-Za-z_$][\w$]*)\s*(?:,|\s+from\b)|^\s*(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*require\(/.exec(line);
  return [...names, dflt?.[1] ?? dflt?.[2] ?? ''].filter((n) => /^[A-Za-z_$][\w$]{2,}$/.test(n));
}

/** Calls on a test's line that are the test framework's or the language's, not the code under test. */
/**
 * Whether a call's receiver (the code before `name(`) has a type the line does not show: a method
 * called on a field, an index or another call's result (`self.cache.borrow_mut().insert(`,
 * `rows[0].get(`) belongs to that value's type, often a library's map or list, so a project
 * definition of the same name is not known to be the one called. A bare call, a static path
 * (`Ring::push(`) and a method of one named value (`cart.total(`, `self.load(`) are kept.
 */
/**
 * The calls that computed the values a check line tests: for each name the line uses, the nearest line above (the test's
 * lines before the check, nearest last) that assigns it (`got = f(...)`, `auto got = f(...)`, `got := f(...)`, `let got =
 * f(...)`, `LocalTime slot = finder.firstFree(...)`), and the calls on its right side, in order.
 */
export function computingCalls(checkLine: string, above: readonly string[]): string[] {
  const used = new Set([...checkLine.matchAll(/[A-Za-z_]\w*/g)].map((m) => m[0]));
  const out: string[] = [];
  const done = new Set<string>();
  for (const raw of [...above].reverse()) {
    // The test's own lines only: the line that starts it (or another test) ends the search.
    if (/^\s*(?:(?:public|private|protected|static|async)\s+)*(?:def|defp|fn|fun|func|function|void|test|it|describe)\b|^\s*@Test\b|^\s*TEST(?:_F)?\s*\(|^\S/.test(raw)) break;
    const line = raw.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""');
    const a = /(?:^|[\s(,])([A-Za-z_]\w*)\s*(?::\s*[\w<>[\], ]+)?\s*:?=(?!=)\s*(.+)$/.exec(line);
    const name = a?.[1];
    if (!a || !name || !used.has(name) || done.has(name)) continue;
    done.add(name);
    const rhs = a[2] as string;
    // A method of a value computed on the line is not looked up (`parse().value()`); a module's function is (`Money.Format.price(`).
    for (const m of rhs.matchAll(/([A-Za-z_]\w*)\s*\(/g)) {
      const before = rhs.slice(0, m.index);
      if ((!typedElsewhere(before) || /(?:^|[^\w$.)\]>])(?:[A-Z]\w*\.)+$/.test(before)) && !out.includes(m[1] as string)) out.push(m[1] as string);
    }
  }
  return out;
}

function typedElsewhere(before: string): boolean {
  const recv = /(?:\.|->|\?\.)\s*$/.exec(before);
  if (!recv) return false;
  const rest = before.slice(0, recv.index).trimEnd();
  return !/(?:^|[^\w$.)\]>])[A-Za-z_$][\w$]*$/.test(rest);
}

const NOT_THE_CODE = /^(?:assert\w*|expect\w*|to[A-Z]\w*|should\w*|must\w*|refute\w*|verify|check|require|ensure|eq|equal|equals|ok|is|isa|like|cmp_ok|is_deeply|describe|it|test|context|print\w*|println|printf|fprintf|puts|len|str|int|float|bool|list|dict|set|tuple|sorted|range|repr|type|isinstance|String|Number|Boolean|Object|Array|Math|JSON|Some|Ok|Err|vec|format|new|sizeof|strcmp|memcmp|abs|min|max|fail|panic|Errorf|Fatalf|Error|Fatal|Logf|EXPECT_\w+|ASSERT_\w+|CHECK\w*|REQUIRE\w*|assert_\w+|debug_assert\w*)$/;
const TEST_PATH = /(?:^|\/)(?:tests?|spec|__tests__|t)\/|(?:^|\/)test_[^/]+$|_test\.\w+$|\.(?:test|spec)\.\w+$|Tests?\.\w+$|_spec\.rb$|_SUITE\.erl$/;

/**
 * The workspace lines that name the finding's key name: at most `max` hits over all searches,
 * each search bounded to CLUE_FILES_MAX files of a workspace. A file named like a missing file
 * counts as a hit on its first line.
 */
export async function findClues<W>(reader: ClueReader<W>, workspaces: readonly W[], f: Finding, max = 3, sourceLine?: string, above: readonly string[] = []): Promise<ClueHit<W>[]> {
  const hits: ClueHit<W>[] = [];
  const seen = new Set<string>();
  const missing = missingPathOf(f.message);
  // A relative import that did not resolve (`./money.js`), and the file that imports it.
  const spec = /(?:Cannot find module|Could not resolve|Can't resolve|Failed to resolve import) ['"`](\.\.?\/[^'"`]+)['"`]/.exec(f.message)?.[1];
  const importer = (f.location?.file ?? /\bfrom ['"`]([\w./@-]+\.\w+)['"`]/.exec(f.message)?.[1])?.replace(/^\.\//, '');
  const searches = searchesOf(f, sourceLine, above);
  // Nothing to look for: the workspace is not even listed (an index of a large one costs tens of ms).
  if (!missing && searches.length === 0) return hits;
  for (const workspace of workspaces) {
    const files = await reader.index(workspace);
    // A file named like the missing one (`strbuf.h` -> `include/str_buf.h`): a rename or a typo.
    if (missing && hits.length < max) {
      const stem = normalisedStem(missing);
      const ext = /\.[^./]+$/.exec(base(missing))?.[0];
      // Same extension and a near name, or the same name with another extension (`hosts.ini` -> `hosts.txt`); an import without extension matches any.
      // A relative import (`./format.js`) also matches a file of that very name in another directory: a move.
      const moved = spec !== undefined && ext !== undefined;
      // Or the same words with a directory for a separator (`requirements-dev.txt` -> `requirements/dev.txt`): a move into a folder.
      const flat = (p: string): string => p.toLowerCase().replace(/[/_.-]/g, '');
      const folded = (r: string): boolean => r.includes('/') && r !== missing && !r.endsWith(`/${missing}`) && flat(r) === flat(missing);
      const like = files.filter((r) => ((base(r) !== base(missing) || (moved && !(importer && r === joinPath(importer, spec)))) && stem.length >= 3 && ((ext === undefined || r.endsWith(ext)) ? near(normalisedStem(r), stem) : normalisedStem(r) === stem) && !LOCK_FILE.test(r)) || folded(r));
      for (const rel of like.slice(0, 2)) {
        const file = await reader.read(workspace, rel);
        if (file instanceof Error) continue;
        seen.add(`${rel}:0`);
        hits.push({ workspace, rel, lines: file.lines, index: 0, message: `a file named like ${spec ?? missing}, which does not exist` });
        if (hits.length >= max) return hits;
      }
    }
    // A relative import that resolves to nothing: the file of the same language that exports what the line imports (a rename).
    const imported = spec && sourceLine ? importedNames(sourceLine) : [];
    const fam = importer ? SOURCE_FAMILIES.find((re) => re.test(importer)) : undefined;
    if (spec && imported.length > 0 && fam && hits.length < max && !hits.some((h) => h.message.startsWith('a file named like'))) {
      const failing = importer as string;
      for (const rel of files.filter((r) => fam.test(r) && !TEST_PATH.test(r) && !failing.endsWith(r) && !r.endsWith(failing)).slice(0, CLUE_FILES_MAX)) {
        const file = await reader.read(workspace, rel);
        if (file instanceof Error || file.lines.length > CLUE_LINES_MAX) continue;
        const def = definitionsIn(file.lines).find((d) => imported.includes(d.name) && /\bexport\b|module\.exports|exports\./.test(file.lines[d.index] ?? ''));
        if (!def) continue;
        seen.add(`${rel}:${def.index}`);
        hits.push({ workspace, rel, lines: file.lines, index: def.index, message: `exports ${def.name}, which the failing line imports from ${spec}` });
        break;
      }
    }
    for (const search of searches) {
      let found = 0;
      const candidates = files.filter((r) => search.files(r) && !LOCK_FILE.test(r));
      if (search.prefer) candidates.sort((a, b) => Number(search.prefer?.(b)) - Number(search.prefer?.(a)));
      for (const rel of candidates.slice(0, CLUE_FILES_MAX)) {
        if (found >= search.max || hits.length >= max) break;
        const file = await reader.read(workspace, rel);
        if (file instanceof Error || file.lines.length > CLUE_LINES_MAX) continue;
        const index = file.lines.findIndex((t, i) => !seen.has(`${rel}:${i}`) && search.line(t, rel));
        if (index < 0) continue;
        seen.add(`${rel}:${index}`);
        hits.push({ workspace, rel, lines: file.lines, index, message: typeof search.message === 'string' ? search.message : search.message(file.lines[index] ?? '') });
        found++;
      }
      if (hits.length >= max) return hits;
    }
  }
  return hits;
}
