/**
 * General evidence (issue 25, round 6 preparation; docs/notes/analyzer.md): what a finding that
 * no rule settled gains from evidence that holds for tools no rule names. Applied to the finding
 * read on general rules alone (ablation.ts), only while it is `unknown`:
 * - the ROLE of the command that ran, from its invocation's shape rather than its name: an
 *   output flag or `-c` with a source file compiles; `lint`, `fmt`, `format`, `style` in the
 *   program's name or a `--check`/`--diff`/`--list-different` flag checks (lint; a script named
 *   `check-x` may report anything, so its name alone settles nothing); `test`/`spec` words in the program, its subcommand, its target or its paths test;
 * - the REPORT's shape: `file:line(:col): error ...` under a compiling command is a compile
 *   error there, any place under a checking command (warnings too: a linter fails on them) is
 *   lint there; a linter's stylish report (a path heading over `  line:col  error  message  rule`)
 *   is lint whatever the command; a formatter's verdict (`would reformat`, `not formatted`) or
 *   its unified diff under a checking command is lint, at the first changed line;
 * - a test's failure at a place (`Failure ('test-x.R:6'): name`, `tests/x.scm:6: FAIL name`, a
 *   place in a test file) with the check's words (expected, not equal, mismatch, assert) is a
 *   test assertion there.
 * A class only when the evidence settles it; else the finding stays unknown.
 */
import type { Finding, FindingClass, LogExcerpt } from '../../protocol/types.js';
import { commandOf, COMMAND_LINE, ERRORISH, lastCommandIn, locatedIn, SOURCE_EXT, words, type Command, type Located } from './generic.js';
import { refusedOperand } from './refused.js';

type Window = Pick<LogExcerpt, 'start_line' | 'end_line'>;

export type Role = 'compile' | 'lint' | 'test' | 'run';

/** How far above the message the step's command is looked for. */
const REACH = 150;
/** A path with an extension standing alone (a report's heading over its findings). */
const PATH_HEADING = /^(?:[A-Za-z]:)?[\w.~@+\\/-]*\.[A-Za-z][\w+]{0,7}$/;
/** The stylish report's line: `  12:3  error  message  rule` (eslint, stylelint, yamllint, markdownlint and others). */
const STYLISH = /^\s+(\d+):(\d+)\s+(error|warning|✖|×|⚠)\s+(\S.*)$/;
/** A formatter's verdict in its own words. */
const FORMAT_VERDICT = /\bwould (?:be )?reformat(?:ted)?\b|\bnot (?:properly )?formatted\b|\bneeds? (?:re)?format(?:ting)?\b|\bformatting (?:issues|differences|check failed)\b|\bcode style issues\b/i;
/** A check's words: a value compared with what was expected. */
const CHECK_WORDS = /\bexpected\b|\bnot equal\b|\bmismatch(?:es)?\b|\bassert(?:ion)?\b|\bdoes not match\b|\bto (?:be|equal)\b|\bbut (?:was|got)\b|\bgot\b/i;
/** Files a compiler writes or reads as data, never its source (a `-c` beside a `.csv` is a column list: `csvcut -c id data.csv`). */
const NOT_SOURCE = /\.(?:o|obj|a|lib|so|dll|dylib|exe|out|bin|class|jar|log|txt|json|ya?ml|toml|ini|cfg|conf|xml|md|html?|lock|csv|tsv|dat|zip|tar|gz|tgz|png|jpe?g|gif|svg|pdf|mo|pyc)$/i;
/** A check's words that settle an assertion: a value against what was expected (either order: `f(x) = 3, expected 4`), a call that did not raise. */
const STRONG_CHECK = /\bexpected\b.{0,80}\b(?:got|but (?:was|got)|actual|received|found|instead)\b|\S = \S.{0,60}?,? (?:expected|want(?:ed)?):? \S|\bnot equal to\b|\bmismatch(?:es|ed)?\b|\bassert\w* failed\b|\bdid not (?:raise|throw|panic)\b|\bdid not contain expected\b|\bexpected (?:equality|string|exception)\b|^Expected(?: equality)?:?$/i;
/** pytest's heading over a test file it could not collect (import it, or read its tests). */
const COLLECTING = /^_+ ERROR collecting \S+ _+$/;
/** The build's own definition files: an error at a line of one is the build script's. */
const BUILD_FILE = /^(?:GNUmakefile|[Mm]akefile|\w+\.mk|CMakeLists\.txt|\w+\.cmake|SConstruct|SConscript|build\.gradle(?:\.kts)?|settings\.gradle(?:\.kts)?|Jenkinsfile|BUILD(?:\.bazel)?|WORKSPACE|Rakefile|[Gg]runtfile\.js|[Gg]ulpfile\.js|\.gitlab-ci\.ya?ml|Taskfile\.ya?ml|justfile|Justfile)$/;
/** A CI's or a shell's line that only says the step failed. */
const EXIT_LINE = /exit (?:code|status) \d+|returned \d+|^Finished: |marked build as failure|exited with \d+/i;
const TEST_PATH = /(?:^|[\\/])(?:tests?|spec|specs|t|tb|testbench)[\\/]|(?:^|[\\/_-])(?:test|spec|tb)[_-]|[_-](?:test|tests|spec|tb)\.\w+$|Test\.\w+$/;

