/**
 * The offline engine's answers against the last green build, on contexts built as ingest builds
 * them (the real analyzer with a baseline): the cases the end-to-end test does not reach.
 */
import type { ChatContext } from '../backend/answer/engine.js';
import { composeLocalAnswer } from '../backend/answer/local.js';
import { analyzeLines, excerptText } from '../core/log/analyze.js';
import { baselineOf } from '../core/log/baseline.js';
import { cleanLines } from '../core/log/clean.js';
import type { BuildDetails } from '../protocol/types.js';
import { termRetriever } from './answerFixtures.js';

const PASS = ['+ ./ci.sh', 'bash: shellcheck: command not found', 'Error: connect ECONNREFUSED 127.0.0.1:6379', 'tests passed', 'Finished: SUCCESS'].join('\n');
const FAIL_NEW = ['+ ./ci.sh', 'bash: shellcheck: command not found', 'Error: connect ECONNREFUSED 127.0.0.1:6379', "src/a.c:3:5: error: 'x' undeclared", 'ERROR: script returned exit code 1', 'Finished: FAILURE'].join('\n');
const FAIL_OLD = ['+ ./ci.sh', 'bash: shellcheck: command not found', 'Error: connect ECONNREFUSED 127.0.0.1:6379', 'ERROR: script returned exit code 1', 'Finished: FAILURE'].join('\n');

function contextOf(fail: string, green: BuildDetails['lastSuccessfulBuild'] | undefined, extra: Partial<BuildDetails> = {}): ChatContext {
  const lines = cleanLines(fail);
  const compared = green ? { baseline: baselineOf(PASS) } : {};
  return {
    ciContext: { buildDetails: { number: 42, result: 'FAILURE', consoleLog: `${lines.join('\n')}\n`, ...(green ? { lastSuccessfulBuild: green } : {}), ...extra } },
    uploadedAt: '2026-11-23T10:00:00.000Z',
    logLineCount: lines.length,
    failureExcerpts: analyzeLines(lines, compared).map((e) => ({ ...e, text: excerptText(lines, e) })),
    retrieve: termRetriever(fail),
  };
}

describe('offline answers against the last green build', () => {
  it('leads with the new error and names the green build by number', async () => {
    const { text } = await composeLocalAnswer('why did it fail?', contextOf(FAIL_NEW, { number: 41, result: 'SUCCESS', comparedLogLines: 5 }));
    expect(text.split('\n')[0]).toContain("error: 'x' undeclared");
    expect(text).toContain('This error is **new since #41, which passed**.');
  });

  it('says when no error is new: every error also appears in the green build', async () => {
    const { text } = await composeLocalAnswer('why did it fail?', contextOf(FAIL_OLD, { number: 41, result: 'SUCCESS', comparedLogLines: 5 }));
    expect(text).toContain('No error here is new: this one also appears in #41, which passed, so it may not be the cause');
  });

  it('without a number (a --baseline-log upload) says "the last green build"', async () => {
    const { text } = await composeLocalAnswer('why did it fail?', contextOf(FAIL_NEW, { comparedLogLines: 5 }));
    expect(text).toContain('new since the last green build');
    const since = await composeLocalAnswer('what changed since the last green build?', contextOf(FAIL_NEW, { comparedLogLines: 5 }));
    expect(since.text).toContain('**Since the last green build:**');
    expect(since.text).toContain('The context does not list the commits since the last green build.');
    expect(since.text).not.toContain('git log');
    // A log that names the commit it built (ux6): that commit, cited, and the git command to the list.
    const checkedOut = `Checking out Revision 8093ba0e844d644389a707bd10a6bfa82853276a (refs/remotes/origin/main)\n${FAIL_NEW}`;
    const named = await composeLocalAnswer('what changed since the last green build?', contextOf(checkedOut, { comparedLogLines: 5 }));
    expect(named.text).toContain('This build checked out `8093ba0e844d` [L1-L1]: `git log --oneline <last green commit>..8093ba0e844d` in a checkout lists them.');
    expect(named.sources).toContainEqual({ kind: 'log', start_line: 1, end_line: 1 });
  });

  it('a green build known but its log not compared: says so, and lists the commits', async () => {
    const green = { number: 41, result: 'SUCCESS', changesSince: [] };
    const { text } = await composeLocalAnswer('what changed since the last green build?', contextOf(FAIL_NEW, green));
    expect(text).toContain('The context holds no log of #41 to compare the errors with.');
    expect(text).toContain('**No commits** were recorded since #41');
  });

  it('without any green build the answer is as before (no baseline wording)', async () => {
    const { text } = await composeLocalAnswer('why did it fail?', contextOf(FAIL_NEW, undefined));
    expect(text).not.toMatch(/green build|which passed/);
  });
});
