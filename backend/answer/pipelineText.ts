/**
 * Where in a Pipeline's console text a line was printed (issue 26): the stage that was open
 * there and the parallel branch it belongs to, read from the console alone (a pasted log, a
 * freestyle job, `cichat ask` with a piped log). When the controller sent Jenkins' own record
 * (`buildDetails.failingSteps`), that record answers instead.
 *
 * The console says it this way:
 * - `[Pipeline] { (Build)` opens stage Build and `[Pipeline] // stage` closes one; older Pipeline
 *   versions prefix both inside a parallel branch: `[Pipeline] [linux] { (Build)`.
 * - `[Pipeline] { (Branch: linux)` (or `[Pipeline] [linux] { (Branch: linux)`) opens a branch;
 *   older versions prefix every line the branch prints with `[linux] `; `Failed in branch linux`
 *   names the branch that failed.
 * - Lines may carry the Timestamper's `[2026-...Z] `, GitHub Actions' `2026-...Z ` or a copied console's `10:15:30  ` first.
 */

import { interleavedParallelAt } from '../../core/log/failingStep.js';

const STAMP = /^(?:\[\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z\] |\d{4}-\d\d-\d\dT[\d:.]+Z ?|\d\d:\d\d:\d\d(?:\.\d{1,3})? {1,2})/;
const OPEN = /^\[Pipeline\] (?:\[([^\]\n]+)\] )?\{ \((.+)\)\s*$/;
const CLOSE_STAGE = /^\[Pipeline\] (?:\[([^\]\n]+)\] )?\/\/ stage\s*$/;
const FAILED_IN = /^(?:\[[^\]\n]+\] )?Failed in branch (.+?)\s*$/;
const SKIPPED = /^Stage "(.+)" skipped due to earlier failure/;
const BRANCH = 'Branch: ';

/** A line's text without the Timestamper's, GitHub Actions' or a copied console's clock (the one reader; logtext.ts `withoutStamp` is it). */
export function unstamped(line: string): string {
  const m = STAMP.exec(line);
  return m ? line.slice(m[0].length) : line;
}

export interface PipelinePlace {
  /** The innermost stage open at the line (or, for a line printed after every stage closed, the stage that failed before the others were skipped). */
  stage?: { line: number; name: string };
  /**
   * For a line printed after every stage closed when no stage was skipped (so the log does not
   * say which one failed): the last stage the log shows starting before the line. A fact of the
   * log, not a claim that the failure happened there.
   */
  lastStage?: { line: number; name: string };
  /** The line was printed after every stage had closed (`stage` or `lastStage` then come from the stages before it). */
  afterStages?: boolean;
  /** The parallel branch: the line's own `[name] ` prefix, else the one branch Jenkins says failed. */
  branch?: { line: number; name: string };
}

/** The branch names a log declares (`(Branch: X)` openings, `Failed in branch X`), and where each failed branch is first named. */
function branchNames(lines: readonly string[], firstLine: number): { names: Set<string>; failed: Map<string, number> } {
  const names = new Set<string>();
  const failed = new Map<string, number>();
  lines.forEach((line, i) => {
    // A plain substring test first: the regexes run on the few lines that can match.
    if (line.includes(`(${BRANCH}`)) {
      const m = OPEN.exec(unstamped(line));
      if (m?.[2]?.startsWith(BRANCH)) names.add(m[2].slice(BRANCH.length));
    } else if (line.includes('Failed in branch ')) {
      const m = FAILED_IN.exec(unstamped(line));
      if (m?.[1] !== undefined) {
        names.add(m[1]);
        if (!failed.has(m[1])) failed.set(m[1], firstLine + i);
      }
    }
  });
  return { names, failed };
}

/** The known branch whose `[name] ` prefix a console line carries (`[linux] + make`, `[Pipeline] [linux] sh`). */
export function branchOfLine(body: string, branches: ReadonlySet<string>): string | undefined {
  if (branches.size === 0) return undefined;
  const rest = body.startsWith('[Pipeline] [') ? body.slice('[Pipeline] '.length) : body;
  if (!rest.startsWith('[')) return undefined;
  const close = rest.indexOf('] ');
  if (close < 2) return undefined;
  const name = rest.slice(1, close);
  return branches.has(name) ? name : undefined;
}

/**
 * Inside a parallel block whose branches print unprefixed and at once, the stage opened last above
 * line `last` (0-based) may be another branch's: the failed branch's own stage (declarative Pipeline
 * names a branch's stage as the branch), else the stage that holds the block. Undefined outside such a block.
 */
