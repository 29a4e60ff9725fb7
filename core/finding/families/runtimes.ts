/**
 * Language runtimes' own reports of a program's failure: an exception nothing caught (D, OCaml, SBCL, Poly/ML,
 * C++), a runtime error code (Free Pascal), the C library's reason for an abort, a heap exhausted, an SQL
 * client's error on a statement's data, a filter's error at a place of its input. Rules of the tuning rounds 4
 * and 5 (issue 25, helpers fix4a, fix4b, fix5a, fix5b; docs/notes/analyzer.md), kept by what they concern (rv5,
 * session 45). Tried with RULES (rules.ts): `RUNTIME_FIRST_RULES` before the general rules, `RUNTIME_RULES` after
 * them, as before.
 */
import { OS_ERRORS } from '../errno.js';
import { escapeRegExp } from '../../regexp.js';
import type { Rule } from '../ruleTypes.js';
import { at, PATH, SRC } from './shapes.js';

/** Free Pascal's (and Delphi's) runtime error codes that are not a program's own exception: 203 heap overflow, 204 invalid pointer. */
const PASCAL_OUT_OF_MEMORY = /^Runtime error 203 at \$[0-9A-Fa-f]+/;
const PASCAL_RUNTIME = /^Runtime error (?!203\b)(\d+) at \$[0-9A-Fa-f]+/;

/**
 * The system's errors whose class is a cause of the environment (a full disk, the network, a denied path, no memory), as
 * OCaml's Sys_error prints their strerror and its Unix library their errno symbol.
 */
const OCAML_CAUSE_ERRORS = ['ENOSPC', 'EDQUOT', 'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENETUNREACH', 'EHOSTUNREACH', 'EACCES', 'EPERM', 'ENOMEM']
  .flatMap((errno) => {
    const e = OS_ERRORS.find((x) => x.errno === errno);
    return e ? [String.raw`\b${errno}\b`, escapeRegExp(e.text)] : [];
  })
  .join('|');

