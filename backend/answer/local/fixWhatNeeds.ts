/**
 * "How do I fix it?" that names what the fix needs (issue 25, session 48, helper fx10): the values the log
 * itself prints around the error, turned into the step. Each step cites the lines it rests on; where the
 * log does not settle the choice, the step says so.
 * - **What filled the disk**: the write a full disk stopped (Gradle's `Could not copy file 'A' to 'B'` /
 *   `Could not add file 'A' to ZIP 'B'`, and the build directory that destination lies in), and the flags of
 *   the commands writing there that make their output larger (`-static`, `-g3`, `--coverage`, `-save-temps`).
 * - **The version asked for and the versions found**: CMake's `requested version "2.0"` over the config files
 *   it considered (`..., version: 1.4.2`) or a Find module's `Found unsuitable version "X", but required is
 *   at least "Y"`; Gradle's `A conflict was found between the following modules:` with the versions listed.
 * - **The tests that ran before a failed test in the same process** (surefire's `Running C`, unittest's and pytest's
 *   verbose lines, `go test -v`'s top-level `=== RUN`): said as a condition (if it passes alone, one of them left
 *   shared state behind), never as the cause.
 */
import { buildRootIn } from '../../../core/log/agentRoot.js';
import type { Finding } from '../../../protocol/types.js';
import { cite, inlineCode, type LogSpan } from '../logtext.js';
import { reader } from './fixNamed.js';
import { dirOf } from './osWords.js';
import { at } from './findingText.js';
import { rule, type RemedyRule, type RemedyStep } from './remedyShape.js';

const baseOf = (p: string): string => p.slice(p.lastIndexOf('/') + 1);

/** Lines that open a new step of the build: a command's output before them is another step's. */
const STEP_START = /^\[Pipeline\] (?:sh|bat|powershell|stage)\b|^##\[group\]Run |^Started by /;

/**
 * Flags that make a compiler's or linker's output larger, and what each adds (the reason given in the step).
 * Only flags whose effect on size is what the flag is for or its documented cost.
 */
const GROWING_FLAGS: readonly { re: RegExp; flag: string; adds: string; instead: string }[] = [
  { re: /(?:^|\s)-static(?=\s|$)/, flag: '-static', adds: "copies the code of every library it links into the output, which makes it several times a dynamic link's size", instead: 'link dynamically' },
  { re: /(?:^|\s)-g(?:gdb)?3(?=\s|$)/, flag: '-g3', adds: 'adds every macro definition to the debug information, several times what `-g` writes into each object', instead: 'use `-g` (or split the debug information out with `-gsplit-dwarf`)' },
  { re: /(?:^|\s)(?:--coverage|-fprofile-arcs)(?=\s|$)/, flag: '--coverage', adds: 'writes a `.gcno` notes file beside every object (and `.gcda` counts when the program runs)', instead: 'build coverage only where it is measured' },
  { re: /(?:^|\s)-save-temps(?:=\S+)?(?=\s|$)/, flag: '-save-temps', adds: 'keeps the preprocessed and assembler file of every source beside its object', instead: 'drop it outside debugging' },
];

