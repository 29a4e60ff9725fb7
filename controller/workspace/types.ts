/** One entry of a workspace tree (CONTRACT.md section 3). */
export interface WorkspaceTreeNode {
  name: string;
  type: 'directory' | 'file';
  /** Bytes, for files (symbolic links: the length of the link itself). */
  size?: number;
  /** For directories. */
  children?: WorkspaceTreeNode[];
  /** Set on a directory whose children were cut: by the node cap, or by the depth limit. */
  truncated?: true;
}

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

/** One element of the `GET /workspaceTree` answer. */
export interface WorkspaceTreeEntry {
  workspaceId: string;
  node: string;
  path?: string;
  tree: WorkspaceTreeNode;
}
