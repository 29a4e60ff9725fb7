import { withoutRepeats } from './index.js';

describe('withoutRepeats: one question, several parts', () => {
  const verdict = '**Not without a change:** The first error is an exception in a test [L22-L22]. A re-run will most likely fail the same way.';
  it('says a paragraph a later part repeats word for word once', () => {
    expect(withoutRepeats([`${verdict}\n\n- a fact`, `${verdict}\n\n**I can't start builds**`])).toEqual([`${verdict}\n\n- a fact`, "**I can't start builds**"]);
  });
  it('keeps short lines, code blocks and a part that is all repeats drops out', () => {
    expect(withoutRepeats(['Next step:\n\nx', 'Next step:\n\ny'])).toEqual(['Next step:\n\nx', 'Next step:\n\ny']);
    expect(withoutRepeats([`${verdict}`, '```text\nsame\n```', `${verdict}`])).toEqual([verdict, '```text\nsame\n```']);
  });
});
