/**
 * What a finding gains from its own place and the step's command (issue 25, round 4 batch B,
 * helper fix4b), applied after refined (refine.ts). General evidence, no tool named:
 * - a check that failed at a place in test code (`tests/x-test.scm:6: FAIL name`, a testbench's
 *   `FATAL: tb/x_tb.v:7: ... expected 42`) is a test's assertion;
 * - an error at a place in the build's own definition file (SConstruct, a Makefile, CMakeLists.txt,
 *   build.gradle, ...) that no rule classed is the build script's error, ci-script;
 * - a tool no list knows, given a file on its command line, that reports an error or a parser's
 *   words (`unknown directive`, `Syntax error`) at a line of that file rejected the file: a compile
 *   error whatever the file's extension (swig's `.i`, nginx's `.conf`);
 * - an uncaught exception while a test command ran is a test error;
 * - a finding with no place whose message line begins with one (`Makefile:13: *** ...`,
 *   `psql:migrations/x.sql:6: ERROR: ...`) is at that place.
 */
import type { Finding, FindingLocation } from '../../protocol/types.js';
import { lastCommandIn, namesFile, STEP_START, type Command } from './generic.js';

type Window = { start_line: number; end_line: number };

const TEST_FILE = /(?:^|\/)(?:tb|tests?|spec|testbench)\/|(?:_tb|_test|-test|_spec|Tests?)\.\w+$|(?:^|\/)test_[^/]+$/;
/** What says a check did not hold: a runner's FAIL verdict, an expected value, an assertion. */
const CHECK_FAILED = /(?:^|:\s|\s)(?:FAIL|FAILED)\b|\bexpected\b|\bassert(?:ion)?\b/i;
/** Build definition files: the build's own script. */
const BUILD_FILE = /(?:^|\/)(?:SConstruct|SConscript|Makefile|GNUmakefile|makefile|CMakeLists\.txt|[\w.-]+\.cmake|meson\.build|build\.gradle(?:\.kts)?|settings\.gradle(?:\.kts)?|Rakefile|wscript|Jamfile|Jamroot|BUILD(?:\.bazel)?|WORKSPACE|justfile|Justfile|Taskfile\.ya?ml|build\.xml|pom\.xml)$/;
/** A parser's or checker's words about the file it was given. */
const REJECTED = /\b(?:error|Error|ERROR|unknown (?:directive|option|keyword|command|statement)|unexpected|[Ss]yntax error|invalid|not allowed|undefined|undeclared)\b/;
const LIBRARY = /(?:^|\/)(?:vendor|node_modules|site-packages|dist-packages|gems|_build|\.cargo|pkg\/mod)\//;
const LEADING_PLACE = /^(?:[\w+-]+:)?((?:[A-Za-z]:)?[\w.~@+\\/-]*(?:\.[A-Za-z]\w{0,7}|Makefile|makefile|SConstruct|Dockerfile)):(\d+):(?:(\d+):)?\s+\S/;

function stepOf(bodyAt: (i: number) => string, from: number): Command | undefined {
  for (let i = from; i >= Math.max(0, from - 150); i--) {
    const t = bodyAt(i).trim();
    if (!STEP_START.test(t) || (/^\+\+\+ /.test(t) && /^--- /.test(bodyAt(i - 1)))) continue;
    const command = lastCommandIn([t]);
    if (command) return command;
  }
  return undefined;
}

const place = (file: string, line: number, logLine: number, column?: number): FindingLocation => ({ file, line, ...(column ? { column } : {}), log_line: logLine });

/** A test or an action named on a line near the failure: dune's ` test_limits alias test/runtest (exit 2)` above it, a simulator's `Time: 4 Scope: alu_tb.check` under it. */
function testNear(bodyAt: (i: number) => string, message: number): { name: string; log_line: number } | undefined {
  for (let k = message + 1; k <= message + 2; k++) {
    const m = /^\s*Time: \d+\s*\w*\s+Scope: ([\w.$]+)$/.exec(bodyAt(k));
    if (m) return { name: m[1] as string, log_line: k + 1 };
  }
  for (let k = message - 1; k >= Math.max(0, message - 6); k--) {
    const m = /^\s*([\w.-]+) alias (?:\S+\/)?runtest \(exit \d+\)$/.exec(bodyAt(k));
    if (m) return { name: m[1] as string, log_line: k + 1 };
  }
  return undefined;
}

