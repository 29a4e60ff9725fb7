/**
 * The change a checkout holds (issue 25 point 3, session 52): the commits since the last green build's commit
 * (or, that commit unknown, the checkout's last commit) and the diffs of the files the failure names first, for
 * `workspaceChanges`. Read by `git` in the checkout, confined: read-only commands on commits (never the work tree,
 * so no clean filter or fsmonitor runs), hooks, external diff, textconv, pager, signatures and replace objects
 * off, no network (`protocol.allow=never`), no prompt, each call bounded in time and output. git looks for the
 * repository in the checkout only (`GIT_CEILING_DIRECTORIES`: an empty or broken `.git` never makes it answer for a
 * repository above, such as a JENKINS_HOME kept in git), and its own `safe.directory` check is kept: a checkout
 * another user owns gives nothing. Secrets are masked like the log.
 * Shared by the CLI (`ask --workspace DIR`) and the controller (the build's workspace).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { maskSecrets } from '../../core/secrets.js';
import { changeLinePaths, MAX_CHANGE_DIFF_CHARS } from '../../protocol/ciContext.js';
import type { WorkspaceChanges, WorkspaceChangesNotRead } from '../../protocol/types.js';

export interface ChangeOptions {
  /** The last green build's commit (`GIT_PREVIOUS_SUCCESSFUL_COMMIT`, its recorded revision). */
  base?: string | undefined;
  /** The failed build's commit (`GIT_COMMIT`); else the checkout's `HEAD`. */
  head?: string | undefined;
  /**
   * What the checkout's `HEAD` is, when `head` is not given or not in the checkout (session 53): `checkout-head` (a
   * checkout the user pointed at: the CLI, the default), `workspace-head` (the build's own workspace, no later build
   * in it: the controller), or false: then nothing is read (a workspace a later build may have checked out since).
   */
  headFallback?: 'checkout-head' | 'workspace-head' | false;
  /** Paths (relative to the checkout) the failure names, most telling first: their diffs come first. */
  named?: readonly string[];
  workspaceId?: string;
  /** `.git` may be a file (`gitdir: ...`, a worktree): the CLI's own checkout; the controller wants a directory. */
  gitFileAllowed?: boolean;
  /** All diffs together, in characters (default 6000). */
  budget?: number;
  /** Per git call (default 4000 ms). */
  timeoutMs?: number;
}

const SHA = /^[0-9a-f]{7,64}$/i;
const MAX_COMMITS = 20;
const PER_FILE_CHARS = 2000;
const OUTPUT_BYTES = 256 * 1024;
/** Files listed per commit, and the longest path listed (the schema's bounds). */
const MAX_FILES = 100;
const MAX_PATH_CHARS = 1000;
/** `git show` calls at most: a commit of many binary files gives no hunks, and each call is a process. */
const MAX_SHOWS = 24;

/** The confined git call's arguments before the command's own. */
const CONFINED = [
  '--no-pager',
  '--no-optional-locks',
  '--no-replace-objects',
  // A path is a path: `src/[id].ts` (a route file) or `a*b` is no glob matching other files (session 54).
  '--literal-pathspecs',
  '-c', 'core.hooksPath=/dev/null',
  '-c', 'core.fsmonitor=false',
  '-c', 'core.quotePath=false',
  '-c', 'diff.external=',
  '-c', 'log.showSignature=false',
  '-c', 'protocol.allow=never',
  '-c', 'color.ui=false',
];

/**
 * The environment of a git call: no GIT_* of ours (GIT_DIR would point it elsewhere), no prompt, no system config,
 * and no looking for a repository above `dir` (git's explicit `--git-dir` would skip its `safe.directory` check).
 */
function gitEnv(dir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('GIT_')) env[k] = v;
  return { ...env, GIT_CEILING_DIRECTORIES: path.dirname(path.resolve(dir)), GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1', GIT_ASKPASS: 'true', SSH_ASKPASS: 'true', GIT_PAGER: 'cat', LC_ALL: 'C' };
}

