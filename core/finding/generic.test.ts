/**
 * Findings of tool formats met on one case and made general (issue 25, round 3's tuning): each
 * test is a small log in the tool's real format, not a copy of a fixture.
 */
import { analyze } from '../log/analyze.js';
import type { Finding } from '../../protocol/types.js';

const top = (text: string): Finding => {
  const found = analyze(text)[0]?.finding;
  if (!found) throw new Error('no finding');
  return found;
};

describe('test names and runners', () => {
  it("names a JUnit 5 test whose method takes parameters (`Cls.method(Path) -- Time elapsed ... <<< ERROR!`)", () => {
    const log = [
      '+ mvn -B test',
      '[INFO] Running dev.x.ImporterTest',
      '[ERROR] Tests run: 1, Failures: 0, Errors: 1, Skipped: 0, Time elapsed: 10.1 s <<< FAILURE! -- in dev.x.ImporterTest',
      '[ERROR] dev.x.ImporterTest.readsRows(Path, int) -- Time elapsed: 10.06 s <<< ERROR!',
      'java.lang.IllegalStateException: no rows',
      '\tat dev.x.Importer.read(Importer.java:19)',
      '\tat dev.x.ImporterTest.readsRows(ImporterTest.java:17)',
      '',
      '[INFO] BUILD FAILURE',
    ].join('\n');
    expect(top(log)).toMatchObject({ class: 'test-error', test: { name: 'dev.x.ImporterTest.readsRows' } });
  });

  it('names the test a runner had started when the process ran out of memory (surefire `Running X`)', () => {
    const log = [
      '+ mvn -B test',
      '[INFO] Running org.x.DoneTest',
      '[INFO] Tests run: 2, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.1 s -- in org.x.DoneTest',
      '[INFO] Running org.x.TotalsTest',
      'Exception in thread "main" java.lang.OutOfMemoryError: Java heap space',
      '\tat java.base/java.util.Arrays.copyOf(Arrays.java:3537)',
      '[INFO] BUILD FAILURE',
    ].join('\n');
    expect(top(log)).toMatchObject({ class: 'out-of-memory', test: { name: 'org.x.TotalsTest' } });
  });

  it('names no running test when the runner closed it before the failure', () => {
    const log = ['+ mvn -B test', '[INFO] Running org.x.DoneTest', '[INFO] Tests run: 2, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.1 s -- in org.x.DoneTest', 'Exception in thread "main" java.lang.OutOfMemoryError: Java heap space', '\tat java.base/java.util.Arrays.copyOf(Arrays.java:3537)', '[INFO] BUILD FAILURE'].join('\n');
    expect(top(log).test).toBeUndefined();
  });
});

describe('npm', () => {
  it('npm 10 prints `Missing script:` with a capital: a CI-script error, ranked over an npm warning', () => {
    const log = ['+ npm run lint', 'npm warn Unknown user config "nodedir". This will stop working in the next major version of npm.', 'npm error Missing script: "lint"', 'npm error', 'npm error To see a list of scripts, run:', 'npm error   npm run', '##[error]Process completed with exit code 1.'].join('\n');
    expect(top(log)).toMatchObject({ class: 'ci-script', tool: 'npm', message: 'npm error Missing script: "lint"' });
  });
});
