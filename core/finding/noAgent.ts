/**
 * Jenkins waiting for an agent that never came: the build's label names no agent that is online
 * (`There are no nodes with the label ‘x’`, `All nodes of label ‘x’ are offline`, `Jenkins doesn’t
 * have label ‘x’`, `Could not find any nodes with 'x' label`). The finding is `agent-lost` (the
 * taxonomy's class for an agent problem), and its words differ from an agent that went away during
 * the build: this one never started the build's work (docs/notes/analyzer.md, "No agent for the label").
 */
import type { Finding } from '../../protocol/types.js';

export const NO_AGENT_FOR_LABEL =
  /(?:There are no nodes with the label [‘'"]([^’'"]+)[’'"]|All nodes of label [‘'"]([^’'"]+)[’'"] are offline|Jenkins doesn[’']t have label [‘'"]([^’'"]+)[’'"]|Could not find any nodes with '([^']+)' label)/;

/** The label no agent was online for, when the finding is Jenkins waiting for one. */
export function noAgentLabel(f: Pick<Finding, 'class' | 'message'>): string | undefined {
  if (f.class !== 'agent-lost') return undefined;
  const m = NO_AGENT_FOR_LABEL.exec(f.message);
  return m ? ((m[1] ?? m[2] ?? m[3] ?? m[4]) as string) : undefined;
}
