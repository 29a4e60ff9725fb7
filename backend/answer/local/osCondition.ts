/**
 * An error that is the operating system's answer to the program (issue 25, fx6): a path refused
 * (EACCES, EPERM, `Permission denied`), a file system or database that is read-only, no space left,
 * a path that does not exist (ENOENT), a connection refused. The line that raised it only asked: the
 * cause is most often in the step's environment (the path's owner and mode for the user the step
 * runs as, the working directory, the disk, the service), so the remedy addresses that, quotes the
 * evidence, and says it cannot tell which side to change when both are possible. Read by the class
 * table (remedyClass.ts), the log's facts (remedyFacts.ts) and the workspace's fix line (workspace.ts).
 */
import { buildRootIn } from '../../../core/log/agentRoot.js';
import type { Finding } from '../../../protocol/types.js';
import { inlineCode, linesOf, withoutStamp, type LogSpan } from '../logtext.js';
import type { RemedyRule, Unsure } from './remedyShape.js';
import { dirOf, osConditionOf, systemDir, type OsCondition } from './osWords.js';

export { dirOf, osConditionOf, systemDir, type OsCondition, type OsKind } from './osWords.js';

/**
 * The user a step ran its command as, from a line of the log: `setpriv --reuid nobody`, `sudo -u x`,
 * `runuser -u x`, `su x -c`, `gosu x`, `su-exec x`, `chroot --userspec=x`, `docker run --user x`, `id`'s
 * `uid=65534(nobody)`. Jenkins' `Running as SYSTEM` is the build's Jenkins identity, never an OS user.
 */
export function userOfLine(t: string): string | undefined {
  const m =
    /uid=\d+\(([\w.-]+)\)/.exec(t) ??
    /\bsetpriv\b.*?--reuid[= ]([\w.-]+)/.exec(t) ??
    /\b(?:sudo|doas)\b(?: -[A-Za-tv-z]+)* -u ([\w.-]+)/.exec(t) ??
    /\brunuser (?:-u|-l) ([\w.-]+)/.exec(t) ??
    /\bsu (?:-[lmps] |-s \S+ |- )*([a-z_][\w.-]*) -c\b/.exec(t) ??
    /\bsu -c .* ([\w.-]+)$/.exec(t) ??
    /\b(?:gosu|su-exec|s6-setuidgid|setuidgid) ([\w.-]+)/.exec(t) ??
    /\bchroot --userspec=([\w.-]+)/.exec(t) ??
    /\bdocker (?:run|exec)\b.*?(?:--user[= ]|\s-u )([\w.-]+)/.exec(t);
  return m?.[1];
}

/** The user the step ran as, from the nearest line at or above `line` (200 at most) that shows one. */
export function stepUserIn(stored: LogSpan | undefined, line: number): { user: string; line: number } | undefined {
  if (!stored) return undefined;
  const from = Math.max(stored.start_line, line - 200);
  const span = linesOf(stored, from, Math.min(line, stored.end_line));
  if (!span) return undefined;
  const lines = span.text.split('\n');
  for (let k = lines.length - 1; k >= 0; k--) {
    const t = withoutStamp(lines[k] ?? '').trim();
    // `+ whoami` answered on the next line.
    const prev = k > 0 ? withoutStamp(lines[k - 1] ?? '').trim() : '';
    const user = userOfLine(t) ?? (prev === '+ whoami' && /^[\w.-]+$/.test(t) ? t : undefined);
    if (user) return { user, line: span.start_line + k };
  }
  return undefined;
}

/**
 * Where to act on the raising line for an OS condition (the class table's first step of a runtime or
 * test error): the line only asked; what it asked for is the environment's. `m` cites the message.
 */
