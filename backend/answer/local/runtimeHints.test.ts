import type { Finding } from '../../../protocol/types.js';
import { runtimeHintApplies } from './runtimeHints.js';

describe("the runtime hints' patterns", () => {
  // `(.+?)\s*$` retried the blanks at every start: a 40,000-character message took 8 s (review rv1, session 51).
  it('read a long message with a run of blanks in linear time', () => {
    const f = { class: 'runtime-exception', message: `app: src/M.hs:3:5-9: Non-exhaustive patterns in case${' '.repeat(40_000)}x` } as Finding;
    const t = Date.now();
    expect(runtimeHintApplies(f)).toBe(true);
    expect(Date.now() - t).toBeLessThan(1000);
  });
});
