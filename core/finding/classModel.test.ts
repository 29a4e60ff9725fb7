import { describe, expect, it } from '@jest/globals';
import { analyze } from '../log/analyze.js';
import { cleanLines } from '../log/clean.js';
import type { Finding } from '../../protocol/types.js';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ABOVE_LINES, classTokens, decodeTable, LIKELY_AT, likelyClassOf, modelTable, stemOf, tableSource, trainTable } from './classModel.js';

/**
 * The class model (classModel.ts, docs/notes/analyzer.md "A class model"): a hedged guess beside an
 * `unknown` finding, never over a rules class, never below the table's threshold.
 */
const run = (...lines: string[]): string => ['[ci] $ /bin/bash -xe ci.sh', ...lines, "Build step 'Execute shell' marked build as failure", 'Finished: FAILURE'].join('\n');
const unknown = (message: string, line: number): Finding => ({ class: 'unknown', message, message_line: line, confidence: 'low', evidence: [line] });

/** A small table: two classes, each with its own words. */
const TINY = trainTable(
  [
    ...Array.from({ length: 6 }, () => ({ tokens: ['resolve', 'artifact', 'repository', '#rule:unknown'], label: 'dependency-resolution' as const })),
    ...Array.from({ length: 6 }, () => ({ tokens: ['unused', 'variable', 'rule', '#rule:lint'], label: 'lint' as const })),
    { tokens: ['once'], label: 'lint' as const },
  ],
  ['dependency-resolution', 'lint', 'unknown'],
  0.9,
);

describe('the class model', () => {
  it('guesses the class of an unknown finding from its words, hedged (the words are the log\'s own)', () => {
    const lines = ['+ fetchdeps', 'could not resolve artifact acme:widgets from repository internal', 'done'];
    const likely = likelyClassOf(lines, { start_line: 1, end_line: 3 }, unknown(lines[1] as string, 2), TINY);
    expect(likely?.class).toBe('dependency-resolution');
    expect(likely?.probability).toBeGreaterThanOrEqual(0.9);
    expect(likely?.words.length).toBeGreaterThanOrEqual(3);
    for (const w of likely?.words ?? []) expect(lines.join('\n')).toMatch(new RegExp(`\\b${w}\\b`));
    expect(likely?.words.slice(0, 3).sort()).toEqual(['artifact', 'repository', 'resolve']);
  });

  it('never speaks over a class the rules established', () => {
    const lines = ['could not resolve artifact acme:widgets from repository internal'];
    const f: Finding = { ...unknown(lines[0] as string, 1), class: 'lint', confidence: 'low' };
    expect(likelyClassOf(lines, { start_line: 1, end_line: 1 }, f, TINY)).toBeUndefined();
  });

  it('says nothing below the threshold', () => {
    const lines = ['resolve unused'];
    const sure = likelyClassOf(lines, { start_line: 1, end_line: 1 }, unknown('resolve unused', 1), { ...TINY, threshold: 0.5 });
    expect(sure).toBeDefined();
    expect(likelyClassOf(lines, { start_line: 1, end_line: 1 }, unknown('resolve unused', 1), { ...TINY, threshold: 0.99 })).toBeUndefined();
    // No word of the table: nothing.
    expect(likelyClassOf(['zzz qqq'], { start_line: 1, end_line: 1 }, unknown('zzz qqq', 1), { ...TINY, threshold: 0 })).toBeUndefined();
  });

  it('tempers its posteriors: a higher temperature makes the same guess less sure, and below LIKELY_AT it says nothing', () => {
    const lines = ['could not resolve artifact from repository'];
    const at = (temperature: number, threshold = 0) => likelyClassOf(lines, { start_line: 1, end_line: 1 }, unknown(lines[0] as string, 1), { ...TINY, temperature, threshold });
    const cold = at(1)?.probability ?? 0;
    const warm = at(3)?.probability ?? 0;
    expect(cold).toBeGreaterThan(warm);
    expect(warm).toBeGreaterThan(0.5);
    expect(at(1, LIKELY_AT)).toBeDefined();
    expect(at(20, LIKELY_AT)).toBeUndefined();
    expect(modelTable().threshold).toBe(LIKELY_AT);
    expect(modelTable().temperature).toBeGreaterThan(1);
  });

  it('drops a token held by one case only, and writes the same table from the same data', () => {
    expect(TINY.tokens.has('once')).toBe(false);
    const src = tableSource(TINY, 'test');
    const enc = /rows: \[\n([\s\S]*?)\n {2}\],/.exec(src)?.[1] ?? '';
    const back = decodeTable({ classes: TINY.classes, cases: TINY.cases, threshold: 0.9, temperature: 1, rows: enc.split('\n').map((r) => JSON.parse(r.trim().replace(/,$/, '')) as string) });
    expect([...back.tokens.entries()].map(([t, m]) => [t, [...m]])).toEqual([...TINY.tokens.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([t, m]) => [t, [...m]]));
    expect(tableSource(back, 'test')).toBe(src);
  });

  it('reads shapes, the message, the tool and the rules\' class and confidence, each once', () => {
    const lines = ['src/a.ts(3,5): error TS2339: x', '+ make all', 'make: *** [all] Error 2', 'src/a.ts(3,5): error TS2339: x'];
    const t = classTokens(lines, { start_line: 1, end_line: 4 }, { ...unknown('error TS2339: x', 1), tool: 'tsc' });
    expect(t).toEqual(expect.arrayContaining(['#code:TS', '#exit:2', '#xtrace', '#tool:tsc', '#rule:unknown', '#conf:low', 'm:error', 'error', 'make']));
    expect(new Set(t).size).toBe(t.length);
  });

  it('reduces a word to its stem, so another form of it is the same token', () => {
    expect(['resolving', 'resolved', 'resolves', 'resolve'].map(stemOf)).toEqual(['resolv', 'resolv', 'resolv', 'resolve']);
    expect(['connection', 'connections', 'connect'].map(stemOf)).toEqual(['connect', 'connect', 'connect']);
    expect(['requirements', 'requirement'].map(stemOf)).toEqual(['requirement', 'requirement']);
    expect(['is', 'yes', 'gas', 'class'].map(stemOf)).toEqual(['is', 'yes', 'gas', 'clas']);
    expect(stemOf('configurationerrors')).toBe('configuratio');
  });

  it('reads the words of the lines above the excerpt (the traced command) on a real log, as b: stems', () => {
    // Round 12's pip case (open for tuning): `+ .venv/bin/pip install ... -r requirements.txt` above pip's own error.
    const log = readFileSync(path.join(process.cwd(), 'test/fixtures/realfail/pip-path-requirement-moved/fail.log'), 'utf8');
    const lines = cleanLines(log);
    const top = analyze(log)[0];
    const f = top?.finding;
    if (!top || !f) throw new Error('no finding');
    expect(lines[top.start_line - 1]).toMatch(/^ERROR: Invalid requirement/);
    const t = classTokens(lines, top, f);
    expect(t).toEqual(expect.arrayContaining(['b:pip', 'b:install', 'b:requirement', 'b:venv', 'invalid', 'requirement', 'm:requirement', '#rule:dependency-resolution']));
    // Only the lines above the excerpt: the words of the excerpt's own lines are not b: words.
    expect(t).not.toContain('b:invalid');
    expect(top.start_line - 1).toBeLessThanOrEqual(ABOVE_LINES);
  });
});

