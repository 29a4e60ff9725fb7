/**
 * A test file that failed to load (helper ux11; ux10's notify-hook): node's test runner (`node --test`) runs each
 * file in a child process and reports the file as a test of its own; when the file throws before any test starts
 * (a `require()` that fails, a syntax error), the file's entry is the one `not ok` (`failureType: 'testCodeFailure'`,
 * the child's `exitCode`), with no subtest under it. Its tests did not run, so "1 failing test" would count the file,
 * and how many tests it holds is not in the log.
 */
import { cite, inlineCode } from '../logtext.js';

/** A line of the log by its number (1-based). */
type LineText = (line: number) => string | undefined;

export interface UnloadedFile {
  /** The `not ok` line, and the YAML lines that say the file's process failed before its tests. */
  line: number;
  failureType: number;
  exitCode: number;
}

/** A file name a test runner runs (`test/a.test.js`, `/w/spec/b.spec.mts`). */
const TEST_FILE = /\.(?:[cm]?[jt]sx?)$/;
const body = (t: string | undefined): string => (t ?? '').replace(/^\[?\d{4}-\d\d-\d\dT[\d:.]+Z\]? ?/, '').trimEnd();

/** The failing "test" named `name` at line `line` when it is a test file whose process failed before any test of it ran. */
export function unloadedTestFile(lineText: LineText, name: string, line: number): UnloadedFile | undefined {
  if (line <= 0 || !TEST_FILE.test(name)) return undefined;
  const head = /^(\s*)not ok \d+ - (.*)$/.exec(body(lineText(line)));
  if (!head || (head[2] as string).trim() !== name) return undefined;
  const indent = (head[1] as string).length;
  // No subtest of the file reported between its `# Subtest:` line and its `not ok`: none started.
  for (let k = line - 1; k >= Math.max(1, line - 5000); k--) {
    const t = body(lineText(k));
    const sub = /^(\s*)# Subtest: (.*)$/.exec(t);
    if (sub && (sub[1] as string).length === indent && (sub[2] as string).trim() === name) break;
    if (/^\s*(?:not )?ok \d+ - /.test(t) && t.length - t.trimStart().length > indent) return undefined;
    if (k === Math.max(1, line - 5000)) return undefined;
  }
  let failureType: number | undefined;
  let exitCode: number | undefined;
  for (let k = line + 1; k <= line + 20; k++) {
    const t = body(lineText(k)).trim();
    if (t === '...' || t === '') break;
    if (t === "failureType: 'testCodeFailure'") failureType = k;
    const code = /^exitCode: (\d+)$/.exec(t);
    if (code && code[1] !== '0') exitCode = k;
  }
  return failureType !== undefined && exitCode !== undefined ? { line, failureType, exitCode } : undefined;
}

/** The answer's lead when some of the log's failing "tests" are files that did not load (`ran`: the others). */
export function unloadedLead(files: readonly UnloadedFile[], ran: number, build: string, lineText: LineText): string {
  const first = files[0] as UnloadedFile;
  const quoted = (n: number): string => `${inlineCode(body(lineText(n)).trim())} ${cite({ start_line: n, end_line: n })}`;
  const tested = ran > 0 ? `The log shows ${ran} failing test${ran === 1 ? '' : 's'}, and ` : '';
  const what = files.length === 1 ? `${tested ? 'a' : 'A'} test file failed to load` : `${files.length} test files failed to load`;
  const its = files.length === 1 ? 'its' : 'their';
  return `**${tested}${what}** in ${build}: node's test runner reports a file whose process failed before its tests started as one failed test (${quoted(first.failureType)}, ${quoted(first.exitCode)}). None of ${its} tests ran, so how many tests ${files.length === 1 ? 'it holds' : 'they hold'}, and whether they pass, is not known from the log.`;
}
