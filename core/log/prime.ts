/**
 * Type feedback for the analyzer's rare paths before its first real log (issue 28).
 *
 * V8 compiles a hot function (TurboFan) with what its code has met so far. A path a log first reaches
 * megabytes in (its first diff, a Jenkins timestamp, a `_test.go:` line, a line longer than the probe, a
 * Travis exit, a block's rare turns) has no type feedback then: the compiled code is dropped there
 * ("Insufficient type feedback", `--trace-deopt`), the function runs unoptimised until compiled again, and
 * the compile is done again with the large per-line and per-block functions inlined in it. On the LogChunks
 * logs as one stream that was ~26 deopts and ~100 compiles a run, a quarter of the CPU spent on V8's
 * compiler threads (docs/notes/analyzer.md, "Session 50 (helper sp14)").
 *
 * `primeOnce` runs a short made-up log (PRIMING_LINES, the rare shapes of the line grammar: markers, prefixes,
 * exits, diffs, traces, summaries, colours and redrawn lines) once per process through the splitter and an
 * analyzer, whose result is dropped: the functions then have met those paths, in the interpreter, before
 * they are compiled. Nothing is kept from it but V8's feedback: the same excerpts and findings (bench
 * analyzeSame). It costs ~20 ms of CPU once a process (its interpreter runs, the rare shapes' patterns compiled):
 * a 6-line log analysed in a process of its own takes 0.065 CPU s against 0.046 without it, a 2.6 MB log the same
 * with and without; on a log that never reaches the rare paths the code compiled with their feedback is slower
 * (a generated 128 MB log 1.10x the CPU). docs/notes/analyzer.md, "Session 50 (helper sp14)".
 */
import { ByteLineSplitter } from './lines.js';
import { LineBatch } from './lineBatch.js';

/** What the priming pushes lines into: a `LogAnalyzer` (not imported here: analyze.ts calls this). */
interface Primed {
  push(text: string, hints: number): void;
  candidates(): unknown;
}

const ESC = '\u001b';

/** The made-up log: one line per rare path, then enough quiet lines for the window to move on (RING). */
export const PRIMING_LINES: readonly string[] = [
  'Started by user admin',
  '[Pipeline] Start of Pipeline',
  '[Pipeline] { (Branch: unit)',
  '[unit] + make test',
  '[Pipeline] echo',
  '[Pipeline] sh',
  '$ make',
  '+ make all',
  '##[group]Run npm test',
  'travis_fold:start:install',
  '',
  '  ',
  '\tindented by a tab',
  '   Compiling foo v0.1.0',
  '[2024-01-01T00:00:00.000Z] a timestamped line',
  '12:00:00  step one',
  'stderr: a line of stderr',
  '[12:00:00] [info] a prefixed line',
  '2019-07-08T10:22:55Z build',
  'web_1  | hello',
  '    [javac] Compiling 3 source files',
  '{"Time":"2020-01-01T00:00:00Z","Action":"output","Package":"x","Test":"TestA","Output":"    a_test.go:12: expected 1, got 2\\n"}',
  '    a_test.go:12: expected 1, got 2',
  '--- FAIL: TestA (0.00s)',
  'FAIL\tx\t0.01s',
  "src/a.c:3:5: error: 'x' undeclared (first use in this function)",
  '    x = 1;',
  '    ^',
  "src/b.c:7:1: error: expected ';' before '}' token",
  'return 0',
  '^',
  '',
  'In file included from src/main.c:1:',
  "src/b.h:2:3: error: unknown type name 'foo'",
  '',
  '/src/app.js',
  "   9:1  error  'z' is defined but never used  no-unused-vars",
  "  12:5  error  'x' is defined but never used  no-unused-vars",
  'In file included from src/b.c:1:',
  'java.lang.IllegalStateException: boom',
  '\tat com.x.Y.z(Y.java:12)',
  '\tat com.x.Y.main(Y.java:3)',
  'Caused by: java.io.IOException: disk',
  '\t... 3 more',
  '',
  'Traceback (most recent call last):',
  '  File "x.py", line 3, in <module>',
  '    main()',
  'ValueError: bad value',
  '',
  '+++ b/file.txt',
  '@@ -1 +1 @@',
  '-old',
  '+new',
  ' same',
  '\\ No newline at end of file',
  'diff --git a/x b/x',
  'index 0123abc..4567def 100644',
  'after the diff',
  '  testFoo, XCTAssertEqual failed: ("1") is not equal to ("2")',
  '',
  '  /path/FooTests.swift:12',
  '',
  'not ok 1 - widget works',
  'ok 2 - other',
  'There were 2 failures:',
  '1) testFoo(FooTest)',
  'junit.framework.AssertionFailedError: expected',
  '2) testBar(FooTest)',
  'junit.framework.AssertionFailedError: expected',
  '',
  'npm ERR! code E404',
  'npm ERR! Test failed.  See above for more details.',
  'npm ERR! 404 Not Found',
  'npm ERR! A complete log of this run can be found in: /x',
  'See the log for more details',
  'error: Could not resolve:',
  '  x',
  'rake aborted!',
  'Usage: foo [options]',
  'x'.repeat(5000),
  'ERROR: something failed badly here',
  'Tests run: 3, Failures: 1, Errors: 0, Skipped: 0',
  'BUILD FAILED',
  'FAILURE: Build failed with an exception.',
  '* What went wrong:',
  'The command "make test" exited with 0.',
  'The command "make test" exited with 1.',
  'The command "make test" exited with 127.',
  'The command "make deploy" failed.',
  'ERROR: script returned exit code 1',
  "Build step 'Execute shell' marked build as failure",
  '##[error]Process completed with exit code 2.',
  'Failed in branch unit',
  '[Pipeline] { (Declarative: Post Actions)',
  'Error when executing always post condition:',
  // What the splitter cleans: colours, a long coloured line, a redrawn progress bar, cursor moves, a console note, UTF-8.
  `${ESC}[31merror:${ESC}[0m coloured`,
  `${ESC}[32m${'y'.repeat(1500)}${ESC}[0m`,
  '  10%\r  50%\r 100% done',
  '  10%\r  \r',
  `${ESC}[2K${ESC}[1Gredrawn`,
  `abc${ESC}[2Dxy${ESC}[3Cz${ESC}[5G!`,
  `${ESC}[10Cfar${ESC}[Ddone`,
  `${ESC}[8mha:AAAA${ESC}[0m a console note`,
  'caf\u00e9 \u2716 failed',
  'a line of a Windows tool\r',
  'Done. Your build exited with 1.',
  'Finished: FAILURE',
];

