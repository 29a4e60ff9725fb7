/**
 * Answers a tired engineer got on failures made on this machine (helper ux4, session 43;
 * test/fixtures/ux4: a Go test past its -timeout, a node:test assertion), each checked against
 * what the log says.
 */
import { readFileSync } from 'node:fs';
import { askLocal } from './helpers/askLocal.js';
import { analyzedChatContext } from './answerFixtures.js';

const log = (name: string): string => readFileSync(new URL(`./fixtures/ux4/${name}`, import.meta.url), 'utf8');

describe('answers on failures made by ux4', () => {
  it('an excerpt printed after the error is not called "output before the failure"', async () => {
    // The goroutine dump of a timed-out Go test (after `panic: test timed out`), the TAP summary after a failed node:test.
    for (const [name, errorLine] of [
      ['go-test-timeout.log', 6],
      ['node-test-assert.log', 18],
    ] as const) {
      const why = await askLocal('why did the build fail?', analyzedChatContext({}, log(name)));
      expect([name, why]).toEqual([name, expect.stringContaining(`the first real error is [L${errorLine}-L${errorLine}]`)]);
      const also = why.slice(why.indexOf('**Also in the log**'));
      expect([name, also]).toEqual([name, expect.stringContaining('*output after the error*')]);
      expect([name, also]).toEqual([name, expect.not.stringContaining('output before the failure')]);
    }
  });
});
