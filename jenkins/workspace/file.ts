import { constants, promises as fs } from 'node:fs';
import { badRequest, notFound, pathTraversal, unsupportedMedia } from './errors.js';
import path from 'node:path';
import { isInsideBytes, privateHomeDirIn, relativePathSegments, resolveInside } from './pathguard.js';
import { decodeText } from '../xml.js';

export const MAX_FILE_CHARS = 50_000;
export const TRUNCATION_MARK = '\n\n[FILE TRUNCATED]';
/** The prefix searched for a NUL byte to call a file binary (as git and grep do). */
export const BINARY_SNIFF_BYTES = 8192;
/** UTF-8 needs at most 4 bytes per character. */
const BYTES_PER_CHAR = 4;

export interface ReadFileOptions {
  /** Characters (Unicode code points) kept before the cut; 50000 by default. */
  maxChars?: number;
}

/**
 * The index in `text` (UTF-16 units) just after its first `maxChars` code points, or -1 when the
 * text holds no more than that. Counting code points keeps surrogate pairs whole.
 */
function cutIndex(text: string, maxChars: number): number {
  let chars = 0;
  let i = 0;
  while (i < text.length) {
    if (chars === maxChars) return i;
    const unit = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    i += unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
    chars++;
  }
  return -1;
}

/** Where the open descriptor really points (Linux), as bytes; null where /proc is not there. */
async function descriptorPath(fd: number): Promise<Buffer | null> {
  try {
    return await fs.readlink(`/proc/self/fd/${fd}`, { encoding: 'buffer' });
  } catch {
    return null;
  }
}

const GIT_REFUSED = 'Files under .git are not served: they can hold credentials';

/**
 * The `.git` and home-key rules on where the path really leads (`gitlink -> .git` makes
 * `gitlink/config` a `.git` file; `keys -> ~/.ssh` a key): the segments of the real path below
 * the workspace, and every segment of the real path for `.ssh`, `.gnupg`, `.aws`, `.docker`,
 * `.kube`.
 */
function refuseGuarded(rootReal: string, real: string | Buffer): void {
  const text = typeof real === 'string' ? real : real.toString('latin1');
  const below = path.relative(Buffer.from(rootReal).toString('latin1'), text).split(path.sep);
  if (below.includes('.git')) throw badRequest(GIT_REFUSED);
  const keys = privateHomeDirIn(text);
  if (keys) throw badRequest(`Files under a home's ${keys} directory are not served: they hold keys and credentials`);
}

/**
 * Reads a text file of a workspace for the assistant: `filePath` is relative to the workspace
 * `dir` and must stay inside it (symbolic links included). Keeps the first 50000 characters and
 * appends `\n\n[FILE TRUNCATED]` when there were more; refuses binary files (415). Reads at most
 * 4 bytes per kept character (plus one character), so a 1 GB log costs what a 200 KB one does. Invalid UTF-8
 * becomes U+FFFD rather than failing.
 */
export async function readWorkspaceFile(dir: string, filePath: string, options: ReadFileOptions = {}): Promise<string> {
  const maxChars = options.maxChars ?? MAX_FILE_CHARS;
  const segments = relativePathSegments(filePath);
  // Left out of trees anyway, and `.git/config` may hold a token in a remote URL.
  if (segments.includes('.git')) throw badRequest(GIT_REFUSED);
  let rootReal: string;
  try {
    rootReal = await fs.realpath(dir);
  } catch {
    throw notFound('Workspace not found on this host');
  }
  const real = await resolveInside(rootReal, segments);
  refuseGuarded(rootReal, real);
  const stat = await fs.stat(real).catch(() => {
    throw notFound(`File not found: ${segments.join('/')}`);
  });
  if (stat.isDirectory()) throw badRequest(`${segments.join('/')} is a directory, not a file`);
  // A FIFO or device would block or never end; only regular files are content.
  if (!stat.isFile()) throw unsupportedMedia(`${segments.join('/')} is not a regular file`);

  // O_NOFOLLOW and the identity check close the window between realpath and open in which the
  // last component could be swapped for a link; O_NONBLOCK keeps a swapped-in FIFO from hanging.
  const handle = await fs.open(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch((err: unknown) => {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw pathTraversal('the file was replaced by a symbolic link');
    if (code === 'ENOENT') throw notFound(`File not found: ${segments.join('/')}`);
    if (code === 'EACCES' || code === 'EPERM') throw notFound(`File not readable: ${segments.join('/')}`);
    throw err;
  });
  try {
    const opened = await handle.stat();
    if (!opened.isFile() || opened.ino !== stat.ino || opened.dev !== stat.dev) {
      throw pathTraversal('the file changed while it was opened');
    }
    const where = await descriptorPath(handle.fd);
    if (where !== null && !isInsideBytes(rootReal, where)) throw pathTraversal('the path leads outside the workspace');
    if (where !== null) refuseGuarded(rootReal, where);

    const want = Math.min(opened.size, (maxChars + 1) * BYTES_PER_CHAR);
    const buffer = Buffer.allocUnsafe(want);
    let filled = 0;
    while (filled < want) {
      const { bytesRead } = await handle.read(buffer, filled, want - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    const bytes = buffer.subarray(0, filled);
    if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) {
      throw unsupportedMedia(`${segments.join('/')} is a binary file`);
    }
    const more = filled < opened.size;
    // With more to come, an incomplete character at the end of the buffer is held back, not
    // replaced by U+FFFD. A file that is not UTF-8 (a Latin-1 source, a pom.xml declaring
    // ISO-8859-1) is read as Windows-1252 or its declared encoding, never as U+FFFD (ux3, session 42).
    const text = decodeText(bytes, more);
    const cut = cutIndex(text, maxChars);
    if (cut >= 0) return text.slice(0, cut) + TRUNCATION_MARK;
    return more ? text + TRUNCATION_MARK : text;
  } finally {
    await handle.close();
  }
}
