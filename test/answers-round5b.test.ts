/**
 * The false claims of round 5's batch B (issue 25, helper fix5b), on the real logs: exit 127
 * glossed as "command not found" where env said its program was missing (a CRLF shebang), a
 * SIGABRT hint naming a double free where the C library said the stack was smashed, and a
 * credentials remedy ("not expired") for a signature whose public key is missing.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { composeLocalAnswer } from '../backend/answer/local/index.js';
import { exceptionHint } from '../backend/answer/local/exceptions.js';
import type { Finding } from '../protocol/types.js';
import { analyzedChatContext } from './answerFixtures.js';
import type { CiContextUpload } from '../protocol/schemas.js';

const ROOT = path.join(process.cwd(), 'test', 'fixtures', 'realfail');

async function answers(id: string): Promise<string> {
  const log = readFileSync(path.join(ROOT, id, 'fail.log'), 'utf8');
  const ctx = analyzedChatContext({ buildDetails: { result: 'FAILURE', consoleLog: log } } as CiContextUpload, log);
  return `${(await composeLocalAnswer('Why did the build fail?', ctx)).text}\n${(await composeLocalAnswer('How do I fix it?', ctx)).text}`;
}

describe('answers of round 5, batch B, say only what the log does', () => {
  it.each([
    ['bash-crlf-line-endings', 'command not found'],
    ['gcc-stack-smashing', 'double free'],
    ['gpg-no-public-key', 'expired'],
  ])('%s never says "%s"', async (id, phrase) => {
    expect(readFileSync(path.join(ROOT, id, 'fail.log'), 'utf8').toLowerCase()).not.toContain(phrase);
    expect((await answers(id)).toLowerCase()).not.toContain(phrase);
  });

  it('a bare abort names no cause the log does not print', () => {
    const hint = exceptionHint({ class: 'runtime-exception', message: 'ci.sh: line 2: 2413 Aborted                 ./label', exception: 'SIGABRT', message_line: 8, confidence: 'medium', evidence: [8] } as Finding);
    expect(hint).toBeDefined();
    expect(hint).not.toMatch(/double free/);
  });

  it('gives the remedy of the cause the log names', async () => {
    expect(await answers('gcc-stack-smashing')).toMatch(/snprintf/);
    expect(await answers('gpg-no-public-key')).toMatch(/gpg --import/);
  });
});
