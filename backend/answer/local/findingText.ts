/**
 * The offline engine's words for a finding (core/finding, issue 25): what it establishes (for
 * "why did it fail?") and what to do about it (for "how do I fix it?"). Every sentence is built
 * from a field of the finding or the context and cites the log line it rests on; a class
 * without evidence (unknown) says so instead of guessing.
 */
import type { Finding, FindingFrame } from '../../../protocol/types.js';
import { findingOf } from '../../../core/finding/index.js';
import type { ChatContext } from '../engine.js';
import { cite, clip, inlineCode, storedLogSpan, type LogSpan } from '../logtext.js';
import { diagnosticHint } from './diagnostics.js';
import { allocationHint, exceptionHint, indentationHint, missingFields, waitsOf } from './exceptions.js';
import { lintFixCommand, systemPackageHint } from './fixCommands.js';
import { dependencySteps } from './dependencySteps.js';

/** A lock file that no longer matches its manifest, or that a frozen install may not rewrite (cargo `--locked`, yarn `--immutable`, poetry, pnpm). */
const LOCK_OUT_OF_STEP = /\b(?:[\w.-]*\.lock|lock ?file)\b.{0,40}\b(?:is not consistent with|is out of (?:date|sync)|needs to be updated|is not up to date|does not match|is outdated)|\bchanged significantly since [\w.-]+\.lock was last generated|\bcannot update the lock ?file\b.*\bbecause --(?:locked|frozen)\b|\bThe lockfile would have been modified by this install\b/i;

/** `[L12-L12]` for one log line. */
export const at = (line: number): string => cite({ start_line: line, end_line: line });

