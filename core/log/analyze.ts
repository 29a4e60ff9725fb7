/**
 * The log analyzer: finds the lines of a build log that say why the build failed.
 *
 * Zero-shot and pure: no training, no I/O. One pass over the cleaned lines, in order, with
 * memory bounded by a window of lines around the one it is at (plus the blocks it found):
 *  1. every line gets a role: blank, noise (progress, fold markers), a command the CI ran,
 *     an exit marker, or a failure shape from `shapes.ts` (anchor, header, summary); a cheap
 *     prefilter (one scan of the characters, `failureHints`) keeps most lines from the rules;
 *  2. the commands and exit markers cut the log into sections; the section of the first
 *     command that failed is where the cause usually is, and errors printed by commands that
 *     succeeded are usually not the cause;
 *  3. once WINDOW_AHEAD more lines are known, each anchor grows into a block with its natural
 *     extent (a stack trace, a compiler error with its source excerpt, the lines of one failing
 *     test); the block keeps its lines' text and what the ranker needs of its surroundings;
 *  4. at the end, blocks are scored and the best returned, the first real error before its
 *     cascade of summaries.
 *
 * `LogAnalyzer` is the streaming form (`push` each cleaned line, then `end`); `analyzeLines`
 * and `analyze` run it over a whole log.
 */
import { markPipelineOwn, newPipelineOwn } from './pipelineOwn.js';
import type { LogExcerpt } from '../../protocol/types.js';
import { cleanLines } from './clean.js';
import { FEATURES, LEARNED_WEIGHTS, firstSorted, scoreOf, type FeatureVector } from './rank.js';
import { hasNewLine, markNewSinceBaseline, markReadBackOld, type Baseline } from './baseline.js';
import {
  BOILERPLATE,
  DEFAULT_MAX_EXCERPTS,
  DIFF_HEADER,
  LOCATION,
  NEXT_STEP,
  STACK_FRAME,
  XCTEST_CASE,
  XCTEST_LOCATION,
  XCTEST_SHAPE,
  blockAt,
  classify,
  newBlockState,
  PROBE_CHARS,
  own,
  reasonOf,
  type Block,
  type BlockExtra,
  type LineInfo,
  type Section,
} from './blocks.js';
import { noteBranch, type Branches } from './jenkins.js';
import { focusOf } from './focus.js';
import { noteTolerated, tolerated } from './tolerated.js';
import { withFindings } from '../finding/withFindings.js';
import { gateFor } from './gates.js';
import { END, firstIndex } from './prefilter.js';
import { HINT_BRANCH, HINT_GO_TEST } from './shapes.js';
import { CHUNK, KeptLines, RING, Window, sparseArray } from './kept.js';
import { GoTestOutput } from './goTestOutput.js';
import { codeAt, includes, lengthOf, startsWith } from './str.js';
import { primeOnce, worthPriming } from './prime.js';

export interface AnalyzeOptions {
  /** How many excerpts to return at most (default 5). */
  maxExcerpts?: number;
  /**
   * The last passing build's lines as fingerprints (`baselineOf`): an excerpt whose lines all
   * occur there ranks below every excerpt that is new, and each excerpt says whether it is new
   * (`new_since_baseline`). Without it the ranking is unchanged and the flag is absent.
   */
  baseline?: Baseline;
  /**
   * Lines known to hold the failure (1-based, inclusive), such as the log lines the failing
   * pipeline step wrote (`buildDetails.failingSteps[].logLines`): excerpts within them rank
   * before every other excerpt. The lines of a parallel branch Jenkins names in `Failed in
   * branch X` (prefixed `[X] `) are such lines too, without this option.
   */
  focus?: readonly (readonly [number, number])[];
  /**
   * false: past LAZY_TEXTS kept lines, the analyzer keeps only which lines it would keep, not
   * their text; the caller reads the log again for the few the result needs that it lacks
   * (`wanted`, then `complete`): memory no longer grows with the blocks of a long log. Ignored
   * with a baseline (its split reads the lines of every block). Same excerpts and findings as
   * with the lines kept.
   */
  keepLines?: boolean;
  /** The log's size in bytes when known (a file's): under PRIME_MIN_BYTES (prime.ts) no priming; same output. */
  sizeHint?: number;
}

