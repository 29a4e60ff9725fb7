import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { listJobs, newestBuildWhere } from './scan.js';

let home: string;
let outside: string;
const write = (rel: string, text: string): void => {
  fs.mkdirSync(path.dirname(path.join(home, rel)), { recursive: true });
  fs.writeFileSync(path.join(home, rel), text);
};
const build = (jobRel: string, n: number, result: string | null): void =>
  write(`${jobRel}/builds/${n}/build.xml`, `<?xml version='1.1'?>\n<build>${result ? `<result>${result}</result>` : ''}</build>\n`);

beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-scan-'));
  outside = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-scan-out-'));
});
afterEach(() => {
  fs.rmSync(home, { recursive: true, force: true });
  fs.rmSync(outside, { recursive: true, force: true });
});

describe('listJobs', () => {
  it('walks jobs, folders and multibranch branches by their real names', async () => {
    write('jobs/hello/config.xml', '<project/>');
    write('jobs/team/config.xml', '<folder/>');
    write('jobs/team/jobs/api/config.xml', '<flow-definition/>');
    build('jobs/team/jobs/api', 1, 'SUCCESS');
    write('jobs/org/config.xml', '<multibranch/>');
    write('jobs/org/branches/feature-x.abc123/name-utf8.txt', 'feature/x'.replace('/', '%2F'));
    write('jobs/org/branches/main/config.xml', '<flow-definition/>');
    build('jobs/org/branches/main', 3, 'FAILURE');
    const names = (await listJobs(home)).map((j) => j.fullName).sort();
    expect(names).toEqual(['hello', 'org/feature%2Fx', 'org/main', 'team/api']);
  });

  it('does not follow a job folder that links out of the home', async () => {
    fs.mkdirSync(path.join(outside, 'builds/1'), { recursive: true });
    fs.writeFileSync(path.join(outside, 'builds/1/build.xml'), '<build><result>FAILURE</result></build>');
    fs.mkdirSync(path.join(home, 'jobs'), { recursive: true });
    fs.symlinkSync(outside, path.join(home, 'jobs/evil'));
    write('jobs/good/config.xml', '<project/>');
    expect((await listJobs(home)).map((j) => j.fullName)).toEqual(['good']);
  });

  it('answers nothing for a home without jobs', async () => {
    expect(await listJobs(home)).toEqual([]);
    expect(await listJobs(path.join(home, 'missing'))).toEqual([]);
  });
});

describe('newestBuildWhere', () => {
  it('reads build.xml newest first and skips running builds', async () => {
    write('jobs/a/config.xml', '<project/>');
    build('jobs/a', 1, 'FAILURE');
    build('jobs/a', 2, 'SUCCESS');
    build('jobs/a', 3, 'FAILURE');
    build('jobs/a', 4, null);
    const [job] = await listJobs(home);
    expect((await newestBuildWhere(job!, (s) => s.result === 'FAILURE'))?.number).toBe(3);
    expect((await newestBuildWhere(job!, (s) => s.result === 'ABORTED'))).toBeNull();
    expect((await newestBuildWhere(job!, (s) => s.result === 'FAILURE', 1))).toBeNull();
  });
});
