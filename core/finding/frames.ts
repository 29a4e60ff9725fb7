/**
 * Stack traces in a failure's window, per runtime: Python tracebacks, JVM stack traces, Node
 * stacks, Go panics (goroutine dumps) and Rust panics. Each frame is read with its file and line;
 * the raise site is the innermost frame, the project frame the innermost one that is the
 * project's own code (not the standard library, an installed package, the runtime or a test
 * framework).
 */
import type { FindingFrame } from '../../protocol/types.js';
import { grammarFramesOf, isGrammarTraceLine, type GrammarRuntime } from './uncaught.js';

export type TraceKind = 'python' | 'jvm' | 'node' | 'go' | 'rust' | 'ruby' | 'native' | 'dotnet' | GrammarRuntime;

export interface Trace {
  kind: TraceKind;
  /** Frames innermost first. */
  frames: (FindingFrame & { library: boolean })[];
}

/** File "/ws/app/x.py", line 42, in total */
const PY_FRAME = /^\s*File "([^"]+)", line (\d+)(?:, in (\S+))?/;
/**
 * pytest's long form: `tests/test_x.py:12: in test_y` and the raise site `app/x.py:7: TypeError`; its
 * `--tb=line` form names the raise site with the exception's words: `/ws/tests/test_x.py:13: AssertionError:
 * assert 1 == 2` (a capitalised exception name; Python's own `x.py:3: DeprecationWarning: ...` is no frame).
 */
