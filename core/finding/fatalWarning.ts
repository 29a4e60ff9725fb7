/**
 * Warnings made fatal (issue 25; test/fixtures/realfail/README.md, decided 2026-11-28; docs/notes/analyzer.md,
 * "Eighth session (helper t10)"). javac, javadoc and kotlinc end a build that has warnings under `-Werror` with
 * one verdict that names no warning (`error: warnings found and -Werror specified`; Maven repeats it as
 * `[ERROR] /ws/A.java: warnings found and -Werror specified`), scalac with `No warnings can be incurred under
 * -Werror.`; the warnings themselves were printed above it (`A.java:27: warning: ...`, Maven's `[WARNING]
 * /ws/A.java:[27,28] ...`, kotlinc's `w: A.kt:3:5 ...`). The first of those warnings is the message and its
 * place the location. The class follows the tool: a compiler's own warnings made fatal are `compile-error`
 * (the compiler refused to produce its output), a doc checker's (javadoc's doclint) are `lint`.
 */
import type { Finding } from '../../protocol/types.js';
import { messageText } from './body.js';

type BodyAt = (i: number) => string;

/** The verdict of a JVM compiler or javadoc that its warnings were made errors. */
export const FATAL_WARNINGS_VERDICT = /\bwarnings found and -Werror specified\b|\bNo warnings can be incurred under -(?:Werror|Xfatal-warnings)\b/;
/** How far above the verdict its warnings are read (a long Maven module prints its plugin headings in between). */
const REACH = 300;
/** How far around an unknown finding's excerpt the verdict is looked for (Maven repeats javadoc's report under its goal failure). */
const AROUND = 12;
const FILE = String.raw`((?:[A-Za-z]:)?[^\s:()"'\[\]<>|*?]+\.(?:java|kts?|scala))`;
/** A warning with its place, in the forms these tools print (an optional Maven or Gradle level mark first). */
const WARNING_FORMS: RegExp[] = [
  // Maven's compiler plugin: `[WARNING] /ws/src/A.java:[27,28] msg`.
  new RegExp(String.raw`^(?:\[(?:WARNING|WARN|ERROR)\]\s+)?${FILE}:\[(\d+),(\d+)\]\s+(\S.*)$`),
  // javac, javadoc, scalac: `src/A.java:21: warning: msg`.
  new RegExp(String.raw`^(?:\[(?:WARNING|WARN|ERROR)\]\s+)?${FILE}:(\d+):(?:(\d+):)? warning: (\S.*)$`),
  // kotlinc: `w: /ws/src/A.kt:3:5 msg` (or `w: file:///ws/A.kt:3:5: msg`, `w: A.kt: (3, 5): msg`).
  new RegExp(String.raw`^(?:\[(?:WARNING|WARN|ERROR)\]\s+)?w: (?:file://)?${FILE}(?::(\d+):(\d+):?|: \((\d+), (\d+)\):) (\S.*)$`),
];
/** A step's command or a build tool's heading: where the warnings of this run begin. */
const BOUNDARY = /^(?:\+ |\$ |##\[group\]Run |\[INFO\] --- |> Task :|:\w[\w:-]*$)/;
/** Words naming javadoc as the program that ran (its command, Maven's plugin, Gradle's task). */
const JAVADOC = /\bjavadoc\b/i;
const JAVADOC_PROGRESS = /^(?:\[\w+\]\s+)?(?:Loading source files for package |Constructing Javadoc information|Standard Doclet version )/;

interface Warning {
  index: number;
  file: string;
  line: number;
  column?: number;
  text: string;
}

function warningAt(body: string, index: number): Warning | undefined {
  for (const form of WARNING_FORMS) {
    const m = form.exec(body);
    if (!m) continue;
    const kotlin = form === WARNING_FORMS[2];
    const line = Number(kotlin ? (m[2] ?? m[4]) : m[2]);
    const col = kotlin ? (m[3] ?? m[5]) : m[3];
    return { index, file: m[1] as string, line, ...(col ? { column: Number(col) } : {}), text: (kotlin ? m[6] : m[4]) as string };
  }
  return undefined;
}

/** The lint category javac names in brackets at a warning's start (`[removal] Integer(int) ...`). */
function lintCategory(text: string): string | undefined {
  return /^\[([a-z][\w-]*)\] /.exec(text)?.[1];
}

/**
 * The finding with the first warning the build made fatal as its message and place, and the class of the
 * program that printed it; the finding unchanged when no such verdict is its message or in its excerpt.
 */
export function withFatalWarning(found: Finding, lines: readonly string[], excerpt: { start_line: number; end_line: number }, bodyAt: BodyAt): Finding {
  if (found.class !== 'unknown' && found.class !== 'compile-error' && found.class !== 'lint') return found;
  let verdict: number | undefined = FATAL_WARNINGS_VERDICT.test(found.message) ? found.message_line - 1 : undefined;
  // Only a finding that has no place of its own, or whose message is a verdict, is read again: a compiler's
  // error with a place (gcc's `[-Werror=x]` line) already names its warning.
  if (verdict === undefined && found.class !== 'unknown' && found.location?.line !== undefined) return found;
  // An unknown finding (a build tool's goal failure over the tool's report) reads a little around its excerpt.
  const around = found.class === 'unknown' ? AROUND : 0;
  for (let k = Math.max(0, excerpt.start_line - 1 - around); verdict === undefined && k < Math.min(lines.length, excerpt.end_line + around); k++) if (FATAL_WARNINGS_VERDICT.test(bodyAt(k))) verdict = k;
  if (verdict === undefined) return found;
  let first: Warning | undefined;
  let javadoc = JAVADOC.test(bodyAt(verdict));
  for (let k = verdict - 1; k >= Math.max(0, verdict - REACH); k--) {
    const body = bodyAt(k).trim();
    const warning = warningAt(body, k);
    if (warning) first = warning;
    // javadoc's command, Maven's `--- maven-javadoc-plugin:...` heading, Gradle's `> Task :javadoc`, or javadoc's own progress lines.
    if ((BOUNDARY.test(body) && JAVADOC.test(body)) || JAVADOC_PROGRESS.test(body)) javadoc = true;
    if (BOUNDARY.test(body)) break;
  }
  // javadoc's Maven and Gradle failures name it below the verdict (`maven-javadoc-plugin:3.6:javadoc`, `Execution failed for task ':javadoc'`).
  for (let k = verdict + 1; !javadoc && k < Math.min(lines.length, verdict + 20); k++) javadoc = /maven-javadoc-plugin|task ':[\w:-]*javadoc'|\bjavadoc (?:failed|returned)/i.test(bodyAt(k));
  const tool = javadoc ? 'javadoc' : first && /\.kts?$/.test(first.file) ? 'kotlinc' : first && /\.scala$/.test(first.file) ? 'scalac' : 'javac';
  const cls = javadoc ? 'lint' : 'compile-error';
  const category = first ? lintCategory(first.text) : undefined;
  // The code is what the message line names (an answer cites it at that line): javac's lint category.
  const code = category ? { code: `-Xlint:${category}` } : {};
  if (!first) return { ...found, class: cls, tool, confidence: 'medium' };
  const log_line = first.index + 1;
  const place = { file: first.file, line: first.line, ...(first.column !== undefined ? { column: first.column } : {}), log_line };
  const { location: _old, ...rest } = found;
  return {
    ...rest,
    class: cls,
    tool,
    ...code,
    message: messageText(bodyAt(first.index).replace(/^\s*\[(?:WARNING|WARN)\]\s+/, '')),
    message_line: log_line,
    location: place,
    confidence: 'high',
    evidence: [log_line, ...[...found.evidence, verdict + 1].filter((n, i, all) => n !== log_line && all.indexOf(n) === i).sort((a, b) => a - b)],
  };
}

/** The lint a rustc diagnostic's notes name as denied: `-D unused-variables` implied by `-D warnings`, `#[deny(x)]` on by default or implied, a `#![deny(x)]` quoted under `the lint level is defined here`. */
const RUST_LINT_NOTE = /`-[DF] ((?:clippy::|rustdoc::)?[\w-]+)` implied by|`#\[(?:deny|forbid)\(((?:clippy::|rustdoc::)?\w+)\)\]` (?:on by default|implied by)|^\d+\s+\|\s*#!?\[(?:deny|forbid)\(((?:clippy::|rustdoc::)?\w+)\)\]/;
/** clippy's own pointer under each of its lints. */
const CLIPPY_HELP = /rust-clippy\/[\w/.-]*#(\w+)/;
/** How far below its `error: ` line a rustc diagnostic's notes are read (a long suggestion sits in between). */
const NOTES_REACH = 40;

/**
 * A lint that rustc or clippy reported as an error (`-D warnings`, `#![deny(...)]`): clippy's own lints (`clippy::`)
 * and rustdoc's (`rustdoc::`) are `lint`, rustc's own (`unused_variables`, `dead_code`, deny-by-default `arithmetic_overflow`) are `compile-error`
 * of rustc even when `cargo clippy` ran them, as `cargo build` fails on them too. A clippy lint's name is the code.
 */
export function withRustLint(found: Finding, bodyAt: BodyAt, lineCount: number): Finding {
  const rustc = found.class === 'compile-error' && found.tool === 'rustc';
  const clippy = found.class === 'lint' && found.tool === 'clippy';
  if ((!rustc && !clippy) || !/^error: \S/.test(found.message)) return found;
  let lint: string | undefined;
  let clippyHelp: string | undefined;
  for (let k = found.message_line; k < Math.min(lineCount, found.message_line + NOTES_REACH); k++) {
    const body = bodyAt(k).trim();
    if (/^(?:error|warning)(?:\[\w+\])?: /.test(body)) break;
    const m = RUST_LINT_NOTE.exec(body);
    const name = m ? (m[1] ?? m[2] ?? m[3]) : undefined;
    if (name !== undefined && name !== 'warnings' && !/^clippy::(?:all|pedantic|nursery|style|complexity|perf|correctness|suspicious|restriction|cargo)$/.test(name)) lint ??= name.replace(/-/g, '_');
    clippyHelp ??= CLIPPY_HELP.exec(body)?.[1];
  }
  if (lint === undefined && clippyHelp !== undefined) lint = `clippy::${clippyHelp}`;
  if (lint === undefined) return found;
  if (lint.startsWith('clippy::')) return { ...found, class: 'lint', tool: 'clippy', code: lint };
  // rustdoc's own lints (`rustdoc::broken_intra_doc_links` denied by `-D warnings` under `cargo doc`): a doc
  // checker's finding, lint (README's taxonomy), the code builds.
  if (lint.startsWith('rustdoc::')) return { ...found, class: 'lint', tool: 'rustdoc', code: lint };
  // rustc's lint is named on a note below the message, not on the message line an answer cites, and is no
  // `rustc --explain` code: the class and tool say it, the note stays in the log.
  return { ...found, class: 'compile-error', tool: 'rustc' };
}