describe('the landed table (classModelTable.ts) on made-up logs', () => {
  it('a made-up tool that cannot find its dependencies: unknown by the rules, a likely dependency resolution failure', () => {
    // ml4's table (words above, stems, temperature ~6) is surer on a longer message than the former 3-line one (0.77 there).
    const log = run('+ tidyup fetch', 'tidyup: missing dependencies: artifact foo version 2.1 not found on the module path', 'tidyup: resolve the missing dependencies of the lock file or pass --ignore-missing-deps', 'tidyup: 1 dependency unresolved');
    const f = analyze(log)[0]?.finding;
    expect(f?.class).toBe('unknown');
    expect(f?.confidence).toBe('low');
    expect(f?.likely_class?.class).toBe('dependency-resolution');
    expect(f?.likely_class?.probability).toBeGreaterThanOrEqual(modelTable().threshold);
    for (const w of f?.likely_class?.words ?? []) expect(cleanLines(log).join('\n')).toContain(w);
  });

  it('a rules class stands, with no likely class beside it', () => {
    const f = analyze(run('+ tsc -p .', "src/a.ts(3,5): error TS2339: Property 'x' does not exist on type 'Y'."))[0]?.finding;
    expect(f?.class).toBe('compile-error');
    expect(f?.likely_class).toBeUndefined();
  });

  it('an unknown finding whose words suggest nothing strongly has no likely class', () => {
    const f = analyze(run('+ zork-build --release', 'zork: widgets@2.1 not found', 'zork: giving up'))[0]?.finding;
    expect(f?.class).toBe('unknown');
    expect(f?.likely_class).toBeUndefined();
  });
});
