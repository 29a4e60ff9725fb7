/**
 * "How do I fix it?" over a made-up log of a classic job's shell step (the answer tests of the fix
 * helpers): the lines between `Started by user ops` / `[job] $ /bin/sh -xe ...` and the step's
 * FAILURE end, uploaded and analyzed as the backend does; every citation of the answer checked.
 */
import { composeLocalAnswer } from '../../backend/answer/local/index.js';
import { snippetsFromDir } from '../../cli/snippets.js';
import type { CiContextUpload } from '../../protocol/schemas.js';
import { analyzedChatContext } from '../answerFixtures.js';
import { checkAnswer } from './claimChecks.js';
import { TUNED_CASES } from './realfail.js';
import { realfailContext } from './realfailContext.js';

const FIX = 'How do I fix it?';

/** `workspace`: a project directory whose snippets the CLI's reader (`cichat ask --workspace DIR`) sends with the log. */
export async function fixOfShellLog(lines: string[], job: string, script = '/tmp/jenkins7.sh', workspace?: string): Promise<string> {
  const start = ['Started by user ops', `[${job}] $ /bin/sh -xe ${script}`];
  const end = ["Build step 'Execute shell' marked build as failure", 'Finished: FAILURE'];
  const log = `${[...start, ...lines, ...end].join('\n')}\n`;
  const snippets = workspace ? await snippetsFromDir(workspace, log) : [];
  const upload = { buildDetails: { result: 'FAILURE', consoleLog: log }, ...(snippets.length > 0 ? { workspaceSnippets: snippets } : {}) } as CiContextUpload;
  const ctx = analyzedChatContext(upload, log);
  const text = (await composeLocalAnswer(FIX, ctx)).text;
  expect(checkAnswer(FIX, text, log.split('\n'), ctx)).toEqual([]);
  return text;
}

/** The fix answer of a real case of the tuning data (never a held-out round's), with the project as the workspace; every citation checked. */
export async function fixOfRealCase(id: string): Promise<string> {
  expect(TUNED_CASES).toContain(id);
  const { ctx, lines } = await realfailContext(id, true);
  const text = (await composeLocalAnswer(FIX, ctx)).text;
  expect(checkAnswer(FIX, text, lines, ctx)).toEqual([]);
  return text;
}
