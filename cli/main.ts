/** The `cichat` executable's entry: the program of program.ts on this process's streams. */
import { run } from './program.js';
import { processIO, stdioPolicy } from './io.js';

// `cichat ask ... | head`: the reader left, which is not an error. `serve` keeps running to
// stop its children first (`npm start 2>&1 | tee log`, Ctrl-C: tee is gone before we are).
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') {
    if (stdioPolicy.exitOnEpipe) process.exit(0);
    return;
  }
  throw err;
});
process.stderr.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE') throw err;
});

process.exitCode = await run(process.argv, processIO());
