/**
 * The offline engine's words for a finding (core/finding, issue 25): what it establishes (for
 * "why did it fail?") and what to do about it (for "how do I fix it?"). Every sentence is built
 * from a field of the finding or the context and cites the log line it rests on; a class
 * without evidence (unknown) says so instead of guessing.
 */
import { devFullAbove, offlineLine, packageIndexAbove, portInMessage } from './remedyWhere.js';
import { ownerTypeOf } from '../../../core/log/symbols.js';
import { MAKEFILE } from '../../../core/makefile.js';
import { noAgentLabel } from '../../../core/finding/noAgent.js';
import { jniFunctionOf } from '../../../core/finding/linkage.js';
import type { Finding, FindingFrame } from '../../../protocol/types.js';
import { fullFindingOf } from '../../../core/finding/withFindings.js';
import { comparisonCommand, isComparison } from '../../../core/finding/purpose.js';
import type { ChatContext } from '../engine.js';
import { at, cite, clip, inlineCode, storedLogSpan, type LogSpan } from '../logtext.js';
import { aliasUnseenMeaning, aliasUnseenOf } from './aliasUnseen.js';
import { likelySentence } from './likely.js';
import { escapeRegExp } from '../facts.js';
import { maskedSentence, maskedStageOf } from './pipeMasked.js';
import { withCheckoutPaths } from './checkoutPaths.js';
import { silentStopOf, silentStopSentence } from './silentStop.js';
import { refusalMeaning, tlsRefusalFor } from './tlsRefusal.js';
import { answeredWords, httpStatusOf, isNoSuchFile } from './httpStatus.js';
import { compilerBehind } from './compilerBehind.js';
import { sshMeaning, sshTransportOf, type SshTransport } from './sshTransport.js';
import { isJvmLinkage, jvmMissingClassMeaning, jvmResolveMeaning } from './jvmResolve.js';

/** A lock file that no longer matches its manifest, or that a frozen install may not rewrite (cargo `--locked`, yarn `--immutable`, poetry, pnpm). */
const LOCK_OUT_OF_STEP = /\b(?:[\w.-]*\.lock|lock ?file)\b.{0,40}\b(?:is not consistent with|is out of (?:date|sync)|needs to be updated|is not up to date|does not match|is outdated)|\bchanged significantly since [\w.-]+\.lock was last generated|\bcannot update the lock ?file\b.*\bbecause --(?:locked|frozen)\b|\bThe lockfile would have been modified by this install\b/i;

/** logtext.ts's `[L12-L12]` for one log line, which the step modules take from here. */
export { at };

/** A finding placed in a file of the project that is no pipeline script (a Makefile, `build.sh`), not in the Jenkinsfile or Jenkins' `WorkflowScript`. */
export const inProjectFile = (f: Finding): boolean => f.location !== undefined && !/(?:^|\/)(?:Jenkinsfile[\w.-]*|WorkflowScript|[^/]+\.groovy)$/.test(f.location.file);

/** The finding of an excerpt: stored with it since issue 25, else read now from the stored log or the excerpt. */
export function findingFor(ctx: ChatContext, span: LogSpan & { finding?: unknown }): Finding {
  // Its places as the user's checkout names them (checkoutPaths.ts): what every sentence that says where to look reads.
  return withCheckoutPaths(ctx, findingOfSpan(ctx, span));
}

function findingOfSpan(ctx: ChatContext, span: LogSpan & { finding?: unknown }): Finding {
  const stored = span.finding;
  if (typeof stored === 'object' && stored !== null && typeof (stored as Finding).class === 'string' && typeof (stored as Finding).message_line === 'number') return withCheckValues(stored as Finding);
  const log = storedLogSpan(ctx);
  const source = log && log.start_line <= span.start_line && log.end_line >= span.end_line ? log : span;
  // Indexes must be log line numbers: what lies before the text is blank.
  const lines: string[] = new Array<string>(source.start_line - 1).fill('');
  for (const l of source.text.split('\n')) lines.push(l);
  return fullFindingOf(lines, span);
}

/**
 * A failed check's values when its message states them and the finding does not carry them (ux8/ux9: a C test's
 * own `test_ringbuf.c:27: expected 4, got 10` under ctest): `expected X, got Y`, `expected: X but was: Y`,
 * `got X, want Y`. Short values only (a sentence is no value); the finding is not changed, a copy is returned.
 */
export function withCheckValues(f: Finding): Finding {
  if (f.class !== 'test-assertion' || f.expected !== undefined || f.actual !== undefined) return f;
  const text = f.message.replace(/^\S+:\d+(?::\d+)?:\s*/, '');
  const ex = /\bexpected:? ([^,;]{1,60}?),? (?:but )?(?:got|was|actual):? ([^,;]{1,60}?)\.?$/i.exec(text);
  const gw = ex ? undefined : /\bgot:? ([^,;]{1,60}?),? want(?:ed)?:? ([^,;]{1,60}?)\.?$/i.exec(text);
  const [expected, actual] = ex ? [ex[1], ex[2]] : gw ? [gw[2], gw[1]] : [];
  return expected && actual ? { ...f, expected: expected.trim(), actual: actual.trim() } : f;
}

/**
 * The finding as the answers' prose may name it: a tool named by its bare name (`flake8`) only
 * when the log shows that name. A rule may read a report's shape and guess its tool (pycodestyle
 * prints flake8's `E501` codes), and no sentence may state what the log does not (issue 25).
 * Tools named by a description (`the C/C++ compiler` for gcc, also run as `cc`) are kept; the
 * finding itself (what reproduces the failure, what the rules read) is not changed.
 */
