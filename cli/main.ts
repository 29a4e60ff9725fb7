/** The `cichat` executable's entry: the program of program.ts on this process's streams. */
import { run } from './program.js';
import { processIO } from './io.js';

// `cichat ask ... | head`: the reader left, which is not an error.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

process.exitCode = await run(process.argv, processIO());
