import type { ChatContext } from '../backend/answer/engine.js';
import { formatBytes, formatDuration, findPlugins, pluginNamesAskedFor, systemFacts } from '../backend/answer/facts.js';
import { detectIntents } from '../backend/answer/intents.js';
import { composeLocalAnswer, createLocalEngine } from '../backend/answer/local.js';
import { failingTestsIn, headlineOf } from '../backend/answer/logtext.js';
import { pause, splitIntoPieces } from '../backend/answer/typing.js';
import { analyzeLines, excerptText } from '../core/log/analyze.js';
import { cleanLines } from '../core/log/clean.js';
import type { Source } from '../protocol/types.js';
import { pluginList } from '../protocol/schemas.js';
import { saneCiContext } from '../backend/answer/sanitize.js';
import { analyzedChatContext, failedMavenLog, lineOf, richChatContext, sparseChatContext, termRetriever } from './answerFixtures.js';
import { askLocalAnswer } from './helpers/askLocal.js';

const ask = (question: string, context: ChatContext | null) => askLocalAnswer(question, context);

const fact = (field: string): Source => ({ kind: 'context', field });

describe('local engine over a rich context', () => {
  const cases: [string, RegExp, Source[]][] = [
    // The headline cites the line that carries the message (issue 25); the excerpt is quoted below it.
    ['Why did the build fail?', /Build #42 of `team\/api` ended `FAILURE`.*first real error is \[L45-L45\]/, [fact('buildDetails.result'), { kind: 'log', start_line: 44, end_line: 46 }]],
    ['what broke', /ended `FAILURE`.*\[L45-L45\]/, [{ kind: 'log', start_line: 44, end_line: 46 }]],
    ["what's the error", /\[L45-L45\]/, [{ kind: 'log', start_line: 44, end_line: 46 }]],
    ['which tests failed?', /^\*\*2 of 48 tests failed\*\* in build #42 \(3 skipped\)/, [fact('buildDetails.testResults')]],
    ['what version of jenkins', /^This server runs \*\*Jenkins 2\.440\.3\*\*/, [fact('ciVersion')]],
    ['Jenkins version?', /Jenkins 2\.440\.3/, [fact('ciVersion')]],
    ['is the git plugin installed?', /^\*\*Yes — `git` 5\.2\.1 is installed\*\* \(Git plugin\)/, [fact('activePlugins')]],
    ['do we have the Pipeline plugin', /^\*\*Yes — `workflow-aggregator` 596\.v8c21c963d92d is installed/, [fact('activePlugins')]],
    ['what version is git-client', /`git-client` 4\.6\.0 is installed/, [fact('activePlugins')]],
    ['is blue ocean installed', /`blueocean` 1\.27\.9 is installed but disabled/, [fact('activePlugins')]],
    ['what plugins are installed', /^\*\*7 plugins are installed\*\* \(1 of them disabled\)/, [fact('activePlugins')]],
    ['how many executors', /^The built-in node has \*\*2 executors\*\*/, [fact('masterNode.executors')]],
    ['is the master online', /^\*\*Yes — the built-in node is online/, [fact('masterNode.isOnline')]],
    ['agents offline?', /^\*\*Yes — 1 agent is offline\*\*: `win-1` \(Disconnected by admin\)/, [fact('agentStats.offlineAgents')]],
    ['what OS / memory', /^The built-in node: OS \*\*Linux 6\.1\.0-18-amd64 amd64\*\*, Memory \*\*15\.6 GiB\*\*/, [fact('masterNode.systemInfo.os.name'), fact('masterNode.systemInfo.totalMemory')]],
    ['who started the build', /^Build #42 was started by \*\*Alice Smith\*\* \(`alice`\)/, [fact('buildDetails.causes')]],
    ['what parameters', /^Build #42 ran with \*\*2 parameters\*\*/, [fact('buildDetails.parameters')]],
    ['how long did it take', /^\*\*Build #42 took 3 min 12 s\.\*\*/, [fact('buildDetails.duration')]],
    ['what was the result', /^\*\*Build #42 of `team\/api` failed \(`FAILURE`\)\.\*\*/, [fact('buildDetails.result')]],
    ['did the build pass?', /^\*\*No — build #42 of `team\/api` failed/, [fact('buildDetails.result')]],
    ['previous build', /^The previous build, \*\*#41\*\*, finished `SUCCESS`/, [fact('buildDetails.previousBuild')]],
    ['is the job buildable', /^\*\*Yes — `team\/api` is buildable/, [fact('jobDetails.isBuildable')]],
    ['what type of job is this', /^`team\/api` is a \*\*Maven project\*\*/, [fact('jobDetails.jobType')]],
    ['is this a pipeline?', /^\*\*No — `team\/api` is a Maven project\*\*.*not a Pipeline/, [fact('jobDetails.jobType')]],
    ['job description', /described as/, [fact('jobDetails.description')]],
    ['what is the system message', /system message reads/, [fact('systemMessage')]],
    ['root url', /^The Jenkins root URL is \*\*https:\/\/ci\.example\.com\/\*\*/, [fact('rootUrl')]],
    ['which node did it run on', /ran on the \*\*built-in node\*\*/, [fact('buildDetails.builtOnNode')]],
    ['when did it start', /started at \*\*2026-11-22 01:18 UTC\*\*/, [fact('buildDetails.timestamp')]],
    ['what changed', /^\*\*Build #42 has 1 change:\*\*/, [fact('buildDetails.changes')]],
    ['summarize', /^\*\*Build #42 of `team\/api` failed \(`FAILURE`\) in 3 min 12 s\.\*\*/, [fact('buildDetails.result'), fact('ciVersion')]],
  ];

  it.each(cases)('%s', async (question, firstLine, sources) => {
    const answer = await ask(question, richChatContext());
    expect(answer.first).toMatch(firstLine);
    expect(answer.sources).toEqual(expect.arrayContaining(sources));
    expect(answer.text).not.toMatch(/undefined|NaN|\[object Object\]/);
  });

  it('quotes the failure excerpts in fenced blocks with citations and records them as sources', async () => {
    const context = richChatContext();
    const answer = await ask('why did the build fail', context);
    const [top, second] = context.failureExcerpts;
    expect(answer.text).toContain('[L44-L46] *Maven surefire test failure*\n```text\n' + top?.text + '\n```');
    expect(answer.text).toContain(`[L${second?.start_line}-L${second?.end_line}]`);
    expect(answer.text).toContain('org.opentest4j.AssertionFailedError: expected: <400> but was: <200>');
    expect(answer.sources).toEqual(
      expect.arrayContaining([
        { kind: 'log', start_line: 44, end_line: 46 },
        { kind: 'log', start_line: second?.start_line, end_line: second?.end_line },
      ]),
    );
  });

  it('names the failing tests from the log, once each, with their lines', async () => {
    const log = failedMavenLog();
    const answer = await ask('which tests failed', richChatContext());
    const order = lineOf(log, 'OrderServiceTest.rejectsEmptyCart  Time elapsed');
    const price = lineOf(log, 'PriceCalculatorTest.appliesDiscount  Time elapsed');
    expect(answer.text).toContain(`- \`com.example.api.OrderServiceTest.rejectsEmptyCart\` [L${order}-L${order}]`);
    expect(answer.text).toContain(`- \`com.example.api.PriceCalculatorTest.appliesDiscount\` [L${price}-L${price}]`);
    expect(answer.text.match(/rejectsEmptyCart`/g)).toHaveLength(1);
    expect(answer.sources).toEqual(expect.arrayContaining([{ kind: 'log', start_line: order, end_line: order }]));
  });

  it('answers two questions asked at once, in order', async () => {
    const answer = await ask('who started it and with which parameters?', richChatContext());
    const started = answer.text.indexOf('started by **Alice Smith**');
    const params = answer.text.indexOf('ran with **2 parameters**');
    expect(started).toBeGreaterThanOrEqual(0);
    expect(params).toBeGreaterThan(started);
  });

  it('says a plugin is not installed and names the related ones that are', async () => {
    const answer = await ask('is the docker plugin installed?', richChatContext());
    expect(answer.first).toBe('**No — `docker` is not installed**.');
    expect(answer.text).toContain('`docker-workflow` 572.v950f58993843 (Docker Pipeline)');
    const none = await ask('is the artifactory plugin installed?', richChatContext());
    expect(none.first).toMatch(/^\*\*No — `artifactory` is not installed\*\* \(none of the 7 installed plugins/);
  });

  it('says the build was not aborted rather than inventing who aborted it', async () => {
    const answer = await ask('who aborted build #42?', richChatContext());
    expect(answer.first).toBe('Build #42 was not aborted: it failed (`FAILURE`).');
  });

  it('finds who aborted a build in the log when Jenkins printed it', async () => {
    const log = failedMavenLog().replace('Finished: FAILURE', 'Aborted by Bob Jones\nFinished: ABORTED');
    const base = richChatContext();
    const context: ChatContext = {
      ...base,
      ciContext: { ...base.ciContext, buildDetails: { ...base.ciContext.buildDetails, result: 'ABORTED', consoleLog: log } },
      logLineCount: log.split('\n').length - 1,
      retrieve: termRetriever(log),
    };
    const line = lineOf(log, 'Aborted by Bob Jones');
    const answer = await ask('who stopped the build?', context);
    expect(answer.first).toBe(`**Bob Jones aborted build #42**, according to the log [L${line}-L${line}].`);
    expect(answer.sources).toEqual([{ kind: 'log', start_line: line, end_line: line }]);
  });

  it('falls back to retrieval when the analyzer found no excerpt', async () => {
    const context = richChatContext({ failureExcerpts: [] });
    const answer = await ask('why did the build fail', context);
    // The surefire verdict's class (a rule's medium) is set aside when its words do not support it (calibration.ts
    // `supported`): then the line is "the first line that looks like an error"; either way the log's line is cited.
    expect(answer.first).toMatch(/first (?:real error|line that looks like an error) is \[L\d+-L\d+\]/);
    expect(answer.sources.some((s) => s.kind === 'log')).toBe(true);
  });

  it('quotes the log for a question no intent matches but the log mentions', async () => {
    const answer = await ask('anything about opentest4j?', richChatContext());
    expect(answer.first).toContain('the log mentions `opentest4j` here');
    expect(answer.text).toMatch(/\[L\d+-L\d+\]\n```text\n[^]*opentest4j/);
    expect(answer.sources.some((s) => s.kind === 'log')).toBe(true);
  });

  it('reads a bare "why?" after a question about the build as why it failed', async () => {
    const history = [{ question: 'did the build pass?', answer: '**No — build #42 of `team/api` failed (`FAILURE`).**' }];
    const { text } = await askLocalAnswer('why?', richChatContext(), history);
    expect(text).toMatch(/^\*\*Build #42 of `team\/api` ended `FAILURE`:\*\* the first real error is \[L45-L45\]/);
    // Without history the same word is not understood.
    expect((await ask('why?', richChatContext())).first).toBe("I can't answer that from the uploaded context.");
  });

  it('says what it can answer when it does not understand, with suggestions from the context', async () => {
    const answer = await ask("what's the weather like in Paris", richChatContext());
    expect(answer.first).toBe("I can't answer that from the uploaded context.");
    expect(answer.text).toContain('*Why did build #42 fail?*');
    expect(answer.text).toContain('*Is the git plugin installed?*');
    expect(answer.sources).toEqual([]);
  });
});

describe('local engine over a sparse context', () => {
  const notSaid: [string, string][] = [
    ['who aborted build #42?', 'The uploaded context does not say who aborted build #42.'],
    ['who started the build', 'The uploaded context does not say who or what started build #42.'],
    ['what parameters did it use', 'The uploaded context does not say which parameters build #42 ran with.'],
    ['how long did it take', 'The uploaded context does not say how long build #42 took.'],
    ['how many executors', 'The uploaded context does not say how many executors there are.'],
    ['is the master online', 'The uploaded context does not say whether the built-in node is online.'],
    ['agents offline?', 'The uploaded context does not say which agents are online or offline.'],
    ['what OS / memory', "The uploaded context does not say the built-in node's OS or memory."],
    ['is the git plugin installed', 'The uploaded context does not say whether `git` is installed.'],
    ['root url', "The uploaded context does not say what the server's root URL is."],
    ['which tests failed', 'The uploaded context does not say which tests failed in build #42.'],
    ['previous build', 'The uploaded context does not say anything about the build before build #42.'],
  ];

  it.each(notSaid)('%s', async (question, expected) => {
    const answer = await ask(question, sparseChatContext());
    expect(answer.first).toBe(expected);
    expect(answer.text).not.toMatch(/Alice|git 5|executors\*\*/);
  });

  it('still answers what it holds', async () => {
    expect((await ask('what version of jenkins', sparseChatContext())).first).toBe('This server runs **Jenkins 2.401.1**.');
    const result = await ask('what was the result', sparseChatContext());
    expect(result.first).toBe('**Build #42 was aborted (`ABORTED`).**');
    expect(result.sources).toEqual([fact('buildDetails.result')]);
  });

  it('says there is no log to explain a failure, and how to upload one', async () => {
    const answer = await ask('why did it fail', sparseChatContext());
    expect(answer.first).toBe("The uploaded context holds no build log, so I can't see why build #42 failed. It was aborted (`ABORTED`).");
    expect(answer.text).toContain('cichat context upload <chat-id> --log build.log');
  });

  it('the hint to fetch a source the log names never offers an absolute path (cichat ws cat refuses it)', async () => {
    const log = [
      '+ python3 -m pytest -q tests',
      '_____________________ ERROR collecting tests/test_tools.py _____________________',
      "ImportError while importing test module '/agent/ws/app/tests/test_tools.py'.",
      'Traceback:',
      '/usr/lib/python3.11/importlib/__init__.py:126: in import_module',
      '    return _bootstrap._gcd_import(name[level:], package, level)',
      'tests/test_tools.py:1: in <module>',
      '    from logs.tools import parse_level',
      "E   ModuleNotFoundError: No module named 'logs.tools'",
      'Finished: FAILURE',
    ].join('\n');
    // A context with source read from a workspace of the build: `cichat ws cat` is offered (test/answerNoError.test.ts: not without).
    const workspaceSnippets = [{ path: 'setup.py', workspaceId: 'ws-0', startLine: 1, endLine: 1, text: 'import setuptools' }];
    const answer = await ask('why did it fail?', analyzedChatContext({ buildDetails: { number: 3, result: 'FAILURE' }, workspaceSnippets }, log));
    expect(answer.text).not.toMatch(/cichat ws cat \S+ \S+ \//);
    expect(answer.text).toContain('cichat ws cat JOB 3 tests/test_tools.py');
  });

  it('a passed build whose short log has no error line is not said to have error-looking lines', async () => {
    const context = analyzedChatContext({ buildDetails: { number: 4, result: 'SUCCESS' } }, 'Building in workspace /x/y\nCopying file to html.html\nFinished: SUCCESS\n');
    // the backend's hybrid retrieval scores any line above 0 (its vectors), as here
    context.retrieve = async () => [{ start_line: 1, end_line: 3, text: 'Building in workspace /x/y\nCopying file to html.html\nFinished: SUCCESS', score: 0.4 }];
    const answer = await ask('why did it fail?', context);
    expect(answer.first).toBe('**Build #4 did not fail: it finished `SUCCESS`, and I found no error lines in its 3-line log.**');
    expect(answer.text).not.toContain('error-looking');
  });

  it('a log of colour codes only: says its lines are empty instead of quoting an empty block', async () => {
    const answer = await ask('why did it fail?', analyzedChatContext({}, '\u001b[31m\u001b[0m\n\u001b[1;32m\u001b[K\n'));
    expect(answer.text).toContain("I found no error lines in its 2-line log");
    expect(answer.text).toContain("Its lines are empty once colour codes and Jenkins' console notes are removed [L1-L2].");
    expect(answer.text).not.toContain('```');
  });

  it('a build that passed, without its log, is not asked why it failed', async () => {
    const context: ChatContext = { ...sparseChatContext(), ciContext: { buildDetails: { number: 2, result: 'SUCCESS' }, jobDetails: { fullName: 'upstream' } } };
    const answer = await ask('why did the last build fail?', context);
    expect(answer.first).toBe('Build #2 of `upstream` did not fail: it finished `SUCCESS`. The uploaded context holds no build log to look for errors in.');
    expect(answer.text).not.toMatch(/why .* failed/);
  });

  it('reads the legacy jenkinsVersion name', async () => {
    const context: ChatContext = { ...sparseChatContext(), ciContext: { jenkinsVersion: '2.387.3' } };
    const answer = await ask('jenkins version?', context);
    expect(answer.first).toBe('This server runs **Jenkins 2.387.3**.');
    // Read under its canonical name (CONTRACT section 2).
    expect(answer.sources).toEqual([fact('ciVersion')]);
  });
});

describe('local engine without any context', () => {
  it.each(['why did the build fail', 'is the git plugin installed', 'hello', 'what is the meaning of life'])('%s', async (question) => {
    const answer = await ask(question, null);
    expect(answer.first).toMatch(/^No CI context has been uploaded to this chat yet/);
    expect(answer.text).toContain('cichat context upload <chat-id> --log build.log');
    expect(answer.text).toContain('cat build.log | cichat ask');
    // issue 27: no browser upload button is shipped; the controller injects the named build
    expect(answer.text).toContain('cichat context upload <chat-id> --job JOB --build N');
    expect(answer.text).toContain('injects it');
    expect(answer.text).not.toMatch(/button/i);
    expect(answer.sources).toEqual([]);
  });

  it('names what it cannot tell', async () => {
    expect((await ask('why did the build fail', null)).first).toBe(
      "No CI context has been uploaded to this chat yet, so I can't tell why the build failed.",
    );
  });
});

describe('local engine streaming', () => {
  it('streams the composed answer in several small pieces', async () => {
    const context = richChatContext();
    const whole = await composeLocalAnswer('why did the build fail', context);
    const engine = createLocalEngine({ typingDelayMs: 1 });
    const stream = await engine.answer({ question: 'why did the build fail', history: [], context, signal: new AbortController().signal });
    const pieces: string[] = [];
    for await (const piece of stream.pieces) pieces.push(piece);
    expect(pieces.join('')).toBe(whole.text);
    expect(pieces.length).toBeGreaterThan(20);
    expect(Math.max(...pieces.map((p) => p.split(/\s+/).filter(Boolean).length))).toBeLessThanOrEqual(3);
    expect(stream.sources).toEqual(whole.sources);
  });

  it('stops during a pause as soon as the signal aborts', async () => {
    const engine = createLocalEngine({ typingDelayMs: 60_000 });
    const controller = new AbortController();
    const stream = await engine.answer({ question: 'summarize', history: [], context: richChatContext(), signal: controller.signal });
    const iterator = stream.pieces[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(first.done).toBe(false);
    const second = iterator.next(); // now waiting out a 60 s pause
    controller.abort();
    const guard = new Promise<'still waiting'>((resolve) => setTimeout(() => resolve('still waiting'), 5_000).unref());
    await expect(Promise.race([second, guard])).resolves.toEqual({ done: true, value: undefined });
  });

  it('yields nothing when the client is already gone', async () => {
    const engine = createLocalEngine({ typingDelayMs: 0 });
    const controller = new AbortController();
    controller.abort();
    const stream = await engine.answer({ question: 'summarize', history: [], context: richChatContext(), signal: controller.signal });
    const pieces: string[] = [];
    for await (const piece of stream.pieces) pieces.push(piece);
    expect(pieces).toEqual([]);
  });
});

describe('answer helpers', () => {
  it('formats durations in human units', () => {
    expect(formatDuration(192_000)).toBe('3 min 12 s');
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(12_000)).toBe('12 s');
    expect(formatDuration(3_600_000)).toBe('1 h');
    expect(formatDuration(3_900_000)).toBe('1 h 5 min');
    expect(formatDuration(2 * 86_400_000 + 3 * 3_600_000 + 59_000)).toBe('2 d 3 h');
    expect(formatBytes(16_777_216_000)).toBe('15.6 GiB');
  });

  it('cuts text into pieces that join back exactly', () => {
    const text = '**Build #42 failed**\n\n```text\n[ERROR]   a  b\n```\n\n- one two three four  \n';
    const pieces = splitIntoPieces(text);
    expect(pieces.join('')).toBe(text);
    expect(pieces.length).toBeGreaterThan(3);
  });

  it('ends a pause early on abort', async () => {
    const controller = new AbortController();
    const waiting = pause(60_000, controller.signal);
    controller.abort();
    const guard = new Promise<'still waiting'>((resolve) => setTimeout(() => resolve('still waiting'), 5_000).unref());
    await expect(Promise.race([waiting.then(() => 'ended'), guard])).resolves.toBe('ended');
  });

  it('matches plugins by short name, long name, shared word and typo', () => {
    const plugins = pluginList(saneCiContext(richChatContext().ciContext)) ?? [];
    expect(findPlugins(plugins, 'git').exact.map((p) => p.shortName)).toEqual(['git']);
    expect(findPlugins(plugins, 'git').related.map((p) => p.shortName)).toEqual(['git-client']);
    expect(findPlugins(plugins, 'Git client').exact.map((p) => p.shortName)).toEqual(['git-client']);
    expect(findPlugins(plugins, 'pipeline').exact.map((p) => p.shortName)).toEqual(['workflow-aggregator']);
    expect(findPlugins(plugins, 'kubernets').related.map((p) => p.shortName)).toEqual(['kubernetes']);
    expect(findPlugins(plugins, 'artifactory')).toMatchObject({ exact: [], related: [] });
  });

  it('pulls plugin names out of questions', () => {
    const plugins = pluginList(saneCiContext(richChatContext().ciContext)) ?? [];
    expect(pluginNamesAskedFor('is the git plugin installed?', plugins)).toEqual(['git']);
    expect(pluginNamesAskedFor('are git and docker plugins installed', plugins).sort()).toEqual(['docker', 'git']);
    expect(pluginNamesAskedFor('do we have docker-workflow', plugins)).toEqual(['docker-workflow']);
    expect(pluginNamesAskedFor('what plugins are installed', plugins)).toEqual([]);
  });

  it('reads the OS and memory whatever the keys are called', () => {
    const facts = systemFacts({ os: 'Linux 6.8.0', arch: 'x64', cpus: 4, cpuModel: 'AMD EPYC', totalMemoryBytes: 8_589_934_592 });
    expect(facts.map((f) => [f.label, f.value])).toEqual([
      ['OS', 'Linux 6.8.0 x64'],
      ['CPUs', '4 × AMD EPYC'],
      ['Memory', '8 GiB'],
    ]);
  });

  it('finds failing tests of several ecosystems', () => {
    const text = [
      '  ● Cart › rejects an empty cart',
      'FAILED tests/test_cart.py::test_empty - AssertionError',
      '--- FAIL: TestParse (0.00s)',
      'CartTest > rejectsEmpty FAILED',
      'test parser::tests::rejects_empty ... FAILED',
    ].join('\n');
    expect(failingTestsIn([{ start_line: 10, end_line: 14, text }]).map((t) => [t.name, t.line])).toEqual([
      ['Cart › rejects an empty cart', 10],
      ['tests/test_cart.py::test_empty', 11],
      ['TestParse', 12],
      ['CartTest > rejectsEmpty', 13],
      ['parser::tests::rejects_empty', 14],
    ]);
  });

  it.each([
    ['why did the build fail', ['failure']],
    ['what went wrong?', ['failure']],
    ['which tests failed', ['tests']],
    ['why did the tests fail', ['tests']],
    ['what version of jenkins are we on', ['ciVersion']],
    ['what version is the git plugin', ['plugins']],
    ['how many executors on the master', ['executors']],
    ['are any agents down', ['agents']],
    ['how much RAM does the controller have', ['system']],
    ['who kicked off this build', ['causes']],
    ['who aborted it', ['aborter']],
    ['how long did it run', ['duration']],
    ['was the previous build green', ['previous']],
    ['is the build still running?', ['result']],
    ['what does this job do', ['jobDescription']],
    ['is there a banner', ['systemMessage']],
    ['give me an overview', ['summary']],
    ['what OS and how many executors?', ['system', 'executors']],
    ['tell me a joke', []],
    // Follow-ups about the change to make are the fix (ux6: this one got the log's first 40 lines).
    ['which import should I move?', ['fix']],
    ['what file do we change?', ['fix']],
  ])('understands "%s"', (question, intents) => {
    expect(detectIntents(question)).toEqual(intents);
  });
});

describe('local engine with the real log analyzer', () => {
  function analyzedContext(log: string, base = richChatContext()): ChatContext {
    const lines = cleanLines(log);
    if (lines[lines.length - 1] === '') lines.pop();
    return {
      ...base,
      ciContext: { ...base.ciContext, buildDetails: { ...base.ciContext.buildDetails, consoleLog: `${lines.join('\n')}\n` } },
      logLineCount: lines.length,
      failureExcerpts: analyzeLines(lines).map((e) => ({ ...e, text: excerptText(lines, e) })),
      retrieve: termRetriever(log),
    };
  }

  it("quotes the analyzer's top excerpt with its citation", async () => {
    const context = analyzedContext(failedMavenLog());
    const top = context.failureExcerpts[0];
    expect(top).toBeDefined();
    const answer = await ask('why did the build fail?', context);
    const citation = `[L${top?.start_line}-L${top?.end_line}]`;
    // The headline is the finding's message line, inside the excerpt; the excerpt is quoted whole.
    const message = top?.finding?.message_line;
    expect(message).toBeGreaterThanOrEqual(top?.start_line ?? 0);
    expect(answer.first).toContain(`the first real error is [L${message}-L${message}]`);
    expect(answer.text).toContain(`${citation} *${top?.reason}*\n\`\`\`text\n${top?.text}`);
    expect(answer.sources).toEqual(expect.arrayContaining([{ kind: 'log', start_line: top?.start_line, end_line: top?.end_line }]));
  });

  it('does not dress up a log without an error line as one', async () => {
    const log = ['Started by timer', 'Building in workspace /w', '+ ./deploy.sh', 'deployed 3 services', 'Finished: FAILURE', ''].join('\n');
    const context = analyzedContext(log, sparseChatContext());
    const answer = await ask('why did the build fail?', { ...context, ciContext: { buildDetails: { number: 7, result: 'FAILURE', consoleLog: log } } });
    expect(answer.first).toMatch(/^\*\*Build #7 ended `FAILURE` without an explicit error line;\*\* the log points at \[L\d+-L\d+\]/);
    expect(answer.text).not.toContain('first real error');
  });

  it('shows the end of the log when nothing points at an error', async () => {
    const log = ['Started by timer', 'Finished: FAILURE', ''].join('\n');
    const context: ChatContext = {
      ...sparseChatContext(),
      ciContext: { buildDetails: { number: 7, result: 'FAILURE', consoleLog: log } },
      logLineCount: 2,
      failureExcerpts: [{ start_line: 1, end_line: 2, score: 0, reason: 'end of log', text: 'Started by timer\nFinished: FAILURE' }],
    };
    const answer = await ask('why did the build fail?', context);
    expect(answer.first).toBe('**Build #7 ended `FAILURE`, but I found no error lines in its 2-line log.**');
    expect(answer.text).toContain('[L1-L2] *end of log*');
    expect(answer.sources).toEqual(expect.arrayContaining([{ kind: 'log', start_line: 1, end_line: 2 }]));
  });
});

describe('local engine over a log tail', () => {
  it('numbers the lines of consoleLogTail from the end of the stored log', async () => {
    const tail = ['[Pipeline] sh', '+ sleep 600', 'Sending interrupt signal to process', 'Aborted by Carol Diaz', 'Finished: ABORTED'];
    const context: ChatContext = {
      ciContext: { buildDetails: { number: 9, result: 'ABORTED', consoleLogTail: `${tail.join('\n')}\n` } },
      uploadedAt: '2026-11-22T01:20:00.000Z',
      logLineCount: 5000,
      failureExcerpts: [],
      retrieve: async () => [],
    };
    const answer = await ask('who aborted the build?', context);
    expect(answer.first).toBe('**Carol Diaz aborted build #9**, according to the log [L4999-L4999].');
    expect(answer.sources).toEqual([{ kind: 'log', start_line: 4999, end_line: 4999 }]);
  });
});

describe('odd contexts', () => {
  // An upload keeps whatever it was sent; a field of the wrong type must neither throw nor leak into the text.
  const odd: unknown[] = [null, 'x', 42, true, [], {}, [null], [{}], [1, 'a'], { a: null }];
  const nested: Record<string, string[]> = {
    masterNode: ['executors', 'isOnline', 'systemInfo'],
    agentStats: ['onlineAgents', 'offlineAgents', 'agents'],
    jobDetails: ['name', 'fullName', 'type', 'buildable', 'description'],
    buildDetails: ['number', 'result', 'building', 'durationMs', 'timestamp', 'causes', 'parameters', 'builtOn', 'changes', 'previousBuild', 'tests', 'consoleLog', 'consoleLogTail'],
  };
  const top = ['currentScreen', 'ciVersion', 'rootUrl', 'systemMessage', 'activePlugins', 'jenkinsVersion', ...Object.keys(nested)];
  const questions = [
    'why did the build fail', 'which tests failed', 'what version of jenkins', 'is the git plugin installed', 'what plugins',
    'how many executors', 'is the master online', 'agents offline?', 'what OS / memory', 'who started the build', 'who aborted it',
    'what parameters', 'how long did it take', 'what was the result', 'previous build', 'is the job buildable', 'what type of job',
    'job description', 'system message', 'root url', 'summarize', 'what changed', 'which node did it run on', 'when did it start',
    'what command failed', 'which stage failed', 'exit code?', 'what does line 2 say', 'show the last 5 lines', 'is it flaky',
    'which commit was built', 'which branch', 'was it a timeout', 'who broke it', 'thanks', 'can you retry the build',
  ];

  it('answers every question over wrongly typed fields without "undefined" or a throw', async () => {
    const contexts: Record<string, unknown>[] = [];
    for (const field of top) {
      for (const value of odd) {
        contexts.push({ [field]: value });
        for (const inner of nested[field] ?? []) contexts.push({ [field]: { [inner]: value } });
      }
    }
    const bad: string[] = [];
    for (const ci of contexts) {
      const context: ChatContext = { ...sparseChatContext(), ciContext: ci, logLineCount: 3 };
      for (const question of questions) {
        const { text } = await composeLocalAnswer(question, context);
        if (/undefined|NaN|\[object Object\]/.test(text)) bad.push(`${question} ${JSON.stringify(ci)}`);
      }
    }
    expect(bad).toEqual([]);
  });
});

describe('the line quoted as "the error"', () => {
  const span = (lines: string[], start = 100) => ({ start_line: start, end_line: start + lines.length - 1, text: lines.join('\n') });

  it('skips a tally to the line that states what went wrong', () => {
    const maven = span([
      '[ERROR] Tests run: 4, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.044 s <<< FAILURE! -- in com.acme.CartTest',
      '[ERROR] com.acme.CartTest.total -- Time elapsed: 0.007 s <<< FAILURE!',
      'org.opentest4j.AssertionFailedError: expected: <97.20> but was: <98.00>',
      '\tat org.junit.jupiter.api.AssertionFailureBuilder.build(AssertionFailureBuilder.java:151)',
    ]);
    expect(headlineOf(maven)).toEqual({ line: 102, text: 'org.opentest4j.AssertionFailedError: expected: <97.20> but was: <98.00>', isError: true });
    const surefire = span(['[ERROR] Failures: ', '[ERROR]   CartTest.total:31 expected: <1> but was: <2>', '[ERROR] Tests run: 3, Failures: 1'], 7);
    expect(headlineOf(surefire).line).toBe(8);
  });

  it('keeps the first error line when it already states the error', () => {
    const gradle = span(["Execution failed for task ':app:checkDebugAarMetadata'.", "> Could not resolve all files for configuration ':app:debugRuntimeClasspath'."]);
    expect(headlineOf(gradle).text).toBe("Execution failed for task ':app:checkDebugAarMetadata'.");
    const gcc = span(['src/main.c:12:5: error: implicit declaration of function ‘foo’', 'make: *** [Makefile:4: all] Error 1']);
    expect(headlineOf(gcc).line).toBe(100);
  });

  it('falls back to the tally, then to the first line, when nothing states more', () => {
    expect(headlineOf(span(['BUILD FAILURE', 'Total time: 3 s']))).toEqual({ line: 100, text: 'BUILD FAILURE', isError: true });
    expect(headlineOf(span(['', 'all good here']))).toEqual({ line: 101, text: 'all good here', isError: false });
  });
});
