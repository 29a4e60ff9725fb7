/**
 * The code of the checkout a stopped process was running (session 56, helper fx20; session 57, helper ux19; issue 25):
 * a time limit or an abort (Jenkins' `Timeout has been exceeded` / `Cancelling nested steps due to timeout`, GitHub's
 * `has exceeded the maximum execution time`, `timeout`'s exit 124) or memory run out (Node's heap, Java's heap space,
 * Python's MemoryError, the OOM killer's `Killed`) while the step ran
 * - a script the change edited: `perl bin/import.pl`, `python tools/gen.py`, `./gen.sh`, or the command npm or yarn
 *   echoed for `npm run issue` (`> node --max-old-space-size=64 tools/issue.js`);
 * - a program built in the same log from the checkout's sources the change edited: `cargo build` then
 *   `timeout 20 ./target/debug/app`, `go build -o bin/x` then `./bin/x`, `make` then `./build/x`, `cargo run`, `go run .`.
 * The change block shows those hunks and, for a time limit, the last line the step printed before the stop: the first
 * suspect, not a proof (changeDiff.ts says so). A change to nothing the process ran (docs, another tool's config) links
 * nothing.
 */
import type { CiContext, Finding } from '../../../protocol/types.js';
import { blocksOf, changesOf, type StoppedScript } from './changeDiff.js';
import { sameFile } from './workspace.js';

/** A script or source file as a command names it: a path with an extension or a slash, not an option or a variable. */
const SCRIPT_WORD = /^(?:\.{0,2}\/)?(?:[\w.-]+\/)*[\w.-]+\.(?:sh|bash|py|pl|pm|rb|js|mjs|cjs|ts|R|r|php|tcl|lua|ps1|groovy|kts|jl|exs?|awk|sed)$|^\.{0,2}\/[\w./-]+$/;
/** A runner's own lines about the stop, not the step's output. */
const NOT_OUTPUT = /^\[Pipeline\]|^Cancelling nested steps|^Sending interrupt signal|^(?:Terminated|Killed|Aborted)$|^Timeout has been exceeded|^Build timed out|^Aborted by |^Click here to forcibly|^After \d+s process did not|^script returned exit code|^ERROR: |^Finished: |^##\[error\]|^Error: The operation was canceled|^The job running on runner|^Build step '|^\s*$/;
/** npm's and pnpm's echo of a package script's command (`> node tools/issue.js`, not `> app@1.0.0 issue`), yarn's `$ node ...`. */
const SCRIPT_ECHO = /^(?:> (?!\S+@\S* \S+$)|\$ )(\S.*)$/;

