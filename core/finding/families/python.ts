/**
 * Python: the interpreter, pip and pytest: evidence rules of the tuning rounds 10, 11, 13 (issue 25; docs/notes/analyzer.md, each
 * round's "opened" section), kept by tool family (rv3, session 43). Each is a tool's own wording for one cause,
 * never a case's words. Tried with RULES (rules.ts): `PYTHON_FIRST_RULES` before the general rules (each is
 * narrower than a general rule that matches the same line), `PYTHON_RULES` after the general rules and the cross-tool families' (rules.ts).
 */
import type { Rule } from '../ruleTypes.js';

/**
 * Standard-library modules of one Python version and not another: added in 3.9 (zoneinfo, graphlib), 3.11
 * (tomllib, wsgiref.types); removed in 3.12 (distutils, imp, asynchat, asyncore, smtpd) and 3.13 (the PEP 594
 * "dead batteries"). Not found, the interpreter is the wrong version, not a package the environment lacks.
 */
const VERSIONED_STDLIB =
  'tomllib|zoneinfo|graphlib|distutils|imp|asynchat|asyncore|smtpd|aifc|audioop|cgi|cgitb|chunk|crypt|imghdr|mailcap|msilib|nis|nntplib|ossaudiodev|pipes|sndhdr|spwd|sunau|telnetlib|uu|xdrlib|lib2to3';

/**
 * CPython's own C extension modules that a build leaves out when a library's headers are missing as the interpreter is
 * compiled (setup's "The necessary bits to build these optional modules were not found"; Debian ships some apart):
 * `No module named '_gdbm'` raised by the standard library's own `from _gdbm import *` in dbm/gnu.py.
 */
const OPTIONAL_STDLIB_EXT = '_gdbm|_dbm|_sqlite3|_ssl|_hashlib|_ctypes|_bz2|_lzma|_tkinter|_curses|_curses_panel|_uuid|_decimal|_ctypes_test|readline|zlib|pyexpat|_posixshmem';

/** ruff's full format: a diagnostic's code and sentence (`S608 Possible SQL injection ...`), its place on the next line. */
export const RUFF_HEAD = /^([A-Z]{1,4}\d{3,4}) (?:\[\*\] )?\S.*$/;
export const RUFF_PLACE = /^\s*--> ((?:[^\s:]+\/)?[^\s:/]+\.pyi?):(\d+):(\d+)$/;

export const PYTHON_FIRST_RULES: Rule[] = [
  // pip refusing a line of a requirements file it cannot parse (`ERROR: Invalid requirement: 'x=1.0' (from line 2
  // of requirements.txt)`, a path that is not there read as a name): the project's dependency list does not resolve.
  {
    cls: 'dependency-resolution',
    priority: 44,
    confidence: 'medium',
    re: /^(?:ERROR: )?Invalid requirement: '([^']*)'(?: \(from line (\d+) of (\S+?)\))?/,
    read: (m) => ({ tool: 'pip', dependency: m[1] as string, ...(m[2] && m[3] ? { file: m[3], line: Number(m[2]) } : {}) }),
  },
  // pip's warning that an index refused its credentials (`WARNING: 401 Error, Credentials not correct for
  // https://host/simple/pkg/`), the cause of the `No matching distribution` under it: the index saw the wrong or no
  // credentials (the resolver's verdict names the package it then could not find; cause.ts reads it back).
  { cls: 'permission-credentials', priority: 19, confidence: 'high', re: /^WARNING: 40[13] Error, Credentials not correct for (\S+)/, read: (m) => ({ tool: 'pip', host: /^https?:\/\/(?:[^@/]+@)?([^/:]+)/.exec(m[1] as string)?.[1] ?? (m[1] as string) }) },
];

