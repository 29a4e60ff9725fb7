/**
 * A clue snippet of the context as the fix steps read it (issue 25): its message without the mark, its line and that
 * line's code. Shared by clues.ts and the step modules it calls (linkageSteps.ts, dataFileSteps.ts, renamedSteps.ts),
 * which cannot import clues.ts back.
 */
import type { WorkspaceSnippet } from '../../../protocol/types.js';

export interface Clue {
  snippet: WorkspaceSnippet;
  what: string;
  line: number;
  code: string;
}

/** A line of code cut to `n` characters for quoting in a sentence. */
export const clip = (s: string, n = 120): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
