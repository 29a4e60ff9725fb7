import { chatSubjectOf } from './chats.js';

describe('chatSubjectOf', () => {
  it('reads jobDetails.fullName and buildDetails.number first', () => {
    expect(
      chatSubjectOf({ jobDetails: { fullName: 'team/api', name: 'api' }, buildDetails: { number: 42 }, ciEnvironment: { JOB_NAME: 'x', BUILD_NUMBER: '7' } }),
    ).toEqual({ job_name: 'team/api', build_number: 42 });
  });

  it('falls back to JOB_NAME / BUILD_NUMBER, then jobDetails.name', () => {
    expect(chatSubjectOf({ ciEnvironment: { JOB_NAME: 'team/web', BUILD_NUMBER: '0099' } })).toEqual({ job_name: 'team/web', build_number: 99 });
    expect(chatSubjectOf({ jobDetails: { name: 'api', fullName: '  ' } })).toEqual({ job_name: 'api', build_number: null });
  });

  it('is null for what the context does not say, or says badly', () => {
    expect(chatSubjectOf({})).toEqual({ job_name: null, build_number: null });
    expect(chatSubjectOf({ ciEnvironment: { BUILD_NUMBER: '12abc' } })).toEqual({ job_name: null, build_number: null });
    expect(chatSubjectOf({ ciEnvironment: { BUILD_NUMBER: '12345678901' } }).build_number).toBeNull();
    expect(chatSubjectOf({ buildDetails: { number: -1 } }).build_number).toBeNull();
    expect(chatSubjectOf({ buildDetails: { number: 1.5 }, ciEnvironment: { BUILD_NUMBER: '3' } }).build_number).toBe(3);
  });

  it('caps a very long job name at the column size', () => {
    expect(chatSubjectOf({ jobDetails: { fullName: 'a/'.repeat(400) } }).job_name).toHaveLength(512);
  });
});
