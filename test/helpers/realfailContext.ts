/**
 * The chat context of a real-failure case (test/fixtures/realfail, a tuned case only) as
 * `cichat ask [--workspace DIR]` makes it: the log cleaned and analysed, and with the workspace
 * the snippets the CLI reads from the case's project. answers-realfail, answer-claims and
 * answers-fix-realfail ask their questions of the same ~850 cases, each with and without the
 * workspace, and findings-realfail checks each case's finding: the analysis and the snippets
 * (which analyse the log once more) were most of what those files cost, and each file made them
 * again (docs/notes/house.md, "`npm test` time", seventh and ninth sessions). So a case's
 * excerpts (the analyzer's output, with and without the workspace alike) and its snippets are
 * kept on disk, in JSON as the backend stores excerpts and as the snippets travel in an upload,
 * under `node_modules/.cache/cichat/realfail-<code>/`, where <code> is a hash of every source
 * file the answer's inputs could depend on (and of this file and test/answerFixtures.ts): a
 * change to the code makes a new directory and everything is made afresh from it
 * (test/realfail-context.test.ts). Within one directory the excerpts are named by the case's
 * log, the snippets by its log and its project's files by name, size and time, so an edited
 * case is made afresh too. Findings are read from the kept excerpts; the answers to "why?" and
 * "how do I fix it?", which several files ask of the same cases, are kept the same way
 * (test/helpers/realfailAnswer.ts), the others composed by each file; all by the code under
 * test. What is asserted is unchanged.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { cleanLines } from '../../core/log/clean.js';
import { snippetsFromDir } from '../../cli/snippets.js';
import { analyzedExcerpts, chatContextOfLines } from '../answerFixtures.js';
import { REALFAIL_ROOT, TUNED_CASES } from './realfail.js';
import type { ChatContext } from '../../backend/answer/engine.js';
import type { CiContextUpload } from '../../protocol/schemas.js';
import type { WorkspaceSnippet } from '../../protocol/types.js';

type Excerpts = ChatContext['failureExcerpts'];

const ROOT = process.cwd();
/** The source trees an answer's inputs are made by (as scripts/test.mjs's SOURCES), test files left out. */
const CODE_DIRS = ['protocol', 'core', 'jenkins', 'http', 'backend', 'controller', 'cli'];
const CODE_FILES = ['test/answerFixtures.ts', 'test/helpers/realfailContext.ts', 'test/helpers/realfailAnswer.ts', 'test/helpers/realfail.ts', 'package-lock.json'];
/**
 * A directory no test file has used for this long goes (each use marks it; another checkout
 * sharing node_modules may be using its own): each code version a session tests makes one (~8 MB).
 */
const KEEP_OLD_MS = 3600_000;
/** A case's lock older than this was left by a run that was killed while making it (a case takes milliseconds). */
const LOCK_STALE_MS = 5_000;

function sourceFiles(dir: string, out: string[]): string[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) sourceFiles(p, out);
    else if (/\.(ts|tsx|js|mjs|json)$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) out.push(p);
  }
  return out;
}

/**
 * The name of the kept contexts' directory for the code under `root`: a hash of the path and
 * bytes of every source file of CODE_DIRS and of CODE_FILES (a missing one counts as missing).
 */
export function codeDirName(root: string): string {
  const hash = createHash('sha1');
  const files = [...CODE_DIRS.flatMap((d) => (fs.existsSync(path.join(root, d)) ? sourceFiles(path.join(root, d), []) : [])), ...CODE_FILES.map((f) => path.join(root, f))].sort();
  for (const f of files) {
    const bytes = fs.existsSync(f) ? fs.readFileSync(f) : '\u0001missing';
    hash.update(path.relative(root, f)).update('\0').update(bytes).update('\0');
  }
  return `realfail-${hash.digest('hex').slice(0, 16)}`;
}

let cacheDir: string | undefined;
/** This code's directory of kept contexts (made, and older ones pruned, on first use). */
function codeDir(): string {
  if (cacheDir !== undefined) return cacheDir;
  const base = path.join(ROOT, 'node_modules', '.cache', 'cichat');
  const name = codeDirName(ROOT);
  fs.mkdirSync(path.join(base, name), { recursive: true });
  const now = new Date();
  fs.utimesSync(path.join(base, name), now, now);
  for (const other of fs.readdirSync(base)) {
    if (!other.startsWith('realfail-') || other === name) continue;
    const st = fs.statSync(path.join(base, other), { throwIfNoEntry: false });
    if (st && Date.now() - st.mtimeMs > KEEP_OLD_MS) fs.rmSync(path.join(base, other), { recursive: true, force: true });
  }
  cacheDir = path.join(base, name);
  return cacheDir;
}