/** The role of a command, from its invocation (generic.ts's kind first). */
export function roleOf(command: Command): Role | undefined {
  const kind = command.kind;
  if (kind === 'compile' || kind === 'typecheck') return 'compile';
  const ws = words(command.text);
  // An interpreter running a test file tests.
  if (kind === 'run' && ws.slice(1).some((a) => /[\\/]/.test(a) && TEST_PATH.test(a))) return 'test';
  if (kind === 'lint' || kind === 'test' || kind === 'run') return kind;
  const program = command.program;
  const args = ws.slice(1);
  // A target, goal, task or environment named for checking style (`make lint`, `tox -e format`, `mvn checkstyle:check`, `gradle ktlintCheck`).
  const named = (re: RegExp): boolean => args.some((a) => !a.startsWith('-') && /^[\w:.-]+$/.test(a) && !/\.\w{1,6}$/.test(a) && re.test(a));
  if (/lint|fmt|format|style/i.test(program) || args.some((a) => /^(?:--check|--diff|--list-different|--verify|--validate)$/.test(a)) || named(/lint|fmt|format|style/i)) return 'lint';
  // A test program, a target named for tests (`make unit-tests`, `gradle integrationTest`), a test file or unit (`tests/x`, `adder_tb`).
  if (/(?:^|[-_.])(?:test|tests|spec|specs)(?:$|[-_.])|^(?:test|spec)|(?:spec|specs|unit)$/i.test(program) || named(/(?:^|[-_:.])(?:test|tests|spec|specs|tb)$|^(?:test|tests|spec|tb)(?:$|[-_:])|[a-z](?:Test|Tests|Spec)$|^(?:unittest|check-tests?|runtests?)$/) || args.some((a) => /[\\/]/.test(a) && TEST_PATH.test(a))) return 'test';
  // An input file: a source file, or a file of any language that is no object, archive or data file.
  const sources = args.some((a) => SOURCE_EXT.test(a) || (/^[\w.~/-]+\.[A-Za-z][\w+]{0,5}$/.test(a) && !NOT_SOURCE.test(a)));
  // An attached `-oX` is an output, a single-dash word option (`clisp -on-error exit`) is not.
  if (sources && args.some((a) => /^(?:-o|--output|--out|-c)$|^(?:-o(?![a-z]+-[a-z])\S|--output=|--out=)/.test(a))) return 'compile';
  return undefined;
}

/** A recipe line make echoes (no `+ `): a program given an output flag or `-c` and a source file. */
function echoedCompile(text: string): Command | undefined {
  if (!/^[\w.+/-]+ \S/.test(text) || /^\S+:/.test(text)) return undefined;
  const command = commandOf(text);
  return roleOf(command) === 'compile' ? command : undefined;
}

/** Line i is a unified diff's (its `+++ file` header, or an added line under a hunk header): no `sh -x` trace. */
function inDiff(bodyAt: (i: number) => string, i: number): boolean {
  if (/^\+\+\+ /.test(bodyAt(i)) && /^--- /.test(bodyAt(i - 1))) return true;
  for (let k = i - 1; k >= Math.max(0, i - 200); k--) {
    const t = bodyAt(k);
    if (/^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@/.test(t)) return true;
    if (!/^[-+ ]|^$/.test(t)) return false;
  }
  return false;
}

/** The step's command above 0-based line `from`: a traced command, or a compiler line make echoed within the 20 lines above. */
function stepCommand(bodyAt: (i: number) => string, from: number): { command: Command; index: number } | undefined {
  for (let i = from; i >= Math.max(0, from - REACH); i--) {
    const t = bodyAt(i).trim();
    if (COMMAND_LINE.test(t) && !inDiff(bodyAt, i)) {
      const c = lastCommandIn([t]);
      if (c) return { command: c, index: i };
    }
    if (from - i <= 20) {
      const echoed = echoedCompile(t);
      if (echoed) return { command: echoed, index: i };
    }
  }
  return undefined;
}

