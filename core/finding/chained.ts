/**
 * Python's chained exceptions in pytest's report (round 9 opened; docs/notes/analyzer.md, "Round 9 opened
 * (helper t9)"): `During handling of the above exception, another exception occurred:` or `The above
 * exception was the direct cause of the following exception:` under a traceback section means the
 * exception above was only the context; the one after it is what propagated (a client library wraps the
 * socket's `ConnectionRefusedError` into its own `ConnectionError` naming the host and port). An excerpt
 * cut at the first section reads on to the last exception of the chain, and to its own frame in the project.
 */
import type { Finding } from '../../protocol/types.js';

type BodyAt = (i: number) => string;

const CHAINED = /^(?:During handling of the above exception, another exception occurred:|The above exception was the direct cause of the following exception:)$/;
/** pytest's line closing a traceback section: `path.py:1077: ConnectionError`. */
const SECTION_END = /^(\S+\.py):(\d+): ([\w.]+)$/;
/** pytest's exception line: `E   redis.exceptions.ConnectionError: Error 111 ...`. */
const E_LINE = /^E\s+((?:[\w]+\.)*[A-Z]\w*(?:Error|Exception|Exit|Interrupt|Warning)\b.*)$/;
/** A frame of the project's own code (pytest's `tests/conftest.py:11: ` row), not an installed package's. */
const OWN_FRAME = /^((?!\/|\.?venv\/|\.tox\/)(?![^\s:]*(?:site|dist)-packages\/)[^\s:]+\.py):(\d+):(?:\s|$)/;
/** How far below the message a chain is read. */
const REACH = 160;

/** The finding with the chain's last exception as its message (and its deepest project frame, its raise site, as its place), when the message's section is followed by a chained one. */
export function withChainEnd(found: Finding, lines: readonly string[], bodyAt: BodyAt): Finding {
  if (!E_LINE.test(bodyAt(found.message_line - 1).trim())) return found;
  const limit = Math.min(lines.length, found.message_line + REACH);
  let k = found.message_line;
  let last: { message: number; frame?: { file: string; line: number; log_line: number } } | undefined;
  while (k < limit) {
    // The section's end, then (after blank lines) a chain header, else the chain is over.
    while (k < limit && !SECTION_END.test(bodyAt(k).trim())) k++;
    let h = k + 1;
    while (h < limit && bodyAt(h).trim() === '') h++;
    if (h >= limit || !CHAINED.test(bodyAt(h).trim())) break;
    let frame: { file: string; line: number; log_line: number } | undefined;
    let message: number | undefined;
    for (k = h + 1; k < limit; k++) {
      const text = bodyAt(k).trim();
      // The deepest frame of the project's own code: pytest prints the outermost first, the raise site last.
      const own = OWN_FRAME.exec(text);
      if (own) frame = { file: own[1] as string, line: Number(own[2]), log_line: k + 1 };
      if (E_LINE.test(text)) message = k;
      if (SECTION_END.test(text)) break;
    }
    if (message === undefined) break;
    last = { message, ...(frame ? { frame } : {}) };
  }
  if (!last) return found;
  const text = (E_LINE.exec(bodyAt(last.message).trim())?.[1] ?? '').trim();
  const at = last.message + 1;
  const frame = last.frame;
  // The chain's last exception decides between an assertion and an error (pytest.raises(match=...) fails with
  // `AssertionError: Regex pattern did not match.` while handling the code's own exception).
  const assertion = /^(?:\w+\.)*\w*Assertion(?:Failed)?Error\b/.test(text);
  const cls = found.class === 'test-error' && assertion ? 'test-assertion' : found.class === 'test-assertion' && !assertion ? 'test-error' : found.class;
  return {
    ...found,
    class: cls,
    message: text,
    message_line: at,
    exception: (/^((?:\w+\.)*\w+)/.exec(text)?.[1] ?? '').split('.').pop() as string,
    ...(frame ? { location: { ...frame } } : {}),
    evidence: [at, ...[...found.evidence, ...(frame ? [frame.log_line] : [])].filter((n, i, all) => n !== at && all.indexOf(n) === i).sort((a, b) => a - b)],
  };
}
