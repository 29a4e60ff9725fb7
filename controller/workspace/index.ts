/** Workspace browsing: discovery, trees, files and their HTTP routes (CONTRACT.md section 3). */
export { registerWorkspaceRoutes } from './routes.js';
export type { WorkspaceRouteDeps } from './routes.js';
export { listWorkspaces, findWorkspace, expandWorkspaceDir, DEFAULT_WORKSPACE_ID, BUILT_IN_NODE } from './discover.js';
export type { WorkspaceQuery } from './discover.js';
export { workspaceTree, DEFAULT_TREE_DEPTH, MAX_TREE_DEPTH, DEFAULT_MAX_NODES, EXCLUDED_NAMES } from './tree.js';
export type { TreeOptions } from './tree.js';
export { readWorkspaceFile, MAX_FILE_CHARS, TRUNCATION_MARK } from './file.js';
export { relativePathSegments, resolveInside } from './pathguard.js';
export { WorkspaceError } from './errors.js';
export { recordedWorkspaces, readBuildRecord } from './flownodes.js';
export type { RecordedWorkspace, BuildRecord } from './flownodes.js';
export type { Workspace, WorkspaceFileAnswer, WorkspaceTreeEntry, WorkspaceTreeNode } from './types.js';