/** The role a CI stage's or step's name gives (`[Pipeline] { (Unit tests)`, GitHub's `##[group]Run lint`), when the command gives none. */
function stageRole(bodyAt: (i: number) => string, from: number): Role | undefined {
  for (let i = from; i >= Math.max(0, from - 400); i--) {
    const name = /^\[Pipeline\] \{ \((.+)\)$|^##\[group\](?:Run )?(.+)$/.exec(bodyAt(i).trim());
    if (!name) continue;
    const text = name[1] ?? name[2] ?? '';
    return /\b(?:unit[- ]?)?tests?\b|\bspecs?\b|\bcheck(?:s)?\b.*\btests?\b/i.test(text) ? 'test' : /\blint|\bstyle\b|\bformat(?:ting)?\b/i.test(text) ? 'lint' : undefined;
  }
  return undefined;
}

interface Place extends Located {
  index: number;
}

function withClass(found: Finding, cls: FindingClass, index: number, message: string, place: { file: string; line: number; column?: number } | undefined, tool: string | undefined): Finding {
  const { location: _l, ...rest } = found;
  const line = index + 1;
  return {
    ...rest,
    class: cls,
    message: message.trim(),
    message_line: line,
    ...(tool ? { tool } : {}),
    ...(place ? { location: { file: place.file, line: place.line, ...(place.column ? { column: place.column } : {}), log_line: line } } : {}),
    confidence: 'medium',
    evidence: [line, ...found.evidence.filter((n) => n !== line)],
  };
}

/** The first place-naming line of lines a..b-1 (0-based) at a level `accept` takes. */
function firstPlace(bodyAt: (i: number) => string, a: number, b: number, accept: (p: Located) => boolean): Place | undefined {
  for (let i = a; i < b; i++) {
    // A level in brackets before the place (`[WARN] src/A.java:4:8: msg`, `[error] x.scss:3:1 msg`).
    const p = locatedIn(bodyAt(i).replace(/^\s*\[(?:ERROR|WARN(?:ING)?|error|warn(?:ing)?|E|W)\]\s+/, ''));
    if (p && accept(p)) return { ...p, index: i };
  }
  return undefined;
}

/** The stylish report's first finding (errors before warnings) and its file heading. */
function stylishIn(bodyAt: (i: number) => string, a: number, b: number): { index: number; file: string; line: number; column: number; message: string } | undefined {
  let found: { index: number; file: string; line: number; column: number; message: string; error: boolean } | undefined;
  for (let i = a; i < b; i++) {
    const m = STYLISH.exec(bodyAt(i));
    if (!m) continue;
    let file: string | undefined;
    for (let k = i - 1; k >= Math.max(0, i - 60); k--) {
      const t = bodyAt(k).trim();
      if (t === '' || STYLISH.test(bodyAt(k))) continue;
      if (PATH_HEADING.test(t)) file = t;
      break;
    }
    if (!file) continue;
    const error = /error|✖|×/.test(m[3] as string);
    if (!found || (error && !found.error)) found = { index: i, file, line: Number(m[1]), column: Number(m[2]), message: (m[4] as string).replace(/\s{2,}\S+$/, ''), error };
    if (found.error) break;
  }
  return found;
}

/** A unified diff's first changed line: `--- a/f` / `+++ b/f` / `@@ -N,n +M,m @@` and the first `-`/`+` line under it. */
function diffIn(bodyAt: (i: number) => string, a: number, b: number): { index: number; header: number; file: string; line: number } | undefined {
  // The excerpt may hold only the changed lines: the diff's header is above it.
  for (let i = Math.max(0, a - 40); i < b - 2; i++) {
    const minus = /^--- (?:a\/)?(\S+?)(?:\.orig)?(?:\s.*)?$/.exec(bodyAt(i));
    if (!minus || !/^\+\+\+ /.test(bodyAt(i + 1))) continue;
    // Ansible's --diff labels its sides `--- before` / `+++ after` (`before: /etc/x.conf`): a state change it reports, no file's lines.
    if (/^before:?$/.test(minus[1] as string) && /^\+\+\+ after\b/.test(bodyAt(i + 1))) continue;
    const hunk = /^@@ -(\d+)(?:,\d+)? \+\d+(?:,\d+)? @@/.exec(bodyAt(i + 2));
    if (!hunk) continue;
    let line = Number(hunk[1]);
    for (let k = i + 3; k < Math.min(b + 20, i + 60); k++) {
      const t = bodyAt(k);
      if (/^[-+]/.test(t)) return { index: k, header: i, file: minus[1] as string, line };
      line++;
    }
  }
  return undefined;
}

/** A test's failure naming its place (`Failure ('test-x.R:6'): name`, `tests/x.scm:6: FAIL name`, `FATAL: tb/x_tb.v:7: ... expected 42`). */
function testFailureAt(bodyAt: (i: number) => string, a: number, b: number): { index: number; message: number; file: string; line: number } | undefined {
  for (let i = a; i < b; i++) {
    const t = bodyAt(i).trim();
    const heading = /^(?:Failure|FAIL(?:ED|URE)?|Error|ERROR)\b[^'"]{0,20}\(['"]?([\w.~@+\\/-]+\.\w{1,8}):(\d+)['"]?\)/.exec(t);
    if (heading) {
      const next = bodyAt(i + 1).trim();
      if (CHECK_WORDS.test(next) || CHECK_WORDS.test(t)) return { index: i, message: CHECK_WORDS.test(next) ? i + 1 : i, file: heading[1] as string, line: Number(heading[2]) };
      continue;
    }
    const p = locatedIn(t);
    if (p && TEST_PATH.test(p.file) && /\bFAIL(?:ED|URE)?\b|\bfail(?:ed|ure)\b/i.test(`${t}`) && (CHECK_WORDS.test(t) || /\bFAIL(?:ED)?\b/.test(p.message) || /\bexpected\b/i.test(p.message))) return { index: i, message: i, file: p.file, line: p.line };
    if (p && TEST_PATH.test(p.file) && /\bexpected\b/i.test(p.message)) return { index: i, message: i, file: p.file, line: p.line };
  }
  return undefined;
}

