/**
 * What a finding gains from the lines around it and the step's command (issue 25, round 5 batch
 * B, helper fix5b), applied after the other refinements. General evidence, no tool named:
 * - a shell's report that the program aborted (`line 2: 2413 Aborted  ./x`) under the reason the C
 *   library or the C++ runtime printed (`*** stack smashing detected ***`, `terminate called after
 *   throwing an instance of 'X'`, `terminate called without an active exception`, `pure virtual method called`): the
 *   reason is the message;
 * - a write that failed (`Failure writing output`, `write error`) in a step that then shows a
 *   filesystem at 100 % use (`df`): the disk is full;
 * - a linter's or validator's command whose output has an error-level line (`E: pkg: tag`,
 *   `file: error: msg`) and nothing a rule classed: lint, at that line;
 * - an uncaught exception with no place while the command runs a test file (`poly --script
 *   tests/run.sml`): an exception raised while testing, a test error;
 * - a fetch's conclusion (`Failed to fetch ... from 'http://...'`) right under the connection's
 *   failure (`dial tcp ...: connection refused`): that failure; Go's `runtime: out of memory:
 *   cannot allocate ...` over its verdict `fatal error: out of memory`: the verdict;
 * - a property line of Node's error object (`code: 'ECONNRESET'`): the error's line over its stack;
 * - an ssh login refused under ssh's `Permissions 0644 for 'k' are too open.`: the key's mode;
 * - a script whose shebang names a program with a carriage return (`bash\r`): the script's
 *   line 1, when the step ran it by its path.
 */
import type { Finding } from '../../protocol/types.js';
import { lastCommandIn, STEP_START, type Command } from './generic.js';
import { assertionIn } from './tests.js';

type Window = { start_line: number; end_line: number };

