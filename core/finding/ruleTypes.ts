/** The shapes of the evidence rules (rules.ts, families/*.ts): a module they all import. */
import type { FindingClass } from '../../protocol/types.js';

export interface RuleHit {
  tool?: string;
  code?: string;
  symbol?: string;
  dependency?: string;
  host?: string;
  exception?: string;
  /** The location the line itself names. */
  file?: string;
  line?: number;
  column?: number;
  /** The test the line itself names (EUnit's `mod_tests: t_test...*timed out*`). */
  test?: string;
}

export interface Rule {
  cls: FindingClass;
  /** Lower wins among the rules that matched some line of the window. */
  priority: number;
  re: RegExp;
  confidence: 'high' | 'medium' | 'low';
  /** What the match names; the default is the tool only. */
  read?: (m: RegExpExecArray, line: string, below?: RegExpExecArray) => RuleHit;
  tool?: string;
  /** A line the rule matches but which only frames or concludes: kept as evidence, never the message when another line carries it. */
  framing?: true;
  /** The rule holds only when one of the next 3 lines matches this too (rustc's ` --> file:line:col` under its `error: `). */
  below?: RegExp;
  /** The place the tool prints on a line near this one (gtest's `file:line: Failure` above its `Expected equality`, valgrind's first `at` frame below): lines `from`..`to` around it, nearest first; its groups `file`, `line`, `col` are the place. `required`: the rule holds only with it. */
  near?: Near;
}

export interface Near {
  re: RegExp;
  from: number;
  to: number;
  required?: true;
}
