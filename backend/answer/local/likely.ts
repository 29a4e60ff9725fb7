/**
 * How the offline answers speak of a finding's likely class (core/finding/classModel.ts): a guess
 * from the excerpt's words beside `class: unknown`, never stated as the cause. One hedged sentence
 * in "why did it fail?" (the words it rests on, each cited at its line), one conditional step in
 * "how do I fix it?". Both say that no rule's evidence establishes it; the claim checker
 * (test/helpers/claimChecks.ts) counts a class named without that as a claim.
 */
import type { Finding, FindingClass } from '../../../protocol/types.js';
import { cite, inlineCode } from '../logtext.js';

/** How a person names a finding's class in a sentence. */
export const CLASS_LABEL: Record<FindingClass, string> = {
  'compile-error': 'a compile error',
  'link-error': 'a link error',
  'test-assertion': 'a failing test check',
  'test-error': 'an exception in a test',
  'runtime-exception': 'a runtime exception',
  'dependency-resolution': 'a dependency resolution failure',
  network: 'a network problem',
  'disk-full': 'a full disk',
  'out-of-memory': 'running out of memory',
  'timeout-aborted': 'a timeout or abort',
  'permission-credentials': 'a permission or credentials problem',
  'missing-tool': 'a missing tool',
  lint: 'a lint finding',
  'ci-script': 'an error in the CI script',
  'agent-lost': 'a lost agent',
  unknown: 'an error whose cause is not established',
};

/** The words every hedged sentence carries: what makes it a guess and not a claim (the claim checker reads them). */
export const NOT_ESTABLISHED = "no rule's evidence establishes it";

/** A class's general first step, as a conditional continuation ("If it is X, <step>"): nothing of the finding's details. */
const FIRST_STEP: Record<Exclude<FindingClass, 'unknown'>, string> = {
  'compile-error': 'fix the code at the place the compiler names, as its message says',
  'link-error': 'check that the missing symbol or library is built and on the link line',
  'test-assertion': 'run that test alone and decide whether the code or the expectation is what should change',
  'test-error': 'run that test alone and read the exception it stops on and where it is raised',
  'runtime-exception': "read the exception and the deepest frame in the project's own code",
  'dependency-resolution': 'check that the dependency and version the step asks for exist in the repository the build uses, and that the build can reach that repository',
  network: 'check from the agent that the host the step calls is reachable (its name resolves, the port answers, no proxy or firewall is in between)',
  'disk-full': 'free space on the agent (`df -h` in the step shows which disk) or clean old workspaces',
  'out-of-memory': 'give the step more memory or make it use less (fewer parallel jobs, a smaller heap)',
  'timeout-aborted': 'find what the step was waiting on when it was stopped before raising its time limit',
  'permission-credentials': 'check the credentials and file permissions the step uses: present, still valid, with the access the step needs',
  'missing-tool': 'install the tool (or the version) the step calls on the agent, or put it on `PATH`',
  lint: 'fix what the checker reports, or run its fix mode if it has one',
  'ci-script': 'check the CI script\'s command and settings at that step (`bash -x` shows what it ran)',
  'agent-lost': "check the agent's own log and its connection to the controller",
};

/** The text of a log line by number (undefined: not at hand). */
type LineText = (line: number) => string | undefined;

/** The log line nearest the message (within 60 lines) that holds `word` as a word. */
function lineOfWord(f: Finding, word: string, lineText: LineText): number | undefined {
  const re = new RegExp(`(?:^|[^A-Za-z0-9_])${word}(?:$|[^A-Za-z0-9_])`);
  for (let d = 0; d <= 60; d++) {
    for (const n of d === 0 ? [f.message_line] : [f.message_line + d, f.message_line - d]) {
      const t = n > 0 ? lineText(n) : undefined;
      if (t !== undefined && re.test(t)) return n;
    }
  }
  return undefined;
}

/**
 * "It looks like a dependency resolution failure (the words `resolve` [L12], `artifact` [L14]), but
 * no rule's evidence establishes it." for an unknown finding with a likely class whose words the
 * log's lines show; undefined otherwise (the words are cited where they are, or not said at all).
 */
export function likelySentence(f: Finding, lineText?: LineText): string | undefined {
  const likely = f.class === 'unknown' ? f.likely_class : undefined;
  if (!likely || !lineText) return undefined;
  const cited = likely.words
    .map((w) => ({ w, n: /^[A-Za-z][A-Za-z0-9_]*$/.test(w) ? lineOfWord(f, w, lineText) : undefined }))
    .filter((x): x is { w: string; n: number } => x.n !== undefined)
    .slice(0, 4);
  if (cited.length === 0) return undefined;
  const words = cited.map((x) => `${inlineCode(x.w)} ${cite({ start_line: x.n, end_line: x.n })}`).join(', ');
  return `It looks like ${CLASS_LABEL[likely.class]} (the word${cited.length === 1 ? '' : 's'} ${words}), but ${NOT_ESTABLISHED}.`;
}

/** "If it is a missing tool (as its words suggest; no rule's evidence establishes it), install ...": the likely class's first step, conditional. */
export function likelyStep(f: Finding): string | undefined {
  const likely = f.class === 'unknown' ? f.likely_class : undefined;
  if (!likely) return undefined;
  return `If it is ${CLASS_LABEL[likely.class]} (as its words suggest; ${NOT_ESTABLISHED}), ${FIRST_STEP[likely.class]}.`;
}

/**
 * How sure a rules' class is, said where the answer explains it. Measured on the held-out rounds
 * 11-16 at the code each was measured with (bench `findings --by-confidence`, 434 cases never tuned
 * on): a class said at `high` was right 305 of 330 times (92 %), at `medium` 24 of 40 (60 %), at
 * `low` 4 of 12 (33 %). So a medium or low class is worded as likely, never as established; the
 * sentence names no class (the class is in the sentence before it). A rule's `high` that calibration lowered
 * (core/finding/calibration.ts, `rules_confidence`) is a medium here: forward, those were right about half the time.
 */
export function classHedge(f: Finding): string | undefined {
  if (f.class === 'unknown') return undefined;
  if (f.confidence === 'low') return 'That reading of the kind of failure rests on weak evidence: take it as a guess, not as established.';
  // Not "no rule decided it": a rule's class can be held at medium too (a shell's `unbound variable`, a TAP
  // assertion), so the sentence names no reason it does not know (ux4).
  if (f.confidence === 'medium') return 'The evidence for this kind of failure is not conclusive, so take it as likely rather than certain.';
  return undefined;
}
