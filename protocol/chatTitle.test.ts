import { logOnlyLabels, titleJob } from './chatTitle.js';

describe("the chat list's job of a chat without a Jenkins record", () => {
  test("the job a piped log's title names (`cichat ask` titles it `<job>: <question>`), nothing from other titles", () => {
    expect(titleJob('logship: why did the build fail?')).toBe('logship');
    expect(titleJob('team/api: what changed?')).toBe('team/api');
    expect(titleJob('why did the build fail?')).toBeUndefined();
    expect(titleJob('Demo: invoice-kt #2 failed')).toBeUndefined();
    expect(titleJob('a note: two words before the colon')).toBeUndefined();
  });

  test('the labels both lists show: only when the context names no job and the title names one', () => {
    expect(logOnlyLabels({ title: 'logship: why?', job_name: null })).toEqual({ job: 'logship (title)', build: 'log only' });
    // an older backend sends no job_name at all
    expect(logOnlyLabels({ title: 'team/api: why?' })).toEqual({ job: 'team/api (title)', build: 'log only' });
    // the context's job wins: it is a Jenkins record
    expect(logOnlyLabels({ title: 'logship: why?', job_name: 'team/logship' })).toBeUndefined();
    expect(logOnlyLabels({ title: 'plain', job_name: null })).toBeUndefined();
  });
});
