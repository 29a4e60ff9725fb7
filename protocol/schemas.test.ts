import { ciContextSchema, contextRequestSchema, normaliseCiContext, pluginList } from './schemas.js';

describe('normaliseCiContext', () => {
  it('reads the alias names as the canonical ones and drops the aliases', () => {
    const ci = normaliseCiContext({
      jenkinsVersion: '2.401.1',
      jobDetails: { fullName: 'a/b', type: 'pipeline', buildable: false, config: '<x/>' },
      buildDetails: { number: 3, durationMs: 1500, tests: { total: 4, failed: 1 }, builtOn: 'agent-1' },
    });
    expect(ci).toEqual({
      ciVersion: '2.401.1',
      jobDetails: { fullName: 'a/b', jobType: 'pipeline', isBuildable: false, configXml: '<x/>' },
      buildDetails: { number: 3, duration: 1500, testResults: { total: 4, failed: 1 }, builtOnNode: 'agent-1' },
    });
  });

  it('keeps the canonical value when both names are sent', () => {
    expect(normaliseCiContext({ ciVersion: '2.2', jenkinsVersion: '1.1' }).ciVersion).toBe('2.2');
    // The controller once sent a human `duration` text beside `durationMs`: the number wins.
    expect(normaliseCiContext({ buildDetails: { duration: '3 min', durationMs: 180000 } }).buildDetails?.duration).toBe(180000);
  });

  it('turns an activePlugins array into the map of enabled plugins, the entries into plugins', () => {
    const ci = normaliseCiContext({
      activePlugins: [
        { shortName: 'git', version: '5.2.1', enabled: true },
        { shortName: 'blueocean', version: '1.27', enabled: false },
        { shortName: 'junit', version: 1265 },
      ],
    });
    expect(ci.activePlugins).toEqual({ git: '5.2.1', junit: '1265' });
    expect(ci.plugins?.map((p) => [p.shortName, p.enabled])).toEqual([['git', true], ['blueocean', false], ['junit', undefined]]);
  });

  it('keeps a map of plugins and lists it with the fuller facts', () => {
    const ci = normaliseCiContext({ activePlugins: { git: '5.2.1', ant: 511 }, plugins: [{ shortName: 'git', version: '5.2.1', enabled: true, pinned: true }] });
    expect(ci.activePlugins).toEqual({ git: '5.2.1', ant: '511' });
    expect(pluginList(ci)?.map((p) => p.shortName)).toEqual(['git', 'ant']);
  });

  it('turns parameters into a map with secret-named values masked, and causes strings into objects', () => {
    const ci = normaliseCiContext({
      buildDetails: {
        parameters: [
          { name: 'BRANCH', value: 'main' },
          { name: 'API_TOKEN', value: 'abc' },
          { name: 'EMPTY_PASSWORD', value: '' },
        ],
        causes: ['Started by user alice', { shortDescription: 'Started by timer' }, 7],
        timestamp: 1763800000000,
      },
    });
    expect(ci.buildDetails?.parameters).toEqual({ BRANCH: 'main', API_TOKEN: '****', EMPTY_PASSWORD: '' });
    expect(ci.buildDetails?.causes).toEqual([{ shortDescription: 'Started by user alice' }, { shortDescription: 'Started by timer' }]);
    expect(ci.buildDetails?.timestamp).toBe('2025-11-22T08:26:40.000Z');
  });

  it('normalises previousBuild and lastSuccessfulBuild like the build, keeps null as "none"', () => {
    const ci = normaliseCiContext({ buildDetails: { previousBuild: { number: 4, durationMs: 10, builtOn: 'x' }, lastSuccessfulBuild: null } });
    expect(ci.buildDetails?.previousBuild).toEqual({ number: 4, duration: 10, builtOnNode: 'x' });
    // withoutNulls drops it: null is "unknown" on the wire.
    expect(ci.buildDetails).not.toHaveProperty('lastSuccessfulBuild');
  });

  it('reads project lists and the environment, keeps unknown fields, never throws', () => {
    const ci = normaliseCiContext({
      jobDetails: { upstreamProjects: ['a', { fullName: 'f/b' }, 3], downstreamProjects: 'x, y', inQueue: 'true', healthScore: '80' },
      ciEnvironment: { BUILD_NUMBER: 42, DRY: true, BAD: { x: 1 } },
      custom: { kept: 1 },
    });
    expect(ci.jobDetails).toEqual({ upstreamProjects: ['a', 'f/b'], downstreamProjects: ['x', 'y'], inQueue: true, healthScore: 80 });
    expect(ci.ciEnvironment).toEqual({ BUILD_NUMBER: '42', DRY: 'true' });
    expect(ci['custom']).toEqual({ kept: 1 });
    for (const odd of [null, 3, 'x', [], { activePlugins: 'git', masterNode: 4, buildDetails: [] }]) expect(() => normaliseCiContext(odd)).not.toThrow();
  });
});

