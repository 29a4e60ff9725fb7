/**
 * The two kinds of failure the CLI tells apart: a problem the user can fix (one line and a
 * hint, exit 1) and a usage error (exit 2). Anything else is a bug and prints its stack.
 */

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;
export const EXIT_INTERRUPTED = 130;

/** A failure the user can act on: printed as one line plus an optional hint, exit 1. */
export class UserError extends Error {
  constructor(
    message: string,
    readonly hint?: string,
    readonly exitCode: number = EXIT_FAILURE,
  ) {
    super(message);
    this.name = 'UserError';
  }
}

/** A command line that cannot be run as written (bad number, missing argument): exit 2. */
export class UsageError extends UserError {
  constructor(message: string, hint?: string) {
    super(message, hint, EXIT_USAGE);
    this.name = 'UsageError';
  }
}

/** An HTTP error answer of the controller or backend, carrying its `detail` (and its `code`, when the body has one). */
export class ApiError extends UserError {
  constructor(
    readonly status: number,
    readonly detail: string,
    hint?: string,
    /** Seconds the server asked to wait before trying again (`Retry-After`), when it said. */
    readonly retryAfterSeconds?: number,
    /** The body's machine-readable `code` (protocol/types.ts ERROR_CODES); an older controller sends none. */
    readonly code?: string,
  ) {
    super(detail, hint);
    this.name = 'ApiError';
  }
}

/** The stream was stopped by the user (Ctrl-C): exit 130. */
export class InterruptedError extends UserError {
  constructor(message = 'Interrupted.') {
    super(message, undefined, EXIT_INTERRUPTED);
    this.name = 'InterruptedError';
  }
}

/** Prints an error the way the CLI promises and answers the exit code to use. */
export function reportError(err: unknown, stderr: { write(text: string): unknown } = process.stderr): number {
  if (err instanceof UserError) {
    stderr.write(`cichat: ${err.message}\n`);
    if (err.hint) stderr.write(`hint: ${err.hint}\n`);
    return err.exitCode;
  }
  const stack = err instanceof Error ? (err.stack ?? err.message) : String(err);
  stderr.write(`cichat: unexpected error (a bug, please report it):\n${stack}\n`);
  return EXIT_FAILURE;
}

/** Parses a positive integer argument, or throws a usage error naming it. */
export function parsePositiveInt(value: string, name: string): number {
  if (!/^\d+$/.test(value.trim())) throw new UsageError(`${name}: must be a positive integer, got "${value}"`);
  const n = Number(value.trim());
  if (!Number.isSafeInteger(n) || n < 1) throw new UsageError(`${name}: must be a positive integer, got "${value}"`);
  return n;
}
