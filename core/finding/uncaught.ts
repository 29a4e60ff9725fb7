/**
 * A language runtime's own grammar for an error nothing caught (issue 25, session 47, helper gr1;
 * docs/notes/analyzer.md "Session 47 (helper gr1)"). Each runtime prints an uncaught error in one fixed shape,
 * whatever the program's words: knowing the shape classes every program in that language. Here are the runtimes
 * whose shape the rules did not know (Erlang/escript/EUnit, Elixir/ExUnit, Lua, Tcl, R) and the frames of those and
 * of OCaml; Python, the JVM, Node, Go, Rust, Ruby and the C family keep theirs in tests.ts (`raisedIn`) and frames.ts.
 *
 * One grammar gives: the head line (the message), the exception's name, whether the report is the runtime's
 * rejection of the code before it ran (a syntax error the interpreter met loading the file: compile-error), a
 * test framework's report of a test's check (EUnit's `?assertEqual`: test-assertion) or of an error in a test
 * (EUnit's `**error:`: test-error), and the frames below or above it (file, line, function, library or not).
 * The real output each is read from: test/fixtures/grammar (made on this machine by its make.sh).
 */
import type { FindingFrame } from '../../protocol/types.js';

/** The runtimes whose grammar this module knows (the Raised runtime and the Trace kind they give). */
export type GrammarRuntime = 'erlang' | 'elixir' | 'lua' | 'tcl' | 'ocaml' | 'r' | 'php' | 'haskell';

/** The tool each runtime's trace names when its report does not (index.ts TOOL_OF_TRACE). */
export const GRAMMAR_TOOLS: Record<GrammarRuntime, string> = { erlang: 'erlang', elixir: 'elixir', lua: 'lua', tcl: 'tclsh', ocaml: 'ocaml', r: 'Rscript', php: 'phpunit', haskell: 'ghc' };

/** What a runtime's report of an uncaught error says: its head line, the exception, and how the runtime ended. */
export interface Uncaught {
  /** The line (index into the lines read) that carries the message. */
  index: number;
  text: string;
  exception: string;
  runtime: GrammarRuntime;
  tool: string;
  /** The interpreter rejected the code as it loaded it (a syntax error): nothing ran. */
  rejected?: true;
  /** A test framework reported it, so it was raised in a test; `check`: by one of the test's checks (an assertion). */
  inTest?: true;
  check?: true;
  /** The place the head line itself names (Lua's `file.lua:N:` prefix): the place when no frame is the project's. */
  place?: { file: string; line: number };
  /**
   * The runtime's own loader of packages raised it (Tcl's `package require`, R's `library()`): the package the code
   * loads, by name, is not installed (or not in the version asked for). A dependency, whatever the message's words.
   */
  unavailable?: string;
  /**
   * The code asked its loader for another version of the interpreter itself (Tcl registers itself as the package `Tcl`:
   * `package require Tcl 9.0` under an 8.6 tclsh says `version conflict for package "Tcl": have 8.6.13, need 9.0`): the
   * agent's interpreter, named here, is not the one the code needs, a missing tool (session 49).
   */
  interpreter?: string;
  /**
   * R's `download.file()` / `url()` could not open a URL, and R's warning below the error says why (`cannot open URL
   * '...': HTTP status was '404 Not Found'`, `URL '...': status was 'Couldn't resolve host name'`): that warning's line
   * (its index), the URL, its host and the reason. The error itself says only "cannot open URL" (session 56, fx20). Its
   * finding is the network's, its message that warning (index.ts; findingBase takes the report whose head is among the
   * evidence).
   */
  fetched?: { index: number; url: string; host: string; reason: string };
  /**
   * The first of the frames a test framework printed above the head (EUnit: `in function`, the innermost, then each
   * `in call from`): the report's own frames are those from here to the head, not the next failed test's below it.
   */
  framesFrom?: number;
}

export type GrammarFrame = Omit<FindingFrame, 'log_line'> & { library: boolean };

// ---- Erlang (erl_error's format of escript's and the shell's report, init's do_boot crash, EUnit's failure) ----

/**
 * `escript: exception error: no case clause matching skipped`; the shell's `** exception error: ...`; a crash report's
 * (`=CRASH REPORT====`, proc_lib's, under `crasher:`) indented `exception error: bad argument`.
 */
