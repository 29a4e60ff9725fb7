/**
 * "How do I fix it?" over a made-up log of a classic job's shell step (the answer tests of the fix
 * helpers): the lines between `Started by user ops` / `[job] $ /bin/sh -xe ...` and the step's
 * FAILURE end, uploaded and analyzed as the backend does; every citation of the answer checked.
 */
import { composeLocalAnswer } from '../../backend/answer/local/index.js';
import type { CiContextUpload } from '../../protocol/schemas.js';
import { analyzedChatContext } from '../answerFixtures.js';
import { checkAnswer } from './claimChecks.js';

const FIX = 'How do I fix it?';

export async function fixOfShellLog(lines: string[], job: string, script = '/tmp/jenkins7.sh'): Promise<string> {
  const start = ['Started by user ops', `[${job}] $ /bin/sh -xe ${script}`];
  const end = ["Build step 'Execute shell' marked build as failure", 'Finished: FAILURE'];
  const log = `${[...start, ...lines, ...end].join('\n')}\n`;
  const upload = { buildDetails: { result: 'FAILURE', consoleLog: log } } as CiContextUpload;
  const ctx = analyzedChatContext(upload, log);
  const text = (await composeLocalAnswer(FIX, ctx)).text;
  expect(checkAnswer(FIX, text, log.split('\n'), ctx)).toEqual([]);
  return text;
}
