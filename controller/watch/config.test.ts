import os from 'node:os';
import { loadControllerConfig } from '../config.js';

const base = { JENKINS_HOME: os.tmpdir(), JWT_SECRET: 'a-test-secret-of-at-least-32-bytes-0123456789' };

describe('watcher variables', () => {
  it('is off unless CICHAT_WATCH says on; defaults when on', () => {
    const off = loadControllerConfig(base);
    expect(off.ok && off.config.watch).toBe(undefined);
    const on = loadControllerConfig({ ...base, CICHAT_WATCH: 'on' });
    expect(on.ok && on.config.watch).toEqual({ jobs: [], concurrency: 2, rescanSeconds: 60 });
    const full = loadControllerConfig({
      ...base,
      CICHAT_WATCH: 'ON',
      CICHAT_WATCH_JOBS: 'team/*, {api,web}-deploy',
      CICHAT_WATCH_USERS: 'alice, bob,alice',
      CICHAT_WATCH_CONCURRENCY: '4',
      CICHAT_WATCH_RESCAN_SECONDS: '300',
      CICHAT_WEBHOOK_URL: 'https://hooks.slack.com/services/T/B/X',
    });
    expect(full.ok && full.config.watch).toEqual({
      jobs: ['team/*', '{api,web}-deploy'],
      users: ['alice', 'bob'],
      concurrency: 4,
      rescanSeconds: 300,
      webhookUrl: 'https://hooks.slack.com/services/T/B/X',
    });
  });

  it('CONTROLLER_PUBLIC_URL: an origin (trailing slash dropped) given to the watcher; anything else named', () => {
    const set = loadControllerConfig({ ...base, CICHAT_WATCH: 'on', CONTROLLER_PUBLIC_URL: 'https://CI.example.com:8443/' });
    expect(set.ok && set.config.publicUrl).toBe('https://ci.example.com:8443');
    expect(set.ok && set.config.watch?.publicUrl).toBe('https://ci.example.com:8443');
    for (const bad of ['ci.example.com', 'ftp://ci.example.com', 'https://ci.example.com/cichat', 'https://u:p@ci.example.com', 'https://ci.example.com/?a=1']) {
      const result = loadControllerConfig({ ...base, CONTROLLER_PUBLIC_URL: bad });
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.problems).toEqual([expect.stringMatching(/^CONTROLLER_PUBLIC_URL: must be the address browsers reach the controller at/)]);
    }
  });

  it('reports every bad value at once, one line naming each variable', () => {
    const result = loadControllerConfig({
      ...base,
      CICHAT_WATCH: 'maybe',
      CICHAT_WATCH_JOBS: '/abs,a/../b',
      CICHAT_WATCH_USERS: 'a b',
      CICHAT_WATCH_CONCURRENCY: '0',
      CICHAT_WATCH_RESCAN_SECONDS: 'soon',
      CICHAT_WEBHOOK_URL: 'ftp://example.com/hook',
    });
    expect(result.ok).toBe(false);
    const problems = result.ok ? [] : result.problems;
    for (const name of ['CICHAT_WATCH:', 'CICHAT_WATCH_USERS:', 'CICHAT_WATCH_CONCURRENCY:', 'CICHAT_WATCH_RESCAN_SECONDS:', 'CICHAT_WEBHOOK_URL:']) {
      expect(problems.filter((p) => p.startsWith(name))).toHaveLength(1);
    }
    expect(problems.filter((p) => p.startsWith('CICHAT_WATCH_JOBS:'))).toHaveLength(2);
  });
});
