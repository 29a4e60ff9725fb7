/**
 * `npm run bench -- <name> [args]`: runs bench/<name>.ts, which prints its figures
 * (and JSON with --json). Benchmarks measure; tests never time anything.
 */
const BENCHES = ['analyze', 'upload', 'chats', 'stream', 'ingest', 'logchunks', 'ranker', 'baseline', 'proxy', 'workspace', 'cli', 'soak', 'watch', 'watchlatency', 'snippets', 'jenkins', 'findings', 'web', 'mask', 'garbage', 'history', 'claims', 'findingsGeneric', 'fixMisses'] as const;

async function main(): Promise<void> {
  const [name, ...args] = process.argv.slice(2);
  if (!name || !(BENCHES as readonly string[]).includes(name)) {
    console.error(`Usage: npm run bench -- <${BENCHES.join('|')}> [args]`);
    process.exit(2);
  }
  const mod = (await import(`./${name}.ts`)) as { run(args: string[]): Promise<void> };
  await mod.run(args);
}

/** Exits once what the bench printed has reached stdout and stderr: a pipe's reader gets it all (a bare exit cut JSON at 64 KiB). */
function exitWhenFlushed(code: number): void {
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}

main().then(
  () => exitWhenFlushed(0),
  (err: unknown) => {
    console.error(err);
    exitWhenFlushed(1);
  },
);
