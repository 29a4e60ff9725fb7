/**
 * "How do I fix it?" for the settings a step ran with (session 51, helper fx13; the clues come from
 * jenkins/workspace/settingReads.ts): the environment variable the failing file or its script reads, with the step's
 * traced assignment of it or of a variable named like it; a variable the script sets for its own commands; for a full
 * disk, the line that sets the directory written to (a literal, or a variable the step's trace shows holding it) and
 * the files that read that variable. Each sentence cites the workspace line and the log lines it rests on; what to
 * change is said as a condition where the log does not settle it.
 */
import type { Finding } from '../../../protocol/types.js';
import { inlineCode } from '../logtext.js';
import { clip, type Clue } from './clueLine.js';

const at = (n: string | number): string => `[L${n}-L${n}]`;

/** How a full disk's place was named: the write's own path, a full filesystem, a directory the step measured. */
function placeWords(path: string, line: string, how: string): string {
  if (how === 'write') return `which holds ${inlineCode(path)}, the path of the write that failed ${at(line)}`;
  if (how === 'full') return `under ${inlineCode(path)}, which the step's \`df\` shows full ${at(line)}`;
  return `on the filesystem of ${inlineCode(path)}, which the step's \`df\` measures ${at(line)}`;
}

/** What the variable a failing file reads is, by the failure's class. */
function readWhy(f: Finding): string {
  switch (f.class) {
    case 'permission-credentials':
      return 'the credential the step sends may come from there';
    case 'network':
      return 'the address the step connects to may come from there';
    case 'disk-full':
      return 'the directory written to may come from there';
    default:
      return 'what the step ran with may come from there';
  }
}

/** The step for a settingReads.ts clue, or undefined when the clue is not one. */
export function settingStep(c: Clue, f: Finding): string | undefined {
  const where = inlineCode(`${c.snippet.path}:${c.line}`);
  const code = c.code ? ` (${inlineCode(clip(c.code))})` : '';
  let m: RegExpExecArray | null;
  if ((m = /^reads the environment variable (\w+)(?:, which the step's trace sets at log line (\d+)|, and the step's trace sets (\w+) at log line (\d+), not \w+)?$/.exec(c.what))) {
    const name = inlineCode(m[1] as string);
    if (m[2]) return `${where} reads ${name} from the environment${code}, and the step sets it ${at(m[2])}: ${readWhy(f)}, so check the value it gets there.`;
    if (m[3]) {
      const other = inlineCode(m[3]);
      return `${where} reads ${name} from the environment${code}, and the step sets ${other} ${at(m[4] as string)}, not ${name}: if ${other} holds the value meant, set ${name} where the job sets its variables (or read ${other} there).`;
    }
    return `${where} reads ${name} from the environment${code}: ${readWhy(f)}. The log does not show the step setting it: check that the job sets ${name}, and to what.`;
  }
  if ((m = /^sets (\w+) for its own commands, which line (\d+) uses$/.exec(c.what))) {
    return `${where} sets ${inlineCode(m[1] as string)}${code}, which line ${m[2] as string} of ${inlineCode(c.snippet.path)} uses: the value the step ran with is set there, in the project, not in the job; check it there.`;
  }
  if ((m = /^sets (\S+) to (\S+), the directory of (\S+), which log line (\d+) names \((\w+)\)(, in a file the log does not show the step running)?$/.exec(c.what))) {
    const name = inlineCode(m[1] as string);
    // A project file the step's trace does not show it running may be one the build never reads.
    if (m[6]) return `${where}, a project file (the log does not show the step running it), sets ${name} to ${inlineCode(m[2] as string)}${code}, ${placeWords(m[3] as string, m[4] as string, m[5] as string)}: if the build takes ${name} from there and that filesystem is too small for what it writes there, point ${name} at a directory on one with room, or give it more space.`;
    return `${where} sets ${name} to ${inlineCode(m[2] as string)}${code}, ${placeWords(m[3] as string, m[4] as string, m[5] as string)}: if that filesystem is too small for what the build writes there, point ${name} at a directory on one with room, or give it more space.`;
  }
  if ((m = /^runs with (\S+) as (\S+), traced at log line (\d+), the directory of (\S+), which log line (\d+) names \((\w+)\)$/.exec(c.what))) {
    const name = inlineCode(m[1] as string);
    // The traced command is the `df` that measured it: said once.
    const place = m[6] === 'measured' && m[5] === m[3] ? "the directory the step's `df` measures" : placeWords(m[4] as string, m[5] as string, m[6] as string);
    return `${where}${code} uses ${name}, which the step's trace shows as ${inlineCode(m[2] as string)} ${at(m[3] as string)}, ${place}: if that filesystem is too small for what the step writes there, set ${name} to a directory on one with room (where the job sets it), or give it more space.`;
  }
  if ((m = /^reads (\w+), the variable that holds that directory$/.exec(c.what))) {
    return `${where} reads ${inlineCode(m[1] as string)} too${code}: what it writes there follows the same variable.`;
  }
  return undefined;
}
