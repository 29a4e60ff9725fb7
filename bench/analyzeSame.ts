/**
 * The child of `npm run bench -- analyze --same CHECKOUT`: the analyzer of the checkout it runs
 * in (its working directory, whatever this file's own) over each file named on the command line,
 * one JSON line per file: its excerpts (up to 50, with findings) and every candidate's features
 * over `cleanLines`; and, as `cichat analyze` runs it, the file's bytes through
 * `ByteLineSplitter` (64 KiB pieces, and 1000-byte pieces) into a `LogAnalyzer`: a hash of every
 * line and length the splitter gave, the line count and the ranked excerpts with their findings.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

interface Analyzer {
  analyzeLines(lines: readonly string[], options?: { maxExcerpts?: number }): unknown;
  candidatesOf(lines: readonly string[]): unknown;
  LogAnalyzer: new () => { push(line: string): void; end(): { excerpts: unknown; lineCount: number } };
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
  const streamed = (bytes: Buffer, size: number) => {
    const hash = createHash('sha256');
    const log = new analyzer.LogAnalyzer();
    const splitter = new ByteLineSplitter((line, length) => {
      hash.update(`${length}|${line}\n`);
      log.push(line);
    });
    for (let i = 0; i < bytes.length; i += size) splitter.push(bytes.subarray(i, i + size));
    splitter.end();
    const result = log.end();
    return { lines: hash.digest('hex'), lineCount: result.lineCount, excerpts: result.excerpts };
  };
  for (const file of process.argv.slice(2)) {
    const bytes = readFileSync(file);
    const lines = cleanLines(bytes.toString('utf8'));
    const stream = streamed(bytes, 65536);
    const small = streamed(bytes, 1000);
    process.stdout.write(
      `${JSON.stringify({ file, excerpts: analyzer.analyzeLines(lines, { maxExcerpts: 50 }), candidates: analyzer.candidatesOf(lines), stream, streamSmallPieces: small.lines === stream.lines ? 'same lines' : small })}\n`,
    );
  }
}

void main();