const stamps = new Map<string, string>();
/** The names, sizes and times of a project's files: what snippetsFromDir may read (read once per test file). */
function projectStamp(dir: string): string {
  const known = stamps.get(dir);
  if (known !== undefined) return known;
  const rows: string[] = [];
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      const st = fs.lstatSync(p);
      rows.push(`${path.relative(dir, p)}\t${st.size}\t${st.mtimeMs}\t${st.mode}`);
      if (e.isDirectory()) walk(p);
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  const stamp = rows.sort().join('\n');
  stamps.set(dir, stamp);
  return stamp;
}

/** What `make` returns for a case, kept in `<code dir>/<id>.<kind>.<key>.json` (made once per code and key). */
export async function kept<T>(id: string, kind: string, key: string, make: () => T | Promise<T>): Promise<T> {
  const file = path.join(codeDir(), `${id}.${kind}.${createHash('sha1').update(key).digest('hex').slice(0, 16)}.json`);
  const read = (): T | undefined => {
    try {
      return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
    } catch {
      return undefined; // not made yet
    }
  };
  const ready = read();
  if (ready !== undefined) return ready;
  // Two files running side by side in a fresh clone reach the same cases at the same time (seen:
  // both made all of them). The one that takes the case's lock makes it; the other waits for the
  // file: a case takes milliseconds, so a lock older than LOCK_STALE_MS was left by a killed run.
  const lock = `${file}.lock`;
  let mine = false;
  for (let madeDir = false; !mine; ) {
    try {
      fs.closeSync(fs.openSync(lock, 'wx'));
      mine = true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
        // The directory went (another checkout's run pruned it): made again once, else no lock.
        if (madeDir) break;
        fs.mkdirSync(path.dirname(lock), { recursive: true });
        madeDir = true;
        continue;
      }
      const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? 0);
      if (age > LOCK_STALE_MS) fs.rmSync(lock, { force: true });
      else await new Promise((resolve) => setTimeout(resolve, 5));
      const made = read();
      if (made !== undefined) return made;
    }
  }
  try {
    const text = JSON.stringify(await make());
    const tmp = `${file}.${process.pid}.tmp`;
    try {
      fs.writeFileSync(tmp, text);
      fs.renameSync(tmp, file);
    } catch {
      // Not kept (the directory went meanwhile): the next file to ask makes it again.
    }
    // The caller gets what a reader of the file gets (JSON drops undefined fields, as the store does).
    return JSON.parse(text) as T;
  } finally {
    if (mine) fs.rmSync(lock, { force: true });
  }
}

const projectOf = (id: string): string => path.join(REALFAIL_ROOT, id, 'project');

/** What realfailContext's context of case `id` is made from: its log and, with the workspace, its project's files. */
export const contextKey = (id: string, log: string, withWorkspace: boolean): string => (withWorkspace ? `${log}\0${projectStamp(projectOf(id))}` : log);

/** Tuned case `id`'s log (a case of a held-out round is never read). */
export function tunedLog(id: string): string {
  if (!TUNED_CASES.includes(id)) throw new Error(`${id} is not a tuned case (test/helpers/realfail.ts)`);
  return fs.readFileSync(path.join(REALFAIL_ROOT, id, 'fail.log'), 'utf8');
}

/** The excerpts the analyzer gives for tuned case `id`'s log (`analyze(log)`, as JSON keeps them), and the log. */
export async function realfailExcerpts(id: string): Promise<{ excerpts: Excerpts; log: string; lines: string[] }> {
  const log = tunedLog(id);
  const lines = cleanLines(log);
  return { excerpts: await kept(id, 'excerpts', log, () => analyzedExcerpts(lines)), log, lines };
}

/**
 * The context of tuned case `id` (with its project as the workspace when `withWorkspace`), its
 * log as read and its cleaned lines (what a citation is checked against).
 */
export async function realfailContext(id: string, withWorkspace: boolean): Promise<{ ctx: ChatContext; log: string; lines: string[] }> {
  const { excerpts, log, lines } = await realfailExcerpts(id);
  const snippets = withWorkspace ? await kept<WorkspaceSnippet[]>(id, 'snippets', contextKey(id, log, true), () => snippetsFromDir(projectOf(id), log, undefined, excerpts)) : [];
  const upload = { buildDetails: { result: 'FAILURE', consoleLog: log }, ...(snippets.length > 0 ? { workspaceSnippets: snippets } : {}) } as CiContextUpload;
  return { ctx: chatContextOfLines(upload, lines, excerpts), log, lines };
}