/** The languages a build line compiles, by the sources' extensions, and which run words it makes a program for. */
interface Builder {
  re: RegExp;
  sources: RegExp;
  /** The languages' name, said: `Rust sources`. */
  said: string;
  /** Whether a word of the failing command runs the program this build line made (the line's match given). */
  runs: (word: string, m: RegExpExecArray) => boolean;
}
const C_SOURCES = /\.(?:c|cc|cpp|cxx|h|hh|hpp|hxx|f90|f|m|mm)$/;
const outputOf = (m: RegExpExecArray): string | undefined => /(?:^|\s)-o\s+(\S+)/.exec(m.input)?.[1]?.replace(/^\.\//, '');
const BUILDERS: Builder[] = [
  { re: /^\+* ?cargo (?:build|install)\b|^Compiling \S+ v\d/, sources: /\.rs$/, said: 'Rust sources', runs: (w) => /^(?:\.\/)?target\/[\w./-]+$/.test(w) },
  { re: /^\+* ?go build\b/, sources: /(?<!_test)\.go$/, said: 'Go sources', runs: (w, m) => (outputOf(m) !== undefined ? sameFile(outputOf(m) as string, w.replace(/^\.\//, '')) : /^\.\/[\w.-]+$/.test(w)) },
  { re: /^\+* ?(?:\S*\/)?(?:cc|gcc|g\+\+|c\+\+|clang(?:\+\+)?|gfortran)(?:-[\d.]+)?\s.*\s-o\s/, sources: C_SOURCES, said: 'C/C++ sources', runs: (w, m) => outputOf(m) !== undefined && sameFile(outputOf(m) as string, w.replace(/^\.\//, '')) },
  { re: /^\+* ?(?:make|gmake|ninja|cmake --build)\b/, sources: C_SOURCES, said: 'C/C++ sources', runs: (w) => /^\.{0,2}\/[\w./-]+$/.test(w) && !/\.\w{1,4}$/.test(w) },
  { re: /^\+* ?(?:mvn|\.\/mvnw|gradle|\.\/gradlew)\b/, sources: /\.(?:java|kt|scala|groovy)$/, said: 'JVM sources', runs: (w) => /^(?:\.\/)?(?:target|build\/libs)\/[\w.-]+\.jar$/.test(w) },
];
/** A command that builds and runs the checkout's program at once. */
const BUILD_AND_RUN: { re: RegExp; sources: RegExp; said: string }[] = [
  { re: /(?:^|\s)cargo run\b/, sources: /\.rs$/, said: 'Rust sources' },
  { re: /(?:^|\s)go run\b/, sources: /(?<!_test)\.go$/, said: 'Go sources' },
];
/** Test, example and bench code is not the program that ran. */
const NOT_PROGRAM = /(?:^|\/)(?:tests?|spec|benches|examples|testdata)\//;

const wordsOf = (command: string): string[] => command.trim().split(/\s+/).map((w) => w.replace(/^(['"])(.*)\1$/, '$2')).filter((w) => !w.startsWith('-') && !/[=$*?`]/.test(w));

/** The words of the failing command that name a script of the checkout (`bin/import.pl`, `./gen.sh`). */
function scriptWords(command: string): string[] {
  return wordsOf(command).filter((w) => SCRIPT_WORD.test(w)).map((w) => w.replace(/^\.\//, ''));
}

/**
 * The changed code a stopped process was running, with the command's line and, for a time limit, the step's last output
 * before the stop; undefined unless the finding is a time limit, an abort or memory run out and the change's diffs hold
 * that code. `above`: the log's lines above the command, where a build of the program it ran may be.
 */
export function stoppedScript(ci: CiContext, f: Finding, command: { command: string; line: number; text: string } | undefined, lines: readonly { line: number; text: string }[], above: readonly { line: number; text: string }[] = []): StoppedScript | undefined {
  const w = changesOf(ci);
  const limit = f.class === 'timeout-aborted' ? 'time' : f.class === 'out-of-memory' ? 'memory' : undefined;
  if (!limit || !w || !command || command.line >= f.message_line) return undefined;
  const changed = w.diffs.flatMap(blocksOf);
  const between = lines.filter((l) => l.line > command.line && l.line < f.message_line);
  // The command itself, then what npm or yarn echoed it ran for a package script.
  const runs = [{ line: command.line, text: command.command }, ...between.flatMap((l) => {
    const m = SCRIPT_ECHO.exec(l.text.trim());
    return m ? [{ line: l.line, text: (m[1] as string).trim() }] : [];
  })];
  const last = limit === 'memory' ? undefined : [...between].reverse().find((l) => !NOT_OUTPUT.test(l.text.trim()) && !/^\++ /.test(l.text) && !SCRIPT_ECHO.test(l.text.trim()));
  const said = (run: { line: number; text: string }, paths: string[], built?: StoppedScript['built']): StoppedScript => ({ path: paths[0] as string, paths, limit, command: run, ...(built ? { built } : {}), ...(last ? { last: { line: last.line, text: last.text.trim() } } : {}) });
  for (const run of runs) {
    const path = scriptWords(run.text).find((p) => changed.some((b) => sameFile(b.path, p)));
    if (path !== undefined) return said(run, [path]);
  }
  const sourcesOf = (re: RegExp): string[] => [...new Set(changed.filter((b) => re.test(b.path) && !NOT_PROGRAM.test(b.path)).map((b) => b.path))];
  for (const run of runs) {
    const both = BUILD_AND_RUN.find((b) => b.re.test(run.text));
    const own = both ? sourcesOf(both.sources) : [];
    if (both && own.length > 0) return said(run, own, { line: run.line, text: run.text, said: both.said });
    // A program a build line above made (the nearest build first).
    for (const word of wordsOf(run.text)) {
      for (const l of [...above].reverse()) {
        if (l.line >= command.line) continue;
        const text = l.text.trim();
        const b = BUILDERS.map((x) => ({ x, m: x.re.exec(text) })).find((y) => y.m && y.x.runs(word, y.m));
        if (!b) continue;
        const sources = sourcesOf(b.x.sources);
        if (sources.length > 0) return said(run, sources, { line: l.line, text: text.replace(/^\++ /, ''), said: b.x.said, program: word });
        break;
      }
    }
  }
  return undefined;
}
