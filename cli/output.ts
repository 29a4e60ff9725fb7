/** Printing for the commands: results to stdout, diagnostics to stderr, colour only on terminals. */
import type { Output } from './io.js';

/** True when `stream` is a terminal and the user did not ask for plain output (NO_COLOR). */
export function colourful(stream: Output, env: NodeJS.ProcessEnv = process.env): boolean {
  return stream.isTTY === true && !env.NO_COLOR && env.TERM !== 'dumb';
}

const codes = { bold: [1, 22], dim: [2, 22], red: [31, 39], green: [32, 39], yellow: [33, 39], cyan: [36, 39], magenta: [35, 39] } as const;
export type Style = keyof typeof codes;

/** Wraps text in an ANSI style when `on`. */
export function paint(on: boolean, style: Style, text: string): string {
  if (!on) return text;
  const [open, close] = codes[style];
  return `\u001b[${open}m${text}\u001b[${close}m`;
}

export function printJson(out: Output, value: unknown): void {
  out.write(JSON.stringify(value, null, 2) + '\n');
}

/** A datetime of the API shown in local time, to the second. */
export function localTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}