/** The finding of an excerpt: stored with it since issue 25, else read now from the stored log or the excerpt. */
export function findingFor(ctx: ChatContext, span: LogSpan & { finding?: unknown }): Finding {
  const stored = span.finding;
  if (typeof stored === 'object' && stored !== null && typeof (stored as Finding).class === 'string' && typeof (stored as Finding).message_line === 'number') return stored as Finding;
  const log = storedLogSpan(ctx);
  const source = log && log.start_line <= span.start_line && log.end_line >= span.end_line ? log : span;
  // Indexes must be log line numbers: what lies before the text is blank.
  const lines: string[] = new Array<string>(source.start_line - 1).fill('');
  for (const l of source.text.split('\n')) lines.push(l);
  return findingOf(lines, span);
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
    shown = text === undefined || new RegExp(`(?:^|[^\\w-])${word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:$|[^\\w-])`, 'im').test(text);
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

function toolName(f: Finding): string {
  return f.tool ? (TOOL_NAMES[f.tool] ?? inlineCode(f.tool)) : 'the tool';
}

function frameText(frame: FindingFrame): string {
  return `${inlineCode(placeOf({ file: frame.file, line: frame.line }))}${frame.function ? ` (in ${inlineCode(frame.function)})` : ''} ${at(frame.log_line)}`;
}

/** Where a finding's trace points: the raise site, and the project's own frame when it is another. */
export function traceSentence(f: Finding): string | undefined {
  const frames = f.location?.frames;
  if (!frames?.raise && !frames?.project) return undefined;
  const { raise, project } = frames;
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
  if (!lineText || t === undefined || t.includes(base) || place.line === undefined || !new RegExp(`\\b${place.line}\\b`).test(t)) return cite({ start_line: n, end_line: n });
  for (let k = n - 1; k >= Math.max(1, n - 6); k--) if (lineText(k)?.includes(base)) return cite({ start_line: k, end_line: n });
  return cite({ start_line: n, end_line: n });
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

/**
 * What the finding establishes, in a few sentences: the class in plain words with its
 * details. Undefined sentences are left out rather than guessed. `lineText` lets each detail
 * cite the line that prints it.
 */
export function meaningOf(f: Finding, lineText?: LineText): string {
  const m = at(f.message_line);
  const loc = f.location;
  const where = loc?.line !== undefined ? ` at ${inlineCode(placeOf(loc))}${lineOfPlace(f, loc, lineText) !== f.message_line || loc.log_line !== f.message_line ? ` ${citePlace(f, loc, lineText)}` : ''}` : '';
  const test = f.test ? inlineCode(f.test.name) : 'a test';
  const testCite = f.test ? ` ${at(f.test.log_line)}` : '';
  const parts: string[] = [];
  switch (f.class) {
    case 'compile-error':
      parts.push(`${capital(toolName(f))} rejected the code${where}${f.code ? ` with ${inlineCode(f.code)}` : ''} ${m}.`);
      if (f.symbol) parts.push(`It names ${inlineCode(f.symbol)}${lineHolding(f, f.symbol, lineText) !== f.message_line ? ` ${at(lineHolding(f, f.symbol, lineText))}` : ''}, which the compiler cannot see where the code uses it (not declared there, not imported, or misspelt).`);
      break;
    case 'link-error':
      parts.push(`The code compiled, but the linker (${inlineCode(f.tool ?? 'ld')}) could not ${f.symbol?.startsWith('-l') ? `find the library ${inlineCode(f.symbol)}` : f.symbol ? `find a definition of ${inlineCode(f.symbol)}` : 'produce the program'} ${m}.`);
      parts.push(loc?.file ? `The reference is in ${inlineCode(loc.file)}; the linker names no source line.` : 'The linker names no source line.');
      break;
    case 'test-assertion':
      if (XPASS_STRICT.test(f.message)) {
        parts.push(`${f.test ? `The test ${test}${testCite}` : 'A test'} is marked as an expected failure (\`xfail\`, strict) and it passed ${m}, so pytest counts it as failed.`);
        break;
      }
      parts.push(`${f.test ? `The test ${test}${testCite}` : 'A test'} ran, and its check did not hold${where} ${m}.`);
      if (f.expected !== undefined && f.actual !== undefined) parts.push(`It expected ${inlineCode(f.expected)} and got ${inlineCode(f.actual)} ${citeHolding(f, [f.expected, f.actual], lineText)}.`);
      break;
    case 'test-error':
      parts.push(f.exception ? `${f.test ? `The test ${test}${testCite}` : 'A test'} stopped on ${inlineCode(f.exception)}, an exception the code raised while it ran ${m}.` : `${f.test ? `The test ${test}${testCite}` : 'A test'} failed ${m}; the log does not show an exception or a checked value for it.`);
      break;
    case 'runtime-exception':
      parts.push(f.exception === 'panic' ? `The program panicked ${m}.` : f.exception && /^SIG|Sanitizer/.test(f.exception) ? `The program was stopped by ${inlineCode(f.exception)} ${m}.` : `The program raised ${inlineCode(f.exception ?? 'an exception')} and stopped ${m}.`);
      break;
    case 'dependency-resolution':
      // A lock file out of step with its manifest (core/finding/rules.ts): nothing failed to resolve; the tool would have to rewrite the lock.
      if (LOCK_OUT_OF_STEP.test(f.message)) {
        parts.push(`${capital(toolName(f))} found the lock file out of step with the project's manifest, and this build may not update it ${m}.`);
        break;
      }
      parts.push(`${capital(toolName(f))} could not resolve ${f.dependency ? inlineCode(f.dependency) : 'a dependency'} ${at(lineHolding(f, f.dependency, lineText))}.`);
      if (/offline mode|only-if-cached|--offline|offline/i.test(f.message)) parts.push(`The build ran offline, so only what the local cache holds was available ${m}.`);
      break;
    case 'network':
      parts.push(`The build could not reach ${f.host ? inlineCode(f.host) : 'a host it needed'} ${f.host ? at(lineHolding(f, f.host, lineText)) : m}.`);
      if (f.dependency) parts.push(`So ${toolName(f)} could not fetch ${inlineCode(f.dependency)} ${at(lineHolding(f, f.dependency, lineText))}.`);
      break;
    case 'disk-full':
      parts.push(`A write failed because the disk was full ${m}.`);
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
      parts.push(f.symbol ? `${inlineCode(f.symbol)} is not available on the agent that ran the step ${m}.` : `A tool the step needs is missing or the wrong version ${m}.`);
      break;
    case 'lint':
      parts.push(`${capital(toolName(f))} reported a finding${where}${f.code ? ` (rule ${inlineCode(f.code)})` : ''} ${m}, and the step treats findings as a failure.`);
      break;
    case 'ci-script':
      parts.push(`The CI script itself is wrong${where} ${m}: the build's commands were not the problem.`);
      break;
    case 'agent-lost':
      parts.push(`The agent running the build went away ${m}: the build did not fail on its own work.`);
      break;
    case 'unknown':
      parts.push(`The log's error is ${inlineCode(clip(f.message))} ${m}, but nothing in it establishes what caused it.`);
      break;
  }
  if (f.class !== 'compile-error' && f.class !== 'lint' && f.class !== 'link-error') {
    const trace = traceSentence(f);
    // A failed check is not "raised" at the place its sentence already named (jest's `at Object.toBe (x:8:34)`).
    const frames = [loc?.frames?.raise, loc?.frames?.project].filter((x) => x !== undefined);
    const named = f.class === 'test-assertion' && frames.length > 0 && frames.every((fr) => parts.some((p) => p.includes(placeOf({ file: fr.file, line: fr.line }))));
    if (trace) {
      if (!named) parts.push(trace);
    } else if (loc?.line !== undefined && !where) parts.push(`The log points at ${inlineCode(placeOf(loc))} ${citePlace(f, loc, lineText)}.`);
    else if (loc?.line !== undefined && f.class !== 'test-assertion' && !parts.some((p) => p.includes(placeOf(loc)))) parts.push(`The log points at ${inlineCode(placeOf(loc))} ${citePlace(f, loc, lineText)}.`);
  }
  return parts.join(' ');
}

/**
 * A hint sentence with the message's citation at its end. A hint ending in inline code (`... before
 * the next \`case\``) takes it in parentheses, so the code is not read as a quote of the cited line.
 */
function citedAfter(hint: string, cite: string): string {
  const h = hint.replace(/\.$/, '');
  return h.endsWith('`') ? `${h} (${cite}).` : `${h} ${cite}.`;
}

/** pytest's report of a strict expected failure that passed (`[XPASS(strict)] reason`). */
const XPASS_STRICT = /^\[XPASS\(strict\)\]/;

/** The person Jenkins names in `Aborted by <user>` (not a timeout's or the system's abort). */
export function abortedBy(message: string): string | undefined {
  const who = /^(?:\[[^\]]*\] )?Aborted by (.+?)\s*$/.exec(message.trim())?.[1];
  return who && !/timeout|SYSTEM|anonymous/i.test(who) ? who : undefined;
}

function capital(s: string): string {
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
      case 'cargo test':
        return `cargo test ${t} -- --exact`;
      // ctest runs from the build directory; -R takes a regular expression.
      case 'ctest':
        return `ctest -R '^${t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$' --output-on-failure`;
      // node's test runner reports in TAP; its name pattern runs the one test.
      case 'tap':
        return /\bnode\b/.test(ciCommand ?? '') || f.location?.file?.match(/\.[cm]?[jt]s$/) ? `node --test --test-name-pattern '${quote(t)}'${f.location?.file ? ` ${relativeTest(f.location.file)}` : ''}` : undefined;
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

/** What a finding's class and details say to do; general CI knowledge, each step tied to the finding. */
export function remedyOf(f: Finding, lineText?: LineText): { steps: string[]; unsure?: string } {
  // The message where the tool printed it (over all its lines); `near` also covers the lines that
  // print the details a step quotes next to its citation (javac's `symbol:`, rspec's `got:`, the host).
  const said = messageSpan(f, lineText);
  const m = cite(said);
  const near = (...values: (string | undefined)[]): string => {
    const lines = values.filter((v): v is string => v !== undefined && v !== '').map((v) => lineHolding(f, v, lineText));
    const wrapped = f.evidence.filter((n) => n > said.end_line && n <= said.end_line + 3);
    return cite({ start_line: Math.min(said.start_line, ...lines), end_line: Math.max(said.end_line, ...lines, ...(lineText ? wrapped : [])) });
  };
  const loc = f.location;
  const place = loc?.line !== undefined ? inlineCode(placeOf(loc)) : loc?.file ? inlineCode(loc.file) : undefined;
  const steps: string[] = [];
  let unsure: string | undefined;
  const project = loc?.frames?.project;
  switch (f.class) {
    case 'compile-error': {
      // Without a place (an import cycle, a project-level error) there is no line to go to: say so.
      const opening = loc?.line !== undefined ? `open ${inlineCode(loc.file)} at line ${loc.line}${loc.column !== undefined ? `, column ${loc.column}` : ''} and change it so that it compiles` : place ? `open ${place} and change it so that it compiles` : 'the log names no file or line for it, so start from what the compiler names in its message';
      steps.push(`${opening}: the compiler says ${inlineCode(clip(diagnosticText(f), 200))}${f.code && !diagnosticText(f).includes(f.code) ? ` (${inlineCode(f.code)})` : ''}${f.symbol && !diagnosticText(f).includes(f.symbol) ? ` about ${inlineCode(f.symbol)}` : ''} ${near(f.symbol, f.code)}.`);
      const shape = missingFields(f.message) ?? indentationHint(f.message);
      if (shape) steps.push(citedAfter(shape, m));
      if (f.code && f.tool === 'rustc') steps.push(`\`rustc --explain ${f.code}\` explains ${inlineCode(f.code)} with examples.`);
      const nullable = /inferred type is ([\w.<>]+)\? but \1 was expected|Type '([\w.<>]+) \| (?:null|undefined)' is not assignable to type '\2'/.exec(f.message);
      if (nullable) steps.push(`The value there can be null (${inlineCode(`${nullable[1] ?? nullable[2]}?`)}) where a non-null ${inlineCode((nullable[1] ?? nullable[2]) as string)} is required ${m}: handle the null case (a null check, a default or an error with \`?:\`/\`??\`), or declare the type as nullable if null is a valid value.`);
      const suggested = /Did you mean '([\w$]+)'\?/i.exec(f.message)?.[1];
      if (suggested && f.symbol) steps.push(`The compiler suggests ${inlineCode(suggested)} instead of ${inlineCode(f.symbol)} ${m}.`);
      break;
    }
    case 'link-error':
      if (DUPLICATE_SYMBOL.test(f.message)) {
        const sym = DUPLICATE_SYMBOL.exec(f.message)?.[1] as string;
        steps.push(`${inlineCode(sym)} is defined in more than one object file of the link ${m} (the linker names the first definition). A variable or function defined in a header is defined again in every file that includes it: declare it in the header (${inlineCode(`extern <type> ${sym};`)} for a variable, a prototype for a function) and define it in one source file; or make each copy \`static\` if each file should have its own; or drop the second source file from the link if it was added twice.`);
        break;
      }
      // Code not built position-independent, linked into a shared object or a PIE: no symbol is missing.
      if (/recompile with -fPIC/.test(f.message)) {
        const obj = /:\s*(?:(\S+?\.a)\((\S+?\.o)\)|(\S+?\.o)):.*?relocation/.exec(f.message);
        const what = obj ? (obj[2] ? `${inlineCode(obj[2])} (in ${inlineCode(obj[1] as string)})` : inlineCode(obj[3] as string)) : 'an object of the link';
        // make's own line under the error names the Makefile whose rule ran the link.
        let mk: { file: string; line: number } | undefined;
        for (let n = f.message_line + 1; lineText && n <= f.message_line + 6 && !mk; n++) {
          const file = /make(?:\[\d+\])?: \*\*\* \[(\S*[Mm]akefile):\d+/.exec(lineText(n) ?? '')?.[1];
          if (file) mk = { file, line: n };
        }
        steps.push(`${capital(what)} was compiled without position-independent code, and the link puts it into a shared object (or a PIE) ${m}: compile it with \`-fPIC\` (in the flags of the rule that builds it${mk ? ` in ${inlineCode(mk.file)} ${at(mk.line)}` : ''}, e.g. \`CFLAGS += -fPIC\`; CMake: \`set(CMAKE_POSITION_INDEPENDENT_CODE ON)\`), then rebuild it from clean so ${obj?.[1] ? 'the archive holds' : 'the link gets'} the new object (\`make clean\`).`);
        break;
      }
      if (f.symbol?.startsWith('-l')) {
        const lib = f.symbol.slice(2).replace(/[:,.]+$/, '');
        steps.push(`Make the library ${inlineCode(lib)} available to the linker on the agent (install its development package, or point the build at it with \`-L\` / the build script's link search path), or remove ${inlineCode(`-l${lib}`)} from the link line if the code no longer needs it ${m}.`);
        if (systemPackageHint(f)) steps.push(systemPackageHint(f) as string);
      } else {
        steps.push(`Find where ${f.symbol ? inlineCode(f.symbol) : 'the missing symbol'} is defined and make sure that file or library is part of the link: the source file listed in the build (Makefile, \`CMakeLists.txt\` \`add_executable\`/\`add_library\`/\`target_sources\`), or the library on the link line; if it was renamed or removed, update the callers ${m}.`);
      }
      break;
    case 'test-assertion':
      if (XPASS_STRICT.test(f.message)) {
        // pytest's strict xfail: the test was expected to fail and passed; nothing compared unequal.
        const id = f.test?.name;
        const file = id?.includes('::') ? id.slice(0, id.indexOf('::')) : undefined;
        const name = id ? (id.split('::').pop() as string) : undefined;
        steps.push(`${name ? `The test ${inlineCode(name)}` : 'The test'} is marked \`@pytest.mark.xfail\` (strict, or \`xfail_strict = true\` in the pytest config) and it passed ${m}: pytest fails a strict expected failure that passes. If the code now does what the test checks (the bug its reason names was fixed), remove the \`xfail\` marker${name ? ` from ${inlineCode(name)}` : ''}${file ? ` in ${inlineCode(file)}` : ''}; if the code should still fail it, the test no longer shows the bug and needs changing.`);
        break;
      }
      if (f.expected !== undefined && f.actual !== undefined) steps.push(`The test expects ${inlineCode(f.expected)} and the code gave ${inlineCode(f.actual)} ${near(f.expected, f.actual)}.`);
      steps.push(`Look at the code under test${project ? ` (called from ${inlineCode(placeOf(project))})` : place ? ` (the check is at ${place})` : ''} to see why it gives a different value; the log does not show what changed since the test last passed.`);
      unsure =
        f.expected !== undefined && f.actual !== undefined
          ? `I can't tell which side is wrong from the log: if ${inlineCode(clip(f.expected, 80))} is the intended result, fix the code under test so it gives that; if ${inlineCode(clip(f.actual, 80))} is now right (the behaviour changed on purpose), update the test's expected value to it.`
          : `I can't tell which side is wrong from the log: if the test states the intended behaviour, fix the code under test; if the behaviour changed on purpose, update the test's expected value.`;
      break;
    case 'test-error':
    case 'runtime-exception': {
      const target = project ?? loc?.frames?.raise;
      const ex = f.exception ? inlineCode(f.exception) : f.class === 'runtime-exception' ? 'the error' : 'the exception';
      // Where to act, not the diagnosis again (the headline quotes the message): the raising line, else the log has none.
      steps.push(
        target
          ? `Open ${inlineCode(placeOf({ file: target.file, line: target.line }))}${target.function ? ` (in ${inlineCode(target.function)})` : ''} ${at(target.log_line)}, where ${ex} was raised${target === project && loc?.frames?.raise && (loc.frames.raise.file !== project.file || loc.frames.raise.line !== project.line) ? ' (the deepest frame in the project\'s own code)' : ''}, and change what that line does with the values it gets, as the message ${m} describes.`
          : place
            ? `Open ${place}, where the log places ${ex}, and change what that line does with the values it gets, as the message ${m} describes.`
            : `The log names no line that raised ${ex}; its message ${m} is all it printed: run it again locally with a stack trace (the command below) to find that line.`,
      );
      const hint = exceptionHint(f);
      if (hint) steps.push(hint);
      if (f.class === 'test-error') steps.push('The test did not get as far as checking a result, so fix the code (or the test\'s setup) before looking at what it checks.');
      break;
    }
    case 'dependency-resolution':
      steps.push(...dependencySteps(f));
      if (systemPackageHint(f)) steps.push(systemPackageHint(f) as string);
      break;
    case 'network': {
      // The host the finding names, else an address in the message itself (`connect ECONNREFUSED 127.0.0.1:6432`);
      // with neither, no placeholder: the step's own settings (listed below when echoed) name it.
      const inMessage = /\b((?:\d{1,3}\.){3}\d{1,3}|localhost|\[[\d:a-f]+\]|[a-z0-9-]+(?:\.[a-z0-9-]+)+):(\d{2,5})\b/i.exec(f.message);
      const named = f.host ?? inMessage?.[1];
      const host = named ?? 'HOST';
      const port = /\bport (\d+)\b/.exec(f.message)?.[1] ?? (named ? new RegExp(`${named.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:(\\d+)`).exec(f.message)?.[1] : undefined);
      const where = named ? inlineCode(port ? `${named}:${port}` : named) : 'the host and port the step used (the log does not name them here)';
      const mn = near(named, port ? `${named}:${port}` : undefined);
      const loopback = named !== undefined && /^(?:127(?:\.\d{1,3}){3}|localhost|\[?::1\]?|0\.0\.0\.0)$/i.test(named);
      if (loopback && /refused|Couldn't connect to server|Failed to connect|ECONNREFUSED/i.test(f.message)) {
        // The agent itself: no registry, mirror or outage elsewhere; a service of the build's own (or the agent's) is not listening there.
        steps.push(`Nothing listened on ${where} on the agent itself ${mn}: a service the build starts (or expects on the agent) was not listening on that port when the step connected. Compare the port the step connects to with the port the service listens on (the script's or config's setting), and if the service starts in the same job, wait until it is listening before the step runs (${inlineCode(port ? `nc -vz ${host} ${port}` : `nc -vz ${host} PORT`)} on the agent shows whether it is).`);
      } else if (/refused|Couldn't connect to server|Failed to connect|ECONNREFUSED/i.test(f.message)) {
        steps.push(`Nothing accepted the connection on ${where} ${mn}: check that the service the step calls is running and listening there (${named ? inlineCode(port ? `nc -vz ${host} ${port}` : `curl -sSI ${host}`) : `${inlineCode('nc -vz HOST PORT')} with the step's host and port`} from the agent), and that the address and port the build uses are the right ones (the script's variable, the tool's setting: \`.npmrc\` registry, \`pip.conf\` index, \`settings.xml\` mirror).`);
      } else if (/resolve|name resolution|Name or service not known|ENOTFOUND|EAI_AGAIN|no such host|UnknownHost|nodename nor servname/i.test(f.message)) {
        steps.push(`The agent could not look up ${where} ${mn}: check the name (a typo, an internal host the agent's DNS does not know: ${inlineCode(`nslookup ${host}`)} from the agent), or point the tool at a mirror it can reach (\`settings.xml\`, \`pip.conf\` / \`--index-url\`, \`.npmrc\`, \`http_proxy\`).`);
      } else {
        steps.push(`From the agent, check that ${where} answers (${inlineCode(`curl -sSI https://${host}`)}), and the proxy or mirror settings the tool uses (\`settings.xml\`, \`pip.conf\`, \`.npmrc\`, \`http_proxy\`) ${at(f.evidence.find((n) => n !== f.message_line) ?? f.message_line)}.`);
      }
      if (f.dependency) steps.push(`${capital(toolName(f))} needed ${inlineCode(f.dependency)} from it ${at(f.evidence.find((n) => n !== f.message_line) ?? f.message_line)}: once the host answers (or the mirror has it), the install can go through.`);
      if (!loopback) steps.push('If it answers now, the outage was transient: re-run the build.');
      break;
    }
    case 'disk-full': {
      const target = /(?:write|writing|open|create|copy|cannot \w+)\s+['"`]?([\w./~-]+)['"`]?[:,]?\s*(?:No space left|ENOSPC)|ENOSPC[^'"`]*['"`]([^'"`]+)['"`]|([\w./~-]+\/[\w.-]+): No space left/i.exec(f.message);
      const path = target ? (target[1] ?? target[2] ?? target[3]) : undefined;
      if (path) steps.push(`The write that failed was to ${inlineCode(path)} ${m}: the filesystem that holds it is full, with no space left (\`df -h ${path.includes('/') ? path.slice(0, path.lastIndexOf('/')) || '/' : '.'}\` on the agent shows it).`);
      steps.push(`Free space on the agent that ran the build (\`df -h\`; old workspaces, build caches, \`docker system prune\`) and re-run ${m}.`);
      break;
    }
    case 'out-of-memory':
      if (/^MemoryError/.test(f.message) || f.exception === 'MemoryError') {
        steps.push(`Python could not allocate more memory ${m}${project ? ` at ${inlineCode(placeOf({ file: project.file, line: project.line }))} ${at(project.log_line)}` : ''}: make that code hold less at once (iterate instead of building whole lists), or give the step more memory (a larger agent, a higher \`ulimit -v\` or container limit).`);
        break;
      }
      if (allocationHint(f, m)) steps.push(allocationHint(f, m) as string);
      // Metaspace is class metadata, not heap: -Xmx does not help (its step comes from the diagnostic table).
      if (/OutOfMemoryError: Metaspace/.test(f.message)) break;
      steps.push(f.exception === 'OutOfMemoryError' ? `Give the JVM more heap (\`-Xmx\` in \`MAVEN_OPTS\`, \`org.gradle.jvmargs\`, the test JVM's \`argLine\`) or find what grows: the trace names the allocating code ${m}.` : /heap out of memory/i.test(f.message) ? `Raise Node's heap (\`NODE_OPTIONS=--max-old-space-size=4096\`) or reduce what the step loads ${m}.` : `Give the step more memory (a larger agent or container limit) or reduce what it runs at once (fewer parallel jobs${/\bmake\b/.test(f.tool ?? '') ? ', e.g. `make -j2`' : ''}) ${m}.`);
      break;
    case 'timeout-aborted': {
      const stuck = project ?? loc?.frames?.raise;
      const limit = /(?:timed out after|exceeded (?:the )?(?:timeout of|time ?limit of)?|timeout of|Timeout (?:after|of)|after|timeout:?)\s*(\d+(?:\.\d+)?\s*(?:ms|milliseconds?|s|sec(?:onds?)?|m|min(?:utes?)?|h)\b)/i.exec(f.message)?.[1];
      if (limit) steps.push(`The limit that ran out: ${inlineCode(limit)} ${m}.`);
      if (f.test) {
        // Only a goroutine dump shows where a test was when it was stopped; jest's stack names where the test was declared.
        const where = stuck && f.tool === 'go test' ? `; when it was stopped it was at ${inlineCode(placeOf({ file: stuck.file, line: stuck.line }))}${stuck.function ? ` (in ${inlineCode(stuck.function)})` : ''} ${at(stuck.log_line)}` : loc?.line !== undefined ? `; the log points at ${inlineCode(placeOf(loc))}` : '';
        steps.push(`The test ${inlineCode(f.test.name)} ${at(f.test.log_line)} did not finish within the time limit ${m}${where}. Look there for what it waits on that never comes: ${waitsOf(f)}, a server that never answers; raise the limit only if the work really takes that long.`);
      } else if (abortedBy(f.message)) {
        // A person stopped it: no limit ran out, so there is no limit to raise (issue 25, claims review).
        steps.push(`${inlineCode(abortedBy(f.message) as string)} stopped the build ${m}; the log does not say why. Ask them, or run the build again if it was stopped by mistake.`);
      } else {
        steps.push(`Find what the step was doing when it was stopped (the lines before ${m}): a hung test, a service that never came up, a slow download; raise the time limit only if the work really takes that long.`);
      }
      break;
    }
    case 'permission-credentials':
      steps.push(
        /\bNo public key\b|\bNO_PUBKEY\b|\bNOKEY\b/.test(f.message)
          ? `The signature cannot be checked: the signer's public key is not in the keyring the step uses ${m}. Import it there first (\`gpg --import <key file>\`, a key committed to the repository or fetched from a trusted source), then verify again.`
          : /\bBAD signature\b|\bsignature verification failed\b|\bsignatures? (?:is |are )?invalid\b/i.test(f.message)
            ? `The signature does not match the file ${m}: the file changed after it was signed, or the signature is for another file; fetch both again from the source, and do not skip the check.`
            : /Permission denied/.test(f.message) && !/publickey|git@|remote/i.test(f.message)
          ? `If it is a script, make it executable in git (\`git update-index --chmod=+x <file>\`) or call it through its interpreter; if it is a file, check who owns the workspace (\`ls -l\`) ${m}.`
          : f.host
            ? `Check the credentials the step uses for ${inlineCode(f.host)}: present, not expired, and with access ${m}.`
            : `Check the credentials or permissions of what the step accessed (the log names no host): present, not expired, and with access ${m}.`,
      );
      break;
    case 'missing-tool': {
      const std = /package ([\w/]+) is not in (?:GOROOT|std) \((?:\S*?go-?([\d.]+)\/)?/.exec(f.message);
      if (std) {
        const since = GO_STD_SINCE[std[1] as string];
        steps.push(`${inlineCode(std[1] as string)} is a standard-library package ${since ? `since Go ${since}` : 'of a newer Go'}, and the Go that ran the build${std[2] ? ` is go${std[2]}` : ' is older'} ${m}: build with Go ${since ?? 'of that release'} or newer on the agent (the image or tool installer the step uses; \`go version\` in the step shows it) and say so in \`go.mod\` (${inlineCode(`go ${since ?? '<version>'}`)}), or avoid the package.`);
        break;
      }
      const release = /release version (\d+) not supported|invalid (?:target|source) release: (\d+)/.exec(f.message);
      if (release) {
        const v = (release[1] ?? release[2]) as string;
        steps.push(`The build asks javac for Java ${v} and the JDK that ran it is older ${m}: run the build on JDK ${v} or newer (install it on the agent and point \`JAVA_HOME\` at it, a \`tools { jdk }\` entry, or a Maven toolchain), or lower \`maven.compiler.release\` to what the agent's JDK supports and drop the newer language features.`);
        break;
      }
      // A wording the diagnostic table knows (a pytest plugin's flag) gives the specific step below instead of this general one.
      if (!f.symbol && diagnosticHint(f.message)) break;
      steps.push(
        f.symbol
          ? `Install ${inlineCode(f.symbol)} on the agent or run the step where it exists (a \`tools {}\` entry, a Docker image that has it, an agent label); \`which ${f.symbol}\` in the step shows what the agent sees ${m}.`
          : /\d+\.\d+/.test(f.message)
            ? `Use the tool version the message names on the agent ${m}.`
            : `Install or enable on the agent what the message says is missing ${m}.`,
      );
      break;
    }
    case 'lint': {
      // go vet's printf check names the argument's type: the verb that prints that type.
      const vet = /format (%\w) has arg (\S+) of wrong type (\*?[\w.[\]]+)/.exec(f.message);
      if (vet) {
        const type = vet[3] as string;
        const verb = type === 'string' || type === '[]byte' ? '%s' : /^u?int\d*$|^byte$|^rune$/.test(type) ? '%d' : /^float/.test(type) ? '%g' : type === 'bool' ? '%t' : type.startsWith('*') ? '%p' : '%v';
        steps.push(`${inlineCode(vet[2] as string)} is a ${inlineCode(type)}, which ${inlineCode(vet[1] as string)} does not print: use ${inlineCode(verb)} for it (or ${inlineCode('%v')}, which prints any value) ${m}.`);
      }
      // The place and rule are read off the report; the citation is the report's message, so they do not sit next to it.
      steps.push(`${place ? `Fix ${place}` : 'Fix what the check reports (the log names no file or line for it)'} as the tool reports it ${m}${f.code ? ` (rule ${inlineCode(f.code)})` : ''}${lintFixCommand(f) ? `, or let the tool fix what it can: ${inlineCode(lintFixCommand(f) as string)}` : ''}.`);
      break;
    }
    case 'ci-script':
      if (f.tool === 'make' && f.symbol) {
        steps.push(`The command asks make for the target ${inlineCode(f.symbol)}, and the Makefile has no rule for it ${m}: add a ${inlineCode(`${f.symbol}:`)} rule to the Makefile, or drop ${inlineCode(f.symbol)} from the make command in the CI script (${inlineCode('make -n ' + f.symbol)} checks it without running anything).`);
        break;
      }
      {
        // bash's `set -u`: a variable read that nothing set (not a syntax error: `bash -n` passes it).
        const unbound = /(?:^|:\s)([A-Za-z_]\w*): (?:unbound variable|parameter null or not set)/.exec(f.message);
        if (unbound) {
          const name = unbound[1] as string;
          steps.push(
            `The script reads ${inlineCode('$' + name)}${place ? ` at ${place}` : ''} and nothing set it ${m} (the shell runs with ${inlineCode('set -u')}, so an unset variable stops it): set ${inlineCode(name)} in the job's environment or parameters, or give it a default where it is read, ${inlineCode('${' + name + ':-<default>}')}.`,
          );
          break;
        }
        // `bash -e` and `(( n++ ))`: the post-increment's value is the old one, 0 is status 1.
        const arith = /^\(\(\s*([A-Za-z_]\w*)(\+\+|--)\s*\)\)$/.exec(f.message.trim());
        if (arith) {
          const [, name, op] = arith as unknown as [string, string, string];
          steps.push(`Nothing printed an error: the script stopped on ${inlineCode(f.message)} ${m}. Under \`bash -e\`, ${inlineCode(`(( ${name}${op} ))`)} has the value ${inlineCode(name)} had before, and when that is 0 the command's status is 1, so \`-e\` ends the script. Write ${inlineCode(`(( ${name}${op === '++' ? '+=' : '-='}1 ))`)} or ${inlineCode(`${name}=$((${name} ${op === '++' ? '+' : '-'} 1))`)} instead.`);
          break;
        }
        if (/^\(\(.+\)\)$|^let /.test(f.message.trim())) {
          steps.push(`Nothing printed an error: under \`bash -e\` the arithmetic command ${inlineCode(f.message)} evaluated to 0, which is exit status 1, and the script stopped there ${m}. Make the command's value non-zero, or write it as an assignment (${inlineCode('x=$(( ... ))')}) or append ${inlineCode('|| true')} where 0 is a valid result.`);
          break;
        }
        if (f.tool === 'npm' && f.symbol) {
          steps.push(`The step runs ${inlineCode(`npm run ${f.symbol}`)}, and \`package.json\` has no ${inlineCode(f.symbol)} script ${m}: add it to \`scripts\` in \`package.json\`, or run the name the script has now (\`npm run\` lists them) in the CI script.`);
          break;
        }
        if (f.tool === 'git' && f.symbol) {
          steps.push(`git does not know ${inlineCode(f.symbol)} in this checkout ${m}: the tag, branch or commit the script names does not exist here. Check where the script gets the revision from (a file, a variable, a parameter) and that it names one that exists (\`git tag -l\` lists the tags, \`git describe --tags\` shows the latest); if it should exist, fetch it (\`git fetch --tags\`).`);
          break;
        }
        if (f.tool === 'sh' || f.tool === 'bash') {
          steps.push(/syntax error|unexpected (?:EOF|end of file|token)/i.test(f.message) ? `Fix the shell script's syntax at the line the shell names ${m}; \`bash -n <script>\` checks it without running it.` : `Fix the shell script at the line the shell names ${m}, as its message says.`);
          break;
        }
        // The pipeline's own script only when the error is Jenkins' (WorkflowScript, a step); another tool's refusal is of the command the CI script ran.
        steps.push(f.tool === 'jenkins' || f.tool === undefined ? `Fix the pipeline script${place ? ` at ${place}` : ''} as the message says ${m}; Replay on the build's page lets you try the edit without a commit.` : `Fix the ${inlineCode(f.tool)} command the CI script runs (or the file it reads its settings from)${place ? ` at ${place}` : ''} as the message says ${m}.`);
      }
      break;
    case 'agent-lost':
      steps.push(`Check the agent: its log on the controller (Manage Jenkins › Nodes), its memory and disk, and the network between them; then re-run ${m}.`);
      break;
    case 'unknown':
      unsure = `I can't tell what the fix is: the log's error ${m} matches no failure class I can establish.`;
      steps.push(`Start from ${inlineCode(clip(f.message, 200))} ${m} and the command that printed it.`);
      break;
  }
  // What the diagnostic's own wording asks for, whatever the class (a pytest plugin's flag, a script without its executable bit):
  // after the step that names the place (a raise site, a compiler's or linter's line), first where the class's own first step is general.
  const said2 = diagnosticHint(f.message);
  const placeFirst = ['compile-error', 'lint', 'test-error', 'runtime-exception', 'test-assertion'].includes(f.class);
  if (said2) steps.splice(placeFirst ? Math.min(1, steps.length) : 0, 0, citedAfter(said2, m));
  return { steps, ...(unsure ? { unsure } : {}) };
}

/** A symbol the linker found defined twice (GNU ld, lld, Apple ld). */
export const DUPLICATE_SYMBOL = /(?:multiple definition of|duplicate symbol:?)\s*[`'‘"_]*([A-Za-z_][\w:]*)/;

/** The diagnostic without the place it names (`src/a.ts(5,30): error TS2339: X` -> `X`). */
function diagnosticText(f: Finding): string {
  return f.message
    .replace(/^(?:e|w|E): (?:file:\/\/)?/, '')
    .replace(/^\S+?(?:\(\d+,\d+\)|:\[\d+,\d+\]|:\d+(?::\d+)?)[:\s-]*/, '')
    .replace(/^(?:fatal )?error(?:\[\w+\]| TS\d+)?:\s*/, '')
    .trim() || f.message;
}

/** The Go release that added a standard-library package (the ones code most often reaches for first). */
const GO_STD_SINCE: Record<string, string> = { slices: '1.21', maps: '1.21', cmp: '1.21', 'log/slog': '1.21', 'math/rand/v2': '1.22', iter: '1.23', unique: '1.23', 'crypto/ecdh': '1.20', 'net/netip': '1.18', 'io/fs': '1.16', embed: '1.16', 'testing/slogtest': '1.21', 'go/version': '1.22', 'crypto/mlkem': '1.24', weak: '1.24', 'crypto/sha3': '1.24' };
