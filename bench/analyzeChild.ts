/**
 * The child of `npm run bench -- analyze`: analyses each file named on the command line as a
 * stream, read twice as `cichat analyze FILE` reads it (core/log/reread.ts), and prints one
 * JSON line: CPU seconds, bytes, lines, RSS at the start and its peak (VmHWM), and the first
 * excerpt of the last file.
 */
import { readFileSync, statSync } from 'node:fs';
import { analyzeReadTwice, readFilePieces } from '../core/log/reread.js';

const vm = (key: string): number => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? NaN) * 1024;

async function main(): Promise<void> {
  const files = process.argv.slice(2);
  const rss0 = vm('VmRSS');
  const cpu0 = process.cpuUsage();
  let bytes = 0;
  let lines = 0;
  let first: unknown;
  for (const file of files) {
    const result = await analyzeReadTwice(() => readFilePieces(file), {}, (offset) => readFilePieces(file, offset));
    bytes += statSync(file).size;
    lines += result.lineCount;
    first = result.excerpts[0];
  }
  const cpu = process.cpuUsage(cpu0);
  console.log(JSON.stringify({ cpuSeconds: (cpu.user + cpu.system) / 1e6, bytes, lines, rssStart: rss0, rssPeak: vm('VmHWM'), first }));
}

void main();
