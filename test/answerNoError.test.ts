/**
 * Answers without an error (session 42, fx3; docs/notes/answer.md): a log that shows no error
 * (a running build, a log cut before any failure), an aborted build, a source the context holds
 * no copy of when no workspace is shown, and a finished build whose log the CI server lacks.
 */
import type { ChatContext } from '../backend/answer/engine.js';
import type { CiContextUpload } from '../protocol/schemas.js';
import { analyzedChatContext, sparseChatContext } from './answerFixtures.js';
import { askLocalAnswer } from './helpers/askLocal.js';

const ask = (question: string, context: ChatContext) => askLocalAnswer(question, context);

const NO_ERROR_LOG = 'Started by user alice\n[Pipeline] Start of Pipeline\n[Pipeline] node\n+ ./gradlew build\n> Task :compileJava\n';

/** As the backend stores it; its hybrid retrieval scores every line above 0 (its vectors), as here. */
function noErrorContext(ci: CiContextUpload): ChatContext {
  const context = analyzedChatContext(ci, NO_ERROR_LOG);
  context.retrieve = async () => [{ start_line: 1, end_line: 1, text: 'Started by user alice', score: 0.4 }];
  return context;
}

describe('a log that shows no error', () => {
  it('with no outcome (a piped log, maybe cut): says so, quotes its last lines, names no line an error', async () => {
    const answer = await ask('why did the build fail?', noErrorContext({}));
    expect(answer.first).toBe('**The log shows no error:** I found no error lines in its 5-line log, and the context does not say how the build ended (it may still be running, or the log may have been cut before a failure).');
    expect(answer.text).not.toMatch(/error is|points at|first error/);
    expect(answer.text).toContain('The last lines it holds:\n[L1-L5]');
    expect(answer.text).toContain('upload its full log');
    expect(answer.sources).toContainEqual({ kind: 'log', start_line: 1, end_line: 5 });
  });

  it('of a build still running: says it is running with no error so far, and to wait', async () => {
    const answer = await ask('why did the build fail?', noErrorContext({ buildDetails: { number: 2, building: true }, jobDetails: { fullName: 'app' } }));
    expect(answer.first).toBe('**Build #2 of `app` is still running, and its log shows no error so far:** I found no error lines in its 5-line log.');
    expect(answer.text).not.toMatch(/first error so far|error is/);
    expect(answer.text).toContain('Nothing has failed so far. Wait for build #2 of `app` to finish, then ask again.');
  });

  it('"how do I fix it?": nothing to fix yet, citing the lines read, and what to do', async () => {
    const cut = await ask('how do I fix it?', noErrorContext({}));
    expect(cut.text).toMatch(/^There is nothing in the log of the build to fix yet: it shows no error \(it ends \[L1-L5\] with `> Task :compileJava`\)\. If the build failed, the failure is not in these lines: upload its full log/);
    expect(cut.sources).toContainEqual({ kind: 'log', start_line: 1, end_line: 5 });
    const running = await ask('how do I fix it?', noErrorContext({ buildDetails: { number: 2, building: true } }));
    expect(running.text).toContain('Wait for build #2 to finish, then ask again.');
  });

  it('a build that failed with no error line keeps its own wording', async () => {
    const answer = await ask('why did the build fail?', noErrorContext({ buildDetails: { number: 7, result: 'FAILURE' } }));
    expect(answer.first).toBe('**Build #7 ended `FAILURE`, but I found no error lines in its 5-line log.**');
  });
});

describe('an aborted build', () => {
  const log = 'Started by user alice\n+ make test\nok\n+ sleep 600\nBuild was aborted\nAborted by admin\nFinished: ABORTED\n';

  it('says who stopped it and what was running, never that it failed running it', async () => {
    const answer = await ask('why did the build fail?', analyzedChatContext({ buildDetails: { number: 3, result: 'ABORTED' } }, log));
    expect(answer.first).toBe('**Build #3 was aborted (`ABORTED`):** the line that says what stopped it is [L6-L6]: `Aborted by admin`');
    expect(answer.text).toContain('It was stopped while running `sleep 600` [L4-L4].');
    expect(answer.text).not.toMatch(/failed running|first real error/);
  });
});

