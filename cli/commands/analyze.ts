/** `cichat analyze`: offline failure excerpts of a build log (no server). */
import type { GlobalOptions } from '../main.js';
import { createReadStream } from 'node:fs';
import { analyzeLines } from '../../core/log/analyze.js';
import { baselineFromStream, type Baseline } from '../../core/log/baseline.js';
import { cleanLines } from '../../core/log/clean.js';
import { colourful, paint, printJson } from '../output.js';
import { UsageError, UserError } from '../errors.js';
import { readFileOrStdin } from '../stdin.js';

/** Reads the passing log as a stream into line fingerprints (its text is never held whole). */
async function readBaseline(file: string): Promise<Baseline> {
  try {
    return await baselineFromStream(file === '-' ? process.stdin : createReadStream(file));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'EACCES') throw new UserError(`${file}: cannot read the baseline log (${code})`);
    throw err;
  }
}

export async function analyzeLog(options: GlobalOptions, file: string | undefined, max: number, baselineFile?: string): Promise<void> {
  if (baselineFile === '-' && (file === undefined || file === '-')) {
    throw new UsageError('--baseline - reads the passing log from stdin, so name the failing log as a file: cichat analyze FAIL.log --baseline -');
  }
  if ((file === undefined || file === '-') && process.stdin.isTTY) {
    throw new UserError('No log given.', 'cichat analyze build.log, or: cat build.log | cichat analyze');
  }
  const baseline = baselineFile === undefined ? undefined : await readBaseline(baselineFile);
  let text: string;
  try {
    text = await readFileOrStdin(file ?? '-');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'EACCES') throw new UserError(`${file}: cannot read the log (${code})`);
    throw err;
  }
  const lines = cleanLines(text);
  const excerpts = analyzeLines(lines, { maxExcerpts: max, ...(baseline ? { baseline } : {}) });
  if (options.json) {
    return printJson(excerpts.map((e) => ({ ...e, lines: lines.slice(e.start_line - 1, e.end_line) })));
  }
  if (excerpts.length === 0) {
    process.stderr.write('The log is empty.\n');
    return;
  }
  const colour = colourful(process.stdout);
  const only = excerpts[0];
  if (excerpts.length === 1 && only !== undefined && only.score <= 0) {
    // Nothing recognisable as a failure: say so, then show where the log ends.
    process.stdout.write(`${paint(colour, 'bold', `No failure found in ${lines.length} lines.`)} The log ends:\n`);
  }
  const width = String(Math.max(...excerpts.map((e) => e.end_line))).length;
  const out: string[] = [];
  excerpts.forEach((e, i) => {
    const range = e.start_line === e.end_line ? `line ${e.start_line}` : `lines ${e.start_line}-${e.end_line}`;
    const since =
      e.new_since_baseline === undefined ? '' : e.new_since_baseline ? '  new since the passing build' : '  also in the passing build';
    out.push(paint(colour, 'bold', `#${i + 1} ${range}`) + paint(colour, 'dim', `  score ${e.score}  ${e.reason}${since}`));
    for (let n = e.start_line; n <= e.end_line; n++) {
      out.push(`${paint(colour, 'dim', String(n).padStart(width) + ' │')} ${lines[n - 1] ?? ''}`);
    }
    out.push('');
  });
  process.stdout.write(out.join('\n'));
}
