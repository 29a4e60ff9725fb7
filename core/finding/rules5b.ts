/**
 * Evidence rules from round 5's batch B once it was opened for tuning (issue 25, helper fix5b).
 * Each is the wording many tools share for one cause, never a case's words: a package manager
 * that has no such package, a build's unmet dependencies, a pinned commit the remote does not
 * have, an add-on or plugin a tool cannot load, a name that already exists (a tag, a branch, a
 * clone's directory), a signature that cannot be checked, a linker's memory region overflow,
 * a wait that timed out, an interpreter's uncaught exception (`Exception- X raised`), the C
 * library's and C++ runtime's reason for an abort, a packager's missing file, a test whose output
 * did not match its expected pattern, a shell's redirect of an empty variable, a script whose
 * line endings are CRLF. Tried with RULES (rules.ts).
 */
import type { Rule } from './ruleTypes.js';

export const ROUND5B_RULES: Rule[] = [
  // A package manager that has no package of that name (apt, yum/dnf, zypper, pacman, apk, Homebrew, conda).
  {
    cls: 'dependency-resolution',
    priority: 45,
    confidence: 'high',
    re: /^E: (?:Unable to locate package (\S+)|Package '([^']+)' has no installation candidate)|^No (?:package|match for argument:?) (\S+?)(?: available)?\.?$|^error: target not found: (\S+)|^Error: Unable to find a match: (\S+)|^No provider of '([^']+)' found|^ERROR: unable to select packages:|^Error: No available formula with the name "([^"]+)"|\bPackagesNotFoundError: The following packages are not available/,
    read: (m) => {
      const name = m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5] ?? m[6] ?? m[7];
      return name ? { dependency: name } : {};
    },
  },
  // A build's declared dependencies not installed (dpkg-checkbuilddeps, `Unmet dependencies`, rpmbuild's `Failed build dependencies:`).
  { cls: 'dependency-resolution', priority: 45, confidence: 'high', re: /\bUnmet (?:build )?dependencies\b(?::\s*(\S+))?|^error: Failed build dependencies:/, read: (m) => (m[1] ? { dependency: m[1] } : {}) },
  // A pinned commit the remote does not have (a submodule's commit never pushed, a lock's revision gone).
  { cls: 'dependency-resolution', priority: 44, confidence: 'high', re: /\bdid not contain [0-9a-f]{7,40}\b|\breference is not a tree: [0-9a-f]{7,40}\b|\bUnable to checkout '[0-9a-f]{7,40}' in submodule path\b/, read: () => ({ tool: 'git' }) },
  { cls: 'dependency-resolution', priority: 46, confidence: 'medium', re: /\bnot our ref [0-9a-f]{7,40}\b/, read: () => ({ tool: 'git' }) },
  // A tool that cannot load an add-on, plugin or extension it was told to use: the package providing it is not installed.
  { cls: 'missing-tool', priority: 35, confidence: 'medium', re: /\b(?:error|Error|ERROR): (?:unable to|cannot|could not|failed to) load (?:the )?(?:addon|add-on|plugin|extension|module) [`'"‘]?([\w.:/-]+)/, read: (m) => ({ dependency: m[1] as string }) },
  // A name the script creates that already exists: git's tag/branch/remote, a clone's non-empty directory.
  { cls: 'ci-script', priority: 14, confidence: 'high', re: /^fatal: (?:(?:tag|branch|remote|worktree) '[^']+' already exists|a branch named '[^']+' already exists|destination path '[^']+' already exists and is not an empty directory)/, read: () => ({ tool: 'git' }) },
  // A signature that cannot be checked or does not hold (gpg, apt's `NO_PUBKEY`); a `warning:` line (rpm's routine `NOKEY`) is not the failure.
  { cls: 'permission-credentials', priority: 35, confidence: 'high', re: /^(?!.*\b[Ww]arning\b).*(?:\bCan't check signature: No public key\b|\bNO_PUBKEY [0-9A-F]+|\bBAD signature from\b|\bsignature verification failed\b|\bThe following signatures couldn't be verified\b|\bsignatures? (?:is |are )?invalid\b)/, read: () => ({}) },
  // A linker that ran out of a memory region of its script (GNU ld, lld): the program is too big for it.
  { cls: 'link-error', priority: 31, confidence: 'high', re: /^(?:\S*\/)?(?:ld|ld\.bfd|ld\.gold|ld\.lld|lld)(?:\.exe)?: (?:error: )?.*\bregion [`'‘]?[\w.]+['’]? overflowed by \d+ bytes?|overflowed by \d+ bytes?$/, read: () => ({ tool: 'ld' }) },
  { cls: 'link-error', priority: 33, confidence: 'medium', re: /^(?:\S*\/)?(?:ld|ld\.bfd|ld\.gold|ld\.lld)(?:\.exe)?: (?!warning)(?:error: )?.*\b(?:will not fit in region|section .* overlaps section)\b/, read: () => ({ tool: 'ld' }) },
  // A wait for something that never came (expect's prompt, a server's port, a condition).
  { cls: 'timeout-aborted', priority: 30, confidence: 'medium', re: /^(?!.*\b(?:[Cc]onnect(?:ion)?|[Rr]esolv\w*|handshake)\b).*\b[Tt]imed out waiting for\b/, read: () => ({}) },
  // An interpreter's own report of an exception nothing caught: Poly/ML's `Exception- Fail "x" raised`.
  { cls: 'runtime-exception', priority: 58, confidence: 'medium', re: /^Exception- (\w[\w.]*)\b.* raised$/, read: (m) => ({ exception: m[1] as string }) },
  // The C library's or the C++ runtime's reason for an abort, printed over the shell's `Aborted`.
  { cls: 'runtime-exception', priority: 50, confidence: 'high', re: /^\*\*\* (?:stack smashing|buffer overflow) detected \*\*\*|^(?:double free or corruption|free\(\): (?:invalid|double)|malloc\(\): |realloc\(\): invalid|munmap_chunk\(\): invalid pointer|corrupted (?:size|double-linked))/, read: (m) => ({ exception: /stack smashing/.test(m[0]) ? 'stack smashing' : /buffer overflow/.test(m[0]) ? 'buffer overflow' : 'heap corruption' }) },
  { cls: 'runtime-exception', priority: 50, confidence: 'high', re: /^terminate called after throwing an instance of '(?!std::bad_alloc')([^']+)'/, read: (m) => ({ tool: 'c++', exception: m[1] as string }) },
  // A packager told to pack a file the install step did not make (rpmbuild's `%files`).
  { cls: 'ci-script', priority: 40, confidence: 'medium', re: /^error: File not found(?: by glob)?: (\/\S+)$|^error: Installed \(but unpackaged\) file\(s\) found:?$/, read: () => ({ tool: 'rpmbuild' }) },
  // A test whose output did not match the pattern it must print (ctest's PASS_REGULAR_EXPRESSION / FAIL_REGULAR_EXPRESSION).
  { cls: 'test-assertion', priority: 54, confidence: 'high', re: /^\s*\d+\/\d+ Test\s+#\d+: (\S+) \.*\s*\*\*\*Failed\s+(?:Required regular expression not found|Error regular expression found|Regular expression .* found)/, read: (m) => ({ tool: 'ctest', test: m[1] as string }) },
  // The shell's redirect to a variable that is empty or splits into words.
  { cls: 'ci-script', priority: 12, confidence: 'high', re: /^(?:\S+: )?(?:line \d+: )?\S+: ambiguous redirect$/, read: () => ({ tool: 'sh' }) },
  // A script saved with CRLF line endings: its shebang names `bash\r`, or each line ends in `\r`.
  { cls: 'ci-script', priority: 12, confidence: 'high', re: /\\r['’]?: No such file or directory$|\$'\\r': command not found$|\^M: bad interpreter\b|\r: bad interpreter\b/, read: () => ({ tool: 'sh' }) },
];