const ABORT_REPORT = /^(?:\S+: line \d+: +\d+ )?(?:Aborted|Segmentation fault)(?: \(core dumped\))?(?:\s+.*)?$/;
const ABORT_REASON = /^\*\*\* (?:stack smashing|buffer overflow) detected \*\*\*|^(?:double free or corruption|free\(\): (?:invalid|double)|malloc\(\): |realloc\(\): invalid|munmap_chunk\(\): invalid pointer|corrupted (?:size|double-linked))|^terminate called after throwing an instance of '(?!std::bad_alloc')([^']+)'|^terminate called without an active exception$|pure virtual method called$/;
const WRITE_FAILED = /\bFailure writing output\b|\bwrite error\b|\bWrite failed\b|\bfailed to write\b|\bcannot write\b/i;
/** A `df` row of a full filesystem: `tmpfs  256K  256K  0 100% /mnt/x`. */
const DF_FULL = /^\S+\s+\d[\d.]*[KMGTP]?\s+\d[\d.]*[KMGTP]?\s+0[KMGTP]?\s+100%\s+\/\S*$/;
const ERROR_LEVEL = /^(?:E: \S+: [a-z0-9][\w+.-]*\b|(?!ERROR:|error:)\S+: (?:error|ERROR): \S)/;
const TEST_PATH = /(?:^|\/)(?:tests?|spec|t)\/\S+\.\w+$|(?:^|\/)(?:test_\w+|\w+_test|\w+[-_.]spec|\w+\.test)\.\w+$/;
const FETCH_CONCLUSION = /^(?!warning\b).*\bFailed to (?:fetch|download|retrieve|get)\b/i;
const CONNECTION_CAUSE = /\b(?:connection refused|connection reset by peer|connection timed out|no route to host|network is unreachable|no such host|could not resolve host|name or service not known|temporary failure in name resolution)\b/i;
const NODE_ERROR_PROPERTY = /^(?:code|errno|syscall): (?:'[\w-]+'|-?\d+),?$/;
const NODE_ERROR_LINE = /^(?:Uncaught )?(?:[A-Z]\w*)?Error(?: \[[A-Z_]+\])?: \S/;
const KEY_TOO_OPEN = /^Permissions 0\d{3} for '[^']+' are too open\.$/;
const SHEBANG_CR = /\\r['’]?: No such file or directory$|\^M: bad interpreter\b/;

/** The step's last command at or above line index `from`, and its line index. */
function stepCommand(bodyAt: (i: number) => string, from: number): (Command & { index: number }) | undefined {
  for (let i = from; i >= Math.max(0, from - 150); i--) {
    const command = STEP_START.test(bodyAt(i).trim()) ? lastCommandIn([bodyAt(i).trim()]) : undefined;
    if (command) return { ...command, index: i };
  }
  return undefined;
}

const at = (found: Finding, k: number, text: string): Finding => ({ ...found, message: text, message_line: k + 1, evidence: [k + 1, ...found.evidence.filter((e) => e !== k + 1)] });

export function refinedByStepCause(found: Finding, lines: readonly string[], excerpt: Window, bodyAt: (i: number) => string): Finding {
  const msgAt = found.message_line - 1;
  // The abort's reason above the shell's report (a `what():` line may sit between them).
  if (found.class === 'runtime-exception' && ABORT_REPORT.test(bodyAt(msgAt).trim())) {
    for (let k = msgAt - 1; k >= Math.max(0, msgAt - 4); k--) {
      const t = bodyAt(k).trim();
      const m = ABORT_REASON.exec(t);
      // std::terminate with no exception (a joinable std::thread destroyed) says only that; a pure virtual call above it
      // (the C++ runtime's `pure virtual method called`, maybe glued to the program's unfinished output line) is why.
      if (m && /^terminate called without/.test(t) && /pure virtual method called$/.test(bodyAt(k - 1).trim())) return { ...at(found, k - 1, bodyAt(k - 1).trim()), exception: 'pure virtual method called' };
      if (m) return { ...at(found, k, t), exception: m[1] ?? (/stack smashing/.test(t) ? 'stack smashing' : /buffer overflow/.test(t) ? 'buffer overflow' : /^terminate called/.test(t) ? 'std::terminate' : /pure virtual/.test(t) ? 'pure virtual method called' : 'heap corruption') };
      if (!/^what\(\):/.test(t)) break;
    }
    // A failed assertion just above (the program's assert called abort(); a simulator's `$stop` and `Aborting...` may
    // follow it): the assertion is the message, and a signal no test is named around is no sure run-time error.
    for (let k = msgAt - 1; k >= Math.max(0, msgAt - 4); k--) {
      const t = bodyAt(k).trim();
      if (/^\++ /.test(t)) break;
      // The signal's name (`SIGABRT`) is no word of the assertion's line: the answers quote the exception with its line.
      if (assertionIn([t])) {
        const { exception: _signal, ...rest } = at(found, k, t);
        return { ...rest, confidence: 'medium' };
      }
    }
  }
  // A conclusion (`Failed to fetch some objects from 'http://...'`) under the connection's own failure: the failure is the message.
  if (found.class === 'network' && FETCH_CONCLUSION.test(found.message)) {
    for (let k = msgAt - 1; k >= Math.max(0, msgAt - 3); k--) {
      const t = bodyAt(k).trim();
      if (CONNECTION_CAUSE.test(t)) return at(found, k, t);
      if (t === '' || /^(?:\++ |\$ )/.test(t)) break;
    }
  }
  // An ssh login refused (`user@host: Permission denied (publickey).`) a few lines under ssh's refusal of the key it was
  // given (`Permissions 0644 for '.ci/key' are too open.`: the key was ignored): the key's mode is the message (round 19, t20).
  if (found.class === 'permission-credentials' && /Permission denied \(publickey\b/.test(found.message)) {
    for (let k = msgAt - 1; k >= Math.max(0, msgAt - 6); k--) {
      const t = bodyAt(k).trim();
      if (KEY_TOO_OPEN.test(t)) return at(found, k, t);
      if (/^(?:\++ |\$ )/.test(t)) break;
    }
  }
  // A property of Node's error object (`  code: 'ECONNRESET'` in the `{ ... }` under the stack) names the error's code, not
  // the error: the `Error: socket hang up` line over the stack is the message (every tuned Node row labels that line).
  if (NODE_ERROR_PROPERTY.test(found.message)) {
    for (let k = msgAt - 1; k >= Math.max(0, msgAt - 25); k--) {
      const t = bodyAt(k).trim();
      if (NODE_ERROR_LINE.test(t)) return at(found, k, t);
      if (t === '' || /^(?:\++ |\$ )/.test(t)) break;
    }
  }
  // Go's runtime prints the allocation that failed, then its own verdict `fatal error: out of memory`: the verdict, as for its other throws.
  if (found.class === 'out-of-memory' && /^runtime: out of memory: /.test(found.message) && /^fatal error: out of memory$/.test(bodyAt(msgAt + 1).trim())) return at(found, msgAt + 1, 'fatal error: out of memory');
  if (found.class === 'unknown' && WRITE_FAILED.test(found.message)) {
    for (let k = msgAt + 1; k < Math.min(lines.length, msgAt + 12); k++) {
      if (DF_FULL.test(bodyAt(k).trim())) return { ...found, class: 'disk-full', confidence: 'medium', evidence: [...found.evidence, k + 1] };
    }
  }
  const command = () => stepCommand(bodyAt, Math.min(lines.length, excerpt.end_line) - 1);
  if (found.class === 'unknown') {
    const cmd = command();
    if (cmd?.kind === 'lint') {
      // From the command down: the linter's report may sit above an excerpt that is the step's exit.
      for (let k = cmd.index + 1; k < Math.min(lines.length, excerpt.end_line); k++) {
        const t = bodyAt(k).trim();
        if (ERROR_LEVEL.test(t)) return { ...at(found, k, t), class: 'lint', confidence: 'medium', tool: cmd.program };
      }
    }
  }
  if (found.class === 'runtime-exception' && !found.location && !found.test) {
    const cmd = command();
    if (cmd && cmd.text.split(/\s+/).some((w) => TEST_PATH.test(w))) return { ...found, class: 'test-error' };
  }
  if (found.class === 'ci-script' && !found.location && SHEBANG_CR.test(found.message)) {
    const cmd = command();
    const script = cmd?.text.split(/\s+/)[0];
    if (script && /\//.test(script) && !/^\/(?:usr|bin)\//.test(script)) return { ...found, location: { file: script.replace(/^\.\//, ''), line: 1, log_line: found.message_line } };
  }
  return found;
}
