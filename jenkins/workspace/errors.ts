/**
 * The failures of workspace browsing, each with the HTTP status the contract gives it
 * (CONTRACT.md section 3, "Workspaces"). Routes render them as `{status: "error", message}`.
 */
export class WorkspaceError extends Error {
  override name = 'WorkspaceError';
  constructor(
    readonly status: 400 | 404 | 415,
    message: string,
  ) {
    super(message);
  }
}

/** 400: a missing or malformed parameter. */
export function badRequest(message: string): WorkspaceError {
  return new WorkspaceError(400, message);
}

/** 400 whose message carries `Path traversal`, the phrase clients and tests look for. */
export function pathTraversal(what: string): WorkspaceError {
  return new WorkspaceError(400, `Path traversal refused: ${what}`);
}

/** 404: job, build, workspace or file not found. */
export function notFound(message: string): WorkspaceError {
  return new WorkspaceError(404, message);
}

/** 415: a binary file. */
export function unsupportedMedia(message: string): WorkspaceError {
  return new WorkspaceError(415, message);
}
