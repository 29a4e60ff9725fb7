/** Reading what was piped to the CLI. */

/** All of stdin as UTF-8, or undefined when stdin is a terminal (nothing was piped). */
export async function readPipedStdin(stdin: NodeJS.ReadableStream & { isTTY?: boolean } = process.stdin): Promise<string | undefined> {
  if (stdin.isTTY) return undefined;
  const parts: Buffer[] = [];
  for await (const part of stdin) parts.push(typeof part === 'string' ? Buffer.from(part) : (part as Buffer));
  return Buffer.concat(parts).toString('utf8');
}

/** A file's text, or stdin's when `file` is "-". */
export async function readFileOrStdin(file: string, stdin: NodeJS.ReadableStream & { isTTY?: boolean } = process.stdin): Promise<string> {
  if (file === '-') return (await readPipedStdin(stdin)) ?? '';
  const { readFile } = await import('node:fs/promises');
  return readFile(file, 'utf8');
}
