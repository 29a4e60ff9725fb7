/** Workspace browsing: discovery, trees, files and their HTTP routes (CONTRACT.md section 3). */
export { registerWorkspaceRoutes } from './routes.js';
export type { WorkspaceRouteDeps } from './routes.js';
export { listWorkspaces, findWorkspace, refusedWorkspaces, expandWorkspaceDir, DEFAULT_WORKSPACE_ID, BUILT_IN_NODE } from '../../jenkins/workspace/discover.js';
export type { WorkspaceQuery, RefusedWorkspace } from '../../jenkins/workspace/discover.js';
export { Confiner, parseWorkspaceRoots } from '../../jenkins/workspace/confine.js';
export type { WorkspaceConfinement } from '../../jenkins/workspace/confine.js';
export { workspaceTree, DEFAULT_TREE_DEPTH, MAX_TREE_DEPTH, DEFAULT_MAX_NODES, EXCLUDED_NAMES } from '../../jenkins/workspace/tree.js';
export type { TreeOptions } from '../../jenkins/workspace/tree.js';
export { readWorkspaceFile, MAX_FILE_CHARS, TRUNCATION_MARK } from '../../jenkins/workspace/file.js';
export { relativePathSegments, resolveInside } from '../../jenkins/workspace/pathguard.js';
export { WorkspaceError } from '../../jenkins/workspace/errors.js';
export { recordedWorkspaces, readBuildRecord } from '../../jenkins/workspace/flownodes.js';
export type { RecordedWorkspace, BuildRecord } from '../../jenkins/workspace/flownodes.js';
export type { Workspace, WorkspaceFileAnswer, WorkspaceTreeEntry, WorkspaceTreeNode } from '../../jenkins/workspace/types.js';
