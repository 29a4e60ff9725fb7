/**
 * Where a failure that names no source line came from, read from the log and the file list alone
 * (issue 25, "how do I fix it?": the code to look at). Two general cases:
 * - a failing test whose finding has no place in its test file: the test file is a file argument
 *   of the command that ran the tests (`octave tests/test_movavg.m`, `prove t/cart.t`) or the file
 *   named after the failing test's suite (`CartTest::testRejects...` -> `CartTest.php`);
 * - a program that crashed (a signal, an abort) with no frame: the build line that produced it
 *   (`cc -O2 -o stats src/stats.c`) names its sources.
 * Nothing here guesses by content: a name must match a file of the workspace exactly.
 */
import { subjectOf } from './subject.js';

const TIMESTAMP = /^\d{4}-\d\d-\d\dT[\d:.]+Z ?/;

/** The commands `sh -x` traced (`+ cmd`) above 1-based line `n`, nearest first, at most `max` lines back. */
function commandsAbove(lines: readonly string[], n: number, max: number): { line: number; command: string }[] {
  const out: { line: number; command: string }[] = [];
  for (let i = Math.min(lines.length, n) - 1; i >= Math.max(0, n - 1 - max); i--) {
    const m = /^\+{1,2} (\S.*)$/.exec((lines[i] ?? '').replace(TIMESTAMP, '').trim());
    if (m && !/^(?:export )?[A-Za-z_]\w*=/.test(m[1] as string)) out.push({ line: i + 1, command: m[1] as string });
  }
  return out;
}

/** Options whose value is a setup or configuration file, not the tests to run. */
const SETUP_OPTION = /^(?:-r|--require|--import|--loader|-c|--config|--setup(?:-files?)?|--setupFiles|--globalSetup|--env-file|--rootDir|--reporter)$/;

