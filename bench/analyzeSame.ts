/**
 * The child of `npm run bench -- analyze --same CHECKOUT`: the analyzer of the checkout it runs
 * in (its working directory, whatever this file's own) over each file named on the command line,
 * one JSON line per file: its excerpts (up to 50, with findings) and every candidate's features
 * over `cleanLines`; and, as `cichat analyze` runs it, the file's bytes through
 * `ByteLineSplitter` (64 KiB pieces, and 1000-byte pieces) into a `LogAnalyzer`, read twice where
 * the checkout reads a file twice (core/log/reread.ts): a hash of every line and length the
 * splitter gave, the line count, the ranked excerpts with their findings and their text.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

interface Analyzer {
  analyzeLines(lines: readonly string[], options?: { maxExcerpts?: number }): unknown;
  candidatesOf(lines: readonly string[]): unknown;
  LogAnalyzer: new () => { push(line: string): void; end(): Result };
}

interface Result {
  excerpts: unknown[];
  lineCount: number;
  text(e: unknown): string;
}

interface Splitter {
  push(piece: Uint8Array): void;
  end(): void;
}

async function main(): Promise<void> {
  const here = (p: string) => pathToFileURL(path.join(process.cwd(), p)).href;
  const analyzer = (await import(here('core/log/analyze.ts'))) as Analyzer;
  const { cleanLines } = (await import(here('core/log/clean.ts'))) as { cleanLines(text: string): string[] };
  const { ByteLineSplitter } = (await import(here('core/log/lines.ts'))) as { ByteLineSplitter: new (onLine: (line: string, length: number) => void) => Splitter };
  // As `cichat analyze FILE` runs it: read twice where the checkout does (core/log/reread.ts), else once.
  const reread = existsSync(path.join(process.cwd(), 'core/log/reread.ts'))
    ? ((await import(here('core/log/reread.ts'))) as { analyzeReadTwice(open: () => AsyncIterable<Uint8Array>, options: object, openAt: (from: number) => AsyncIterable<Uint8Array>): Promise<Result> })
    : undefined;
  const streamed = async (bytes: Buffer, size: number) => {
    const hash = createHash('sha256');
    const pieces = async function* (from = 0) {
      for (let i = from; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
    };
    let result: Result;
    if (reread !== undefined) {
      const splitter = new ByteLineSplitter((line, length) => hash.update(`${length}|${line}\n`));
      for await (const piece of pieces()) splitter.push(piece);
      splitter.end();
      result = await reread.analyzeReadTwice(() => pieces(), {}, pieces);
    } else {
      const log = new analyzer.LogAnalyzer();
      const splitter = new ByteLineSplitter((line, length) => {
        hash.update(`${length}|${line}\n`);
        log.push(line);
      });
      for await (const piece of pieces()) splitter.push(piece);
      splitter.end();
      result = log.end();
    }
    return { lines: hash.digest('hex'), lineCount: result.lineCount, excerpts: result.excerpts, texts: result.excerpts.map((e) => result.text(e)) };
  };
  for (const file of process.argv.slice(2)) {
    const bytes = readFileSync(file);
    const lines = cleanLines(bytes.toString('utf8'));
    const stream = await streamed(bytes, 65536);
    const small = await streamed(bytes, 1000);
    process.stdout.write(
      `${JSON.stringify({ file, excerpts: analyzer.analyzeLines(lines, { maxExcerpts: 50 }), candidates: analyzer.candidatesOf(lines), stream, streamSmallPieces: small.lines === stream.lines ? 'same lines' : small })}\n`,
    );
  }
}

void main();