/** A line's block is made once this many lines after it are known: a block reads ~90 lines ahead, its finding up to 80 after it. */
export const WINDOW_AHEAD = 200;
/** Lines kept around each block besides its own, for its finding (core/finding reads up to 70 lines before an excerpt and 80 after it). */
const CONTEXT_BEFORE = 80;
const CONTEXT_AFTER = 100;
/**
 * With `keepLines: false`, the lines whose text is kept all the same (~1 MB for lines of ~90
 * characters): a log whose blocks keep fewer is not read again. It was 100 000 lines (~14 MB)
 * while the second read read the log from its start; since it starts at the lines it wants
 * (reread.ts), keeping fewer costs less than copying them: on the 397 LogChunks logs as one
 * stream (whose blocks keep ~400 000 lines) 0.94x the CPU, and the per-log run unchanged.
 */
const LAZY_TEXTS = 10_000;
/**
 * The last lines shown when nothing failure-like is found: as many as the "last 30 lines" a person
 * reads first (and the baseline of issue 26), so an explanation no rule knows, printed a little
 * above the end of a short paste, is still in the first excerpt (it was 7 lines, which missed
 * such a line where the last 30 held it).
 */
const TAIL_LINES = 30;

type KeptBlock = Block;

const PIPELINE_STEP = /^\[Pipeline\] (?:sh|bat|powershell)\b/;

/** Where NEXT_STEP and DIFF_HEADER may match, by a line's first character (1; all 1 when the gate knows none). */
const firstTable = (re: RegExp): Uint8Array => gateFor(re).first ?? new Uint8Array(END + 1).fill(1);
const NEXT_STEP_FIRST = firstTable(NEXT_STEP);
const DIFF_HEADER_FIRST = firstTable(DIFF_HEADER);

/** A candidate excerpt with the features the ranker weighs. */
export interface Candidate {
  start: number;
  end: number;
  reason: string;
  features: FeatureVector;
}

/** What `LogAnalyzer.end` gives: the ranked excerpts and the text of any of them. */
export interface AnalysisResult {
  excerpts: LogExcerpt[];
  /** Lines analysed. */
  lineCount: number;
  /** An excerpt's text as `excerptText` makes it (repeats folded), from the kept lines. */
  text(e: LogExcerpt): string;
  /** The kept line i (1-based): every line of every block, and the tail; '' for the others. */
  line(n: number): string;
}

/**
 * The streaming analyzer: `push` cleaned lines (`cleanLine`) in order, then `end`. Memory is
 * the window (RING lines) plus what the blocks keep: their lines' text and a few numbers.
 */
export class LogAnalyzer {
  private readonly window = new Window();
  private readonly state = newBlockState();
  private readonly kept = new KeptLines();
  private readonly goOutput = new GoTestOutput();
  /** Lines first..last are all in `kept` (the range of the last blocks kept, merged). */
  private keptRange: [number, number] = [0, -1];
  private inDiff = false;
  /** Build steps started so far (lines pushed). */
  private steps = 0;
  /** Lines whose block pass ran. */
  private done = 0;
  // Sections (the commands the CI ran and how they exited).
  private readonly sections: Section[] = [];
  private lastCommand = -1;
  private previousEnd = -1;
  private lastPipelineStep = -1;
  private afterPipelineStep = -1;
  // The two above where the post section opened after a failure: its `sh` steps did not fail unless a post condition did.
  private stepBeforePost: [number, number] = [-1, -1];
  // Commands the script tolerated (`cmd || true`: tolerated.ts).
  private readonly tolerance = { lastTrace: -1, ranges: [] as [number, number][] };
  // Where the build stopped: summaries and failing exits, with the steps started before each.
  private stopAt: number[] = [];
  private stopSteps: number[] = [];
  private epilogue = -1;
  private epilogueSteps = 0;
  /**
   * The first freestyle build step that failed (`Build step '...' marked build as failure`):
   * what the post-build actions print after it (no test reports, no artifacts, a mail server
   * refusing the notification) is the failed build's aftermath.
   */
  private postBuild = -1;
  private readonly own = newPipelineOwn();
  // The last line that says anything, and its tail's text once it leaves the window.
  private lastMeaningful = -1;
  private tail: { end: number; texts: string[] } | undefined;
  private ended = false;
  /** Parallel branches named so far (`[Pipeline] { (Branch: X)`, `Failed in branch X`). */
  private readonly branches: Branches = { all: new Set(), failed: [] };