/** A git call's output; `cut` when it went past OUTPUT_BYTES (what came before is kept, git was stopped). */
function gitOut(dir: string, args: string[], timeoutMs: number): Promise<{ text: string; cut: boolean } | undefined> {
  return new Promise((resolve) => {
    execFile('git', ['-C', dir, ...CONFINED, ...args], { env: gitEnv(dir), timeout: timeoutMs, maxBuffer: OUTPUT_BYTES, encoding: 'utf8', windowsHide: true }, (err, stdout) => {
      if (!err) resolve({ text: stdout, cut: false });
      else resolve((err as { code?: unknown }).code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER' && stdout !== '' ? { text: stdout, cut: true } : undefined);
    });
  });
}

/** A git call's whole output, or undefined when it failed or went past OUTPUT_BYTES. */
async function git(dir: string, args: string[], timeoutMs: number): Promise<string | undefined> {
  const out = await gitOut(dir, args, timeoutMs);
  return out && !out.cut ? out.text : undefined;
}

/** Whether two paths name the same file (one may be longer: an agent's absolute path, a `./` prefix). */
function samePath(a: string, b: string): boolean {
  const x = a.replace(/^\.\//, '');
  const y = b.replace(/^\.\//, '');
  return x === y || x.endsWith(`/${y}`) || y.endsWith(`/${x}`);
}

/** The path a changelog line names after the change (`R100 old -> new` -> new). */
export function changedPath(line: string): string {
  return changeLinePaths(line).pop() ?? line;
}

/**
 * `git log -z --name-status` with `\x1e<mark>%H\x1f<mark>%an\x1f<mark>%s` headers into commits (FORMAT_OF); of a commit
 * with more than MAX_FILES files, the ones `first` says first (the failure's), so that the cut keeps them. `mark` is
 * random per call, so a subject or author holding `\x1e`/`\x1f` cannot forge a commit block; `-z` gives each path as
 * git holds it (no C-quoting of quotes, tabs or backslashes), NUL after each field. A path with a line break or
 * another control character (not a tab) is left out: it cannot be said on a line. `cut`: the output stopped mid-way,
 * so its last commit (when there are others) is left out, its files maybe not all there.
 */
export function commitsOf(text: string, mark: string, first: (path: string) => boolean, cut = false): WorkspaceChanges['commits'] {
  const out: WorkspaceChanges['commits'] = [];
  const blocks = text.split(`\x1e${mark}`).slice(1);
  for (const block of cut && blocks.length > 1 ? blocks.slice(0, -1) : blocks) {
    const nul = block.indexOf('\0');
    const [commitId = '', author = '', subject = ''] = (nul < 0 ? block : block.slice(0, nul)).split(`\x1f${mark}`);
    if (!SHA.test(commitId)) continue;
    const fields = nul < 0 ? [] : block.slice(nul + 1).replace(/^\n/, '').split('\0');
    const files: string[] = [];
    for (let i = 0; i < fields.length; ) {
      const status = fields[i] ?? '';
      const paths = /^[RC]\d*$/.test(status) ? 2 : /^[ADMTUX]\d*$/.test(status) ? 1 : 0;
      if (paths === 0) {
        i++;
        continue;
      }
      const named = fields.slice(i + 1, i + 1 + paths);
      i += 1 + paths;
      if (named.length < paths || named.some((p) => p === '' || /[\x00-\x08\x0a-\x1f\x7f]/.test(p))) continue;
      const line = paths === 2 ? `${status} ${named[0] ?? ''} -> ${named[1] ?? ''}` : `${status} ${named[0] ?? ''}`;
      if (line.length <= MAX_PATH_CHARS) files.push(line);
    }
    const listed = files.length > MAX_FILES ? [...files.filter((f) => first(changedPath(f))), ...files.filter((f) => !first(changedPath(f)))] : files;
    // Masked before it is cut to the schema's bound: a mask may be longer than what it hides (`x` -> `****`).
    out.push({ commitId, ...(author ? { author: maskSecrets(author).slice(0, 200) } : {}), ...(subject ? { message: maskSecrets(subject).slice(0, 2000) } : {}), files: listed.slice(0, MAX_FILES) });
  }
  return out;
}

/** The `--format` of commitsOf's headers for a call's mark. */
export function formatOf(mark: string): string {
  return `--format=%x1e${mark}%H%x1f${mark}%an%x1f${mark}%s`;
}

/** A file's diff from its first hunk, cut at a line end within `max` characters. */
function hunksOf(diff: string, max: number): { text: string; truncated: boolean } | undefined {
  const at = diff.search(/^@@ /m);
  if (at < 0) return undefined; // binary, mode only
  const body = maskSecrets(diff.slice(at).replace(/\n$/, ''));
  if (body.length <= max) return { text: body, truncated: false };
  const cut = body.lastIndexOf('\n', max);
  return { text: body.slice(0, cut > 0 ? cut : max), truncated: true };
}

/** Whether `dir` has its own `.git` directory (a checkout the controller may read; a `.git` file only with `fileAllowed`). */
export async function isGitCheckout(dir: string, fileAllowed = false): Promise<boolean> {
  try {
    const dotGit = await lstat(path.join(dir, '.git'));
    return dotGit.isDirectory() || (fileAllowed && dotGit.isFile());
  } catch {
    return false;
  }
}

/**
 * The checkout's change, or undefined when `dir` is no git checkout (or git is missing, refuses it, or the range
 * is empty). Never throws.
 */
export async function checkoutChanges(dir: string, opts: ChangeOptions = {}): Promise<WorkspaceChanges | undefined> {
  return (await readCheckout(dir, opts)).changes;
}

/** A shallow checkout's head, whose parent the clone does not hold (session 55): its change cannot be read. */
export interface ShallowHead {
  commitId: string;
  /** The commit's subject line, masked and bounded. */
  subject?: string;
}

/**
 * The checkout's change (checkoutChanges), or, when there is none to read because the checkout is shallow (a
 * `--depth 1` clone: Jenkins' git "shallow clone", GitHub's `actions/checkout` default), the head it holds, so the
 * answer says why it shows no change instead of keeping silent. Never throws.
 */
export async function readCheckout(dir: string, opts: ChangeOptions = {}): Promise<{ changes?: WorkspaceChanges; shallow?: ShallowHead }> {
  const timeoutMs = opts.timeoutMs ?? 4000;
  if (!(await isGitCheckout(dir, opts.gitFileAllowed === true))) return {};
  const verify = async (rev: string): Promise<string | undefined> => (await git(dir, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`], timeoutMs))?.trim() || undefined;
  const recorded = opts.head && SHA.test(opts.head) ? await verify(opts.head) : undefined;
  const fallback = opts.headFallback ?? 'checkout-head';
  if (!recorded && fallback === false) return {};
  const head = recorded ?? (await verify('HEAD'));
  if (!head) return {};
  // Which commit `head` is, said in the answer: the build's own, or the checkout's HEAD read as the build's.
  const from = { headFrom: recorded ? ('recorded' as const) : (fallback as 'checkout-head' | 'workspace-head'), ...(!recorded && opts.head && SHA.test(opts.head) ? { recordedCommit: opts.head } : {}) };
  // The last green commit counts only when it is known here and an ancestor of the head.
  let base = opts.base && SHA.test(opts.base) ? await verify(opts.base) : undefined;
  if (base && (base === head || (await git(dir, ['merge-base', '--is-ancestor', base, head], timeoutMs)) === undefined)) base = undefined;
  const range = base ? 'since-green' : 'last-commit';
  base ??= await verify(`${head}~1`);
  if (!base) return { ...(await shallowHead(dir, head, timeoutMs)) };
  const named = opts.named ?? [];
  const rank = (p: string): number => {
    const i = named.findIndex((n) => samePath(p, n));
    return i < 0 ? named.length : i;
  };
  const mark = randomBytes(8).toString('hex');
  const log = await gitOut(dir, ['log', '-z', '--no-color', '--no-decorate', '--no-merges', '-M', `--max-count=${MAX_COMMITS + 1}`, formatOf(mark), '--name-status', `${base}..${head}`], timeoutMs);
  if (log === undefined) return {};
  const all = commitsOf(log.text, mark, (p) => rank(p) < named.length, log.cut);
  const commits = all.slice(0, MAX_COMMITS);
  if (commits.length === 0) return {};
  let more = all.length > MAX_COMMITS || log.cut ? 1 : 0;
  if (more > 0) {
    const count = Number((await git(dir, ['rev-list', '--no-merges', '--count', `${base}..${head}`], timeoutMs))?.trim());
    if (Number.isFinite(count)) more = count - commits.length;
  }
  // Each (commit, file), the files the failure names first, then the rest in the order git listed them.
  const pairs = commits.flatMap((c) => (c.files ?? []).filter((f) => !f.startsWith('D')).map((f) => ({ commitId: c.commitId, path: changedPath(f) })));
  pairs.sort((a, b) => rank(a.path) - rank(b.path));
  const diffs: WorkspaceChanges['diffs'] = [];
  let left = opts.budget ?? 6000;
  for (const p of pairs.slice(0, MAX_SHOWS)) {
    if (diffs.length >= 8 || left < 200) break;
    // A diff past OUTPUT_BYTES is kept as far as it came: its first hunks are what is said, marked cut.
    const raw = await gitOut(dir, ['show', '--no-color', '--no-ext-diff', '--no-textconv', '--format=', '-U2', '-M', p.commitId, '--', p.path], timeoutMs);
    const hunks = raw ? hunksOf(raw.text, Math.min(PER_FILE_CHARS, MAX_CHANGE_DIFF_CHARS, left)) : undefined;
    if (!hunks) continue;
    const truncated = hunks.truncated || (raw?.cut ?? false);
    diffs.push({ path: p.path, commitId: p.commitId, text: hunks.text, ...(truncated ? { truncated: true } : {}) });
    left -= hunks.text.length;
  }
  return { changes: { range, base, head, ...from, ...(opts.workspaceId ? { workspaceId: opts.workspaceId } : {}), commits, ...(more > 0 ? { moreCommits: more } : {}), diffs } };
}

/** The `workspaceChangesNotRead` of a shallow checkout (session 55). */
export function shallowNotRead(workspaceId: string, shallow: ShallowHead): WorkspaceChangesNotRead {
  return { workspaceId, reason: 'shallow', head: shallow.commitId, ...(shallow.subject ? { headSubject: shallow.subject } : {}), laterBuilds: [] };
}

/**
 * `head` of a shallow clone whose parent the clone lacks (git lists it in `.git/shallow`), with its subject; undefined
 * for a full clone's root commit (nothing came before it) or when git cannot tell.
 */
async function shallowHead(dir: string, head: string, timeoutMs: number): Promise<{ shallow?: ShallowHead }> {
  if ((await git(dir, ['rev-parse', '--is-shallow-repository'], timeoutMs))?.trim() !== 'true') return {};
  // In a shallow clone the boundary commit shows no parent (git grafts it there); `%P` empty and `%s` its subject.
  const shown = await git(dir, ['log', '-1', '--no-color', '--format=%P%x00%s', head], timeoutMs);
  const [parents, subject] = (shown ?? '').replace(/\n$/, '').split('\0');
  if (shown === undefined || (parents ?? '').trim() !== '') return {};
  return { shallow: { commitId: head, ...(subject ? { subject: maskSecrets(subject).slice(0, 200) } : {}) } };
}

/** The paths a workspace's snippets name (the failing file first, the code under test, the clues), to rank diffs by. */
export function namedPaths(snippets: readonly { path: string; kind?: string | undefined; workspaceId?: string }[]): string[] {
  return [...new Set(snippets.filter((s) => s.kind !== 'pipeline' && s.workspaceId !== 'job-config').map((s) => s.path))];
}
