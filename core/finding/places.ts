/**
 * Places in any form (issue 25): the file, line and column a tool printed for its error, read in
 * the textual forms tools of every kind print, not per tool. A finding that has no location yet
 * gets the place its message line names, or one the lines tied to it name (the report the line
 * belongs to: the lines just below it, then just above it, up to a command or a CI mark; a file
 * heading over `L<n>` / `<n>:<c>` rows). A place must be the project's: relative, or absolute
 * but not a system, runtime or installed library path, nor the CI's own script; a place that
 * is not the project's (`/usr/share/autoconf/...pm line 274`, `/bin/sh: 1:`) is dropped. No
 * line is ever guessed: only a line the log prints is given.
 *
 * The forms (PATH is a path with an extension, or a known extensionless build file; a
 * directory-qualified extensionless path where the form says `line`):
 * - `PATH:LINE[:COL]` at the start of the line, after a program (`m4:x.m4:7:`, `mandoc: x.1:28:2:`), a bracketed
 *   tag (`[----] x.c:15:`) or a list number (`1. x.c:6  - ...`), with anything after it;
 * - `PATH(LINE[,COL])`, `PATH LINE:COL` (a line starting with the path), `at PATH:LINE[,COL]`;
 * - `PATH line N`, `"PATH" line N`, `"PATH", line N`, `PATH, line N`, `PATH: line N`, `file PATH line N`;
 * - Gradle's `Build file 'PATH' line: N` (and `Settings file`, `Script`, `Initialization script`);
 * - `in PATH on line N[, column C]`, `line[:] N [of|in] PATH`;
 * - `[...:PATH:LINE...]` (a place in brackets), `(PATH:LINE[:COL])` at the end of the line;
 * - a lone path heading its rows (`L18 |`, `  4:26  error ...`);
 * - the one row of a runner's list of failures just below (`Failing scenarios:`).
 */
import type { Finding, LogExcerpt } from '../../protocol/types.js';
import { buildRootIn } from '../log/agentRoot.js';
import { STEP_EXIT } from '../log/stepExit.js';
import { locatedIn } from './generic.js';
import { framedReportAt } from './uncaught.js';

export interface Place {
  file: string;
  line: number;
  column?: number;
}

/** A path with an extension (a manual page's section, `syncd.1`, too), or a build file known without one. */
const FILE = String.raw`(?:[A-Za-z]:)?[\w.~@+\\/-]*(?:\.[A-Za-z][\w+]{0,7}|(?<=[A-Za-z])\.[1-9](?![\w.])|\b(?:GNUmakefile|[Mm]akefile|Dockerfile|Containerfile|Jenkinsfile|Rakefile|Gemfile|Vagrantfile|Justfile|Procfile|Brewfile))`;
/** Where the form says `line` outright, a directory-qualified file without an extension too (`bastion/sshd_config`). */
const FILE_OR_DIR = String.raw`(?:${FILE}|(?:[A-Za-z]:)?[\w.~@+\\-]*\/[\w.~@+\\/-]*[\w+-])`;
const AFTER = String.raw`(?=$|[\s:;,.)\]'"])`;