export function toolShown(f: Finding, ctx: ChatContext): Finding {
  if (!f.tool || TOOL_NAMES[f.tool] !== undefined) return f;
  // One scan of the stored log per context and tool: an answer asks up to five times.
  let seen = TOOLS_SEEN.get(ctx);
  if (!seen) TOOLS_SEEN.set(ctx, (seen = new Map()));
  let shown = seen.get(f.tool);
  if (shown === undefined) {
    const text = storedLogSpan(ctx)?.text;
    const word = f.tool.split(/\s+/)[0] ?? f.tool;
    shown = text === undefined || new RegExp(`(?:^|[^\\w-])${escapeRegExp(word)}(?:$|[^\\w-])`, 'im').test(text);
    seen.set(f.tool, shown);
  }
  if (shown) return f;
  const { tool: _unshown, ...rest } = f;
  return rest;
}
const TOOLS_SEEN = new WeakMap<ChatContext, Map<string, boolean>>();

/** `src/a.ts:12:5` */
export function placeOf(f: { file: string; line?: number; column?: number }): string {
  return `${f.file}${f.line !== undefined ? `:${f.line}` : ''}${f.line !== undefined && f.column !== undefined ? `:${f.column}` : ''}`;
}

const TOOL_NAMES: Record<string, string> = {
  javac: 'the Java compiler (javac)',
  kotlinc: 'the Kotlin compiler',
  scalac: 'the Scala compiler',
  tsc: 'the TypeScript compiler (tsc)',
  rustc: 'the Rust compiler',
  gcc: 'the C/C++ compiler',
  go: 'the Go compiler',
  swiftc: 'the Swift compiler',
  dotnet: 'the .NET compiler',
  mypy: 'mypy',
  python: 'Python',
  ruby: 'Ruby',
  ghc: 'the Haskell compiler (GHC)',
  clang: 'the C/Objective-C compiler (clang)',
  php: 'PHP',
};

export function toolName(f: Finding): string {
  // `go vet` type-checks the package before it vets it and prints a type error as `vet: file:line:col: ...`:
  // the error is the compiler's kind, the program that refused is vet (ux4).
  if (f.tool === 'go' && /^vet: /.test(f.message)) return "`go vet`'s type check";
  return f.tool ? (TOOL_NAMES[f.tool] ?? inlineCode(f.tool)) : 'the tool';
}

function frameText(frame: FindingFrame): string {
  return `${inlineCode(placeOf({ file: frame.file, line: frame.line }))}${frame.function ? ` (in ${inlineCode(frame.function)})` : ''} ${at(frame.log_line)}`;
}

/**
 * A Rust doc test (`src/lib.rs - parse (line 44)`): its file, its item (none for the crate's own docs) and
 * the line its example starts on. A panic rustdoc places in that file is at a line of the program it built
 * from the example, not of the file (ux9: `src/lib.rs:7:28` for the example on lines 44-48).
 */
export function docTestOf(f: Finding): { file: string; item?: string; line: number } | undefined {
  const m = /^(\S+\.rs) - (?:(\S+) )?\(line (\d+)\)$/.exec(f.test?.name ?? '');
  return m ? { file: m[1] as string, ...(m[2] ? { item: m[2] } : {}), line: Number(m[3]) } : undefined;
}

/** Where a finding's trace points: the raise site, and the project's own frame when it is another. */
export function traceSentence(f: Finding): string | undefined {
  const frames = f.location?.frames;
  if (!frames?.raise && !frames?.project) return undefined;
  const { raise, project } = frames;
  const doc = docTestOf(f);
  const inExample = project ?? raise;
  if (doc && f.test && inExample && (inExample.file === doc.file || inExample.file.endsWith(`/${doc.file}`))) {
    return `The panic is in the doc example that starts at line ${doc.line} of ${inlineCode(doc.file)} (the doc test ${inlineCode(f.test.name)} ${at(f.test.log_line)}): ${inlineCode(`${inExample.file}:${inExample.line}`)} ${at(inExample.log_line)} numbers the lines of the program rustdoc builds from that example, not the file's.`;
  }
  // A failed check is raised by the assertion library (`expect/build/index.js`), which is not where
  // anything went wrong: only the project's frame is worth naming, and only when the check's place is another.
  if (f.class === 'test-assertion') {
    const loc = f.location;
    const same = project && loc && loc.line === project.line && (loc.file === project.file || loc.file.endsWith(`/${project.file}`) || project.file.endsWith(`/${loc.file}`));
    return project && !same ? `The deepest frame in the project's own code is ${frameText(project)}.` : undefined;
  }
  // A time limit raises nothing in the code: the dump shows where the run was when it was stopped, and its
  // innermost frame is the runner's (ux4: "raised at `_testmain.go:47` (in `main.main`)" for a Go test's timeout).
  if (f.class === 'timeout-aborted') return project ? `When it was stopped, the deepest frame in the project's own code is ${frameText(project)}.` : undefined;
  if (raise && project && (raise.file !== project.file || raise.line !== project.line)) {
    return `It was raised at ${frameText(raise)}; the deepest frame in the project's own code is ${frameText(project)}.`;
  }
  const only = project ?? raise;
  return only ? `It was raised at ${frameText(only)}.` : undefined;
}

/** The text of a log line by its number, where the caller has it (undefined: not at hand). */
export type LineText = (line: number) => string | undefined;

/**
 * The log line that holds a detail of the finding (a host, a dependency, a compared value): the
 * message line or another evidence line, else a line near the message. A detail is cited where
 * it is printed, not at the message it belongs to (issue 25); without the text, the message line.
 */
