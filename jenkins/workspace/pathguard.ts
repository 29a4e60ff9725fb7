import { promises as fs } from 'node:fs';
import path from 'node:path';
import { badRequest, notFound, pathTraversal } from './errors.js';
import { hasEscapes, nameBytes } from './names.js';

const PERCENT_ESCAPE = /%[0-9A-Fa-f]{2}/;
/** Enough layers for any double or triple encoding a proxy chain could produce. */
const MAX_DECODE_LAYERS = 4;

/**
 * Every form the path takes when decoded again and again (`%252e` -> `%2e` -> `.`): a server,
 * proxy or a later consumer may decode once more than we did, so each layer must be harmless.
 * Malformed or overlong encodings (`%c0%ae`) are refused: they exist only to smuggle dots.
 */
function decodedLayers(raw: string, what: string): string[] {
  const layers = [raw];
  let current = raw;
  for (let i = 0; i < MAX_DECODE_LAYERS && PERCENT_ESCAPE.test(current); i++) {
    try {
      current = decodeURIComponent(current);
    } catch {
      throw pathTraversal(`${what} holds a malformed percent-encoding`);
    }
    layers.push(current);
  }
  return layers;
}

function checkLayer(layer: string, what: string): void {
  if (layer.includes('\0')) throw pathTraversal(`${what} holds a NUL byte`);
  if (layer.includes('\\')) throw pathTraversal(`${what} holds a backslash`);
  if (layer.startsWith('/')) throw pathTraversal(`${what} is absolute`);
  if (/^[A-Za-z]:/.test(layer)) throw pathTraversal(`${what} starts with a drive letter`);
  if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(layer)) throw pathTraversal(`${what} is a URL`);
  if (layer.split('/').includes('..')) throw pathTraversal(`${what} holds a ".." segment`);
  // IIS-style `%u002e`: meaningless to us, common in traversal payloads; refused like malformed
  // percent-encodings rather than looked up as a literal name.
  if (/%u[0-9A-Fa-f]{4}/.test(layer)) throw pathTraversal(`${what} holds a malformed %u escape`);
}

/**
 * Checks a workspace-relative path as it arrived (already URL-decoded once by the server) and
 * returns its segments. Refuses absolute paths, `..` segments in any decoding layer, backslashes,
 * drive letters, URLs and NUL bytes with a `Path traversal` error. Only the syntax is checked here;
 * `resolveInside` then checks where the path really leads.
 */
export function relativePathSegments(filePath: string, what = 'filePath'): string[] {
  if (filePath === '') throw badRequest(`${what} is required`);
  for (const layer of decodedLayers(filePath, what)) checkLayer(layer, what);
  const segments = filePath.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.length === 0) throw badRequest(`${what} names the workspace itself, not a file`);
  return segments;
}

/**
 * Directories of a user's home that hold keys and credentials. A file or workspace whose real
 * path passes through one is never served, wherever it is (a workspace that is, or links into,
 * a home: `ws -> /home/jenkins`).
 */
export const PRIVATE_HOME_DIRS: ReadonlySet<string> = new Set(['.ssh', '.gnupg', '.aws', '.docker', '.kube']);

/** The first segment of the real path `real` that is one of PRIVATE_HOME_DIRS, if any. */
export function privateHomeDirIn(real: string | Buffer): string | undefined {
  const text = typeof real === 'string' ? real : real.toString('latin1');
  return text.split(path.sep).find((s) => PRIVATE_HOME_DIRS.has(s));
}

/** True when `candidate` is `root` or below it (both already real paths). */
export function isInside(root: string, candidate: string): boolean {
  if (candidate === root) return true;
  const prefix = root.endsWith(path.sep) ? root : root + path.sep;
  return candidate.startsWith(prefix);
}

/**
 * Resolves `segments` under the workspace whose real path is `rootReal`, following symbolic links
 * the way opening the file would, and refuses (`Path traversal`) a result outside the workspace.
 * A path that does not exist is a 404.
 */
export async function resolveInside(rootReal: string, segments: readonly string[]): Promise<string | Buffer> {
  const joined = path.join(rootReal, ...segments);
  let real: string;
  try {
    real = await fs.realpath(joined);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // A name listed in its escaped form (not valid UTF-8 on disk, see names.ts): its bytes.
    if ((code === 'ENOENT' || code === 'ENOTDIR') && segments.some(hasEscapes)) return resolveBytesInside(rootReal, segments);
    if (code === 'ENOENT' || code === 'ENOTDIR') throw notFound(`File not found: ${segments.join('/')}`);
    if (code === 'ELOOP') throw pathTraversal('the path is a symbolic link loop');
    throw err;
  }
  if (!isInside(rootReal, real)) throw pathTraversal('the path leads outside the workspace');
  return real;
}

/** Whether the path `candidate` (bytes or text) is `root` or below it, compared byte for byte. */
export function isInsideBytes(root: string, candidate: string | Buffer): boolean {
  // latin1 maps each byte to one character, so a prefix test on it is a prefix test on bytes.
  const asBytes = (p: string | Buffer): string => (typeof p === 'string' ? Buffer.from(p) : p).toString('latin1');
  return isInside(asBytes(root), asBytes(candidate));
}

async function resolveBytesInside(rootReal: string, segments: readonly string[]): Promise<Buffer> {
  const parts: Buffer[] = [Buffer.from(rootReal)];
  for (const segment of segments) {
    const bytes = nameBytes(segment);
    // The escapes stand for bytes >= 0x80 only, but check what reaches the file system anyway.
    if (bytes.includes(0) || bytes.includes(0x2f)) throw pathTraversal('filePath holds a byte that is not allowed in a name');
    parts.push(Buffer.from(path.sep), bytes);
  }
  let real: Buffer;
  try {
    real = await fs.realpath(Buffer.concat(parts), { encoding: 'buffer' });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw notFound(`File not found: ${segments.join('/')}`);
    if (code === 'ELOOP') throw pathTraversal('the path is a symbolic link loop');
    throw err;
  }
  if (!isInsideBytes(rootReal, real)) throw pathTraversal('the path leads outside the workspace');
  return real;
}