/** What a tool says under or over its verdict that is the cause: cargo's reason under `failed to select a version`, the thread's stack overflow over the runtime's `fatal runtime error`. */
const CAUSE_BELOW = /^package `[^`]+` depends on `[^`]+` with feature `[^`]+` but `[^`]+` does not have that feature\.?$/;
const CAUSE_ABOVE = /^thread '[^']+'(?: \(\d+\))? has overflowed its stack$/;

function withCause(found: Finding, excerpt: Window, bodyAt: (i: number) => string, lineCount: number): Finding {
  const at = (k: number): Finding => ({ ...found, message: bodyAt(k).trim(), message_line: k + 1, evidence: [k + 1, ...found.evidence.filter((e) => e !== k + 1)] });
  if (found.class === 'dependency-resolution' && /failed to select a version for/.test(found.message)) {
    for (let k = found.message_line; k < Math.min(lineCount, found.message_line + 12); k++) if (CAUSE_BELOW.test(bodyAt(k).trim())) return at(k);
  }
  if (found.class === 'runtime-exception' && found.message_line - 1 <= excerpt.start_line + 1) {
    for (let k = excerpt.start_line - 2; k >= Math.max(0, excerpt.start_line - 4); k--) {
      const t = bodyAt(k).trim();
      if (CAUSE_ABOVE.test(t)) {
        // The signal the shell reported (`SIGABRT`) is not what this line says.
        const { exception: _e, ...rest } = at(k);
        return rest;
      }
      if (t !== '' && !/^fatal runtime error: /.test(t)) break;
    }
  }
  return found;
}

export function refinedByPlace(found: Finding, lines: readonly string[], excerpt: Window, bodyAt: (i: number) => string): Finding {
  found = withCause(found, excerpt, bodyAt, lines.length);
  if ((found.class === 'test-assertion' || found.class === 'test-error') && !found.test) {
    const test = testNear(bodyAt, found.message_line - 1);
    if (test) found = { ...found, test };
  }
  const messageLine = bodyAt(found.message_line - 1).trim();
  const step = () => stepOf(bodyAt, Math.min(lines.length, excerpt.end_line) - 1);
  const loc = found.location;
  if (found.class === 'unknown' && loc?.file) {
    if (TEST_FILE.test(loc.file) && CHECK_FAILED.test(messageLine)) {
      const name = /:\s(?:FAIL|FAILED):?\s+(\S.*)$/.exec(messageLine)?.[1];
      const test = found.test ?? (name ? { name, log_line: found.message_line } : testNear(bodyAt, found.message_line - 1));
      return { ...found, class: 'test-assertion', confidence: 'medium', ...(test ? { test } : {}) };
    }
    if (BUILD_FILE.test(loc.file) && /\b\w*(?:Error|Exception)\b|\b(?:error|unknown|undefined|not defined|[Ss]yntax|invalid|unexpected)\b/.test(messageLine) && !/\*\*\* \[|\] Error \d+$/.test(messageLine)) return { ...found, class: 'ci-script', confidence: 'medium' };
    const command = step();
    if (command && command.kind === undefined && namesFile(command.text, loc.file) && REJECTED.test(messageLine) && !/\b(?:warning|Warning|WARNING)\b/.test(messageLine)) {
      return { ...found, class: 'compile-error', confidence: 'medium', tool: found.tool ?? command.program };
    }
  }
  if (found.class === 'runtime-exception' && !found.test && loc?.file !== undefined && TEST_FILE.test(loc.file)) {
    const command = step();
    if (command?.kind === 'test') {
      const test = testNear(bodyAt, found.message_line - 1);
      found = { ...found, class: 'test-error', ...(test ? { test } : {}) };
    }
  }
  if (!found.location && found.class !== 'unknown') {
    const m = LEADING_PLACE.exec(messageLine);
    if (m && !LIBRARY.test(m[1] as string)) return { ...found, location: place(m[1] as string, Number(m[2]), found.message_line, m[3] ? Number(m[3]) : undefined) };
  }
  return found;
}