  /** `keepLines: false` (and no baseline): lines kept by index only. */
  private readonly lazy: boolean;
  private ranked: { excerpts: LogExcerpt[]; lines: string[] } | undefined;
  private final: AnalysisResult | undefined;

  constructor(private readonly options: AnalyzeOptions = {}) {
    this.lazy = options.keepLines === false && options.baseline === undefined;
    // Fields `push` sets again later, set twice here (as blocks.ts `mutableLineInfo` does): V8 then compiles the hot
    // functions for fields that change, rather than dropping their code when one first does. prime.ts: the rare paths.
    this.inDiff = true;
    this.inDiff = false;
    this.tail = { end: -1, texts: [] };
    this.tail = undefined;
    if (worthPriming(options.sizeHint)) primeOnce(() => new LogAnalyzer());
  }

  /**
   * One cleaned line (as `cleanLine` makes it), the next of the log; `hints`: its `failureHints`
   * when known (`ByteLineSplitter` with hints), else -1.
   */
  push(text: string, hints = -1): void {
    if (this.ended) throw new Error('log analyzer: push after end');
    const w = this.window;
    const i = w.length;
    const evicted = i - RING;
    if (evicted >= 0 && this.lastMeaningful >= 0 && evicted >= this.lastMeaningful - (TAIL_LINES - 1) && evicted <= this.lastMeaningful && this.tail?.end !== this.lastMeaningful) {
      this.tail = { end: this.lastMeaningful, texts: this.tailTexts(this.lastMeaningful) };
    }
    if (hints < 0 || (hints & HINT_BRANCH) !== 0) noteBranch(text, this.branches);
    const info = classify(text, this.branches, hints);
    this.markDiff(info);
    if (markPipelineOwn(info, this.own, i) && this.postBuild < 0) this.postBuild = i - 1;
    if (info.role === 'command') noteTolerated(info.body, i, this.tolerance);
    w.add(info, text, this.steps);
    // The hints read at most PROBE_CHARS of the line.
    if ((hints < 0 || (hints & HINT_GO_TEST) !== 0 || lengthOf(text) > PROBE_CHARS) && includes(text, '_test.go:')) this.goOutput.note(i, text, () => w.text(i - 1));
    if ((info.role === 'command' || info.role === 'text') && NEXT_STEP_FIRST[firstIndex(info.body)] === 1 && NEXT_STEP.test(info.body)) this.steps++;
    if (this.postBuild < 0 && info.role === 'exit-fail' && startsWith(info.body, 'Build step ')) this.postBuild = i;
    const c0 = codeAt(info.body, 0);
    if (this.epilogue < 0 && (c0 === 0x44 || c0 === 0x46) && (startsWith(info.body, 'Done. Your build exited with') || (startsWith(info.body, 'Finished: ') && /^Finished: [A-Z]+$/.test(info.body)))) {
      this.epilogue = i;
      this.epilogueSteps = w.stepsBefore(i);
    }
    if (i >= 2) this.markTwoLineShape(i - 2);
    if (i >= WINDOW_AHEAD) this.finish(i - WINDOW_AHEAD);
  }

  /** The log has ended: ranks the blocks. */
  end(): AnalysisResult {
    if (this.lazy) throw new Error('log analyzer: with keepLines false, the result is `complete(lines)` after `wanted()`');
    this.flush();
    this.final ??= this.result();
    return this.final;
  }

  /**
   * With `keepLines: false`, once the log has ended: the lines (0-based, inclusive ranges, in
   * order) whose text the result needs, to be read again from the log for `complete`.
   */
  wanted(): [number, number][] {
    this.flush();
    const total = this.window.length;
    const out: [number, number][] = [];
    for (const e of this.rank().excerpts) out.push(...this.kept.missing(Math.max(0, e.start_line - 1 - CONTEXT_BEFORE), Math.min(total - 1, e.end_line - 1 + CONTEXT_AFTER)));
    return out;
  }

  /**
   * With `keepLines: false`: the result, given the text of the lines `wanted` named (0-based; the
   * log read again as it was read the first time). `line` and `text` then hold those lines only.
   */
  complete(lineOf: (i: number) => string | undefined): AnalysisResult {
    this.flush();
    return this.result(lineOf);
  }