export const RUNTIME_FIRST_RULES: Rule[] = [
  // An exception named with its place, D's form: `core.exception.AssertError@src/x.d(34): unittest failure`.
  { cls: 'test-assertion', priority: 57, confidence: 'high', re: new RegExp(String.raw`^((?:[a-z]\w*\.)*\w*Assert\w*)@${PATH}\((\d+)\): (.*)$`), read: (m) => ({ exception: m[1] as string, ...at(m[2], m[3]) }) },
  { cls: 'runtime-exception', priority: 58, confidence: 'high', re: new RegExp(String.raw`^((?:[a-z]\w*\.)*[A-Z]\w*(?:Error|Exception))@${PATH}\((\d+)\): (.*)$`), read: (m) => ({ exception: m[1] as string, ...at(m[2], m[3]) }) },
  // OCaml's runtime raising its own Out_of_memory (the heap could not grow: an address-space limit, a full machine) is
  // out of memory, not the program's exception (before the general OCaml rule below).
  { cls: 'out-of-memory', priority: 20, confidence: 'high', re: /^Fatal error: exception Out_of_memory$/, read: () => ({ tool: 'ocaml', exception: 'Out_of_memory' }) },
  // OCaml's uncaught exception; its place is the first `Called from ... in file "x", line N` of the project (below). The
  // runtime's own wrappers of a system call's error (`Sys_error("No space left on device")`, `Unix.Unix_error(Unix.
  // ECONNREFUSED, "connect", "")`) carry the error the system returned: a full disk, a refused connection, a denied path
  // are read by their own rules (rules.ts), as Python's `OSError: [Errno 28] ...` is (session 51, t26).
  { cls: 'runtime-exception', priority: 58, confidence: 'high', re: new RegExp(String.raw`^Fatal error: exception (?!(?:Sys_error|Unix\.Unix_error)\(.*(?:${OCAML_CAUSE_ERRORS}))(\w[\w.]*)`), near: { re: /^Called from \S+ in file "(?<file>[^"]*\/[^"]+)", line (?<line>\d+)/, from: 1, to: 12 }, read: (m) => ({ tool: 'ocaml', exception: m[1] as string }) },
  // R's installer refusing a package whose DESCRIPTION asks for a later R (`ERROR: this R is version 4.2.2, package
  // 'tallyr' requires R >= 4.3.0`): the agent's R is too old, a missing tool (session 51, t26).
  { cls: 'missing-tool', priority: 15, confidence: 'high', re: /^ERROR: this R is version [\d.]+, package '[\w.]+' requires R >= [\d.]+/, read: () => ({ tool: 'R', symbol: 'R' }) },
  // R's installer refusing a package whose DESCRIPTION imports a package the library lacks (`ERROR: dependency
  // ‘data.table’ is not available for package ‘acmefx’`, `ERROR: dependencies ‘a’, ‘b’ are not available for package`):
  // a dependency not installed (session 53, t28: round 27).
  { cls: 'dependency-resolution', priority: 15, confidence: 'high', re: /^ERROR: dependenc(?:y|ies) [‘'"]([\w.]+)[’'"].* (?:is|are) not available for package [‘'"][\w.]+[’'"]/, read: (m) => ({ tool: 'R', dependency: m[1] as string }) },
  // R's words for a short write on a file connection (`Error in saveRDS(x, f) :` / `  error writing to connection`, also
  // writeLines, write.csv, cat to a file): the device or the quota was full (R names no errno), at medium (session 53, t28).
  { cls: 'disk-full', priority: 20, confidence: 'medium', re: /^\s*error writing to connection$/, near: { re: /^Error in .+ :\s*$/, from: -1, to: -1, required: true }, read: () => ({ tool: 'Rscript' }) },
  // A filter's error at a place of its input: jq's `jq: error (at manifest.json:7): Cannot index array with string "linux"`.
  { cls: 'runtime-exception', priority: 58, confidence: 'medium', re: new RegExp(String.raw`^(\w[\w.-]*): error \(at ${PATH}:(\d+)\): \S`), read: (m) => ({ tool: m[1] as string, ...at(m[2], m[3]) }) },
  // Free Pascal's runtime errors: 203 is a heap overflow (out of memory), the others the program's own fault.
  { cls: 'out-of-memory', priority: 40, confidence: 'medium', re: PASCAL_OUT_OF_MEMORY, read: () => ({ tool: 'fpc', exception: 'Runtime error 203' }) },
  { cls: 'runtime-exception', priority: 58, confidence: 'medium', re: PASCAL_RUNTIME, read: (m) => ({ tool: 'fpc', exception: `Runtime error ${m[1]}` }) },
];

export const RUNTIME_RULES: Rule[] = [
  // PHP's own time limit (max_execution_time, `-d max_execution_time=N` or set_time_limit(N)): `PHP Fatal error:  Maximum
  // execution time of 5 seconds exceeded in /ws/bin/x.php on line 11`, at the line it was running (before the fatal
  // error's rule, which reads every `Fatal error: ... in f.php on line N` as the program's own fault).
  { cls: 'timeout-aborted', priority: 25, confidence: 'high', re: new RegExp(String.raw`\bMaximum execution time of \d+ seconds? exceeded(?: in (${SRC}\.php)(?: on line |:)(\d+))?`), read: (m) => ({ tool: 'php', exception: 'max_execution_time', ...at(m[1], m[2]) }) },
  // An SQL client's error on a statement's data (`ERROR 1062 (23000) at line 8: Duplicate entry`):
  // SQLSTATE classes 21 (cardinality), 22 (data), 23 (integrity constraint), 40 (rollback) are the
  // data's or statement's, a runtime error; access and connection errors keep their own rules.
  { cls: 'runtime-exception', priority: 48, confidence: 'high', re: /^ERROR (\d{4,5}) \((?:2[123]|40)[0-9A-Z]{3}\)(?: at line (\d+))?: \S/, read: (m) => ({ code: m[1] as string }) },
  // A runtime's report of a condition nothing handled (SBCL's `Unhandled UNBOUND-VARIABLE in thread
  // #<...>:` with the condition's text indented below it).
  { cls: 'runtime-exception', priority: 50, confidence: 'high', re: /^Unhandled ([A-Z][\w-]*[A-Z]) in thread\b/, read: (m) => ({ exception: m[1] as string }) },
  // The heap ran out (`Heap exhausted during garbage collection`, `Heap exhausted, game over.`,
  // `heap space exhausted`): out of memory, whichever runtime.
  { cls: 'out-of-memory', priority: 18, confidence: 'high', re: /\b[Hh]eap (?:space )?exhausted\b|\bexhausted (?:the )?heap\b/, read: () => ({}) },
  // An interpreter's own report of an exception nothing caught: Poly/ML's `Exception- Fail "x" raised`.
  { cls: 'runtime-exception', priority: 58, confidence: 'medium', re: /^Exception- (\w[\w.]*)\b.* raised$/, read: (m) => ({ exception: m[1] as string }) },
  // The C library's or the C++ runtime's reason for an abort, printed over the shell's `Aborted`.
  { cls: 'runtime-exception', priority: 50, confidence: 'high', re: /^\*\*\* (?:stack smashing|buffer overflow) detected \*\*\*|^(?:double free or corruption|free\(\): (?:invalid|double)|malloc\(\): |realloc\(\): invalid|munmap_chunk\(\): invalid pointer|corrupted (?:size|double-linked))/, read: (m) => ({ exception: /stack smashing/.test(m[0]) ? 'stack smashing' : /buffer overflow/.test(m[0]) ? 'buffer overflow' : 'heap corruption' }) },
  { cls: 'runtime-exception', priority: 50, confidence: 'high', re: /^terminate called after throwing an instance of '(?!std::bad_alloc')([^']+)'/, read: (m) => ({ tool: 'c++', exception: m[1] as string }) },
];