/** Places a message line names in forms the common ones miss: `prog:file:line:` (no space after the program), `(at file:line)`. */
const PROG_PLACE = /^[\w.+-]+:((?:[\w.~\\/-]+[\\/])?[\w.~-]+\.[A-Za-z]\w{0,7}):(\d+):/;
const AT_PLACE = /\(at ((?:[\w.~\\/-]+[\\/])?[\w.~-]+\.[A-Za-z]\w{0,7}):(\d+)\)/;

/** The finding general evidence gives one no rule settled (see the head of this file), at the place its message line names. */
export function generalFinding(found: Finding, lines: readonly string[], excerpt: Window, bodyAt: (i: number) => string): Finding {
  const read = readOn(found, lines, excerpt, bodyAt);
  if (read.location) return read;
  const text = bodyAt(read.message_line - 1).trim();
  const m = PROG_PLACE.exec(text) ?? AT_PLACE.exec(text);
  return m ? { ...read, location: { file: m[1] as string, line: Number(m[2]), log_line: read.message_line } } : read;
}

function readOn(found: Finding, _lines: readonly string[], excerpt: Window, bodyAt: (i: number) => string): Finding {
  // Besides unknown, only an exception (which a test command makes the tests' error) and a test
  // named failing with nothing more (which the check's words make an assertion) are read on.
  const weakTest = found.class === 'test-error' && found.confidence === 'low';
  if (found.class !== 'unknown' && found.class !== 'runtime-exception' && !weakTest) return found;
  let a = Math.max(0, excerpt.start_line - 1);
  const b = Math.max(a + 1, excerpt.end_line);
  const at = Math.min(Math.max(a, found.message_line - 1), b - 1);
  const step = stepCommand(bodyAt, at);
  const command = step?.command;
  const role = (command ? roleOf(command) : undefined) ?? stageRole(bodyAt, at);
  const tool = command?.program;

  if (found.class === 'runtime-exception') {
    // make's `check` target runs programs, not only tests: its role alone does not make a crash a test's.
    // A crash (a signal, a sanitizer's report) is the program's, whoever ran it.
    if (role !== 'test' || /^g?make$/.test(command?.program ?? '') || /Sanitizer|^SIG|^Abort|[Ss]egmentation/.test(found.exception ?? '')) return found;
    // Raised while a test command ran: the tests' error (an assertion's, if it names one).
    return { ...found, class: /assert/i.test(`${found.exception ?? ''} ${found.message}`) ? 'test-assertion' : 'test-error' };
  }
  if (weakTest) {
    for (let i = a; i < b; i++) {
      const t = bodyAt(i).trim();
      // pytest's collection error (`___ ERROR collecting tests/x.py ___`): no test ran, so nothing under it is a check
      // (`import file mismatch:` is the importer's words, not a value against an expected one; round 19, t20).
      if (COLLECTING.test(t)) return found;
      if (STRONG_CHECK.test(t)) return { ...withClass(found, 'test-assertion', i, t, undefined, found.tool), ...(found.location ? { location: found.location } : {}), ...(found.test ? { test: found.test } : {}) };
    }
    return found;
  }
  // An error at a place in the build's own definition (not make's verdict on a recipe): the build script's.
  for (let i = a; i < b; i++) {
    const t = bodyAt(i).trim();
    const m = /^((?:[^\s:]*[\\/])?([^\s:\\/]+)):(\d+):(?:\d+:)?\s+(\S.*)$/.exec(t);
    if (!m || !BUILD_FILE.test(m[2] as string) || /^\*\*\* \[|recipe for target|\bError \d+$/.test(m[4] as string) || !ERRORISH.test(m[4] as string)) continue;
    return withClass(found, 'ci-script', i, t, { file: m[1] as string, line: Number(m[3]) }, tool);
  }
  // An excerpt that is only the step's exit (`ERROR: script returned exit code 1`): the step's output above it is what it reported.
  if (step && b - a <= 3 && EXIT_LINE.test(found.message)) a = Math.max(step.index + 1, a - 80);
  // A linter's stylish report, whatever ran it.
  const stylish = stylishIn(bodyAt, a, b);
  if (stylish) return withClass(found, 'lint', stylish.index, stylish.message, stylish, tool);
  // A test's failure at a place, with the check's words.
  const failure = testFailureAt(bodyAt, a, b);
  if (failure && role !== 'compile' && role !== 'lint') return withClass(found, 'test-assertion', failure.message, bodyAt(failure.message), failure, tool);
  // Under a test command, a check's words (a value against what was expected): a test's assertion,
  // at the nearest place in a test file around it.
  if (role === 'test') {
    for (let i = a; i < b; i++) {
      const t = bodyAt(i).trim();
      if (!STRONG_CHECK.test(t)) continue;
      let place: Place | undefined;
      for (const d of [0, 1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 6, -6]) {
        const p = locatedIn(bodyAt(i + d));
        if (p && TEST_PATH.test(p.file)) {
          place = { ...p, index: i + d };
          break;
        }
      }
      return withClass(found, 'test-assertion', i, t, place, tool);
    }
  }

  // A build driver's run compiles: an error at a place in a source file is the compiler's.
  if (role === 'compile' || (command?.kind === 'build' && role === undefined)) {
    const p = firstPlace(bodyAt, a, b, (l) => (l.level === 'error' || l.level === 'fatal error') && (role === 'compile' || SOURCE_EXT.test(l.file)));
    if (p) return withClass(found, 'compile-error', p.index, p.message || bodyAt(p.index), p, tool);
  }
  if (role === 'lint') {
    const diff = diffIn(bodyAt, a, b);
    const p = firstPlace(bodyAt, a, b, (l) => l.level !== 'note' && l.message !== '' && !/^(?:\/usr|\/opt)\//.test(l.file));
    if (p) return withClass(found, 'lint', p.index, p.message, p, tool);
    if (diff) return withClass(found, 'lint', diff.header, bodyAt(diff.header), diff, tool);
    // A checker listing the files it would change (`[warn] src/a.ts`, a formatter's `-l`): lint, no line named.
    for (let i = a; i < b; i++) {
      const t = bodyAt(i).trim().replace(/^\[(?:warn|WARN|error|ERROR)\]\s+/, '');
      if (SOURCE_EXT.test(t) && PATH_HEADING.test(t) && !/^\d/.test(t)) return withClass(found, 'lint', i, bodyAt(i), undefined, tool);
    }
  }
  // A formatter's verdict: its words, or its diff under a checking command.
  for (let i = a; i < b; i++) {
    const t = bodyAt(i);
    if (!FORMAT_VERDICT.test(t)) continue;
    const place = /^Diff in (\S+?):(\d+):?\s*$/.exec(t.trim());
    return withClass(found, 'lint', i, t, place ? { file: place[1] as string, line: Number(place[2]) } : undefined, tool);
  }
  // A tool's refusal of an operand of the step's own command (it does not exist, exists already, is ambiguous): the script's (refused.ts).
  if (command) {
    for (let i = a; i < b; i++) {
      const t = bodyAt(i).trim();
      if (refusedOperand(command, t, i + 1 < b ? bodyAt(i + 1) : '') !== undefined) return withClass(found, 'ci-script', i, t, undefined, tool);
    }
  }
  return found;
}
