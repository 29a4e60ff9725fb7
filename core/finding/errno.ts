/**
 * Errors of the system, in the words every C/Unix tool and runtime prints them (docs/notes/analyzer.md, "Round 17
 * tuning (helper t18)"): evidence of what a program MET, whatever program it was, never of a value a test checked.
 */

/**
 * The C library's strerror texts (glibc's, the ones a build meets), which any tool prints after its own words
 * (`sed: can't read x: No such file or directory`, `x.c:16: load failed: Too many open files`), and Go's lowercase
 * forms of the same (`open x: permission denied`).
 */
export const OS_ERROR = /\b(?:No such file or directory|Permission denied|Operation not permitted|No space left on device|Disk quota exceeded|Read-only file system|Cannot allocate memory|Too many open files|Connection refused|Connection reset by peer|Connection timed out|Network is unreachable|No route to host|Name or service not known|Temporary failure in name resolution|Broken pipe|Is a directory|Not a directory|File exists|Device or resource busy|Resource temporarily unavailable|Input\/output error|Bad file descriptor|Directory not empty|Text file busy|Too many levels of symbolic links|File name too long|Argument list too long|Exec format error)\b/i;

/**
 * A wrapped Go error: Go's convention prefixes an error with its package's name (`json: unknown field "x"`,
 * `bufio.Scanner: token too long`, `strconv.Atoi: parsing "x": invalid syntax`), and a caller wraps it with its own
 * context (`fmt.Errorf("load %s: %w", ...)`), so a package's name between two `: ` is an error passed up, not a check.
 */
export const GO_WRAPPED = /: [a-z][a-z0-9]*(?:\.[A-Z][A-Za-z0-9]*)?: \S/;

/** A check's words: a value against what was wanted (which an error the program met does not print). */
export const CHECKED = /\bexpected\b|\bwant(?:ed)?\b|\bgot\b|\bactual\b|\bmismatch\b|\bnot equal\b|\bassert\w*\b|\bshould (?:be|equal|have)\b|\bdiffers?\b/i;
