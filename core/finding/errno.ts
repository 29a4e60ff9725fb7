/**
 * Errors of the system, in the words every C/Unix tool and runtime prints them (docs/notes/analyzer.md, "Round 17
 * tuning (helper t18)"): evidence of what a program MET, whatever program it was, never of a value a test checked.
 */
import { escapeRegExp } from '../regexp.js';

/** The conditions the answers tell apart in an OS error (backend/answer/local/osWords.ts, osCondition.ts). */
export type OsKind = 'permission' | 'read-only' | 'no-space' | 'missing-path' | 'refused';

/** One error of the system: how the C library, the kernel's symbol and the runtimes print it, and what it means to a build. */
export interface OsError {
  /** The symbol (`errno.h`; `netdb.h` for the resolver's EAI_ codes). */
  errno: string;
  /** Its number on Linux (what Python's `[Errno N]` and Rust's `(os error N)` print); the resolver's are negative. */
  code: number;
  /** glibc's strerror (gai_strerror for EAI_) text, which any tool prints after its own words. */
  text: string;
  /** The condition the answers make of it, when they make one. */
  kind?: OsKind;
  /** Other spellings of the same condition (a runtime's exception name, SQLite's words), as regular-expression sources. */
  also?: readonly string[];
}

/**
 * The errors of the system a build meets, one row each. The finding reads their texts (OS_ERROR: evidence of what a
 * program met); the answers read the conditions (`osKindWords`: a path refused, read-only, no space, missing, a
 * connection refused).
 */
export const OS_ERRORS: readonly OsError[] = [
  { errno: 'ENOENT', code: 2, text: 'No such file or directory', kind: 'missing-path', also: ['FileNotFoundError', 'NoSuchFileException', 'FileNotFoundException', 'kind: NotFound'] },
  { errno: 'EACCES', code: 13, text: 'Permission denied', kind: 'permission', also: ['PermissionError', 'PermissionDenied', 'AccessDeniedException', 'UnauthorizedAccessException', 'Access to the path .* is denied', 'insufficient permission'] },
  { errno: 'EPERM', code: 1, text: 'Operation not permitted', kind: 'permission' },
  { errno: 'ENOSPC', code: 28, text: 'No space left on device', kind: 'no-space', also: ['database or disk is full', 'DiskFull'] },
  { errno: 'EDQUOT', code: 122, text: 'Disk quota exceeded' },
  { errno: 'EROFS', code: 30, text: 'Read-only file system', kind: 'read-only', also: ['(?:attempt to write a )?read-?only database'] },
  { errno: 'ENOMEM', code: 12, text: 'Cannot allocate memory' },
  { errno: 'EMFILE', code: 24, text: 'Too many open files' },
  { errno: 'ECONNREFUSED', code: 111, text: 'Connection refused', kind: 'refused', also: ['ConnectionRefused'] },
  { errno: 'ECONNRESET', code: 104, text: 'Connection reset by peer' },
  { errno: 'ETIMEDOUT', code: 110, text: 'Connection timed out' },
  { errno: 'ENETUNREACH', code: 101, text: 'Network is unreachable' },
  { errno: 'EHOSTUNREACH', code: 113, text: 'No route to host' },
  { errno: 'EAI_NONAME', code: -2, text: 'Name or service not known' },
  { errno: 'EAI_AGAIN', code: -3, text: 'Temporary failure in name resolution' },
  { errno: 'EPIPE', code: 32, text: 'Broken pipe' },
  { errno: 'EISDIR', code: 21, text: 'Is a directory' },
  { errno: 'ENOTDIR', code: 20, text: 'Not a directory' },
  { errno: 'EEXIST', code: 17, text: 'File exists' },
  { errno: 'EBUSY', code: 16, text: 'Device or resource busy' },
  { errno: 'EAGAIN', code: 11, text: 'Resource temporarily unavailable' },
  { errno: 'EIO', code: 5, text: 'Input/output error' },
  { errno: 'EBADF', code: 9, text: 'Bad file descriptor' },
  { errno: 'ENOTEMPTY', code: 39, text: 'Directory not empty' },
  { errno: 'ETXTBSY', code: 26, text: 'Text file busy' },
  { errno: 'ELOOP', code: 40, text: 'Too many levels of symbolic links' },
  { errno: 'ENAMETOOLONG', code: 36, text: 'File name too long' },
  { errno: 'E2BIG', code: 7, text: 'Argument list too long' },
  { errno: 'ENOEXEC', code: 8, text: 'Exec format error' },
];

/**
 * The C library's strerror texts (glibc's, the ones a build meets), which any tool prints after its own words
 * (`sed: can't read x: No such file or directory`, `x.c:16: load failed: Too many open files`), and Go's lowercase
 * forms of the same (`open x: permission denied`).
 */
export const OS_ERROR = new RegExp(String.raw`\b(?:${OS_ERRORS.map((e) => escapeRegExp(e.text)).join('|')})\b`, 'i');

/** An error's own words, as a regular-expression source: its text, its symbol, Python's `[Errno N]`, Rust's `(os error N)`. */
export function osErrorWords(e: OsError): string {
  return [escapeRegExp(e.text), String.raw`\b${e.errno}\b`, String.raw`\[Errno ${e.code}\]`, String.raw`os error ${e.code}\b`].join('|');
}

/** Every spelling of one condition (`kind`): its errors' own words and the other spellings of them; case ignored. */
export function osKindWords(kind: OsKind): RegExp {
  const errors = OS_ERRORS.filter((e) => e.kind === kind);
  return new RegExp(errors.flatMap((e) => [osErrorWords(e), ...(e.also ?? [])]).join('|'), 'i');
}

/**
 * A wrapped Go error: Go's convention prefixes an error with its package's name (`json: unknown field "x"`,
 * `bufio.Scanner: token too long`, `strconv.Atoi: parsing "x": invalid syntax`), and a caller wraps it with its own
 * context (`fmt.Errorf("load %s: %w", ...)`), so a package's name between two `: ` is an error passed up, not a check.
 */
export const GO_WRAPPED = /: [a-z][a-z0-9]*(?:\.[A-Z][A-Za-z0-9]*)?: \S/;

/** A check's words: a value against what was wanted (which an error the program met does not print). */
export const CHECKED = /\bexpected\b|\bwant(?:ed)?\b|\bgot\b|\bactual\b|\bmismatch\b|\bnot equal\b|\bassert\w*\b|\bshould (?:be|equal|have)\b|\bdiffers?\b/i;
