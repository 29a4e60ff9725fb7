/**
 * Which lines of the code under test to show (helper fx2, issue 25 deliverable 3): the workspace holds
 * the file from its start (up to 60 lines), the answer shows 30. The window starts at the definition of
 * a name the failing test calls (on the test's failing line, or the name the test is named after:
 * `TestCompare`, `test_mean_by_station`), when the file defines one; else the file's start.
 */
import type { Finding, WorkspaceSnippet } from '../../../protocol/types.js';
import { escapeRegExp } from '../facts.js';


/** A line that defines `name`: a function, method, class or type declaration, or a function bound to the name. */
function definesIn(line: string, name: string): boolean {
  const n = escapeRegExp(name);
  return new RegExp(
    [
      String.raw`\b(?:func|def|function|fn|class|struct|interface|enum|trait|type|sub|proc|module|object)\s+(?:\([^)]*\)\s*)?\*?${n}\b`,
      String.raw`\b${n}\s*[:=]\s*(?:async\s*)?(?:function\b|\([^)]*\)\s*=>|\w+\s*=>)`,
      String.raw`^\s*(?:(?:public|private|protected|static|final|synchronized|abstract|async|export|override|virtual|inline|const|pub(?:\([\w:]+\))?)\s+)*[\w<>[\],.*&:?]+\s+\*?${n}\s*\(`,
      String.raw`^\s*(?:async\s+)?${n}\s*\([^)]*\)\s*\{`,
    ].join('|'),
  ).test(line);
}

/** The names a line calls (`x.total(`, `Compare(`), in order, each once. */
function calledNames(text: string): string[] {
  return [...new Set([...text.matchAll(/\b([A-Za-z_]\w{2,})\s*\(/g)].map((m) => m[1] as string))];
}

/**
 * The names a test is named after: `TestCompare/pre` -> Compare, `test_mean_by_station` -> mean_by_station,
 * `shutdownWaitsForJobs` -> shutdown, `drain returns the items` -> drain (a word counts only if the file defines it).
 */
function testNamed(name: string): string[] {
  const words = name.split(/[^\w]+/).filter((w) => w.length >= 4);
  return [
    ...words.flatMap((w) => {
      const m = /^(?:Test|test_?|Benchmark|Example)([A-Za-z_]\w+)$/.exec(w);
      return m ? [m[1] as string, (m[1] as string).replace(/^[A-Z]/, (c) => c.toLowerCase())] : [];
    }),
    ...words.flatMap((w) => [w, /^[a-z]+(?=[A-Z])/.exec(w)?.[0] ?? '']).filter((w) => w.length >= 4),
  ];
}

/**
 * The line to centre the code under test's window on (numbered()'s `around`), so the window opens a
 * few lines above the definition; undefined to keep the file's start.
 */
export function subjectCentre(subject: WorkspaceSnippet, f: Finding, testSnippet: WorkspaceSnippet | undefined, shown = 30): number | undefined {
  const lines = subject.text.split('\n');
  if (lines.length <= shown) return undefined;
  const loc = f.location;
  const testLines = testSnippet && loc?.line !== undefined ? testSnippet.text.split('\n').slice(Math.max(0, loc.line - testSnippet.startLine - 3), loc.line - testSnippet.startLine + 1).join('\n') : '';
  const names = [...calledNames(testLines), ...testNamed(f.test?.name ?? '')];
  for (const name of names) {
    const i = lines.findIndex((l) => definesIn(l, name));
    // Only when the start alone would not show it.
    // (Kept whole near the file's end: the window ends on its last line rather than shrinking.)
    const last = subject.startLine + lines.length - 1;
    if (i >= 0 && i > shown - 8) return Math.min(subject.startLine + i + Math.floor(shown / 2) - 5, last - shown + 1 + Math.floor(shown / 2));
  }
  return undefined;
}
