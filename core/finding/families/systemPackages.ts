/**
 * System packages: a package manager that has no package of that name (apt, yum/dnf, zypper, pacman, apk,
 * Homebrew, conda), a build's declared dependencies not installed, a library a build file names that the
 * environment lacks, a signature that cannot be checked, a packager's file the install step did not make.
 * Rules of the tuning rounds 4 and 5 (issue 25, helpers fix4b, fix5b; docs/notes/analyzer.md), kept by what
 * they concern (rv5, session 45). Tried with RULES (rules.ts): `SYSTEM_PACKAGE_FIRST_RULES` before the general
 * rules, `SYSTEM_PACKAGE_RULES` after them, as before.
 */
import type { Rule } from '../ruleTypes.js';

export const SYSTEM_PACKAGE_FIRST_RULES: Rule[] = [
  // A build file naming a library the environment lacks: dune's `Error: Library "yojson" not found.` under `File "bin/dune", line 3, characters 12-18:`.
  { cls: 'dependency-resolution', priority: 45, confidence: 'high', re: /^Error: (?:Library|Package) "([^"]+)" not found\.?$/, near: { re: /^File "(?<file>[^"]+)", line (?<line>\d+), characters (?<col>\d+)-\d+:$/, from: -6, to: -1 }, read: (m) => ({ dependency: m[1] as string }) },
];

export const SYSTEM_PACKAGE_RULES: Rule[] = [
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
  // A signature that cannot be checked or does not hold (gpg, apt's `NO_PUBKEY`); a `warning:` line (rpm's routine `NOKEY`) is not the failure.
  { cls: 'permission-credentials', priority: 35, confidence: 'high', re: /^(?!.*\b[Ww]arning\b).*(?:\bCan't check signature: No public key\b|\bNO_PUBKEY [0-9A-F]+|\bBAD signature from\b|\bsignature verification failed\b|\bThe following signatures couldn't be verified\b|\bsignatures? (?:is |are )?invalid\b)/, read: () => ({}) },
  // A packager told to pack a file the install step did not make (rpmbuild's `%files`).
  { cls: 'ci-script', priority: 40, confidence: 'medium', re: /^error: File not found(?: by glob)?: (\/\S+)$|^error: Installed \(but unpackaged\) file\(s\) found:?$/, read: () => ({ tool: 'rpmbuild' }) },
];
