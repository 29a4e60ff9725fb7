import type { Finding } from '../../../protocol/types.js';
import { chooseRemedies, HEAP_GENERAL, remedyInput, type RemedyRule } from './remedyShape.js';
import { fixRemedies, REMEDY_TABLES } from './remedies.js';

const finding = (over: Partial<Finding>): Finding => ({ class: 'unknown', message: 'x', message_line: 1, confidence: 'high', evidence: [1], ...over });
const step = (text: string, extra: object = {}) => ({ text, lines: [], ...extra });

describe('chooseRemedies: one rule for which step is emitted and which goes first', () => {
  const i = remedyInput(finding({}), undefined);
  it('orders place, wording, class, fact; a table keeps its own order within a level', () => {
    const rules: RemedyRule[] = [
      { id: 'fact', specificity: 'fact', steps: () => [step('F')] },
      { id: 'class', specificity: 'class', steps: () => [step('P', { specificity: 'place' }), step('C1'), step('C2')] },
      { id: 'w1', specificity: 'wording', steps: () => [step('W1')] },
      { id: 'w2', specificity: 'wording', steps: () => [step('W2')] },
    ];
    expect(chooseRemedies(rules, i).map((s) => s.text)).toEqual(['P', 'W1', 'W2', 'C1', 'C2', 'F']);
  });
  it('keeps only the first rule of a group that gives a step (a table listed most specific first)', () => {
    const rules: RemedyRule[] = [
      { id: 'a', specificity: 'wording', group: 'g', steps: () => [] },
      { id: 'b', specificity: 'wording', group: 'g', steps: () => [step('B')] },
      { id: 'c', specificity: 'wording', group: 'g', steps: () => [step('C')] },
    ];
    expect(chooseRemedies(rules, i).map((s) => s.text)).toEqual(['B']);
  });
  it('drops a general step that a kept specific one supersedes, whatever their order in the tables', () => {
    const rules: RemedyRule[] = [
      { id: 'class', specificity: 'class', steps: () => [step('heap', { id: HEAP_GENERAL }), step('other')] },
      { id: 'metaspace', specificity: 'wording', supersedes: [HEAP_GENERAL], steps: () => [step('metaspace')] },
    ];
    expect(chooseRemedies(rules, i).map((s) => s.text)).toEqual(['metaspace', 'other']);
  });
});

describe('the remedy tables', () => {
  it('name every rule once', () => {
    const ids = REMEDY_TABLES.map((r) => r.id);
    expect(ids.filter((id, n) => ids.indexOf(id) !== n)).toEqual([]);
  });
  it('never give Metaspace the heap step, and put the wording first', () => {
    const steps = fixRemedies(finding({ class: 'out-of-memory', exception: 'OutOfMemoryError', message: 'java.lang.OutOfMemoryError: Metaspace' }), undefined).steps.map((s) => s.text).join('\n');
    expect(steps).toContain('MaxMetaspaceSize');
    expect(steps).not.toContain('-Xmx');
  });
});

describe('diagnostics: a pytest fixture scope mismatch', () => {
  it("names the requesting scope, the fixture, and the wider-scoped fixture pytest has for tmp_path", () => {
    const message = 'ScopeMismatch: You tried to access the function scoped fixture tmp_path with a session scoped request object. Requesting fixture stack:';
    const text = fixRemedies(finding({ class: 'test-error', message }), undefined).steps.map((s) => s.text).join('\n');
    expect(text).toContain('A `session`-scoped fixture asks for the function-scoped fixture `tmp_path`');
    expect(text).toContain('`tmp_path_factory.mktemp(...)`');
  });
});

describe('the wording tables: a few known messages', () => {
  const text = (over: Partial<Finding>): string => fixRemedies(finding(over), undefined).steps.map((s) => s.text).join('\n');
  it("TypeScript's readonly assignment, JSON's BigInt, flake8's C901", () => {
    expect(text({ class: 'compile-error', message: "src/admin.ts(6,10): error TS2540: Cannot assign to 'enabled' because it is a read-only property." })).toContain('`enabled` is declared `readonly`');
    expect(text({ class: 'runtime-exception', exception: 'TypeError', message: 'TypeError: Do not know how to serialize a BigInt' })).toContain('`value.toString()`');
    expect(text({ class: 'lint', message: "shop/pricing.py:1:1: C901 'final_price' is too complex (10)" })).toContain('over the `max-complexity` flake8 runs with');
    expect(text({ class: 'ci-script', message: "ESLint couldn't find an eslint.config.(js|mjs|cjs) file." })).toContain('`npx @eslint/migrate-config .eslintrc.json`');
  });
});