export function lineHolding(f: Finding, value: string | undefined, lineText?: LineText): number {
  if (!lineText || !value) return f.message_line;
  for (const n of [f.message_line, ...f.evidence]) if (lineText(n)?.includes(value)) return n;
  for (let n = f.message_line - 3; n <= f.message_line + 12; n++) if (n !== f.message_line && lineText(n)?.includes(value)) return n;
  return f.message_line;
}

/**
 * The log line that prints a place of the finding (`stats.c:22`, `File "x.py", line 3`): its
 * logged line when that names the file and the line number, else the first message or evidence
 * line, or the nearest line to the message (12 either side) that does; else its logged line. A place is cited where it is
 * printed, not at the message it belongs to.
 */
export function lineOfPlace(f: Finding, place: { file: string; line?: number; column?: number; log_line: number }, lineText?: LineText): number {
  if (!lineText || place.line === undefined) return place.log_line;
  const base = place.file.slice(place.file.lastIndexOf('/') + 1);
  const numbers = [place.line, ...(place.column !== undefined ? [place.column] : [])].map((k) => new RegExp(`\\b${k}\\b`));
  const names = (n: number): boolean => {
    const t = lineText(n);
    return t !== undefined && t.includes(base) && numbers.every((re) => re.test(t.slice(t.indexOf(base))));
  };
  if (names(place.log_line)) return place.log_line;
  for (const n of [f.message_line, ...f.evidence]) if (names(n)) return n;
  for (let d = 1; d <= 12; d++) for (const n of [f.message_line - d, f.message_line + d]) if (n > 0 && names(n)) return n;
  return place.log_line;
}

/**
 * `[La-Lb]` for a place of the finding: the line that prints it (lineOfPlace), or, when the tool
 * prints the file and the line number on different lines (a diff's `--- a.go` header over its
 * `@@ -7,8` hunk), from the nearest line above naming the file down to the logged line.
 */
export function citePlace(f: Finding, place: { file: string; line?: number; column?: number; log_line: number }, lineText?: LineText): string {
  const n = lineOfPlace(f, place, lineText);
  const base = place.file.slice(place.file.lastIndexOf('/') + 1);
  const t = lineText?.(n);
  if (lineText && t !== undefined && place.line !== undefined && t.includes(base) && !new RegExp(`\\b${place.line}\\b`).test(t.slice(t.indexOf(base)))) {
    // A diff's file header (`--- old/main.tf`) whose line number only the hunk below implies (`@@ -1,16 +1,16 @@`
    // holds line 2): the hunk's header is the line that places it.
    const hunk = hunkHolding(place.line, n, lineText);
    if (hunk !== undefined) return cite({ start_line: hunk, end_line: hunk });
  }
  if (!lineText || t === undefined || t.includes(base) || place.line === undefined || !new RegExp(`\\b${place.line}\\b`).test(t)) return cite({ start_line: n, end_line: n });
  for (let k = n - 1; k >= Math.max(1, n - 6); k--) if (lineText(k)?.includes(base)) return cite({ start_line: k, end_line: n });
  return cite({ start_line: n, end_line: n });
}

/**
 * ` [La-Lb]` for a place said next to the message's citation, when the place is printed elsewhere (another line,
 * or a diff hunk's header that implies its line number); empty when the message's line prints it.
 */
export function placeCiteApart(f: Finding, place: { file: string; line?: number; column?: number; log_line: number }, lineText?: LineText): string {
  const c = citePlace(f, place, lineText);
  return lineOfPlace(f, place, lineText) !== f.message_line || place.log_line !== f.message_line || c !== at(f.message_line) ? ` ${c}` : '';
}

/** A unified diff's hunk header within three lines below `n` whose new range holds `line` (a CI timestamp may lead it). */
function hunkHolding(line: number, n: number, lineText: LineText): number | undefined {
  for (let k = n + 1; k <= n + 3; k++) {
    const h = /^(?:\d{4}-\d\d-\d\dT[\d:.]+Z\s)?@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/.exec(lineText(k) ?? '');
    if (h) return line >= Number(h[1]) && line < Number(h[1]) + Number(h[2] ?? 1) ? k : undefined;
  }
  return undefined;
}

/**
 * `[La-Lb]` for the finding's message: its line, and the lines after it that the message runs on
 * to when the tool wrapped it (CMake, Maven), so the citation holds all of the quoted text.
 */
export function citeMessage(f: Finding, lineText?: LineText): string {
  return cite(messageSpan(f, lineText));
}

/** The lines that print the finding's message (a tool may wrap it over several). */
export function messageSpan(f: Finding, lineText?: LineText): { start_line: number; end_line: number } {
  const squash = (t: string): string => t.replace(/\s+/g, ' ').trim();
  const want = squash(f.message);
  let text = squash(lineText?.(f.message_line) ?? '');
  let end = f.message_line;
  while (lineText && !text.includes(want) && end < f.message_line + 8) {
    const next = lineText(end + 1);
    if (next === undefined) break;
    end++;
    // A CI's timestamp on each line (`2026-11-28T20:05:40.61Z `) is no part of the wrapped message.
    text = squash(`${text} ${next.replace(/^\s*\d{4}-\d\d-\d\dT[\d:.]+Z\s/, '')}`);
  }
  return { start_line: f.message_line, end_line: text.includes(want) ? end : f.message_line };
}

/** `[La-Lb]` over the lines holding each of the values (the message line when none is found). */
function citeHolding(f: Finding, values: (string | undefined)[], lineText?: LineText): string {
  const lines = values.map((v) => lineHolding(f, v, lineText));
  return cite({ start_line: Math.min(...lines), end_line: Math.max(...lines) });
}

