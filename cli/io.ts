/**
 * What a command is given: its streams, its environment and the client to talk to the
 * controller. `cichat` passes the process's; tests pass their own, so most CLI tests run
 * in-process (no spawn, no tsx start-up) and read what a command wrote.
 */
import type { CichatClient } from './client.js';
import type { GlobalOptions } from './options.js';

/** A stream a command writes to (process.stdout fits; so does a test's collector). */
export interface Output {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface CliIO {
  stdout: Output;
  stderr: Output;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
}

/** The context of one command run. */
export interface Ctx {
  options: GlobalOptions;
  io: CliIO;
  /** The controller client for these options (made on first use). */
  client(): CichatClient;
  /** Sets the exit code the run ends with when the command returns normally (`serve` after a signal). */
  exit(code: number): void;
}

export function processIO(): CliIO {
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env };
}

/** A collecting Output for tests and in-process runs. */
export class TextOutput implements Output {
  text = '';
  constructor(
    public isTTY = false,
    public columns = 80,
  ) {}
  write(text: string): boolean {
    this.text += text;
    return true;
  }
}
