import { describe, expect, it } from '@jest/globals';
import { analyze } from '../log/analyze.js';

/** Jenkins' timeout: the recorded cause `Timeout has been exceeded` is the message (docs/notes/analyzer.md, helper msg3). */
describe("Jenkins' timeout step: the cause it records is the message", () => {
  const log = (ending: string[]): string =>
    ['[Pipeline] timeout', 'Timeout set to expire in 5 min 0 sec', '[Pipeline] {', '[Pipeline] sh', '+ ./gradlew integrationTest', '> Task :integrationTest', 'Cancelling nested steps due to timeout', 'Sending interrupt signal to process', '[Pipeline] }', '[Pipeline] // timeout', '[Pipeline] End of Pipeline', ...ending].join('\n');

  it('every excerpt of the timeout gives `Timeout has been exceeded`', () => {
    const excerpts = analyze(log(['Timeout has been exceeded', 'Finished: ABORTED'])).filter((e) => e.finding?.class === 'timeout-aborted');
    // Both lines are ranked (one excerpt each): the action's excerpt reads on to the cause.
    expect(excerpts.length).toBeGreaterThan(1);
    for (const e of excerpts) expect([e.finding?.message, e.finding?.message_line]).toEqual(['Timeout has been exceeded', 12]);
  });

  it('counter-example: without the recorded cause the action stays the message', () => {
    const f = analyze(log(['Finished: ABORTED']))[0]?.finding;
    expect([f?.class, f?.message]).toEqual(['timeout-aborted', 'Cancelling nested steps due to timeout']);
  });
});
