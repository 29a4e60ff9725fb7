/**
 * The child of `npm run bench -- analyze --same CHECKOUT`: the analyzer of the checkout it runs
 * in (its working directory, whatever this file's own) over each file named on the command line,
 * one JSON line per file: its excerpts (up to 50, with findings) and every candidate's features.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

interface Analyzer {
  analyzeLines(lines: readonly string[], options?: { maxExcerpts?: number }): unknown;
  candidatesOf(lines: readonly string[]): unknown;
}

async function main(): Promise<void> {
  const here = (p: string) => pathToFileURL(path.join(process.cwd(), p)).href;
  const analyzer = (await import(here('core/log/analyze.ts'))) as Analyzer;
  const { cleanLines } = (await import(here('core/log/clean.ts'))) as { cleanLines(text: string): string[] };
  for (const file of process.argv.slice(2)) {
    const lines = cleanLines(readFileSync(file, 'utf8'));
    process.stdout.write(`${JSON.stringify({ file, excerpts: analyzer.analyzeLines(lines, { maxExcerpts: 50 }), candidates: analyzer.candidatesOf(lines) })}\n`);
  }
}

void main();