const PYTEST_FRAME = /^((?:[A-Za-z]:)?[^\s:()"']+\.py):(\d+):\s+(?:in (\S+)|(\w+(?:\.\w+)*)|(?:\w+\.)*[A-Z]\w*(?<!Warning): \S.*)\s*$/;
/** at com.example.Foo.bar(Foo.java:42)  /  at Foo.bar(Native Method) */
// A frame may name its class loader and module (`java.base@17/`, `app//`: the application loader, no module).
// Maven's own logger (`mvn -e`, MavenSimpleLogger) prints a space before the parenthesis: `at
// org.apache.maven.Foo.bar (Foo.java:269)`; only a JVM source file (or `Native Method`, `Unknown Source`) is
// read there, so a Node frame (`at fn (file.js:1:2)`) is never taken for one.
const JVM_FRAME = /^\s*at (?:[\w.$-]+(?:@[\w.-]+)?\/{1,2})?((?:[\w$]+\.)*)([\w$]+)\.([\w$<>]+)(?:\(| \((?=(?:[\w$]+\.(?:java|kt|groovy|scala)(?::\d+)?|Native Method|Unknown Source)\)\s*$))([^():]+?)(?::(\d+))?\)\s*$/;
/** at fn (/ws/src/x.js:12:5)  /  at /ws/src/x.js:12:5  /  at async fn (file:///x.mjs:1:2) */
const NODE_FRAME = /^\s*at (?:async )?(?:(.+?) \()?(?:file:\/\/)?((?:[A-Za-z]:)?[^\s():]+|node:[\w/]+|internal\/[\w/]+):(\d+):(\d+)\)?(?: \{)?\s*$/;
/** node --test's YAML stack: `    TestContext.<anonymous> (/ws/test/x.test.js:6:10)` (no `at`). */
const NODE_YAML_FRAME = /^\s+([\w$.<>[\] ]+) \((?:file:\/\/)?((?:[A-Za-z]:)?\/[^\s():]+|node:[\w/]+):(\d+):(\d+)\)\s*$/;
/** vitest's pointer under a failure: `❯ src/cart.test.js:10:59`, with the function when there is one (`❯ formatAmount src/money.js:2:10`) */
const VITEST_FRAME = /^\s*❯ (?:([\w$.<>]+) )?((?:[A-Za-z]:)?[^\s:()]+):(\d+):(\d+)\s*$/;
/** Go: `main.divide(...)` then `\t/ws/main.go:12 +0x1d` */
const GO_FUNC = /^\s*((?:[\w.-]+\/)*[\w.-]+\.(?:\(\*?[\w]+\)\.)?[\w.]+)\((?:[^)]*)\)\s*$/;
// A fatal error's dump (`runtime.throw`: out of memory, concurrent map writes) adds the frame's registers: ` +0x265 fp=0xc0 sp=0xc0 pc=0x48`.
const GO_FILE = /^\s+((?:[A-Za-z]:)?\/?[^\s:]+\.go):(\d+)(?: \+0x[0-9a-f]+)?(?: fp=0x[0-9a-f]+ sp=0x[0-9a-f]+ pc=0x[0-9a-f]+)?\s*$/;
/** Rust: `thread 'main' panicked at src/main.rs:12:5:` and the older `panicked at 'msg', src/main.rs:12:5` */
/** Ruby: `    /ws/app/models/user.rb:12:in `save'` (minitest, rspec, a script's backtrace; a Rakefile's tasks too). */
const RUBY_FRAME = /^\s*(?:from |# )?((?:[A-Za-z]:)?(?:[^\s:]+\.(?:rb|rake|erb)|(?:[^\s:]*\/)?(?:Rakefile|Gemfile|Guardfile|Capfile))):(\d+):in [`']([^'`]+)'(?:: .*)?\s*$/;
const RUBY_LIBRARY = /(?:^|\/)(?:gems|rubies|\.rvm|lib\/ruby|vendor\/bundle|minitest|rspec-core)\//;
/** A sanitizer's (ASan, UBSan, LSan) symbolized frame: `    #1 0x563dbb21e009 in join_path /ws/src/paths.c:11:5` (frames without a source line name a binary). */
const NATIVE_FRAME = /^\s*#(\d+) 0x[0-9a-f]+ in (.+?) ((?:[A-Za-z]:)?[^\s:()]+):(\d+)(?::(\d+))?\s*$/;
const NATIVE_ANY_FRAME = /^\s*#(\d+) (?:0x[0-9a-f]+ (?:in )?|[\w:~<>]+ \S+:\d+(?::\d+)? \([^()\s]+\+0x[0-9a-f]+\)$)/;
/** ThreadSanitizer's frame: `    #0 worker src/stats.c:13 (stats+0x11bf)`. */
const TSAN_FRAME = /^\s*#(\d+) ([\w:~<>]+) ((?:[A-Za-z]:)?[^\s:()]+):(\d+)(?::(\d+))? \([^()\s]+\+0x[0-9a-f]+\)\s*$/;
const NATIVE_LIBRARY = /^(?:csu\/|\.\.\/|\/usr\/|\/build\/|\/lib)|(?:^|\/)(?:sysdeps|compiler-rt|libsanitizer|libstdc\+\+|glibc[\w.-]*)\//;
/**
 * .NET: `   at Shop.Cart.Total() in /ws/src/Cart.cs:line 14` (a frame with its source, from the symbols file); a frame
 * without ` in ` (the framework's, no symbols) names no line and is not read.
 */
const DOTNET_FRAME = /^\s*at (.+?) in ((?:[A-Za-z]:)?[^:]+?\.(?:cs|fs|vb)):line (\d+)\s*$/;
const DOTNET_LIBRARY = /^(?:System|Microsoft|Xunit|NUnit|MSTest|Moq|Castle|FluentAssertions|Shouldly|Newtonsoft|Polly|Serilog)\./;
const RUST_PANIC = /panicked at (?:'.*', |".*", )?((?:[A-Za-z]:)?[^\s:']+\.rs):(\d+):(\d+):?\s*$/;

// A virtualenv's or the system's bin/ holds installed console scripts (`venv/bin/coverage`, `/usr/bin/alembic`: a
// package's entry point), never the project's source (session 46, t21); a project's own bin/ directory is not matched.
const PY_LIBRARY = /(?:^|\/)(?:site-packages|dist-packages|lib\/python\d[\d.]*|_pytest|pluggy|unittest|importlib|<frozen [^>]+>)(?:\/|$)|^<[^>]+>$|(?:^|\/)(?:\.?venv|virtualenv|\.tox\/[\w.-]+|\.nox\/[\w.-]+)\/bin\/[^/]+$|^\/usr\/(?:local\/)?bin\/[^/]+$/;
const JVM_LIBRARY =
  /^(?:java|javax|jdk|sun|com\.sun|kotlin|kotlinx|scala|groovy|org\.codehaus|org\.sonatype|org\.junit|junit|org\.opentest4j|org\.apache|org\.gradle|org\.jenkinsci|hudson|jenkins|org\.springframework|org\.testng|org\.mockito|org\.assertj|org\.hamcrest|com\.google|io\.netty|reactor|org\.eclipse|worker\.org\.gradle|org\.kohsuke|com\.cloudbees|org\.jboss|org\.hibernate|com\.fasterxml|org\.slf4j|ch\.qos|net\.bytebuddy|okhttp3|io\.grpc)\./;
/** Node's own and libraries' files, and the code `node -e`/`-p` was given (`[eval]`, `[eval]-wrapper`: no file of the project's). */
const NODE_LIBRARY = /(?:^|\/)node_modules\/|^node:|^internal\/|\/jest-[\w-]+\/|\/vitest\/|^\[eval\]/;
const GO_LIBRARY = /(?:^|\/)_testmain\.go$|^(?:\/usr\/(?:local\/)?(?:lib\/)?go(?:-[\d.]+)?\/src\/|\/opt\/hostedtoolcache\/go\/|.*\/go\/pkg\/mod\/|runtime\/|testing\/|GOROOT\/)/;
const GO_LIBRARY_FUNC = /^(?:runtime|testing|reflect|sync|panic)\b|^panic\(/;
const RUST_BACKTRACE_AT = /^\s+at ((?:[A-Za-z]:)?[^\s:()]+\.rs):(\d+):(\d+)\s*$/;
const RUST_LIBRARY = /(?:^|\/)(?:\.cargo\/registry|rustc\/[0-9a-f]+|library\/(?:core|std|alloc))\//;

/** Lines of a stack trace or goroutine dump (or the blank lines inside one). */
// pytest's frame or raise-site line (`tests/t.py:9: in f`, `--tb=line`'s `/ws/t.py:13: AssertionError: ...`) and
// Hamcrest's mismatch (`Expected: is <3>` / `     but: was <2>`) between an exception and its frames too, and xUnit's
// (`Expected: 6` / `Actual:   5` / `  Stack Trace:`) between a failed test's message and its .NET frames.
const TRACE_LINE = /^\s*$|^goroutine \d+ \[|^[\w./*()-]+\(.*\)\s*$|^\t\S+\.go:\d+|^\s+at\s|^\s+File "|^created by |^\s*Caused by: |^\s+\.\.\. \d+ more|^[^\s:()"']+\.py:\d+: (?:in \S+$|(?:\w+\.)*[A-Z]\w*(?<!Warning)(?::|$))|^Expected: \S|^\s+but: \S|^Actual: +\S|^\s*Stack Trace:$/;

/** A line a message never runs on to: a command of the script, a CI mark, a new exception's heading, a backtrace's own lines (Rust's). */
const NOT_CONTINUATION = /^\s*(?:\+ |\$ |\[Pipeline\]|##\[)|^\s*Exception in thread "|^\s*(?:[\w$]+\.)*[\w$]*(?:Error|Exception)\b(?: \[\w+\])?:|^\s*stack backtrace:|^\s+\d+: \S/;

/** The heading of Node's assert's and mocha's diff of the values. */
const VALUES_DIFF = /^\s*\+ (?:actual - expected|expected - actual)\s*$/;
/** What ends that diff short of the frames: a CI mark, the runner's next failure or summary, the build's end. */
const DIFF_ENDS = /^\s*(?:\[Pipeline\]|##\[|\d+\) \S|\d+ (?:passing|failing|pending)\b|Build step |Finished: )/;
/** How many lines below the message a diff's frames may be. */
const DIFF_REACH = 80;

/**
 * The last line (0-based) of the trace below a window that ends at `end`: read on while the lines look like a
 * trace. A message may run on over its frames (Node's `ReferenceError: require is not defined in ES module scope`
 * over its `This file is being treated as an ES module ...` line, a JVM exception's several lines): up to 6 further
 * lines of it are passed when a frame (`    at ...`) follows them, none of them a command, a CI mark or another exception;
 * under a diff of the values (VALUES_DIFF) up to DIFF_REACH lines.
 */
export function traceEndBelow(line: (i: number) => string, end: number, count: number, limit: number): number {
  let traceEnd = end;
  const onTrace = (): void => {
    while (traceEnd + 1 < count && traceEnd - end < limit && (TRACE_LINE.test(line(traceEnd + 1)) || isGrammarTraceLine(line(traceEnd + 1)))) traceEnd++;
  };
  onTrace();
  // Blank lines alone are no trace: a message may go on under them (AssertJ's `java.lang.AssertionError: `, a blank
  // line, its sentence and values, a blank line, then the frames).
  // A window that ends on its trace's own lines (`... 15 more`) is done at the blank line: what follows is another report.
  let filled = traceEnd;
  while (filled > end && line(filled).trim() === '') filled--;
  if (filled > end || (traceEnd > end && line(end).trim() !== '' && TRACE_LINE.test(line(end)))) return traceEnd;
  traceEnd = end;
  // Node's assert (`+ actual - expected`) and mocha (`+ expected - actual`) print a diff of the values between the
  // message and its frames, as long as the values are: its lines (`+   '3',`) are no script's commands.
  let diff = false;
  for (let k = end + 1; k < Math.min(count, end + (diff ? DIFF_REACH : 8)); k++) {
    const t = line(k);
    if (NODE_FRAME.test(t) || JVM_FRAME.test(t)) {
      traceEnd = k;
      onTrace();
      return traceEnd;
    }
    if (VALUES_DIFF.test(t)) diff = true;
    else if (diff ? DIFF_ENDS.test(t) : k === end + 7 || NOT_CONTINUATION.test(t)) break;
  }
  return end;
}

/** The frames of the traces in `lines` (log line of lines[0] is `firstLine`), one Trace per kind seen. */
export function tracesIn(lines: readonly string[], firstLine: number): Trace[] {
  const py: Trace = { kind: 'python', frames: [] };
  const jvm: Trace = { kind: 'jvm', frames: [] };
  const node: Trace = { kind: 'node', frames: [] };
  const go: Trace = { kind: 'go', frames: [] };
  const rust: Trace = { kind: 'rust', frames: [] };
  const ruby: Trace = { kind: 'ruby', frames: [] };
  const native: Trace = { kind: 'native', frames: [] };
  const dotnet: Trace = { kind: 'dotnet', frames: [] };
  let nativeDone = false;
  let nativeSeen = false;
  let jvmDone = false;
  // The frames of the exception a `Caused by:` is the cause of: its `... N more` are their last N.
  let enclosing: Trace['frames'] = [];
  // The frames of every wrapper a `Caused by:` replaced, outermost first.
  const wrappers: Trace['frames'][] = [];
  let nodeDone = false;
  // Every JVM frame read, wrappers' and causes' alike.
  const jvmSeen: Trace['frames'] = [];
  // The frames of the runtimes whose grammar uncaught.ts knows, innermost first as they print them.
  const grammar = new Map<GrammarRuntime, Trace>();
  // Python's implicit chain (`During handling of the above exception, another exception occurred:`): each link's
  // frames, the exception that was being handled first.
  const pyLinks: Trace['frames'][] = [[]];
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] ?? '';
    const line = raw.replace(/^\s*(?:\[\w+\]\s+)?/, (m) => (m.includes('[') ? ' ' : m)).replace(/^E\s{2,}/, '');
    const log_line = firstLine + i;
    const known = grammarFramesOf(raw);
    if (known) {
      const trace = grammar.get(known.runtime) ?? { kind: known.runtime, frames: [] };
      grammar.set(known.runtime, trace);
      trace.frames.push(...known.frames.map((f) => ({ ...f, log_line })));
      continue;
    }
    let m = PY_FRAME.exec(line);
    if (m) {
      const file = m[1] as string;
      py.frames.push({ file, line: Number(m[2]), ...(m[3] ? { function: m[3] } : {}), log_line, library: PY_LIBRARY.test(file) });
      pyLinks[pyLinks.length - 1]?.push(py.frames[py.frames.length - 1] as Trace['frames'][number]);
      continue;
    }
    if (/^During handling of the above exception, another exception occurred:$/.test(line.trim()) && py.frames.length > 0) {
      pyLinks.push([]);
      continue;
    }
    m = PYTEST_FRAME.exec(line.trim());
    if (m) {
      const file = m[1] as string;
      py.frames.push({ file, line: Number(m[2]), ...(m[3] ? { function: m[3] } : {}), log_line, library: PY_LIBRARY.test(file) });
      continue;
    }
    m = JVM_FRAME.exec(line);
    if (m && !jvmDone) {
      const pkg = m[1] ?? '';
      const file = m[4] as string;
      const lineNo = m[5] ? Number(m[5]) : 0;
      // The package gives the directories: com/example/Foo.java.
      const path = /\.(?:java|kt|groovy|scala)$/.test(file) ? [...pkg.replace(/\.$/, '').split('.').filter(Boolean), file].join('/') : file;
      // An enum's `valueOf` called by `java.lang.Enum.valueOf` is the compiler's, at the enum's declaration line: the
      // project's own frame is its caller (which passed the name that has no constant).
      const generated = m[3] === 'valueOf' && jvm.frames[jvm.frames.length - 1]?.function === 'java.lang.Enum.valueOf';
      if (lineNo > 0) jvm.frames.push({ file: path, line: lineNo, function: `${pkg}${m[2]}.${m[3]}`, log_line, library: generated || JVM_LIBRARY.test(pkg) });
      if (lineNo > 0) jvmSeen.push(jvm.frames[jvm.frames.length - 1] as Trace['frames'][number]);
      continue;
    }
    // Gradle's short test report: `    java.lang.AssertionError at BackoffTest.java:15`.
    m = /^\s+((?:[\w$]+\.)*[\w$]+(?:Exception|Error|Failure)\w*) at ([\w$]+\.(?:java|kt|groovy|scala)):(\d+)\s*$/.exec(line);
    if (m && !jvmDone) {
      jvm.frames.push({ file: m[2] as string, line: Number(m[3]), log_line, library: false });
      continue;
    }
    // A `Caused by:` starts the next exception's frames: the innermost cause is the one that matters,
    // so its frames replace the wrapper's.
    if (/^\s*Caused by: /.test(line) && jvm.frames.length > 0) {
      enclosing = jvm.frames;
      wrappers.push(jvm.frames);
      jvm.frames = [];
      continue;
    }
    // `... 1 more`: the cause's outer frames are the enclosing exception's last ones (the JVM prints them
    // once), where the project's own frame often is (`NoClassDefFoundError` at `Main.main` over a loader's `ClassNotFoundException`).
    m = /^\s*\.\.\. (\d+) more$/.exec(line);
    if (m && !jvmDone && enclosing.length > 0) {
      jvm.frames.push(...enclosing.slice(-Number(m[1])));
      enclosing = [];
      continue;
    }
    // A Rust backtrace's source line under its frame (`   6: poller::pause_after` / `at ./src/main.rs:14:5`), after the
    // panic's own place: innermost first, as the panic prints them (Node's `at file:line:col` form, a `.rs` file).
    m = RUST_BACKTRACE_AT.exec(line);
    if (m && rust.frames.length > 0) {
      const file = (m[1] as string).replace(/^\.\//, '');
      rust.frames.push({ file, line: Number(m[2]), column: Number(m[3]), log_line, library: RUST_LIBRARY.test(file) });
      continue;
    }
    m = NODE_FRAME.exec(line) ?? NODE_YAML_FRAME.exec(line);
    if (m && !nodeDone) {
      const file = m[2] as string;
      node.frames.push({ file, line: Number(m[3]), column: Number(m[4]), ...(m[1] ? { function: m[1] } : {}), log_line, library: NODE_LIBRARY.test(file) });
      continue;
    }
    m = VITEST_FRAME.exec(line);
    if (m && !nodeDone) {
      const file = m[2] as string;
      node.frames.push({ file, line: Number(m[3]), column: Number(m[4]), ...(m[1] ? { function: m[1] } : {}), log_line, library: NODE_LIBRARY.test(file) });
      continue;
    }
    m = GO_FUNC.exec(line);
    if (m) {
      const next = GO_FILE.exec(lines[i + 1] ?? '');
      if (next) {
        const file = next[1] as string;
        const fn = m[1] as string;
        go.frames.push({ file, line: Number(next[2]), function: fn, log_line: log_line + 1, library: GO_LIBRARY.test(file) || GO_LIBRARY_FUNC.test(fn) });
        i++;
        continue;
      }
    }
    m = DOTNET_FRAME.exec(line);
    if (m) {
      const fn = (m[1] as string).replace(/\(.*$/, '');
      dotnet.frames.push({ file: m[2] as string, line: Number(m[3]), function: fn, log_line, library: DOTNET_LIBRARY.test(fn) });
      continue;
    }
    m = RUBY_FRAME.exec(line);
    if (m) {
      const file = m[1] as string;
      ruby.frames.push({ file, line: Number(m[2]), function: m[3] as string, log_line, library: RUBY_LIBRARY.test(file) });
      continue;
    }
    // A sanitizer's report: the first stack is where the error happened; the next `#0` starts
    // another (where the memory was allocated or freed).
    m = NATIVE_ANY_FRAME.exec(line);
    if (m) {
      if (m[1] === '0' && nativeSeen) nativeDone = true;
      nativeSeen = true;
      const f = NATIVE_FRAME.exec(line) ?? TSAN_FRAME.exec(line);
      if (f && !nativeDone) {
        const file = f[3] as string;
        native.frames.push({ file, line: Number(f[4]), ...(f[5] ? { column: Number(f[5]) } : {}), function: f[2] as string, log_line, library: NATIVE_LIBRARY.test(file) });
      }
      continue;
    }
    m = RUST_PANIC.exec(line);
    if (m) {
      const file = m[1] as string;
      rust.frames.push({ file, line: Number(m[2]), column: Number(m[3]), log_line, library: RUST_LIBRARY.test(file) });
      continue;
    }
    // A blank line after a JVM or Node stack ends it (a second trace is another failure).
    if (line.trim() === '') {
      if (jvm.frames.length > 0) jvmDone = true;
      if (node.frames.length > 0) nodeDone = true;
    }
  }
  markThirdParty(jvmSeen);
  // A cause wholly in the runtime (java.net.http's `ConnectException` raised on the client's own thread, its
  // `... 9 more` the thread pool's frames): the wrappers' frames follow it, innermost first, so the project's
  // frame that called into the failing operation (`at Smoke.main(Smoke.java:14)`) is still the project's place.
  if (jvm.frames.length > 0 && !jvm.frames.some((f) => !f.library)) {
    const seen = new Set(jvm.frames.map((f) => f.log_line));
    for (const f of [...wrappers].reverse().flat()) {
      if (seen.has(f.log_line)) continue;
      seen.add(f.log_line);
      jvm.frames.push(f);
    }
  }
  // An exception raised while another was being handled (a file's close after its write failed, a cleanup): the one
  // being handled is the failure, and the first link with a frame of the project's says where it happened (links wholly
  // in a library, a client's socket error under the project's call, give way to the next).
  // A handler that raised on purpose (its innermost frame's source line, printed under it, is a `raise`) reported its
  // own error there: the last link stays.
  const last = pyLinks[pyLinks.length - 1] ?? [];
  const innermost = last[last.length - 1];
  const raisedOnPurpose = innermost !== undefined && /^raise\b/.test((lines[innermost.log_line - firstLine + 1] ?? '').trim());
  const original = pyLinks.length > 1 && !raisedOnPurpose ? pyLinks.find((link) => link.some((f) => !f.library)) : undefined;
  if (original && original !== last) py.frames = [...original];
  // Python and pytest print the outermost frame first; the others the innermost first.
  py.frames.reverse();
  // The runtimes whose traces cannot be mistaken first: Node's `at file:line:col` also matches
  // a Rust backtrace's `at /rustc/...` lines.
  return [rust, go, py, jvm, node, ruby, native, dotnet, ...grammar.values()].filter((t) => t.frames.length > 0);
}

/** A JVM test class's simple name (JUnit's and TestNG's conventions: `DbTest`, `DbTests`, `DbIT`, `DbSpec`, `DbTestCase`). */
const JVM_TEST_CLASS = /^[A-Z][\w$]*(?:Test|Tests|IT|Spec|TestCase)$/;

/**
 * A third-party library's frames in a JVM trace that runs through a test class (`dev.acme.repo.DbTest.connects`):
 * the test class is the project's, and so is every class under its root package (its first two segments,
 * `dev.acme.`); a frame outside every such root (the JDBC driver's `org.postgresql.core.PGStream`) is a library's,
 * whatever its name. Without a test class in the trace, or one in the default package, nothing changes.
 */
function markThirdParty(frames: Trace['frames']): void {
  const roots = new Set<string>();
  for (const f of frames) {
    const parts = (f.function ?? '').split('.');
    const cls = parts[parts.length - 2] ?? '';
    if (f.library || parts.length < 4 || !JVM_TEST_CLASS.test(cls.replace(/\$.*$/, ''))) continue;
    roots.add(`${parts[0]}.${parts[1]}.`);
  }
  if (roots.size === 0) return;
  for (const f of frames) if (!f.library && f.function && ![...roots].some((r) => (f.function as string).startsWith(r))) f.library = true;
}

/**
 * The stack of the message at log line `at`: a runtime that prints its frames under the error (not
 * Python's, printed above it) may have printed an earlier stack (a test runner's `Died on test #1`
 * pointer over the exception's own `stack:`); the frames from the message on are its own, when one is the project's.
 */
export function ownStack(trace: Trace, at: number | undefined, from?: number): Trace {
  // A report whose frames are printed above its head (EUnit's, uncaught.ts `framesFrom`): those, and no other report's.
  if (at !== undefined && from !== undefined) return { ...trace, frames: trace.frames.filter((f) => f.log_line >= from && f.log_line < at) };
  if (at === undefined || trace.kind === 'python') return trace;
  const after = trace.frames.filter((f) => f.log_line >= at);
  // A cause's stack wholly in the runtime (`[cause]: Error: getaddrinfo` over node:dns) keeps the stack that reached it.
  return after.some((f) => !f.library) && after.length < trace.frames.length ? { ...trace, frames: after } : trace;
}

/** The raise site and the deepest project frame of a trace. */
export function framesOf(trace: Trace): { raise?: FindingFrame; project?: FindingFrame } {
  const strip = (f: FindingFrame & { library: boolean }): FindingFrame => {
    const { library: _library, ...frame } = f;
    return frame;
  };
  // A Go panic's dump starts in the runtime (`panic(...)`, `runtime.gopanic`): the raise site is
  // the first frame after those.
  const first = trace.kind === 'go' ? (trace.frames.find((f) => !GO_LIBRARY_FUNC.test(f.function ?? '')) ?? trace.frames[0]) : trace.frames[0];
  const own = trace.frames.find((f) => !f.library);
  return { ...(first ? { raise: strip(first) } : {}), ...(own ? { project: strip(own) } : {}) };
}

/**
 * A JVM compiler's command as a script runs it (`+ javac -d out app/dev/acme/app/Main.java`, `kotlinc src/Main.kt`): the
 * source files it names are the project's own; a frame of a class none of them declares (by file name) came built from
 * elsewhere, a jar on the classpath under lib/ or vendor/ (session 57, helper jv1).
 */
const JVM_COMPILE = /^(?:\+{1,3} |\$ |> )?(?:\S*\/)?(?:javac|kotlinc(?:-jvm)?|scalac|groovyc|ecj)(?:\.exe)?\s/;
const JVM_SOURCE_ARG = /(?:^|\s)['"]?(?:[^\s'"]*\/)?([\w$-]+\.(?:java|kt|scala|groovy))['"]?(?=\s|$)/g;

/** Per log: each compiler command's line index and the source file names it names (read once). */
const COMPILES = new WeakMap<readonly string[], [number, string[]][]>();

/** The file names of the JVM sources the log's compiler commands name, up to line index `end` (0-based, exclusive). */
export function compiledJvmSources(lines: readonly string[], lineAt: (i: number) => string, end: number): Set<string> {
  let commands = COMPILES.get(lines);
  if (commands === undefined) {
    commands = [];
    for (let i = 0; i < lines.length; i++) {
      const t = lineAt(i).trim();
      if (JVM_COMPILE.test(t)) commands.push([i, [...t.matchAll(JVM_SOURCE_ARG)].map((m) => m[1] as string)]);
    }
    COMPILES.set(lines, commands);
  }
  return new Set(commands.filter(([i]) => i < end).flatMap(([, names]) => names));
}

/**
 * A JVM trace's frames of classes built elsewhere (a vendored plugin jar's `dev.acme.plugins.GermanVat`): when the log's
 * compiler commands name the project's sources and a frame of the trace is one of them, every other frame not known as a
 * library's is a library's too, so the project's frame is the deepest of its own code (the caller of the jar), not the
 * jar's. Without such a command, or without a frame among its sources, nothing changes.
 */
export function markUncompiled(trace: Trace, sources: ReadonlySet<string>): void {
  if (trace.kind !== 'jvm' || sources.size === 0) return;
  const compiled = (f: FindingFrame): boolean => sources.has(f.file.replace(/^.*\//, ''));
  const own = trace.frames.filter((f) => !f.library);
  if (!own.some(compiled)) return;
  for (const f of own) if (!compiled(f)) f.library = true;
}
