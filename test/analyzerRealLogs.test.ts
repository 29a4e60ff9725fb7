/**
 * Issue 15: the failing logs made on this machine (test/fixtures/logs, labelled in index.jsonl)
 * and the cases the issue lists, through the analyzer and the offline answers.
 */
import { askLocal } from './helpers/askLocal.js';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ChatContext } from '../backend/answer/engine.js';
import { analyze, analyzeLines, excerptText } from '../core/log/analyze.js';
import { cleanLines } from '../core/log/clean.js';
import { sparseChatContext, termRetriever } from './answerFixtures.js';

const DIR = path.join(process.cwd(), 'test/fixtures/logs');
interface Labelled {
  id: string;
  log: string;
  start_line: number;
  end_line: number;
}
const INDEX: Labelled[] = readFileSync(path.join(DIR, 'index.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as Labelled);
const read = (name: string): string => readFileSync(path.join(DIR, name), 'utf8');
const overlaps = (e: { start_line: number; end_line: number }, l: Labelled): boolean => e.start_line <= l.end_line && e.end_line >= l.start_line;

describe('real failing logs: the labelled cause is the first excerpt', () => {
  test.each(INDEX.map((l) => [l.id, l] as const))('%s', (_id, label) => {
    const [top] = analyze(read(label.log), { maxExcerpts: 3 });
    expect(top).toBeDefined();
    expect(overlaps(top ?? { start_line: 0, end_line: 0 }, label)).toBe(true);
  });
});

describe('issue 15 cases', () => {
  test('Gradle + Kotlin: the e: diagnostic comes first, named Kotlin, over "Compilation error. See log"', () => {
    const [top] = analyze(read('gradle-kotlin.log'));
    expect(top).toMatchObject({ start_line: 15, end_line: 15, reason: 'Kotlin compiler error' });
  });

  test('tsc: `file.tsx(142,23): error TS2345` is TypeScript, not .NET; a .cs one is C#', () => {
    const ts = analyze(['> tsc', 'src/PaymentForm.tsx(142,23): error TS2345: Argument of type \'string\' is not assignable to parameter of type \'number\'.', 'exit 2'].join('\n'));
    expect(ts[0]?.reason).toBe('TypeScript compiler error');
    expect(analyze(read('tsc.log'))[0]?.reason).toBe('TypeScript compiler error');
    const cs = analyze('Program.cs(12,5): error CS0103: The name \'x\' does not exist in the current context [/src/app.csproj]\n');
    expect(cs[0]?.reason).toBe('C# compiler error');
  });

  test('Jenkinsfile compile error: WorkflowScript with its caret line, not the `1 error` line', () => {
    const [top] = analyze(read('jenkins-workflowscript.log'));
    expect(top?.start_line).toBeLessThanOrEqual(3);
    expect(top?.end_line).toBeGreaterThanOrEqual(5);
    expect(top?.end_line).toBeLessThan(7); // line 7 is `1 error`
    expect(top?.reason).toBe('Jenkins pipeline script error');
  });

  test('a very short log whose first line is the error is answered with that line', () => {
    expect(analyze(read('short-first-line.log'))[0]).toMatchObject({ start_line: 1, end_line: 1 });
    const other = ['fatal: not a git repository (or any of the parent directories): .git', 'Build step \'Execute shell\' marked build as failure', 'Finished: FAILURE'].join('\n');
    expect(analyze(other)[0]).toMatchObject({ start_line: 1, end_line: 1 });
  });

  test('a harmless `sh: 1: jq: not found` early ranks below the OutOfMemoryError where the build died', () => {
    const [top] = analyze(read('jq-then-oom.log'));
    expect(top).toMatchObject({ start_line: 16 });
    // The same without the JVM's `Exception in thread` line: the build went on after jq for a
    // long time and stopped right after the heap error.
    const lines = [
      '+ ./build.sh',
      'sh: 1: jq: not found',
      ...Array.from({ length: 400 }, (_, i) => `> Task :module${i}:compileJava`),
      'java.lang.OutOfMemoryError: Java heap space',
      'ERROR: script returned exit code 1',
      'Finished: FAILURE',
    ];
    const excerpts = analyze(lines.join('\n'));
    expect(excerpts[0]?.start_line).toBe(403);
    expect(excerpts.findIndex((e) => e.start_line === 2)).toBeGreaterThan(0);
  });

  test('fatal over survivable in general: compiler warnings and a retried error before the real one', () => {
    const [top] = analyze(read('gcc-make.log'));
    expect(top).toMatchObject({ start_line: 16, reason: 'C/C++ compiler error' });
  });

  test('Maven multi-module: the compile error first; the reactor FAILURE row and "Failed to execute goal ... on project" in the excerpts', () => {
    const text = read('maven-multimodule.log');
    const lines = cleanLines(text);
    const excerpts = analyze(text);
    expect(excerpts[0]?.start_line).toBeLessThanOrEqual(38);
    expect(excerpts[0]?.end_line).toBeGreaterThanOrEqual(38);
    const shown = excerpts.map((e) => excerptText(lines, e)).join('\n');
    expect(shown).toMatch(/shop-orders \.+ FAILURE/);
    expect(shown).toMatch(/Failed to execute goal .* on project shop-orders/);
    // The help link and Total time are not where the first three excerpts point.
    const first3 = excerpts.slice(0, 3).map((e) => excerptText(lines, e)).join('\n');
    expect(first3).not.toMatch(/Total time|cwiki\.apache\.org/);
  });

  test('a passing log: "no failure found", score 0', () => {
    const excerpts = analyze(read('passing-make.log'));
    expect(excerpts).toHaveLength(1);
    expect(excerpts[0]).toMatchObject({ score: 0, reason: 'no failure found' });
  });
});

const ask = askLocal;

function logContext(log: string): ChatContext {
  const lines = cleanLines(log);
  const base = sparseChatContext();
  return {
    ...base,
    ciContext: { buildDetails: { consoleLog: `${lines.join('\n')}\n` } },
    logLineCount: lines.length,
    failureExcerpts: analyzeLines(lines).map((e) => ({ ...e, text: excerptText(lines, e) })),
    retrieve: termRetriever(log),
  };
}

describe('issue 15: answers that use the excerpt', () => {
  test('"which file and line has the compile error?" quotes the location and message (Kotlin)', async () => {
    const text = await ask('which file and line has the compile error?', logContext(read('gradle-kotlin.log')));
    expect(text).toContain('InvoiceController.kt:57:33');
    expect(text).toContain("Unresolved reference 'toMoney'");
    expect(text).toMatch(/line 57, column 33/);
    expect(text).toMatch(/\*\*Next step:\*\* open `\/var\/jenkins_home\/workspace\/billing\/src\/main\/kotlin\/com\/acme\/billing\/InvoiceController\.kt` at line 57, column 33/);
  });

  test('"show me the error" and "what does the compiler say?" quote places and messages (tsc, javac, Maven)', async () => {
    const tsc = await ask('what does the compiler say?', logContext(read('tsc.log')));
    expect(tsc).toContain('PaymentForm.tsx:11:28');
    expect(tsc).toContain('PaymentForm.tsx:19:37');
    expect(tsc).toContain("Type 'string' is not assignable to type 'number'.");
    const javac = await ask('show me the error', logContext(read('javac.log')));
    expect(javac).toContain('Invoice.java:11');
    expect(javac).toContain('incompatible types: int cannot be converted to String');
    const maven = await ask('which file has the error?', logContext(read('maven-multimodule.log')));
    expect(maven).toContain('Order.java:17:15');
    // The place's message and the symbol javac names under it (since the where answer leads with the finding's place: quoted, and named in the next step).
    expect(maven).toContain('cannot find symbol');
    expect(maven).toContain('symbol:   method toMoney()');
    expect(maven).toContain('about `toMoney`');
    expect(maven).not.toContain('Other places');
  });

  test('test failures and Go/Rust diagnostics: the place the runner or compiler names', async () => {
    const py = await ask('which file and line?', logContext(read('pytest.log')));
    expect(py).toMatch(/`tests\/test_discount\.py`, line 19/);
    expect(py).toContain('AssertionError');
    const go = await ask('which file and line has the error?', logContext(read('go-build.log')));
    expect(go).toMatch(/`\.\/broken\.go`, line 5, column 9/);
    expect(go).toContain('too many return values');
    const rust = await ask('show me the compiler error', logContext(read('cargo.log')));
    expect(rust).toMatch(/`src\/main\.rs`, line 10, column 61/);
    expect(rust).toContain('mismatched types');
  });

  test('the failure answer\'s next step names the file and line', async () => {
    const text = await ask('why did the build fail?', logContext(read('gradle-kotlin.log')));
    expect(text).toMatch(/\*\*Next step:\*\* open `[^`]*InvoiceController\.kt` at line 57, column 33/);
    const c = await ask('why did it fail?', logContext(read('gcc-make.log')));
    expect(c).toMatch(/\*\*Next step:\*\* open `src\/parse\.c` at line 10, column 13/);
  });

  test('a passing log: the answer says the build passed', async () => {
    const text = await ask('why did the build fail?', logContext(read('passing-make.log')));
    expect(text).toMatch(/did not fail/);
    expect(text).toMatch(/SUCCESS/);
  });
});

describe('issue 15: GitHub Actions steps', () => {
  test('an error printed by an earlier step that passed ranks below the failing step\'s own error', () => {
    const stamp = (i: number): string => `2026-11-23T09:14:${String(10 + i).padStart(2, '0')}.1234567Z `;
    const lines = [
      '##[group]Run pip install -r requirements.txt',
      'pip install -r requirements.txt',
      '##[endgroup]',
      'Traceback (most recent call last):',
      '  File "/opt/hostedtoolcache/setup.py", line 3, in <module>',
      'ImportError: optional speedups not available',
      'Successfully installed shop-pricing-1.0',
      '##[group]Run ./scripts/check-licenses.sh',
      './scripts/check-licenses.sh',
      '##[endgroup]',
      'Error: 2 dependencies have no licence: left-pad, tiny-lib',
      '##[error]Process completed with exit code 1.',
    ].map((l, i) => stamp(i) + l);
    const [top] = analyze(lines.join('\n'));
    expect(top).toMatchObject({ start_line: 11 });
  });
});

describe('issue 15: npm 9+ prints `npm error`', () => {
  test('the code line and its message, without the pointer at the debug log', () => {
    const [top] = analyze(read('npm-install.log'));
    expect(top).toMatchObject({ start_line: 2, end_line: 3, reason: 'npm error' });
  });
});

describe('issue 15: Vitest', () => {
  test('the failure under `Failed Tests` with its diff and code frame, up to the separator', () => {
    const [top] = analyze(read('vitest.log'));
    expect(top).toMatchObject({ start_line: 15, end_line: 30, reason: 'Vitest test failure' });
  });

});
