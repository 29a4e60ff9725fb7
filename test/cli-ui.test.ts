/**
 * The Ink components of `cichat chat`, rendered with ink-testing-library: the chat list, the
 * conversation with an answer streaming in, the Markdown renderer (citations included), the
 * footer and the line input.
 */
import React from 'react';
import { render } from 'ink-testing-library';
import type { Key } from 'ink';
import type { Chat, QaPair } from '../protocol/types.js';
import { ChatList } from '../cli/ui/ChatList.js';
import { Conversation, sourcesText } from '../cli/ui/Conversation.js';
import { CHAT_KEYS, Footer, LIST_KEYS } from '../cli/ui/Footer.js';
import { Markdown, inlineSegments, lineText, markdownLines, markdownTail, wrapSegments } from '../cli/ui/markdown.js';
import { LineInput, editLine, emptyLine, lineOf } from '../cli/ui/LineInput.js';
import { CitationPainter } from '../cli/commands/ask.js';
import { drawTree } from '../cli/tree.js';

const h = React.createElement;
const stripAnsi = (s: string): string => s.replace(/\u001b\[[0-9;]*m/g, '');

function buildChat(id: number, title: string): Chat {
  const at = new Date(Date.UTC(2026, 10, 22, 1, id)).toISOString();
  return { id, user_id: 'local', title, created_at: at, updated_at: at };
}

function buildPair(id: number, question: string, answer: string, status: 'complete' | 'interrupted' | 'failed' = 'complete'): QaPair {
  const at = new Date(Date.UTC(2026, 10, 22, 1, id)).toISOString();
  return {
    id,
    qa_pair_id: id,
    chat_id: 1,
    created_at: at,
    question: { id, content: question, created_at: at },
    answer: { id, content: answer, status, sources: [], created_at: at },
  };
}

function key(partial: Partial<Key>): Key {
  return {
    upArrow: false, downArrow: false, leftArrow: false, rightArrow: false, pageDown: false, pageUp: false,
    home: false, end: false, return: false, escape: false, ctrl: false, shift: false, tab: false,
    backspace: false, delete: false, meta: false, super: false, hyper: false, capsLock: false, numLock: false,
    ...partial,
  } as Key;
}

describe('ChatList', () => {
  it('lists chats with the selected one marked', () => {
    const chats = [buildChat(3, 'Demo: team/api #42 failed'), buildChat(2, 'flaky tests'), buildChat(1, 'New Chat')];
    const { lastFrame } = render(h(ChatList, { chats, selected: 1, height: 10, width: 80 }));
    const lines = stripAnsi(lastFrame() ?? '').split('\n');
    expect(lines[0]).toContain('Demo: team/api #42 failed');
    expect(lines[1]).toMatch(/^› \s*2\s+flaky tests/);
    expect(lines[0]).not.toMatch(/^›/);
    expect(lines[2]).toContain('New Chat');
  });

  it('scrolls so that the selection stays visible', () => {
    const chats = Array.from({ length: 30 }, (_, i) => buildChat(30 - i, `chat number ${30 - i}`));
    const { lastFrame } = render(h(ChatList, { chats, selected: 25, height: 5, width: 60 }));
    const frame = stripAnsi(lastFrame() ?? '');
    expect(frame.split('\n')).toHaveLength(5);
    expect(frame).toContain('› ');
    expect(frame).toContain('chat number 5');
    expect(frame).not.toContain('chat number 30');
  });

  it('tells how to start when there is no chat', () => {
    const { lastFrame } = render(h(ChatList, { chats: [], selected: 0, height: 5, width: 60 }));
    expect(lastFrame()).toContain('Press n to start one');
  });
});

describe('Conversation', () => {
  it('shows the answer as it streams in, with a spinner while waiting', () => {
    const pairs = [buildPair(1, 'what broke?', 'The **compiler** failed at [L12-L14].')];
    const app = render(h(Conversation, { pairs, live: { question: 'and why?', text: '', phase: 'waiting' }, width: 80, height: 12 }));
    let frame = stripAnsi(app.lastFrame() ?? '');
    expect(frame).toContain('› what broke?');
    expect(frame).toContain('The compiler failed at [L12-L14].');
    expect(frame).toContain('› and why?');
    expect(frame).toContain('thinking…');

    app.rerender(h(Conversation, { pairs, live: { question: 'and why?', text: 'Because `npm test` exited', phase: 'streaming' }, width: 80, height: 12 }));
    frame = stripAnsi(app.lastFrame() ?? '');
    expect(frame).toContain('Because npm test exited');
    expect(frame).toContain('answering…');

    app.rerender(h(Conversation, { pairs, live: { question: 'and why?', text: 'Because `npm test` exited with 1.', phase: 'stopped' }, width: 80, height: 12 }));
    frame = stripAnsi(app.lastFrame() ?? '');
    expect(frame).toContain('exited with 1.');
    expect(frame).toContain('⏹ interrupted');
    expect(frame).not.toContain('answering…');
  });

  it('shows what an answer rests on under it: log lines, context fields, files', () => {
    const pair = buildPair(1, 'why red?', 'The test failed [L120-L131].');
    pair.answer!.sources = [
      { kind: 'log', start_line: 120, end_line: 131 },
      { kind: 'log', start_line: 40, end_line: 40 },
      { kind: 'context', field: 'buildDetails.result' },
      { kind: 'log', start_line: 120, end_line: 131 },
      { kind: 'file', path: 'src/OrderService.java' },
    ];
    const frame = stripAnsi(render(h(Conversation, { pairs: [pair], live: null, width: 100, height: 10 })).lastFrame() ?? '');
    expect(frame).toMatch(/\[L120-L131\]\.\nsources: log L120-L131 · log L40 · context buildDetails\.result · file src\/OrderService\.java\n/);
    // none, unknown kinds, many
    expect(sourcesText([])).toBeNull();
    expect(sourcesText(undefined)).toBeNull();
    expect(sourcesText([{ kind: 'web', url: 'x' } as never])).toBeNull();
    const many = Array.from({ length: 11 }, (_, i) => ({ kind: 'log' as const, start_line: i + 1, end_line: i + 1 }));
    expect(sourcesText(many)).toBe('sources: log L1 · log L2 · log L3 · log L4 · log L5 · log L6 · log L7 · log L8 · +3 more');
    // narrow terminals wrap it with an indent instead of cutting it
    const narrow = stripAnsi(render(h(Conversation, { pairs: [pair], live: null, width: 30, height: 20 })).lastFrame() ?? '');
    expect(narrow).toContain('src/OrderService.java');
    for (const line of narrow.split('\n')) expect(line.length).toBeLessThanOrEqual(30);
  });

  it('marks interrupted and failed answers', () => {
    const pairs = [buildPair(1, 'q1', 'partial', 'interrupted'), buildPair(2, 'q2', 'half', 'failed')];
    const frame = stripAnsi(render(h(Conversation, { pairs, live: null, width: 60, height: 20 })).lastFrame() ?? '');
    expect(frame).toMatch(/partial\n⏹ interrupted/);
    expect(frame).toMatch(/half\n✗ failed/);
  });

  it('draws only the tail that fits the height, and scrolls back', () => {
    const answer = Array.from({ length: 50 }, (_, i) => `line ${i + 1}`).join('\n');
    const pairs = [buildPair(1, 'long one', answer)];
    const frame = stripAnsi(render(h(Conversation, { pairs, live: null, width: 40, height: 8 })).lastFrame() ?? '');
    const lines = frame.split('\n');
    expect(lines.length).toBeLessThanOrEqual(8);
    expect(frame).toContain('line 50');
    expect(frame).not.toContain('long one');
    const back = stripAnsi(render(h(Conversation, { pairs, live: null, width: 40, height: 8, scroll: 20 })).lastFrame() ?? '');
    expect(back).toContain('line 30');
    expect(back).not.toContain('line 50');
  });
});

describe('Markdown', () => {
  it('renders headings, lists, bold, inline code and code blocks', () => {
    const text = ['# Why it failed', '', '- the **tests** failed', '- run `npm test`', '1. first', '', '```sh', 'npm ci && npm test', '```', '> quoted'].join('\n');
    const lines = markdownLines(text, 60).map(lineText);
    expect(lines[0]).toBe('Why it failed');
    expect(lines).toContain('• the tests failed');
    expect(lines).toContain('• run npm test');
    expect(lines).toContain('1. first');
    expect(lines).toContain('┌ sh');
    expect(lines).toContain('│ npm ci && npm test');
    expect(lines).toContain('│ quoted');
    expect(lines.some((l) => l.includes('```') || l.includes('**') || l.includes('#'))).toBe(false);
  });

  it('keeps styles: bold, code, citations', () => {
    const segs = inlineSegments('see **bold** and `code` at [L120-L131] or [L7]');
    const bold = segs.find((s) => s.text === 'bold');
    const code = segs.find((s) => s.text === 'code');
    const cites = segs.filter((s) => s.citation).map((s) => s.text);
    expect(bold?.bold).toBe(true);
    expect(code?.code).toBe(true);
    expect(cites).toEqual(['[L120-L131]', '[L7]']);
    expect(inlineSegments('not a [citation] here').some((s) => s.citation)).toBe(false);
  });

  it('highlights citations in the rendered output', () => {
    const frame = render(h(Markdown, { text: 'The error is at [L120-L131].', width: 60 })).lastFrame() ?? '';
    expect(stripAnsi(frame)).toBe('The error is at [L120-L131].');
    // (the test terminal has no colours: the styles are checked on the rendered lines)
    const [line] = markdownLines('The error is at [L120-L131].', 60);
    expect(line?.filter((s) => s.color === 'cyan').map((s) => s.text)).toEqual(['[L120-L131]']);
    expect(line?.find((s) => s.text.startsWith('The error'))?.color).toBeUndefined();
  });

  it('wraps to the width with a hanging indent for list items', () => {
    const lines = markdownLines('- ' + 'word '.repeat(30).trim(), 30).map(lineText);
    expect(lines.length).toBeGreaterThan(3);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(30);
    expect(lines[0]?.startsWith('• word')).toBe(true);
    expect(lines[1]?.startsWith('  word')).toBe(true);
    const cut = wrapSegments([{ text: 'x'.repeat(50) }], 20).map(lineText);
    expect(cut).toEqual(['x'.repeat(20), 'x'.repeat(20), 'x'.repeat(10)]);
  });
});

describe('markdownTail (the streaming answer renders only its end)', () => {
  const same = (text: string, width: number, rows: number): void => {
    const full = markdownLines(text, width).map(lineText);
    const tail = markdownTail(text, width, rows).map(lineText);
    expect(tail.length).toBeGreaterThanOrEqual(Math.min(rows, full.length));
    expect(tail.length).toBeLessThan(full.length + 1);
    expect(tail).toEqual(full.slice(full.length - tail.length));
  };

  it('gives the same last lines as rendering everything', () => {
    const prose = Array.from({ length: 400 }, (_, i) => (i % 7 === 0 ? `## part ${i}` : i % 5 === 0 ? `- item **${i}** at [L${i}-L${i + 2}]` : `word ${i} `.repeat(9))).join('\n');
    same(prose, 80, 20);
    same(prose, 33, 5);
  });

  it('knows whether the tail is inside a code block', () => {
    const closed = 'intro\n```js\n' + 'const x = 1;\n'.repeat(300) + '```\nafter the code\n' + 'more\n'.repeat(3);
    same(closed, 60, 10);
    same(closed, 60, 40);
    const open = 'intro\n```js\n' + 'const x = 1;\n'.repeat(300);
    same(open, 60, 10);
    expect(lineText(markdownTail(open, 60, 10)[0] ?? [])).toBe('│ const x = 1;');
  });
});

describe('Footer', () => {
  it('shows the chat keys and cuts them to the width', () => {
    const wide = stripAnsi(render(h(Footer, { keys: CHAT_KEYS, width: 200 })).lastFrame() ?? '');
    for (const k of ['Enter send', '^R retry', '^E edit', 'Esc/^S stop', 'PgUp/Dn scroll', 'Tab/^L chats', '^C/^Q quit']) expect(wide).toContain(k);
    const narrow = stripAnsi(render(h(Footer, { keys: CHAT_KEYS, width: 30 })).lastFrame() ?? '');
    expect(narrow.length).toBeLessThanOrEqual(30);
    expect(narrow).toContain('Enter send');
    // The quit keys are never the ones cut (issue 18: 80x24 showed no way out).
    expect(narrow).toContain('^C/^Q quit');
    const eighty = stripAnsi(render(h(Footer, { keys: CHAT_KEYS, width: 80 })).lastFrame() ?? '');
    expect(eighty.length).toBeLessThanOrEqual(80);
    expect(eighty).toContain('^C/^Q quit');
    const list = stripAnsi(render(h(Footer, { keys: LIST_KEYS, width: 80 })).lastFrame() ?? '');
    expect(list).toContain('d delete');
  });
});

describe('LineInput', () => {
  it('edits a line: type, move, delete, and leaves control keys alone', () => {
    let s = emptyLine;
    for (const ch of 'why failed') s = editLine(s, ch, key({}));
    s = editLine(s, '', key({ leftArrow: true }));
    s = editLine(s, '', key({ leftArrow: true }));
    s = editLine(s, '', key({ leftArrow: true }));
    s = editLine(s, '', key({ leftArrow: true }));
    s = editLine(s, '', key({ leftArrow: true }));
    s = editLine(s, '', key({ leftArrow: true }));
    s = editLine(s, '', key({ leftArrow: true }));
    s = editLine(s, ' it', key({}));
    expect(s.value).toBe('why it failed');
    s = editLine(s, '', key({ backspace: true }));
    expect(s.value).toBe('why i failed');
    const same = editLine(s, 'r', key({ ctrl: true }));
    expect(same).toBe(s);
    expect(editLine(lineOf('a b c'), 'w', key({ ctrl: true })).value).toBe('a b ');
  });

  it('renders the prompt, the text and a placeholder', () => {
    expect(stripAnsi(render(h(LineInput, { prompt: '› ', state: lineOf('hello'), width: 40 })).lastFrame() ?? '').trimEnd()).toBe('› hello');
    expect(stripAnsi(render(h(LineInput, { prompt: '› ', state: emptyLine, width: 40, placeholder: 'ask' })).lastFrame() ?? '')).toBe('›  ask');
  });
});

describe('ask output helpers', () => {
  it('colours citations split across chunks without holding back other text', () => {
    const p = new CitationPainter(true);
    const first = p.push('see [L12');
    expect(first).toBe('see ');
    const second = p.push('-L14] now');
    expect(second).toContain('\u001b[36m[L12-L14]\u001b[39m');
    expect(stripAnsi(first + second + p.end())).toBe('see [L12-L14] now');
    const plain = new CitationPainter(false);
    expect(plain.push('a [L1')).toBe('a [L1');
  });

  it('draws a workspace like tree', () => {
    const { lines, counts } = drawTree({
      name: 'ws',
      type: 'directory',
      children: [
        { name: 'src', type: 'directory', children: [{ name: 'a.ts', type: 'file', size: 1 }] },
        { name: 'package.json', type: 'file', size: 2 },
      ],
    });
    expect(lines).toEqual(['├── src/', '│   └── a.ts', '└── package.json']);
    expect(counts).toEqual({ directories: 1, files: 2 });
  });
});

