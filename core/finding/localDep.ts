/**
 * A package manager's install that could not read another package's manifest (issue 25; docs/notes/analyzer.md,
 * "Before round 11 (helper t12)"): npm's `npm error enoent Could not read package.json: Error: ENOENT: no such file
 * or directory, open '/ws/packages/money/package.json'` under `npm install`. npm >= 7 installs in a directory with no
 * package.json of its own (it writes one), so under an install the manifest it could not read is a local dependency's
 * (`file:../money`, a workspace member) that is missing or moved: a dependency that did not resolve. Under another
 * npm command (`npm run`, `npm test`, `npm start`, `npm exec`) it is the project's own manifest: npm was run where the
 * project is not (a `cd` missing or wrong), the script's call (ci-script, medium: the log does not show the tree).
 */
import type { Finding } from '../../protocol/types.js';
import { messageText } from './body.js';

type BodyAt = (i: number) => string;

const ENOENT_MANIFEST = /^npm (?:ERR!|error) enoent Could not read package\.json: Error: ENOENT: no such file or directory, open '([^']+)\/package\.json'/;
const INSTALL = /^(?:\+ |\$ )(?:\S+\s+)*?npm (?:install|i|ci|add)\b/;
/** npm's commands that read the project's own package.json (`npm test`, `npm run build`, `npm start`, `npm exec`). */
const OWN_MANIFEST = /^(?:\+ |\$ )(?:\S+\s+)*?npm (?:test|t|run|run-script|start|stop|restart|exec|pack|publish|version)\b/;
/** How far above the message the install's command is looked for. */
const REACH = 40;

/**
 * The finding as a dependency error when an unknown one is npm's install not finding a local dependency's manifest,
 * and as the script's call when npm ran a project command (`npm test`, `npm run build`) where no package.json is. npm's
 * own ENOENT on the manifest also overrides a medium or low class the general evidence gave its `npm error code
 * ENOENT` line (`npm run build` read as a build's error); a rule's high class stands.
 */
export function withLocalDependency(found: Finding, bodyAt: BodyAt): Finding {
  if (found.class !== 'unknown' && found.confidence === 'high') return found;
  const at = [found.message_line, ...found.evidence].map((n) => n - 1).find((i) => ENOENT_MANIFEST.test(bodyAt(i).trim()));
  if (at === undefined || (found.class !== 'unknown' && at !== found.message_line - 1 && !/^npm (?:ERR!|error) /.test(found.message.trim()))) return found;
  const m = ENOENT_MANIFEST.exec(bodyAt(at).trim()) as RegExpExecArray;
  const message = at === found.message_line - 1 ? {} : { message: messageText(bodyAt(at)), message_line: at + 1, evidence: [at + 1, ...found.evidence.filter((n) => n !== at + 1)] };
  for (let k = at - 1; k >= Math.max(0, at - REACH); k--) {
    const text = bodyAt(k).trim();
    if (!/^(?:\+ |\$ )/.test(text)) continue;
    if (OWN_MANIFEST.test(text)) return { ...found, ...message, class: 'ci-script', confidence: 'medium', tool: 'npm' };
    if (!INSTALL.test(text) || found.class !== 'unknown') return found;
    return { ...found, class: 'dependency-resolution', confidence: 'medium', tool: 'npm', dependency: (m[1] as string).split('/').pop() as string };
  }
  return found;
}
