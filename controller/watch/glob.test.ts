import { globToRegExp, jobMatcher } from './glob.js';

describe('CICHAT_WATCH_JOBS patterns', () => {
  it('keeps * and ? inside one folder level', () => {
    const m = jobMatcher(['team/*']);
    expect(m('team/api')).toBe(true);
    expect(m('team/api/main')).toBe(false);
    expect(m('other/api')).toBe(false);
    expect(jobMatcher(['app-?'])('app-1')).toBe(true);
    expect(jobMatcher(['app-?'])('app-12')).toBe(false);
  });

  it('lets ** cross levels, including none', () => {
    const m = jobMatcher(['team/**/main']);
    expect(m('team/main')).toBe(true);
    expect(m('team/repo/main')).toBe(true);
    expect(m('team/a/b/main')).toBe(true);
    expect(m('team/a/b/dev')).toBe(false);
    expect(jobMatcher(['team/**'])('team/x/y')).toBe(true);
  });

  it('reads {a,b} as either and escapes regular-expression characters', () => {
    const m = jobMatcher(['{api,web}-deploy', 'a.b']);
    expect(m('api-deploy')).toBe(true);
    expect(m('web-deploy')).toBe(true);
    expect(m('cli-deploy')).toBe(false);
    expect(m('a.b')).toBe(true);
    expect(m('axb')).toBe(false);
    expect(globToRegExp('a+(b)').test('a+(b)')).toBe(true);
  });

  it('matches everything without patterns', () => {
    expect(jobMatcher([])('any/job')).toBe(true);
  });
});
