/** Width measured in terminal columns (CJK and emoji take two), and Markdown for `cichat ask`. */
import stringWidth from 'string-width';
import { MarkdownStream, lineText, markdownLines, truncateTo, wrapSegments } from './markdownText.js';

describe('terminal width', () => {
  it('wraps CJK and emoji text to the columns it takes, not its characters', () => {
    const text = '构建失败是因为测试超时了，请检查数据库连接 🚀🚀🚀 并且重新运行流水线任务';
    const lines = wrapSegments([{ text }], 20);
    for (const line of lines) expect(stringWidth(lineText(line))).toBeLessThanOrEqual(20);
    expect(lines.map(lineText).join('').replace(/ /g, '')).toBe(text.replace(/ /g, ''));
  });
  it('cuts code lines by columns too', () => {
    const lines = markdownLines('```\n' + '日本語'.repeat(20) + '\n```', 30);
    for (const line of lines) expect(stringWidth(lineText(line))).toBeLessThanOrEqual(30);
  });
  it('truncates to columns with an ellipsis', () => {
    expect(truncateTo('漢字漢字漢字', 7)).toBe('漢字漢…');
    expect(stringWidth(truncateTo('😀😀😀😀', 5))).toBeLessThanOrEqual(5);
  });
});

describe('MarkdownStream', () => {
  const strip = (s: string): string => s.replace(/\u001b\[[0-9;]*m/g, '');
  it('renders each line when its newline arrives, keeping fence state between chunks', () => {
    const md = new MarkdownStream(80);
    let out = md.push('The **build** failed [L12-L14]');
    expect(out).toBe('');
    out += md.push('.\n```sh\nnpm te');
    out += md.push('st\n```\nDone');
    out += md.end();
    expect(strip(out)).toBe('The build failed [L12-L14].\n┌ sh\n│ npm test\nDone\n');
    expect(out).toContain('\u001b[1mbuild\u001b[0m'); // bold
    expect(out).toContain('\u001b[2m[L12-L14]\u001b[0m'); // citation dimmed
    expect(out).toContain('\u001b[33mnpm test'); // code coloured
  });
});