  /** Every candidate block with its features, in log order (for the ranker's protocol). */
  candidates(): Candidate[] {
    this.flush();
    return this.describe();
  }

  /** The log has ended: the lines still ahead of the window get their part of each pass. */
  private flush(): void {
    if (this.ended) return;
    this.ended = true;
    const n = this.window.length;
    if (n >= 2) this.markTwoLineShape(n - 2);
    while (this.done < n) this.finish(this.done);
  }

  /**
   * Lines of a unified diff (after its `+++ ` or `@@ ... @@` header, while lines start with
   * ` `, `+`, `-`, `@@` or `\`) are quoted text: `+ make` there is an added line, not a shell
   * trace of a command, and `- error` is a removed line, not an error.
   */
  private markDiff(line: LineInfo): void {
    const body = line.body;
    if (DIFF_HEADER_FIRST[firstIndex(body)] === 1 && DIFF_HEADER.test(body)) {
      this.inDiff = true;
      line.role = 'text';
      line.shape = undefined;
      return;
    }
    if (!this.inDiff) return;
    const c = codeAt(body, 0);
    // ' ', '+', '-', '\\' (`\ No newline at end of file`), or an empty context line.
    if (body === '' || c === 32 || c === 43 || c === 45 || c === 92) {
      if (line.role !== 'blank') {
        line.role = 'text';
        line.shape = undefined;
      }
    } else if (!/^(?:diff --git |index [0-9a-f]+\.\.|new file mode|deleted file mode)/.test(body)) {
      this.inDiff = false;
    }
  }

  /**
   * Shapes known only by two lines together (a security advisory's heading, read by its `Severity:` field under it); xcpretty's summary names the failing test and its
   * reason on one line and the file and line on the next (a blank may sit between them); this
   * detailed report outranks the one-line `✗ test` marks printed while the tests ran.
   */
  private markTwoLineShape(i: number): void {
    const w = this.window;
    const line = w.get(i);
    // A security advisory's heading over its `Severity: high` field (npm audit's package line, bandit's `>> Issue: [B602...]`) names it.
    const next = w.get(i + 1);
    if (line?.role === 'text' && next?.role === 'anchor' && next.shape?.reason === 'vulnerability' && next.indent >= line.indent) [line.role, line.shape] = ['anchor', next.shape];
    if (line === undefined || line.indent < 2 || !includes(line.body, 'test') || !XCTEST_CASE.test(line.body)) return;
    let j = i + 1;
    if (w.get(j)?.role === 'blank') j++;
    const location = w.get(j);
    if (location !== undefined && XCTEST_LOCATION.test(location.body)) {
      line.role = 'anchor';
      line.shape = XCTEST_SHAPE;
    }
  }

  /** Line i's role is final and WINDOW_AHEAD lines after it are known: its part of each pass. */
  private finish(i: number): void {
    const w = this.window;
    this.done = i + 1;
    const line = w.get(i);
    if (line === undefined) return;
    const role = line.role;
    if (role !== 'blank' && role !== 'noise') this.lastMeaningful = i;
    if (role === 'summary' || role === 'exit-fail') {
      this.stopAt.push(i);
      this.stopSteps.push(w.stepsBefore(i));
    }
    this.section(i, line);
    if (role === 'anchor' || role === 'header' || role === 'summary' || role === 'exit-fail') {
      const blocks = this.state.blocks as KeptBlock[];
      blockAt(w, i, this.state);
      for (let k = blocks.length - 1; k >= 0; k--) {
        const block = blocks[k];
        if (block === undefined || block.extra !== undefined) break;
        block.extra = this.extraOf(block);
      }
    }
  }

