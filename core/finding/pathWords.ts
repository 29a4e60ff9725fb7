/**
 * A rule's words inside a path are a name somebody chose, not what a tool said: the directory
 * `/ws/python-tarfile-backup-enospc/` holds `ENOSPC` for a case-insensitive disk-full rule, and a
 * frame `File "/ws/permissionerror-cache/build.py", line 22` holds `PermissionError`, so that
 * frame was the message instead of the exception line below it (`OSError: [Errno 28] No space
 * left on device`).
 */

/** Characters that end a path token: white space and the quotes and brackets around a path. */
const TOKEN_END = /[\s"'`()<>[\]{},;]/;

/** The start and end of the path token (a run with a `/`) around [a, b) of `line`, or undefined. */
function pathTokenAround(line: string, a: number, b: number): [number, number] | undefined {
  let s = a;
  while (s > 0 && !TOKEN_END.test(line[s - 1] as string)) s--;
  let e = b;
  while (e < line.length && !TOKEN_END.test(line[e] as string)) e++;
  // The match is a part of the token, not the whole of it, and the token is a path.
  if (s === a && e === b) return undefined;
  return line.slice(s, e).includes('/') ? [s, e] : undefined;
}

/**
 * The rule's match on `line` outside the paths it names: the first match when it is not inside a
 * path token; else the match on the line with that token blanked (same length, so columns hold),
 * or null when the rule's words occur only inside paths.
 */
export function matchOutsidePaths(re: RegExp, line: string, m: RegExpExecArray): RegExpExecArray | null {
  let found: RegExpExecArray | null = m;
  let text = line;
  for (let tries = 0; found && tries < 4; tries++) {
    if (found[0] === '' || /[\s/]/.test(found[0])) return found;
    const token = pathTokenAround(text, found.index, found.index + found[0].length);
    if (!token) return found;
    text = `${text.slice(0, token[0])}${' '.repeat(token[1] - token[0])}${text.slice(token[1])}`;
    found = re.exec(text);
  }
  return found;
}