const ERLANG_EXCEPTION = /^(?:escript: |\*\* )?exception (error|exit|throw): (.*)$/;
/** `{"init terminating in do_boot",{badarith,[...]}}` and the line init prints under it, `init terminating in do_boot ({...})`. */
const ERLANG_DO_BOOT = /^\{"init terminating in do_boot",\{?\{?'?([a-z]\w*)|^init terminating in do_boot \(\{?\{?'?([a-z]\w*)/;
/** The logger's report of a process that died (`=ERROR REPORT====` over it), its exit reason on the lines below. */
const ERLANG_PROCESS_EXIT = /^Error in process <[\d.]+>(?: on node \S+)? with exit value:/;
/** EUnit's report of a failed test: `**error:{badkey,amount}`, `**error:{assertEqual,[{module,slug},...`, `**throw:x`. */
const EUNIT_FAILURE = /^\*\*(error|exit|throw):\{?'?([a-z]\w*)/;
/** The test's own checks, EUnit's assertion macros (`?assertEqual` raises `{assertEqual, [...]}`). */
const EUNIT_CHECK = /^assert(?:Equal|NotEqual|Match|NotMatch|Exception|Error|Exit|Throw|_failed|ion_failed)?$|^assertException$|^assertNot$/;
/** erl_error's wordings of the standard error reasons (the atom a program would match on). */
const ERLANG_REASONS: [RegExp, string][] = [
  [/^no match of right hand side value\b/, 'badmatch'],
  [/^no case clause matching\b/, 'case_clause'],
  [/^no function clause matching\b/, 'function_clause'],
  [/^no true branch found\b/, 'if_clause'],
  [/^no try clause matching\b/, 'try_clause'],
  [/^bad argument\b/, 'badarg'],
  [/^an error occurred when evaluating an arithmetic expression\b/, 'badarith'],
  [/^undefined function\b/, 'undef'],
  [/^bad function\b/, 'badfun'],
  [/^(?:interpreted )?function with arity\b|^bad arity\b/, 'badarity'],
  [/^bad key\b|^key \S+ not found\b/, 'badkey'],
  [/^bad map\b/, 'badmap'],
  [/^bad record\b/, 'badrecord'],
];
/** erl_error's frame: `  in function  m:f/1 (file.erl, line 13)`, `  in call from m:f/2 (src/m.erl, line 9)`. */
const ERLANG_FRAME = /^\s*in (?:function|call from)\s+(\S+?):('(?:[^'\\]|\\.)*'|[^\s(']+)\/(\d+)(?: \((.+?), line (\d+)\))?\s*$/;
/** A stack entry of a crash term: `{stats,main,0,[{file,"src/stats.erl"},{line,6}]}`. */
const ERLANG_TERM_FRAME = /\{([a-z]\w*|'[^']*'),([a-z]\w*|'[^']*'),(?:\d+|\[[^\]]*\]),\[\{file,"([^"]+)"\},\{line,(\d+)\}/g;
/** OTP's own modules (the runtime, the escript and shell evaluators, the standard library, EUnit, common_test, rebar3). */
const ERLANG_LIBRARY = /^(?:erl_\w+|escript|init|lists|maps|proplists|dict|orddict|sets|ordsets|gb_trees|gb_sets|array|queue|string|unicode|binary|io|io_lib\w*|file|filename|erlang|timer|ets|dets|rpc|code(?:_server)?|shell|gen|gen_\w+|proc_lib|supervisor\w*|application\w*|eunit\w*|ct_\w+|test_server\w*|rebar\w*|otp_\w+|calendar|re|lists_\w+)$/;

function erlangReason(text: string): string | undefined {
  return ERLANG_REASONS.find(([re]) => re.test(text))?.[1];
}

function erlangAt(text: string, index: number, next: string): Uncaught | undefined {
  let m = ERLANG_EXCEPTION.exec(text);
  if (m) return { index, text, exception: erlangReason(m[2] as string) ?? (m[1] as string), runtime: 'erlang', tool: text.startsWith('escript') ? 'escript' : 'erlang' };
  m = ERLANG_DO_BOOT.exec(text);
  if (m) return { index, text, exception: (m[1] ?? m[2]) as string, runtime: 'erlang', tool: 'erlang' };
  if (ERLANG_PROCESS_EXIT.test(text)) return { index, text, exception: /^\{+'?([a-z]\w*)/.exec(next)?.[1] ?? 'exit', runtime: 'erlang', tool: 'erlang' };
  m = EUNIT_FAILURE.exec(text);
  if (m) return { index, text, exception: m[2] as string, runtime: 'erlang', tool: 'eunit', inTest: true, ...(m[1] === 'error' && EUNIT_CHECK.test(m[2] as string) ? { check: true as const } : {}) };
  return undefined;
}

/** How many of a term's brackets (`{`, `[`, `(`) one line leaves open, strings (`"..."`) and quoted atoms passed over. */
function openBrackets(line: string): number {
  let open = 0;
  for (const m of line.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '').matchAll(/[{[(]|[}\])]/g)) open += /[{[(]/.test(m[0]) ? 1 : -1;
  return open;
}

/**
 * An Erlang message whose term runs on over the lines below (EUnit's `**error:{assertEqual,[{module,m},` with
 * `{line,311}, ... ]}` indented under it): the lines up to the one that closes it, joined. Up to 12 lines.
 */
export function erlangTermContinued(body: readonly string[], index: number, text: string): string {
  let open = openBrackets(text);
  if (open <= 0 || !/^(?:\*\*(?:error|exit|throw):|(?:escript: )?exception (?:error|exit|throw):|\{"init terminating|Error in process <)/.test(text.trim())) return text;
  let joined = text.trimEnd();
  for (let k = index + 1; k < Math.min(body.length, index + 13) && open > 0; k++) {
    const next = body[k] ?? '';
    if (!/^\s+\S/.test(next)) break;
    joined = `${joined} ${next.trim()}`;
    open += openBrackets(next);
  }
  return open === 0 ? joined : text;
}

/**
 * The module escript compiles a script into: the script's name and unique numbers (`summary_escript__escript__1795__986774__742498__3`
 * for summary.escript). Its functions are the script's own, named without it (`tally/2`).
 */
const ESCRIPT_MODULE = /^\w+__escript(?:__\d+)+$/;
const qualified = (module: string, fn: string): string => (ESCRIPT_MODULE.test(module) ? fn : `${module}:${fn}`);

function erlangFrames(line: string): GrammarFrame[] {
  const m = ERLANG_FRAME.exec(line);
  if (m) {
    const module = (m[1] as string).replace(/^'|'$/g, '');
    return m[4] && m[5] ? [{ file: m[4], line: Number(m[5]), function: qualified(module, `${(m[2] as string).replace(/^'|'$/g, '')}/${m[3]}`), library: ERLANG_LIBRARY.test(module) }] : [];
  }
  if (!line.includes('{file,"')) return [];
  const frames: GrammarFrame[] = [];
  for (const t of line.matchAll(ERLANG_TERM_FRAME)) {
    const module = (t[1] as string).replace(/^'|'$/g, '');
    frames.push({ file: t[3] as string, line: Number(t[4]), function: qualified(module, (t[2] as string).replace(/^'|'$/g, '')), library: ERLANG_LIBRARY.test(module) });
  }
  return frames;
}

// ---- Elixir (`** (KeyError) key :amount not found`, uncaught or in ExUnit's report of a test) ----

/** `** (FunctionClauseError) no function clause matching in ...`. The compiler's own errors are the rules' (compile-error). */
const ELIXIR_EXCEPTION = /^\*\* \(((?:[A-Z]\w*\.)*[A-Z]\w*)\)(?: (.*))?$/;
const ELIXIR_NOT_RAISED = /^(?:CompileError|SyntaxError|TokenMissingError|MismatchedDelimiterError|Kernel\.TypespecError|Mix(?:\..*)?)$/;
/** A stack entry: `    report.exs:3: anonymous fn/2 in Report.total/1`, `    (elixir 1.14.0) lib/enum.ex:2468: Enum.reduce/3`. */
const ELIXIR_FRAME = /^\s+(?:\(([a-z]\w*) [\w.+-]+\) )?((?:[^\s:()]+\/)?[^\s:()/]+\.(?:exs?|erl)):(\d+): (.+?)\s*$/;
/** Elixir's and OTP's own applications, and a Mix project's dependencies. */
const ELIXIR_LIBRARY_APP = /^(?:elixir|stdlib|kernel|ex_unit|mix|logger|iex|eex|compiler|erts)$/;

function elixirAt(text: string, index: number): Uncaught | undefined {
  const m = ELIXIR_EXCEPTION.exec(text);
  if (!m || ELIXIR_NOT_RAISED.test(m[1] as string)) return undefined;
  // Elixir names an exception by its module, as the runtime prints it (`Protocol.UndefinedError`, `Ecto.NoResultsError`):
  // the whole name is the name (ux14), not its last part as for a JVM or Python class with its package.
  const exception = m[1] as string;
  return { index, text, exception, runtime: 'elixir', tool: 'elixir', ...(/(?:^|\.)AssertionError$/.test(exception) ? { check: true as const } : {}) };
}

function elixirFrames(line: string): GrammarFrame[] {
  const m = ELIXIR_FRAME.exec(line);
  if (!m) return [];
  const file = m[2] as string;
  return [{ file, line: Number(m[3]), function: m[4] as string, library: (m[1] !== undefined && ELIXIR_LIBRARY_APP.test(m[1])) || /(?:^|\/)deps\//.test(file) || /\.erl$/.test(file) }];
}

// ---- Lua (the standalone interpreter: `lua5.4: f.lua:5: msg` over `stack traceback:`) ----

const LUA_HEAD = /^(lua(?:jit)?[\d.]*|texlua|resty): (.*)$/;
/**
 * The same head after the program's own output on one line (`check lua5.1: deploy.lua:9: bad argument ...`): stdout had
 * no newline yet when the interpreter wrote its error to stderr. Read only over its `stack traceback:` (session 53, t28).
 */
const LUA_HEAD_INLINE = /^.*?\s(lua(?:jit)?[\d.]*): ((?:[^\s:]*\/)?[^\s:/]+\.lua:\d+: .*)$/;
const LUA_PLACE = /^((?:[^\s:]*\/)?[^\s:/]+\.lua):(\d+): /;
/** A syntax error's words (the parser's `near 'x'`, `near <eof>`), which the interpreter prints with no traceback. */
const LUA_SYNTAX = /\bnear (?:'.*'|<eof>)$|\bunexpected symbol\b|\bunfinished (?:string|long string|long comment)\b|\bmalformed number\b/;
/** A traceback's frame: `\tdeploy.lua:5: in local 'target'`; `[C]: in function 'error'` names no file. */
const LUA_FRAME = /^\s+((?:[^\s:]*\/)?[^\s:/]+\.lua):(\d+): in (.+?)\s*$/;
const LUA_LIBRARY = /^\/usr\/(?:local\/)?(?:share|lib)\/lua\/|(?:^|\/)(?:\.luarocks|lua_modules|rocks)\//;

function luaAt(line: (k: number) => string, i: number, text: string): Uncaught | undefined {
  const m = LUA_HEAD.exec(text) ?? (/^stack traceback:$/.test(line(i + 1).trim()) ? LUA_HEAD_INLINE.exec(text) : null);
  if (!m) return undefined;
  const message = m[2] as string;
  const place = LUA_PLACE.exec(message);
  const at = place ? { place: { file: place[1] as string, line: Number(place[2]) } } : {};
  if (/^stack traceback:$/.test(line(i + 1).trim())) return { index: i, text, exception: 'error', runtime: 'lua', tool: m[1] as string, ...at };
  // No traceback: the interpreter's parser refused the chunk as it loaded it.
  if (place && LUA_SYNTAX.test(message)) return { index: i, text, exception: 'syntax error', runtime: 'lua', tool: m[1] as string, rejected: true, ...at };
  return undefined;
}

function luaFrames(line: string): GrammarFrame[] {
  const m = LUA_FRAME.exec(line);
  return m ? [{ file: m[1] as string, line: Number(m[2]), function: m[3] as string, library: LUA_LIBRARY.test(m[1] as string) }] : [];
}

// ---- Haskell (a program GHC compiled: its runtime prints `prog: <message>` for what nothing caught; ux13) ----

/**
 * A pattern match with no equation for the value (`prog: src/M.hs:(28,1)-(29,40): Non-exhaustive patterns in function
 * f`, GHC's span of the definition: the line is its first), an irrefutable pattern, a record built without a field, a
 * class method with no instance or default: the message names the place and says what was missing.
 */
const HS_PLACED = /^[\w.-]+: ((?:[^\s:]*\/)?[^\s:/]+\.l?hs):(?:\((\d+),\d+\)-\(\d+,\d+\)|(\d+):\d+(?:-\d+)?): (Non-exhaustive (?:patterns|guards) in|Irrefutable pattern failed|Missing field in record construction|No instance nor default method)/;
const HS_EXCEPTION: Record<string, string> = { 'Missing field in record construction': 'RecConError', 'No instance nor default method': 'NoMethodError' };
/** `error`, `undefined`, `head []` and the like: the message, then `CallStack (from HasCallStack):` and its frames. */
const HS_HEAD = /^[\w.-]+: \S/;
/** A call stack's frame: `  error, called at src/M.hs:12:9 in main:M` (innermost first); GHC's own libraries under `libraries/`. */
const HS_FRAME = /^\s+([\w'.]+), called at ((?:[^\s:]*\/)?[^\s:/]+\.l?hs):(\d+):\d+ in ([\w.-]+):[\w.]+\s*$/;

function haskellAt(line: (k: number) => string, i: number, text: string): Uncaught | undefined {
  const p = HS_PLACED.exec(text);
  if (p) return { index: i, text, exception: HS_EXCEPTION[p[4] as string] ?? 'PatternMatchFail', runtime: 'haskell', tool: 'ghc', place: { file: p[1] as string, line: Number(p[2] ?? p[3]) } };
  if (HS_HEAD.test(text) && line(i + 1).trim() === 'CallStack (from HasCallStack):') return { index: i, text, exception: 'ErrorCall', runtime: 'haskell', tool: 'ghc' };
  return undefined;
}

function haskellFrames(line: string): GrammarFrame[] {
  const m = HS_FRAME.exec(line);
  return m ? [{ file: m[2] as string, line: Number(m[3]), function: m[1] as string, library: /^libraries\/|^\//.test(m[2] as string) }] : [];
}

// ---- Tcl (errorInfo: the message, then `    while executing` and the commands it was invoked from) ----

const TCL_CONTEXT = /^ {4}while (?:executing|compiling)$/;
/** The trace's link to the command that called (`    invoked from within`), and a command's own note on the error (`    (reading increment)`). */
const TCL_INVOKED = /^ {4}invoked from within$/;
const TCL_NOTE = /^ {4}\(.*\)\s*$/;

/**
 * Whether line `i` is the message errorInfo starts with (the error's own words, at the margin), by what follows it:
 * `    while executing`, or the command's notes (`    (reading increment)`, added by `incr`) and then `    invoked from
 * within` (session 49). The command lines of the trace (`"incr total ..."`) are under a `while executing` or an
 * `invoked from within` and are not messages. Returns the index of the line that starts the trace, or -1.
 */
export function tclHeadAt(line: (k: number) => string, i: number): number {
  const text = line(i);
  if (text.trim() === '' || /^\s/.test(text) || text.startsWith('"') || TCL_CONTEXT.test(line(i - 1)) || TCL_INVOKED.test(line(i - 1))) return -1;
  if (TCL_CONTEXT.test(line(i + 1))) return i + 1;
  let k = i + 1;
  while (k <= i + 3 && TCL_NOTE.test(line(k))) k++;
  return k > i + 1 && (TCL_INVOKED.test(line(k)) || TCL_CONTEXT.test(line(k))) ? k : -1;
}
/** errorInfo's file frame: `    (file "deploy.tcl" line 9)` (a procedure's `(procedure "p" line 4)` counts from the procedure's body). */
const TCL_FRAME = /^\s+\(file "([^"]+)" line (\d+)\)\s*$/;
const TCL_LIBRARY = /^\/usr\/(?:local\/)?(?:share|lib)\/(?:tcltk\/)?tcl[\d.]*\//;

/** errorInfo's command that raised, the first quoted under `while executing`: the package loader's (`package require csvkit 2.0`). */
const TCL_PACKAGE_REQUIRE = /^"package require +(?:-exact +)?([\w:.-]+)/;

/**
 * What errorInfo's command under `while executing` says the error was (the line after it): the package loader's refusal
 * of a package (`"package require csvkit 2.0"`: `unavailable`) or of the interpreter itself (`"package require Tcl 9.0"`:
 * Tcl registers itself as the package `Tcl`, so the agent's tclsh is not the version the code needs: `interpreter`).
 */
export function tclLoaded(command: string): Pick<Uncaught, 'unavailable' | 'interpreter'> {
  const pkg = TCL_PACKAGE_REQUIRE.exec(command.trim())?.[1];
  return pkg === 'Tcl' ? { interpreter: 'tclsh' } : pkg ? { unavailable: pkg } : {};
}

function tclAt(line: (k: number) => string, i: number, raw: string, text: string): Uncaught | undefined {
  if (text === '' || /^\s/.test(raw)) return undefined;
  const trace = tclHeadAt(line, i);
  if (trace < 0) return undefined;
  return { index: i, text, exception: 'error', runtime: 'tcl', tool: 'tclsh', ...tclLoaded(line(trace + 1)) };
}

function tclFrames(line: string): GrammarFrame[] {
  const m = TCL_FRAME.exec(line);
  return m ? [{ file: m[1] as string, line: Number(m[2]), library: TCL_LIBRARY.test(m[1] as string) }] : [];
}

// ---- R (Rscript: `Error in f(x) : msg` or `Error: msg`, then `Execution halted`) ----

const R_ERROR = /^Error(?: in (.+?))? ?: +(\S.*)?$|^Error in (.+?) :\s*$/;
/** R's parser: `Error: unexpected ')' in:` (also `unexpected symbol`, `end of input`, `input`, `string constant`). */
const R_PARSE = /^Error: unexpected (?:'[^']+'|symbol|numeric constant|string constant|input|end of input|end of line|SPECIAL|INCOMPLETE_STRING|assignment|\w+) in\b/;
/**
 * R's parser on a file that `source()` (or `sys.source`, `parse(file=)`) read: `Error in source("R/fees.R") : R/fees.R:7:1:
 * unexpected 'else'`, the file, line and column before the parser's words (session 53, t28: round 27).
 */
const R_PARSE_AT = /^Error in (?:source|sys\.source|parse)\(.*\) ?: +((?:[^\s:]*\/)?[^\s:/]+\.[Rr]):(\d+):(\d+): unexpected /;

/** R's loaders of packages as the call an error names (`Error in library(data.table) :`, `Error in loadNamespace(x) :`). */
const R_LOADER_CALL = /^(?:library|require|requireNamespace|loadNamespace|attachNamespace)\(/;
/** The package a loader's error names: `there is no package called ‘data.table’`, `namespace ‘x’ 1.2 is being loaded, but >= 2.0 is required`. */
const R_PACKAGE_NAMED = /\b(?:package called|namespace) [‘'"]([\w.]+)[’'"]/;

/** A test runner's report around an R error (testthat's rules and its `[ FAIL 1 | WARN 0 | SKIP 0 | PASS 0 ]` summary). */
const R_RUNNER = /^(?:[─═]{3}|\[ FAIL \d+ \| )/;

/** testthat's own closing `stop()` after its summary (`Error: Test failures`; 2.x `Error: testthat unit tests failed`): its verdict, no error of the code. */
const R_RUNNER_CLOSING = /^Error: (?:Test failures|testthat unit tests failed)$/;

/** R's error for a URL it could not open (`cannot open URL '...'`, on the error's line or the one below it). */
const R_URL_ERROR = /\bcannot open URL '([^']+)'/;
/** R's warning that says why (libcurl's method): `cannot open URL 'u': HTTP status was '404 Not Found'`, `URL 'u': status was 'Couldn't resolve host name'`. */
const R_URL_WARNING = /\bURL '([^']+)': (?:HTTP )?status was '([^']+)'/;

/** The warning line under R's `cannot open URL` error that says why, up to `Execution halted`. */
function rFetchReason(line: (k: number) => string, i: number, text: string): Uncaught['fetched'] {
  const url = R_URL_ERROR.exec(text)?.[1] ?? R_URL_ERROR.exec(line(i + 1))?.[1];
  if (url === undefined) return undefined;
  for (let k = i + 1; k < i + 12; k++) {
    const t = line(k).trim();
    if (/^Execution halted$/.test(t)) break;
    const w = R_URL_WARNING.exec(t);
    const host = /^[a-z][\w+.-]*:\/\/(?:[^@/\s]+@)?([^/:\s?#]+)/i.exec(url)?.[1];
    if (w && w[1] === url && host) return { index: k, url, host, reason: w[2] as string };
  }
  return undefined;
}

function rAt(line: (k: number) => string, i: number, text: string): Uncaught | undefined {
  if (!R_ERROR.test(text) || R_RUNNER_CLOSING.test(text)) return undefined;
  // The uncaught error is the last one before `Execution halted`; one under a test runner's summary is the runner's verdict.
  let halted = false;
  for (let k = i + 1; k < i + 12 && !halted; k++) {
    const t = line(k).trim();
    if (/^Error\b/.test(t) || R_RUNNER.test(t)) return undefined;
    halted = /^Execution halted$/.test(t);
  }
  if (!halted || [1, 2, 3].some((d) => R_RUNNER.test(line(i - d).trim()))) return undefined;
  if (R_PARSE.test(text)) return { index: i, text, exception: 'syntax error', runtime: 'r', tool: 'Rscript', rejected: true };
  const parsed = R_PARSE_AT.exec(text);
  if (parsed) return { index: i, text, exception: 'syntax error', runtime: 'r', tool: 'Rscript', rejected: true, place: { file: parsed[1] as string, line: Number(parsed[2]) } };
  const m = R_ERROR.exec(text);
  const unavailable = R_LOADER_CALL.test(m?.[1] ?? m?.[3] ?? '') ? R_PACKAGE_NAMED.exec(text)?.[1] : undefined;
  const fetched = rFetchReason(line, i, text);
  return { index: i, text, exception: 'error', runtime: 'r', tool: 'Rscript', ...(unavailable ? { unavailable } : {}), ...(fetched ? { fetched } : {}) };
}

// ---- OCaml (the rules read `Fatal error: exception X`; its backtrace's frames are read here) ----

/**
 * `Raised at Stdlib__List.assoc in file "list.ml", line 191, characters 10-25`, `Called from Deploy in file "deploy.ml", line 5, ...`;
 * ocamlopt marks a frame of a function it inlined into its caller: `Called from Stock.supplier_of in file "stock.ml" (inlined), line 11, ...`.
 */
const OCAML_FRAME = /^(?:Raised at|Re-raised at|Called from|Raised by primitive operation at) (\S+) in file "([^"]+)"(?: \(inlined\))?, line (\d+)/;
const OCAML_LIBRARY = /^(?:Stdlib|CamlinternalFormat|Camlinternal\w*|Dune__exe__Dune|Alcotest|OUnit\w*|Base|Core|Core_kernel|Lwt\w*)(?:__|\.|$)/;

function ocamlFrames(line: string): GrammarFrame[] {
  const m = OCAML_FRAME.exec(line.trim());
  return m ? [{ file: m[2] as string, line: Number(m[3]), function: m[1] as string, library: OCAML_LIBRARY.test(m[1] as string) || /(?:^|\/)\.?opam\//.test(m[2] as string) }] : [];
}

// ---- PHP under PHPUnit (`There was 1 error:`, `1) CartTest::testTotal`, the error's words, its places) ----

/** PHPUnit's numbered test under its `There was 1 error:` / `There were 2 failures:` heading. */
const PHPUNIT_TEST = /^\d+\) [\w\\]+::\w+(?: with data set .*)?$/;
const PHPUNIT_SECTION = /^There (?:was|were) \d+ (error|failure|warning|risky test)s?:$/;
/** PHPUnit's place under the message: a file and line alone (`/ws/src/Cart.php:8`). */
const PHPUNIT_FRAME = /^((?:[A-Za-z]:)?[^\s:()]+\.php):(\d+)$/;
const PHP_LIBRARY = /(?:^|\/)vendor\/|^\/usr\/share\/php\//;

/** The words PHPUnit prints for a test's error (PHP's own, `Attempt to read property "amount" on null`) under its test. */
function phpunitAt(line: (k: number) => string, i: number, text: string): Uncaught | undefined {
  if (!PHPUNIT_TEST.test(line(i - 1).trim()) || PHPUNIT_TEST.test(text) || PHPUNIT_FRAME.test(text)) return undefined;
  // The section's heading says which, where the window holds it; a failure's words are a check's (assertionIn reads most).
  let section: string | undefined;
  for (let k = i - 2; k >= Math.max(0, i - 80) && section === undefined; k--) section = PHPUNIT_SECTION.exec(line(k).trim())?.[1];
  if (section !== undefined && section !== 'error' && section !== 'failure') return undefined;
  const exception = /^((?:[A-Z]\w*\\)*[A-Z]\w*): /.exec(text)?.[1] ?? 'error';
  return { index: i, text, exception, runtime: 'php', tool: 'phpunit', inTest: true, ...(section === 'failure' ? { check: true as const } : {}) };
}

function phpFrames(line: string): GrammarFrame[] {
  const m = PHPUNIT_FRAME.exec(line.trim());
  return m ? [{ file: m[1] as string, line: Number(m[2]), library: PHP_LIBRARY.test(m[1] as string) }] : [];
}

// ---- Node (its own grammar is read by tests.ts; here only whether its loader refused the source) ----

/** The loader's compile of a module's source: CommonJS's `wrapSafe`/`internalCompileFunction`, ESM's `compileSourceTextModule`. */
const NODE_COMPILE_FRAME = /^\s*at (?:wrapSafe|internalCompileFunction|compileSourceTextModule|ModuleLoader\.moduleStrategy|new ModuleWrap|Object\.compileFunction) \(node:internal\//;
/** A module of the other format (ESM syntax loaded as CommonJS): the package's `type`, not the code's syntax. */
const NODE_MODULE_FORMAT = /\b(?:import statement outside a module|Unexpected token '(?:export|import)'|await is only valid in async functions and the top level bodies of modules)\b/;

/**
 * Whether Node's `SyntaxError` at line i was its loader's refusal of a source file (the code never ran): its first
 * frame is the compile step. A `SyntaxError` of `JSON.parse`, or of linking an import (`ModuleJob._instantiate`), was raised
 * while running.
 */
export function nodeRejectedAt(line: (k: number) => string, i: number): boolean {
  if (!/^(?:Uncaught )?SyntaxError: /.test(line(i).trim()) || NODE_MODULE_FORMAT.test(line(i))) return false;
  for (let k = i + 1; k < i + 4; k++) {
    if (/^\s*at\s/.test(line(k))) return NODE_COMPILE_FRAME.test(line(k));
  }
  return false;
}

/**
 * The uncaught error a runtime of this module reports at line i of `lines` (untrimmed, as the finding's window
 * holds them), or undefined. Tried by tests.ts `raisedIn` on every line of a window, before its own runtimes.
 */
export function uncaughtAt(line: (k: number) => string, i: number): Uncaught | undefined {
  const raw = line(i);
  const text = raw.trim();
  if (text === '') return undefined;
  if (text.startsWith('**') || text.startsWith('{"init') || text.startsWith('init ') || text.startsWith('escript:')) {
    const u = erlangAt(text, i, '');
    if (!u?.inTest) return u ?? elixirAt(text, i);
    const from = framesAbove(line, i);
    return from < i ? { ...u, framesFrom: from } : u;
  }
  if (text.startsWith('Error in process <')) return erlangAt(text, i, line(i + 1).trim());
  if (text.startsWith('exception ') && [1, 2, 3, 4, 5, 6].some((d) => /^\s*crasher:$/.test(line(i - d)))) return erlangAt(text, i, '');
  if (text.startsWith('Error')) return rAt(line, i, text);
  return luaAt(line, i, text) ?? haskellAt(line, i, text) ?? tclAt(line, i, raw, text) ?? phpunitAt(line, i, text);
}

/** A line of a report's own below its head: a frame, a traceback's line, Tcl's commands it was invoked from, R's `Calls:`. */
function inReport(runtime: GrammarRuntime, t: string): boolean {
  if (isGrammarTraceLine(t) || /^\s+called as /.test(t)) return true;
  if (runtime === 'tcl') return /^"|^ {4}\S/.test(t);
  if (runtime === 'elixir') return /^\s/.test(t) || t === '';
  if (runtime === 'erlang') return /^\s+output:|^init terminating in do_boot |^\s*\{|^\s+\*\*\* |^\s+in function /.test(t);
  return false;
}

/** The first line of the frames EUnit prints above its head at `i` (its `called as` lines among them), up to 60; `i` when none. */
function framesAbove(line: (k: number) => string, i: number): number {
  let start = i;
  while (start > 0 && i - start < 60 && (ERLANG_FRAME.test(line(start - 1)) || /^\s*called as /.test(line(start - 1)))) start--;
  return start;
}

/**
 * The lines (0-based, inclusive) of the report of an uncaught error whose head is at `u.index`: the frames EUnit
 * prints above its `**error:`, and what each runtime prints below its head (frames, a traceback, Tcl's commands).
 */
function extentOf(u: Uncaught, line: (k: number) => string, limit: number): { start: number; end: number } {
  let start = u.index;
  // A crash report's exception is known by the `crasher:` above it: the report starts at its heading.
  if (u.runtime === 'erlang' && u.text.startsWith('exception ')) while (start > 0 && u.index - start < 8 && !/^=CRASH REPORT=/.test(line(start).trim())) start--;
  if (u.inTest) start = framesAbove(line, start);
  let end = u.index;
  // R's report ends on its `Execution halted` (the parser's quotes of the source, `Calls:` between).
  if (u.runtime === 'r') {
    while (end + 1 < limit && end - u.index < 12 && !/^Execution halted$/.test(line(end).trim())) end++;
    return { start, end };
  }
  while (end + 1 < limit && end - u.index < 60 && inReport(u.runtime, line(end + 1))) end++;
  return { start, end };
}

/**
 * The report of an uncaught error (head, frames, traceback) that the excerpt `first..last` (0-based, inclusive) is a
 * part of, when it reaches outside it: the excerpt may hold only its frames (Tcl's `invoked from within`, EUnit's
 * `in call from` over its `**error:`). Heads are looked for up to 40 lines around; none across a command of the step.
 */
export function reportAround(line: (k: number) => string, first: number, last: number, count: number): { head: number; start: number; end: number } | undefined {
  const command = (k: number): boolean => /^(?:\+ |\$ |\[Pipeline\])/.test(line(k).trim());
  for (let k = first; k >= Math.max(0, first - 40); k--) {
    if (k < first && command(k)) break;
    const u = uncaughtAt(line, k);
    if (!u) continue;
    const r = extentOf(u, line, count);
    if (r.end >= first && (r.start < first || r.end > last)) return { head: u.index, ...r };
    break;
  }
  for (let k = first + 1; k <= Math.min(count - 1, last + 40); k++) {
    if (command(k)) break;
    const u = uncaughtAt(line, k);
    if (!u) continue;
    const r = extentOf(u, line, count);
    if (r.start <= last && (r.start < first || r.end > last)) return { head: u.index, ...r };
    if (k > last) break;
  }
  return undefined;
}

/** The frames one line of a trace names, and whose grammar they are (several per line in an Erlang crash term). */
export function grammarFramesOf(line: string): { runtime: GrammarRuntime; frames: GrammarFrame[] } | undefined {
  const readers: [GrammarRuntime, (l: string) => GrammarFrame[]][] = [
    ['erlang', erlangFrames],
    ['elixir', elixirFrames],
    ['lua', luaFrames],
    ['tcl', tclFrames],
    ['ocaml', ocamlFrames],
    ['php', phpFrames],
    ['haskell', haskellFrames],
  ];
  for (const [runtime, read] of readers) {
    const frames = read(line);
    if (frames.length > 0) return { runtime, frames };
  }
  return undefined;
}

/** Whether a line is a frame (or a traceback's own line) of one of these grammars: a window's trace reads on over it. */
export function isGrammarTraceLine(line: string): boolean {
  return /^stack traceback:$|^CallStack \(from HasCallStack\):$|^\s+\[C\]: in |^ {4}(?:invoked from within|while executing)$|^ {4}\(procedure "[^"]+" line \d+\)$/.test(line) || grammarFramesOf(line) !== undefined;
}

/**
 * Whether line i heads a runtime's report (of this module's grammars) that prints frames: its frames decide the
 * place, and when none is the project's (an escript's error raised in `erl_eval`) no place is named.
 */
export function framedReportAt(line: (k: number) => string, i: number, count: number): boolean {
  const u = uncaughtAt(line, i);
  if (!u) return false;
  const { start, end } = extentOf(u, line, count);
  for (let k = start; k <= end; k++) if (grammarFramesOf(line(k)) !== undefined) return true;
  return false;
}