function ownStageIn(lines: readonly string[], firstLine: number, last: number, failed: ReadonlyMap<string, number>): PipelinePlace['stage'] {
  const block = interleavedParallelAt(last, (i) => (lines[i] === undefined ? undefined : unstamped(lines[i] as string)));
  if (block === undefined) return undefined;
  const failedName = failed.size === 1 ? [...failed.keys()][0] : undefined;
  let mine: PipelinePlace['stage'];
  for (let i = block + 1; i <= last && failedName !== undefined; i++) {
    const open = (lines[i] as string).includes('[Pipeline] ') ? OPEN.exec(unstamped(lines[i] as string)) : null;
    if (open?.[2]?.trim() === failedName) mine = { line: firstLine + i, name: failedName };
  }
  return mine ?? pipelinePlaceOf(lines.slice(0, block + 1), firstLine, firstLine + block).stage;
}

/**
 * The stage and branch of line `errorLine` of `lines` (line `firstLine` is `lines[0]`). Scans
 * back from the line: a `// stage` seen on the way closed a stage, so the next opening above
 * it is skipped; an opening in another branch's prefix is not this line's stage. Linear in the
 * lines, with a substring test before any regex (a stored log may hold millions of lines).
 */
export function pipelinePlaceOf(lines: readonly string[], firstLine: number, errorLine: number): PipelinePlace {
  const last = Math.min(lines.length - 1, errorLine - firstLine);
  if (last < 0) return {};
  const { names: branches, failed } = branchNames(lines, firstLine);
  const place: PipelinePlace = {};
  const own = branchOfLine(unstamped(lines[last] as string), branches);
  if (own !== undefined) place.branch = { line: errorLine, name: own };
  let closed = 0;
  for (let i = last; i >= 0; i--) {
    const line = lines[i] as string;
    if (!line.includes('[Pipeline] ')) continue;
    const b = unstamped(line);
    if (!b.startsWith('[Pipeline] ')) continue;
    const close = CLOSE_STAGE.exec(b);
    if (close) {
      if (own === undefined || close[1] === undefined || close[1] === own) closed++;
      continue;
    }
    const open = OPEN.exec(b);
    if (!open || open[2] === undefined || open[2].startsWith(BRANCH)) continue;
    if (own !== undefined && open[1] !== undefined && open[1] !== own) continue;
    if (closed > 0) {
      closed--;
      continue;
    }
    place.stage = { line: firstLine + i, name: open[2].trim() };
    break;
  }
  if (place.stage !== undefined && own === undefined) place.stage = ownStageIn(lines, firstLine, last, failed) ?? place.stage;
  // Printed after every stage closed (the error Jenkins prints at the end of the run): the stage
  // that failed is the last one opened before declarative Pipeline skipped the rest.
  if (place.stage === undefined) {
    place.afterStages = true;
    const skipped = lines.findIndex((l) => l.includes('skipped due to earlier failure') && SKIPPED.test(unstamped(l)));
    const name = skipped >= 0 ? SKIPPED.exec(unstamped(lines[skipped] as string))?.[1] : undefined;
    let passed = false; // the skipped stage's own opening, just above its message
    let blockEnd: number | undefined; // the last line of a parallel block closed above the skipped stage
    for (let i = skipped - 1; i >= 0; i--) {
      const line = lines[i] as string;
      if (!line.includes('[Pipeline] ')) continue;
      if (blockEnd === undefined && /^\[Pipeline\] \/\/ parallel\s*$/.test(unstamped(line))) blockEnd = i - 1;
      const stage = OPEN.exec(unstamped(line))?.[2]?.trim();
      if (stage === undefined || stage.startsWith(BRANCH) || stage.startsWith('Declarative: ')) continue;
      if (!passed && stage === name) {
        passed = true;
        continue;
      }
      // The stage before the skipped one may be a branch's of an interleaved parallel block (ux14): as above.
      place.stage = (blockEnd === undefined ? undefined : ownStageIn(lines, firstLine, blockEnd, failed)) ?? { line: firstLine + i, name: stage };
      break;
    }
    if (skipped < 0) {
      for (let i = last; i >= 0; i--) {
        const line = lines[i] as string;
        if (!line.includes('[Pipeline] ')) continue;
        const stage = OPEN.exec(unstamped(line))?.[2]?.trim();
        if (stage === undefined || stage.startsWith(BRANCH) || stage.startsWith('Declarative: ')) continue;
        place.lastStage = { line: firstLine + i, name: stage };
        break;
      }
    }
  }
  if (place.branch === undefined && failed.size === 1) {
    const [name, line] = [...failed][0] as [string, number];
    place.branch = { line, name };
  }
  return place;
}
