/**
 * GNU ld's `relocation truncated to fit` (session 50, helper loc3): the fix says no symbol is missing and what reaches
 * the data, not "find where the missing symbol is defined". The log is ld's real output (test/fixtures/grammar
 * ld-relocation-truncated-debug.log, made by that folder's make.sh); every citation checked against it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { composeLocalAnswer } from '../backend/answer/local/index.js';
import { analyzedChatContext } from './answerFixtures.js';
import { checkAnswer } from './helpers/claimChecks.js';
import type { CiContextUpload } from '../protocol/schemas.js';

async function answer(question: string, log: string): Promise<string> {
  const upload = { buildDetails: { result: 'FAILURE', consoleLog: log } } as CiContextUpload;
  const ctx = analyzedChatContext(upload, log);
  const text = (await composeLocalAnswer(question, ctx)).text;
  expect(checkAnswer(question, text, log.split('\n'), ctx)).toEqual([]);
  return text;
}

describe("ld's relocation truncated to fit", () => {
  const log = readFileSync(path.join(process.cwd(), 'test', 'fixtures', 'grammar', 'ld-relocation-truncated-debug.log'), 'utf8');

  it('the fix names the symbol out of reach and its section, and no missing symbol', async () => {
    const fix = await answer('How do I fix it?', log);
    expect(fix).toMatch(/No symbol is missing: `ring_head` \(in the `\.bss` section\) lies beyond .*\[L11-L11\]/);
    expect(fix).toMatch(/-mcmodel=medium/);
    expect(fix).not.toMatch(/missing symbol is defined/);
  });

  it('the why answer places it at the line ld names', async () => {
    expect(await answer('why did the build fail?', log)).toMatch(/ring\.c:6/);
  });
});