/** How many times the made-up log comes. */
const ROUNDS = 3;

/** Quiet lines after the made-up log: the window moves past its last meaningful line (the tail is taken). */
const QUIET_LINES = 520;

/**
 * A log smaller than this (`AnalyzeOptions.sizeHint`) is analysed without the priming: its one-time cost is not won
 * back on so few lines. A log in a process of its own, 8 alternating rounds at load ~17: 84 KB 0.89x the CPU without,
 * 246 KB 0.87x, 602 KB 0.95x, 874 KB 0.92x, 2.6 MB about the same (docs/notes/analyzer.md, "Session 52 (helper sp16)").
 */
export const PRIME_MIN_BYTES = 1024 * 1024;

/** Whether a log of `sizeHint` bytes (undefined: not known, as for stdin) is worth the priming. */
export function worthPriming(sizeHint: number | undefined): boolean {
  return sizeHint === undefined || !(sizeHint < PRIME_MIN_BYTES);
}

let primed = false;

/** Runs the made-up log through a splitter and `make()`'s analyzer, the first time it is called in the process. */
export function primeOnce(make: () => Primed): void {
  if (primed) return;
  primed = true;
  const analyzer = make();
  // Through the same kinds of objects as a real read (reread.ts): a splitter with hints and marks, whose lines a
  // LineBatch gives the analyzer piece by piece. A call site that met another callback here would be compiled as a
  // polymorphic call for every real line after (a first version's own callback: a generated log 1.10x the CPU).
  const batch = new LineBatch();
  const read = (text: string): void => {
    const bytes = Buffer.from(text, 'utf8');
    const splitter = new ByteLineSplitter(batch.add, undefined, true, true);
    // Two pieces, the second starting inside a line: the path of a line cut across pieces too. The cut is a few
    // bytes into the first line after an eighth of the log, not at its middle: that fell inside the 5000-character
    // line, which then took the path of a cut line, never the splitter's own path for a line longer than the probe
    // (whose first real one dropped `scannedLines`' compiled code, issue 28, sp15).
    const cut = Math.min(bytes.length, bytes.indexOf(10, bytes.length >> 3) + 3);
    splitter.push(bytes.subarray(0, cut));
    batch.into(analyzer);
    splitter.push(bytes.subarray(cut));
    batch.into(analyzer);
    splitter.end();
    batch.into(analyzer);
  };
  // V8 gives a function its feedback vector only after it has run a while (~1 KB of bytecode): the made-up log
  // comes ROUNDS times, so that the later rounds record what the first ran through unrecorded; a splitter a round
  // (its buffer for stripped lines grows once, at the long coloured line).
  for (let round = 0; round < ROUNDS; round++) read(`${PRIMING_LINES.join('\n')}\n`);
  read('travis_time:end:0\n\n'.repeat(QUIET_LINES / 2));
  analyzer.candidates();
}