describe('a source the log names that the context holds no copy of', () => {
  const log = 'Started by user alice\n+ javac -d out src/main/App.java\nsrc/main/App.java:12: error: cannot find symbol\n        foo.bar();\n           ^\n  symbol:   method bar()\n1 error\nFinished: FAILURE\n';
  const ci: CiContextUpload = { buildDetails: { number: 5, result: 'FAILURE' }, jobDetails: { fullName: 'app' } };

  it('without a workspace in the context: no `cichat ws cat` (it would fail), the workspace is said not to be shown', async () => {
    const answer = await ask('why did the build fail?', analyzedChatContext(ci, log));
    expect(answer.text).not.toContain('cichat ws cat');
    expect(answer.text).toContain('The log names `src/main/App.java:12`; the uploaded context holds no copy of that source, and the context shows no workspace of this build on the CI server');
    const shown = await ask('show me src/main/Other.java', analyzedChatContext(ci, log));
    expect(shown.text).not.toContain('cichat ws cat');
    expect(shown.text).toContain('the context shows no workspace of this build');
  });

  it('with source read from a workspace of the build: offers `cichat ws cat`', async () => {
    const withWs: CiContextUpload = { ...ci, workspaceSnippets: [{ path: 'Jenkinsfile', workspaceId: 'ws-0', startLine: 1, endLine: 1, text: 'node {}' }] };
    const answer = await ask('why did the build fail?', analyzedChatContext(withWs, log));
    expect(answer.text).toContain('To see it: `cichat ws cat app 5 src/main/App.java`.');
  });

  it('with the workspaces the controller found listed but no source read from them: offers `cichat ws cat`, citing the list', async () => {
    const listed: CiContextUpload = { ...ci, buildDetails: { ...ci.buildDetails, workspaces: ['ws-default'] } };
    const answer = await ask('why did the build fail?', analyzedChatContext(listed, log));
    expect(answer.text).toContain('The log names `src/main/App.java:12`; the uploaded context holds no copy of that source. To see it: `cichat ws cat app 5 src/main/App.java`.');
    expect(answer.text).not.toContain('shows no workspace');
    expect(answer.sources).toContainEqual({ kind: 'context', field: 'buildDetails.workspaces' });
    const shown = await ask('show me src/main/Other.java', analyzedChatContext(listed, log));
    expect(shown.text).toContain('To see it from the workspace: `cichat ws cat app 5 src/main/Other.java` (`cichat ws tree app 5` lists the files).');
    expect(shown.sources).toContainEqual({ kind: 'context', field: 'buildDetails.workspaces' });
    // An empty list says no workspace was found: as if absent.
    const none = await ask('why did the build fail?', analyzedChatContext({ ...ci, buildDetails: { ...ci.buildDetails, workspaces: [] } }, log));
    expect(none.text).not.toContain('cichat ws cat');
    expect(none.text).toContain('the context shows no workspace of this build on the CI server');
  });
});

describe('a finished build whose context holds no log', () => {
  // What the controller sends for a build it read from JENKINS_HOME: `kind`, and `consoleLogBytes` for each log it read.
  const fromHome = (extra: Record<string, unknown> = {}): ChatContext => ({
    ...sparseChatContext(),
    ciContext: { buildDetails: { number: 4, result: 'FAILURE', building: false, kind: 'freestyle', ...extra }, jobDetails: { fullName: 'app' } },
  });

  it('read from the CI server with no log file: says the CI server lacks it, not "upload the log"', async () => {
    for (const q of ['why did the build fail?', 'how do I fix it?', 'which step failed?', 'show me the last 20 lines of the log']) {
      const answer = await ask(q, fromHome());
      expect(answer.text).toContain('The CI server has no log file for build #4');
      expect(answer.text).not.toContain('Upload the log and ask again');
    }
  });

  it('a log the CI server could not read: says so, from consoleLogError', async () => {
    const answer = await ask('why did the build fail?', fromHome({ consoleLogError: 'Log of app #4 is unreadable: EACCES' }));
    expect(answer.text).toContain("The CI server's log of build #4 of `app` could not be read: Log of app #4 is unreadable: EACCES.");
    expect(answer.sources).toContainEqual({ kind: 'context', field: 'buildDetails.consoleLogError' });
    const fix = await ask('how do I fix it?', fromHome({ consoleLogError: 'Log of app #4 is unreadable: EACCES' }));
    expect(fix.sources).toContainEqual({ kind: 'context', field: 'buildDetails.consoleLogError' });
  });

  it('a context that cannot tell (not read from a CI server home) keeps the upload hint', async () => {
    const answer = await ask('why did it fail', sparseChatContext());
    expect(answer.text).toContain('Upload the log and ask again');
    expect(answer.text).not.toContain('CI server has no log');
  });
});
