/**
 * Adversarial review (helper adv, session 44) of this session's OS-condition and "what the step
 * talked to" answers: logs made to look like the ones those rules were built for, but differing in
 * the one thing the answer must not assume (test/fixtures/adv). Every sentence must follow from
 * the log: no /dev/full when the error names the file it wrote, no port the error does not name, no
 * chown of a read-only mount or of a system directory.
 */
import { readFileSync } from 'node:fs';
import { askLocal } from './helpers/askLocal.js';
import { analyzedChatContext } from './answerFixtures.js';
import { checkCitations } from './helpers/claimChecks.js';

const log = (name: string): string => readFileSync(new URL(`./fixtures/adv/${name}`, import.meta.url), 'utf8');
const both = ['why did the build fail?', 'how do I fix it?'];

describe('answers on near misses of the session-44 rules', () => {
  it('a real full disk whose error names its file is not blamed on an earlier write to /dev/full', async () => {
    const text = log('disk-full-after-dev-full-probe.log');
    for (const q of both) {
      const answer = await askLocal(q, analyzedChatContext({}, text));
      expect([q, answer]).toEqual([q, expect.not.stringContaining('/dev/full')]);
      expect([q, answer]).toEqual([q, expect.not.stringContaining('the disk is not full')]);
      expect([q, answer]).toEqual([q, expect.stringContaining('Free space on the agent')]);
      expect(checkCitations(answer, text.split('\n'))).toEqual([]);
    }
  });

  it("urllib3's `port=80` is the port refused, not the package index's port on the same host above", async () => {
    const text = log('refused-port-80-under-index.log');
    for (const q of both) {
      const answer = await askLocal(q, analyzedChatContext({}, text));
      expect([q, answer]).toEqual([q, expect.stringContaining('Nothing listened on `localhost:80`')]);
      expect([q, answer]).toEqual([q, expect.not.stringContaining('3141')]);
      expect([q, answer]).toEqual([q, expect.not.stringContaining('package index')]);
      expect(checkCitations(answer, text.split('\n'))).toEqual([]);
    }
  });

  it('a read-only file system (errno 30) is the mount: no owner, mode, user or chown', async () => {
    const text = log('python-read-only-mount.log');
    for (const q of both) {
      const answer = await askLocal(q, analyzedChatContext({}, text));
      expect([q, answer]).toEqual([q, expect.stringContaining('is mounted read-only [L11-L11]')]);
      expect([q, answer]).toEqual([q, expect.not.stringContaining('chown')]);
      expect([q, answer]).toEqual([q, expect.not.stringContaining("the path's owner and mode")]);
      expect(checkCitations(answer, text.split('\n'))).toEqual([]);
    }
  });

  it('a refused write in /etc with no user shown: never "give that user access" to a system directory', async () => {
    const text = log('python-permission-etc.log');
    for (const q of both) {
      const answer = await askLocal(q, analyzedChatContext({}, text));
      expect([q, answer]).toEqual([q, expect.not.stringContaining('give that user access there')]);
      expect([q, answer]).toEqual([q, expect.not.stringContaining('chown')]);
      expect([q, answer]).toEqual([q, expect.stringContaining('`/etc` is a system directory')]);
      expect(checkCitations(answer, text.split('\n'))).toEqual([]);
    }
  });
});

it('an EACCES on a file under /etc: no chown, and no access to hand to the build there', async () => {
  const text = log('node-eacces-etc.log');
  const answer = await askLocal('how do I fix it?', analyzedChatContext({}, text));
  expect(answer).not.toContain('chown');
  expect(answer).not.toContain('give that user access there');
  expect(answer).toContain('`/etc/myapp` is a system directory');
  expect(checkCitations(answer, text.split('\n'))).toEqual([]);
});
