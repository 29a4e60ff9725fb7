import { chatSubject, subjectText, titleSubject } from './chatSubject.js';

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
