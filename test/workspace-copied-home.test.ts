/**
 * Issue 27, point 7: a Jenkins home copied to another path (the shipped sample home was recorded
 * at /var/jenkins_home) loses its workspaces unless JENKINS_PATH_MAP maps the recorded paths; the
 * controller says so once in its log and on every `workspaceTree` answer (X-Cichat-Notice), with
 * the value filled in; the CLI prints it (`cichat ws tree`).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pino } from 'pino';
import { foreignHomeOf } from '../jenkins/pathmap.js';
import { loadControllerConfig } from '../controller/config.js';
import { startController, type RunningController } from '../controller/app.js';
import { CichatClient } from '../cli/client.js';
import { TextOutput } from '../cli/io.js';
import { run } from '../cli/program.js';

const SEEDS = path.resolve('seeds/jenkins-home');

describe('a copied Jenkins home (issue 27)', () => {
  let tmp: string;
  let home: string;
  const started: RunningController[] = [];
  const logged: string[] = [];

  async function controller(env: Record<string, string>): Promise<RunningController> {
    const loaded = loadControllerConfig({ CONTROLLER_PORT: '0', JWT_SECRET: 'copied-home-secret-0123456789-abcdefghijklmnop', DATA_DIR: path.join(tmp, 'data'), BACKEND_URL: 'http://127.0.0.1:9', JENKINS_HOME: home, ...env });
    if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
    const sink = { write: (line: string) => void logged.push(line) };
    const c = await startController(loaded.config, { logger: pino({ level: 'warn' }, sink) });
    started.push(c);
    return c;
  }

  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-copied-home-'));
    home = path.join(tmp, 'copy of jenkins');
    fs.cpSync(SEEDS, home, { recursive: true });
  });
  afterAll(async () => {
    for (const c of started) await c.close(0);
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('foreignHomeOf names the recorded home before /workspace/ or /jobs/, never this home', () => {
    expect(foreignHomeOf('/var/jenkins_home/workspace/team/api', '/srv/copy')).toBe('/var/jenkins_home');
    expect(foreignHomeOf('/old/home/jobs/x/workspace', '/srv/copy')).toBe('/old/home');
    expect(foreignHomeOf('/srv/copy/workspace/team/api', '/srv/copy/')).toBeUndefined();
    expect(foreignHomeOf('/opt/build/here', '/srv/copy')).toBeUndefined();
    expect(foreignHomeOf('C:\\jenkins\\workspace\\x', '/srv/copy')).toBeUndefined();
  });

  it('without JENKINS_PATH_MAP: the notice names the setting with the prefixes, logged once', async () => {
    const c = await controller({});
    const url = `${c.url}/chatbot-api/workspaceTree?jobName=team/api&buildNumber=42`;
    for (let i = 0; i < 3; i++) {
      const res = await fetch(url);
      expect(res.status).toBe(200);
      const notice = decodeURIComponent(res.headers.get('x-cichat-notice') ?? '');
      expect(notice).toBe(
        `the builds recorded their workspaces under /var/jenkins_home, which is not this JENKINS_HOME (a copied or moved home?): set JENKINS_PATH_MAP=/var/jenkins_home=${home} on the controller`,
      );
    }
    const advice = logged.filter((l) => l.includes('JENKINS_PATH_MAP='));
    expect(advice).toHaveLength(1);
    expect(advice[0]).toContain(`set JENKINS_PATH_MAP=/var/jenkins_home=${home}`);

    // the CLI says it (no workspace found: the error line is the notice)
    const out = { stdout: new TextOutput(), stderr: new TextOutput(), stdin: Object.assign(Readable.from([]), { isTTY: true }), env: {} };
    const code = await run(['node', 'cichat', '--url', c.url, 'ws', 'tree', 'team/api', '42'], out, (o) => new CichatClient(o));
    expect(code).toBe(1);
    expect(out.stderr.text).toBe(
      `cichat: Build team/api #42 has no workspace on disk: the builds recorded their workspaces under /var/jenkins_home, which is not this JENKINS_HOME (a copied or moved home?): set JENKINS_PATH_MAP=/var/jenkins_home=${home} on the controller\n`,
    );
  });

  it('with the mapping set: no notice, and the workspace is found', async () => {
    const c = await controller({ JENKINS_PATH_MAP: `/var/jenkins_home=${home}` });
    const res = await fetch(`${c.url}/chatbot-api/workspaceTree?jobName=team/api&buildNumber=42`);
    expect(res.headers.get('x-cichat-notice')).toBeNull();
    expect(((await res.json()) as unknown[]).length).toBeGreaterThan(0);
  });

  it('in tokens mode the notice does not reveal JENKINS_HOME (the log has the value)', async () => {
    const tokens = path.join(tmp, 'tokens');
    fs.writeFileSync(tokens, `alice:${createHash('sha256').update('alices-token').digest('hex')}\n`);
    const c = await controller({ CONTROLLER_AUTH: 'tokens', CONTROLLER_TOKENS_FILE: tokens });
    const res = await fetch(`${c.url}/chatbot-api/workspaceTree?jobName=team/api&buildNumber=42`, { headers: { authorization: 'Bearer alices-token' } });
    expect(res.status).toBe(200);
    const notice = decodeURIComponent(res.headers.get('x-cichat-notice') ?? '');
    expect(notice).toContain('under /var/jenkins_home, which is not this JENKINS_HOME');
    expect(notice).toContain('set JENKINS_PATH_MAP on the controller (its log names the value)');
    expect(notice).not.toContain(home);
  });
});