  /**
   * Cuts the log into the sections of the commands the CI ran (Travis `$ cmd` ... `The command
   * "cmd" exited with N.`, Jenkins `[Pipeline] sh` ... `ERROR: script returned exit code N`,
   * GitHub Actions `##[group]Run` ... `##[error]Process completed with exit code N`).
   */
  private section(i: number, line: LineInfo): void {
    const body = line.body;
    if (line.role === 'command') {
      if (this.lastCommand <= this.previousEnd || !startsWith(body, '+ ')) this.lastCommand = i;
    } else if (line.role === 'exit-ok' || line.role === 'exit-fail') {
      const failed = line.role === 'exit-fail';
      if (startsWith(body, 'ERROR: script returned')) {
        // Jenkins prints this after the pipeline unwinds: the failing `sh` is the last one before.
        const [sh, after] = this.own.postAfterFailure >= 0 && this.own.postAfterFailure < i && !this.own.postConditionFailed ? this.stepBeforePost : [this.lastPipelineStep, this.afterPipelineStep];
        if (sh > this.previousEnd) {
          const end = after >= 0 && after < i ? after : i;
          this.sections.push({ start: sh, end: end - 1, failed });
        }
      } else {
        const start = this.lastCommand > this.previousEnd ? this.lastCommand : this.previousEnd + 1;
        this.sections.push({ start, end: i, failed });
      }
      this.previousEnd = i;
    }
    if (startsWith(body, '[Pipeline] ')) {
      if (i === this.own.postAfterFailure) this.stepBeforePost = [this.lastPipelineStep, this.afterPipelineStep];
      if (PIPELINE_STEP.test(body)) {
        this.lastPipelineStep = i;
        this.afterPipelineStep = -1;
      } else if (this.lastPipelineStep >= 0 && this.afterPipelineStep < 0) {
        this.afterPipelineStep = i;
      }
    }
  }

  /** What the ranker and the reader need of a new block, while its lines are in the window. */
  private extraOf(block: Block): BlockExtra {
    const w = this.window;
    let located = false;
    let frames = 0;
    let boiler = 0;
    let fatal = false;
    const last = Math.min(block.end, block.start + 19);
    for (let j = block.start; j <= last; j++) {
      const info = w.get(j);
      const body = info?.body ?? '';
      if (info?.shape?.fatal === true && info.role === 'anchor') fatal = true;
      if (!located && LOCATION.test(body)) located = true;
      if (STACK_FRAME.test(body)) frames++;
      if (BOILERPLATE.test(body)) boiler++;
    }
    // The block's lines, and around them what its finding reads. Lines of the last range kept
    // (blocks come in order and their ranges overlap) are not looked up again.
    const keepTo = Math.min(w.length - 1, block.end + CONTEXT_AFTER);
    let keepFrom = Math.max(0, block.start - CONTEXT_BEFORE, w.length - RING);
    const [lastFrom, lastTo] = this.keptRange;
    if (keepFrom >= lastFrom && keepFrom <= lastTo + 1) {
      keepFrom = Math.max(keepFrom, lastTo + 1);
      this.keptRange = [lastFrom, Math.max(lastTo, keepTo)];
    } else if (keepFrom <= keepTo) {
      this.keptRange = [keepFrom, keepTo];
    }
    const kept = this.kept;
    // keepLines false: the texts up to a budget, past it the lines' indexes only.
    if (this.lazy && keepFrom <= keepTo) kept.addRange(keepFrom, keepTo);
    const texts = !this.lazy || kept.texts < LAZY_TEXTS;
    let chunk: (string | undefined)[] | undefined;
    for (let j = keepFrom; j <= keepTo && texts; j++) {
      if (chunk === undefined || (j & (CHUNK - 1)) === 0) chunk = kept.chunkOf(j);
      if (chunk[j & (CHUNK - 1)] !== undefined) continue;
      chunk[j & (CHUNK - 1)] = own(w.text(j));
      kept.texts++;
      if (this.lazy) continue;
      const info = w.get(j);
      const shape = info?.shape;
      if (shape !== undefined && info !== undefined) kept.shaped.set(j, { role: info.role, shape, body: own(info.body) });
    }
    const after = block.end + 1;
    return {
      template: own((w.get(block.anchor)?.body ?? '').replace(/\d+/g, '#').trim()),
      located,
      frames,
      boiler,
      stepsAfter: after < w.length ? w.stepsBefore(after) : this.steps,
      branch: w.get(block.anchor)?.branch,
      fatal,
    };
  }

  private tailTexts(end: number): string[] {
    const texts: string[] = [];
    for (let k = Math.max(0, end - (TAIL_LINES - 1)); k <= end; k++) texts.push(own(this.window.text(k)));
    return texts;
  }