export function osAct(c: OsCondition, m: string): string {
  const what = c.what ? inlineCode(c.what) : undefined;
  switch (c.kind) {
    case 'permission':
      return `: the operating system refused that line ${what ? `access to ${what}` : 'the access it asked for'} ${m}, so look first at the environment (the path's owner and mode, and the user the step runs as) rather than at what the line computes`;
    case 'read-only':
      if (c.mount) return `: the write there was refused because the file system that holds ${what ?? 'what it wrote to'} is mounted read-only ${m}, so no owner, mode or user of the step changes it: the step must write on a writable mount (the workspace, a temporary directory), or the mount must be made writable (a container volume mounted \`:ro\`, a read-only root file system)`;
      return `: the write there was refused because ${what ?? 'what it wrote to'} was read-only for the step ${m} (a file or directory the step's user may not write, or a read-only mount), so look first at the environment (the path's owner and mode, and the user the step runs as) rather than at what the line computes`;
    case 'no-space':
      return `: the write there failed because the file system was full ${m}, so the fix is space on the agent (or writing somewhere else), not the line's logic`;
    case 'refused':
      return `: nothing listened at ${what ?? 'the address'} that line connected to ${m}, so look first at the service (started, listening on that port) and at the address the step gives the program`;
    case 'missing-path':
      return `: ${what ?? 'the path'} did not exist when that line asked for it ${m}; either the file is not where the step looks (the working directory, a rename, a step that should have made it) or the line names the wrong path`;
  }
}

/** The workspace's fix line for the raising line (workspace.ts): what the line asked for, and where to look. */
export function osFixLine(c: OsCondition): string {
  const what = c.what ? inlineCode(c.what) : undefined;
  switch (c.kind) {
    case 'permission':
    case 'read-only':
      if (c.mount) return `this line wrote to ${what ?? 'a path'} on a file system mounted read-only: have it write on a writable mount (the workspace, a temporary directory), or make that mount writable; the line's logic is not what to change.`;
      return `this line asked the operating system for ${what ?? 'a path'} and was refused, so check that path's owner and mode for the user the step runs as before changing the line (unless the line names the wrong path).`;
    case 'no-space':
      return 'the file system it wrote to was full, so free space or write elsewhere; the line is not what to change.';
    case 'refused':
      return `nothing listened at ${what ?? 'the address'} it connected to: check the address the step gives it and that the service runs there.`;
    case 'missing-path':
      return `${what ?? 'the path'} did not exist when it asked for it: check whether the path the line builds is right (a relative path starts at the step's working directory) or the file is missing.`;
  }
}

/** What the log does not settle for each condition: the two sides, and what to do on each. */
export function osUnsure(c: OsCondition, user: string | undefined): Unsure | undefined {
  const what = c.what ? inlineCode(c.what) : 'the path';
  switch (c.kind) {
    case 'permission':
    case 'read-only': {
      if (c.mount) return { text: `I can't tell from the log whether ${what} should be writable for the build (then its mount must be made writable) or the program should write elsewhere (a path in the workspace or a temporary directory).`, sides: false };
      const dir = c.what ? inlineCode(dirOf(c.what)) : 'its directory';
      const who = user ? inlineCode(user) : "the step's user";
      if (c.what && systemDir(dirOf(c.what))) return { text: `I can't tell from the log which side to change: the path the program uses, or the user the step runs as. ${dir} is a system directory, so rather than giving ${who} access there, point the program at a path ${who} owns, or run the step as the user that owns ${what}.`, sides: false };
      return { text: `I can't tell from the log which side to change: the path's owner and mode, or the user the step runs as. If the step should run as ${who}, give that user write access to ${what} and ${dir} (${inlineCode(`chown -R ${user ?? '<user>'} ${c.what ? dirOf(c.what) : '<dir>'}`)}, or a group with write access); if the file should stay as it is, run the step as its owner, or point the program at a path ${who} owns.`, sides: false };
    }
    case 'missing-path':
      return { text: `I can't tell from the log which side is wrong: if ${what} should exist when the step runs, make the step create or check it out (or run from the directory that holds it); if the path the code names is stale (a moved or renamed file), change the code.`, sides: true };
    case 'refused':
      return { text: `I can't tell from the log whether the service was not running yet or the program was given the wrong address: compare the port it connects to with the one the service listens on, and whether the service starts before this step.`, sides: false };
    case 'no-space':
      return undefined;
  }
}

