const { sum, mean } = require('../dist/sum.js');
const { report } = require('../dist/format.js');

test('sum adds numbers', () => {
  expect(sum([1, 2, 3])).toBe(6);
});
test('mean of nothing is zero', () => {
  expect(mean([])).toBe(0);
});
test('report formats the mean', () => {
  expect(report('load', [1, 2])).toBe('load: mean 1.50 over 2 values');
});
