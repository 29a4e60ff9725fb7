/** `cichat analyze`: offline failure excerpts of a build log (no server). */
import { statSync } from 'node:fs';
import { Command, Option } from 'commander';
import { intArg, type CommandDeps } from '../command.js';
import type { Ctx } from '../io.js';
import type { AnalysisResult, LogAnalyzer } from '../../core/log/analyze.js';
import type { Baseline } from '../../core/log/baseline.js';
import { colourful, paint, printJson } from '../output.js';
import { UsageError } from '../errors.js';

export function analyzeCommand(deps: CommandDeps): Command {
  return new Command('analyze')
    .description('offline: the failure excerpts of a build log, ranked, with line numbers (needs no server)')
    .argument('[file]', 'the log file, "-" or nothing for stdin')
    .addOption(new Option('--max <n>', 'show at most n excerpts (default 5)').argParser(intArg('--max')))
    .option('--baseline <file>', "the last passing build's log: excerpts it also printed rank lower, each is marked new or not")
    .action(async (file: string | undefined, opts: { max?: number; baseline?: string }, cmd: Command) => {
      await analyzeLog(await deps.ctxOf(cmd), file, opts.max ?? 5, opts.baseline);
    });
}

/**
 * Reads the passing log as a stream into line fingerprints (its text is never held whole),
 * decoded as the failing log is (gzip, UTF-16, Windows-1252; binary refused), and a file that
 * cannot be read is the same one line (ux3, session 42: a gzipped baseline was fingerprinted as
 * its compressed bytes, so every excerpt was "new").
 */
async function readBaseline(file: string, stdin: AsyncIterable<string | Buffer>, note: (text: string) => void): Promise<Baseline> {
  const [{ baselineFromStream }, { unreadable, decodeLogStream }, { readFilePieces }] = await Promise.all([
    import('../../core/log/baseline.js'),
    import('../stdin.js'),
    import('../../core/log/reread.js'),
  ]);
  try {
    const source = file === '-' ? asBytes(stdin) : readFilePieces(file);
    return await baselineFromStream(decodeLogStream(source, `${file === '-' ? 'stdin' : file} (the baseline)`, note));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'EACCES') throw unreadable(`the baseline ${file}`, err);
    throw err;
  }
}

/**
 * Feeds a byte or text stream to the analyzer line by line (UTF-8). `open` is called only once the
 * splitter is loaded: a file stream opened earlier emits its error (no such file) while nothing
 * listens, an uncaught 'error' event that ended the process with a stack trace.
 */
async function analyzeStream(open: () => AsyncIterable<string | Buffer>, analyzer: LogAnalyzer): Promise<void> {
  const { ByteLineSplitter } = await import('../../core/log/lines.js');
  const { LineBatch } = await import('../../core/log/reread.js');
  // A piece's lines are pushed once it is cut (LineBatch: faster than one at a time).
  const batch = new LineBatch();
  const splitter = new ByteLineSplitter(batch.add, undefined, true);
  for await (const piece of open()) {
    splitter.push(piece);
    batch.into(analyzer);
  }
  splitter.end();
  batch.into(analyzer);
}

async function* asBytes(source: AsyncIterable<string | Buffer>): AsyncGenerator<Buffer> {
  for await (const piece of source) yield typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece;
}