/** A relative path a test or program opened: how its language builds a path from the file rather than the working directory. */
function anchorOf(f: Finding, rel: string): string | undefined {
  const file = f.location?.frames?.project?.file ?? f.location?.file ?? '';
  const tool = f.tool ?? '';
  const lit = JSON.stringify(rel);
  if (/\.py$/.test(file) || /pytest|python|unittest/.test(tool)) return `build the path from the code's own file, ${inlineCode(`Path(__file__).parent / ${lit}`)} (adjusted to where the file is), so the working directory does not matter`;
  if (/\.rs$/.test(file) || /cargo|rustc/.test(tool)) return `build the path from the crate's directory, ${inlineCode(`Path::new(env!("CARGO_MANIFEST_DIR")).join(${lit})`)}, so the working directory does not matter`;
  if (/ctest|cmake/.test(tool)) return `ctest runs each test in the build directory unless ${inlineCode('add_test')} in ${inlineCode('CMakeLists.txt')} gives it a ${inlineCode('WORKING_DIRECTORY')} (${inlineCode('WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}')}), or pass the file's absolute path as an argument`;
  if (/\.go$/.test(file) || /^go\b/.test(tool)) return `${inlineCode('go test')} runs a package's tests in that package's directory: keep the file under the package's ${inlineCode('testdata/')} or build the path from it`;
  if (/\.[cm]?[jt]sx?$/.test(file) || /node|jest|mocha|vitest|npm/.test(tool)) return `build the path from the module's own file (${inlineCode(`path.join(__dirname, ${lit})`)}, or ${inlineCode(`new URL(${lit}, import.meta.url)`)} in an ES module), so the working directory does not matter`;
  if (/\.rb$/.test(file) || /rspec|ruby|rake/.test(tool)) return `build the path from the file, ${inlineCode(`File.join(__dir__, ${lit})`)}, so the working directory does not matter`;
  if (/\.(?:java|kt|scala)$/.test(file) || /maven|gradle|junit/.test(tool)) return `read it from the classpath (${inlineCode('getResourceAsStream')}, the file under ${inlineCode('src/test/resources')}) rather than from the working directory`;
  return undefined;
}

/**
 * A path that did not exist, for a runtime or test error (the exception table's group: it replaces
 * the general "file does not exist" hint): a file to create whose directory is missing, or a relative
 * path the step looked for in its working directory (with the language's way to anchor it).
 */
