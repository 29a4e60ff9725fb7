import { buildUrlOf, chatTitle, citedLines, contextLogLines, findingCause, greenLogLines, oneLineCause } from './diagnose.js';
import { backoffMs, webhookText } from './webhook.js';
import type { FailureRecord } from './store.js';

describe('diagnosis text', () => {
  it('titles the chat `<job> #<n> failed`, cutting a very long job name from the left', () => {
    expect(chatTitle('team/api', 42)).toBe('team/api #42 failed');
    const long = `${'x'.repeat(300)}/tail-of-the-name`;
    const title = chatTitle(long, 7);
    expect([...title].length).toBeLessThanOrEqual(200);
    expect(title.endsWith('/tail-of-the-name #7 failed')).toBe(true);
    expect(title.startsWith('…')).toBe(true);
  });

  it('takes the one-line cause from the finding: class, place and the message, never the exit line', () => {
    const log = ['Started by user ci', '+ javac -d out src/shop/Main.java', 'src/shop/Main.java:8: error: cannot find symbol', '        inv.count("apple");', '           ^', '  symbol:   method count(String)', '1 error', "Build step 'Execute shell' marked build as failure", 'Finished: FAILURE'];
    expect(findingCause(log)).toBe('Compile error: src/shop/Main.java:8: error: cannot find symbol');
    const py = ['+ python deploy.py', 'Traceback (most recent call last):', '  File "/ws/deploy.py", line 13, in <module>', '    region = env["REGION"]', "KeyError: 'REGION'", 'ERROR: script returned exit code 1'];
    expect(findingCause(py)).toBe("Runtime exception at /ws/deploy.py:13: KeyError: 'REGION'");
    // Nothing with a class: no cause from the finding (the answer's first line is used instead).
    expect(findingCause(['+ ./check.sh', 'ERROR: script returned exit code 1', 'Finished: FAILURE'])).toBeUndefined();
  });

  it('names an error new since the last green build, never one it printed too, as the cause', () => {
    const filler = Array.from({ length: 12 }, (_, i) => `step ${i} ok`);
    const green = ['+ ./ci.sh', "src/legacy.c:9:2: error: unknown type name 'u8'", ...filler, 'tests passed', 'Finished: SUCCESS'];
    const fail = ['+ ./ci.sh', "src/legacy.c:9:2: error: unknown type name 'u8'", 'ld: cannot find -lzstd', 'collect2: error: ld returned 1 exit status', 'make: *** [Makefile:2: all] Error 1', 'Finished: FAILURE'];
    expect(findingCause(fail)).toMatch(/^Compile error: src\/legacy\.c/);
    expect(findingCause(fail, green)).toBe('Link error: ld: cannot find -lzstd');
    const old = ['+ ./ci.sh', "src/legacy.c:9:2: error: unknown type name 'u8'", ...filler, 'ERROR: script returned exit code 1', 'Finished: FAILURE'];
    expect(findingCause(old, green)).toBe("Compile error: src/legacy.c:9:2: error: unknown type name 'u8' (also in the last green build: may not be the cause)");
    expect(greenLogLines({ buildDetails: { lastSuccessfulBuild: { number: 3, consoleLogTail: green.join('\n') } } })).toEqual(green);
    expect(greenLogLines({ buildDetails: { lastSuccessfulBuild: null } })).toEqual([]);
  });

  it('takes the first line that says something, without markdown or line marks', () => {
    expect(oneLineCause('\n## Why it failed\n\n**The test `OrderTotalsTest` failed** [L12-L14]: expected 90.0.\nMore.')).toBe('Why it failed');
    expect(oneLineCause('---\n- **Compilation error** in `Foo.java` [L3]\n')).toBe('Compilation error in Foo.java');
    const long = `${'word '.repeat(30)}end of the first sentence. ${'more '.repeat(60)}`;
    const cut = oneLineCause(long);
    expect(cut.length).toBeLessThanOrEqual(200);
    expect(cut.endsWith('end of the first sentence.')).toBe(true);
    expect(oneLineCause('   \n\n')).toBe('');
  });

  it('cites the first log source of the answer, else the best excerpt, with secrets masked', () => {
    const context = {
      buildDetails: {
        consoleLogTail: ['Started', '+ deploy --password=hunter2secret', '\u001b[31mERROR: deploy failed\u001b[0m', 'Finished: FAILURE', ''].join('\n'),
      },
    };
    const lines = contextLogLines(context);
    expect(lines).toHaveLength(4);
    expect(lines[2]).toBe('ERROR: deploy failed');
    const cited = citedLines(lines, [{ kind: 'context', field: 'x' }, { kind: 'log', start_line: 2, end_line: 3 }]);
    expect(cited).toHaveLength(2);
    expect(cited[0]).not.toContain('hunter2secret');
    expect(cited[1]).toBe('ERROR: deploy failed');
    expect(citedLines(lines, []).join('\n')).toContain('ERROR: deploy failed');
    expect(citedLines([], [])).toEqual([]);
  });

  it('builds the build URL from the job URL', () => {
    expect(buildUrlOf({ jobDetails: { url: 'http://ci/job/team/job/api/' } }, 8)).toBe('http://ci/job/team/job/api/8/');
    expect(buildUrlOf({ jobDetails: { url: 'http://ci/job/a' } }, 1)).toBe('http://ci/job/a/1/');
    expect(buildUrlOf({}, 1)).toBeUndefined();
  });
});

describe('webhook message', () => {
  const failure: FailureRecord = {
    key: 'team/api#8',
    job: 'team/api',
    build: 8,
    result: 'FAILURE',
    cause: 'The test OrderTotalsTest failed.',
    citedLines: ['[ERROR] Tests run: 4, Failures: 1', 'a ``` fence'],
    buildUrl: 'http://ci/job/team/job/api/8/',
    detectedAt: '2026-11-23T10:00:00.000Z',
    diagnosedAt: '2026-11-23T10:00:01.000Z',
    chats: [{ user: 'local', chatId: 12 }],
    unread: ['local'],
  };

  it('holds job, build, cause, the cited lines in a code block and the build URL', () => {
    const text = webhookText(failure);
    expect(text.split('\n')[0]).toBe('*team/api #8 failed* (FAILURE)');
    expect(text).toContain('The test OrderTotalsTest failed.');
    expect(text).toContain("```\n[ERROR] Tests run: 4, Failures: 1\na ''' fence\n```");
    expect(text).toContain('http://ci/job/team/job/api/8/');
    expect(text).toContain('cichat chat 12');
  });

  it('links to the chat on the web page when CONTROLLER_PUBLIC_URL is set, to the failures list when several users got it', () => {
    expect(webhookText(failure)).not.toContain('/chats/');
    expect(webhookText(failure, 'https://cichat.example.com')).toContain('Diagnosis: https://cichat.example.com/chats/12');
    const shared = { ...failure, chats: [...failure.chats, { user: 'bob', chatId: 13 }] };
    expect(webhookText(shared, 'https://cichat.example.com')).toContain('Diagnoses: https://cichat.example.com/failures');
  });

  it('says why there is no diagnosis', () => {
    expect(webhookText({ ...failure, cause: '', citedLines: [], error: 'Not diagnosed: backend down' })).toContain('Not diagnosed: backend down');
  });

  it('backs off exponentially up to ten minutes', () => {
    expect([1, 2, 3, 4].map((n) => backoffMs(n))).toEqual([2000, 4000, 8000, 16000]);
    expect(backoffMs(30)).toBe(600_000);
  });
});
