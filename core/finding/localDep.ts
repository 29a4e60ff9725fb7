/**
 * A package manager's install that could not read another package's manifest (issue 25; docs/notes/analyzer.md,
 * "Before round 11 (helper t12)"): npm's `npm error enoent Could not read package.json: Error: ENOENT: no such file
 * or directory, open '/ws/packages/money/package.json'` under `npm install`. npm >= 7 installs in a directory with no
 * package.json of its own (it writes one), so under an install the manifest it could not read is a local dependency's
 * (`file:../money`, a workspace member) that is missing or moved: a dependency that did not resolve. Under another
 * npm command (`npm run`, `npm test`) it is the project's own manifest, and the finding is left as it was.
 */
import type { Finding } from '../../protocol/types.js';

type BodyAt = (i: number) => string;

const ENOENT_MANIFEST = /^npm (?:ERR!|error) enoent Could not read package\.json: Error: ENOENT: no such file or directory, open '([^']+)\/package\.json'/;
const INSTALL = /^(?:\+ |\$ )(?:\S+\s+)*?npm (?:install|i|ci|add)\b/;
/** How far above the message the install's command is looked for. */
const REACH = 40;

/** The finding as a dependency error when an unknown one is npm's install not finding a local dependency's manifest. */
export function withLocalDependency(found: Finding, bodyAt: BodyAt): Finding {
  if (found.class !== 'unknown') return found;
  const at = found.message_line - 1;
  const m = ENOENT_MANIFEST.exec(bodyAt(at).trim());
  if (!m) return found;
  for (let k = at - 1; k >= Math.max(0, at - REACH); k--) {
    const text = bodyAt(k).trim();
    if (!/^(?:\+ |\$ )/.test(text)) continue;
    if (!INSTALL.test(text)) return found;
    return { ...found, class: 'dependency-resolution', confidence: 'medium', tool: 'npm', dependency: (m[1] as string).split('/').pop() as string };
  }
  return found;
}