export const OS_CONDITION_REMEDIES: RemedyRule[] = [
  {
    // Running a file refused (Python's subprocess `_execute_child`, an `exec`): its executable bit, or a file system mounted noexec.
    id: 'os/exec-refused',
    specificity: 'wording',
    steps: ({ f, m, stored }) => {
      const c = osConditionOf(f.message);
      if (c?.kind !== 'permission' || !c.what || !stored) return [];
      const above = linesOf(stored, Math.max(stored.start_line, f.message_line - 6), f.message_line);
      if (!above || !/_execute_child|child_exception_type|os\.exec[lv]p?e?\(|\bexecvp?\b/.test(above.text)) return [];
      const dir = dirOf(c.what);
      return [{ text: `The program tried to run ${inlineCode(c.what)} and was refused ${m}: a file runs only when it has its executable bit and its file system is not mounted ${inlineCode('noexec')} (temporary directories often are; ${inlineCode(`findmnt -T ${dir} -o TARGET,OPTIONS`)} on the agent shows it). Run it through its interpreter (${inlineCode(`sh ${c.what.slice(c.what.lastIndexOf('/') + 1)}`)} with its path), or write it to a directory that allows running files (the workspace).`, lines: [] }];
    },
  },
  {
    // A test that writes outside the workspace (`listen unix /run/x.sock`, `/var/lib/x`): the framework's own temporary directory.
    id: 'os/test-temp-dir',
    specificity: 'wording',
    steps: ({ f, m, stored }) => {
      if (!f.test && f.class !== 'test-error') return [];
      const c = osConditionOf(f.message);
      if ((c?.kind !== 'permission' && c?.kind !== 'read-only') || !c.what?.startsWith('/')) return [];
      const ws = stored ? stored.text.split('\n').map((l) => buildRootIn(withoutStamp(l))).find((r) => r !== undefined) : undefined;
      if (ws && c.what.startsWith(ws)) return [];
      const file = f.location?.file ?? f.test?.name ?? '';
      const tool = f.tool ?? '';
      const tmp = /\.go$|_test\.go/.test(file) || /^go\b/.test(tool) ? '`t.TempDir()`' : /\.py$|::/.test(file) || /pytest/.test(tool) ? 'the `tmp_path` fixture' : /\.(?:java|kt)$/.test(file) || /junit|maven|gradle/.test(tool) ? "JUnit's `@TempDir`" : /\.rs$/.test(file) || /cargo/.test(tool) ? '`tempfile::tempdir()`' : /\.[cm]?[jt]sx?$/.test(file) || /jest|mocha|vitest|node/.test(tool) ? '`fs.mkdtempSync(path.join(os.tmpdir(), ...))`' : undefined;
      return [{ text: `The test used ${inlineCode(c.what)}, outside the workspace, and was refused ${m}: a test is better kept to a directory of its own${tmp ? ` (${tmp})` : ''} than given write access to a system path.`, lines: [] }];
    },
  },
  {
    // Go's `go: open DIR/go.mod: no such file or directory`: a `use` line of go.work or a `replace` points at a directory with no module.
    id: 'os/go-mod-missing',
    specificity: 'wording',
    steps: ({ f, m }) => {
      const dir = /\bgo: (?:open )?(\S+)\/go\.mod: no such file or directory/.exec(f.message)?.[1];
      return dir ? [{ text: `Go looked for a module in ${inlineCode(dir)} and found no ${inlineCode('go.mod')} there ${m}: a ${inlineCode('use')} line of ${inlineCode('go.work')} (or a ${inlineCode('replace')} directive of ${inlineCode('go.mod')}) names that directory. Point it at the directory that holds the module now, or add the module's ${inlineCode('go.mod')} there.`, lines: [] }] : [];
    },
  },
  {
    // SQLite opens a database read-only when its user may not write the file or its directory (the journal goes beside it).
    id: 'os/sqlite-readonly',
    specificity: 'wording',
    group: 'exception',
    steps: ({ f, m }) =>
      /attempt to write a readonly database|SQLITE_READONLY/.test(f.message)
        ? [{ text: `SQLite found the database read-only ${m}: it needs the step's user to be able to write both the database file and its directory (the journal is created beside it). Check both with ${inlineCode('ls -l')} / ${inlineCode('ls -ld')} as that user, or have the step use a database under a directory it owns.`, lines: [] }]
        : [],
  },
  {
    id: 'os/missing-path',
    specificity: 'wording',
    group: 'exception',
    steps: ({ f, m }) => {
      if (f.class !== 'test-error' && f.class !== 'runtime-exception') return [];
      const c = osConditionOf(f.message);
      if (c?.kind !== 'missing-path' || !c.what) return [];
      const p = c.what;
      // Creating a file reports ENOENT when its directory is missing.
      if (/\b(?:cannot|could not|unable to|failed to) (?:create|write|open .* for writing)\b/i.test(f.message)) {
        const dir = dirOf(p);
        const cm = /ctest|cmake/.test(f.tool ?? '') ? ` (CMake: ${inlineCode(`file(MAKE_DIRECTORY ${dir})`)} in ${inlineCode('CMakeLists.txt')}, or a fixture that makes it)` : '';
        return [{ text: `The program could not create ${inlineCode(p)} ${m}: creating a file reports "No such file or directory" when its directory ${inlineCode(dir)} does not exist. Create the directory before the step (${inlineCode(`mkdir -p ${dir}`)})${cm}, or have the code create it (${inlineCode('os.makedirs(dir, exist_ok=True)')}, ${inlineCode('mkdir -p')}, ${inlineCode('fs.mkdirSync(dir, { recursive: true })')}).`, lines: [] }];
      }
      // An absolute path: the exception table's general hint (create it before the step, or fix the path).
      if (p.startsWith('/') || p.startsWith('~')) return [];
      const anchor = anchorOf(f, p);
      return [{ text: `${inlineCode(p)} is a relative path, so it was looked up from the working directory the step ran the code in ${m}, not from the code's own directory: ${anchor ? `${anchor}; or ` : ''}run the step from the directory that holds it, or create the file there before the step.`, lines: [] }];
    },
  },
];