export async function analyzeLog(ctx: Ctx, file: string | undefined, max: number, baselineFile?: string): Promise<void> {
  if (baselineFile === '-' && (file === undefined || file === '-')) {
    throw new UsageError('--baseline - reads the passing log from stdin, so name the failing log as a file: cichat analyze FAIL.log --baseline -');
  }
  if ((file === undefined || file === '-') && ctx.io.stdin.isTTY) {
    throw new UsageError('no log given (stdin is a terminal)', 'cichat analyze build.log, or: cat build.log | cichat analyze');
  }
  const stdin = file === undefined || file === '-';
  const [{ LogAnalyzer }, { unreadable, decodeLogStream }] = await Promise.all([
    import('../../core/log/analyze.js'),
    import('../stdin.js'),
  ]);
  // After analyze.js, not alongside it: both load clean.js, which jest's ESM loader cannot link twice at once.
  const { analyzeReadTwice, bomBytes, readFilePieces } = await import('../../core/log/reread.js');
  const baseline =
    baselineFile === undefined ? undefined : await readBaseline(baselineFile, ctx.io.stdin as AsyncIterable<string | Buffer>, (text) => void ctx.io.stderr.write(`cichat: ${text}\n`));
  const options = { maxExcerpts: max, ...(baseline ? { baseline } : {}) };
  // The log is read as a stream: memory is the analyzer's window and its blocks, not the file.
  // A file is read twice, the second time for the lines shown only (core/log/reread.ts): then
  // the blocks keep no lines; stdin (or a pipe) can be read once, so the analyzer keeps them.
  let result: AnalysisResult;
  try {
    // Decoded as an upload decodes it (gzip, UTF-16, Windows-1252; binary refused): a .gz was analysed as its compressed bytes.
    const name = stdin ? 'stdin' : file;
    let noted = false;
    // Every change the decoding makes to the bytes is said (gzip, UTF-16, Windows-1252), but a UTF-8 byte-order mark's removal.
    let changed = false;
    const note = (text: string) => {
      changed = true;
      if (!noted) ctx.io.stderr.write(`cichat: ${text}\n`);
    };
    // A pipe (`cichat analyze <(cmd)`) or a device reads its bytes once, as stdin does.
    if (stdin || !statSync(file).isFile()) {
      const analyzer = new LogAnalyzer(options);
      const source = stdin ? asBytes(ctx.io.stdin as AsyncIterable<string | Buffer>) : readFilePieces(file);
      await analyzeStream(() => decodeLogStream(source, name, note), analyzer);
      result = analyzer.end();
    } else {
      // The notes (gzip, the encoding) are said once, for the first read. The file's size: a small log is analysed
      // without the analyzer's priming, whose one-time cost it would not win back (core/log/prime.ts PRIME_MIN_BYTES).
      const sized = { ...options, sizeHint: statSync(file).size };
      result = await analyzeReadTwice(() => {
        const bytes = decodeLogStream(readFilePieces(file), name, note);
        return (async function* () {
          try {
            yield* bytes;
          } finally {
            noted = true;
          }
        })();
      }, sized, (offset) => (changed ? undefined : readFilePieces(file, offset + bomBytes(file))));
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'EACCES') throw unreadable(file ?? '-', err);
    throw err;
  }
  const excerpts = result.excerpts;
  const lineAt = (n: number): string => result.line(n);
  if (ctx.options.json) {
    return printJson(ctx.io.stdout, excerpts.map((e) => ({ ...e, lines: Array.from({ length: e.end_line - e.start_line + 1 }, (_, k) => lineAt(e.start_line + k)) })));
  }
  if (excerpts.length === 0) {
    ctx.io.stderr.write('The log is empty.\n');
    return;
  }
  const colour = colourful(ctx.io.stdout, ctx.io.env);
  const only = excerpts[0];
  if (excerpts.length === 1 && only !== undefined && only.score <= 0) {
    // Nothing recognisable as a failure: say so, then show where the log ends.
    ctx.io.stdout.write(`${paint(colour, 'bold', `No failure found in ${result.lineCount} lines.`)} The log ends:\n`);
  }
  const width = String(Math.max(...excerpts.map((e) => e.end_line))).length;
  const out: string[] = [];
  excerpts.forEach((e, i) => {
    const range = e.start_line === e.end_line ? `line ${e.start_line}` : `lines ${e.start_line}-${e.end_line}`;
    const since =
      e.new_since_baseline === undefined ? '' : e.new_since_baseline ? '  new since the passing build' : '  also in the passing build';
    out.push(paint(colour, 'bold', `#${i + 1} ${range}`) + paint(colour, 'dim', `  score ${e.score}  ${e.reason}${since}`));
    const f = e.finding;
    if (f) {
      const place = f.location ? `  at ${f.location.file}${f.location.line !== undefined ? `:${f.location.line}` : ''}${f.location.column !== undefined ? `:${f.location.column}` : ''}` : '';
      const test = f.test ? `  test ${f.test.name}` : '';
      out.push(paint(colour, 'dim', `   ${f.class}${f.tool ? ` (${f.tool})` : ''}${place}${test}: line ${f.message_line}, ${f.confidence} confidence${f.rules_class ? ` (a rule read it as ${f.rules_class} at ${f.rules_confidence ?? 'medium'}, set aside: the excerpt's other words do not support it)` : f.rules_confidence ? ` (a rule's ${f.rules_confidence}, lowered: the excerpt's other words read more like another class)` : ''}`));
      // A guess, said as one: no rule's evidence holds it (core/finding/classModel.ts).
      const likely = f.likely_class;
      if (likely) out.push(paint(colour, 'dim', `   not established; its words (${likely.words.join(', ')}) suggest ${likely.class}, a guess`));
    }
    for (let n = e.start_line; n <= e.end_line; n++) {
      out.push(`${paint(colour, 'dim', String(n).padStart(width) + ' │')} ${lineAt(n)}`);
    }
    out.push('');
  });
  ctx.io.stdout.write(out.join('\n'));
}
