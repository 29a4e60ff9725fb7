import { LogAnalyzer, type Candidate } from './analyze.js';
import { PRIME_MIN_BYTES, PRIMING_LINES, primeOnce, worthPriming } from './prime.js';

describe('primeOnce', () => {
  test('runs the made-up log through one analyzer, once in a process, and its blocks are of the rare kinds it is for', () => {
    const made: LogAnalyzer[] = [];
    let pushed = 0;
    let candidates: Candidate[] = [];
    const make = () => {
      const analyzer = new LogAnalyzer();
      made.push(analyzer);
      return {
        push: (text: string, hints?: number) => {
          pushed++;
          analyzer.push(text, hints);
        },
        candidates: () => (candidates = analyzer.candidates()),
      };
    };
    primeOnce(make);
    primeOnce(make);
    expect(made).toHaveLength(1);
    // Three rounds of the made-up log, then the quiet lines that move the window past it.
    expect(pushed).toBeGreaterThan(3 * PRIMING_LINES.length);
    const reasons = new Set(candidates.map((c) => c.reason));
    for (const reason of ['step ended (exit 1)', 'Python traceback', 'XCTest failure', 'npm error']) expect(reasons).toContain(reason);
  });

  test('a log of known size under PRIME_MIN_BYTES is not worth it; one of unknown size (stdin) or larger is', () => {
    expect(worthPriming(undefined)).toBe(true);
    expect(worthPriming(PRIME_MIN_BYTES)).toBe(true);
    expect(worthPriming(50 * PRIME_MIN_BYTES)).toBe(true);
    expect(worthPriming(PRIME_MIN_BYTES - 1)).toBe(false);
    expect(worthPriming(0)).toBe(false);
    expect(worthPriming(Number.NaN)).toBe(true);
  });
});
