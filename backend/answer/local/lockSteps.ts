/**
 * "How do I fix it?" for a manifest and its lock file that disagree (session 50, helper fx12; the clue comes from
 * jenkins/workspace/lockDrift.ts): the manifest line asking for what the lock does not record, and the command that
 * records it. When the install failed on the registry, the lock is why it had to ask; the registry is still what the
 * download needs, which is said too.
 */
import type { Finding } from '../../../protocol/types.js';
import { inlineCode } from '../logtext.js';
import { clip, type Clue } from './clueLine.js';

/** The command that writes a lock file from its manifest, by the lock's name. */
function lockCommand(lock: string, names: readonly string[]): string {
  const file = lock.slice(lock.lastIndexOf('/') + 1);
  if (file === 'Gemfile.lock') return 'bundle lock';
  if (file === 'yarn.lock') return 'yarn install';
  if (file === 'package-lock.json') return 'npm install';
  if (file === 'composer.lock') return `composer update ${names.join(' ')}`;
  return `cargo update ${names.map((n) => `-p ${n}`).join(' ')}`;
}

/** The step for a lockDrift.ts clue, or undefined when the clue is not one. */
export function lockStep(c: Clue, f: Finding): string | undefined {
  const at = inlineCode(`${c.snippet.path}:${c.line}`);
  const code = c.code ? ` (${inlineCode(clip(c.code))})` : '';
  const registry = f.class === 'network';
  const list = (names: readonly string[]): string => names.map((n) => inlineCode(n)).join(', ');
  let m: RegExpExecArray | null;
  if ((m = /^asks for (\S+), which (\S+) does not record$/.exec(c.what))) {
    const names = (m[1] as string).split(',');
    const lock = m[2] as string;
    const cmd = inlineCode(lockCommand(lock, names));
    return registry
      ? `${at} asks for ${list(names)}${code}, which ${inlineCode(lock)} does not record, so the install had to resolve ${names.length === 1 ? 'it' : 'them'} from the registry it could not reach: run ${cmd} where the registry answers and commit ${inlineCode(lock)} with the manifest. The download still needs that registry, or a mirror or cache that has ${names.length === 1 ? 'it' : 'them'}, reachable from the agent.`
      : `${at} asks for ${list(names)}${code}, which ${inlineCode(lock)} does not record, and this install may not change the lock: run ${cmd} and commit the updated ${inlineCode(lock)} with the manifest.`;
  }
  if ((m = /^asks for (\S+), and the workspace has no (\S+)$/.exec(c.what))) {
    const names = (m[1] as string).split(',');
    const lock = m[2] as string;
    return `${at} asks for ${list(names)}${code}, and the workspace has no ${inlineCode(lock)}, so the install resolves every package from the registry${registry ? ', which it could not reach' : ''}: run ${inlineCode(lockCommand(lock, []).trim())} where the registry answers and commit ${inlineCode(lock)}${registry ? '; the download still needs that registry, or a mirror or cache that has the packages, reachable from the agent' : ''}.`;
  }
  if ((m = /^sets version (\S+) of (\S+), and Cargo\.lock records \2 (\S+)$/.exec(c.what))) {
    return `${at} sets version ${inlineCode(m[1] as string)} of ${inlineCode(m[2] as string)}${code}, and \`Cargo.lock\` still records ${inlineCode(`${m[2] as string} ${m[3] as string}`)}: run ${inlineCode(`cargo update -p ${m[2] as string}`)} and commit \`Cargo.lock\` with the manifest.`;
  }
  return undefined;
}
