/** The line input measures columns: CJK and emoji neither overflow the line nor split in two. */
import React from 'react';
import { render } from 'ink-testing-library';
import stringWidth from 'string-width';
import { LineInput, editLine, lineOf } from './LineInput.js';
import { NO_KEY } from './keys.js';

const strip = (s: string): string => s.replace(/\u001b\[[0-9;?]*[a-zA-Z]/g, '');

describe('LineInput', () => {
  it('shows the end of a long CJK line within the width, the cursor at the end', () => {
    const value = '构建失败'.repeat(15); // 60 characters, 120 columns
    const { lastFrame } = render(React.createElement(LineInput, { prompt: '› ', state: lineOf(value), width: 40 }));
    const line = strip(lastFrame() ?? '');
    expect(stringWidth(line)).toBeLessThanOrEqual(40);
    expect(line.trimEnd().endsWith('构建失败')).toBe(true);
  });

  it('moves and deletes an emoji as one character', () => {
    let s = lineOf('ok 🚀');
    s = editLine(s, '', { ...NO_KEY, leftArrow: true });
    expect(s.cursor).toBe(3);
    s = editLine(s, '', { ...NO_KEY, rightArrow: true });
    expect(s.cursor).toBe(5);
    s = editLine(s, '', { ...NO_KEY, backspace: true });
    expect(s.value).toBe('ok ');
  });
});
