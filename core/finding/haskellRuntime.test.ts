import { findingOf } from './index.js';
import { analyze } from '../log/analyze.js';

/** A program GHC compiled, stopped by its runtime (GHC 9.0, run here: ux13's parcel-rates). */
const log = (...lines: string[]): string[] => ['+ ./build/unit-tests', 'Transit', '  ok   transit Economy zone 3', ...lines, "[Pipeline] }"];

describe("a Haskell program's uncaught exception, as GHC's runtime prints it", () => {
  it('a pattern match with no equation for the value: PatternMatchFail at the first line of the span GHC names', () => {
    const lines = log('unit-tests: src/Shipping.hs:(28,1)-(29,40): Non-exhaustive patterns in function transitDays', '');
    expect(findingOf(lines, { start_line: 4, end_line: 4 })).toMatchObject({ class: 'runtime-exception', tool: 'ghc', exception: 'PatternMatchFail', location: { file: 'src/Shipping.hs', line: 28 } });
    // A one-line span (`file:line:col-col`) and a `case`.
    const one = log("app: src/Zones.hs:12:5-40: Non-exhaustive patterns in case", '');
    expect(findingOf(one, { start_line: 4, end_line: 4 })).toMatchObject({ class: 'runtime-exception', exception: 'PatternMatchFail', location: { file: 'src/Zones.hs', line: 12 } });
  });

  it("`error` over its call stack: ErrorCall, placed at the project's frame, not GHC's libraries", () => {
    const lines = log('report: Prelude.head: empty list', 'CallStack (from HasCallStack):', '  error, called at libraries/base/GHC/List.hs:1646:3 in base:GHC.List', '  errorEmptyList, called at libraries/base/GHC/List.hs:85:11 in base:GHC.List', '  head, called at src/Report.hs:14:22 in main:Report');
    expect(findingOf(lines, { start_line: 4, end_line: 8 })).toMatchObject({ class: 'runtime-exception', tool: 'ghc', exception: 'ErrorCall', location: { file: 'src/Report.hs', line: 14 } });
  });

  it('the analyzer ranks the runtime line first, above the exit code and the skipped stage', () => {
    const text = [...log('unit-tests: src/Shipping.hs:(28,1)-(29,40): Non-exhaustive patterns in function transitDays', ''), 'Failed in branch unit', 'Stage "Package" skipped due to earlier failure(s)', 'ERROR: script returned exit code 1', 'Finished: FAILURE'].join('\n');
    const top = analyze(text)[0];
    expect(top?.reason).toBe('Haskell runtime error');
    expect(top?.finding).toMatchObject({ class: 'runtime-exception', location: { file: 'src/Shipping.hs', line: 28 } });
  });
});