/** A command's words, quotes dropped (enough to read file arguments). */
const wordsOf = (command: string): string[] => command.split(/\s+/).map((w) => w.replace(/^['"]|['"]$/g, '')).filter(Boolean);

/** A path of the file list that is `word` (relative, `./` dropped), or ends with it after a slash. */
function fileNamed(word: string, files: readonly string[]): string | undefined {
  const w = word.replace(/^\.\//, '');
  if (!/[\w-]\.[A-Za-z][\w]{0,5}$/.test(w) || w.startsWith('-')) return undefined;
  return files.find((f) => f === w) ?? (w.includes('/') ? (files.find((f) => f.endsWith(`/${w}`)) ?? (w.startsWith('/') ? files.find((f) => f.includes('/') && w.endsWith(`/${f}`)) : undefined)) : undefined);
}

/** A file that reads as a test file: the usual names, or under a test directory. */
export const looksLikeTest = (rel: string): boolean =>
  subjectOf(rel) !== undefined || /(?:^|\/)(?:tests?|spec|__tests__|t)\/|(?:^|\/)test_|_test\.|[Tt]ests?\.\w+$|\.t$/.test(rel);

/**
 * The test file of a failing test: a file argument of the nearest command above the failure
 * that ran one (within 400 lines), else the test file named by a word of the test's name.
 */
export function failingTestFile(lines: readonly string[], messageLine: number, testName: string | undefined, files: readonly string[]): string | undefined {
  for (const { command } of commandsAbove(lines, messageLine, 400).slice(0, 3)) {
    const words = wordsOf(command);
    for (const [k, word] of words.entries()) {
      // Not the program, and not an option's value that is no test (`--require ./test/setup.js`, `--config x`).
      if (k === 0 || SETUP_OPTION.test(words[k - 1] ?? '')) continue;
      const rel = fileNamed(word, files);
      if (rel && looksLikeTest(rel)) return rel;
    }
  }
  // A test file the failure's own line names (mocha's `Timeout of 2000ms exceeded. (/agent/ws/test/q.test.js)`,
  // `backoff-test.rkt: raco test: timeout after 10 seconds`), by its path as printed or the agent's absolute path.
  for (const word of (lines[messageLine - 1] ?? '').replace(TIMESTAMP, '').split(/[\s()'"`,;]+/)) {
    const w = word.replace(/:(?:\d+(?::\d+)?)?$/, '');
    const byName = /^[\w.-]+\.[A-Za-z]\w{0,5}$/.test(w) ? files.filter((f) => f.endsWith(`/${w}`)) : [];
    const rel = fileNamed(w, files) ?? (byName.length === 1 ? byName[0] : undefined);
    if (rel && looksLikeTest(rel)) return rel;
  }
  if (!testName) return undefined;
  // `CartTest::testX`, `tests.test_cart.CartTest.test_x`, `test_total (test_cart.CartTests)`, `TestCart/total`,
  // and a JS suite's first word (`retry > rethrows ...` -> `test/retry.test.js`).
  const names = new Set(testName.split(/[^A-Za-z0-9_]+/).filter((w) => w.length >= 3));
  const hits = files.filter((f) => {
    const base = f.slice(f.lastIndexOf('/') + 1).replace(/\.[^.]+$/, '');
    return (names.has(base) || names.has(base.replace(/\.(?:test|spec)$/, ''))) && looksLikeTest(f);
  });
  return hits.length === 1 ? hits[0] : undefined;
}

/** Source files a compiler line names, by their extensions. */
const SOURCE_FILE = /\.(?:c|cc|cpp|cxx|c\+\+|m|mm|f|f90|f95|for|d|pas|pp|adb|ads|zig|nim|rs|go|swift|s|S|asm)$/;

/**
 * The sources of the program a failing command ran (`./stats`, `build/app --flag`): the files
 * of the build line above that wrote it (`-o stats`, `-o build/app`), when the workspace holds them.
 */
export function programSources(lines: readonly string[], messageLine: number, files: readonly string[]): { program: string; built: { line: number; command: string }; sources: string[] } | undefined {
  const above = commandsAbove(lines, messageLine, 200);
  const ran = above[0];
  const program = ran ? wordsOf(ran.command)[0] : undefined;
  if (!ran || !program || !/\//.test(program)) return undefined;
  const name = program.replace(/^\.\//, '');
  for (const built of above.slice(1)) {
    const words = wordsOf(built.command);
    const out = words.findIndex((w, i) => (w === '-o' && (words[i + 1] ?? '').replace(/^\.\//, '') === name) || w === `-o${name}`);
    if (out < 0) continue;
    const sources = words.flatMap((w) => {
      const rel = SOURCE_FILE.test(w) ? fileNamed(w, files) : undefined;
      return rel ? [rel] : [];
    });
    return sources.length > 0 ? { program, built, sources } : undefined;
  }
  return undefined;
}

/** Test files read at most when looking for the one that declares a failing test by its name. */
const DECLARING_FILES_MAX = 200;

/**
 * The test file that declares the failing test's function (`func TestSumAll(`, `def test_total(`, `fn parses_all(`),
 * when the test's name names no file (`go test` prints `--- FAIL: TestSumAll` without one): the test files of the
 * workspace read for the declaration, one match only. A name must be declared to the letter; nothing is guessed.
 */
export async function testFileDeclaring(testName: string | undefined, files: readonly string[], read: (rel: string) => Promise<readonly string[] | undefined>): Promise<string | undefined> {
  const name = testName?.split(/[^\w]+/).find((w) => w.length >= 4 && /^[A-Za-z_]\w*$/.test(w));
  if (!name) return undefined;
  const declares = new RegExp(String.raw`\b(?:func|def|fn|function|sub|void)\s+(?:\([^)]*\)\s*)?${name}\s*[(<]`);
  const hits: string[] = [];
  for (const rel of files.filter((f) => looksLikeTest(f) && SOURCE_OR_SCRIPT.test(f)).slice(0, DECLARING_FILES_MAX)) {
    const lines = await read(rel);
    if (lines?.some((l) => declares.test(l))) hits.push(rel);
    if (hits.length > 1) return undefined;
  }
  return hits[0];
}

/** Files a test function is declared in (not data, not docs). */
const SOURCE_OR_SCRIPT = /\.(?:go|py|rs|js|mjs|cjs|ts|rb|java|kt|c|cc|cpp|php|pl|t|lua|ex|exs)$/;