export const PYTHON_RULES: Rule[] = [
  // pytest refusing an option that one of its plugins adds (`error: unrecognized arguments: -n` with its `inifile:` /
  // `rootdir:` under it): pytest parses the ini file's `addopts` with its own, so the plugin (pytest-xdist's
  // `-n`/`--dist`, pytest-cov's `--cov*`, pytest-timeout's `--timeout`, pytest-rerunfailures' `--reruns`, pytest-html's
  // `--html`, pytest-benchmark's `--benchmark-*`) is not installed. Another unknown option stays the script's (ci-script).
  {
    cls: 'missing-tool',
    priority: 13,
    confidence: 'medium',
    re: /^(?:ERROR: )?[\w.-]+: error: unrecognized arguments?: (?:.*\s)?(?:(-n|--numprocesses|--dist|--maxprocesses)|(--cov(?:-[\w-]+)?|--no-cov)|(--timeout(?:-method)?)|(--reruns(?:-delay)?|--only-rerun)|(--html|--self-contained-html)|(--benchmark-[\w-]+))(?:[=\s]|$)/,
    below: /^\s+(?:inifile|configfile|rootdir): /,
    read: (m) => ({ tool: 'pytest', dependency: m[1] ? 'pytest-xdist' : m[2] ? 'pytest-cov' : m[3] ? 'pytest-timeout' : m[4] ? 'pytest-rerunfailures' : m[5] ? 'pytest-html' : 'pytest-benchmark' }),
  },
  // pytest that selected no test (`collected 3 items / 3 deselected / 0 selected`, `collected 0 items`, `no tests
  // ran`): it exits 5, so the step fails without a failing test; the script's selection (`-m`, `-k`, paths) matches nothing.
  {
    cls: 'ci-script',
    priority: 48,
    confidence: 'medium',
    re: /^collected \d+ items? \/ \d+ deselected \/ 0 selected\s*$|^collected 0 items\s*$|^=+ no tests ran in [\d.]+s =+$/,
    read: () => ({ tool: 'pytest' }),
  },
  // The interpreter asked to run a script the checkout does not have: Python's `python3: can't open file '/ws/x.py':
  // [Errno 2] No such file or directory`, Node's `Error: Cannot find module '/ws/scripts/x.js'` for its entry point
  // (an empty `requireStack: []`: no module of the project's required it). The CI script names a wrong path
  // (helper t12). A module another one requires, or a package name, is a dependency (rules.ts).
  { cls: 'ci-script', priority: 15, confidence: 'high', re: /^(?:\S*\/)?python[\d.]*: can't open file '([^']+)': \[Errno 2\] No such file or directory/, read: (m) => ({ tool: 'python', symbol: m[1] as string }) },
  // ruff's full output format (ruff >= 0.9's default): the rule's code and sentence on a line of their own (`S608 Possible
  // SQL injection vector ...`, `F401 [*] \`re\` imported but unused`), the place under it (` --> stock/report.py:9:11`),
  // then the source excerpt (`9 |     sql = f"..."`): the diagnostic is the code's line, at that place (round 19, t20;
  // rounds 16-18's ruff rows too), as for ruff's concise `file:line:col: CODE` (rules.ts). generic.ts reads the same
  // shape when the window opens at the arrow (the code's line just above it).
  {
    cls: 'lint',
    priority: 35,
    confidence: 'high',
    re: RUFF_HEAD,
    below: RUFF_PLACE,
    read: (m, _line, under) => ({ tool: 'ruff', code: m[1] as string, ...(under ? { file: under[1] as string, line: Number(under[2]), column: Number(under[3]) } : {}) }),
  },
  // `python -m pkg` of a package without `__main__.py` (`python3: No module named pkg.__main__; 'pkg' is a package and
  // cannot be directly executed`): the script runs a module the package does not have (round 19, t20).
  { cls: 'ci-script', priority: 15, confidence: 'high', re: /^(?:\S*\/)?python[\d.]*: No module named ([\w.]+)\.__main__; '[\w.]+' is a package and cannot be directly executed/, read: (m) => ({ tool: 'python', symbol: m[1] as string }) },
  // http.client's peer that closed the connection without an HTTP answer (`http.client.RemoteDisconnected: Remote end
  // closed connection without response`, also inside requests' `ConnectionError(... RemoteDisconnected(...))`): the
  // server side of the connection (round 19, t20), as Node's `socket hang up` (ECONNRESET).
  { cls: 'network', priority: 39, confidence: 'medium', re: /\bRemoteDisconnected\b.*\bRemote end closed connection without response\b/, read: () => ({ tool: 'python', exception: 'RemoteDisconnected' }) },
  // pytest given a path that does not exist (`ERROR: file or directory not found: tests/unit`, exit 4 usage error).
  { cls: 'ci-script', priority: 15, confidence: 'high', re: /^ERROR: file (?:or directory )?not found: (\S+)/, read: (m) => ({ tool: 'pytest', symbol: m[1] as string }) },
  // A standard module of another Python version (see VERSIONED_STDLIB): the interpreter is the wrong one.
  {
    cls: 'missing-tool',
    priority: 46,
    confidence: 'high',
    re: new RegExp(String.raw`^(?:E\s+)?(ModuleNotFoundError): No module named '(${VERSIONED_STDLIB})'`),
    read: (m) => ({ tool: 'python', exception: m[1] as string, symbol: 'python' }),
  },
  // A C extension of the standard library the agent's Python was built without (OPTIONAL_STDLIB_EXT), also in Debian's
  // words (`ImportError: No module named '_gdbm', please install the python3-gdbm package`): the interpreter lacks it,
  // no package of the project's (session 50; round 24's python-dbm-gnu-module-not-built-on-agent).
  {
    cls: 'missing-tool',
    priority: 46,
    confidence: 'high',
    re: new RegExp(String.raw`^(?:E\s+)?(ModuleNotFoundError|ImportError): No module named '(${OPTIONAL_STDLIB_EXT})'(?:$|, please install the ([\w.+-]+) package)`),
    read: (m) => ({ tool: 'python', exception: m[1] as string, symbol: m[3] ?? 'python' }),
  },
  // pytest's own check of the project's `minversion` (pytest.ini, pyproject.toml, tox.ini, setup.cfg): `ERROR:
  // /ws/pytest.ini: 'minversion' requires pytest-9.1, actual pytest-9.0.3'`: the agent's pytest is older than the
  // project needs, before any test was collected (test/fixtures/grammar pytest-minversion; session 49).
  { cls: 'missing-tool', priority: 54, confidence: 'high', re: /^ERROR: \S+: 'minversion' requires pytest-[\w.]+, actual pytest-[\w.]+/, read: () => ({ tool: 'pytest', symbol: 'pytest' }) },
];