  /** Build steps started from line p up to where the build next stopped (a summary, a failing exit, the epilogue, the end). */
  private goesOn(p: number, stepsBeforeP: number): number {
    const total = this.window.length;
    const epilogue = this.epilogue >= 0 ? this.epilogue : total;
    if (p >= epilogue || p >= total) return 0;
    let lo = 0;
    let hi = this.stopAt.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.stopAt[mid] ?? 0) < p) lo = mid + 1;
      else hi = mid;
    }
    const stop = this.stopAt[lo];
    let stepsAtStop: number;
    if (stop !== undefined && stop < epilogue) stepsAtStop = this.stopSteps[lo] ?? 0;
    else if (this.epilogue >= 0) stepsAtStop = this.epilogueSteps;
    else stepsAtStop = this.steps;
    return stepsAtStop - stepsBeforeP;
  }

  /** Describes every block by the features of `rank.ts`. */
  private describe(): Candidate[] {
    const blocks = this.state.blocks as KeptBlock[];
    const total = this.window.length;
    const epilogue = this.epilogue >= 0 ? this.epilogue : total;
    const sections = this.sections;
    const primary = sections.find((s) => s.failed);
    const sorted = [...sections].sort((x, y) => x.start - y.start);
    const templates = new Map<string, number>();
    for (const b of blocks) {
      if (b.kind !== 'detail') continue;
      const k = b.extra?.template ?? '';
      templates.set(k, (templates.get(k) ?? 0) + 1);
    }
    const earlier = new Map<string, number>();
    const firstDetail = new Set<number>();
    const out: Candidate[] = [];
    let si = 0;
    for (let b = 0; b < blocks.length; b++) {
      const block = blocks[b];
      if (block === undefined) continue;
      const extra = block.extra;
      while (si < sorted.length && (sorted[si]?.end ?? 0) < block.start) si++;
      const candidate = sorted[si];
      const section = candidate !== undefined && candidate.start <= block.start ? candidate : undefined;
      const sectionIndex = section !== undefined ? si : -1;
      const f: FeatureVector = new Array<number>(FEATURES.length).fill(0);
      // Specific shapes earn the full benefit of sitting in the failing command; a bare word less.
      const strength = block.weight >= 6 ? 1 : 0.5;
      f[0] = block.weight;
      f[1] = block.repeated ? 1 : 0;
      // Disk full, out of memory, killed, the agent gone: wherever it was printed before the build
      // ended (a command that went on, after the step it broke), the failing command is its consequence.
      const fatal = extra?.fatal === true && block.start <= epilogue;
      if (!fatal && tolerated(this.tolerance.ranges, block.start)) f[4] = 1;
      else if (fatal || section === primary) {
        if (primary !== undefined || section !== undefined) f[2] = strength;
      } else if (section !== undefined) {
        if (section.failed) f[3] = strength;
        else f[4] = 1;
      } else if (primary !== undefined) {
        // Outside any command (setup, teardown): before the failing command it rarely matters.
        if (block.start > primary.end) f[5] = 1;
        else f[6] = 1;
      }
      // What the CI server prints after the build has ended (cache upload, VM teardown) is not why.
      if (block.start > epilogue || (this.postBuild >= 0 && block.start > this.postBuild && !fatal)) f[7] = 1;
      f[8] = block.start / Math.max(1, total);
      if (block.anchors > 1) f[9] = 1;
      // The same kind of error again in the same command is the cascade of the first one.
      const key = `${sectionIndex}:${block.reason}`;
      const seen = earlier.get(key) ?? 0;
      earlier.set(key, seen + 1);
      f[10] = Math.min(2, 0.4 * seen);
      // What the build did after the block: went on for a while (survivable) or stopped (fatal).
      // Counted in steps the build started (a shell trace, a Gradle task, a Maven plugin, a
      // Docker step), not in lines: a test runner prints on after a failing test.
      const after = this.goesOn(Math.min(total, block.end + 1), extra?.stepsAfter ?? 0);
      f[11] = Math.log2(1 + after) / 4;
      f[12] = after <= 3 ? 1 : 0;
      if (block.kind === 'detail') f[13] = Math.log2(templates.get(extra?.template ?? '') ?? 1);
      const last = Math.min(block.end, block.start + 19);
      f[14] = extra?.located === true ? 1 : 0;
      f[15] = (extra?.frames ?? 0) >= 2 ? 1 : 0;
      f[16] = (extra?.boiler ?? 0) / (last - block.start + 1);
      if (block.kind === 'detail' && !firstDetail.has(sectionIndex)) {
        firstDetail.add(sectionIndex);
        f[17] = 1;
      }
      if (block.kind === 'detail') {
        let k = b + 1;
        while (k < blocks.length && blocks[k]?.kind === 'before') k++;
        const next = blocks[k];
        if (next !== undefined && (next.kind === 'summary' || next.kind === 'exit')) f[18] = 1;
      }
      if (block.kind === 'summary') f[19] = 1;
      if (block.kind === 'exit') f[20] = 1;
      if (block.kind === 'before') f[21] = 1;
      f[22] = Math.log2(2 + block.end - block.start) / 7;
      out.push({ start: block.start, end: block.end, reason: block.reason, features: f });
    }
    return out;
  }

  /** The ranked excerpts (without their findings yet) and the sparse array of lines their findings read. */
  private rank(): { excerpts: LogExcerpt[]; lines: string[] } {
    if (this.ranked !== undefined) return this.ranked;
    const options = this.options;
    const max = Math.max(1, options.maxExcerpts ?? DEFAULT_MAX_EXCERPTS);
    const blocks = this.state.blocks;
    const total = this.window.length;
    const kept = this.kept;
    // One candidate per block, in the same order: the score is the weighted sum of its features.
    const candidates = this.describe();
    const scored = blocks.map((block, k) => ({ block, score: scoreOf(candidates[k]?.features ?? [], LEARNED_WEIGHTS) }));
    // Best first; among equals the earlier error, since what follows is usually its cascade.
    // Blocks within the lines known to hold the failure (the failing step's, a failed branch's) first.
    const focused = focusOf(this.branches, options.focus);
    const order = (x: (typeof scored)[number], y: (typeof scored)[number]): number => Number(focused(y.block)) - Number(focused(x.block)) || y.score - x.score || x.block.start - y.block.start;
    // The tail, for a log without any failure shape.
    let tailTexts: string[] | undefined;
    let tailStart = -1;
    if (blocks.length === 0 && this.lastMeaningful >= 0) {
      tailStart = Math.max(0, this.lastMeaningful - (TAIL_LINES - 1));
      tailTexts = this.tail?.end === this.lastMeaningful ? this.tail.texts : this.tailTexts(this.lastMeaningful);
      tailTexts.forEach((text, k) => {
        const chunk = kept.chunkOf(tailStart + k);
        if (chunk[(tailStart + k) & (CHUNK - 1)] === undefined) chunk[(tailStart + k) & (CHUNK - 1)] = text;
      });
    }
    // Against the last green build: what it printed too ranks below every new excerpt (its split orders all; else the first `max`).
    let ranked: { block: Block; score: number; fresh?: boolean }[] = options.baseline ? scored.sort(order) : firstSorted(scored, max, order);
    // The kept lines at their places, in a sparse array: the others are never read. The baseline's
    // split reads the lines of every block; the findings only those around the excerpts shown.
    const lines = sparseArray(total);
    if (options.baseline) {
      kept.forEach((text, k) => (lines[k] = text));
      ranked = markNewSinceBaseline(lines, scored, options.baseline, (a, b) => firstReason(kept, a, b));
    }
    const excerpts: LogExcerpt[] = ranked.slice(0, max).map(({ block, score, fresh }) => ({
      start_line: block.start + 1,
      end_line: block.end + 1,
      score: Math.round(score * 100) / 100,
      reason: block.reason,
      ...(fresh === undefined ? {} : { new_since_baseline: fresh }),
    }));
    if (excerpts.length === 0 && tailStart >= 0) {
      // No recognisable failure: the last lines that say anything, as a plain tail.
      const tail: LogExcerpt = { start_line: tailStart + 1, end_line: this.lastMeaningful + 1, score: 0, reason: 'no failure found' };
      if (options.baseline) tail.new_since_baseline = hasNewLine(lines, tail.start_line - 1, tail.end_line - 1, options.baseline);
      excerpts.push(tail);
    }
    this.ranked = { excerpts, lines };
    return this.ranked;
  }

  private result(lineOf?: (i: number) => string | undefined): AnalysisResult {
    const options = this.options;
    const { excerpts, lines } = this.rank();
    const total = this.window.length;
    const kept = this.kept;
    // A line kept by index only (keepLines false) is read from what the caller read again.
    const lineAt = (i: number): string => kept.get(i) ?? (lineOf !== undefined && kept.inRanges(i) ? (lineOf(i) ?? '') : '');
    // What each excerpt establishes (issue 25): bounded work per excerpt, read from the kept lines
    // around it (every line it reads is kept; a line not kept, past those bounds, reads as blank).
    for (const e of excerpts) {
      const to = Math.min(total - 1, e.end_line - 1 + CONTEXT_AFTER);
      for (let k = Math.max(0, e.start_line - 1 - CONTEXT_BEFORE); k <= to; k++) if (lines[k] === undefined) lines[k] = lineAt(k);
    }
    this.goOutput.fill(lines);
    withFindings(lines, excerpts);
    return {
      excerpts: options.baseline ? markReadBackOld(lines, excerpts, options.baseline) : excerpts,
      lineCount: total,
      text: (e) => foldedText((n) => lineAt(n - 1), total, e),
      line: (n) => lineAt(n - 1),
    };
  }
}

