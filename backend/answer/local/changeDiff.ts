/**
 * The checkout's change as evidence (issue 25 point 3, session 52): `workspaceChanges` (the commits since the last
 * green build, or the checkout's last commit, with the diffs of the files the failure names; read by git where the
 * files are: jenkins/workspace/gitChanges.ts). The fix answer quotes the changed lines when the change touched the
 * file or line the finding locates, a file the evidence names beside it (the code under test, a frame, a clue) or a
 * name the error's message holds, with the commit; it offers the two honest ways out where the evidence cannot
 * choose, and says plainly when the change touched nothing the error names. Never that the change caused it.
 */
import { changeLinePaths } from '../../../protocol/ciContext.js';
import type { CiContext, Finding, WorkspaceChanges } from '../../../protocol/types.js';
import { at, cite, clip, inlineCode } from '../logtext.js';
import { blockWritingQuoted, NOT_THERE_WORDS, quotedOperands, type QuotedOperand, type QuotedWrite } from './changeQuoted.js';
import { sameFile, SCRIPT_OF_COMMAND, snippetsOf } from './workspace.js';

const isDict = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The context's `workspaceChanges` when it has the shape the schema gives it. */
export function changesOf(ci: CiContext): WorkspaceChanges | undefined {
  const w = (ci as { workspaceChanges?: unknown }).workspaceChanges;
  if (!isDict(w) || (w.range !== 'since-green' && w.range !== 'last-commit') || typeof w.head !== 'string' || typeof w.base !== 'string') return undefined;
  if (!Array.isArray(w.commits) || !Array.isArray(w.diffs)) return undefined;
  const commits = w.commits.filter((c): c is WorkspaceChanges['commits'][number] => isDict(c) && typeof c.commitId === 'string');
  const diffs = w.diffs.filter((d): d is WorkspaceChanges['diffs'][number] => isDict(d) && typeof d.path === 'string' && typeof d.commitId === 'string' && typeof d.text === 'string');
  return commits.length > 0 ? { ...(w as WorkspaceChanges), commits, diffs } : undefined;
}

/** One run of changed lines: what was removed and what was added, at the new file's line numbers. */
export interface ChangedBlock {
  path: string;
  commitId: string;
  removed: string[];
  added: string[];
  /** The new file's first line of `added` (or where the removed lines stood). */
  newStart: number;
}

/** The changed blocks of one file's unified diff. */
export function blocksOf(diff: { path: string; commitId: string; text: string }): ChangedBlock[] {
  const out: ChangedBlock[] = [];
  let next = 0;
  let block: ChangedBlock | undefined;
  const flush = (): void => {
    if (block) out.push(block);
    block = undefined;
  };
  for (const line of diff.text.split('\n')) {
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (hunk) {
      flush();
      next = Number(hunk[1]);
      continue;
    }
    if (line.startsWith('\\')) continue;
    const mark = line[0];
    if (mark === '-' || mark === '+') {
      block ??= { path: diff.path, commitId: diff.commitId, removed: [], added: [], newStart: next };
      if (mark === '-') block.removed.push(line.slice(1));
      else {
        if (block.added.length === 0) block.newStart = next;
        block.added.push(line.slice(1));
        next++;
      }
    } else {
      flush();
      next++;
    }
  }
  flush();
  return out;
}

/** Whether the block wrote (or removed lines at) line `n` of the new file. */
const touchesLine = (b: ChangedBlock, n: number): boolean => (b.added.length > 0 ? n >= b.newStart && n < b.newStart + b.added.length : n === b.newStart || n === b.newStart - 1);

