/**
 * What a command is given: its streams, its environment and the client to talk to the
 * controller. `cichat` passes the process's; tests pass their own, so most CLI tests run
 * in-process (no spawn, no tsx start-up) and read what a command wrote.
 */
import fs from 'node:fs';
import path from 'node:path';
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
  /** The name of the file stdin was redirected from (`< build.log`), when it is one. */
  stdinName?: () => string | undefined;
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

/** What the process does when the reader of its stdout leaves: exit 0 (`ask | head`), or go on (`serve`, which must stop its children first). */
export const stdioPolicy = { exitOnEpipe: true };

export function processIO(): CliIO {
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, stdinName: redirectedFrom };
}

/** The base name of the regular file on fd 0 (Linux: /proc/self/fd/0), else undefined (a pipe, a terminal). */
function redirectedFrom(): string | undefined {
  try {
    if (!fs.fstatSync(0).isFile()) return undefined;
    return path.basename(fs.readlinkSync('/proc/self/fd/0'));
  } catch {
    return undefined;
  }
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
