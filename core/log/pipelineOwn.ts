/**
 * A Jenkins pipeline's own words (issue 26, round 4 tuning): a status line its `echo` step prints
 * (`❌ Deployment failed!` in a post section) is the Jenkinsfile's text, not a tool's error (a cause
 * it prints from a catch, a fatal shape or one of weight 9 or more, stays); an error in a post
 * condition when the build had failed before its post section (`Error when executing always post
 * condition:`) is the failure's aftermath.
 */
import type { LineInfo } from './blocks.js';
import { startsWith } from './str.js';

export interface PipelineOwn {
  inEcho: boolean;
  sawFailure: boolean;
  failedBeforePost: boolean;
}

export const newPipelineOwn = (): PipelineOwn => ({ inEcho: false, sawFailure: false, failedBeforePost: false });

/** Marks the line (an echo's status line becomes text); true when it opens a post condition's error after a failure. */
export function markPipelineOwn(line: LineInfo, own: PipelineOwn): boolean {
  const body = line.body;
  if (startsWith(body, '[Pipeline] ')) {
    own.inEcho = body === '[Pipeline] echo';
    if (body === '[Pipeline] { (Declarative: Post Actions)') own.failedBeforePost = own.sawFailure;
  } else if (own.inEcho && line.role === 'anchor' && line.shape?.fatal !== true && (line.shape?.weight ?? 0) < 9) {
    line.role = 'text';
    line.shape = undefined;
  }
  if (line.role === 'anchor' || line.role === 'exit-fail') own.sawFailure = true;
  return own.failedBeforePost && body.startsWith('Error when executing ') && /^Error when executing \w+ post condition:/.test(body);
}
