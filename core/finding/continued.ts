import type { Finding } from '../../protocol/types.js';
import { erlangTermContinued } from './uncaught.js';

/**
 * Messages a tool wraps over the lines below its first: CMake's indented sentence, scalac's
 * `found   :` / `required:` under `error: type mismatch;`, OCaml's type on the indented lines under
 * its `Error:`, RSpec's `expected:` / `got:`, doctest's `Expected:` / `Got:` under
 * its `File "x.py", line N` heading. The message is the lines joined (one line).
 */

/** The message index and text, extended over its continuation lines when the tool wraps it. */
export function continued(body: readonly string[], index: number, text: string, tool: string | undefined): [number, string] {
  if (index < 0) return [index, text];
  // The C++ runtime's report of an uncaught exception is two lines: the type, then the exception's own `what()` (`  what():
  // std::future_error: Broken promise`), which says what went wrong (test/fixtures/grammar cxx-terminate; session 49).
  if (/^terminate called after throwing an instance of '[^']+'\s*$/.test(text.trim())) {
    const what = /^\s+what\(\):\s+(\S.*)$/.exec(body[index + 1] ?? '');
    if (what) return [index, `${text.trimEnd()} what(): ${(what[1] as string).trim()}`];
  }
  // CMake: a sentence that ends with `:` and names its value in the next paragraph (`  Could not find compiler set in
  // environment variable CXX:`, a blank line, `  clang++-16.`): the value ends the sentence.
  if (tool === 'cmake' && /^\s{2}\S.*:\s*$/.test(text) && /^\s*$/.test(body[index + 1] ?? 'x')) {
    const value = body[index + 2] ?? '';
    if (/^\s{2}\S+\.\s*$/.test(value) && /^\s*$/.test(body[index + 3] ?? '')) return [index, `${text.trimEnd()} ${value.trim()}`];
  }
  // CMake: a sentence that lists items (`Target "x" links to:`, blank lines, `    ZLIB::ZLIB`) runs on
  // to the lower-case rest of it (`  but the target was not found.`).
  if (tool === 'cmake' && /^\s{2}\S.*:\s*$/.test(text) && /^(?:\s*$|\s{4,}\S)/.test(body[index + 1] ?? 'x')) {
    const items: string[] = [];
    for (let k = index + 1; k < Math.min(body.length, index + 10); k++) {
      const next = body[k] ?? '';
      if (/^\s*$/.test(next)) continue;
      if (/^\s{4,}\S/.test(next)) items.push(next.trim());
      else if (/^\s{2}[a-z]/.test(next) && items.length > 0) return [index, `${text.trimEnd()} ${items.join(' ')} ${next.trim().replace(/(?<=\.)\s+\S.*$/, '')}`];
      else break;
    }
    return [index, text];
  }
  // CMake: the sentence runs to its `:` or `.`.
  if (tool === 'cmake' && /^\s{2}\S/.test(text) && !/[.:]\s*$/.test(text)) {
    for (let k = index + 1; k < Math.min(body.length, index + 4); k++) {
      const next = body[k] ?? '';
      if (!/^\s{2}\S/.test(next)) break;
      text = `${text.trimEnd()} ${next.trim()}`;
      if (/[.:]\s*$/.test(next)) break;
    }
    return [index, text];
  }
  // scalac: `error: type mismatch;` then ` found   : A` and ` required: B`.
  if (/error: .*;\s*$/.test(text) && /^\s+found\s*: /.test(body[index + 1] ?? '')) {
    for (let k = index + 1; k < Math.min(body.length, index + 3) && /^\s+(?:found|required)\s*: /.test(body[k] ?? ''); k++) text = `${text.trimEnd()} ${(body[k] ?? '').trim()}`;
    return [index, text];
  }
  // OCaml: `Error: ... was expected of type` and the type on the indented lines below.
  if (tool === 'ocamlc' && /^Error: /.test(text)) {
    for (let k = index + 1; k < Math.min(body.length, index + 4) && /^\s{2,}\S/.test(body[k] ?? ''); k++) text = `${text.trimEnd()} ${(body[k] ?? '').trim()}`;
    return [index, text];
  }
  // Catch2: `due to unexpected exception with message:` and the message on the indented lines below.
  if (tool === 'catch2' && /with messages?:\s*$/.test(text)) {
    for (let k = index + 1; k < Math.min(body.length, index + 4) && /^\s{2,}\S/.test(body[k] ?? ''); k++) text = `${text.trimEnd()} ${(body[k] ?? '').trim()}`;
    return [index, text];
  }
  // RSpec's `eq` matcher: `expected: 11.24` and, aligned under it, `     got: 11.23`.
  if (/^\s*expected: \S/.test(text) && /^\s+got: \S/.test(body[index + 1] ?? '')) return [index, `${text.trimEnd()} ${(body[index + 1] ?? '').trim()}`];
  // PHPUnit's testdox box: the message is what follows its `│ `.
  if (tool === 'phpunit' && /^\s*│ \S/.test(text)) return [index, text.replace(/^\s*│ /, '')];
  // doctest: the heading names the place; the message is what it expected and what it got.
  if (tool === 'doctest' && /^File ".*", line \d+, in \S+$/.test(text.trim())) {
    const from = body.slice(index + 1, index + 12).findIndex((l) => /^Expected:$|^Expected nothing$/.test(l.trim()));
    if (from < 0) return [index, text];
    const at = index + 1 + from;
    const parts: string[] = [];
    for (let k = at; k < Math.min(body.length, at + 20); k++) {
      const line = body[k] ?? '';
      if (k > at && !/^\s+\S|^Got:?$|^Got nothing$/.test(line)) break;
      parts.push(line.trim());
    }
    return [at, parts.join(' ')];
  }
  // Erlang prints a term over several lines (EUnit's `**error:{assertEqual,[{module,m},` and its indented rest).
  if (tool !== undefined && /^(?:eunit|erlang|escript)$/.test(tool)) return [index, erlangTermContinued(body, index, text)];
  return [index, text];
}