/** The output path of a command (`-o X`, `--output X`), or of `ar`/`ranlib` (their archive). */
function outputOf(command: string): string | undefined {
  const o = /(?:^|\s)(?:-o\s*|--output[= ])([^\s;|&'"]+)/.exec(command)?.[1];
  if (o) return o;
  return /(?:^|[\s/])ar\s+-?[a-zA-Z]+\s+([^\s;|&'"]+\.a)(?=\s|$)/.exec(command)?.[1];
}

/** The full filesystem's directory: the absolute path the message names, else the output of the command right before the error. */
function fullDirOf(f: Finding, text: (n: number) => string, from: number): { dir: string; line: number } | undefined {
  // (Not the tool's own path that opens the message: `/usr/bin/ld: final link failed`.)
  const inMessage = /(?:^|[\s'"`(])(\/[\w.@+-]+(?:\/[\w.@+-]+)+)/.exec(f.message.replace(/^\/(?:usr\/)?(?:local\/)?s?bin\/[\w.+-]+: /, ''))?.[1];
  if (inMessage) return { dir: dirOf(inMessage.replace(/:$/, '')), line: f.message_line };
  for (let n = f.message_line - 1; n >= from; n--) {
    const out = outputOf(text(n));
    if (out) return { dir: dirOf(out), line: n };
  }
  return undefined;
}

/**
 * A full disk: the commands of the step (up to 80 lines back) that wrote into the full filesystem's directory with
 * a flag that makes their output larger. One step per flag, citing the first such command.
 */
export function growingFlagSteps(f: Finding, log: LogSpan): RemedyStep[] {
  if (f.class !== 'disk-full') return [];
  const text = reader(log);
  const from = Math.max(log.start_line, f.message_line - 80);
  let start = from;
  for (let n = f.message_line - 1; n >= from; n--) {
    if (STEP_START.test(text(n))) {
      start = n + 1;
      break;
    }
  }
  const full = fullDirOf(f, text, Math.max(start, f.message_line - 5));
  if (!full) return [];
  const out: RemedyStep[] = [];
  const seen = new Set<string>();
  for (let n = start; n < f.message_line; n++) {
    const t = text(n).replace(/^\+{1,3} /, '');
    const target = outputOf(t);
    if (!target || !(dirOf(target) === full.dir || target.startsWith(`${full.dir}/`) || full.dir.startsWith(`${dirOf(target)}/`))) continue;
    for (const g of GROWING_FLAGS) {
      if (seen.has(g.flag) || !g.re.test(t)) continue;
      seen.add(g.flag);
      out.push({
        text: `${inlineCode(g.flag)} is on the command that writes ${inlineCode(target)} ${at(n)}, on the full filesystem: it ${g.adds}. If the flag is new since the last green build, the larger output may be what no longer fits: ${g.instead}, or give that filesystem more room.`,
        lines: [n],
      });
    }
  }
  return out;
}

/** Gradle's account of the write a full disk stopped: `Could not copy file 'A' to 'B'.` / `Could not add file 'A' to ZIP 'B'.` */
const GRADLE_WRITE = /^(?:> |Caused by: \S+: )?Could not (copy|add) file '([^']+)' to (?:ZIP )?'([^']+)'/;
/** Where Gradle writes under its build directory: the part of a destination after the build directory. */
const GRADLE_BUILD_PARTS = /^(.+?)\/(?:resources\/(?:main|test)|classes\/(?:java|kotlin|groovy|scala)|libs|distributions|reports|test-results)\//;
/** The agent's workspace the log names (Jenkins' `Building in workspace X` / `Running on N in X`). */

/** A full disk that Gradle's log names the write of: the file, the destination, and the build directory it lies in. */
export function gradleWriteSteps(f: Finding, log: LogSpan): RemedyStep[] {
  if (f.class !== 'disk-full') return [];
  const text = reader(log);
  let write: { n: number; verb: string; from: string; to: string } | undefined;
  for (let n = f.message_line; n >= Math.max(log.start_line, f.message_line - 150) && !write; n--) {
    const m = GRADLE_WRITE.exec(text(n));
    if (m) write = { n, verb: m[1] as string, from: m[2] as string, to: m[3] as string };
  }
  if (!write) return [];
  const out: RemedyStep[] = [
    {
      text: `The write the full disk stopped: Gradle was ${write.verb === 'add' ? 'adding' : 'copying'} ${inlineCode(baseOf(write.from))} (${inlineCode(write.from)}) ${write.verb === 'add' ? 'into' : 'to'} ${inlineCode(write.to)} ${at(write.n)}. The filesystem that holds ${inlineCode(dirOf(write.to))} is full; if ${inlineCode(baseOf(write.from))} is new or grew since the last green build, it may be what no longer fits.`,
      lines: [write.n],
    },
  ];
  const buildDir = GRADLE_BUILD_PARTS.exec(write.to)?.[1];
  if (!buildDir) return out;
  // The project's directory: the source's, when Gradle copied out of `<project>/src/main/...`; else the agent's workspace line.
  const project = /^(\/.+?)\/src\/(?:main|test)\//.exec(write.from);
  let home: { dir: string; n: number; what: string } | undefined = project ? { dir: project[1] as string, n: write.n, what: 'the project (the directory the copied file comes from)' } : undefined;
  for (let n = log.start_line; n <= Math.min(log.end_line, log.start_line + 40) && !home; n++) {
    const w = buildRootIn(text(n));
    if (w?.startsWith('/')) home = { dir: w, n, what: 'the workspace' };
  }
  if (!home) return out;
  if (!buildDir.startsWith(`${home.dir}/`)) {
    out.push({
      text: `${inlineCode(buildDir)} is the project's build directory (Gradle writes its ${inlineCode('resources')}, ${inlineCode('classes')} and ${inlineCode('libs')} under it), and it lies outside ${home.what}, ${inlineCode(home.dir)} ${at(home.n)}: Gradle's default is the project's own ${inlineCode('build/')}, so the build moves it there (${inlineCode('buildDir')} or ${inlineCode('layout.buildDirectory')} in a build script or an init script). Point it at a filesystem with room, or give that one more.`,
      lines: [home.n],
    });
  } else {
    out.push({ text: `${inlineCode(buildDir)}, Gradle's build directory, is inside ${home.what}, ${inlineCode(home.dir)} ${at(home.n)}: the filesystem that holds it is the full one.`, lines: [home.n] });
  }
  return out;
}

/**
 * A version asked for against the versions found: CMake's config-file search (`requested version "2.0"` and the
 * files `considered but not accepted`, each `, version: 1.4.2`) or a Find module's `Found unsuitable version "X", but
 * required is at least "Y"`.
 */
export function requestedVersionSteps(f: Finding, log: LogSpan, m: string): RemedyStep[] {
  // A Find module's message runs over two lines; the finding's message holds it whole (`m` cites all its lines).
  const unsuitable = /Could NOT find (\S+?):? .*Found unsuitable version "([^"]+)", but required is (?:at least |exact version )?"([^"]+)"/.exec(f.message);
  if (unsuitable) {
    const [, pkg, have, want] = unsuitable as unknown as [string, string, string, string];
    return [
      {
        text: `CMake found ${inlineCode(pkg)} ${inlineCode(have)} and the project requires ${inlineCode(want)} ${m}: install ${inlineCode(pkg)} ${inlineCode(want)} or later on the agent (or point ${inlineCode(`${pkg}_ROOT`)} at one), or lower the version the ${inlineCode('find_package')} call asks for if the code works with ${inlineCode(have)}; the log does not say which the code needs.`,
        lines: [f.message_line],
      },
    ];
  }
  const text = reader(log);
  const last = Math.min(log.end_line, f.message_line + 14);
  let requested: { v: string; n: number; vn: number; pkg: string } | undefined;
  const found: { v: string; path: string; n: number }[] = [];
  for (let n = Math.max(log.start_line, f.message_line - 2); n <= last; n++) {
    const t = text(n);
    const pkg = /Could not find a configuration file for package "([^"]+)"/.exec(t)?.[1];
    if (pkg) requested = { v: '', n, vn: n, pkg };
    const req = /requested version "([^"]+)"/.exec(t);
    if (req && requested) requested = { ...requested, v: req[1] as string, vn: n };
    const consid = /^(\S.*?), version: (\S+)$/.exec(t);
    if (consid && requested?.v) found.push({ path: consid[1] as string, v: consid[2] as string, n });
  }
  if (!requested?.v || found.length === 0) return [];
  const first = found[0] as (typeof found)[number];
  const lastFound = found[found.length - 1] as (typeof found)[number];
  const where = /\/lib\/cmake\/[^/]+\/[^/]+$|\/(?:share\/)?cmake\/[^/]+$/.exec(first.path) ? first.path.replace(/\/(?:lib\/|share\/)?cmake\/[^/]+\/[^/]+$/, '') : dirOf(first.path);
  return [
    {
      text: `The project asks for ${inlineCode(requested.pkg)} ${inlineCode(requested.v)} ${cite({ start_line: requested.n, end_line: requested.vn })}, and the only ${found.length === 1 ? 'version' : 'versions'} CMake found ${found.length === 1 ? 'is' : 'are'} ${found.map((x) => inlineCode(x.v)).join(', ')} ${cite({ start_line: first.n, end_line: lastFound.n })} (${inlineCode(where)}). Either provide ${inlineCode(requested.pkg)} ${inlineCode(requested.v)} there (upgrade that copy, with its config and version files) or elsewhere on ${inlineCode('CMAKE_PREFIX_PATH')}, or ask for the version found (${inlineCode(`find_package(${requested.pkg} ${first.v} ...)`)}) if the code works with it; the log does not say which the code needs.`,
      lines: [requested.n, requested.vn, first.n],
    },
  ];
}

/**
 * pkg-config's version refusal (session 54, fx16): pkg-config's `Requested 'X >= A' but version of N is B`, pkgconf's
 * `Package 'X' has version 'B', required version is '>= A'`, meson's `Dependency X found: NO found B but need: '>= A'`
 * (configure's PKG_CHECK_MODULES, CMake's pkg_check_modules and meson print them), within the lines around the error.
 */
export function pkgConfigVersionSteps(f: Finding, log: LogSpan): RemedyStep[] {
  const text = reader(log);
  for (let n = Math.max(log.start_line, f.message_line - 4); n <= Math.min(log.end_line, f.message_line + 14); n++) {
    const t = text(n);
    // [pkg, requirement as printed (`>= 3.45.0`), version required, version found]
    const m =
      /Requested '([\w.+-]+) (([<>=!]=?) ?([\w.+-]+))' but version of .+? is ([\w.+-]+)\s*$/.exec(t) ??
      ((x) => x && [x[0], x[1], x[3], x[4], x[5], x[2]])(/Package '([\w.+-]+)' has version '([\w.+-]+)', required version is '(([<>=!]=?) ?([\w.+-]+))'/.exec(t)) ??
      ((x) => x && [x[0], x[1], x[3], x[4], x[5], x[2]])(/[Dd]ependency ([\w.+-]+) found: NO found ([\w.+-]+) but need: '(([<>=!]=?) ?([\w.+-]+))'/.exec(t));
    if (!m) continue;
    const [, pkg, req, op, want, have] = m as unknown as [string, string, string, string, string, string];
    return [
      {
        text: `${/found: NO found/.test(t) ? 'meson' : 'pkg-config'} found ${inlineCode(pkg)} ${inlineCode(have)}, and the build requires ${inlineCode(req)} ${cite({ start_line: n, end_line: n })}: install ${inlineCode(pkg)} ${inlineCode(want)}${op === '>=' ? ' or later' : ''} on the agent (its ${inlineCode(`${pkg}.pc`)} on ${inlineCode('PKG_CONFIG_PATH')}), or change the version the build asks for if the code works with ${inlineCode(have)}; the log does not say which the code needs.`,
        lines: [n],
      },
    ];
  }
  return [];
}

/** Gradle's `A conflict was found between the following modules:` with the `- group:name:version` lines under it. */
export function moduleConflictSteps(f: Finding, log: LogSpan): RemedyStep[] {
  const text = reader(log);
  for (let n = Math.max(log.start_line, f.message_line - 5); n <= Math.min(log.end_line, f.message_line + 5); n++) {
    if (!/A conflict was found between the following modules:/.test(text(n))) continue;
    const byModule = new Map<string, { versions: string[]; first: number; last: number }>();
    for (let k = n + 1; k <= Math.min(log.end_line, n + 20); k++) {
      const m = /^- ([\w.-]+):([\w.-]+):([\w.+-]+)$/.exec(text(k));
      if (!m) break;
      const key = `${m[1] as string}:${m[2] as string}`;
      const entry = byModule.get(key) ?? { versions: [], first: k, last: k };
      entry.versions.push(m[3] as string);
      entry.last = k;
      byModule.set(key, entry);
    }
    const out: RemedyStep[] = [];
    for (const [key, e] of byModule) {
      if (e.versions.length < 2) continue;
      const name = key.split(':')[1] as string;
      const newest = [...e.versions].sort((a, b) => b.localeCompare(a, undefined, { numeric: true }))[0] as string;
      out.push({
        text: `Two versions of ${inlineCode(name)} (${inlineCode(key)}) meet on one classpath, ${e.versions.map((v) => inlineCode(v)).join(' and ')} ${cite({ start_line: e.first, end_line: e.last })}, and the build fails on a version conflict (${inlineCode('failOnVersionConflict')}): declare the same version of ${inlineCode(name)} in every project that uses it, or pin one for all of them (${inlineCode(`resolutionStrategy.force '${key}:${newest}'`)} for the newest); the log does not say which version the code needs.`,
        lines: [n, e.first, e.last],
      });
    }
    return out;
  }
  return [];
}

/**
 * How test runners print each test as it starts or ends, in run order: the unit that shares a process with the next one
 * (surefire: a test class; unittest, pytest: a test; go: a top-level test of one package), and the lines that end a run.
 */
const RUNNER_LINES: readonly { unit: RegExp; failed?: RegExp; end: RegExp }[] = [
  { unit: /^\[INFO\] Running ([\w.$]+)$/, end: /^\[INFO\] --- |^\[INFO\] Building |^ T E S T S$/ },
  { unit: /^(\w+) \(([\w.]+)\) \.\.\. (?:ok|FAIL|ERROR|skipped\b.*|expected failure)$/, failed: /\.\.\. (?:FAIL|ERROR)$/, end: /^Ran \d+ tests? in |^={20,}$/ },
  { unit: /^(\S+::\S+) (?:PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)\b/, failed: / (?:FAILED|ERROR)\b/, end: /^={5,} .*(?:passed|failed|error)|^={5,} (?:FAILURES|ERRORS) ={5,}$/ },
  { unit: /^=== RUN {3}(Test[^\s/]*)$/, end: /^(?:ok|FAIL|PASS)(?:\s|$)/ },
];

/** The id of a runner line: its first group (unittest's method name, surefire's class, pytest's node id, go's test). */
const unitId = (m: RegExpExecArray): string => m[1] as string;

/**
 * The tests that ran before the failed one in the same run (at most the three nearest, with their lines). The failed
 * test's own line: the runner line whose unit the finding's test name ends with (surefire: its class).
 */
export function testsBefore(f: Finding, log: LogSpan): { names: string[]; first: number; last: number; own: string } | undefined {
  const name = f.test?.name;
  if (!name || (f.class !== 'test-assertion' && f.class !== 'test-error')) return undefined;
  const text = reader(log);
  for (const runner of RUNNER_LINES) {
    let own: { n: number; id: string } | undefined;
    for (let n = log.start_line; n <= log.end_line && !own; n++) {
      const t = text(n);
      const m = runner.unit.exec(t);
      if (!m || (runner.failed && !runner.failed.test(t))) continue;
      const id = unitId(m);
      if (name === id || name.endsWith(`.${id}`) || name.startsWith(`${id}.`) || (runner.failed === undefined && name.includes(`${id}.`)) || name.endsWith(`::${id.split('::').pop() ?? id}`)) own = { n, id };
    }
    if (!own) continue;
    const before: { id: string; n: number }[] = [];
    for (let n = own.n - 1; n >= Math.max(log.start_line, own.n - 400) && before.length < 3; n--) {
      const t = text(n);
      if (runner.end.test(t) || STEP_START.test(t)) break;
      const m = runner.unit.exec(t);
      if (m && unitId(m) !== own.id && !before.some((b) => b.id === unitId(m))) before.push({ id: unitId(m), n });
    }
    if (before.length === 0) return undefined;
    before.reverse();
    return { names: before.map((b) => b.id), first: (before[0] as { n: number }).n, last: own.n, own: own.id };
  }
  return undefined;
}

/** The test-order step's id: fix.ts keeps it only when the checkout's change does not touch what the error names (ux18). */
export const TESTS_BEFORE = 'needs/tests-before';

export const WHAT_NEEDS_REMEDIES: RemedyRule[] = [
  rule('needs/disk-write', 'fact', ({ f, stored }, out) => {
    if (stored) out.push(...gradleWriteSteps(f, stored));
  }),
  rule('needs/growing-flags', 'fact', ({ f, stored }, out) => {
    if (stored) out.push(...growingFlagSteps(f, stored));
  }),
  rule('needs/requested-version', 'wording', ({ f, stored, m }, out) => {
    if (stored && /Could not find a configuration file for package|Could NOT find .*Found unsuitable version/.test(f.message)) out.push(...requestedVersionSteps(f, stored, m));
  }),
  rule('needs/tests-before', 'fact', ({ f, stored }, out) => {
    const ran = stored ? testsBefore(f, stored) : undefined;
    if (!ran) return;
    const nearest = ran.names[ran.names.length - 1] as string;
    out.push({
      text: `In this run, ${ran.names.map((x) => inlineCode(x)).join(', ')} ran before ${inlineCode(ran.own)} ${cite({ start_line: ran.first, end_line: ran.last })}. If ${inlineCode(ran.own)} passes when it runs alone, a test that ran before it in the same process left shared state behind (a static field, a module-level cache or registry, a file) that it reads: read what ${ran.names.length === 1 ? `${inlineCode(nearest)} changes` : 'they change'}, and make each test undo what it changes.`,
      lines: [ran.first, ran.last],
      id: TESTS_BEFORE,
    });
  }),
  rule('needs/pkg-config-version', 'wording', ({ f, stored }, out) => {
    if (stored) out.push(...pkgConfigVersionSteps(f, stored));
  }),
  rule('needs/module-conflict', 'wording', ({ f, stored }, out) => {
    if (stored && f.class === 'dependency-resolution') out.push(...moduleConflictSteps(f, stored));
  }),
];
