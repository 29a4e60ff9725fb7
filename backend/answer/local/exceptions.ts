/**
 * What an exception, a panic or a runtime error usually asks for (issue 25, "how do I fix it?"):
 * general knowledge of each runtime's errors, tied to the finding by the type and message the
 * log printed and filled with the names that message carries (the key, the index and length,
 * the value that did not parse, the module of an import cycle). One hint per finding, the most
 * specific rule first; none when no rule matches (then the remedy stays general).
 */
import type { Finding } from '../../../protocol/types.js';
import { cite, inlineCode } from '../logtext.js';
import type { RemedyRule } from './remedyShape.js';
import { IMPORT_CYCLE, importCycleOf, importCycleStep } from './importCycle.js';

/** Erlang's standard error reasons (erl_error's wordings, core/finding/uncaught.ts ERLANG_REASONS give the atom). */
const ERLANG_REASON = /\{?(badmatch|badarg|function_clause|case_clause|if_clause|try_clause|badarith|badkey|badmap|undef)\b/;

/**
 * What each of Erlang's error reasons says went wrong (the reference manual's "Exit Reasons"), with the value erl_error
 * printed (`no case clause matching skipped`): a `case` without a clause for the value asks for that clause, not for
 * the value's type.
 */
function erlangHint(reason: string, message: string): string {
  const value = /\b(?:no (?:case|try) clause matching|no match of right hand side value) (.+?)\s*$/.exec(message)?.[1];
  const shown = value !== undefined && value.length <= 80 ? ` (${c(value)})` : '';
  const meaning: Record<string, string> = {
    badmatch: `a pattern did not match the value${shown || ' (an `{ok, _}` match on an `{error, _}` result)'}: match what the call can return, or handle the other result`,
    function_clause: 'no clause of the function matches the arguments it was called with: add a clause for them, or fix the call',
    case_clause: `no clause of the \`case\` matches the value${shown}: add a clause for it (or one that handles any other value) to the \`case\` at the raise site, or stop the value from reaching it`,
    if_clause: 'no branch of the `if` was true: add a branch for this case (a last `true ->` branch handles any other)',
    try_clause: `no clause of the \`try ... of\` matches the value${shown}: add a clause for it`,
    badarith: 'an arithmetic operator got a value that is not a number (or divided by zero): check the values on the raise line',
    badkey: 'the map has no such key: put the key in the map, or read it with a default (`maps:get(K, M, Default)`)',
    badmap: 'the value used as a map is not a map: check where it comes from',
    undef: 'the function called does not exist (module not loaded or name/arity wrong): call the name and arity the module exports',
    badarg: 'an argument has the wrong type or value: handle that value at the raise site',
  };
  return `Erlang's ${c(reason)}: ${meaning[reason] ?? meaning.badarg}.`;
}

interface Rule {
  /** Tested on the message, then on the exception type alone. */
  test: RegExp;
  hint: (m: RegExpExecArray, f: Finding) => string;
}

const c = inlineCode;

/** An exception of loading code (a class, a module, a native library), not of the values a line works on. */
const LOAD_FAILURE = /NoClassDefFoundError|ClassNotFoundException|NoSuchMethodError|NoSuchFieldError|AbstractMethodError|IncompatibleClassChangeError|IllegalAccessError|InstantiationError|UnsatisfiedLinkError|ModuleNotFoundError|\bImportError\b|ERR_MODULE_NOT_FOUND|Cannot find module/;

/**
 * Node refusing to load an ES module with `require()` (ESM-only, or one whose top level awaits), or a named
 * import from a CommonJS module: the module was found and installed; the way the line loads it is what
 * its format does not allow (ux7: "change what that line does with the values it gets" was said of it).
 */
export const MODULE_FORMAT = /ERR_REQUIRE_ESM|ERR_REQUIRE_ASYNC_MODULE|require\(\) of ES Module|require\(\) cannot be used on an ESM graph with top-level await|Named export '[^']+' not found\. The requested module '[^']+' is a CommonJS module/;

/** Node's refusal of a deep import the package's `exports` map does not list: how the line imports, or the map, is the fix (ux13). */
export const PACKAGE_SUBPATH = /Package subpath '[^']+' is not defined by "exports"/;

