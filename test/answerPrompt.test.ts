import { buildPrompt, contextFactLines, estimateTokens, rankPassages, SYSTEM_INSTRUCTIONS, type PromptPassage } from '../backend/answer/prompt.js';
import type { CiContext, PluginInfo } from '../protocol/types.js';
import { saneCiContext } from '../backend/answer/sanitize.js';
import { richChatContext, richCiContext } from './answerFixtures.js';

function passage(start: number, lines: number, label = '(retrieved for the question)'): PromptPassage {
  const text = Array.from({ length: lines }, (_, i) => `[ERROR] something failed at step ${start + i} with code ${1000 + i}`).join('\n');
  return { start_line: start, end_line: start + lines - 1, text, label };
}

function totalTokens(messages: { content: string }[]): number {
  return messages.reduce((sum, m) => sum + estimateTokens(m.content) + 4, 3);
}

describe('estimateTokens', () => {
  it('counts words, numbers and symbols, erring high for logs', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('hello world')).toBe(4);
    const logLine = '[ERROR] /src/main/java/com/example/Foo.java:[42,17] cannot find symbol';
    // A BPE tokenizer gives this line about 20 tokens; chars/4 would say 17.
    expect(estimateTokens(logLine)).toBeGreaterThanOrEqual(Math.ceil(logLine.length / 4));
    expect(estimateTokens(logLine)).toBeLessThan(logLine.length / 1.5);
    expect(estimateTokens('a\n\n\nb')).toBe(5);
  });
});

describe('buildPrompt', () => {
  it('puts instructions, compact facts and numbered passages in the system message and the question last', () => {
    const context = richChatContext();
    const prompt = buildPrompt({
      question: 'Why did the build fail?',
      history: [],
      context,
      passages: rankPassages(context.failureExcerpts, [], true),
      contextTokens: 8000,
    });
    const [system, question] = prompt.messages;
    expect(system?.role).toBe('system');
    expect(system?.content.startsWith(SYSTEM_INSTRUCTIONS)).toBe(true);
    expect(system?.content).toContain('Jenkins version: 2.440.3');
    expect(system?.content).toContain('Parameters: BRANCH=main, SKIP_IT=false');
    expect(system?.content).toContain('Tests: 48 total, 43 passed, 2 failed, 3 skipped');
    expect(system?.content).toContain('Agents: 2 online (linux-1 4 executors, linux-2 4 executors), 1 offline (win-1 2 executors: Disconnected by admin)');
    expect(system?.content).toContain('Plugins (7 installed, name version): ');
    expect(system?.content).toContain('[L44-L46] (analyzer: Maven surefire test failure)\n```\n44| [ERROR] com.example.api.OrderServiceTest');
    expect(system?.content).not.toContain('consoleLog');
    expect(question).toEqual({ role: 'user', content: 'Why did the build fail?' });
    expect(prompt.passages.map((p) => [p.start_line, p.end_line])).toEqual([
      [44, 46],
      [56, 56],
    ]);
    expect(prompt.estimatedTokens).toBe(totalTokens(prompt.messages));
  });

  it('drops the oldest history first, then lower-ranked passages, and keeps the question whole', () => {
    const history = Array.from({ length: 12 }, (_, i) => ({ question: `q${i}`, answer: `answer number ${i} `.repeat(40) }));
    const passages = [passage(100, 10), passage(300, 10), passage(500, 10)];
    const question = 'What failed? '.repeat(30);
    const base = { question, history, context: richChatContext(), passages };

    const roomy = buildPrompt({ ...base, contextTokens: 100_000 });
    expect(roomy.dropped).toEqual({ historyTurns: 0, passages: 0 });

    // Just enough for all passages and a few turns: history goes first, oldest first.
    const passagesOnly = buildPrompt({ ...base, history: [], contextTokens: 100_000 }).estimatedTokens;
    const tight = buildPrompt({ ...base, contextTokens: passagesOnly + 400 });
    expect(tight.estimatedTokens).toBeLessThanOrEqual(passagesOnly + 400);
    expect(tight.dropped.passages).toBe(0);
    expect(tight.dropped.historyTurns).toBeGreaterThan(0);
    expect(tight.dropped.historyTurns).toBeLessThan(12);
    const keptQuestions = tight.messages.filter((m) => m.role === 'user').map((m) => m.content);
    expect(keptQuestions[keptQuestions.length - 1]).toBe(question);
    expect(keptQuestions.slice(0, -1)).toEqual(history.slice(tight.dropped.historyTurns).map((t) => t.question));

    // Tighter: no history at all, and the lowest-ranked passage goes before the others.
    const tighter = buildPrompt({ ...base, contextTokens: passagesOnly - 100 });
    expect(tighter.estimatedTokens).toBeLessThanOrEqual(passagesOnly - 100);
    expect(tighter.dropped.historyTurns).toBe(12);
    expect(tighter.passages.map((p) => p.start_line)).toEqual([100, 300]);
    expect(tighter.messages[tighter.messages.length - 1]?.content).toBe(question);
  });

  it('cuts the top passage to fewer lines rather than dropping it, and cites what is left', () => {
    const big = passage(1000, 400);
    const prompt = buildPrompt({ question: 'why?', history: [], context: null, passages: [big, passage(2000, 3)], contextTokens: 1200 });
    expect(prompt.estimatedTokens).toBeLessThanOrEqual(1200);
    const top = prompt.passages[0];
    expect(top?.start_line).toBe(1000);
    expect(top?.end_line).toBeLessThan(1399);
    expect(top?.end_line).toBeGreaterThan(1005);
    expect(top?.text.split('\n')).toHaveLength((top?.end_line ?? 0) - 1000 + 1);
    expect(prompt.messages[0]?.content).toContain(`[L1000-L${top?.end_line}]`);
  });

  it('keeps a huge question whole even past the budget', () => {
    const question = 'x '.repeat(5000);
    const prompt = buildPrompt({ question, history: [{ question: 'a', answer: 'b' }], context: richChatContext(), passages: [passage(1, 5)], contextTokens: 1000 });
    expect(prompt.messages[prompt.messages.length - 1]?.content).toBe(question);
    expect(prompt.passages).toEqual([]);
    expect(prompt.dropped.historyTurns).toBe(1);
  });

  it('tells the model how to get context when there is none', () => {
    const prompt = buildPrompt({ question: 'why did it fail', history: [], context: null, passages: [], contextTokens: 4000 });
    expect(prompt.messages[0]?.content).toContain('No CI context has been uploaded to this chat');
    expect(prompt.messages[0]?.content).toContain('cichat context upload <chat-id> --log build.log');
  });
});