describe('ciContextSchema', () => {
  it('accepts both shapes and null for any field', () => {
    expect(ciContextSchema.safeParse({ activePlugins: { git: '1' }, buildDetails: { parameters: { A: 1 }, causes: ['x'] } }).success).toBe(true);
    expect(ciContextSchema.safeParse({ activePlugins: [{ shortName: 'git', version: '1' }], buildDetails: { parameters: [{ name: 'A', value: 1 }] } }).success).toBe(true);
    expect(ciContextSchema.safeParse({ ciVersion: null, jobDetails: { healthScore: null }, buildDetails: null }).success).toBe(true);
  });

  it('refuses a wrong type', () => {
    for (const bad of [{ activePlugins: 'git' }, { buildDetails: { duration: '1' } }, { jobDetails: { inQueue: 'yes' } }, { ciEnvironment: [] }]) {
      expect(ciContextSchema.safeParse(bad).success).toBe(false);
    }
  });
});

describe('contextRequestSchema', () => {
  it('takes a build number as a number or digits, `{}` as valid', () => {
    expect(contextRequestSchema.safeParse({}).success).toBe(true);
    expect(contextRequestSchema.safeParse({ buildNumber: '7' }).success).toBe(true);
    expect(contextRequestSchema.safeParse({ buildNumber: 7 }).success).toBe(true);
    for (const bad of [0, -1, 1.5, 'abc', '0']) expect(contextRequestSchema.safeParse({ buildNumber: bad }).success).toBe(false);
  });
});

describe('workspaceSnippets: one check for the context request and the CiContext upload', () => {
  const snip = { path: 'src/A.java', workspaceId: 'ws', startLine: 3, endLine: 5, text: 'x' };
  const detail = (value: unknown): string | undefined => {
    const r = contextRequestSchema.safeParse(value);
    return r.success ? undefined : `${r.error.issues[0]?.path.join('.')}: ${r.error.issues[0]?.message}`;
  };
  test('limits and messages', () => {
    expect(detail({ workspaceSnippets: [snip] })).toBeUndefined();
    expect(detail({ workspaceSnippets: 'x' })).toBe('workspaceSnippets: must be an array of {path, workspaceId, startLine, endLine, text}');
    expect(detail({ workspaceSnippets: Array.from({ length: 21 }, () => snip) })).toBe('workspaceSnippets: must hold at most 20 snippets');
    expect(detail({ workspaceSnippets: [{ ...snip, startLine: 0 }] })).toBe('workspaceSnippets.0.startLine: must be a positive whole number');
    expect(detail({ workspaceSnippets: [{ ...snip, endLine: 2 }] })).toBe('workspaceSnippets.0.endLine: must not be before startLine');
    expect(detail({ workspaceSnippets: [{ ...snip, text: 'x'.repeat(20_001) }] })).toBe('workspaceSnippets.0.text: must be at most 20000 characters');
    expect(detail({ workspaceSnippets: [{ ...snip, path: 7 }] })).toBe('workspaceSnippets.0.path: must be a string');
    expect(ciContextSchema.safeParse({ workspaceSnippets: [{ ...snip, endLine: 1 }] }).success).toBe(false);
  });
});