/** The forms, each giving [file, line, column?] by group name. */
const FORMS: readonly RegExp[] = [
  // path:line[:col] at the start: after a program's name (`m4:`), a bracketed tag, a list number.
  // Or after a severity label (`STATIC ERROR: `, `[50] %Error: `); a column may be a range (`10:15-28:`).
  new RegExp(String.raw`^(?:[\w+-]+: ?(?=[\w./~-]+:\d)|\[[^\]\s]{1,12}\]\s+|\d{1,3}[.)]\s+)?(?:%?(?:[A-Z]+ )?(?:ERROR|Error|error|FATAL|Fatal|fatal|WARNING|Warning|warning):\s+)?(?<file>${FILE}):(?<line>\d+)(?:[:.,](?<col>\d+)(?:-\d+)?)?(?=$|[:\s,)])`),
  // path(line[,col])
  new RegExp(String.raw`^(?<file>${FILE})\((?<line>\d+)(?:,\s?(?<col>\d+))?\)`),
  // A line that starts with the path and its line:col (Sass's trace, webpack's heading).
  new RegExp(String.raw`^(?:ERROR in )?(?<file>${FILE}) (?<line>\d+):(?<col>\d+)(?:-\d+)?(?=$|\s)`),
  // ... at path:line[,col] (`Parse error at src/w.js:7,3`)
  new RegExp(String.raw`\bat (?<file>${FILE}):(?<line>\d+)(?:[:,](?<col>\d+))?${AFTER}`),
  // "path" line N / "path", line N / path, line N / path: line N (a shell's `ci.sh: line 2:`, not its
  // report of a killed command, `ci.sh: line 2: 22109 Aborted`); path line N at the start or after `file`.
  new RegExp(String.raw`(?:^|[\s(])(?:"(?<file>${FILE_OR_DIR})",?|'(?<file3>${FILE_OR_DIR})',?:?|(?<file2>${FILE_OR_DIR})[,:]) line (?<line>\d+)(?:, col(?:umn)? (?<col>\d+))?(?!: +\d+ )${AFTER}`),
  new RegExp(String.raw`(?:^|\bfile )(?<file>${FILE_OR_DIR}) line (?<line>\d+)(?:, col(?:umn)? (?<col>\d+))?(?!: +\d+ )${AFTER}`),
  // Gradle's `* Where:` section over `* What went wrong:` (`Build file '/ws/build.gradle' line: 8`, `Settings file '...'
  // line: 3`, `Script '/ws/gradle/versions.gradle' line: 3` for an applied script, `Initialization script '...' line: 2`).
  new RegExp(String.raw`^(?:Build file|Settings file|Script|Initialization script) '(?<file>${FILE})' line: (?<line>\d+)$`),
  // pip's one requirement that cannot be installed (`Cannot install -r requirements.txt (line 2) because ...`); with
  // another (`... (line 1) and pydantic-core==2.49.0 because`) the conflict is between the two, no one place.
  new RegExp(String.raw`\bCannot install -[rc] (?<file>${FILE}) \(line (?<line>\d+)\) because\b`),
  // in path on line N[, column C]
  new RegExp(String.raw`\bin (?<file>${FILE}) on line (?<line>\d+)(?:, col(?:umn)? (?<col>\d+))?${AFTER}`),
  // line[:] N [of|in] [file] path
  new RegExp(String.raw`\bline:? (?<line>\d+),? (?:(?:of|in) )?(?:file )?"?(?<file>${FILE})"?(?=$|[\s:;,)])`),
  // [...:path:line...] (`[ERROR:/ws/idl/x.thrift:4]`, make's `[Makefile:4: target]`)
  new RegExp(String.raw`\[(?:[A-Za-z]+:)?(?<file>${FILE}):(?<line>\d+)(?::(?<col>\d+))?(?=[\]:])`),
  // A file a tool was reading, and its parser's line further on (kubectl's `error parsing k8s/web.yaml: error converting
  // YAML to JSON: yaml: line 14: ...`, helm's `YAML parse error on web/templates/svc.yaml: ... yaml: line 12: ...`).
  new RegExp(String.raw`\b(?:parsing|parse error on|parse error in|loading|reading)\s+['"\x60]?(?<file>${FILE})['"\x60]?:\s.*?\bline (?<line>\d+)(?:[,:]? col(?:umn)? (?<col>\d+))?(?=$|[\s:;,.)])`),
  // A CI runner's annotation (`::error file=src/a.js,line=12,col=5::...`, what problem matchers and `--format github` print).
  new RegExp(String.raw`^::(?:error|warning|notice) (?:[\w-]+=[^,:]*,)*?file=(?<file>${FILE}),(?:[\w-]+=[^,:]*,)*?line=(?<line>\d+)(?:,(?:[\w-]+=[^,:]*,)*?col=(?<col>\d+))?`),
  // A report's pointer to its source (codespan's `┌─ doc/main.typ:12:3`, as Rust-made tools print it).
  new RegExp(String.raw`^[┌╭]─+\s*(?<file>${FILE}):(?<line>\d+):(?<col>\d+)\s*$`),
  // A severity, then the place between dashes or bullets (dart analyze: `error - lib/a.dart:12:5 - msg - code`,
  // `error • msg • lib/a.dart:12:5 • code`).
  new RegExp(String.raw`^(?:error|warning|info|lint|hint) [-•] (?:.+? [-•] )?(?<file>${FILE}):(?<line>\d+):(?<col>\d+)(?= [-•] |$)`),
  // A span of lines and columns (GHC: `src/Cart.hs:(12,5)-(13,20): error:`): its start.
  new RegExp(String.raw`^(?<file>${FILE}):\((?<line>\d+),(?<col>\d+)\)-\(\d+,\d+\):`),
  // (path:line[:col]) at the end: a frame or a pointer (`at ns/fn (report.clj:14).`, `at f (/ws/x.js:3:5)`)
  // (A JVM frame, `at a.B.c(B.java:3)`, is frames.ts's: the place follows a space here.)
  new RegExp(String.raw`\s\((?:file:\/\/)?(?<file>${FILE}):(?<line>\d+)(?::(?<col>\d+))?\)\.?$`),
];
/** The place a report traces its error back to (flatc's `x.fbs:16: 0: error: ... Money, originally at: x.fbs:12`): it wins over the place it is reported at. */
const ORIGINALLY = new RegExp(String.raw`\boriginally (?:(?:defined|declared|referenced|used) )?at:? "?(?<file>${FILE})"?:(?<line>\d+)(?::(?<col>\d+))?`);
/** Words a form may catch that are no file (`0.3`, a version). */
const NOT_FILE = /^\d[\d.]*$|^v\d/;
/** Files that are not source, or hosts (`registry.npmjs.org:443`). */
const NOT_SOURCE = /\.(?:log|png|jpe?g|gif|zip|gz|tgz|jar|whl|so|dll|dylib|o|a|exe|bin|pid|sock|com|org|net|io|dev|local|internal)$/i;
/**
 * Installed packages and runtimes, the system, the CI's own scripts, the scripts CMake generates in a build tree: not
 * the project's files. Nor Rust's standard library as a panic names it (`/rustc/<commit>/library/std/src/io/stdio.rs`),
 * the C files cgo generates in go's work directory (`/tmp/go-build/crc.cgo2.c`, `_cgo_export.c`), nor a bare
 * `testing.go` (go test's prefix of a message the testing package itself reports, `testing.go:1097: TempDir RemoveAll
 * cleanup: ...`; a project's own file of that name is printed alike, so the log does not settle it).
 */