/** The reason of the first failure shape in lines a..b (0-based), for a block cut by a baseline. */
function firstReason(kept: KeptLines, a: number, b: number): string {
  for (let k = a; k <= b; k++) {
    const line = kept.shaped.get(k);
    if (line !== undefined && line.role !== 'summary') return reasonOf({ role: line.role, shape: line.shape, body: line.body, indent: 0, stamped: false });
  }
  return 'new since the passing build';
}

/**
 * Every candidate excerpt of a log of cleaned lines with its features, in log order (0-based
 * line indexes). For the ranker's offline training and the benchmark's protocol.
 */
export function candidatesOf(lines: readonly string[]): Candidate[] {
  const analyzer = new LogAnalyzer();
  for (const line of lines) analyzer.push(line);
  return analyzer.candidates();
}

/** Ranks candidates by a weight vector: best first; among equals the earlier one. */
export function rankCandidates(candidates: readonly Candidate[], weights: readonly number[]): { candidate: Candidate; score: number }[] {
  const scored = candidates.map((candidate) => ({ candidate, score: scoreOf(candidate.features, weights) }));
  // Among equals the earlier error, since what follows is usually its cascade.
  scored.sort((x, y) => y.score - x.score || x.candidate.start - y.candidate.start);
  return scored;
}