describe('contextFactLines', () => {
  it('shortens a long plugin list, the plugins the question names first', () => {
    const ci = richCiContext();
    const many: PluginInfo[] = Array.from({ length: 300 }, (_, i) => ({ shortName: `plugin-${String(i).padStart(3, '0')}`, version: '1.0', enabled: true }));
    ci.activePlugins = [...many, { shortName: 'zzz-special', version: '9.9', enabled: true }];
    const lines = contextFactLines(saneCiContext(ci), 400, 'is zzz-special installed?');
    const plugins = lines[lines.length - 1] ?? '';
    expect(plugins.startsWith('Plugins (301 installed, name version): zzz-special 9.9, plugin-000 1.0')).toBe(true);
    expect(plugins).toMatch(/and \d+ more not listed here \(do not guess about them\)$/);
    expect(plugins.length).toBeLessThan(520);
  });

  it('keeps unknown scalar fields and leaves the log out', () => {
    const ci = { ...richCiContext(), pipelineStage: 'Deploy' };
    const lines = contextFactLines(saneCiContext(ci), 4000);
    expect(lines).toContain('pipelineStage: Deploy');
    expect(lines.join('\n')).not.toContain('Finished: FAILURE');
  });
});

describe('rankPassages', () => {
  const excerpts = [{ start_line: 40, end_line: 50, text: 'e', reason: 'Maven failure' }];
  const retrieved = [
    { start_line: 42, end_line: 45, text: 'inside' },
    { start_line: 10, end_line: 15, text: 'elsewhere' },
  ];

  it('puts the analyzer first for failures and leaves out chunks an excerpt covers', () => {
    expect(rankPassages(excerpts, retrieved, true).map((p) => [p.start_line, p.label])).toEqual([
      [40, '(analyzer: Maven failure)'],
      [10, '(retrieved for the question)'],
    ]);
  });

  it('puts retrieval first for other questions', () => {
    expect(rankPassages(excerpts, retrieved, false).map((p) => p.start_line)).toEqual([10, 40]);
  });
});

describe('buildPrompt over odd contexts', () => {
  it('states only well-typed facts', () => {
    const context = {
      ...richChatContext(),
      ciContext: {
        activePlugins: [null, 1, 'a', { shortName: 'git', version: 5 }],
        buildDetails: { previousBuild: 'x', causes: [null, { userId: 'al' }], parameters: [{ value: 1 }] },
        agentStats: { agents: [null, { name: 'a1' }] },
      } as unknown as CiContext,
    };
    const prompt = buildPrompt({ question: 'q', history: [], context, passages: [], contextTokens: 4000 });
    const system = prompt.messages[0]?.content ?? '';
    expect(system).toContain('Plugins (1 installed, name version): git 5');
    expect(system).toContain('Agents: ? online, ? offline (a1)');
    expect(system).not.toMatch(/undefined|NaN|\[object Object\]/);
  });
});