const NOT_PROJECT =
  /^\/rustc\/[0-9a-f]{7,}\/|^\/tmp\/go-build\d*\/|\.cgo\d\.c$|(?:^|\/)_cgo_\w+\.c$|^testing\.go$|(?:^|\/)cmake_install\.cmake$|(?:^|\/)(?:CMakeFiles|node_modules|site-packages|dist-packages|gems|\.cargo|\.rustup|pkg\/mod|\.m2|\.gradle|\.npm|\.pyenv|\.rbenv|\.nvm|_temp|lib\/python\d[\d.]*)\/|^\/(?:usr|lib|lib64|bin|sbin|etc|opt|nix|snap|proc|dev|sys|var\/lib\/(?!jenkins\/workspace))\/|^node:|^internal\/(?=\S*\.[cm]?js$)|@tmp\/durable-|^\/tmp\/(?:jenkins|hudson)\d+\.sh$/;
/**
 * Lines whose places are not the error's: the script's own commands, Python frames and Maven's spaced JVM frames
 * (`at org.apache.maven.X.y (X.java:269)`, `mvn -e`: frames.ts reads those, and knows Maven's own from the
 * project's), URLs, make's verdict on a recipe (index.ts reads it for the classes it is the place of).
 */
const NOT_A_REPORT = /^\s*(?:\+ |\$ |File "|##\[)|^\s*\[Pipeline\]|:\/\/|^\s*g?make(?:\[\d+\])?: \*\*\* |^\s*at (?:[\w$]+\.)+[\w$<>]+ \([\w$]+\.(?:java|kt|groovy|scala)(?::\d+)?\)\s*$/;

/** The place a line names in one of the forms, if the path looks like a project file (`root`: the build's workspace, when the log shows it). */
export function placeIn(raw: string, root?: string): Place | undefined {
  // A local file's URL is its path (Node's heading of an ES module's error, `file:///ws/main.js:1`); other URLs are no place.
  const text = raw.replace(/^(\s*)file:\/\/(?=\/)/, '$1');
  if (text.length > 600 || NOT_A_REPORT.test(text)) return undefined;
  const t = text.trim().replace(/^│\s+/, '');
  for (const form of [ORIGINALLY, ...FORMS]) {
    const g = form.exec(t)?.groups;
    if (!g) continue;
    const file = projectFile((g.file ?? g.file2 ?? g.file3) as string, root);
    if (!file) continue;
    return { file, line: Number(g.line), ...(g.col ? { column: Number(g.col) } : {}) };
  }
  const loc = locatedIn(text);
  const file = loc ? projectFile(loc.file, root) : undefined;
  return loc && file ? { file, line: loc.line, ...(loc.column ? { column: loc.column } : {}) } : undefined;
}

/** The file as the project's (relative to the workspace when under it), or undefined when it is not the project's. */
export function projectFile(file: string, root?: string): string | undefined {
  if (NOT_FILE.test(file) || NOT_SOURCE.test(file) || NOT_PROJECT.test(file) || file.length < 2) return undefined;
  if (root && file.startsWith(`${root}/`)) return file.slice(root.length + 1);
  // An absolute path outside the workspace the log shows is not the project's.
  if (root && file.startsWith('/')) return undefined;
  return file;
}

/** The build's workspace root, when the log says it (Jenkins: `Building in workspace /x`, `Running on agent in /x`). */
export function workspaceIn(line: (i: number) => string, count: number): string | undefined {
  for (let i = 0; i < Math.min(count, 60); i++) {
    // POSIX roots only: the places read here are POSIX paths, held against the root by prefix.
    const root = buildRootIn(line(i).trim());
    if (root?.startsWith('/')) return root;
  }
  return undefined;
}

/** A row of a file's findings printed under its lone path (htmlhint's `L18 |`, eslint's `  4:26  error`). */
const ROW = /^\s*(?:L(\d+)\s*\||(\d+):(\d+)\s+\S)/;
/** A line that is a lone path (the heading of its rows). */
const HEADING = new RegExp(String.raw`^\s*(${FILE})\s*$`);

/** The place of a row under its heading: the heading is the nearest lone path above, over other rows and their pointers. */
function rowPlace(line: (i: number) => string, i: number, root?: string): Place | undefined {
  const row = ROW.exec(line(i));
  if (!row) return undefined;
  for (let k = i - 1; k >= Math.max(0, i - 30); k--) {
    const t = line(k);
    const heading = HEADING.exec(t);
    if (heading) {
      const file = projectFile(heading[1] as string, root);
      return file ? { file, line: Number(row[1] ?? row[2]), ...(row[3] ? { column: Number(row[3]) } : {}) } : undefined;
    }
    if (t.trim() !== '' && !/^\s/.test(t)) return undefined;
  }
  return undefined;
}

/** A line that ends a report: a command of the script, a CI mark, the CI's verdict. */
const REPORT_END = /^\s*(?:\+ |\$ |\[Pipeline\]|##\[|Build step |Finished: |ERROR: script returned)/;

/**
 * The place of the message at line m (0-based) or of the lines tied to it: the message line,
 * then up to 8 lines below it (past its next 3, only lines indented under it), then up to 8 above
 * it, each side up to a command, a CI mark or two blank lines. Above a script's own `+ exit N`, what its check echoed counts too.
 */
export function placeNear(line: (i: number) => string, count: number, m: number, root?: string): (Place & { index: number }) | undefined {
  const at = (i: number): (Place & { index: number }) | undefined => {
    const own = placeIn(line(i), root);
    const k = own ? markedRow(line, count, i, root) : i;
    const p = (k !== i ? placeIn(line(k), root) : own) ?? rowPlace(line, i, root);
    return p ? (problemMark(line, count, k, root) ?? { ...p, index: k }) : undefined;
  };
  const own = at(m);
  if (own) return own;
  if (STEP_EXIT.test(line(m).trim())) return stepError(line, m, root);
  if (REPORT_END.test(line(m)) && !/^\+ exit [1-9]\d*$/.test(line(m).trim())) return undefined;
  const exit = /^\+ exit [1-9]\d*$/.test(line(m).trim());
  const side = (step: 1 | -1): (Place & { index: number }) | undefined => {
    let blanks = 0;
    for (let i = m + step, n = 0; i >= 0 && i < count && n < 8; i += step, n++) {
      const t = line(i);
      if (t.trim() === '') {
        if (++blanks >= 2) return undefined;
        continue;
      }
      blanks = 0;
      if (exit && step < 0 && /^\+ (?:echo|printf) /.test(t.trim())) continue;
      // Below, the message's next lines, then only lines indented under it (not the next tool's output).
      if (step > 0 && n >= 3 && !/^\s/.test(t)) return undefined;
      if (REPORT_END.test(t)) return undefined;
      // A passing test's verdict (go test's `--- PASS: T`) closes that test's output: what is past it is not this failure's.
      if (/^\s*--- (?:PASS|SKIP): /.test(t)) return undefined;
      const p = at(i);
      if (p) return p;
    }
    return undefined;
  };
  return side(1) ?? side(-1) ?? failureListBelow(line, count, m, root);
}

/**
 * The place of the step's error when the message is the CI's exit line: the step's output (up to
 * its last command, over the CI's marks) holds one line that names a place and says error
 * (`Makefile:4: *** Recursive variable ... Stop.`); several, or none, give none. A command whose whole output is
 * at most 3 lines, one of them a place, failed there, whatever its words (zsh's `x.zsh:6: no matches found: ...`,
 * go's `go.mod:5: unknown directive: toolchain` under `go: errors parsing go.mod:`).
 */
function stepError(line: (i: number) => string, m: number, root?: string): (Place & { index: number }) | undefined {
  const found: (Place & { index: number })[] = [];
  const placed: (Place & { index: number })[] = [];
  let said = 0;
  let command = false;
  for (let i = m - 1; i >= Math.max(0, m - 30); i--) {
    const t = line(i);
    if (/^\s*(?:\[Pipeline\]|##\[)/.test(t) || t.trim() === '') continue;
    if (/^\s*(?:\+ |\$ )/.test(t)) {
      command = true;
      break;
    }
    said++;
    const p = placeIn(t, root);
    if (p) placed.push({ ...p, index: i });
    if (p && /\*\*\*|\b(?:error|Error|ERROR|fatal|FATAL)\b/.test(t)) found.push({ ...p, index: i });
  }
  if (found.length === 1) return found[0];
  return found.length === 0 && command && said <= 3 && placed.length === 1 ? placed[0] : undefined;
}

/**
 * A call history printed as place rows with the current call marked (CHICKEN's `src/x.scm:4: f  <--`
 * at the end of its rows): the marked row is the place, not the first row of the history.
 */
function markedRow(line: (i: number) => string, count: number, i: number, root?: string): number {
  for (let k = i; k < Math.min(count, i + 60); k++) {
    const t = line(k);
    if (!placeIn(t, root)) return i;
    if (/\s<--\s*$/.test(t)) return k;
  }
  return i;
}

/**
 * A runner's list of what failed, just below the failure (`Failing scenarios:` over
 * `  features/x.feature:7  name`): when it holds one row, that row's place is the failure's.
 */
function failureListBelow(line: (i: number) => string, count: number, m: number, root?: string): (Place & { index: number }) | undefined {
  for (let i = m + 1; i < Math.min(count, m + 8); i++) {
    const t = line(i);
    if (REPORT_END.test(t)) return undefined;
    if (!/^(?=\S).*\bfail(?:ed|ing|ures?)\b.*:$/i.test(t.trim())) continue;
    const rows: number[] = [];
    for (let k = i + 1; k < Math.min(count, i + 20) && line(k).trim() !== '' && /^\s/.test(line(k)); k++) rows.push(k);
    const p = rows.length === 1 ? placeIn(line(rows[0] as number), root) : undefined;
    return p ? { ...p, index: rows[0] as number } : undefined;
  }
  return undefined;
}

/** The row `FILE: ... differ at character C of line N` of the report below line m, for the file the finding names. */
function firstDifference(line: (i: number) => string, count: number, m: number, file: string): { file: string; line: number; column: number; log_line: number } | undefined {
  for (let k = m + 1; k < Math.min(count, m + 8); k++) {
    const t = line(k).trim();
    if (!t.startsWith(`${file}:`)) continue;
    const d = /\bdiffer(?:s)? at (?:character|char|column|col) (\d+) of line (\d+)\b/.exec(t);
    if (d) return { file, line: Number(d[2]), column: Number(d[1]), log_line: k + 1 };
  }
  return undefined;
}

/** The evidence with one more log line: the message's line first, the others in order. */
function withLine(evidence: readonly number[], n: number): number[] {
  return evidence.includes(n) ? [...evidence] : [evidence[0] as number, ...[...evidence.slice(1), n].sort((a, b) => a - b)];
}

/**
 * A linker's failure just above line i (over the build tool's verdict on it); collect2, the compiler's link driver,
 * failing itself (`collect2: fatal error: cannot find 'ld'` under `-fuse-ld=mold`) is one too.
 */
function linkAbove(line: (i: number) => string, i: number): boolean {
  for (let k = i - 1; k >= Math.max(0, i - 4); k--) if (/\bld returned \d+ exit status|^\S*\bld(?:\.\w+)?: .*(?:undefined reference|not within region|cannot find -l|overflowed by)|^collect2: (?:fatal )?error: /.test(line(k))) return true;
  return false;
}

/**
 * bash's `x.sh: line 20: syntax error: unexpected end of file` under its `x.sh: line 19: warning: here-document at line
 * 4 delimited by end-of-file (wanted \`EOF')`: the here-document that never ended (an indented terminator) starts at
 * line 4 of the same file, where the script went wrong; the end of the file is only where bash noticed.
 */
function hereDocument(line: (i: number) => string, i: number, root?: string): { file: string; line: number; log_line: number } | undefined {
  const eof = /^(\S+): line \d+: syntax error: unexpected end of file$/.exec(line(i).trim());
  if (!eof) return undefined;
  for (let k = i - 1; k >= Math.max(0, i - 3); k--) {
    const w = /^(\S+): line \d+: warning: here-document at line (\d+) delimited by end-of-file\b/.exec(line(k).trim());
    if (!w) continue;
    const file = w[1] === eof[1] ? projectFile(w[1] as string, root) : undefined;
    return file ? { file, line: Number(w[2]), log_line: k + 1 } : undefined;
  }
  return undefined;
}

/** A package's name as pip compares it (PEP 503: case and runs of `-`, `_`, `.` do not matter). */
const pipName = (n: string): string => n.toLowerCase().replace(/[-_.]+/g, '-');

/**
 * `pip check`'s `x 2.1 has requirement y==1.0, but you have y 1.2.`: the installed `y` is the one at fault, and pip's
 * install above said which requirements file line asked for it (`Collecting y==1.2 (from -r requirements.lock (line 3))`,
 * `Processing /wheels/y-1.2-py3-none-any.whl (from -r requirements.lock (line 3))`): that line is the place.
 */
function pipCheckPin(line: (i: number) => string, m: number, root?: string): (Place & { index: number }) | undefined {
  const check = /^[\w.-]+ \S+ has requirement \S+, but you have ([\w.-]+) \S+\.$/.exec(line(m).trim());
  return check ? pipRequirementLine(line, m, pipName(check[1] as string), root) : undefined;
}

/**
 * pip in `--require-hashes` mode refusing a requirement without a hash: `ERROR: Hashes are required in --require-hashes
 * mode, but they are missing from some requirements. ...` over one row per such requirement with the hash it would need
 * (`    six==1.17.0 --hash=sha256:...`). One row: the requirements file line that asked for it (pip's install above names
 * it, as for pipCheckPin) is the place; several rows are several places, none given.
 */
function pipHashPin(line: (i: number) => string, count: number, m: number, root?: string): (Place & { index: number }) | undefined {
  if (!/^ERROR: Hashes are required in --require-hashes mode\b/.test(line(m).trim())) return undefined;
  const rows: string[] = [];
  for (let k = m + 1; k < Math.min(count, m + 50); k++) {
    const row = /^\s+([A-Za-z0-9][\w.-]*)(?:\[[^\]]*\])?==\S+ --hash=/.exec(line(k));
    if (!row) break;
    rows.push(row[1] as string);
  }
  return rows.length === 1 ? pipRequirementLine(line, m, pipName(rows[0] as string), root) : undefined;
}

/** The requirements file line pip's install above line m says asked for the package `wanted` (pip's name form). */
function pipRequirementLine(line: (i: number) => string, m: number, wanted: string, root?: string): (Place & { index: number }) | undefined {
  for (let k = m - 1; k >= Math.max(0, m - 3000); k--) {
    const req = /^(?:Collecting|Processing|Requirement already satisfied:) (\S+).*\(from -[rc] (\S+) \(line (\d+)\)\)/.exec(line(k).trim());
    if (!req) continue;
    const spec = req[1] as string;
    // A requirement (`y==1.2`, `y[extra]>=1`) or a file pip was given (`/wheels/y-1.2-py3-none-any.whl`, `y-1.2.tar.gz`).
    const name = /[\\/]|\.(?:whl|tar\.gz|zip)$/.test(spec) ? /^([A-Za-z0-9][\w.]*?)-\d/.exec(spec.slice(spec.lastIndexOf('/') + 1))?.[1] : /^[A-Za-z0-9][\w.-]*/.exec(spec)?.[0];
    if (!name || pipName(name) !== wanted) continue;
    const file = projectFile(req[2] as string, root);
    return file ? { file, line: Number(req[3]), index: k } : undefined;
  }
  return undefined;
}

/** A compiler's warning that a function has no definition (clang's -Wundefined-inline / -Wundefined-internal, gcc's `used but never defined`), or none declared (C's implicit declaration). */
const NO_DEFINITION = /\b(?:warning|error): (?:inline function|function|variable) [`'‘"]([\w:~]+)['’"] (?:has internal linkage but )?is not defined\b|\b(?:warning|error): [`'‘"]([\w:~]+)['’"] used but never defined\b|\b(?:warning|error): implicit declaration of function [`'‘"]([\w:~]+)['’"]/;

/**
 * The place of a linker's undefined symbol that names no line, from the compiler's own warning above it that the same
 * function has no definition or declaration (`src/geo.hpp:11:15: warning: inline function 'geo::haversine' is not
 * defined`): the compiler saw the cause where the linker only sees its effect. Other warnings naming the symbol
 * (`unused variable 'x'`) are not its cause and give nothing.
 */
function withUndefinedWarning(found: Finding, line: (i: number) => string, root?: string): Finding {
  const qualified = (found.symbol ?? '').replace(/\(.*$/, '');
  const symbol = qualified.split('::').pop() ?? '';
  if (!symbol || RESERVED.test(symbol) || found.symbol?.startsWith('-l')) return found;
  // The warning's name is the symbol's, or the symbol's name under the scopes it gives (`haversine`, `geo::haversine`
  // for `geo::haversine`): `mapx::haversine` is another function.
  const same = (warned: string): boolean => warned === qualified || qualified.endsWith(`::${warned}`);
  for (let k = found.message_line - 2; k >= Math.max(0, found.message_line - 400); k--) {
    const t = line(k);
    const w = NO_DEFINITION.exec(t);
    if (!w || !same((w[1] ?? w[2] ?? w[3]) as string)) continue;
    const p = placeIn(t, root);
    if (p) return { ...found, location: { ...p, log_line: k + 1 }, evidence: withLine(found.evidence, k + 1) };
  }
  return found;
}

/** A name reserved to the implementation (C and C++: two underscores, or one and a capital): the compiler's and its runtime's. */
const RESERVED = /^_[_A-Z]/;

/** lld's row under its `undefined symbol:` that names the reference's source line (`>>> referenced by main.rs:6 (src/main.rs:6)`, with `-g`). */
const REFERENCED_AT = /^\s*(?:= note: )?>>> referenced by \S+:\d+ \(/;

/**
 * The place of a linker's undefined symbol when the linker names the line that refers to it: lld's first
 * `>>> referenced by FILE:LINE (PATH:LINE)` row just under the message (without debug information it names the file
 * only, `>>> referenced by main.c`: no place, as before). GNU ld names it on its message line (`src/x.c:8: undefined
 * reference to`), read as any place there.
 */
function withReference(found: Finding, line: (i: number) => string, count: number, root?: string): Finding {
  if (!/\bundefined symbol: /.test(line(found.message_line - 1)) || RESERVED.test(found.symbol ?? '')) return found;
  for (let k = found.message_line; k < Math.min(count, found.message_line + 3); k++) {
    const t = line(k);
    if (!/^\s*(?:= note: )?>>> /.test(t)) return found;
    if (!REFERENCED_AT.test(t)) continue;
    const p = placeIn(t.replace(/^\s*(?:= note: )?>>> /, ''), root);
    return p ? { ...found, location: { ...p, log_line: k + 1 }, evidence: withLine(found.evidence, k + 1) } : found;
  }
  return found;
}

/**
 * A YAML parser's mark of a place in its input (PyYAML, ruamel.yaml, and the tools on them such as yq 2/3:
 * `  in "deploy/values.yaml", line 4, column 2`). Its error prints the context's mark, then the problem's
 * (`while parsing a block mapping` / mark / `did not find expected key` / mark): the last mark is where it went wrong.
 */
const YAML_MARK = /^\s*(?:E\s+)?in "([^"]+)", line \d+, column \d+\.?$/;

/** The problem's mark when line i is a context's mark (YAML_MARK) with another of the same file in the lines of its message just below. */
function problemMark(line: (i: number) => string, count: number, i: number, root?: string): (Place & { index: number }) | undefined {
  const first = YAML_MARK.exec(line(i));
  if (!first) return undefined;
  let last: (Place & { index: number }) | undefined;
  for (const k of messageLines(line, count, i)) {
    const mark = YAML_MARK.exec(line(k));
    const p = mark && mark[1] === first[1] ? placeIn(line(k), root) : undefined;
    if (p) last = { ...p, index: k };
  }
  return last;
}

/**
 * The lines that go on with the message at line m (0-based): up to 6 below it, to a blank line, a frame, a
 * command, a CI mark or pytest's next section; under pytest's `E   ` lines, only those.
 */
function messageLines(line: (i: number) => string, count: number, m: number): number[] {
  const pytest = /^E\s/.test(line(m));
  const out: number[] = [];
  for (let k = m + 1; k < Math.min(count, m + 7); k++) {
    const t = line(k);
    if (t.trim() === '' || REPORT_END.test(t) || (pytest && !/^E\s/.test(t)) || /^\s*(?:at |File "|_{3,} |Traceback |During handling |The above exception )|^\S+:\d+: in /.test(t)) break;
    out.push(k);
  }
  return out;
}

/**
 * The place an exception's own message names, under a finding placed by its trace: a parser's mark in its input
 * (`yaml.constructor.ConstructorError: ...` over `  in "config/app.yaml", line 3, column 8`) is where the error
 * is; the project's frame that called the parser is only how it got there.
 */
function placeInMessage(line: (i: number) => string, count: number, m: number, root?: string): (Place & { index: number }) | undefined {
  for (const k of messageLines(line, count, m)) {
    const p = YAML_MARK.test(line(k)) ? placeIn(line(k), root) : undefined;
    if (p) return problemMark(line, count, k, root) ?? { ...p, index: k };
  }
  return undefined;
}

/** Ant's tag on the output of a task that runs a program (`     [java] Exception in thread "main" ...`). */
const ANT_PROGRAM_TASK = /^\s{2,}\[(java|exec|apply)\] /;

/**
 * A program an Ant task ran failed (its output behind the task's tag, `[java]`, `[exec]`) and named no line of the
 * project's (a class compiled without debug information prints `at dev.acme.Gen.main(Unknown Source)`): Ant's verdict
 * below it, `BUILD FAILED` over `/ws/build.xml:7: Java returned: 1`, names the task's line in the build file, where
 * the program was run and given its limits (`maxmemory`, arguments). The task's output runs on under its tag to the verdict.
 */
function antTaskPlace(raw: readonly string[], line: (i: number) => string, m: number, root?: string): (Place & { index: number }) | undefined {
  const tag = ANT_PROGRAM_TASK.exec(raw[m] ?? '')?.[1];
  if (!tag) return undefined;
  let k = m + 1;
  while (k < Math.min(raw.length, m + 400) && (line(k).trim() === '' || ANT_PROGRAM_TASK.exec(raw[k] ?? '')?.[1] === tag)) k++;
  if (line(k).trim() !== 'BUILD FAILED') return undefined;
  const p = /^(\S+\.xml):(\d+): /.exec(line(k + 1).trim());
  const file = p ? projectFile(p[1] as string, root) : undefined;
  return p && file ? { file, line: Number(p[2]), index: k + 1 } : undefined;
}

/** A line that is only a place (`/ws/src/Header.svelte:8:10`). */
const LONE_PLACE = new RegExp(String.raw`^${FILE}:\d+(?::\d+)?$`);

/** Workspace roots per log (the lines array): found once. */
const ROOTS = new WeakMap<readonly string[], { root: string | undefined }>();

/**
 * The finding with the place its message names in any form, when it had none; a place that is
 * not the project's file (a system or library path) is dropped. `line` reads log line i (0-based) without CI marks.
 */
export function withPlace(found: Finding, lines: readonly string[], _excerpt: Pick<LogExcerpt, 'start_line' | 'end_line'>, line: (i: number) => string): Finding {
  let cached = ROOTS.get(lines);
  if (!cached) ROOTS.set(lines, (cached = { root: workspaceIn(line, lines.length) }));
  const root = cached.root;
  let result = found;
  // A lone place over the error's words (`src/x.svelte:8:10` then `Error: Type ...`): the words are the message, the place stays.
  const words = LONE_PLACE.test(line(found.message_line - 1).trim()) ? line(found.message_line).trim() : '';
  if (/^(?:Error|ERROR|error|Warning|WARNING|warning)\b:?\s+\S/.test(words)) {
    result = { ...found, message: words, message_line: found.message_line + 1, evidence: withLine([found.message_line + 1, ...found.evidence.filter((n) => n !== found.message_line + 1)], found.message_line) };
  }
  // A place the report traces back (`originally at: x.fbs:12`) on the line the location was read from wins.
  const at = found.location && !found.location.frames && found.location.log_line ? ORIGINALLY.exec(line(found.location.log_line - 1))?.groups : undefined;
  const back = at ? projectFile(at.file as string, root) : undefined;
  if (found.location && at && back) {
    const { column: _column, ...loc } = found.location;
    result = { ...found, location: { ...loc, file: back, line: Number(at.line), ...(at.col ? { column: Number(at.col) } : {}) } };
  }
  // bash's end of file inside a here-document it warned of just above: the place is the here-document's start.
  const opened = result.location && !result.location.frames && result.location.log_line ? hereDocument(line, result.location.log_line - 1, root) : undefined;
  if (result.location && opened) result = { ...result, location: opened, evidence: withLine(result.evidence, opened.log_line) };
  // A row of a call history whose current call is marked further down: the marked row's place.
  const row = result.location && !result.location.frames && result.location.log_line ? markedRow(line, lines.length, result.location.log_line - 1, root) : undefined;
  const marked = row !== undefined && row !== (result.location?.log_line ?? 0) - 1 ? placeIn(line(row), root) : undefined;
  if (result.location && row !== undefined && marked) result = { ...result, location: { ...marked, log_line: row + 1 }, evidence: withLine(result.evidence, row + 1) };
  // A check that the output equals the input, reported at one line of the file, names where they first differ
  // on a row of its report under it (`x.pm: Files first differ at character 12 of line 20`): that line is the place.
  const differ = result.location && !result.location.frames ? firstDifference(line, lines.length, result.message_line - 1, result.location.file) : undefined;
  if (result.location && differ) result = { ...result, location: differ, evidence: withLine(result.evidence, differ.log_line) };
  // make's verdict on a link step (`collect2: error: ld returned 1 exit status` over `make: *** [Makefile:7: app.elf]`):
  // a linker's failure has no line of source, and the recipe's line is not where it is.
  const verdict = result.location?.log_line !== undefined && /^\s*g?make(?:\[\d+\])?: \*\*\* \[/.test(line(result.location.log_line - 1));
  if (verdict && result.location && linkAbove(line, result.location.log_line - 1)) {
    const { location: _link, ...rest } = result;
    result = rest;
  }
  // A reference to a name reserved to the implementation (`__gcov_init`, `__cxa_begin_catch`, `_Unwind_Resume`) is one the
  // compiler put there (coverage, exceptions, a sanitizer): the line ld names is no call the project wrote; the link's flags are the cause.
  if (result.class === 'link-error' && result.location && !result.location.frames && RESERVED.test(result.symbol ?? '')) {
    const { location: _inserted, ...rest } = result;
    result = rest;
  }
  // A parser's mark in the exception's message (its input's line) over the frame of the project's code that called it.
  const named = result.location?.frames ? placeInMessage(line, lines.length, result.message_line - 1, root) : undefined;
  if (result.location && named) {
    const { index, ...place } = named;
    result = { ...result, location: { ...place, log_line: index + 1, frames: result.location.frames }, evidence: withLine(result.evidence, index + 1) };
  }
  const given = result.location;
  if (given && !given.frames && !projectFile(given.file, root)) {
    const { location: _dropped, ...rest } = result;
    result = { ...rest, evidence: result.evidence.filter((n) => n === result.message_line || n !== given.log_line) };
  }
  // A linker's error has no line of source, unless the linker names the reference's (lld under `-g`).
  if (result.location) return result;
  if (result.class === 'link-error') {
    const referenced = withReference(result, line, lines.length, root);
    return referenced.location ? referenced : withUndefinedWarning(referenced, line, root);
  }
  // A program Ant ran (`[java]`, `[exec]`) that failed with no line of the project's: the task's line in the build file.
  const task = antTaskPlace(lines, line, result.message_line - 1, root);
  if (task) return { ...result, location: { file: task.file, line: task.line, log_line: task.index + 1 }, evidence: withLine(result.evidence, task.index + 1) };
  // A runtime's report with frames (uncaught.ts) named its places there: none of them the project's is no place.
  if (framedReportAt(line, result.message_line - 1, lines.length)) return result;
  const p = pipCheckPin(line, result.message_line - 1, root) ?? pipHashPin(line, lines.length, result.message_line - 1, root) ?? placeNear(line, lines.length, result.message_line - 1, root);
  if (!p) return result;
  const log_line = p.index + 1;
  const evidence = result.evidence.includes(log_line) ? result.evidence : [result.evidence[0] as number, ...[...result.evidence.slice(1), log_line].sort((a, b) => a - b)];
  return { ...result, location: { file: p.file, line: p.line, ...(p.column ? { column: p.column } : {}), log_line }, evidence };
}
