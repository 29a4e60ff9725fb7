import { realpath } from 'node:fs/promises';
import path from 'node:path';

/**
 * Whether `p`, with every symbolic link resolved, stays inside `base` (also resolved). A job
 * folder, builds folder, build folder or log that is a link leading out of JENKINS_HOME is not
 * followed (issue 12): whoever can write the home (a build on the built-in node, a restored
 * backup) could otherwise make the controller read any file of its host into a chat.
 * A path that does not exist is inside when `missingIsInside` (nothing to follow).
 */
export async function realInside(base: string, p: string, missingIsInside = false): Promise<boolean> {
  let baseReal: string;
  let real: string;
  try {
    baseReal = await realpath(base);
  } catch {
    baseReal = path.resolve(base);
  }
  try {
    real = await realpath(p);
  } catch {
    return missingIsInside;
  }
  if (real === baseReal) return true;
  return real.startsWith(baseReal.endsWith(path.sep) ? baseReal : baseReal + path.sep);
}

/** Why a folder is not read, for messages. */
export const LINK_OUT_OF_HOME = 'its folder is a symbolic link leading out of JENKINS_HOME, which is not followed';
