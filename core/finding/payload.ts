/**
 * A message a tool splits over two lines: a header that ends with `:` and the payload on the next
 * line. Either half alone is not the error: git's `fatal: unable to connect to 127.0.0.1:` says what
 * failed and `127.0.0.1[0: 127.0.0.1]: errno=Connection refused` why; apache's `AH00526: Syntax error
 * on line 5 of site.conf:` names the place and `Invalid command 'RewriteEngine', ...` the error; go's
 * `... in map literal:` and the tab-indented reason; AssertJ's `java.lang.AssertionError: ` over a
 * blank line and its words. The finding's message becomes the two lines joined (one line), whichever
 * of them the rules chose; the other line joins the evidence.
 */
import type { Finding } from '../../protocol/types.js';
import { messageText } from './body.js';
import { ERRORISH } from './generic.js';

/** A line that starts a message (or a frame, a command, a verdict) of its own: never a payload. */
const OWN_START =
  /^(?:(?:\[(?:ERROR|WARNING|WARN|INFO)\]\s*)?(?:error|fatal|warning|ERROR|FATAL|WARNING|Error|Warning|note|hint|help)\b|at |File "|Traceback |Caused by:|During handling|The above exception|Expected: |\+ |\$ |#\d+ |\.\.\. \d+ more|make(?:\[\d+\])?: |Build step |Finished: |Process completed|script returned|[-=_*]{3,}|\S+\.\w+:\d+|\S+:\d+:\d+|\S+:\[\d+|\S+: (?:line )?\d+:|E\s{2,}|>\s)/;
/** A header that only places what follows (a compiler's `In function 'f':`, a traceback's head, a list's head). */
const PLACING =
  /\bIn (?:function|member function|constructor|instantiation)\b|\bin function [`'‘]|^Traceback |\bmost recent call\b|\bfollowing\b.*:$|^(?:Caused by|Suppressed): ?$|^Diff in |^CMake \w+ at .*\(\w+\):$|\bCOMPILATION ERROR :$/;
/** A line of source a runner quotes (pytest's `>   with ...:`, a numbered snippet row), ending with a block's `:`. */
const CODE = /^(?:>\s|\d+\s*\|)|^(?:def|class|if|elif|else|for|while|with|try|except|finally|async)\b.*:$/;
/** A line with a level of its own (`[FATAL] ...` under Maven's `Some problems ...:`) is a message of its own, not the payload of the line above. */
const LEVEL = /^\[[A-Z]+\]/;
/** A payload says something: a word, not a bracket or a diff mark alone. */
const WORDS = /[A-Za-z]{2}/;
const PAYLOAD_MAX = 300;

/** An exception's name with no words of its own (AssertJ's `java.lang.AssertionError: `): its words may follow a blank line. */
const BARE_EXCEPTION = /^(?:[\w$]+\.)*[\w$]*(?:Error|Exception|Failure):$/;

/** The payload line under a header at index `k` (0-based log line): the next line, or for a bare exception the one after a blank line. */
function payloadBelow(k: number, lineCount: number, bodyAt: (i: number) => string): number | undefined {
  const reach = BARE_EXCEPTION.test(bodyAt(k).trim()) ? 3 : 2;
  for (let j = k + 1; j < Math.min(lineCount, k + reach); j++) {
    const t = bodyAt(j).trim();
    if (t === '') continue;
    return OWN_START.test(t) || CODE.test(t) || !WORDS.test(t) || t.length > PAYLOAD_MAX ? undefined : j;
  }
  return undefined;
}

const isHeader = (text: string): boolean => /:$/.test(text) && !PLACING.test(text) && !CODE.test(text);

export function withPayload(found: Finding, bodyAt: (i: number) => string, lineCount: number): Finding {
  const at = found.message_line - 1;
  const text = bodyAt(at).trim();
  if (text === '' || messageText(text) !== found.message) return found;
  const join = (head: number, tail: number): Finding => ({
    ...found,
    message: messageText(`${bodyAt(head).trim()} ${bodyAt(tail).trim()}`),
    message_line: head + 1,
    evidence: [head + 1, ...[...found.evidence, tail + 1].filter((n, i, all) => n !== head + 1 && all.indexOf(n) === i).sort((a, b) => a - b)],
  });
  // The message is the header: its payload follows.
  if (isHeader(text)) {
    const tail = payloadBelow(at, lineCount, bodyAt);
    return tail === undefined ? found : join(at, tail);
  }
  // The message is the payload of an error's header just above it.
  const above = at > 0 ? bodyAt(at - 1).trim() : '';
  if (isHeader(above) && ERRORISH.test(above) && !OWN_START.test(text) && !LEVEL.test(text) && WORDS.test(text) && text.length <= PAYLOAD_MAX) return join(at - 1, at);
  return found;
}
