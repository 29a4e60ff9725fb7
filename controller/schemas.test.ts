import { parseContextRequest } from './routes/context.js';
import { WorkspaceFileQuerySchema, WorkspaceTreeQuerySchema, parseWorkspaceQuery } from './schemas.js';

function failure(fn: () => unknown): { status?: number; message: string } {
  try {
    fn();
  } catch (err) {
    return err as { status?: number; message: string };
  }
  throw new Error('expected a refusal');
}

describe('context request schema', () => {
  it('keeps the fields it knows, drops empty ones and ignores the rest', () => {
    expect(parseContextRequest({})).toEqual({});
    expect(
      parseContextRequest({ jobName: 'team/app', buildNumber: '7', currentScreen: '', consoleLog: '', extra: [1], ciEnvironment: {} }),
    ).toEqual({ jobName: 'team/app', buildNumber: 7, consoleLog: '' });
    expect(parseContextRequest({ jobName: null, buildNumber: null, ciEnvironment: { GIT_COMMIT: 'abc' } })).toEqual({
      ciEnvironment: { GIT_COMMIT: 'abc' },
    });
  });

  it.each([
    [[], 400, /must be a JSON object/],
    [{ jobName: 5 }, 422, /^jobName: must be a string$/],
    [{ buildNumber: 0 }, 422, /^buildNumber: must be a positive whole number or one of lastBuild, /],
    [{ buildNumber: '7a' }, 422, /^buildNumber: must be a positive whole number or one of lastBuild, /],
    [{ buildNumber: true }, 422, /^buildNumber: must be a positive whole number or one of lastBuild, /],
    [{ ciEnvironment: ['a'] }, 422, /^ciEnvironment: must be an object of strings$/],
    [{ ciEnvironment: { N: 1 } }, 422, /^ciEnvironment\.N: must be a string$/],
    [{ ciEnvironment: { N: 'x'.repeat(4001) } }, 422, /^ciEnvironment\.N: must be at most 4000 characters$/],
    [{ ciEnvironment: Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`V${i}`, 'x'])) }, 422, /^ciEnvironment: must hold at most 200 variables$/],
  ])('refuses %j with %i', (body, status, message) => {
    const err = failure(() => parseContextRequest(body));
    expect(err.status).toBe(status);
    expect(err.message).toMatch(message);
  });
});

describe('workspace query schemas', () => {
  it('types the parameters', () => {
    expect(parseWorkspaceQuery(WorkspaceTreeQuerySchema, { jobName: 'team/app', buildNumber: '42', depth: '3' })).toEqual({
      jobName: 'team/app',
      buildNumber: 42,
      depth: 3,
    });
    expect(parseWorkspaceQuery(WorkspaceTreeQuerySchema, { jobName: 'a', buildNumber: 'lastFailedBuild' })).toEqual({
      jobName: 'a',
      buildNumber: 'lastFailedBuild',
    });
  });

  it.each([
    [{ buildNumber: '1' }, /^jobName is required$/],
    [{ jobName: ['a', 'b'], buildNumber: '1' }, /^jobName must be given once$/],
    [{ jobName: '../x', buildNumber: '1' }, /Path traversal/],
    [{ jobName: 'a', buildNumber: '0' }, /^buildNumber must be a positive integer or one of /],
    [{ jobName: 'a', buildNumber: '../1' }, /Path traversal/],
    [{ jobName: 'a', buildNumber: '1', depth: '99' }, /^depth must be between 1 and \d+$/],
  ])('tree refuses %j', (query, message) => {
    const err = failure(() => parseWorkspaceQuery(WorkspaceTreeQuerySchema, query));
    expect(err.status).toBe(400);
    expect(err.message).toMatch(message);
  });

  it.each([
    [{ jobName: 'a', buildNumber: '1', workspaceId: 'ws-default' }, /^filePath is required$/],
    [{ jobName: 'a', buildNumber: '1', workspaceId: 'a b', filePath: 'x' }, /^workspaceId must be "ws-default"/],
    [{ jobName: 'a', buildNumber: '1', workspaceId: '..', filePath: 'x' }, /Path traversal/],
    [{ jobName: 'a', buildNumber: '1', workspaceId: 'ws-default', filePath: '/etc/passwd' }, /Path traversal/],
  ])('file refuses %j', (query, message) => {
    const err = failure(() => parseWorkspaceQuery(WorkspaceFileQuerySchema, query));
    expect(err.status).toBe(400);
    expect(err.message).toMatch(message);
  });
});
