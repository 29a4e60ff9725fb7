/** The lines of a read file around line `line` (1-based), `context` each side, narrowed until they fit `maxChars` (minified code). */
export function window(file: { readonly lines: readonly string[]; readonly cut?: boolean }, line: number, context: number, maxChars: number): { startLine: number; endLine: number; text: string } {
  let startLine = Math.max(1, line - context);
  let endLine = Math.min(file.lines.length, line + context);
  const textOf = (): string => file.lines.slice(startLine - 1, endLine).join('\n');
  let text = textOf();
  // Long lines (minified code): narrow around the named line until it fits.
  while (text.length > maxChars && endLine > startLine) {
    if (line - startLine >= endLine - line) startLine++;
    else endLine--;
    text = textOf();
  }
  if (text.length > maxChars) text = text.slice(0, maxChars);
  return { startLine, endLine, text };
}
