/** The chat page's line under the title says only what it read (ux4: the backend down said "No job" over a chat with a log). */
import { aboutLine, fileSourceLabel, showsLoading } from './chatHead.js';

describe('the line under a chat title', () => {
  test('job and build, a log without a job, no log: each only once the chat was read', () => {
    expect(aboutLine({ job: 'team/api', build: 42, uploadedAt: null, known: true })).toBe('team/api #42');
    expect(aboutLine({ job: 'team/api', build: null, uploadedAt: null, known: true })).toBe('team/api');
    expect(aboutLine({ job: null, build: null, uploadedAt: '2026-11-29T12:00:00.000Z', known: true })).toMatch(/^A build log without a job, uploaded /);
    expect(aboutLine({ job: null, build: null, uploadedAt: null, known: true })).toBe('No job: upload a build log to ask about it.');
    // Not read (still loading, or the backend did not answer): nothing rather than a false "No job".
    expect(aboutLine({ job: null, build: null, uploadedAt: null, known: false })).toBe('');
  });

  test('"Loading…" only while nothing was read and no error is shown', () => {
    expect(showsLoading(null, null)).toBe(true);
    expect(showsLoading(null, 'The cichat backend at http://127.0.0.1:8000 is unreachable')).toBe(false);
    expect(showsLoading([], null)).toBe(false);
  });

  test('a file source chip names the lines quoted, not only the first', () => {
    expect(fileSourceLabel({ path: 'package_docs.py', start_line: 1, end_line: 11 })).toBe('package_docs.py:1-11');
    expect(fileSourceLabel({ path: 'a.py', start_line: 5, end_line: 5 })).toBe('a.py:5');
    expect(fileSourceLabel({ path: 'a.py', start_line: 5 })).toBe('a.py:5');
    expect(fileSourceLabel({ path: 'Jenkinsfile' })).toBe('Jenkinsfile');
  });
});
