/**
 * The offline engine's words for a code location: how an answer cites and opens the place an
 * error points at. Reading the places is core/log/locations.ts's work (one reader for the
 * controller's snippets, the CLI and these answers); this layer only shapes them for a reply.
 */
import { locationsInSpan, PIPELINE_SCRIPT } from '../../../core/log/locations.js';
import type { LogSpan } from '../logtext.js';

export interface CodeLocation {
  /** The file as printed, without a `file://` scheme; a pipeline's script is `Jenkinsfile (WorkflowScript)`. */
  path: string;
  line: number;
  column?: number;
  /** The diagnostic's message on one line, javac's detail lines in brackets (`cannot find symbol (symbol: method x())`). */
  message: string;
  /** The log line (1-based) that names it. */
  logLine: number;
}

/** The code locations an excerpt names, in order, without repeats. */
export function locationsIn(span: LogSpan): CodeLocation[] {
  return locationsInSpan(span).map((loc) => {
    // javac's `location:` line (the enclosing class) only lengthens a one-line answer.
    const [said = '', ...lines] = (loc.message ?? '').split('\n');
    const details = lines.filter((d) => !d.startsWith('location:'));
    return {
      path: loc.path === PIPELINE_SCRIPT ? 'Jenkinsfile (WorkflowScript)' : loc.path,
      line: loc.line,
      ...(loc.column !== undefined ? { column: loc.column } : {}),
      // scalac's `error: type mismatch;` ends where its details begin: the `;` goes for the brackets.
      message: details.length > 0 ? `${said.replace(/;\s*$/, '')} (${details.join('; ')})` : said,
      logLine: loc.logLine,
    };
  });
}

/** `File.kt:57:33`: the file's name with the line and column, as a person cites it. */
export function citeLocation(loc: CodeLocation): string {
  const name = loc.path.split('/').pop() ?? loc.path;
  return `${name}:${loc.line}${loc.column !== undefined ? `:${loc.column}` : ''}`;
}

/** "open `src/x.kt` at line 57, column 33" */
export function openAt(loc: CodeLocation): string {
  return `open \`${loc.path}\` at line ${loc.line}${loc.column !== undefined ? `, column ${loc.column}` : ''}`;
}

/** A question that asks where the error is or what it says, rather than why the build failed. */
export const LOCATION_QUESTION =
  /\b(?:which|what) (?:file|line|source)|\bfile and line\b|\bline number\b|\bwhere (?:is|was|are) (?:the )?(?:compile |compiler |build )?(?:error|errors|problem)\b|\bwhere in the code\b|\bshow me the (?:error|errors|compiler (?:error|output))\b|\bwhat does the (?:compiler|linter|error|type ?checker) say\b|\b(?:exact|full) error( message)?\b|\bthe error message\b/i;