/** Python's line between chained tracebacks: the exception below it is the one the program died of. */
const CHAINED = /^(?:During handling of the above exception, another exception occurred:|The above exception was the direct cause of the following exception:)$/;

/** Of two hits of one rule, the later first when a Python exception chain runs between them (else 0). */
export function chainOrder(body: readonly string[], a: number, b: number): number {
  for (let k = Math.min(a, b) + 1; k < Math.max(a, b); k++) if (CHAINED.test((body[k] ?? '').trim())) return b - a;
  return 0;
}

/** An exception line with no words of its own (Hamcrest's `java.lang.AssertionError: `). */
const EMPTY_EXCEPTION = /^(?:[\w$]+\.)*[\w$]*(?:Error|Exception|Failure):\s*$/;

/**
 * An exception whose words start on a line of their own below it: Hamcrest's assertThat prints
 * `java.lang.AssertionError: `, a blank line, then `Expected: is <3>` / `     but: was <2>`. The `Expected:`
 * line is the message; the exception line stays evidence.
 */
export function withWordsBelow(found: Finding, lineCount: number, bodyAt: (i: number) => string): Finding {
  if (!EMPTY_EXCEPTION.test(found.message)) return found;
  // A message that starts with a line break (JUnit 5's `MultipleFailuresError: ` over `address (2 failures)`):
  // the exception's line and the next one are its message, as a wrapped message is.
  const next = found.message_line < lineCount ? bodyAt(found.message_line).trim() : '';
  if (next !== '' && !/^(?:at |Expected: |Caused by: |\.\.\. \d+ more)/.test(next) && !/^\s*at /.test(bodyAt(found.message_line))) {
    return { ...found, message: `${found.message.trim()} ${next}`, evidence: [found.message_line, ...[...found.evidence.slice(1), found.message_line + 1].filter((n, i, all) => n !== found.message_line && all.indexOf(n) === i).sort((a, b) => a - b)] };
  }
  for (let k = found.message_line; k < Math.min(lineCount, found.message_line + 3); k++) {
    const next = bodyAt(k).trim();
    if (next === '') continue;
    if (!/^Expected: \S/.test(next)) break;
    return { ...found, message: next, message_line: k + 1, evidence: [k + 1, ...found.evidence.filter((n) => n !== k + 1).sort((a, b) => a - b)] };
  }
  return found;
}
