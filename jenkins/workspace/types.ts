// The wire shapes live in protocol/ (the CLI reads them too); re-exported for the controller.
export type { WorkspaceFileAnswer, WorkspaceTreeEntry, WorkspaceTreeNode } from '../../protocol/types.js';

/** A workspace of a build that exists on this host. */
export interface Workspace {
  /** `ws-default` for a classic job, the flow node id of the `node` step for a pipeline. */
  workspaceId: string;
  /** The agent's name; `built-in` for the controller's own node. */
  node: string;
  /** The path as Jenkins recorded it (before JENKINS_PATH_MAP), when it was recorded. */
  path?: string;
  /** Where the workspace is on this host. */
  dir: string;
}
