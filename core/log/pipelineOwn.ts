/**
 * A Jenkins pipeline's own words (issue 26, round 4 tuning): a status line its `echo` step prints
 * (`❌ Deployment failed!` in a post section) is the Jenkinsfile's text, not a tool's error (a cause
 * it prints from a catch, a fatal shape or one of weight 9 or more, stays); an error in a post
 * condition when the build had failed before its post section (`Error when executing always post
 * condition:`) is the failure's aftermath.
 */
import type { LineInfo } from './blocks.js';
import { startsWith } from './str.js';

const STAGE_SKIPPED = /^Stage ".+" skipped due to earlier failure/;
const POST_CONDITION_ERROR = /^Error when executing \w+ post condition:/;

export interface PipelineOwn {
  inEcho: boolean;
  sawFailure: boolean;
  failedBeforePost: boolean;
  /** The line (0-based) where `Declarative: Post Actions` opened after a failure, else -1. */
  postAfterFailure: number;
  /** A post condition failed (`Error when executing always post condition:`): a post step failed too. */
  postConditionFailed: boolean;
}

export const newPipelineOwn = (): PipelineOwn => ({ inEcho: false, sawFailure: false, failedBeforePost: false, postAfterFailure: -1, postConditionFailed: false });

/**
 * Marks line `at` (an echo's status line becomes text; where the post section opened after a failure);
 * true when it opens a post condition's error after a failure.
 */
export function markPipelineOwn(line: LineInfo, own: PipelineOwn, at = -1): boolean {
  const body = line.body;
  if (startsWith(body, '[Pipeline] ')) {
    own.inEcho = body === '[Pipeline] echo';
    if (body === '[Pipeline] { (Declarative: Post Actions)') {
      own.failedBeforePost = own.sawFailure;
      if (own.sawFailure && own.postAfterFailure < 0) own.postAfterFailure = at;
    }
  } else if (own.inEcho && line.role === 'anchor' && line.shape?.fatal !== true && (line.shape?.weight ?? 0) < 9) {
    line.role = 'text';
    line.shape = undefined;
  }
  // Declarative Pipeline skips the stages after a failed one and says so: the build had failed.
  if (line.role === 'anchor' || line.role === 'exit-fail' || (line.role === 'summary' && startsWith(body, 'Stage "') && STAGE_SKIPPED.test(body))) own.sawFailure = true;
  const postError = body.startsWith('Error when executing ') && POST_CONDITION_ERROR.test(body);
  if (postError) own.postConditionFailed = true;
  return own.failedBeforePost && postError;
}
