import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, STREAM_LEASE_MS, loadBackendConfig } from './config.js';

let dataDir: string;
beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-config-'));
});
afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const problemsOf = (env: NodeJS.ProcessEnv): string[] => {
  try {
    loadBackendConfig({ DATA_DIR: dataDir, ...env });
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
};

describe('loadBackendConfig', () => {
  test('defaults: SQLite in DATA_DIR, the offline engine, 15 s stream lease, one upload at a time', () => {
    const c = loadBackendConfig({ DATA_DIR: dataDir });
    expect(c.databaseUrl).toBe(`sqlite:${path.join(dataDir, 'cichat.sqlite')}`);
    expect(c.llmProvider).toBe('local');
    expect(STREAM_LEASE_MS).toBe(15_000);
    expect(c.streamLeaseMs).toBe(15_000);
    expect(c.contextUploadsMax).toBe(1);
    expect(fs.existsSync(path.join(dataDir, 'jwt-secret'))).toBe(true);
  });

  test('STREAM_LEASE_MS is read and bounded (2 s to 10 min)', () => {
    expect(loadBackendConfig({ DATA_DIR: dataDir, STREAM_LEASE_MS: '4000' }).streamLeaseMs).toBe(4000);
    expect(problemsOf({ STREAM_LEASE_MS: '500' })).toEqual(['STREAM_LEASE_MS: must be an integer between 2000 and 600000 (got "500")']);
    expect(problemsOf({ STREAM_LEASE_MS: '15s' })).toEqual(['STREAM_LEASE_MS: must be an integer between 2000 and 600000 (got "15s")']);
  });

  test('every bad variable is listed at once; secrets are never echoed', () => {
    const problems = problemsOf({ STREAM_LEASE_MS: '1', JWT_SECRET: 'short', BACKEND_PORT: 'http' });
    expect(problems).toHaveLength(3);
    expect(problems.find((p) => p.startsWith('JWT_SECRET:'))).not.toContain('short');
    expect(problems.find((p) => p.startsWith('BACKEND_PORT:'))).toContain('(got "http")');
  });
});