/** Words of a test's check on a line: an assertion, a comparison of expected and actual, a runner's own check report. */
const SHOWS_A_CHECK = /assert|ComparisonFailure|expected|expect\(|but was|, want |\bgot\b|\bactual\b|to(?:Be|Equal|Match)|should (?:be|equal|have)|left:|right:|not equal|!=|differ|DID NOT RAISE|Required regular expression not found|_test\.go:\d+: /i;

/** Who loaded the object, in words: the loader itself, or the runtime that asked it to (`python` through ctypes or an import). */
const LOADED_BY: Record<string, string> = { python: 'Python loaded it and ', node: 'Node loaded it and ', java: 'Java loaded it and ', erlang: 'Erlang loaded it and ', dlopen: 'the program loaded it and ' };

/**
 * A shared object the dynamic loader refused (core/finding/linkage.ts `load`): at run time, after the build linked it, so
 * no sentence names the linker. The object it was loading, and the symbol it could not resolve or the file it could not open.
 */
export function loadRefused(f: Finding, m: string): string {
  const object = f.linkage?.object;
  const jni = f.tool === 'java' ? jniFunctionOf(f.message) : undefined;
  if (jni) return `This failed when the program ran, not while it was built: Java found no C function ${inlineCode(jni.jni)} in the native libraries it had loaded for the method ${inlineCode(jni.method)} ${m} (JNI binds a native method by that name).`;
  const by = LOADED_BY[f.tool ?? ''] ?? '';
  const file = f.symbol !== undefined && /\.(?:so(?:\.\d+)*|node|dylib|dll)$/.test(f.symbol);
  if (file && object && object !== f.symbol) return `This failed when ${inlineCode(object)} was run, not while it was built: ${by}the dynamic loader could not find the shared library ${inlineCode(f.symbol as string)} it needs ${m} (it looks in the system's library directories, the program's RUNPATH and \`LD_LIBRARY_PATH\`).`;
  if (!f.symbol || file) return `This failed when ${object ? inlineCode(object) : 'a shared object'} was loaded, not while it was built: the dynamic loader could not open it ${m}.`;
  return `This failed when ${object ? inlineCode(object) : 'a shared object'} was loaded, not while it was built: ${by}the dynamic loader found no definition of ${inlineCode(f.symbol)}, which it refers to, in it or in the libraries it depends on ${m}. A shared object may be linked while names in it are still unresolved, so its build passed.`;
}

/**
 * What the finding establishes, in a few sentences: the class in plain words with its
 * details. Undefined sentences are left out rather than guessed. `lineText` lets each detail
 * cite the line that prints it.
 */
export function meaningOf(f: Finding, lineText?: LineText): string {
  // The lines that print the message (a message a tool splits over two lines is cited over both).
  const m = citeMessage(f, lineText);
  const loc = f.location;
  const where = loc?.line !== undefined ? ` at ${inlineCode(placeOf(loc))}${placeCiteApart(f, loc, lineText)}` : '';
  const test = f.test ? inlineCode(f.test.name) : 'a test';
  const testCite = f.test ? ` ${at(f.test.log_line)}` : '';
  const compared = f.class === 'test-assertion' && lineText ? f.evidence.find((n) => n !== f.message_line && isComparison(lineText(n) ?? '')) : undefined;
  const parts: string[] = [];
  const masked = maskedStageOf(lineText, f);
  switch (f.class) {
    case 'compile-error':
      {
        // make is the step; the compiler it echoed above the error is the tool that rejected the code (fx20).
        const compiler = compilerBehind(f, lineText);
        parts.push(`${compiler ? `${inlineCode(compiler)} (run by ${inlineCode(f.tool as string)})` : capital(toolName(f))} rejected the code${where}${printedCode(f, lineText) ? ` with ${inlineCode(f.code as string)}` : ''} ${m}.`);
      }
      if (f.symbol) {
        // A member used on a value of a type the message names (javac's `location: variable sum of type Money`,
        // tsc's `on type 'User'`, go's `(type T has no field or method x)`): that type is where it is missing, not an import.
        const owner = memberOwnerOf(f, lineText);
        const named = `It names ${inlineCode(f.symbol)}${lineHolding(f, f.symbol, lineText) !== f.message_line ? ` ${at(lineHolding(f, f.symbol, lineText))}` : ''}`;
        parts.push(
          owner
            ? `${named}, which ${inlineCode(owner.type)} does not have as the code uses it ${at(owner.line)} (not declared in that type, declared with other parameters, or not visible there).`
            : `${named}, which the compiler cannot see where the code uses it (not declared there, not imported, or misspelt).`,
        );
      }
      break;
    case 'link-error': {
      // The JVM refusing to link loaded code against the class it found (core/finding/linkage.ts `withJvmResolve`): no linker ran.
      if (f.linkage?.stage === 'resolve') {
        parts.push(jvmResolveMeaning(f, m));
        break;
      }
      // A class the JVM could not find at run time (NoClassDefFoundError): no linker ran either.
      if (f.linkage?.stage === 'missing-class') {
        parts.push(jvmMissingClassMeaning(f, m, lineText));
        break;
      }
      // A shared object refused when it was loaded (core/finding/linkage.ts): the build had linked it; the linker never saw this.
      if (f.linkage?.stage === 'load') {
        parts.push(loadRefused(f, m));
        const warnedAt = loc?.log_line !== undefined ? /\b(?:warning|error): (.*?)(?:\s*\[-W[\w-]+\])?$/.exec(lineText?.(loc.log_line) ?? '') : null;
        if (loc?.line !== undefined && warnedAt) parts.push(`When it was compiled, the compiler warned of it${where}: ${inlineCode(clip(warnedAt[1] as string, 120))}.`);
        break;
      }
      parts.push(`The code compiled, but the linker (${inlineCode(f.tool ?? 'ld')}) could not ${f.symbol?.startsWith('-l') ? `find the library ${inlineCode(f.symbol)}` : f.symbol ? `find a definition of ${inlineCode(f.symbol)}` : 'produce the program'} ${m}.`);
      // A linker with debug information names the referring line (ld's `src/x.c:8: undefined reference`, lld's `>>> referenced by`);
      // a place from the compiler's warning that the function has no definition (core/finding/places.ts) is that warning's.
      const warned = loc?.log_line !== undefined ? /\b(?:warning|error): (.*?)(?:\s*\[-W[\w-]+\])?$/.exec(lineText?.(loc.log_line) ?? '') : null;
      if (loc?.line !== undefined && warned && !/undefined (?:reference|symbol)/.test(warned[1] as string)) parts.push(`The compiler warned of it${where}: ${inlineCode(clip(warned[1] as string, 120))}.`);
      else parts.push(loc?.line !== undefined ? `The reference is${where}.` : loc?.file ? `The reference is in ${inlineCode(loc.file)}; the linker names no source line.` : 'The linker names no source line.');
      break;
    }
    case 'test-assertion':
      if (XPASS_STRICT.test(f.message)) {
        parts.push(`${f.test ? `The test ${test}${testCite}` : 'A test'} is marked as an expected failure (\`xfail\`, strict) and it passed ${m}, so pytest counts it as failed.`);
        break;
      }
      // A comparison's difference (core/finding/purpose.ts): what the log shows is the command and its output, not an assertion.
      if (compared !== undefined) {
        parts.push(`${f.test ? `The test ${test}${testCite}` : 'A test'} compared output with ${inlineCode(clip(comparisonCommand(lineText?.(compared) ?? 'diff'), 120))} ${at(compared)}, and the two differ ${m}.`);
        break;
      }
      // A test class no rule established (medium/low: a runner's verdict, a command's purpose) whose lines show no
      // check: the log says the test failed, not how; an assertion would be a claim (issue 25: "an assertion only
      // when the log shows one"). A rule's `high` that calibration lowered (rules_confidence) was established by a rule.
      if (f.confidence !== 'high' && f.rules_confidence !== 'high' && lineText && ![f.message_line, ...f.evidence].some((n) => SHOWS_A_CHECK.test(lineText(n) ?? ''))) {
        parts.push(`${f.test ? `The test ${test}${testCite}` : 'A test'} failed${where} ${m}; its lines do not show whether a check failed or the code stopped on an error.`);
        break;
      }
      parts.push(`${f.test ? `The test ${test}${testCite}` : 'A test'} ran, and its check did not hold${where} ${m}.`);
      if (f.expected !== undefined && f.actual !== undefined) parts.push(`It expected ${inlineCode(f.expected)} and got ${inlineCode(f.actual)} ${citeHolding(f, [f.expected, f.actual], lineText)}.`);
      break;
    case 'test-error':
      // pytest's `ERROR at setup of x` heading: a fixture raised before the test's own code ran (ux9).
      if (f.test && f.exception && /_{3,} ERROR at setup of /.test(lineText?.(f.test.log_line) ?? '')) {
        parts.push(`The test ${test}${testCite} did not start: pytest's setup of it (its fixtures) raised ${inlineCode(f.exception)} ${m}, before the test's own code ran.`);
        break;
      }
      // Tcl's and Lua's generic `error` is no exception's name (ux14, tcl-rates).
      parts.push(f.exception === 'error' ? `${f.test ? `The test ${test}${testCite}` : 'A test'} stopped on an error the code raised while it ran ${m}.` : f.exception ? `${f.test ? `The test ${test}${testCite}` : 'A test'} stopped on ${inlineCode(f.exception)}, an exception the code raised while it ran ${m}.` : `${f.test ? `The test ${test}${testCite}` : 'A test'} failed ${m}; the log does not show an exception or a checked value for it.`);
      break;
    case 'runtime-exception':
      // R's `Error in f(x) : msg` is a condition R signalled in that call, not an exception named `error`.
      if (f.tool === 'Rscript' && f.exception === 'error') {
        const call = /^Error in (.+?) ?: /.exec(f.message)?.[1];
        parts.push(`R stopped the script on an error${call ? ` in ${inlineCode(call)}` : ''} ${m}.`);
        break;
      }
      parts.push(f.exception === 'panic' ? `The program panicked ${m}.` : f.exception && /^SIG|Sanitizer/.test(f.exception) ? `The program was stopped by ${inlineCode(f.exception)} ${m}.` : !f.exception || f.exception === 'error' ? `The program stopped on a runtime error ${m}.` : `The program raised ${inlineCode(f.exception)} and stopped ${m}.`);
      break;
    case 'dependency-resolution':
      // A download's 404 or 410 for an artifact's URL (core/finding/httpStatus.ts, fx21): the server was reached and has no such file.
      if (f.http_status && isNoSuchFile(f.http_status)) {
        parts.push(`${capital(answeredWords(f.http_status, f.host, at))}: the host was reached, and it has no file at that URL, which names a file the build downloads.`);
        break;
      }
      // A lock file out of step with its manifest (core/finding/rules.ts): nothing failed to resolve; the tool would have to rewrite the lock.
      if (LOCK_OUT_OF_STEP.test(f.message)) {
        parts.push(`${capital(toolName(f))} found the lock file out of step with the project's manifest, and this build may not update it ${m}.`);
        break;
      }
      parts.push(`${capital(toolName(f))} could not resolve ${f.dependency ? inlineCode(f.dependency) : 'a dependency'} ${at(lineHolding(f, f.dependency, lineText))}.`);
      {
        const off = offlineLine(f, lineText);
        if (off !== undefined) parts.push(`The build ran offline, so only what the local cache holds was available ${off === f.message_line ? m : at(off)}.`);
      }
      break;
    case 'network':
      // A refused certificate: the host answered (ux15).
      if (tlsRefusalFor(f, lineText)) {
        parts.push(refusalMeaning(tlsRefusalFor(f, lineText) as NonNullable<ReturnType<typeof tlsRefusalFor>>));
        break;
      }
      // The server answered a status for the download (R's `HTTP status was '404 Not Found'`): it was reached (fx20).
      {
        const status = httpStatusOf(f);
        if (status) {
          const what = isNoSuchFile(status) ? 'it has no file at that URL' : status.code === 401 || status.code === 403 ? 'it refused the request (the credentials or access the URL needs)' : status.code >= 500 ? 'the server failed on its side' : 'it did not serve the file';
          parts.push(`${capital(answeredWords(status, f.host, at))}: the host was reached, and ${what}.`);
          break;
        }
      }
      if (sshTransportOf(f, lineText)) {
        parts.push(sshMeaning(sshTransportOf(f, lineText) as SshTransport, m));
        break;
      }
      {
        // The host a line above names as a package index (pip's `Looking in indexes:`): said so (remedyWhere.ts).
        const index = f.host ? packageIndexAbove(lineText, f.message_line, f.host, portInMessage(f.message, f.host)) : undefined;
        parts.push(`The build could not reach ${f.host ? inlineCode(f.host) : 'a host it needed'} ${f.host ? at(lineHolding(f, f.host, lineText)) : m}${index ? `, ${index.what}: ${inlineCode(index.url)} ${at(index.line)}` : ''}.`);
      }
      if (f.dependency) parts.push(`So ${toolName(f)} could not fetch ${inlineCode(f.dependency)} ${at(lineHolding(f, f.dependency, lineText))}.`);
      break;
    case 'disk-full':
      // The linker's bus error (core/finding/rules.ts): no message says the disk is full, so the answer says what was seen.
      if (f.exception === 'SIGBUS') {
        parts.push(`The linker was killed by a bus error (signal 7) ${m}. Linkers such as lld, gold and mold write their output through a memory map, and a filesystem with no room left for it gives that signal instead of an error message; an input file that shrank while the linker read it gives the same signal.`);
        break;
      }
      // A write to /dev/full fails the same way on a disk with room: then the disk is not said to be full (ux5).
      parts.push(devFullAbove(f, lineText) ? `A write failed with no space left on the device it went to ${m}: the step wrote to \`/dev/full\`, which refuses every write.` : `A write failed because the disk was full ${m}.`);
      break;
    case 'out-of-memory':
      parts.push(f.exception === 'killed' ? `The process was killed, the way the out-of-memory killer stops a process ${m}.` : `The process ran out of memory (${inlineCode(f.exception ?? 'out of memory')}) ${m}.`);
      break;
    case 'timeout-aborted': {
      // The log says which when it names who stopped it (Jenkins' `Aborted by <user>`) or a limit.
      const by = abortedBy(f.message);
      parts.push(
        by
          ? `${inlineCode(by)} stopped the build ${m}: it did not fail on its own, and the log does not say why it was stopped.`
          : /timeout|timed out|time limit|deadline/i.test(f.message)
            ? `The step was stopped by a time limit ${m}.`
            : `The step was stopped by a timeout or an abort ${m}.`,
      );
      break;
    }
    case 'permission-credentials':
      parts.push(`The step was refused: a permission or credentials problem ${m}.`);
      break;
    case 'missing-tool':
      if (f.linkage?.stage === 'load') {
        parts.push(loadRefused(f, m));
        break;
      }
      parts.push(f.symbol ? `${inlineCode(f.symbol)} is not available on the agent that ran the step ${m}.` : `A tool the step needs is missing or the wrong version ${m}.`);
      break;
    case 'lint':
      parts.push(`${capital(toolName(f))} reported a finding${where}${printedCode(f, lineText) ? ` (rule ${inlineCode(f.code as string)})` : ''} ${m}, and the step treats findings as a failure.`);
      break;
    case 'ci-script':
      // A step that failed on what an earlier stage should have made, that stage's failure hidden by `| tee` (ux10).
      if (masked) {
        parts.push(maskedSentence(masked));
        break;
      }
      // The script's own alias, which bash does not expand in a script (ux16).
      {
        const alias = aliasUnseenOf(f, lineText);
        if (alias) {
          parts.push(aliasUnseenMeaning(alias, m));
          break;
        }
      }
      // A Makefile's or a project script's command that failed is the build's own command, not the pipeline's (ux9),
      // whichever tool make's recipe ran (`cp: missing destination file operand` at `Makefile:5`, ux17).
      parts.push((f.tool === undefined || MAKEFILE.test(f.location?.file ?? '')) && inProjectFile(f) ? `A command of the build's own scripts failed${where} ${m}.` : `The CI script itself is wrong${where} ${m}: the build's commands were not the problem.`);
      break;
    case 'agent-lost': {
      const label = noAgentLabel(f);
      parts.push(
        label
          ? `No agent with the label ${inlineCode(label)} was online to run the build ${m}: the build waited for one and never started its work.`
          : `The agent running the build went away ${m}: the build did not fail on its own work.`,
      );
      break;
    }
    case 'unknown': {
      // Only the trace of the command the script stopped on, which printed nothing: said as that, not as "the error" (ux15).
      const silent = silentStopOf(f, lineText);
      if (silent) {
        parts.push(silentStopSentence(silent));
        break;
      }
      // "I could not tell its kind", not "nothing establishes its cause": a message can say its own cause plainly (luac's
      // `'end' expected`) where no rule's class stood, e.g. one set aside below high (calibration.ts `supported`).
      parts.push(`The log's error is ${inlineCode(clip(f.message))} ${m}; I could not tell from the log what kind of failure it is.`);
      // The class its words suggest (core/finding/classModel.ts): one hedged sentence, never the cause.
      const likely = likelySentence(f, lineText);
      if (likely) parts.push(likely);
      break;
    }
  }
  // A JVM linkage error is raised like an exception: its stack's frames are said as theirs are.
  if (f.class !== 'compile-error' && f.class !== 'lint' && (f.class !== 'link-error' || isJvmLinkage(f))) {
    const trace = traceSentence(f);
    // A failed check is not "raised" at the place its sentence already named (jest's `at Object.toBe (x:8:34)`).
    const frames = [loc?.frames?.raise, loc?.frames?.project].filter((x) => x !== undefined);
    const named = f.class === 'test-assertion' && frames.length > 0 && frames.every((fr) => parts.some((p) => p.includes(placeOf({ file: fr.file, line: fr.line }))));
    if (trace) {
      if (!named) parts.push(trace);
    } else if (loc?.line !== undefined && !where) parts.push(`The log points at ${inlineCode(placeOf(loc))} ${citePlace(f, loc, lineText)}.`);
    else if (loc?.line !== undefined && f.class !== 'test-assertion' && !parts.some((p) => p.includes(placeOf(loc)))) parts.push(`The log points at ${inlineCode(placeOf(loc))} ${citePlace(f, loc, lineText)}.`);
  }
  if (masked && f.class !== 'ci-script') parts.push(maskedSentence(masked));
  return parts.join(' ');
}

/**
 * A hint sentence with the message's citation at its end. A hint ending in inline code (`... before
 * the next \`case\``) takes it in parentheses, so the code is not read as a quote of the cited line.
 */
export function citedAfter(hint: string, cite: string): string {
  const h = hint.replace(/\.$/, '');
  return h.endsWith('`') ? `${h} (${cite}).` : `${h} ${cite}.`;
}

/**
 * The finding's code when the tool printed it (on the message's lines): a code the analyzer
 * derived (`-Xlint:rawtypes` from javac's `[rawtypes]`) is not quoted next to their citation.
 * Without the log's lines it cannot be checked and is shown.
 */
export function printedCode(f: Finding, lineText?: LineText): string | undefined {
  if (!f.code) return undefined;
  if (!lineText || f.message.includes(f.code)) return f.code;
  return [f.message_line, ...f.evidence].some((n) => lineText(n)?.includes(f.code as string)) ? f.code : undefined;
}

/** pytest's report of a strict expected failure that passed (`[XPASS(strict)] reason`). */
export const XPASS_STRICT = /^\[XPASS\(strict\)\]/;

/** The person Jenkins names in `Aborted by <user>` (not a timeout's or the system's abort). */
export function abortedBy(message: string): string | undefined {
  const who = /^(?:\[[^\]]*\] )?Aborted by (.+?)\s*$/.exec(message.trim())?.[1];
  return who && !/timeout|SYSTEM|anonymous/i.test(who) ? who : undefined;
}

