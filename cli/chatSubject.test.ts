import { chatSubject, logSubject, subjectText, titleSubject } from './chatSubject.js';

describe('chatSubject', () => {
  it('takes job and build from the backend fields', () => {
    const s = chatSubject({ title: 'nightly failures', job_name: 'team/api', build_number: 42 });
    expect(s).toEqual({ job: 'team/api', build: 42, rest: 'nightly failures', from: 'context' });
    expect(subjectText(s)).toBe('team/api #42');
  });

  it('prefers the fields over a title naming another build', () => {
    const s = chatSubject({ title: 'team/api #7: why?', job_name: 'team/web', build_number: 9 });
    expect(s).toEqual({ job: 'team/web', build: 9, rest: 'team/api #7: why?', from: 'context' });
  });

  it('drops the title prefix when it says the same as the fields', () => {
    const s = chatSubject({ title: 'team/api #42: why did it fail?', job_name: 'team/api', build_number: 42 });
    expect(s?.rest).toBe('why did it fail?');
  });

  it('shows a job without a build', () => {
    const s = chatSubject({ title: 'about the job', job_name: 'team/api', build_number: null });
    expect(subjectText(s)).toBe('team/api');
  });

  it('falls back to the title when the fields are absent or null', () => {
    expect(chatSubject({ title: 'team/api #42: why?' })).toEqual({ job: 'team/api', build: 42, rest: 'why?', from: 'title' });
    expect(chatSubject({ title: 'Demo: team/api #42 failed', job_name: null, build_number: null })?.from).toBe('title');
    expect(chatSubject({ title: 'flaky tests', job_name: null, build_number: null })).toBeUndefined();
    expect(subjectText(undefined)).toBe('');
  });

  it('reads the title shapes', () => {
    expect(titleSubject('team/api #42 failed')).toEqual({ job: 'team/api', build: 42, rest: 'team/api #42 failed' });
    expect(titleSubject('New Chat')).toBeUndefined();
  });
});

describe('logSubject: the job a console log names, for the title of a chat made from it', () => {
  it.each([
    ['Started by user admin\nRunning as SYSTEM\nBuilding in workspace /var/jenkins_home/workspace/java-calc\n[java-calc] $ /bin/sh -xe /tmp/jenkins1.sh\n', 'java-calc'],
    ['Started by user admin\nBuilding remotely on linux-1 (docker) in workspace /home/jenkins/workspace/team/api\n', 'team/api'],
    ['[Pipeline] Start of Pipeline\n[Pipeline] node\nRunning on agent-2 in /home/jenkins/workspace/api_main@2\n[Pipeline] {\n', 'api_main'],
    ['Running on Jenkins in C:\\Jenkins\\workspace\\nightly\n', 'nightly'],
    ['+ make\n[web] $ /bin/sh -xe /tmp/jenkins2.sh\n', 'web'],
    ['Running on a in /srv/build/custom-dir\n', 'custom-dir'],
  ])('%j -> %s', (head, job) => {
    expect(logSubject(head)).toBe(job);
  });
  it('none when the lines name none, or two different workspaces', () => {
    expect(logSubject('npm ERR! code ELIFECYCLE\n[INFO] BUILD FAILURE\n')).toBeUndefined();
    expect(logSubject('Running on a in /w/workspace/api\nRunning on b in /w/workspace/web\n')).toBeUndefined();
    // A tool's own `[LEVEL]` prefix is no step line: Jenkins runs a program by its path there.
    expect(logSubject('[INFO] Scanning for projects...\n[ERROR] $ x\n')).toBeUndefined();
  });
});