/** Words of an error message that look like code names (`round_cents`, `taxFor`, `parse(`, `'retry'`): what a changed line may hold. */
export function codeNamesOf(message: string): string[] {
  const names = new Set<string>();
  for (const m of message.matchAll(/[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*/g)) {
    const word = m[0].split('.').pop() ?? m[0];
    const after = message[m.index + m[0].length];
    const before = message[m.index - 1];
    const quoted = (before === "'" || before === '"' || before === '`') && after === before;
    if (word.length >= 3 && (/_/.test(word) || /[a-z][A-Z]/.test(word) || after === '(' || quoted)) names.add(word);
  }
  return [...names].slice(0, 12);
}

const hasWord = (text: string, word: string): boolean => new RegExp(`(?<![A-Za-z0-9_])${word.replace(/[$]/g, '\\$')}(?![A-Za-z0-9_])`).test(text);

export interface ChangePlaces {
  /** The file and line the finding locates, as the checkout names them. */
  located?: { path: string; line?: number | undefined } | undefined;
  /** Other files the evidence names, with why (`the code under test`, `on the stack of the error`). */
  named: { path: string; why: string }[];
  /** The failing check's own place (`tests/test_x.py:19`), for a test's failure. */
  check?: string | undefined;
  /** The script line that runs the failing command (`ci.sh:3`, the snippet workspace.ts quotes "In the script"). */
  script?: { path: string; line: number } | undefined;
  /** The text of the error's own line, as the workspace holds it: the module it calls may be what the change edited. */
  errorLine?: string | undefined;
  /** A path the failing command names that the error says is not there, which the change moved or deleted files from under (fx18). */
  moved?: MovedOperand | undefined;
  /** The URLs, paths and file names the error's lines quote (changeQuoted.ts); without them, those of the finding's message. */
  quoted?: QuotedOperand[] | undefined;
  /** The changed script a timed-out or aborted step was running (stoppedScript.ts). */
  stopped?: StoppedScript | undefined;
  /** A value a changed line set (or a removed one had set) that the failing command read (changeValue.ts). */
  value?: ValueRead | undefined;
}

// The value a change set that the failing command read: built by changeValue.ts (fx21).
/** The value a changed block sets a variable to (or removed), and the failing line that read it. */
export interface ValueRead {
  b: ChangedBlock;
  name: string;
  /** `set`: an added line assigns it; `removed`: only a removed line did. */
  how: 'set' | 'removed';
  /** The value the added line writes (quotes dropped), and the removed line that assigned it before, when one did. */
  value?: string | undefined;
  was?: string | undefined;
  /** The traced assignment in the log (`++ REGION=`), when the trace shows it. */
  traced?: { line: number; text: string } | undefined;
  /** The log line that read it: the failing command's, else the error's; `place` when it is the checkout's line of the error (`deploy.sh:3`). */
  read: { line: number; text: string; place?: string | undefined };
  /** What shows the read: the command or error names the variable, holds its value, or shows an empty word. */
  by: 'name' | 'value' | 'empty';
}

/** A script of the checkout's change that a stopped step was running: the command, and the step's last output before the stop. */
export interface StoppedScript {
  path: string;
  command: { line: number; text: string };
  last?: { line: number; text: string } | undefined;
}

/** A path operand of the failing command the error's lines say is not there, and the change's entries that took files from under it. */
export interface MovedOperand {
  /** The operand as the command names it, normalised (`./src/` -> `src`). */
  operand: string;
  /** The log lines that say it is not there and name it (one line, or ruff's `E902 ...` over `--> src:1:1`). */
  errorLine: number;
  errorEnd: number;
  /** The log line of the command. */
  commandLine: number;
  /** Git's entries that renamed (`to`) or deleted files whose old path is the operand or under it. */
  moves: { commitId: string; from: string; to?: string | undefined }[];
}

const under = (path: string, dir: string): boolean => path === dir || path.startsWith(`${dir}/`);

/**
 * The failing command's path operand that its error says is not there (the finding's `refused`, core/finding/refused.ts:
 * `E902 No such file or directory` over `--> src:1:1`, `cp: cannot stat 'dist/app.js'`, `ERROR: file or directory not
 * found: tests/unit`) while the change renamed or deleted files whose old path is that operand or under it, and added
 * none there: the change moved away what the command still names. Undefined otherwise (the operand never held a file
 * of the change, or still does).
 */
export function movedAwayOperand(ci: CiContext, f: Finding): MovedOperand | undefined {
  const w = changesOf(ci);
  const refused = f.refused;
  if (!w || !refused?.absent) return undefined;
  const operand = refused.path;
  // A file the workspace shows under it: the path is there after all.
  if (operand === '' || snippetsOf(ci).some((x) => under(x.path.replace(/^\.\//, ''), operand))) return undefined;
  const entries = w.commits.flatMap((c) => (c.files ?? []).map((x) => ({ commitId: c.commitId, status: x.charAt(0), paths: changeLinePaths(x) })));
  const moves = entries.filter((e) => (e.status === 'R' || e.status === 'D') && under(e.paths[0] ?? '', operand)).map((e) => ({ commitId: e.commitId, from: e.paths[0] as string, ...(e.status === 'R' ? { to: e.paths[1] } : {}) }));
  // A file the change put (back) under the operand: it is there after all, and this is not what happened.
  const putBack = entries.some((e) => e.status !== 'D' && under(e.paths[e.paths.length - 1] ?? '', operand));
  return moves.length > 0 && !putBack ? { operand, errorLine: refused.log_line, errorEnd: refused.end_line, commandLine: refused.command_line, moves } : undefined;
}

/**
 * Where the operand's files are now, when every move kept their paths below it (`src/labels/x.py` -> `labels/x.py`:
 * `labels`, where `src/labels` was; `src/x.py` -> `lib/x.py`: `lib`, where `src` was); undefined otherwise.
 */
function newPlaceOf(operand: string, moves: MovedOperand['moves']): { now: string; was: string } | undefined {
  const places = new Map<string, string>();
  for (const x of moves) {
    if (x.to === undefined) return undefined;
    const rest = x.from.slice(operand.length).replace(/^\//, '');
    if (rest === '') {
      places.set(x.to, operand);
      continue;
    }
    const cut = x.to.length - rest.length;
    if (!x.to.endsWith(rest) || (cut > 0 && x.to[cut - 1] !== '/')) return undefined;
    const prefix = x.to.slice(0, Math.max(0, cut - 1));
    const top = rest.split('/')[0] as string;
    if (prefix === '') places.set(top, `${operand}/${top}`);
    else places.set(prefix, operand);
  }
  const [only, ...others] = [...places];
  return only && others.length === 0 ? { now: only[0], was: only[1] } : undefined;
}

/** The change block's lines for a moved-away operand: what moved, what still names it, and the two ways out. */
function movedWords(w: WorkspaceChanges, m: MovedOperand, script: ChangePlaces['script']): string[] {
  const first = m.moves[0] as MovedOperand['moves'][number];
  const commits = new Set(m.moves.map((x) => x.commitId)).size;
  const renamed = m.moves.filter((x) => x.to !== undefined);
  const deleted = m.moves.filter((x) => x.to === undefined);
  const list = (xs: MovedOperand['moves'], f: (x: MovedOperand['moves'][number]) => string): string => {
    const said = xs.slice(0, 3).map(f);
    const more = xs.length > 3 ? [`${xs.length - 3} more`] : [];
    const all = [...said, ...more];
    return all.length > 1 ? `${all.slice(0, -1).join(', ')} and ${all[all.length - 1] as string}` : (all[0] ?? '');
  };
  const did = [
    ...(renamed.length > 0 ? [`moved ${list(renamed, (x) => `${inlineCode(x.from)} to ${inlineCode(x.to as string)}`)}`] : []),
    ...(deleted.length > 0 ? [`deleted ${list(deleted, (x) => inlineCode(x.from))}`] : []),
  ].join(' and ');
  const where = script ? `the command at ${inlineCode(`${script.path}:${script.line}`)} ${at(m.commandLine)}` : `the failing command ${at(m.commandLine)}`;
  const place = newPlaceOf(m.operand, m.moves);
  const point = place
    ? `point the command at the new path (${inlineCode(place.now)}, where ${inlineCode(place.was)} was${place.was === m.operand ? '' : `, in place of ${inlineCode(m.operand)}`})`
    : renamed.length > 0
      ? `point the command at where those files are now (or drop ${inlineCode(m.operand)} from it)`
      : `drop ${inlineCode(m.operand)} from the command if the deletion was meant`;
  return [
    `- ${capital(commitWords(w, first.commitId))}${commits > 1 ? ` (with ${commits - 1} more commit${commits > 2 ? 's' : ''} of the range)` : ''} ${did}; ${where} still names ${inlineCode(m.operand)}, which the build did not find ${cite({ start_line: m.errorLine, end_line: m.errorEnd })}.`,
    `- The change took away the path the failing command names: ${point}${script ? ` in ${inlineCode(script.path)}` : ''}, or restore the old layout (${inlineCode(`git revert ${first.commitId.slice(0, 10)}`)}) if the ${renamed.length > 0 ? 'move' : 'deletion'} was not meant.`,
  ];
}

/** The script line that runs the failing command and the error's own line's text, from the workspace's snippets. */
export function scriptAndErrorLine(ci: CiContext, located: { path: string; line?: number | undefined } | undefined): Pick<ChangePlaces, 'script' | 'errorLine'> {
  const snippets = snippetsOf(ci);
  const s = snippets.find((x) => x.message === SCRIPT_OF_COMMAND && typeof x.line === 'number');
  const n = located?.line;
  const own = located && n !== undefined ? snippets.find((x) => sameFile(x.path, located.path) && n >= x.startLine && n <= x.endLine) : undefined;
  return { script: s ? { path: s.path, line: s.line as number } : undefined, errorLine: own && n !== undefined ? own.text.split('\n')[n - own.startLine] : undefined };
}

/** The files the evidence names beside the error's own file, with the script that runs the failing command last (fx17). */
function namedBesideTheError(places: ChangePlaces): { path: string; why: string }[] {
  const loc = places.located;
  const script = places.script ? [{ path: places.script.path, why: 'the script that runs the failing command' }] : [];
  return [...places.named, ...script].filter((n) => !loc || !sameFile(n.path, loc.path));
}

/** A module or class the error's line calls (`Price.format`, `store::put`, `from m import f`), with the member named. */
interface Called {
  module: string;
  member?: string | undefined;
  said: string;
}

/** The qualified names the line calls: `M.f`, `M::f`, `import m`, `from m import f`, `new M(`. */
export function calledModules(line: string): Called[] {
  const out: Called[] = [];
  const add = (module: string, member: string | undefined, said: string): void => {
    if (!out.some((c) => c.module === module && c.member === member)) out.push({ module, member, said });
  };
  const from = /^\s*from\s+([A-Za-z_][\w.]*)\s+import\s+([A-Za-z_]\w*)/.exec(line);
  if (from) add(from[1] as string, from[2], `from ${from[1] as string} import ${from[2] as string}`);
  const imp = /^\s*import\s+([A-Za-z_][\w.]*)\s*$/.exec(line);
  if (imp) add(imp[1] as string, undefined, `import ${imp[1] as string}`);
  for (const m of line.matchAll(/(?<![\w.:])([A-Za-z_]\w*)(?:\.|::)([A-Za-z_]\w*)/g)) add(m[1] as string, m[2], m[0]);
  for (const m of line.matchAll(/\bnew\s+([A-Z]\w*)\s*[(<{]/g)) add(m[1] as string, undefined, `new ${m[1] as string}`);
  return out.slice(0, 8);
}

/** Whether `file` defines module or class `c` by its language's own file rule (OCaml, Python, Java/Kotlin, Go, Rust). */
function definesModule(file: string, c: Called): boolean {
  const parts = file.replace(/\\/g, '/').split('/');
  const base = parts[parts.length - 1] ?? '';
  const dir = parts[parts.length - 2];
  const ext = /\.([A-Za-z]+)$/.exec(base)?.[1] ?? '';
  const stem = base.replace(/\.[A-Za-z]+$/, '');
  const last = c.module.split('.').pop() ?? c.module;
  if (ext === 'ml' || ext === 'mli') return /^[A-Z]/.test(c.module) && stem === c.module.charAt(0).toLowerCase() + c.module.slice(1);
  if (ext === 'py') return (stem === last && stem !== '__init__') || (stem === '__init__' && dir === last);
  if (ext === 'java' || ext === 'kt' || ext === 'scala' || ext === 'cs') return /^[A-Z]/.test(c.module) && stem === c.module;
  if (ext === 'go') return /^[a-z]/.test(c.module) && dir === c.module && c.member !== undefined && /^[A-Z]/.test(c.member);
  if (ext === 'rs') return /^[a-z_]/.test(c.module) && (stem === c.module || (stem === 'mod' && dir === c.module));
  return false;
}

const capital = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

const TEST_CLASSES = new Set(['test-assertion', 'test-error']);
const LIMIT_CLASSES = new Set(['out-of-memory', 'timeout-aborted']);

/** The files a commit lists at most (jenkins/workspace/gitChanges.ts, the schema's bound): a list this long may be cut. */
const FILES_LISTED = 100;

/**
 * Who made the change: the range since the last green build, the last commit, or, when that commit is a merge (it is
 * not among the commits git listed: they leave merges out), the commits it brought in.
 */
function rangeSubject(w: WorkspaceChanges): string {
  if (w.range === 'since-green') return 'the change since the last green build';
  return w.commits.some((c) => c.commitId === w.head) ? 'the last commit' : 'the commits the last merge brought in';
}

/** Why the files the commits list may not be all the change touched, or undefined when they are. */
function listGap(w: WorkspaceChanges): string | undefined {
  if ((w.moreCommits ?? 0) > 0) return `${w.moreCommits as number} more commit${w.moreCommits === 1 ? '' : 's'} of the range ${w.moreCommits === 1 ? 'was' : 'were'} not read`;
  if (w.commits.some((c) => c.files === undefined)) return 'a commit came without its list of files';
  if (w.commits.some((c) => (c.files?.length ?? 0) >= FILES_LISTED)) return `a commit lists ${FILES_LISTED} files, where the list is cut`;
  return undefined;
}

/** The commits whose list of files names `file` (a rename's old or new path). */
const commitsTouching = (w: WorkspaceChanges, file: string): WorkspaceChanges['commits'] => w.commits.filter((c) => (c.files ?? []).some((x) => changeLinePaths(x).some((p) => sameFile(p, file))));

/** `commit `abc1234567` (its subject)`. */
function commitWords(w: WorkspaceChanges, id: string): string {
  const c = w.commits.find((x) => x.commitId === id);
  return `commit ${inlineCode(id.slice(0, 10))}${c?.message ? ` (${clip(c.message.split('\n')[0] ?? '', 80)})` : ''}`;
}

/** The block's lines said: one short line each side inline, else a diff block. */
function blockWords(b: ChangedBlock): { inline?: string; fenced?: string } {
  const one = (s: string[]): string | undefined => (s.length === 1 && (s[0] ?? '').trim().length > 0 && (s[0] ?? '').trim().length <= 90 ? (s[0] ?? '').trim() : undefined);
  const [was, now] = [one(b.removed), one(b.added)];
  if (was !== undefined && now !== undefined) return { inline: `changed ${inlineCode(was)} to ${inlineCode(now)}` };
  if (b.removed.length === 0 && now !== undefined) return { inline: `added ${inlineCode(now)}` };
  if (b.added.length === 0 && was !== undefined) return { inline: `removed ${inlineCode(was)}` };
  const lines = [...b.removed.slice(0, 6).map((l) => `-${l}`), ...b.added.slice(0, 6).map((l) => `+${l}`)];
  return { fenced: `\`\`\`diff\n${lines.join('\n')}\n\`\`\`` };
}

function lineWords(b: ChangedBlock): string {
  const n = Math.max(1, b.added.length);
  return b.added.length === 0 ? `near line ${b.newStart}` : n === 1 ? `line ${b.newStart}` : `lines ${b.newStart}-${b.newStart + n - 1}`;
}

/** `#7` or `this build`. */
function buildWords(ci: CiContext): string {
  const n = ci.buildDetails?.number;
  return typeof n === 'number' ? `build #${n}` : 'the build';
}

/** Where `head` came from, when it is not the build's recorded commit: the workspace's HEAD, read as the build's checkout. */
export function headWords(ci: CiContext, w: WorkspaceChanges): string {
  if (w.headFrom !== 'workspace-head') return '';
  const recorded = w.recordedCommit ? `recorded ${inlineCode(w.recordedCommit.slice(0, 10))}, which its workspace does not hold` : 'recorded no commit';
  return ` (${inlineCode(w.head.slice(0, 10))} is the HEAD of the build's workspace: ${buildWords(ci)} ${recorded}, and no later build has used that workspace, so I read it as this build's checkout)`;
}

/** Why the build's workspace was not read as its checkout (`workspaceChangesNotRead`), said so silence is not "nothing changed". */
export function changesNotReadStep(ci: CiContext): string | undefined {
  const n = (ci as { workspaceChangesNotRead?: unknown }).workspaceChangesNotRead;
  if (isDict(n) && n.reason === 'shallow') return shallowStep(n.head, n.headSubject);
  if (!isDict(n) || !Array.isArray(n.laterBuilds) || (n.reason !== 'no-recorded-commit' && n.reason !== 'recorded-commit-absent')) return undefined;
  const later = n.laterBuilds.filter((x): x is number => typeof x === 'number');
  const recorded = n.reason === 'recorded-commit-absent' && typeof n.recordedCommit === 'string' ? `recorded commit ${inlineCode(n.recordedCommit.slice(0, 10))}, which its workspace does not hold` : 'recorded no commit';
  const builds = later.length === 1 ? `the later build #${later[0] as number} has used that workspace since` : later.length > 1 ? `later builds (${later.slice(0, 5).map((x) => `#${x}`).join(', ')}${later.length > 5 ? ', ...' : ''}) have used that workspace since` : 'later builds may have used that workspace since';
  return `**The checkout's change was not read:** ${buildWords(ci)} ${recorded}, and ${builds}, so the workspace's git history may be a later build's checkout, not this one's. ${n.reason === 'recorded-commit-absent' ? 'A checkout that holds that commit would show its change (`git show` of it).' : 'The commit this build ran would tell (its `GIT_COMMIT`, or `git log` in a checkout of it).'}`;
}

/**
 * A shallow clone's head (session 55): git holds the commit, not its parent, so what it changed is unknown; said with
 * the two ways to read it (deepen the checkout here, or clone deeper in the job), so silence is not taken for "no change".
 */
function shallowStep(head: unknown, subject: unknown): string {
  const commit = typeof head === 'string' ? `commit ${inlineCode(head.slice(0, 10))}${typeof subject === 'string' && subject !== '' ? ` (${subject.replace(/`/g, "'")})` : ''}` : 'its last commit';
  return `**The checkout's change was not read:** the checkout is a shallow clone: git holds ${commit} but not the commit before it, so it cannot show what that commit changed. ${inlineCode('git fetch --deepen=1')} in the checkout fetches its parent, and asking again then shows it; a job can clone deeper (Jenkins' git "Advanced clone behaviours": shallow clone off or depth 2 or more; GitHub's ${inlineCode('actions/checkout')} with ${inlineCode('fetch-depth: 0')}).`;
}

/** A changed block the evidence names, and where it stands (`Line 5 of `src/calc.c`, the error's own line`). */
export interface NamedBlock {
  b: ChangedBlock;
  where: string;
}

/**
 * What the change did to a failing test's file, only as far as git's lists and diffs show it: left as it was (every
 * file of the range listed), touched away from the check (every commit's diff of it here, whole, none at the check),
 * or touched (compare); `atCheck`: a block of its diffs is at the check's own lines.
 */
function testFileWords(w: WorkspaceChanges, testFile: string, check: string, atCheck: boolean): string {
  const touching = commitsTouching(w, testFile);
  if (touching.length === 0) return listGap(w) === undefined ? " The change left the test's file as it was." : '';
  const own = w.diffs.filter((d) => sameFile(d.path, testFile));
  const whole = touching.every((c) => own.some((d) => d.commitId === c.commitId)) && !own.some((d) => d.truncated === true);
  if (whole && !atCheck && /:\d+$/.test(check)) return ` The change touched the test's file away from its check (${inlineCode(check)}), not the check's own lines.`;
  return ` The change touched the test's file too (${inlineCode(testFile)}): compare its changed lines with the check.`;
}

/**
 * The changed blocks that touch what the error names, most telling first: the located line, else the located file,
 * then files the evidence names beside it (at most two), then lines holding a code name of the message. Shared by the
 * fix answer and the `openai` engine's prompt (workspaceChangesPrompt.ts), so both point at the same lines.
 */
export function blocksTheErrorNames(w: WorkspaceChanges, f: Finding, places: ChangePlaces): { picked: NamedBlock[]; atLine: ChangedBlock[]; atScript: ChangedBlock[]; calls: ChangedBlock[]; names: string[]; quoted?: QuotedWrite<ChangedBlock> | undefined; atStopped: ChangedBlock[]; atValue: ChangedBlock[] } {
  const blocks = w.diffs.flatMap(blocksOf);
  const picked: NamedBlock[] = [];
  const said = new Set<ChangedBlock>();
  const say = (b: ChangedBlock, where: string): void => {
    said.add(b);
    picked.push({ b, where });
  };
  const loc = places.located;
  const inLocated = loc ? blocks.filter((b) => sameFile(b.path, loc.path)) : [];
  const atLine = loc?.line !== undefined ? inLocated.filter((b) => touchesLine(b, loc.line as number)) : [];
  for (const b of atLine.slice(0, 2)) say(b, `${capital(lineWords(b))} of ${inlineCode(b.path)}, the error's own line`);
  if (loc && atLine.length === 0 && inLocated.length > 0) {
    const b = inLocated[0] as ChangedBlock;
    // A diff cut before its end may have touched the error's line further down.
    const cut = w.diffs.some((d) => d.truncated === true && sameFile(d.path, loc.path));
    const notLine = loc.line === undefined ? '' : cut ? ` (its diff is cut here, so whether it touched line ${loc.line}, the error's line, is not shown)` : ` (not line ${loc.line}, the error's line)`;
    say(b, `${capital(lineWords(b))} of ${inlineCode(b.path)}, the error's file${notLine}`);
  }
  // The script line that runs the failing command, written by the change (fx17).
  const script = places.script;
  const atScript = script ? blocks.filter((b) => !said.has(b) && sameFile(b.path, script.path) && touchesLine(b, script.line)).slice(0, 1) : [];
  for (const b of atScript) say(b, `${capital(lineWords(b))} of ${inlineCode(b.path)}, the line that runs the failing command (${inlineCode(`${script?.path ?? ''}:${script?.line ?? ''}`)})`);
  // The file that defines the module or class the error's own line calls (fx17): `Price.format` -> price.ml.
  const calls: ChangedBlock[] = [];
  for (const c of calledModules(places.errorLine ?? '')) {
    const own = blocks.filter((b) => !said.has(b) && (!loc || !sameFile(b.path, loc.path)) && definesModule(b.path, c));
    const b = own.find((x) => c.member !== undefined && [...x.removed, ...x.added].some((l) => hasWord(l, c.member as string))) ?? own[0];
    if (!b || calls.length >= 1) continue;
    calls.push(b);
    say(b, `${capital(lineWords(b))} of ${inlineCode(b.path)}, the file that defines ${inlineCode(c.module)}, which the error's line calls (${inlineCode(c.said)})`);
  }
  // The script a stopped step was running, edited by the change (fx20): `perl bin/import.pl` under a time limit.
  const stopped = places.stopped;
  const atStopped = stopped ? blocks.filter((b) => !said.has(b) && sameFile(b.path, stopped.path)).slice(0, 2) : [];
  for (const b of atStopped) say(b, `${capital(lineWords(b))} of ${inlineCode(b.path)}, the script the step was running when it was stopped (${inlineCode(clip(stopped?.command.text ?? '', 80))} ${at(stopped?.command.line ?? 0)})`);
  // A value the change set that the failing command read (fx21): `++ REGION=` under `+ . ./deploy.env`. A URL or file
  // name the error quotes, written on the same line, is said as that (fx20's, below).
  const value = places.value;
  const valueBlock = value ? blocks.find((b) => sameFile(b.path, value.b.path) && b.newStart === value.b.newStart && b.commitId === value.b.commitId) : undefined;
  const quotedFirst = blockWritingQuoted(blocks, places.quoted ?? []);
  const atValue = valueBlock && quotedFirst?.b !== valueBlock ? [valueBlock] : [];
  const readAt = value?.read.place !== undefined ? `, ${inlineCode(value.read.place)}` : ` ${at(value?.read.line ?? 0)}`;
  for (const b of atValue) if (!said.has(b)) say(b, `${capital(lineWords(b))} of ${inlineCode(b.path)}, where it ${value?.how === 'removed' ? 'removed the line that set' : 'set'} ${inlineCode(value?.name ?? '')}, which the failing command read (${inlineCode(clip(value?.read.text ?? '', 80))}${readAt})`);
  // A URL, path or file name the error quotes, written by the change (fx20): `cannot open URL 'http://host/x-2.4.0.csv'`.
  const quoted = blockWritingQuoted(blocks, places.quoted ?? quotedOperands([{ line: f.message_line, text: f.message }], { first: f.message_line, last: f.message_line }));
  if (quoted && !said.has(quoted.b)) say(quoted.b, `${capital(lineWords(quoted.b))} of ${inlineCode(quoted.b.path)}, where it wrote the ${quoted.q.kind} the error quotes (${inlineCode(quoted.q.text)} ${at(quoted.q.line)})`);
  const others = namedBesideTheError(places);
  const inNamed: { b: ChangedBlock; why: string }[] = [];
  for (const n of others) for (const b of blocks) if (!said.has(b) && sameFile(b.path, n.path) && !inNamed.some((x) => x.b.path === b.path)) inNamed.push({ b, why: n.why });
  for (const { b, why } of inNamed.slice(0, 2)) say(b, `${capital(lineWords(b))} of ${inlineCode(b.path)}, ${why}`);
  // A name the error's message holds, on a changed line of another file (the function the failing check calls).
  const names = codeNamesOf(`${f.message} ${f.symbol ?? ''}`);
  const byName = blocks.filter((b) => !said.has(b)).flatMap((b) => {
    const name = names.find((n) => [...b.removed, ...b.added].some((l) => hasWord(l, n)));
    return name ? [{ b, name, wrote: b.added.some((l) => hasWord(l, name)) }] : [];
  });
  for (const { b, name, wrote } of byName.slice(0, said.size > 0 ? 1 : 2)) say(b, `${capital(lineWords(b))} of ${inlineCode(b.path)}, where it ${wrote ? 'wrote' : 'removed'} a line holding ${inlineCode(name)}, which the error names`);
  return { picked, atLine, atScript, calls, names, quoted, atStopped, atValue };
}

/**
 * The fix answer's block on the checkout's change, or undefined without `workspaceChanges`. Its sentences rest on
 * the context field (the caller cites `workspaceChanges`).
 */
export function changeDiffStep(ci: CiContext, f: Finding, places: ChangePlaces): string | undefined {
  const w = changesOf(ci);
  if (!w) return undefined;
  const count = w.commits.length + (w.moreCommits ?? 0);
  const commitCount = `${count} commit${count === 1 ? '' : 's'}`;
  // `last-commit`: the last green build's commit was not given, or git does not have it as an ancestor of the head.
  const unknownRange = 'the range since the last green build is not known here';
  const which = rangeSubject(w);
  const range =
    w.range === 'since-green'
      ? `The change since the last green build (${inlineCode(`${w.base.slice(0, 10)}..${w.head.slice(0, 10)}`)}, ${commitCount})`
      : which === 'the last commit'
        ? `The last commit (${inlineCode(w.head.slice(0, 10))}; ${unknownRange}, so only that one)`
        : `The last commit (${inlineCode(w.head.slice(0, 10))}) is a merge: the ${commitCount} it brought in (${unknownRange})`;
  const lines: string[] = [`**${range}**${headWords(ci, w)}, read with git in the checkout:`];
  const { picked: named, atLine, atScript, calls, names, quoted, atStopped, atValue } = blocksTheErrorNames(w, f, places);
  // The moved files' own blocks (their new places, named by a clue) are the move itself, said below.
  const movedTo = (places.moved?.moves ?? []).flatMap((x) => (x.to !== undefined ? [x.to] : []));
  const picked = named.filter(({ b }) => !movedTo.some((t) => sameFile(b.path, t)));
  for (const { b, where } of picked) {
    const words = blockWords(b);
    lines.push(`- ${where}: ${commitWords(w, b.commitId)} ${words.inline ? `${words.inline}.` : 'changed it:'}`);
    if (words.fenced) lines.push(words.fenced);
  }
  const said = new Set(picked.map((x) => x.b));
  const loc = places.located;
  const others = namedBesideTheError(places);

  const touchedPaths = [...new Set(w.commits.flatMap((c) => (c.files ?? []).map((x) => changeLinePaths(x).pop() ?? x)))];
  // A path the command names that the change moved away (fx18): the move is the story; said after the blocks shown.
  if (places.moved) return [...lines, ...movedWords(w, places.moved, places.script)].join('\n');
  if (said.size === 0) {
    const errorFiles = [...new Set([...(loc ? [loc.path] : []), ...others.map((n) => n.path)])];
    const changed = touchedPaths.slice(0, 5).map((p) => inlineCode(p)).join(', ') + (touchedPaths.length > 5 ? ` and ${touchedPaths.length - 5} more` : '');
    // A file the commits list whose diff is not here (binary, past the output bound, deleted, past the diffs read).
    const unshown = errorFiles.flatMap((p) => commitsTouching(w, p).slice(0, 1).map((c) => ({ p, c })))[0];
    const gap = listGap(w);
    // Every listed file's diff is here, whole: only then is "no changed line holds the names" a fact.
    const pairs = w.commits.reduce((n, c) => n + (c.files ?? []).filter((x) => !x.startsWith('D')).length, 0);
    const linesRead = gap === undefined && pairs === w.diffs.length && !w.diffs.some((d) => d.truncated === true);
    // The script that runs the failing command is no file the error names: said as what it is (fx18).
    const isScript = (p: string): boolean => places.script !== undefined && sameFile(p, places.script.path);
    const own = errorFiles.filter((p) => !isScript(p)).slice(0, 3).map((p) => inlineCode(p)).join(', ');
    const scriptWords = places.script && errorFiles.some(isScript) ? `the script that runs the failing command (${inlineCode(places.script.path)})` : '';
    const errorNames = [own ? `the files the error names (${own})` : scriptWords ? '' : 'the files the error names (none in the checkout)', scriptWords].filter(Boolean).join(' or ');
    if (unshown) {
      const status = (unshown.c.files ?? []).find((x) => changeLinePaths(x).some((p) => sameFile(p, unshown.p)))?.charAt(0);
      const verb = status === 'D' ? 'deleted' : status === 'A' ? 'added' : status === 'R' ? 'renamed' : 'changed';
      lines.push(`- ${capital(commitWords(w, unshown.c.commitId))} ${verb} ${inlineCode(unshown.p)}, ${isScript(unshown.p) ? 'the script that runs the failing command' : 'a file the error names'}; its diff is not here (a binary file, a deletion, or more than was read): ${inlineCode(`git show ${unshown.c.commitId.slice(0, 10)} -- ${unshown.p}`)} shows it.`);
    } else if (errorFiles.length === 0 && names.length === 0) lines.push(`- It changed ${changed || 'no file git lists'}; the error names no file of the checkout, so I can't tell whether this change is related.`);
    else if (gap !== undefined) lines.push(`- The files git listed for ${which} do not include ${errorNames}, but ${gap}, so I can't tell whether it touched them; it changed ${changed || 'no file git lists'}.`);
    else lines.push(`- ${capital(which)} did not touch ${errorNames}${names.length > 0 && linesRead ? ` nor a line holding the names it quotes` : ''}; it changed ${changed || 'no file git lists'}. Nothing here shows it caused the failure: look at what else differs (the build's settings, its tools, what it fetched).`);
    return lines.join('\n');
  }

  // The two honest ways out, and which the evidence supports when it does.
  const first = [...said][0] as ChangedBlock;
  const revert = `${inlineCode(`git revert ${first.commitId.slice(0, 10)}`)}`;
  const testFile = places.check?.replace(/:\d+$/, '');
  const checkLine = Number(/:(\d+)$/.exec(places.check ?? '')?.[1] ?? NaN);
  // A change to the test is one in the check's own lines (at most 8 lines above it); elsewhere in its file
  // (Rust's and Go's code beside their tests) it is the code's.
  const inTest = (b: ChangedBlock): boolean => testFile !== undefined && sameFile(b.path, testFile) && (!Number.isFinite(checkLine) || (b.newStart <= checkLine + 2 && b.newStart + Math.max(1, b.added.length) > checkLine - 8));
  const testChanged = [...said].some(inTest);
  const codeChanged = [...said].some((b) => !inTest(b));
  if (TEST_CLASSES.has(f.class) && testChanged && !codeChanged) {
    lines.push(`- The change edited the test itself${places.check ? ` (${inlineCode(places.check)} is its check)` : ''}, not the code it checks: if the new expectation is right, the code under test has to change to meet it; if not, restore the test's old lines (${revert}).`);
  } else if (TEST_CLASSES.has(f.class) && testChanged && codeChanged) {
    lines.push(`- The change edited both the code and its test, and the test fails: the code does not give what the changed test expects yet; compare the two changed places above.`);
  } else if (TEST_CLASSES.has(f.class) && atLine.length > 0 && places.check !== undefined && testFile !== undefined && loc !== undefined && !sameFile(loc.path, testFile)) {
    // The change wrote the error's own line in the code the test runs (a raise site), not the test (fx18).
    const where = inlineCode(`${loc.path}:${loc.line ?? ''}`);
    lines.push(`- The change wrote ${f.class === 'test-error' ? 'the line that raised' : "the error's own line"} (${where}) in the code the test runs (the test reached it from ${inlineCode(places.check)}), not in the test: fix that line so it does what the test needs, or restore it (${revert}) if the change was not meant.`);
  } else if (TEST_CLASSES.has(f.class) && !(atLine.length > 0 && places.check === undefined)) {
    // (Without the test's own place, a line the change wrote is said as any error's line, below: nothing of "the test".)
    const testWords = testFile === undefined ? '' : testFileWords(w, testFile, places.check as string, w.diffs.flatMap(blocksOf).some(inTest));
    lines.push(`- Two ways out, and the evidence does not say which was meant: if the new behaviour is intended, update the test's expectation${places.check ? ` at ${inlineCode(places.check)}` : ''} to it; if not, restore the old lines (${revert}, or edit them back).${testWords}`);
  } else if (LIMIT_CLASSES.has(f.class) && atStopped.length > 0 && places.stopped) {
    const s = places.stopped;
    const last = s.last ? `; the last output before the stop was ${inlineCode(clip(s.last.text, 100))} ${at(s.last.line)}, and the work after it did not finish` : '; it printed nothing after it started';
    lines.push(`- The step was running ${inlineCode(s.path)} ${at(s.command.line)}, which this change edited, when it was stopped${last}. That makes the changed lines above the prime suspect, not a proof (a bigger input, a busier agent or a service that did not answer stop a step the same way): if they can loop or wait without end, fix them; if the extra work is meant, raise the limit; or revert the change (${revert}) to check.`);
  } else if (LIMIT_CLASSES.has(f.class)) {
    lines.push(`- If the change's extra work is intended, raise the limit the step runs under; if not, make the changed code do less (or revert it: ${revert}). The evidence does not say which was meant.`);
  } else if (atValue.length > 0 && places.value && atLine.length === 0) {
    lines.push(valueReadWords(places.value, revert));
  } else if (quoted && atLine.length === 0 && (NOT_THERE_WORDS.test(f.message) || NOT_THERE_WORDS.test(quoted.q.said)) && (quoted.q.kind === 'URL' || !atScript.includes(quoted.b))) {
    // What the command did not find (a 404, a missing file) is what the change wrote; a write, a permission, a
    // certificate refused on it are said as any named change (below). On the script's own line, a path is fx17's.
    const q = quoted.q;
    const was = quoted.was !== undefined ? `; before it, that line held ${inlineCode(quoted.was)}` : '';
    const check = q.kind === 'URL' && /^https?:/i.test(q.text) ? `that a server answers at that address and has it there (${inlineCode(`curl -fsSI '${q.text}'`)} shows what it answers)` : q.kind === 'URL' ? 'that it exists at that address' : 'that it is where the command looks';
    lines.push(`- The change wrote the ${q.kind} the failing command asked for (${inlineCode(q.text)} ${at(q.line)})${was}. That makes this hunk the first suspect, not a proof: if the new ${q.kind} is meant, check ${check}; if not, restore the old one (${revert}).`);
  } else if (atScript.length > 0 && atLine.length === 0) {
    lines.push(`- The change wrote the line that runs the failing command, so that line is where to look first: if the new command is meant, make what it runs pass (or fix the line); if not, restore the old line (${revert}).`);
  } else if (calls.length > 0 && atLine.length === 0) {
    lines.push(`- The error's line calls what this change edited: make the call match the changed definition, or restore the old definition (${revert}) if the change was not meant.`);
  } else if (atLine.length > 0) {
    lines.push(`- The error is on a line this change wrote, so that line is where to act: adjust it as the error says, or revert the change (${revert}) if it was not meant.`);
  } else {
    lines.push(`- The change touched what the error names, not the error's own line: compare those changed lines with what the error says (or revert it to check: ${revert}).`);
  }
  return lines.join('\n');
}


/** The why answer's one sentence: the change wrote the line the finding locates (undefined otherwise). */
export function changedLineCause(ci: CiContext, located: { path: string; line?: number | undefined } | undefined): string | undefined {
  const w = changesOf(ci);
  if (!w || !located || located.line === undefined) return undefined;
  const b = w.diffs.flatMap(blocksOf).find((x) => sameFile(x.path, located.path) && touchesLine(x, located.line as number));
  if (!b) return undefined;
  const words = blockWords(b);
  return `${capital(rangeSubject(w))} wrote that line: ${lineWords(b)} of ${inlineCode(b.path)}, ${commitWords(w, b.commitId)}${words.inline ? ` ${words.inline}` : ''} (git in the checkout).`;
}

/** The change block's conclusion for a value the change set that the failing command read (changeValue.ts, fx21). */
function valueReadWords(v: ValueRead, revert: string): string {
  const name = inlineCode(v.name);
  const shown = v.traced ? ` (${inlineCode(v.traced.text)} ${at(v.traced.line)})` : '';
  const what = v.how === 'removed' ? `removed the line that set ${name}` : v.value === '' ? `set ${name} to an empty value` : `set ${name}${v.value !== undefined ? ` to ${inlineCode(v.value)}` : ''}`;
  const read = v.by === 'name' ? `reads ${name}` : v.by === 'value' ? `ran with that value` : `ran with an empty word where it needed one`;
  const readAt = v.read.place !== undefined ? `(${inlineCode(v.read.place)})` : at(v.read.line);
  const was = v.was !== undefined && v.how === 'set' ? ` (before it: ${inlineCode(v.was)})` : v.was !== undefined ? ` (the removed line: ${inlineCode(v.was)})` : '';
  return `- This change ${what}${shown}, and the failing command ${read} ${readAt}: the changed line above is where the value came from. Set ${name} to the value the command needs there${was}, or restore the old line (${revert}) if the change was not meant.`;
}

