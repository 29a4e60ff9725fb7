/**
 * Node's assert's and mocha's diff of the values between an assertion's message and its frames (session 49, helper
 * loc1; docs/notes/analyzer.md "Session 49 (helper loc1)"): the frame under a long diff is the place. Real mocha 10 /
 * Node 20 output (realfail mocha-spec-object-integer-key-order-long, tuned round 21), with counter-examples.
 */
import { analyze } from '../log/analyze.js';

const findingOf = (log: string[]) => analyze(log.join('\n'))[0]?.finding;

const mocha = (diff: string[], below: string[] = ['      at Context.<anonymous> (test/route.spec.js:13:12)', '      at process.processImmediate (node:internal/timers:483:21)']) => [
  '+ npx mocha',
  '  route',
  '    1) visits aisles in the order they are first reached',
  '',
  '  261 passing (91ms)',
  '  1 failing',
  '',
  '  1) route',
  '       visits aisles in the order they are first reached:',
  '',
  '      AssertionError [ERR_ASSERTION]: Expected values to be strictly deep-equal:',
  ...diff,
  ...below,
  '',
  "Build step 'Execute shell' marked build as failure",
  'Finished: FAILURE',
];
const valuesDiff = ['+ actual - expected', '', '  [', "+   '3',", "+   '12',", "-   '12',", "-   '3',", "    'M'", '  ]', '      + expected - actual', '', '       [', '      -  "3"', '         "12"', '      +  "3"', '         "M"', '       ]', '      '];

describe("an assertion's frame under the diff of its values", () => {
  it("gives the test's frame 19 lines below the message", () => {
    expect(findingOf(mocha(valuesDiff))?.location).toMatchObject({ file: 'test/route.spec.js', line: 13, column: 12 });
  });

  it('does not read past the build\'s end, nor without a diff past 7 lines', () => {
    expect(findingOf(mocha(valuesDiff, ['', "Build step 'Execute shell' marked build as failure", '      at Context.<anonymous> (test/route.spec.js:13:12)']))?.location).toBeUndefined();
    const noDiff = valuesDiff.map((l) => l.replace(/^(\s*)\+ /, '$1  ')).map((l) => (l.trim() === '' ? '  .' : l));
    expect(findingOf(mocha(noDiff))?.location).toBeUndefined();
  });
});