/** PHP's class (interface, trait, enum) that no loaded file declares: a file's name, namespace or autoloading to fix, not a line's values (ux12). */
export const PHP_NOT_LOADED = /\b(?:Class|Interface|Trait|Enum) ["']([\w\\]+)["'] not found\b/;

/**
 * Code the program could not load, so the fix is in what the build installs or puts on the
 * classpath: not a circular import (an `ImportError` too), which the project's own imports cause (ux6).
 */
export const isLoadFailure = (text: string): boolean => LOAD_FAILURE.test(text) && !IMPORT_CYCLE.test(text);

/**
 * Whether the message says more than the exception's type (`KeyError: 'region'`, a panic's
 * `runtime error: ...`) rather than the type alone (`Exception in thread "main"
 * java.util.ConcurrentModificationException`): only then does "as the message describes" hold.
 */
export function messageHasDetail(f: Finding): boolean {
  const name = f.exception?.split('.').pop();
  if (!name) return true;
  const at = f.message.lastIndexOf(name);
  if (at < 0) return true;
  return /[:\s]\s*\S/.test(f.message.slice(at + name.length).replace(/^\s*\[recovered\]\s*$/, ''));
}

/** The raise site is a library's frame under the project's call (`java.lang.Enum.valueOf` under `WebhookParser.status`). */
function raisedInLibrary(f: Finding): { raise: string; project: string } | undefined {
  const fr = f.location?.frames;
  if (!fr?.raise || !fr.project || (fr.raise.file === fr.project.file && fr.raise.line === fr.project.line)) return undefined;
  return { raise: fr.raise.function ?? fr.raise.file, project: `${fr.project.file}:${fr.project.line}` };
}

/** The standard library's lookups that raise `Not_found` and have an `_opt` twin returning `None` (OCaml 4.05+). */
const OCAML_OPT = /^(?:find|assoc|assq|index|rindex|index_from|rindex_from|getenv|find_first|find_last|min_elt|max_elt|choose|min_binding|max_binding)$/;

/**
 * `Not_found` raised by a standard-library lookup the project's code called (`Raised at Stdlib__Hashtbl.find`,
 * then `Called from Stock.supplier_of in file "stock.ml"`): that call and its `_opt` twin, else undefined.
 */
function ocamlOptHint(exception: string, f: Finding): string | undefined {
  const lib = exception === 'Not_found' ? raisedInLibrary(f) : undefined;
  const call = lib ? /^Stdlib(?:__|\.)([A-Z]\w*)\.(\w+)$/.exec(lib.raise) : null;
  if (!lib || !call || !OCAML_OPT.test(call[2] as string)) return undefined;
  const fn = `${call[1] as string}.${call[2] as string}`;
  const raised = f.location?.frames?.raise?.log_line ?? f.message_line;
  return `The exception came from ${c(fn)} ${cite({ start_line: raised, end_line: raised })}: it found no entry for what the project's call at ${c(lib.project)} asked it for, and nothing caught the ${c('Not_found')} it raised. Call ${c(`${fn}_opt`)} there, which returns ${c('None')} instead, and give that case its value (or catch it: ${c(`try ${fn} ... with Not_found -> ...`)}); if every key should be there, the data is what to fix.`;
}

/** A PHP class no loaded file declares: where a PSR-4 autoloader looks for it, the name's case included. */
function phpNotFoundHint(kind: string, name: string): string {
  const parts = name.replace(/^\\/, '').split('\\');
  const short = parts[parts.length - 1] as string;
  const what = kind.toLowerCase();
  const ns = parts.length > 1 ? ` and the folder of its namespace (${c(parts.slice(0, -1).join('\\'))})` : '';
  return (
    `PHP loaded no file that declares the ${what} ${c(name)}. An autoloader (composer's \`autoload\` \`psr-4\`, or the project's own \`spl_autoload_register\`) ` +
    `looks for it in a file named after it, ${c(`${short}.php`)}${ns}, with the same case: on Linux (a CI agent) \`${short.toLowerCase()}.php\` or a file with another case is not found, ` +
    `while macOS and Windows find it. Check the file's name, the folder's, and its \`namespace\` line against ${c(name)} (\`git mv\` to rename a file's case), ` +
    'and run `composer dump-autoload` when composer builds a class map.'
  );
}

const RULES: Rule[] = [
  // The checkout a CI job made (first: a rejection or an exception often carries git's message as its reason)
  { test: /No names found, cannot describe anything|No tags can describe|fatal: No annotated tags/, hint: () => "`git describe` found no tag in the checkout: CI checkouts are often shallow or fetch no tags. Fetch them in the job (`git fetch --tags --unshallow`; Jenkins' git \"Advanced clone behaviours\": fetch tags, no shallow clone; GitHub's `actions/checkout` with `fetch-depth: 0`), or give the script a fallback (`git describe --tags --always`)." },
  { test: /shallow update not allowed|--unshallow on a complete repository|object not found.*shallow|fatal: bad object [0-9a-f]{7,}/, hint: () => "The checkout is shallow and lacks the history the command needs: fetch more history (`git fetch --unshallow`, or a deeper clone in the job's checkout settings)." },
  // Test doubles: a module mock whose factory lacks a name the code under test imports (vitest's own words).
  { test: /No "([\w$]+)" export is defined on the "([^"]+)" mock/, hint: (m) => `The test replaces ${c(m[2] as string)} with a mock (\`vi.mock\`), and the mock's factory returns no ${c(m[1] as string)}, which the code under test imports from it. Add ${c(`${m[1] as string}: vi.fn()`)} to the object that \`vi.mock(${JSON.stringify(m[2])}, ...)\` returns in the test file, or build the mock from the real module (\`const actual = await importOriginal()\`, then \`{ ...actual, ... }\`) so new exports are kept.` },
  // unittest.mock's patch of a name its target no longer has (a rename or a move the test did not follow).
  { test: /<(module|class) '([\w.]+)'(?: from '[^']*')?> does not have the attribute '([\w$]+)'/, hint: (m) => `The test patches ${c(`${m[2] as string}.${m[3] as string}`)} (\`mock.patch\` / \`patch.object\`), and the ${m[1] as string} ${c(m[2] as string)} has no ${c(m[3] as string)}: if it was renamed or moved, patch the name the code uses now (the patch target is the module where the code under test looks the name up); if the test should create it, pass \`create=True\`.` },
  // Signals and sanitizers of native code
  { test: /Floating point exception|SIGFPE/, hint: () => 'The CPU stopped an integer division by zero (or `INT_MIN / -1`): despite its name, `Floating point exception` is integer arithmetic. Find the division or `%` whose divisor is 0 for this input and guard it.' },
  { test: /AddressSanitizer: (heap|stack|global)-buffer-overflow/, hint: (m) => `The code read or wrote past the end of a ${m[1] as string} buffer: the first frame of the report in the project's code is the access, and the report's \`allocated by\` part shows the buffer's size. Check the index or length there (an off-by-one, \`<=\` for \`<\`, a size without the terminating NUL).` },
  { test: /send on closed channel/, hint: () => 'A goroutine sent on a channel after it was closed: only the sending side may close a channel, and only after its last send. With several senders, close it once after all of them finish (a `sync.WaitGroup`), not in one of them.' },
  { test: /Too many open files|EMFILE/, hint: () => 'The process reached its limit of open files: files or sockets are opened without being closed (a loop that opens one per item). Close each one when done (`with open(...)` in Python, `try-with-resources` in Java, `defer f.Close()` in Go); raise `ulimit -n` only if that many must be open at once.' },
  // Go
  { test: /assignment to entry in nil map/, hint: () => `A map was written before it was made: a \`var m map[K]V\` or a struct field is nil until initialised. Create it first (${c('m = make(map[K]V)')}, or in the constructor), or check for nil before writing.` },
  { test: /index out of range \[(-?\d+)\] with length (\d+)/, hint: (m) => `The code read index ${c(m[1] as string)} of a slice or array of length ${c(m[2] as string)}: check the length before indexing (or the loop bound: ${c('i < len(s)')}), and why the caller passed fewer elements than the code expects.` },
  { test: /slice bounds out of range \[(?:[^\]]*)\]/, hint: () => 'A slice expression went past the end (or start) of the slice: clamp the bounds to `len(s)` before slicing.' },
  { test: /invalid memory address or nil pointer dereference/, hint: () => 'A nil pointer (or a nil interface, map or func) was used: find which value on the raise line is nil (an error return not checked, a field never set) and check it or initialise it.' },
  { test: /all goroutines are asleep - deadlock/, hint: () => 'Every goroutine is blocked: a channel is sent to with no receiver (or read with no sender, or never closed before a `range`), or a `WaitGroup`/lock is waited on that nothing releases. Look at the goroutines the dump shows blocked and close or buffer the channel, or call `Done()`/`Unlock()` on every path.' },
  { test: /WARNING: DATA RACE|data race/i, hint: () => 'Two goroutines (or threads) touch the same variable at once and at least one writes: the race report names both places. Guard the shared value with a mutex (`mu.Lock()` / `defer mu.Unlock()` around every read and write), use `sync/atomic` for a counter, or hand the value over a channel instead of sharing it.' },
  { test: /concurrent map (?:writes|read and map write)/, hint: () => 'Two goroutines used the same map at once: guard it with a `sync.Mutex`/`sync.RWMutex`, or use `sync.Map`; `go test -race` shows where.' },
  // Rust
  { test: /called `(Result|Option)::(unwrap|expect)\(\)` on an? `?(Err|None)`? value:?\s*(.*)/, hint: (m) => `${c(`${m[1] as string}::${m[2] as string}()`)} met ${c(m[3] as string)}${m[4] ? ` (${c((m[4] as string).slice(0, 120))})` : ''}: handle that case instead of unwrapping (\`match\`, \`?\`, \`unwrap_or\`), or fix why the value is missing.` },
  { test: /attempt to (add|subtract|multiply|divide) with overflow|attempt to divide by zero/, hint: (m) => {
      // Rust's integer methods are named for the operation: `checked_sub`, `saturating_sub`, `wrapping_sub`.
      const op = ({ add: 'add', subtract: 'sub', multiply: 'mul', divide: 'div' } as Record<string, string>)[m[1] ?? ''];
      return `Integer ${m[1] ? `${m[1] as string} overflowed` : 'division by zero'} at the raise line: check the operands (a wider type, a guard, or ${op ? `\`checked_${op}\` (returns \`None\` on overflow) or \`saturating_${op}\` (stops at the type's bound)` : '`checked_div` (returns `None` for zero)'} instead of the operator).`;
    } },
  { test: /index out of bounds: the len is (\d+) but the index is (\d+)/, hint: (m) => `The code read index ${c(m[2] as string)} of something of length ${c(m[1] as string)}: check the length (or use \`.get(i)\`) before indexing.` },
  // JavaScript: JSON has no BigInt.
  { test: /Do not know how to serialize a BigInt/, hint: () => `\`JSON.stringify\` cannot write a \`BigInt\`: convert it where the object is built (\`value.toString()\`, or \`Number(value)\` when it fits), or pass a replacer, ${c("JSON.stringify(obj, (k, v) => typeof v === 'bigint' ? v.toString() : v)")}.` },
  // Python
  { test: IMPORT_CYCLE, hint: (m) => `Two modules import each other, and ${c(m[1] as string)} was used before it finished loading (a circular import). Break the cycle: import inside the function that needs it, import the module instead of a name from it, move the shared code to a third module, or, for type hints only, import under ${c('if TYPE_CHECKING:')} (from \`typing\`).` },
  // An operator given operands of types it does not take: text where a number was meant, most often.
  { test: /unsupported operand type\(s\) for ([^:]+): '(\w+)' and '(\w+)'|can't multiply sequence by non-int of type '(\w+)'|can only concatenate (\w+) \(not "(\w+)"\) to \w+|'([<>]=?)' not supported between instances of '(\w+)' and '(\w+)'/, hint: (m) => {
    const types = m[1] ? [m[2], m[3]] : m[4] ? ['a sequence', m[4]] : m[5] ? [m[5], m[6]] : [m[8], m[9]];
    const op = m[1] ?? (m[4] ? '*' : m[5] ? '+' : m[7]);
    return `The operator ${c((op as string).trim())} was given operands of types ${types.map((t) => (t === 'a sequence' ? t : c(t as string))).join(' and ')}, which it does not combine: one value on the raise line is not of the type the code expects (text where a number was meant is the usual case: values read from a file, a form or the environment are strings). Convert it where it is read (${c('int(...)')}, ${c('float(...)')}, ${c('str(...)')}), or fix what produced it.`;
  } },
  { test: /'NoneType' object has no attribute '(\w+)'/, hint: (m) => `A value that should be an object is \`None\` where ${c(`.${m[1] as string}`)} is read: the expression before ${c(`.${m[1] as string}`)} on the raise line is None (a missing record, a lookup that found nothing, a function that returned nothing). Handle the None case there, or make sure the value is set.` },
  { test: /'NoneType' object is not (subscriptable|iterable|callable)/, hint: (m) => `A value is \`None\` where the code expects something ${m[1] as string}: find which value on the raise line is None and handle that case, or make sure it is set.` },
  { test: /KeyError: (.+)$/, hint: (m) => `The key ${c((m[1] as string).slice(0, 80))} is not in the mapping the code reads: set it (the data, the configuration or the environment that should provide it), or read it with a default (${c('.get(key, default)')}).` },
  { test: /invalid literal for (int|float)\(\) with base \d+: (.+)$|could not convert string to (float): (.+)$/, hint: (m) => `${c(`${(m[1] ?? m[3]) as string}()`)} was given ${c(((m[2] ?? m[4]) as string).slice(0, 60))}, which is not a number in that form: parse the value the way it is written (e.g. ${c('float(...)')} for a decimal, strip units or separators first), or fix the data.` },
  { test: /unsupported operand type\(s\) for ([^:]+): '(\w+)' and '(\w+)'/, hint: (m) => `The code applied ${c((m[1] as string).trim())} to a ${c(m[2] as string)} and a ${c(m[3] as string)}: convert one side (${c('int(...)')}, ${c('float(...)')}, ${c('str(...)')}) where the value is read, so both have the type the code expects.` },
  { test: /can only concatenate (\w+) \(not "(\w+)"\) to \1|must be (\w+), not (\w+)/, hint: () => 'Two values of different types were combined: convert the one read from input (a string from a file or the environment) to the type the code expects where it is read.' },
  { test: /'<' not supported between instances of '(\w+)' and '(\w+)'/, hint: (m) => `A comparison (often a sort) met a ${c(m[1] as string)} and a ${c(m[2] as string)}: make the values one type before comparing, or sort with a ${c('key=')} that gives one type.` },
  { test: /(\w+)\(\) missing (\d+) required (?:positional|keyword-only) arguments?: (.+)$/, hint: (m) => `${c(`${m[1] as string}()`)} is called without ${m[3] as string}: pass it at the call (a parameter added to the function needs a value at every call), or give the parameter a default.` },
  { test: /(\w+)\(\) got an unexpected keyword argument '(\w+)'/, hint: (m) => `${c(`${m[1] as string}()`)} has no parameter ${c(m[2] as string)} (renamed or removed): call it with the parameter names it declares now.` },
  { test: /(?:ModuleNotFoundError|ImportError): No module named '([\w.]+)'/, hint: (m) => `Python cannot import ${c(m[1] as string)}: install the package that provides it in the build's environment (the requirements file), or fix the import if the module was moved or renamed.` },
  { test: /(?:FileNotFoundError|No such file or directory)[^'"]*['"]([^'"]+)['"]/, hint: (m) => `The file ${c(m[1] as string)} does not exist when the code opens it: create or check it out before this step (a build output, a fixture, a generated file), or fix the path (relative paths start at the working directory of the step).` },
  { test: /RecursionError|StackOverflowError|Maximum call stack size exceeded|stack overflow|has overflowed its stack/, hint: () => 'A function calls itself (directly or through others) without reaching its end case: look at the repeating frames of the trace, and fix the base case or the data that loops.' },
  { test: /ZeroDivisionError|ArithmeticException: \/ by zero|divide by zero|DivideByZeroException|integer divide by zero/, hint: () => 'A division by zero: the divisor on the raise line is 0 for this input (an empty list\'s length, a missing count); guard against it or fix the input.' },
  { test: /JSONDecodeError|Unexpected token .* in JSON|SyntaxError: Unexpected end of JSON input|JsonParseException|JsonSyntaxException/, hint: () => 'The text given to the JSON parser is not JSON (an empty response, an HTML error page, a truncated file): print or check what was read before parsing it.' },
  { test: /UnicodeDecodeError: '([\w-]+)' codec can't decode byte (0x[0-9a-f]+)/, hint: (m) => m[1] === 'ascii' ? `Python decoded the bytes as ASCII, which the environment's locale chose (\`LANG\`/\`LC_ALL\` unset or \`C\` on the agent): open the file with ${c("encoding='utf-8'")} in the code, or run the step with ${c('PYTHONUTF8=1')} (or ${c('LANG=C.UTF-8')}).` : `The data read is not ${c(m[1] as string)} (byte ${c(m[2] as string)} cannot start a character in it): it is in another encoding, often Latin-1 or Windows-1252. Open the file with the encoding it is written in (${c("encoding='cp1252'")}, ${c("encoding='latin-1'")}), or convert the file to ${c(m[1] as string)} (${c(`iconv -f cp1252 -t ${m[1] as string}`)}).` },
  // JavaScript / TypeScript
  { test: /Cannot read propert(?:y|ies) of (undefined|null) \(reading '([^']+)'\)/, hint: (m) => `The object before ${c(`.${m[2] as string}`)} on the raise line is ${c(m[1] as string)}: a property or return value that the code expects is not set (a missing config key, an option not passed, an awaited value not awaited). Set it, or guard it (${c('?.')} or a default).` },
  { test: /(\S+) is not a function/, hint: (m) => `${c(m[1] as string)} is not a function where it is called: its value there is \`undefined\` or another kind of value (a renamed or removed export, a default vs named import mix-up, a promise not awaited). Check what it is where it is defined or imported.` },
  // JavaScript's temporal dead zone: a `let`/`const`/`class` read before its declaration ran; not a value problem.
  { test: /Cannot access '([\w$]+)' before initialization/, hint: (m) => `${c(m[1] as string)} is read before its \`const\`/\`let\`/\`class\` declaration has run (JavaScript's temporal dead zone): move the declaration above its first use (or the use below it); when the two are in different modules, an import cycle runs one module before the other has finished.` },
  // Node's package `exports` map: the package at that path lists which subpaths may be imported; a deep import of another is
  // refused whatever the file holds (session 47, lead; ux8's shop-monorepo). Not a name "not defined" in the code.
  { test: /Package subpath '([^']+)' is not defined by "exports" in (\S+?)(?:\/package\.json)?(?: imported from \S+)?$/, hint: (m) => `The package at ${c(m[2] as string)} declares an ${c('exports')} map in its ${c('package.json')} that does not list ${c(m[1] as string)}, so Node refuses the import of that subpath: import what the package exports (its main entry or a listed subpath) instead, or, if the package is yours, add ${c(m[1] as string)} to its ${c('exports')} map.` },
  { test: /(?:name '(\w+)'|(\S+)) is not defined(?! by "exports")/, hint: (m) => `${c((m[1] ?? m[2]) as string)} is used without being declared or imported in that scope: import or declare it (or fix the spelling).` },
  // Node's module formats: an ES module loaded with `require()`, a name imported from a CommonJS module.
  { test: MODULE_FORMAT, hint: (m) => /Named export/.test(m[0])
      ? `The line imports a named export from a CommonJS module, which Node cannot always see: import the module's default export and read the name from it (${c("import pkg from 'x'; const { name } = pkg;")}), as Node's message says.`
      : `The line loads an ES module with ${c('require()')}${/ASYNC|top-level await/.test(m[0]) ? ', and that module awaits at its top level, which `require()` can never load' : ', which this Node cannot load'}: load it with ${c("await import('...')")} (in an async function, or make this file an ES module: ${c('.mjs')} or ${c('"type": "module"')}), or pin the package to a version that still loads with ${c('require()')}.` },
  { test: /Cannot find module '([^']+)'/, hint: (m) => `Node cannot find ${c(m[1] as string)}: install it (in \`dependencies\` of \`package.json\`, then \`npm ci\`), build the file if it is generated, or fix the path (relative imports need the file's real name and extension in ESM).` },
  { test: /ERR_UNHANDLED_REJECTION|UnhandledPromiseRejection|unhandled (?:promise )?rejection/i, hint: () => 'A promise was rejected and nothing caught it: `await` it inside a `try`/`catch` (or add `.catch`) where it is created, and handle what the rejection says.' },
  // JVM
  { test: /NullPointerException(?::\s*(.*))?/, hint: (m) => `A value used on the raise line is null${m[1] ? ` (the JVM says: ${c((m[1] as string).slice(0, 140))})` : ''}: find where it should have been set (a field not initialised, a lookup that found nothing, a mock not stubbed) and set it, or handle null there.` },
  { test: /NumberFormatException: For input string: "([^"]*)"/, hint: (m) => `The code parsed ${c(m[1] as string)} as a number: parse the form the value is written in, or fix the input it came from.` },
  { test: /ClassCastException: (?:class )?([\w.$]+) cannot be cast to (?:class )?([\w.$]+)/, hint: (m) => `A ${c(m[1] as string)} was cast to ${c(m[2] as string)}: check what the value really is where it is produced (a changed return type, a raw collection), or convert it instead of casting.` },
  { test: /ConcurrentModificationException/, hint: () => 'A collection was changed while it was being iterated: collect the changes and apply them after the loop, use `Iterator.remove()`, `removeIf`, or a concurrent collection.' },
  { test: /(?:IllegalStateException|IllegalArgumentException|InvalidOperationException|ArgumentException)(?::\s*(.+))?/, hint: (m, f) => {
    // A library method's own check (`Enum.valueOf`) rejected what the project's call passed: the check to read is not the project's.
    const lib = raisedInLibrary(f);
    if (lib) return `${c(lib.raise)}, a library method, rejected what the project's call at ${c(lib.project)} passed it${m[1] ? ` (${c((m[1] as string).slice(0, 140))})` : ''}: check what that call passes (where the value comes from, its spelling, case or format) against what ${c(lib.raise)} accepts, or handle the rejection there.`;
    return `The code threw it on purpose: a check at the raise site rejected ${m[1] ? `this state (${c((m[1] as string).slice(0, 140))})` : 'the state or argument it got'}. Read that check: either the caller must do what it requires first (the call order or the arguments the test passes), or the check is wrong for this case.`;
  } },
  { test: /(?:NoSuchMethodError|NoSuchFieldError|AbstractMethodError|IncompatibleClassChangeError|IllegalAccessError|InstantiationError): (.+)/, hint: (m) => `The code was compiled against another version of a class than the one on the classpath at run time (${c((m[1] as string).slice(0, 120))}): align the dependency versions (\`mvn dependency:tree\` / \`gradle dependencies\` shows which one wins), then rebuild everything.` },
  { test: /(?:ClassNotFoundException|NoClassDefFoundError): ([\w.$/]+)/, hint: (m) => `${c((m[1] as string).replace(/\//g, '.'))} is not on the classpath at run time: add the dependency that provides it (with the right scope), or check the class name.` },
  { test: /IndexOutOfBoundsException: (?:Index )?(-?\d+)(?: out of bounds for length (\d+))?/, hint: (m) => `Index ${c(m[1] as string)}${m[2] ? ` of a list of length ${c(m[2] as string)}` : ''}: check the size before indexing, and why the list is shorter than the code expects.` },
  // Ruby, PHP, Perl, Lua, Erlang, OCaml
  { test: /undefined method [`'‘](\w+[?!]?)['’] for (?:nil|an instance of NilClass)/, hint: (m) => `The receiver of ${c(`.${m[1] as string}`)} is \`nil\` on the raise line: the value is not set (a missing record or hash key); set it, or guard with ${c('&.')}.` },
  { test: /undefined (?:local variable or )?method [`'‘](\w+[?!]?)['’] for/, hint: (m) => `${c(m[1] as string)} is not defined on that object (renamed, removed, or a typo): call the method the class defines now, or define it.` },
  { test: /Call to a member function (\w+)\(\) on (null|bool|array|string)/, hint: (m) => `${c(`->${m[1] as string}()`)} was called on ${c(m[2] as string)}: the value before ${c('->')} on the raise line is not the object the code expects (a lookup that found nothing returns null/false); check it first.` },
  // PHP 8 `Class "A\B" not found`, PHP 7 `Class 'A\B' not found` (also an interface, trait or enum): nothing loaded a file declaring it.
  { test: /\b(Class|Interface|Trait|Enum) ["']([\w\\]+)["'] not found\b/, hint: (m) => phpNotFoundHint(m[1] as string, m[2] as string) },
  { test: /Call to undefined (?:function|method) ([\w\\:]+)\(\)/, hint: (m) => `${c(`${m[1] as string}()`)} does not exist (renamed, removed, or its file/extension is not loaded): call the name that exists, or require the file that defines it.` },
  { test: /Can't locate ([\w/]+\.pm) in @INC/, hint: (m) => `Perl cannot find ${c(m[1] as string)}: install the module (\`cpanm\`, listed in the \`cpanfile\`), or add its directory to the include path (\`-Ilib\`, \`use lib\`).` },
  { test: /Can't (?:call|locate object) method "(\w+)"/, hint: (m) => `${c(m[1] as string)} was called on something that is not an object of a class that has it (often undef): check the value on the raise line.` },
  { test: /attempt to (index|call|perform arithmetic on|concatenate) a nil value(?: \((\w+) '([^']+)'\))?/, hint: (m) => `Lua met ${c('nil')} where it had to ${m[1] as string} a value${m[3] ? ` (${m[2] as string} ${c(m[3] as string)})` : ''}: that value is not set on the raise line (a missing table field, a module not returned); set it, or check for nil.` },
  { test: ERLANG_REASON, hint: (m, f) => erlangHint(m[1] as string, f.message) },
  { test: /Fatal error: exception (Not_found|Invalid_argument|Failure)(?:\("([^"]*)"\))?/, hint: (m, f) => ocamlOptHint(m[1] as string, f) ?? `OCaml's ${c(m[1] as string)}${m[2] ? ` (${c(m[2] as string)})` : ''} was not caught: use the \`_opt\` variant (\`List.find_opt\`, \`Hashtbl.find_opt\`) or handle the exception where it is raised.` },
  // Native
  { test: /SIGSEGV|Segmentation fault/, hint: () => 'A segmentation fault is an invalid memory access (a NULL, freed or out-of-bounds pointer): build with `-g -fsanitize=address` or run under `gdb`/`valgrind` to get the line.' },
  { test: /\*\*\* (?:stack smashing|buffer overflow) detected \*\*\*/, hint: () => 'A write went past the end of a fixed-size buffer (a local array filled by `strcpy`, `strcat`, `sprintf` or a loop), and the stack protector (or `_FORTIFY_SOURCE`) stopped the program. Size the buffer for the longest value, and write with a bounded call (`snprintf(buf, sizeof buf, ...)`); `-fsanitize=address` names the line.' },
  { test: /double free or corruption|free\(\): (?:invalid|double)|malloc\(\): |munmap_chunk\(\): invalid pointer|corrupted (?:size|double-linked)/, hint: () => 'The C library found its heap corrupted: memory freed twice, a pointer freed that was not allocated, or a write past the end of an allocation. Run the test under `valgrind` or build with `-fsanitize=address` to get the line that did it.' },
  { test: /terminate called after throwing an instance of '([^']+)'/, hint: (m) => `A C++ exception (${c(m[1] as string)}) was thrown and nothing caught it, so the runtime aborted; its \`what()\` line says why. Fix the value that made it throw${/out_of_range/.test(m[1] as string) ? ' (an index past the end: check it against `.size()`, or use `.at()` where a throw is wanted)' : ''}, or catch it where the program can handle it.` },
  { test: /SIGABRT|Assertion [`'].*[`'] failed|\bAborted \(core dumped\)/, hint: () => 'The program aborted itself: the line it (or its C library) printed just before the abort says why, a failed `assert` names the condition that did not hold at that line.' },
  { test: /std::bad_alloc|Cannot allocate memory|MemoryError/, hint: () => 'An allocation failed: the size asked for is too large for the memory the step has (a size computed from bad input, or a container grown without bound); check the size on the raise line.' },
];

/** The most specific hint for a finding's exception and message, when one applies. */
export function exceptionHint(f: Finding): string | undefined {
  for (const rule of RULES) {
    // The message first (it carries the details), the exception's type alone second.
    const m = rule.test.exec(f.message) ?? (f.exception ? rule.test.exec(f.exception) : null);
    if (m) return rule.hint(m, f);
  }
  return undefined;
}

/** The table as remedy rules (remedyShape.ts): for an exception raised while testing or running, alternatives most specific first. */
export const EXCEPTION_REMEDIES: RemedyRule[] = RULES.map((r, n) => ({
  id: `exception/${n}`,
  specificity: 'wording',
  group: 'exception',
  steps: ({ f, lineText }) => {
    // A JVM linkage error (link-error, linkage `resolve`) is an exception too: its words' step holds for it.
    if (f.class !== 'test-error' && f.class !== 'runtime-exception' && f.linkage?.stage !== 'resolve') return [];
    const m = r.test.exec(f.message) ?? (f.exception ? r.test.exec(f.exception) : null);
    if (!m) return [];
    // A circular import: the loop of imports the trace shows, each cited, is what to break (ux6).
    const cycle = IMPORT_CYCLE.test(f.message) ? importCycleOf(lineText, f.message_line, f.message) : undefined;
    const loop = cycle ? importCycleStep(cycle, IMPORT_CYCLE.exec(f.message)?.[1] as string) : undefined;
    return [{ text: loop ? `${r.hint(m, f)} ${loop}` : r.hint(m, f), lines: cycle ? cycle.flatMap((c) => [c.log_line, c.log_line + 1]) : [] }];
  },
}));

/**
 * One allocation whose size the log prints (Rust's `memory allocation of N bytes failed`): a
 * request of a GiB or more is most often a size computed from a bad value, not a limit too small;
 * the step says so before any advice to raise the limit. `m` cites the message's line.
 */
export function allocationHint(f: Finding, m: string): string | undefined {
  const asked = /memory allocation of (\d+) bytes failed/.exec(f.message)?.[1];
  if (asked === undefined || Number(asked) < 2 ** 30) return undefined;
  return `The program asked for ${inlineCode(`${asked} bytes`)} (${(Number(asked) / 2 ** 30).toFixed(1)} GiB) in a single allocation ${m}: if the data it works on is not that large, the size it computes is wrong (a capacity or length from a bad value, a multiplication that grew); look at the allocations in the code the failing command runs before raising any limit.`;
}

/**
 * A struct or object literal that lacks a field its type requires (rustc E0063, tsc TS2741 and
 * TS2739): the field to add, named as the compiler names it.
 * The type gained a field the literal's author did not set, most often; a default is the other way.
 */
export function missingFields(message: string): string | undefined {
  const rust = /missing fields? ((?:`[\w]+`(?:, | and )?)+)(?: and \d+ other fields?)? in initializer of `([\w:<>]+)`/.exec(message);
  const ts = /Property '([\w$]+)' is missing in type '.+' but required in type '([\w$.<>]+)'/.exec(message) ?? /Type '.+' is missing the following properties from type '([\w$.<>]+)': ([\w$, ]+?)(?:, and \d+ more)?\.?$/.exec(message);
  if (rust) {
    const fields = (rust[1] as string).match(/`\w+`/g) ?? [];
    return `The ${c(rust[2] as string)} literal does not set ${fields.join(', ')}, which ${c(rust[2] as string)} declares: add ${fields.map((x) => c(`${x.slice(1, -1)}: <value>`)).join(', ')} to it (the type's definition shows each field's type), or derive \`Default\` for ${c(rust[2] as string)} and end the literal with \`..Default::default()\` if a default is right.`;
  }
  if (ts) {
    const [type, names] = /^Property/.test(ts[0]) ? [ts[2] as string, [ts[1] as string]] : [ts[1] as string, (ts[2] as string).split(/,\s*/)];
    return `The object given as ${c(type)} lacks ${names.map((x) => c(x)).join(', ')}, which ${c(type)} requires: add ${names.length === 1 ? 'it' : 'them'} to the object, or mark ${names.length === 1 ? 'it' : 'them'} optional (${c(`${names[0] as string}?:`)}) in ${c(type)} if the value may be absent.`;
  }
  return undefined;
}

/** A test's own message that something did not happen within a time it names (`not posted within 25ms`, `timed out after 2s`). */
const TEST_TIME_LIMIT = /\b(?:not|never|no|didn't|did not|wasn't|was not|failed to|timed? ?out|too slow|took)\b.*?\b(?:within|in under|in less than|longer than|after|exceeded)\s+(\d+(?:\.\d+)?\s?(?:ns|µs|us|ms|s|secs?|seconds?|mins?|minutes?))(?![\w])/i;

/** The time limit a test's own check names in its message (`25ms`), when it names one (ux7). */
export const testTimeLimitOf = (message: string): string | undefined => TEST_TIME_LIMIT.exec(message)?.[1];

/** What a hung test usually waits on, in the words of its runtime (the tool that ran it); all of them when the tool is not known. */
export function waitsOf(f: Finding): string {
  // The tool, else the language of the place or of the test's name (`dev.acme.jobs.WorkerPoolTest` is a JVM class).
  const file = f.location?.file ?? '';
  const lang = /\.(?:java|kt|scala)$/.test(file) || /^(?:[a-z_]\w*\.)+[A-Z]\w*(?:[.#]\w+)?$/.test(f.test?.name ?? '') ? 'java' : /\.py$/.test(file) ? 'python' : /\.go$/.test(file) ? 'go' : /\.rs$/.test(file) ? 'cargo' : /\.[cm]?[jt]sx?$/.test(file) ? 'node' : '';
  const tool = `${f.tool ?? ''} ${f.exception ?? ''} ${f.tool ? '' : lang}`;
  if (/\b(?:go|go test)\b/.test(tool)) return 'a channel never closed or read, a `WaitGroup` or mutex never released, a context never cancelled';
  if (/\b(?:jest|vitest|mocha|node|npm|ava|tap)\b/i.test(tool)) return 'a promise or callback never settled, a timer or open handle keeping the loop alive';
  if (/\b(?:maven|surefire|gradle|junit|testng|java|kotlin|scala|sbt)\b|TimedOut/i.test(tool)) return 'a lock, latch or `Future` never released or completed, a thread never joined, a socket read without a timeout';
  if (/\b(?:pytest|unittest|python3?)\b/i.test(tool)) return 'a lock or `queue.get()` without a timeout, a thread or subprocess never exiting, a socket read without a timeout';
  if (/\b(?:cargo|rustc|cargo test)\b/i.test(tool)) return 'a channel receive with no sender left, a `Mutex` never released, a thread never joined';
  return 'a promise or callback never settled, a channel never closed or read, a lock never released';
}

/** Python's indentation errors, each with the edit it asks for (the line is the one the error names). */
export function indentationHint(message: string): string | undefined {
  if (/unindent does not match any outer indentation level/.test(message)) return 'The line is indented to a depth no enclosing block has: line it up with the block it belongs to (mixed tabs and spaces look aligned and are not: `python -m tabnanny <file>` finds them).';
  if (/expected an indented block/.test(message)) return 'A line ending in `:` (a `def`, `if`, `for`, `class`...) has no indented body after it: indent the body, or put `pass` there if the block is meant to be empty.';
  if (/unexpected indent/.test(message)) return 'The line is indented more than the block it is in: remove the extra indentation (or restore the line ending in `:` that should open a block above it).';
  if (/TabError: inconsistent use of tabs and spaces/.test(message)) return 'The block mixes tabs and spaces: indent it with spaces only (most editors convert on save; `python -m tabnanny <file>` finds the lines).';
  return undefined;
}
