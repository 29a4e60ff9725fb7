/**
 * The lead's tries of session 44: answers read as a user reads them.
 */
import { askLocal } from './helpers/askLocal.js';
import { analyzedChatContext } from './answerFixtures.js';

describe('answers the lead read (session 44)', () => {
  it('a Pipeline timeout: the lines the first quote showed are not quoted again under "Also in the log"', async () => {
    const log = [
      'Started by user ci',
      '[Pipeline] Start of Pipeline',
      '[Pipeline] node',
      'Running on built-in node in /var/lib/jenkins/workspace/publish-docs',
      '[Pipeline] {',
      '[Pipeline] stage',
      '[Pipeline] { (Publish)',
      '[Pipeline] timeout',
      'Timeout set to expire in 20 sec',
      '[Pipeline] {',
      '[Pipeline] sh',
      '+ ls site',
      'index.html',
      '+ scp -r site deploy@10.1.2.3:/srv/docs/',
      'Cancelling nested steps due to timeout',
      'Sending interrupt signal to process',
      '[Pipeline] }',
      '[Pipeline] // timeout',
      '[Pipeline] }',
      '[Pipeline] // stage',
      '[Pipeline] }',
      '[Pipeline] // node',
      '[Pipeline] End of Pipeline',
      'Timeout has been exceeded',
      'Finished: ABORTED',
    ].join('\n');
    const why = await askLocal('why did the build fail?', analyzedChatContext({}, log));
    expect(why).toContain('`Timeout has been exceeded`');
    // The line is quoted once (in the first excerpt), not a second time on its own.
    expect(why.split('\nTimeout has been exceeded\n').length - 1).toBe(1);
    expect(why).not.toContain('**Also in the log**');
  });
});