export function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

const quote = (s: string): string => s.replace(/'/g, "'\\''");

/** A test file's path as the project names it: the agent's workspace prefix dropped (`/tmp/ws/job/test/a.js` -> `test/a.js`). */
function relativeTest(file: string): string {
  const m = /(?:^|\/)((?:test|tests|spec|__tests__)\/.+)$/.exec(file);
  return m ? (m[1] as string) : file;
}

/** A command that runs the failing part again on a developer's machine, from the finding and the command the CI ran. */
export function reproduceCommand(f: Finding, ciCommand: string | undefined, file?: string): string | undefined {
  const t = f.test?.name;
  // The failing file as the workspace names it (else the log's, when relative): scopes the command to its module or package.
  const relative = (p: string | undefined): string | undefined => (p && !/^(?:\/|[A-Za-z]:[\\/])/.test(p) ? p : undefined);
  const rel = relative(file) ?? relative(f.location?.file);
  const module = rel ? /^((?:[\w.-]+\/)*?[\w.-]+)\/src\/(?:main|test)\//.exec(rel)?.[1] : undefined;
  const pl = module ? ` -pl ${module} -am` : '';
  if (t && (f.class === 'test-assertion' || f.class === 'test-error' || f.class === 'timeout-aborted')) {
    switch (f.tool) {
      case 'pytest':
        // A node id or a test file runs as it is; `-k` takes a name expression (`-k tests/a.py` is refused).
        return `python -m pytest ${t.includes('::') || /\.py$/.test(t) ? t : `-k ${t}`}`;
      case 'unittest':
        return `python -m unittest ${t}`;
      case 'surefire': {
        const dot = t.lastIndexOf('.');
        const selector = `${t.slice(0, dot).split('.').pop() ?? t}#${t.slice(dot + 1)}`;
        // A nested class (`OuterTest$Inner`) needs quotes in a shell; -am builds the modules it needs, -Dsurefire.failIfNoSpecifiedTests=false lets them pass without the test.
        return `mvn${pl} test -Dtest=${/[$\s]/.test(selector) ? `'${selector}'` : selector}${pl ? ' -Dsurefire.failIfNoSpecifiedTests=false' : ''}`;
      }
      case 'gradle':
        return `./gradlew test --tests '${t.replace(' > ', '.')}'`;
      case 'jest':
        // A suite that failed to run is named by its file: that file is the whole selection (`-t FILE` matches no test).
        if (/^[\w./-]+\.[cm]?[jt]sx?$/.test(t)) return `npx jest ${t}`;
        return `npx jest${rel && /\.(?:test|spec)\.[cm]?[jt]sx?$|__tests__\//.test(rel) ? ` ${rel}` : ''} -t '${t.split(' › ').pop()?.replace(/'/g, "'\\''")}'`;
      case 'vitest': {
        const [file, ...names] = t.split(' > ');
        return `npx vitest run ${file} -t '${(names.pop() ?? '').replace(/'/g, "'\\''")}'`;
      }
      case 'go test': {
        // The package of the failing file when the workspace names it (`./internal/pool`), else every package.
        const dir = rel && rel.endsWith('.go') && rel.includes('/') ? `./${rel.slice(0, rel.lastIndexOf('/'))}` : rel?.endsWith('.go') ? '.' : './...';
        return `go test -run '^${t.split('/')[0]}$'${f.class === 'timeout-aborted' ? ' -timeout 30s' : ''} ${dir}`;
      }
      case 'cargo test': {
        // A doc test's name has spaces, which rustdoc's filter splits into words: select by its item, or run the doc tests.
        const doc = docTestOf(f);
        if (doc) return `cargo test --doc${doc.item ? ` ${doc.item}` : ''}`;
        return `cargo test ${t} -- --exact`;
      }
      // ctest runs from the build directory; -R takes a regular expression.
      case 'ctest':
        return `ctest -R '^${escapeRegExp(t)}$' --output-on-failure`;
      // node's test runner reports in TAP; its name pattern runs the one test.
      case 'tap': {
        if (!(/\bnode\b/.test(ciCommand ?? '') || f.location?.file?.match(/\.[cm]?[jt]s$/))) return undefined;
        // A test file whose child died is named by its path (`# Subtest: /ws/test/cart.test.js`): that file is the
        // whole selection, as a name pattern it matches nothing. The place scopes the run only when it is a test file
        // (an exception's raise site in the code is no file to run).
        if (/^[\w./@-]+\.[cm]?[jt]s$/.test(t)) return `node --test ${relativeTest(t)}`;
        const at = f.location?.file;
        const testFile = at && /(?:^|\/)(?:test|tests|spec|__tests__)\/|\.(?:test|spec)\.[cm]?[jt]s$/.test(at) ? relativeTest(at) : undefined;
        return `node --test --test-name-pattern '${quote(t)}'${testFile ? ` ${testFile}` : ''}`;
      }
      case 'minitest': {
        const method = /#(test\S*?)[:\s]/.exec(`${t} `)?.[1];
        return method && f.location?.file ? `ruby -Itest ${relativeTest(f.location.file)} -n '/${quote(method)}/'` : undefined;
      }
      case 'rspec': {
        // An older name carried the summary's place (`Mutex works (./spec/x_spec.rb:29)`); else the
        // example's description, in its spec file when the place is one.
        const at = /\((\S+:\d+)\)$/.exec(t)?.[1];
        const spec = f.location?.file && /_spec\.rb$/.test(f.location.file) ? ` ${relativeTest(f.location.file)}` : '';
        return at ? `bundle exec rspec ${at}` : `bundle exec rspec${spec} -e '${quote(t)}'`;
      }
      // prove runs one test file verbosely; `-l` puts `lib/` on the path (nothing when there is none), as CI's `prove -l` does.
      case 'prove':
        return /^[\w./-]+\.t$/.test(t) ? `prove -lv ${t}` : undefined;
      case 'phpunit':
        return `vendor/bin/phpunit --filter '${quote(t.split('::').pop() ?? t)}'`;
      default:
        break;
    }
  }
  // A shell script's own error: check or trace the script itself.
  if (f.class === 'ci-script' && (f.tool === 'bash' || f.tool === 'sh') && rel && /\.(?:sh|bash)$/.test(rel)) {
    // bash says `x.sh: line 7: ...`, dash `x.sh: 7: ...`: check with the shell that printed it.
    return `${/: line \d+: /.test(f.message) ? 'bash' : f.tool} ${/syntax error|unexpected (?:EOF|end of file|token)/i.test(f.message) ? '-n' : '-x'} ${rel}`;
  }
  // A compile error in one module of a Maven build: that module and what it needs.
  if (module && f.class === 'compile-error' && ciCommand && /^mvn\b/.test(ciCommand) && !/\s-pl\s/.test(ciCommand)) {
    return `mvn${pl} ${/\btest-compile\b|\/src\/test\//.test(`${ciCommand} ${rel ?? ''}`) ? 'test-compile' : 'compile'}${/\s-o\b|--offline/.test(ciCommand) ? ' -o' : ''}`;
  }
  if (ciCommand && !/^(?:\/bin\/)?(?:ba)?sh -xe /.test(ciCommand)) return ciCommand;
  return undefined;
}

/** The type a missing member was looked up on, and the log line naming it, when the compiler's lines say (never javac's `location: class C`: there the name may be a plain one). */
function memberOwnerOf(f: Finding, lineText: LineText | undefined): { type: string; line: number } | undefined {
  if (!lineText) return undefined;
  for (const n of [f.message_line, ...f.evidence, f.message_line + 1, f.message_line + 2]) {
    const text = lineText(n) ?? '';
    if (/location:\s+(?:class|interface)\b/.test(text)) return undefined;
    const type = /location:\s+variable \w+ of type|does not exist on type|has no field or method/.test(text) ? ownerTypeOf(text) : undefined;
    if (type) return { type, line: n };
  }
  return undefined;
}