/**
 * Finds the failure excerpts of a log of already-cleaned lines (as `cleanLines` makes them;
 * the backend stores those). Line numbers are 1-based indexes into `lines`.
 */
export function analyzeLines(lines: readonly string[], options: AnalyzeOptions = {}): LogExcerpt[] {
  const analyzer = new LogAnalyzer(options);
  for (const line of lines) analyzer.push(line);
  return analyzer.end().excerpts;
}

/**
 * Finds why a build failed: ranked excerpts (best first, at most `maxExcerpts`, default 5)
 * with 1-based, inclusive line numbers of the original log counted on "\n".
 */
export function analyze(log: string, options: AnalyzeOptions = {}): LogExcerpt[] {
  return analyzeLines(cleanLines(log), options);
}

/**
 * The text of an excerpt for a person to read: its lines, with runs of repeated lines (the
 * same message again and again, or lines that differ only in numbers) folded into one line
 * and a count.
 */
export function excerptText(lines: readonly string[], e: LogExcerpt): string {
  return foldedText((n) => lines[n - 1] ?? '', lines.length, e);
}

/** excerptText over any source of lines (1-based `lineAt`, `count` lines in all). */
function foldedText(lineAt: (n: number) => string, count: number, e: LogExcerpt): string {
  const out: string[] = [];
  const from = Math.max(1, e.start_line);
  const to = Math.min(count, e.end_line);
  let i = from;
  while (i <= to) {
    const line = lineAt(i);
    const key = line.replace(/\d+/g, '#');
    let j = i + 1;
    while (j <= to && lineAt(j).replace(/\d+/g, '#') === key) j++;
    const run = j - i;
    if (run >= 3) {
      out.push(line);
      out.push(`[... ${run - 1} similar lines folded ...]`);
    } else {
      for (let k = i; k < j; k++) out.push(lineAt(k));
    }
    i = j;
  }
  return out.join('\n');
}
