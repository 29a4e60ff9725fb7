/** The page's Markdown renderer: React elements only, so answer text can never become markup. */
import { renderToStaticMarkup } from 'react-dom/server';
import { Markdown, citationSpans, parseBlocks } from './markdown.js';

const html = (text: string) => renderToStaticMarkup(<Markdown text={text} onCitation={() => undefined} />);

describe('the web Markdown renderer', () => {
  test('blocks: headings, lists, quotes, rules, fenced code (a longer fence inside a shorter one stays code)', () => {
    expect(parseBlocks('# Cause\n\nThe **test** failed.\n\n- one\n- two\n\n1. first\n2. second\n\n> quoted\n\n---\n````text\n```\ninside\n```\n````').map((b) => b.kind)).toEqual([
      'heading',
      'paragraph',
      'list',
      'list',
      'quote',
      'rule',
      'code',
    ]);
    const code = parseBlocks('````text\n```\ninside\n```\n````')[0];
    expect(code).toEqual({ kind: 'code', lang: 'text', text: '```\ninside\n```' });
    // A fence still open (the answer is streaming) runs to the end.
    expect(parseBlocks('```\nline 1\nline 2')).toEqual([{ kind: 'code', lang: '', text: 'line 1\nline 2' }]);
  });

  test('inline: bold, italic, code, http(s) links only, snake_case left alone', () => {
    expect(html('a **b** *c* `d` [e](https://x.example/p) my_var_name')).toBe(
      '<p>a <strong>b</strong> <em>c</em> <code>d</code> <a href="https://x.example/p" target="_blank" rel="noopener noreferrer">e</a> my_var_name</p>',
    );
    expect(html('[click](javascript:alert(1))')).not.toContain('<a');
    expect(html('see https://ci.example/job/1/.')).toContain('<a href="https://ci.example/job/1/"');
  });

  test('HTML in answers and logs is text, never markup', () => {
    const out = html('<img src=x onerror="alert(1)"> and <script>alert(2)</script>\n\n```\n<b>log</b>\n```');
    expect(out).not.toMatch(/<img|<script|<b>/);
    expect(out).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;');
    expect(out).toContain('&lt;b&gt;log&lt;/b&gt;');
  });

  test('citations become buttons naming their lines', () => {
    const out = html('the error [L120-L131] and [L7]');
    expect(out).toContain('aria-label="Show log lines 120 to 131"');
    expect(out).toContain('>[L120-L131]</button>');
    expect(out).toContain('aria-label="Show log line 7"');
    expect(citationSpans('L3-L5, L9')).toEqual([
      { start: 3, end: 5 },
      { start: 9, end: 9 },
    ]);
    expect(html('[L3-L5, L9]').match(/<button/g)).toHaveLength(2);
  });
});
